/* thirtyfour.c — the magic-square search of solve/thirtyfour.h. Invariant of
 * the search: sum[l] and left[l] are the sum and the count of the unfilled
 * cells of line l over the cells placed so far, and `used` has the bits of
 * the blocks on the board; every complete line adds up to the magic sum. */
#include "solve/thirtyfour.h"

#include <string.h>

#include "core/clock.h"
#include "games/symmetry.h"

typedef struct search {
    thirtyfour_lines_t ln;
    int order[THIRTYFOUR_MAX_CELLS];        /* the cells in the order filled */
    int forced_by[THIRTYFOUR_MAX_CELLS];    /* per step: a line it completes, or -1 */
    int num_lines_of[THIRTYFOUR_MAX_CELLS]; /* lines through each cell */
    int lines_of[THIRTYFOUR_MAX_CELLS][4];  /* (a cell is on at most 4 lines) */
    uint8_t given[THIRTYFOUR_MAX_CELLS], cell[THIRTYFOUR_MAX_CELLS];
    int sum[THIRTYFOUR_MAX_LINES], left[THIRTYFOUR_MAX_LINES];
    uint32_t used;
    thirtyfour_visit_fn visit;
    void *ctx;
    thirtyfour_result_t *res;
} search_t;

/* The fill order: a cell that completes a line whenever there is one (its
 * value is then forced), else the lowest cell of the line with the most
 * cells already in the order. */
static void plan(search_t *x)
{
    const thirtyfour_lines_t *ln = &x->ln;
    bool in[THIRTYFOUR_MAX_CELLS] = {false};
    int filled[THIRTYFOUR_MAX_LINES] = {0};
    for (int step = 0; step < ln->cells; step++) {
        int pick = -1, best = -1, forced = -1;
        for (int l = 0; l < ln->num && forced < 0; l++)
            if (filled[l] == ln->n - 1)
                for (int k = 0; k < ln->n; k++)
                    if (!in[ln->cell[l][k]]) pick = ln->cell[l][k], forced = l;
        for (int l = 0; l < ln->num && forced < 0; l++)
            for (int k = 0; k < ln->n; k++) {
                int c = ln->cell[l][k];
                if (!in[c] && (filled[l] > best || (filled[l] == best && c < pick)))
                    best = filled[l], pick = c;
            }
        x->order[step] = pick, x->forced_by[step] = forced;
        in[pick] = true;
        for (int i = 0; i < x->num_lines_of[pick]; i++) filled[x->lines_of[pick][i]]++;
    }
}

/* Put v on c (sign +1) or take it off (-1); a given block stays in `used`. */
static void place(search_t *x, int c, int v, int sign)
{
    x->cell[c] = (uint8_t)(sign > 0 ? v : 0);
    if (!x->given[c]) x->used ^= 1u << v;
    for (int i = 0; i < x->num_lines_of[c]; i++) {
        int l = x->lines_of[c][i];
        x->sum[l] += sign * v, x->left[l] -= sign;
    }
}

/* Whether v can go on c: a line c completes adds up to the magic sum, and
 * every other line through c can still reach it (its other free cells take
 * at least 1 + 2 + ... and at most N*N each). */
static bool fits(const search_t *x, int c, int v)
{
    for (int i = 0; i < x->num_lines_of[c]; i++) {
        int l = x->lines_of[c][i], sum = x->sum[l] + v, rest = x->left[l] - 1;
        if (rest == 0 ? sum != x->ln.magic
                      : sum + rest * (rest + 1) / 2 > x->ln.magic ||
                            sum + rest * x->ln.cells < x->ln.magic)
            return false;
    }
    return true;
}

static int found(search_t *x)
{
    bool canonical = thirtyfour_canonical(x->ln.n, x->cell);
    x->res->solutions++;
    x->res->folded += canonical;
    return x->visit ? x->visit(x->cell, canonical, x->ctx) : 0;
}

static int dfs(search_t *x, int step)
{
    if (step == x->ln.cells) return found(x);
    int c = x->order[step], lo = 1, hi = x->ln.cells;
    if (x->forced_by[step] >= 0) lo = hi = x->ln.magic - x->sum[x->forced_by[step]];
    if (x->given[c]) {
        if (x->forced_by[step] >= 0 && lo != x->given[c]) return 0;
        lo = hi = x->given[c];
    }
    for (int v = lo < 1 ? 1 : lo; v <= hi && v <= x->ln.cells; v++) {
        if ((x->used >> v & 1) && x->given[c] != v) continue;
        x->res->nodes++;
        if (!fits(x, c, v)) continue;
        place(x, c, v, +1);
        int rc = dfs(x, step + 1);
        place(x, c, v, -1);
        if (rc) return rc;
    }
    return 0;
}

bool thirtyfour_canonical(int n, const uint8_t *cell)
{
    for (int k = 1; k < SYM_COUNT; k++) {
        uint8_t img[THIRTYFOUR_MAX_CELLS];
        for (int c = 0; c < n * n; c++) {
            int r, col;
            sym_map((sym_t)k, n, c / n, c % n, &r, &col);
            img[r * n + col] = cell[c];
        }
        if (memcmp(img, cell, (size_t)(n * n)) < 0) return false;
    }
    return true;
}

int thirtyfour_solve(int n, const uint8_t *given, thirtyfour_visit_fn visit, void *ctx,
                     thirtyfour_result_t *out)
{
    if (n < THIRTYFOUR_MIN_N || n > THIRTYFOUR_MAX_N)
        return hoyle_error(HOYLE_EINVAL, "thirtyfour: side %d is out of range %d..%d", n,
                           THIRTYFOUR_MIN_N, THIRTYFOUR_MAX_N);
    search_t x;
    memset(&x, 0, sizeof x);
    memset(out, 0, sizeof *out);
    thirtyfour_lines(n, &x.ln);
    for (int l = 0; l < x.ln.num; l++) {
        x.left[l] = n;
        for (int k = 0; k < n; k++) {
            int c = x.ln.cell[l][k];
            x.lines_of[c][x.num_lines_of[c]++] = l;
        }
    }
    for (int c = 0; given && c < x.ln.cells; c++) {
        int v = given[c];
        if (v > x.ln.cells || (v && (x.used >> v & 1)))
            return hoyle_error(HOYLE_EINVAL,
                               "thirtyfour: given block %d repeats or is out of range", v);
        x.given[c] = (uint8_t)v;
        if (v) x.used |= 1u << v;
    }
    plan(&x);
    x.visit = visit, x.ctx = ctx, x.res = out;
    double t0 = clock_seconds();
    int rc = dfs(&x, 0);
    out->seconds = clock_seconds() - t0;
    return rc;
}
