/* plays.c — Backgammon: the canonical plays of a roll, their length, the
 * per-thread cache of the plays of the roll in progress, and the legal steps
 * they allow.
 *
 * A play is generated whole from the board where it began, so the per-roll
 * rules (use both dice, else the larger; doubles as many as possible; one
 * play per resulting position) are decided once per roll. The generator
 * works on bitmasks: `occ` has bit i when the mover has men on his point i
 * (1..24, 25 the bar) and `blocked` bit t when he cannot land on his point t
 * (two or more enemy men there). The mover's steps never change `blocked` (a
 * hit empties a point that held one man, and the bar is no destination), so
 * it is computed once per roll, and the legal starting points of a die are a
 * few mask operations (step_froms(), the same test as bg_step_ok()). Boards
 * reached are told apart by a key that each step updates (a sum of per-man
 * constants), confirmed by comparing the boards. */
#include <string.h>

#include "core/check.h"
#include "core/rng.h"
#include "games/backgammon/bg_internal.h"

#define BAR_BIT     (1u << BG_BAR)
#define OUTSIDE     (((1u << (BG_BAR + 1)) - 1) & ~((1u << 7) - 1)) /* points 7..24, the bar */
#define TABLE_SLOTS (2 * BG_MAX_PLAYS)                              /* a power of two */
#define TABLE_BITS  13
_Static_assert(TABLE_SLOTS == 1 << TABLE_BITS, "TABLE_BITS must match TABLE_SLOTS");

static inline int highest(uint32_t m) { return 31 - __builtin_clz(m); }

/* Bit i set when v[i] + bias >= 0x80, for i in 0..25 (the counts of one side,
 * 0..15): bias 0x7f marks the points with men, 0x7e those with two or more.
 * Eight counts at a time, their high bits gathered by one multiply. */
static uint32_t count_bits(const int8_t *v, uint8_t bias)
{
    uint32_t m = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t add = bias * 0x0101010101010101ull;
    for (int k = 0; k < 3; k++) {
        uint64_t w;
        memcpy(&w, v + 8 * k, sizeof w);
        uint64_t high = (w + add) & 0x8080808080808080ull; /* counts < 0x80: no carries */
        m |= (uint32_t)(((high >> 7) * 0x0102040810204080ull) >> 56) << (8 * k);
    }
    for (int i = 24; i < BG_POINTS; i++)
#else
    for (int i = 0; i < BG_POINTS; i++)
#endif
        if (v[i] + bias >= 0x80) m |= 1u << i;
    return m;
}

/* The mover's points with men, 1..25 (not the men off). */
static uint32_t occupied(const int8_t *me) { return count_bits(me, 0x7f) & ~1u; }

/* The mover's points 1..24 that the opponent holds: his point 25 - t. */
static uint32_t blocks(const int8_t *opp)
{
    uint32_t x = count_bits(opp, 0x7e) & 0x1fffffeu; /* bit j: opp[j] >= 2, j in 1..24 */
    /* reverse the 32 bits (j -> 31 - j), then shift: j -> 25 - j */
    x = (x >> 1 & 0x55555555u) | (x & 0x55555555u) << 1;
    x = (x >> 2 & 0x33333333u) | (x & 0x33333333u) << 2;
    x = (x >> 4 & 0x0f0f0f0fu) | (x & 0x0f0f0f0fu) << 4;
    x = (x >> 8 & 0x00ff00ffu) | (x & 0x00ff00ffu) << 8;
    x = x >> 16 | x << 16;
    return x >> 6;
}

/* The points a man may leave with `die` (bit from), as bg_step_ok() decides:
 * the bar first; a destination not blocked; bearing off only with every man
 * home, exactly, or with a higher die from the highest point. */
static inline uint32_t step_froms(uint32_t occ, uint32_t blocked, int die)
{
    if (occ & BAR_BIT) return blocked >> (BG_BAR - die) & 1 ? 0 : BAR_BIT;
    uint32_t m = occ & ~(blocked << die) & ~((2u << die) - 1); /* from > die: lands on a point */
    if ((occ & OUTSIDE) == 0 && occ != 0) {
        if (occ >> die & 1)
            m |= 1u << die;
        else if (occ >> die == 0)
            m |= 1u << highest(occ);
    }
    return m;
}

typedef struct slot {
    uint32_t stamp; /* the slot is used when stamp == the epoch */
    int32_t play;   /* index into out */
    uint64_t key;
} slot_t;

typedef struct gen {
    int player;
    uint32_t blocked;
    bg_play_t *out;
    int n, best; /* plays written; length of the longest play seen */
    uint8_t steps[BG_MAX_STEPS];
    uint32_t hi_froms; /* gen_pair(): the first pass's first steps */
    /* Key of one man of a side on point i; a board's key is the sum over its
     * men (mod 2^64), taken relative to the board where the play began. The
     * key decides only where a board goes in the table, never whether two
     * boards are equal. Drawn once per thread (`keyed`). */
    bool keyed;
    uint64_t man_key[2][BG_POINTS];
    /* open addressing on the key; a new epoch empties the table without
     * clearing it */
    uint32_t epoch;
    slot_t slot[TABLE_SLOTS];
} gen_t;

/* bg_step_make() from `from` with `die`, keeping occ and the key. */
static inline void step_on(const gen_t *gn, bg_board_t *b, uint32_t *occ, uint64_t *key, int from,
                           int die)
{
    int player = gn->player;
    const uint64_t(*man_key)[BG_POINTS] = gn->man_key;
    int8_t *me = b->men[player], *opp = b->men[1 - player];
    int to = from > die ? from - die : BG_OFF;
    if (--me[from] == 0) *occ &= ~(1u << from);
    me[to]++;
    *key += man_key[player][to] - man_key[player][from];
    if (to == BG_OFF) return;
    *occ |= 1u << to;
    if (opp[25 - to] == 1) {
        opp[25 - to] = 0;
        opp[BG_BAR]++;
        *key += man_key[1 - player][BG_BAR] - man_key[1 - player][25 - to];
    }
}

/* Empty the table: a new epoch (clearing the stamps once in 2^32 epochs,
 * when the counter wraps and old stamps could look current). */
static void next_epoch(gen_t *gn)
{
    if (++gn->epoch == 0) {
        memset(gn->slot, 0, sizeof gn->slot);
        gn->epoch = 1;
    }
}

/* Record a complete play of `len` steps ending on `b` (key `key`): longer
 * plays replace shorter ones; a board already reached keeps the earlier play. */
static void record(gen_t *gn, const bg_board_t *b, uint64_t key, int len)
{
    if (len < gn->best) return;
    if (len > gn->best) {
        gn->best = len;
        gn->n = 0;
        next_epoch(gn);
    }
    uint32_t i = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - TABLE_BITS));
    for (; gn->slot[i].stamp == gn->epoch; i = (i + 1) & (TABLE_SLOTS - 1))
        if (gn->slot[i].key == key && memcmp(&gn->out[gn->slot[i].play].after, b, sizeof *b) == 0)
            return;
    /* Unreachable from any input: plays are distinct resulting boards, every
     * board that parses has at most BG_MEN men a side, and no such position
     * has more than 3060 distinct plays of one roll (gnubg's MAX_MOVES), well
     * under BG_MAX_PLAYS. Failing here means the generator is broken. */
    CHECK_LT(gn->n, BG_MAX_PLAYS);
    bg_play_t *pl = &gn->out[gn->n];
    pl->n = (uint8_t)len;
    memcpy(pl->steps, gn->steps, sizeof pl->steps);
    pl->after = *b;
    gn->slot[i].stamp = gn->epoch;
    gn->slot[i].play = gn->n++;
    gn->slot[i].key = key;
}

/* Doubles: steps of `die`, each from a point no higher than the last. */
static void gen_doubles(gen_t *gn, const bg_board_t *b, uint32_t occ, uint64_t key, int die,
                        int depth, int top)
{
    uint32_t m = depth < BG_MAX_STEPS ? step_froms(occ, gn->blocked, die) & ((2u << top) - 1) : 0;
    if (m == 0) {
        record(gn, b, key, depth);
        return;
    }
    do {
        int from = highest(m);
        m &= ~(1u << from);
        bg_board_t next = *b;
        uint32_t o = occ;
        uint64_t k = key;
        step_on(gn, &next, &o, &k, from, die);
        gn->steps[depth] = (uint8_t)bg_step_action(from, die);
        gen_doubles(gn, &next, o, k, die, depth + 1, from);
    } while (m);
}

/* Other rolls: `first` then `second`; a play of one step (`first` alone,
 * `second` impossible after it) is recorded only when `singles`.
 *
 * The first pass (the higher die first, `twin` false) keeps its legal first
 * steps in gn->hi_froms. In the second pass (the lower die first, `twin`
 * true), when "lo from y, hi from x" is a play and "hi from x" is legal on
 * the starting board, its twin "hi from x, lo from y" is a play of the first
 * pass (the higher step takes nothing the lower one needed: a man stays on
 * y, as y = x needs two men there in either order; the bar rule and bearing
 * off from the highest point still allow it), and both reach the same board
 * (the counts add up the same, and a blot on a landing point is hit by
 * whichever man lands first). Such a play is skipped without building its
 * board: the table would have found that board already. */
static void gen_pair(gen_t *gn, const bg_board_t *b, uint32_t occ, int first, int second,
                     bool singles, bool twin)
{
    uint32_t m = step_froms(occ, gn->blocked, first);
    if (!twin) gn->hi_froms = m;
    while (m) {
        int from = highest(m);
        m &= ~(1u << from);
        bg_board_t mid = *b;
        uint32_t o1 = occ;
        uint64_t k1 = 0;
        step_on(gn, &mid, &o1, &k1, from, first);
        gn->steps[0] = (uint8_t)bg_step_action(from, first);
        uint32_t m2 = step_froms(o1, gn->blocked, second);
        if (m2 == 0 && singles) {
            gn->steps[1] = 0;
            record(gn, &mid, k1, 1);
        }
        while (m2) {
            int f2 = highest(m2);
            m2 &= ~(1u << f2);
            if (twin && (gn->hi_froms >> f2 & 1)) continue;
            bg_board_t end = mid;
            uint32_t o2 = o1;
            uint64_t k2 = k1;
            step_on(gn, &end, &o2, &k2, f2, second);
            gn->steps[1] = (uint8_t)bg_step_action(f2, second);
            record(gn, &end, k2, 2);
        }
    }
}

int bg_plays(const bg_board_t *b, int player, int d1, int d2, bg_play_t *out)
{
    static _Thread_local gen_t gn;
    if (!gn.keyed) {
        rng_t r;
        rng_init(&r, 0x6261636b67616d6dull); /* "backgamm" */
        for (int p = 0; p < 2; p++)
            for (int i = 0; i < BG_POINTS; i++) gn.man_key[p][i] = rng_next(&r);
        gn.keyed = true;
    }
    next_epoch(&gn);
    memset(gn.steps, 0, sizeof gn.steps);
    gn.player = player;
    gn.blocked = blocks(b->men[1 - player]);
    gn.out = out;
    gn.n = 0;
    gn.best = 0;
    uint32_t occ = occupied(b->men[player]);
    if (d1 == d2) {
        gen_doubles(&gn, b, occ, 0, d1, 0, BG_BAR);
        return gn.best > 0 ? gn.n : 0;
    }
    int hi = d1 > d2 ? d1 : d2, lo = d1 + d2 - hi;
    /* Both orders; plays of both dice replace plays of one. When only one
     * die can be used, the larger is played if it can be: the smaller die's
     * lone steps count only when the first pass found no step at all. */
    gen_pair(&gn, b, occ, hi, lo, true, false);
    gen_pair(&gn, b, occ, lo, hi, gn.n == 0, true);
    return gn.best > 0 ? gn.n : 0;
}

/* The most steps of (first, second) that the mover (men `me`, points `occ`)
 * can make, stopping at the first play that uses them all: cheaper than
 * bg_plays() when only the length of the plays is wanted (every roll). Only
 * the mover's men change which steps are legal (`blocked` is fixed). */
static int most_steps(const int8_t *me, uint32_t occ, uint32_t blocked, int first, int second,
                      int depth, int max)
{
    if (depth == max) return depth;
    int die = depth == 0 || first == second ? first : second, best = depth;
    for (uint32_t m = step_froms(occ, blocked, die); m;) {
        int from = highest(m), to = from > die ? from - die : BG_OFF;
        m &= ~(1u << from);
        int8_t next[BG_POINTS];
        memcpy(next, me, sizeof next);
        uint32_t o = occ;
        if (--next[from] == 0) o &= ~(1u << from);
        next[to]++;
        if (to != BG_OFF) o |= 1u << to;
        int got = most_steps(next, o, blocked, first, second, depth + 1, max);
        if (got > best) best = got;
        if (best == max) break;
    }
    return best;
}

int bg_play_length(const bg_board_t *b, int player, int d1, int d2)
{
    const int8_t *me = b->men[player];
    uint32_t occ = occupied(me), blocked = blocks(b->men[1 - player]);
    if (d1 == d2) return most_steps(me, occ, blocked, d1, d1, 0, BG_MAX_STEPS);
    int a = most_steps(me, occ, blocked, d1, d2, 0, 2);
    return a == 2                                            ? 2
           : most_steps(me, occ, blocked, d2, d1, 0, 2) == 2 ? 2
           : a                                               ? 1
               : most_steps(me, occ, blocked, d2, d1, 0, 1);
}

typedef struct play_cache {
    bool valid;
    bg_board_t board;
    uint8_t player, hi, lo;
    int n;
    uint32_t packed[BG_MAX_PLAYS]; /* plays[i].steps as one little-endian word */
    bg_play_t plays[BG_MAX_PLAYS];
} play_cache_t;

static _Thread_local play_cache_t cache;

const bg_play_t *bg_state_plays(const bg_state_t *s, int *n)
{
    play_cache_t *c = &cache;
    if (!c->valid || c->player != s->to_move || c->hi != s->dice[0] || c->lo != s->dice[1] ||
        memcmp(&c->board, &s->start, sizeof c->board) != 0) {
        c->n = bg_plays(&s->start, s->to_move, s->dice[0], s->dice[1], c->plays);
        for (int i = 0; i < c->n; i++) {
            const uint8_t *st = c->plays[i].steps;
            c->packed[i] = (uint32_t)st[0] | (uint32_t)st[1] << 8 | (uint32_t)st[2] << 16 |
                           (uint32_t)st[3] << 24;
        }
        c->board = s->start;
        c->player = s->to_move;
        c->hi = s->dice[0];
        c->lo = s->dice[1];
        c->valid = true;
    }
    *n = c->n;
    return c->plays;
}

int bg_state_next_steps(const bg_state_t *s, int *out)
{
    int np;
    bg_state_plays(s, &np);
    const uint32_t *packed = cache.packed;
    int k = s->nsteps; /* < need <= BG_MAX_STEPS, so the shifts below stay under 32 */
    uint32_t made = (uint32_t)s->steps[0] | (uint32_t)s->steps[1] << 8 |
                    (uint32_t)s->steps[2] << 16 | (uint32_t)s->steps[3] << 24;
    uint32_t mask = (uint32_t)((1ull << (8 * k)) - 1);
    made &= mask;
    /* the next step of every play that continues the steps made, each once */
    uint64_t seen[(BG_NUM_ACTIONS + 63) / 64] = {0};
    for (int i = 0; i < np; i++)
        if ((packed[i] & mask) == made) {
            unsigned a = packed[i] >> (8 * k) & 0xff;
            seen[a >> 6] |= 1ull << (a & 63);
        }
    int n = 0;
    for (int w = 0; w < (int)(sizeof seen / sizeof seen[0]); w++)
        for (uint64_t bits = seen[w]; bits; bits &= bits - 1)
            out[n++] = w * 64 + __builtin_ctzll(bits);
    return n;
}
