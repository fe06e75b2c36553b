/* solitaire.c — the English Solitaire solvers (solitaire.h): a depth-first
 * search for one marble in a target hole, and iterative deepening on moves
 * for the fewest marble runs. Both keep a lossy transposition table of failed
 * positions, keyed canonically under the symmetries that fix the target, so a
 * failure proven once is never searched again in any of its images; an
 * overwritten entry only costs time. */
#include "solve/solitaire.h"

#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/rng.h"

#define MIN_MOVES_KEY_BITS 40 /* min_moves entries: key (pegs | last << 33) below, budget above */
#define NUM_REGIONS        12

typedef struct search {
    sol_geometry_t geo;
    int target;        /* hole index, -1 = any */
    uint32_t class_ok; /* bit c: class c may still reach the target */
    bool use_classes;
    int num_syms;
    sym_t syms[SYM_COUNT];
    uint64_t *tt;
    uint64_t tt_mask;
    uint64_t nodes, node_limit;
    bool aborted;
    uint64_t *back;     /* exact set of canonical positions of <= back_pegs marbles that */
    uint64_t back_mask; /* reach the target (open addressing, 0 = empty) */
    int back_pegs;      /* 0 = no set */
    uint64_t region[NUM_REGIONS];
    int8_t region_of[SOL_HOLES];
    int path[SOL_HOLES];
} search_t;

void solitaire_options_default(solitaire_options_t *opt)
{
    opt->use_classes = true;
    opt->node_limit = 0;
    opt->tt_bytes = (size_t)64 << 20;
}

/* The Merson regions of solitaire.h: the corners one by one, then the 2 x 2
 * block at rows 2-3, columns 1-2 and its three rotations (a pinwheel around
 * the centre, disjoint from each other and from the corners). */
static void make_regions(search_t *s)
{
    const sol_geometry_t *geo = &s->geo;
    int n = 0;
    memset(s->region_of, -1, sizeof s->region_of);
    for (int h = 0; h < SOL_HOLES; h++)
        if (geo->corner_mask >> h & 1) s->region[n++] = 1ULL << h;
    static const int block[4][2] = {{2, 1}, {2, 2}, {3, 1}, {3, 2}};
    static const sym_t rot[4] = {SYM_IDENTITY, SYM_ROT90, SYM_ROT180, SYM_ROT270};
    for (int k = 0; k < 4; k++) {
        uint64_t m = 0;
        for (int i = 0; i < 4; i++)
            m |= 1ULL << geo->sym_hole[rot[k]][geo->hole_at[block[i][0]][block[i][1]]];
        s->region[n++] = m;
    }
    for (int r = 0; r < NUM_REGIONS; r++)
        for (int h = 0; h < SOL_HOLES; h++)
            if (s->region[r] >> h & 1) s->region_of[h] = (int8_t)r;
}

static int search_init(search_t *s, int target, const solitaire_options_t *opt)
{
    solitaire_options_t def;
    if (opt == NULL) solitaire_options_default(&def), opt = &def;
    if (target < -1 || target >= SOL_HOLES)
        return hoyle_error(HOYLE_EINVAL, "solitaire solver: target hole %d out of range",
                           target + 1);
    memset(s, 0, sizeof *s);
    sol_geometry_init(&s->geo);
    s->target = target;
    s->use_classes = opt->use_classes;
    s->node_limit = opt->node_limit;
    for (int h = 0; h < SOL_HOLES; h++)
        if (target < 0 || h == target) s->class_ok |= 1u << sol_class(&s->geo, 1ULL << h);
    for (int k = 0; k < SYM_COUNT; k++)
        if (target < 0 || s->geo.sym_hole[k][target] == target) s->syms[s->num_syms++] = (sym_t)k;
    size_t bytes = opt->tt_bytes ? opt->tt_bytes : (size_t)64 << 20, entries = 1024;
    while (entries * 2 * sizeof(uint64_t) <= bytes) entries *= 2;
    s->tt = calloc(entries, sizeof(uint64_t));
    if (s->tt == NULL) return hoyle_error(HOYLE_ENOMEM, "solitaire solver: out of memory");
    s->tt_mask = entries - 1;
    make_regions(s);
    return HOYLE_OK;
}

static uint64_t canonical(const search_t *s, uint64_t pegs)
{
    uint64_t best = pegs;
    for (int k = 1; k < s->num_syms; k++) {
        uint64_t m = sol_sym_mask(&s->geo, s->syms[k], pegs);
        if (m < best) best = m;
    }
    return best;
}

/* (pegs, last) as one key, minimised over the symmetries. */
static uint64_t canonical_last(const search_t *s, uint64_t pegs, int last)
{
    uint64_t best = pegs | (uint64_t)(last + 1) << SOL_HOLES;
    for (int k = 1; k < s->num_syms; k++) {
        int l = last >= 0 ? s->geo.sym_hole[s->syms[k]][last] : -1;
        uint64_t m = sol_sym_mask(&s->geo, s->syms[k], pegs) | (uint64_t)(l + 1) << SOL_HOLES;
        if (m < best) best = m;
    }
    return best;
}

/* ---- the backward set: positions that reach the target, grown from it by
 * reversed jumps, level by level (k marbles), while a level stays small ---- */

#define BACK_MAX_ENTRIES ((size_t)1 << 18) /* positions kept in all levels together */
#define BACK_MIN_PEGS    20                /* smaller searches are cheaper without the set */

static bool back_has(const search_t *s, uint64_t key)
{
    for (uint64_t i = rng_mix(key) & s->back_mask;; i = (i + 1) & s->back_mask) {
        if (s->back[i] == key) return true;
        if (s->back[i] == 0) return false;
    }
}

static bool back_add(search_t *s, uint64_t key)
{
    for (uint64_t i = rng_mix(key) & s->back_mask;; i = (i + 1) & s->back_mask) {
        if (s->back[i] == key) return false;
        if (s->back[i] == 0) {
            s->back[i] = key;
            return true;
        }
    }
}

/* Level k + 1 from level k: a reversed jump takes the marble off `to` and
 * puts marbles in the empty `from` and `over`. Levels are kept in one array
 * (level k at [start[k], start[k+1])). The set is exact, never lossy: a
 * position missing from it is proven not to reach the target. */
static int build_back(search_t *s)
{
    if (s->target < 0) return HOYLE_OK;
    size_t cap = BACK_MAX_ENTRIES, slots = 2 * cap;
    uint64_t *list = malloc(sizeof(uint64_t) * cap);
    s->back = calloc(slots, sizeof(uint64_t));
    if (list == NULL || s->back == NULL) {
        free(list);
        free(s->back);
        s->back = NULL;
        return hoyle_error(HOYLE_ENOMEM, "solitaire solver: out of memory");
    }
    s->back_mask = slots - 1;
    size_t n = 0, level_start = 0;
    list[n++] = 1ULL << s->target;
    back_add(s, 1ULL << s->target);
    s->back_pegs = 1;
    for (int k = 1; k < SOL_HOLES - 1; k++) {
        size_t level_end = n;
        bool full = false;
        for (size_t i = level_start; i < level_end && !full; i++)
            for (int j = 0; j < SOL_JUMPS && !full; j++) {
                const sol_jump_t *jp = &s->geo.jump[j];
                uint64_t p = list[i];
                if (!(p & jp->to_bit) || (p & jp->over_bit) || (p & jp->from_bit)) continue;
                uint64_t key = canonical(s, p ^ (jp->from_bit | jp->over_bit | jp->to_bit));
                if (n == cap)
                    full = true;
                else if (back_add(s, key))
                    list[n++] = key;
            }
        /* an unfinished level would not be exact: drop it and stop */
        if (full) {
            memset(s->back, 0, sizeof(uint64_t) * slots);
            for (size_t i = 0; i < level_end; i++) back_add(s, list[i]);
            break;
        }
        s->back_pegs = k + 1;
        level_start = level_end;
    }
    free(list);
    return HOYLE_OK;
}

static bool finished(const search_t *s, uint64_t pegs)
{
    return s->target < 0 || pegs == 1ULL << s->target;
}

static bool class_dead(const search_t *s, uint64_t pegs)
{
    return s->use_classes && !(s->class_ok >> sol_class(&s->geo, pegs) & 1);
}

static bool out_of_nodes(search_t *s)
{
    if (s->node_limit && s->nodes >= s->node_limit) s->aborted = true;
    s->nodes++;
    return s->aborted;
}

/* True when `pegs` reaches the target; path[depth..] then holds the jumps. */
static bool dfs(search_t *s, uint64_t pegs, int depth)
{
    if (out_of_nodes(s)) return false;
    if ((pegs & (pegs - 1)) == 0) return finished(s, pegs);
    if (class_dead(s, pegs)) return false;
    uint64_t key = canonical(s, pegs), *slot = &s->tt[rng_mix(key) & s->tt_mask];
    if (s->back_pegs && __builtin_popcountll(pegs) <= s->back_pegs && !back_has(s, key))
        return false;
    if (*slot == key) return false;
    for (int j = 0; j < SOL_JUMPS; j++) {
        const sol_jump_t *jp = &s->geo.jump[j];
        if (!(pegs & jp->from_bit) || !(pegs & jp->over_bit) || (pegs & jp->to_bit)) continue;
        s->path[depth] = j;
        if (dfs(s, pegs ^ (jp->from_bit | jp->over_bit | jp->to_bit), depth + 1)) return true;
        if (s->aborted) return false;
    }
    *slot = key;
    return false;
}

int solitaire_count_moves(const sol_geometry_t *geo, int last, const int *jumps, int n)
{
    int moves = 0;
    for (int i = 0; i < n; i++) {
        const sol_jump_t *jp = &geo->jump[jumps[i]];
        moves += jp->from != last;
        last = jp->to;
    }
    return moves;
}

static void finish(search_t *s, solitaire_result_t *out, bool solved, int len, int last,
                   double start)
{
    out->verdict = solved ? SOLITAIRE_SOLVED : s->aborted ? SOLITAIRE_LIMIT : SOLITAIRE_UNSOLVABLE;
    out->num_jumps = solved ? len : 0;
    memcpy(out->jumps, s->path, sizeof(int) * (size_t)out->num_jumps);
    out->moves = solved ? solitaire_count_moves(&s->geo, last, out->jumps, len) : 0;
    out->nodes = s->nodes;
    out->seconds = clock_seconds() - start;
    free(s->tt);
    free(s->back);
}

static int check_pegs(uint64_t pegs)
{
    if (pegs == 0 || (pegs & ~SOL_FULL) || pegs == SOL_FULL)
        return hoyle_error(HOYLE_EINVAL, "solitaire solver: no marble or no empty hole");
    return HOYLE_OK;
}

static int solve_direct(uint64_t pegs, int target, const solitaire_options_t *opt,
                        solitaire_result_t *out);

/* The symmetries of the board that fix hole h. */
static int stabiliser(const sol_geometry_t *geo, int h)
{
    int n = 0;
    for (int k = 0; k < SYM_COUNT; k++) n += geo->sym_hole[k][h] == h;
    return n;
}

/* Duality (time reversal plus complement): if jumps j1..jn take the board
 * with only hole t empty to one marble in s, then jn..j1 take the board with
 * only s empty to one marble in t (complementing a position turns each jump
 * a-over-b-into-c backwards into the same jump forwards). A single-vacancy
 * problem is searched in the direction whose target has more symmetries,
 * which the transposition table then shares: 17 -> 2 is solved as 2 -> 17. */
int solitaire_solve(uint64_t pegs, int target, const solitaire_options_t *opt,
                    solitaire_result_t *out)
{
    if (check_pegs(pegs)) return HOYLE_EINVAL;
    if (target < 0 || __builtin_popcountll(pegs) != SOL_HOLES - 1)
        return solve_direct(pegs, target, opt, out);
    sol_geometry_t *geo = malloc(sizeof *geo);
    if (geo == NULL) return hoyle_error(HOYLE_ENOMEM, "solitaire solver: out of memory");
    sol_geometry_init(geo);
    int start = __builtin_ctzll(~pegs & SOL_FULL);
    bool dual = target < SOL_HOLES && stabiliser(geo, start) > stabiliser(geo, target);
    int status;
    if (!dual) {
        status = solve_direct(pegs, target, opt, out);
    } else {
        status = solve_direct(SOL_FULL & ~(1ULL << target), start, opt, out);
        for (int i = 0; status == 0 && i < out->num_jumps / 2; i++) {
            int t = out->jumps[i];
            out->jumps[i] = out->jumps[out->num_jumps - 1 - i];
            out->jumps[out->num_jumps - 1 - i] = t;
        }
        if (status == 0 && out->verdict == SOLITAIRE_SOLVED)
            out->moves = solitaire_count_moves(geo, -1, out->jumps, out->num_jumps);
    }
    free(geo);
    return status;
}

static int solve_direct(uint64_t pegs, int target, const solitaire_options_t *opt,
                        solitaire_result_t *out)
{
    if (check_pegs(pegs)) return HOYLE_EINVAL;
    search_t *s = malloc(sizeof *s);
    if (s == NULL) return hoyle_error(HOYLE_ENOMEM, "solitaire solver: out of memory");
    int status = search_init(s, target, opt);
    if (status) {
        free(s);
        return status;
    }
    double start = clock_seconds();
    memset(out, 0, sizeof *out);
    out->by_class = class_dead(s, pegs);
    /* the classes alone decide, without the backward set or a search */
    if (!out->by_class && __builtin_popcountll(pegs) >= BACK_MIN_PEGS &&
        (status = build_back(s)) != 0) {
        free(s->tt);
        free(s);
        return status;
    }
    bool solved = dfs(s, pegs, 0);
    finish(s, out, solved, __builtin_popcountll(pegs) - 1, -1, start);
    free(s);
    return HOYLE_OK;
}

/* The move lower bound of solitaire.h: full Merson regions, less the one
 * the moving marble stands in. */
static int move_bound(const search_t *s, uint64_t pegs, int last)
{
    int skip = last >= 0 ? s->region_of[last] : -1, n = 0;
    for (int r = 0; r < NUM_REGIONS; r++) n += r != skip && (pegs & s->region[r]) == s->region[r];
    return n;
}

/* True when `pegs` (the marble in `last` moving) reaches the target within
 * `budget` more moves. Jumps by the moving marble cost nothing and are tried
 * first. */
static bool moves_dfs(search_t *s, uint64_t pegs, int last, int budget, int depth)
{
    if (out_of_nodes(s)) return false;
    if ((pegs & (pegs - 1)) == 0) return finished(s, pegs);
    if (class_dead(s, pegs) || move_bound(s, pegs, last) > budget) return false;
    uint64_t key = canonical_last(s, pegs, last), *slot = &s->tt[rng_mix(key) & s->tt_mask];
    const uint64_t key_mask = (1ULL << MIN_MOVES_KEY_BITS) - 1;
    int known = (*slot & key_mask) == key ? (int)(*slot >> MIN_MOVES_KEY_BITS) - 1 : -1;
    if (known >= budget) return false;
    for (int pass = 0; pass < 2; pass++)
        for (int j = 0; j < SOL_JUMPS; j++) {
            const sol_jump_t *jp = &s->geo.jump[j];
            int cost = jp->from != last;
            if (cost != pass || cost > budget) continue;
            if (!(pegs & jp->from_bit) || !(pegs & jp->over_bit) || (pegs & jp->to_bit)) continue;
            s->path[depth] = j;
            uint64_t next = pegs ^ (jp->from_bit | jp->over_bit | jp->to_bit);
            if (moves_dfs(s, next, jp->to, budget - cost, depth + 1)) return true;
            if (s->aborted) return false;
        }
    *slot = key | (uint64_t)(budget + 1) << MIN_MOVES_KEY_BITS;
    return false;
}

int solitaire_min_moves(uint64_t pegs, int last, int target, int max_moves,
                        const solitaire_options_t *opt, solitaire_progress_fn progress, void *ctx,
                        solitaire_result_t *out)
{
    if (check_pegs(pegs)) return HOYLE_EINVAL;
    if (last < -1 || last >= SOL_HOLES || (last >= 0 && !(pegs >> last & 1)))
        return hoyle_error(HOYLE_EINVAL, "solitaire solver: the moving marble's hole is empty");
    if (max_moves < 0 || max_moves > SOL_HOLES)
        return hoyle_error(HOYLE_EINVAL, "solitaire solver: max_moves %d out of [0, 33]",
                           max_moves);
    search_t *s = malloc(sizeof *s);
    if (s == NULL) return hoyle_error(HOYLE_ENOMEM, "solitaire solver: out of memory");
    int status = search_init(s, target, opt);
    if (status) {
        free(s);
        return status;
    }
    double start = clock_seconds();
    memset(out, 0, sizeof *out);
    out->by_class = class_dead(s, pegs);
    bool solved = false;
    int budget = move_bound(s, pegs, last);
    if ((pegs & (pegs - 1)) == 0) budget = 0;
    for (; budget <= max_moves && !solved && !s->aborted; budget++) {
        solved = moves_dfs(s, pegs, last, budget, 0);
        if (progress && !s->aborted)
            progress(budget, solved, s->nodes, clock_seconds() - start, ctx);
        if (solved) break;
    }
    out->bound = budget > max_moves ? max_moves + 1 : budget;
    finish(s, out, solved, __builtin_popcountll(pegs) - 1, last, start);
    free(s);
    return HOYLE_OK;
}
