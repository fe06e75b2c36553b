/* fifteen_ida.c — IDA* for the Fifteen puzzle (Korf 1985) with the
 * Manhattan, linear-conflict and pattern-database heuristics (solve/fifteen.h).
 *
 * One mutable board (label per cell, cell per label), changed and undone in
 * place along the depth-first path. Each iteration searches every path whose
 * f = g + h stays within the bound; the next bound is the least f that went
 * past it. Invariant along the path: the incremental heuristic terms (md,
 * line conflicts, table indices) equal their values recomputed from the
 * board. */
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "solve/fifteen_internal.h"

#define MAX_CELLS     FIFTEEN_MAX_CELLS
#define PROGRESS_MASK ((1ull << 22) - 1)

typedef struct search {
    int n, cells;
    uint8_t label[MAX_CELLS]; /* cell -> label (the tile's goal cell) */
    uint8_t pos[MAX_CELLS];   /* label -> cell */
    int blank, blank_label;
    int8_t nbr[MAX_CELLS][4];
    uint8_t mdist[MAX_CELLS][MAX_CELLS];
    /* lc */
    bool lc;
    int line_conf[2][FIFTEEN_MAX_N]; /* [0] rows, [1] columns */
    /* pdb */
    const fifteen_pdb_t *pdb;
    uint32_t idx[FPDB_MAX_PATTERNS], ridx[FPDB_MAX_PATTERNS];
    /* the search */
    int bound, next_bound;
    int length; /* the depth the goal was reached at */
    uint64_t nodes, max_nodes;
    bool stopped;
    uint8_t path[FIFTEEN_SOLVE_MAX_LEN];
    const fifteen_solve_params_t *params;
} search_t;

/* Linear conflicts of row (dim 0) or column (dim 1) `k`: 2 x (tiles in
 * their goal line there - the longest subsequence of them in goal order). */
static int line_conflicts(const search_t *S, int dim, int k)
{
    int n = S->n, goal[FIFTEEN_MAX_N], m = 0;
    for (int i = 0; i < n; i++) {
        int c = dim == 0 ? k * n + i : i * n + k, l = S->label[c];
        if (l == S->blank_label) continue;
        int line = dim == 0 ? l / n : l % n, along = dim == 0 ? l % n : l / n;
        if (line == k) goal[m++] = along;
    }
    int best = 0, lis[FIFTEEN_MAX_N];
    for (int i = 0; i < m; i++) {
        lis[i] = 1;
        for (int j = 0; j < i; j++)
            if (goal[j] < goal[i] && lis[j] + 1 > lis[i]) lis[i] = lis[j] + 1;
        if (lis[i] > best) best = lis[i];
    }
    return 2 * (m - best);
}

static int md_of_board(const search_t *S)
{
    int h = 0;
    for (int c = 0; c < S->cells; c++)
        if (S->label[c] != S->blank_label) h += S->mdist[c][S->label[c]];
    return h;
}

static inline int pdb_sum(const fifteen_pdb_t *p, const uint32_t *idx)
{
    int h = 0;
    for (int i = 0; i < p->num_patterns; i++) h += p->table[i][idx[i]];
    return h;
}

static int pdb_h(const search_t *S)
{
    const fifteen_pdb_t *p = S->pdb;
    int h = 0, r = 0;
    for (int i = 0; i < p->num_patterns; i++)
        h += p->table[i][S->idx[i]], r += p->table[i][S->ridx[i]];
    return h > r ? h : r;
}

/* Slide the tile on cell `from` into the blank (the blank goes to `from`). */
static inline void slide(search_t *S, int from)
{
    int to = S->blank, l = S->label[from];
    S->label[to] = (uint8_t)l, S->label[from] = (uint8_t)S->blank_label;
    S->pos[l] = (uint8_t)to, S->pos[S->blank_label] = (uint8_t)from;
    S->blank = from;
}

/* What every node does first: 1 at the goal (h == 0: the path is
 * complete), -1 when the node limit stops the search, else 0; and a
 * progress report every 2^22 nodes. */
static inline int arrive(search_t *S, int g, int h)
{
    if (h == 0) {
        S->length = g;
        return 1;
    }
    if ((S->nodes & PROGRESS_MASK) == 0 && S->params->progress)
        S->params->progress(S->nodes, S->bound, S->params->ctx);
    if (S->max_nodes && S->nodes >= S->max_nodes) {
        S->stopped = true;
        return -1;
    }
    return 0;
}

/* One node, pattern-database heuristic (steps 1-3 per move): h is its h.
 * Returns true when the goal was reached below (S->path holds the way). */
static bool dfs_pdb(search_t *S, int g, int h, int last)
{
    int at = arrive(S, g, h);
    if (at) return at > 0;
    const fifteen_pdb_t *p = S->pdb;
    for (int d = 0; d < 4; d++) {
        int from = S->nbr[S->blank][d];
        if (from < 0 || d == (last ^ 1)) continue;
        S->nodes++;
        /* 1. the moving tile's two table indices change by its step */
        int to = S->blank, l = S->label[from], tl = p->transpose[l];
        int pi = p->pat_of[l], ri = p->pat_of[tl];
        uint32_t di = (uint32_t)((to - from) * (1 << p->shift_of[l]));
        uint32_t dr =
            (uint32_t)(((int)p->transpose[to] - (int)p->transpose[from]) * (1 << p->shift_of[tl]));
        S->idx[pi] += di, S->ridx[ri] += dr;
        /* 2. prune past the bound, remembering the least f that went past;
         * the mirrored sum is looked up only when the plain one does not
         * prune by two or more (f then may be understated by the plain sum,
         * which can only make the next bound smaller, never skip one) */
        int h2 = pdb_sum(p, S->idx);
        if (g + 1 + h2 <= S->bound + 1) {
            int r = pdb_sum(p, S->ridx);
            if (r > h2) h2 = r;
        }
        if (g + 1 + h2 > S->bound) {
            if (g + 1 + h2 < S->next_bound) S->next_bound = g + 1 + h2;
        } else {
            /* 3. go down */
            slide(S, from);
            S->path[g] = (uint8_t)d;
            if (dfs_pdb(S, g + 1, h2, d)) return true;
            slide(S, to);
        }
        S->idx[pi] -= di, S->ridx[ri] -= dr;
        if (S->stopped) return false;
    }
    return false;
}

/* The same with Manhattan distance, plus the linear conflicts of the two
 * lines the moving tile leaves and enters when S->lc. */
static bool dfs_md(search_t *S, int g, int md, int lc, int last)
{
    int at = arrive(S, g, md);
    if (at) return at > 0;
    int n = S->n;
    for (int d = 0; d < 4; d++) {
        int from = S->nbr[S->blank][d];
        if (from < 0 || d == (last ^ 1)) continue;
        S->nodes++;
        int to = S->blank, l = S->label[from];
        int md2 = md - S->mdist[from][l] + S->mdist[to][l], lc2 = lc;
        /* a vertical move changes the tile's row (dim 0), a horizontal one its column */
        int dim = d < 2 ? 0 : 1, a = dim == 0 ? from / n : from % n, b = dim == 0 ? to / n : to % n;
        int old_a = 0, old_b = 0;
        slide(S, from);
        if (S->lc) {
            old_a = S->line_conf[dim][a], old_b = S->line_conf[dim][b];
            S->line_conf[dim][a] = line_conflicts(S, dim, a);
            S->line_conf[dim][b] = line_conflicts(S, dim, b);
            lc2 = lc - old_a - old_b + S->line_conf[dim][a] + S->line_conf[dim][b];
        }
        int f = g + 1 + md2 + lc2;
        if (f > S->bound) {
            if (f < S->next_bound) S->next_bound = f;
        } else {
            S->path[g] = (uint8_t)d;
            if (dfs_md(S, g + 1, md2, lc2, d)) return true;
        }
        slide(S, to);
        if (S->lc) S->line_conf[dim][a] = old_a, S->line_conf[dim][b] = old_b;
        if (S->stopped) return false;
    }
    return false;
}

static int setup(search_t *S, const fifteen_board_t *b, fifteen_heuristic_t heuristic,
                 const fifteen_pdb_t *pdb)
{
    memset(S, 0, sizeof *S);
    int n = b->n;
    S->n = n, S->cells = b->cells;
    S->blank_label = b->goal_cell[0];
    for (int c = 0; c < b->cells; c++) {
        S->label[c] = b->goal_cell[b->cell[c]];
        S->pos[S->label[c]] = (uint8_t)c;
        if (b->cell[c] == 0) S->blank = c;
        static const int step[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int d = 0; d < 4; d++) {
            int r = c / n + step[d][0], col = c % n + step[d][1];
            S->nbr[c][d] = (int8_t)(r >= 0 && r < n && col >= 0 && col < n ? r * n + col : -1);
        }
        for (int e = 0; e < b->cells; e++)
            S->mdist[c][e] = (uint8_t)(abs(c / n - e / n) + abs(c % n - e % n));
    }
    if (heuristic == FIFTEEN_H_PDB) {
        if (pdb == NULL || pdb->n != n || pdb->blank_goal != S->blank_label)
            return hoyle_error(HOYLE_EINVAL,
                               "fifteen solve: the pattern databases are for another goal");
        S->pdb = pdb;
        fpdb_indices(pdb, S->pos, S->idx, S->ridx);
    }
    S->lc = heuristic == FIFTEEN_H_LC;
    if (S->lc)
        for (int dim = 0; dim < 2; dim++)
            for (int k = 0; k < n; k++) S->line_conf[dim][k] = line_conflicts(S, dim, k);
    return HOYLE_OK;
}

static int heuristic_of(const search_t *S)
{
    if (S->pdb) return pdb_h(S);
    int h = md_of_board(S);
    if (S->lc)
        for (int dim = 0; dim < 2; dim++)
            for (int k = 0; k < S->n; k++) h += S->line_conf[dim][k];
    return h;
}

int fifteen_heuristic_value(const fifteen_board_t *b, fifteen_heuristic_t heuristic,
                            const fifteen_pdb_t *pdb)
{
    search_t S;
    int status = setup(&S, b, heuristic, pdb);
    return status ? status : heuristic_of(&S);
}

/* The parity argument of games/fifteen/board.c, on labels. */
static bool solvable(const search_t *S)
{
    bool seen[MAX_CELLS] = {false};
    int cycles = 0;
    for (int c = 0; c < S->cells; c++) {
        if (seen[c]) continue;
        cycles++;
        for (int x = c; !seen[x]; x = S->label[x]) seen[x] = true;
    }
    return ((S->cells - cycles) & 1) == (S->mdist[S->blank][S->blank_label] & 1);
}

int fifteen_solve(const fifteen_board_t *b, const fifteen_solve_params_t *p,
                  fifteen_solve_result_t *out)
{
    search_t local;
    int status = setup(&local, b, p->heuristic, p->pdb);
    if (status) return status;
    if (!solvable(&local))
        return hoyle_error(HOYLE_EINVAL, "fifteen solve: the position is not solvable");
    local.params = p;
    local.max_nodes = p->max_nodes;
    memset(out, 0, sizeof *out);
    double t0 = clock_seconds();
    int md = md_of_board(&local), lc = 0;
    for (int dim = 0; local.lc && dim < 2; dim++)
        for (int k = 0; k < local.n; k++) lc += local.line_conf[dim][k];
    out->h0 = heuristic_of(&local);
    local.bound = out->h0;
    bool found = false;
    while (!found && !local.stopped && local.bound <= FIFTEEN_SOLVE_MAX_LEN) {
        local.next_bound = 1 << 30;
        found = local.pdb ? dfs_pdb(&local, 0, out->h0, -2) : dfs_md(&local, 0, md, lc, -2);
        if (p->progress) p->progress(local.nodes, local.bound, p->ctx);
        if (!found) local.bound = local.next_bound;
    }
    out->solved = found;
    out->bound = local.bound;
    out->length = found ? local.length : 0;
    out->nodes = local.nodes;
    out->seconds = clock_seconds() - t0;
    if (found) memcpy(out->moves, local.path, (size_t)out->length);
    return HOYLE_OK;
}
