/* board.c — the Fifteen puzzle's tables, goal, solvability parity, Zobrist
 * keys and start positions (uniformly random solvable, random walk from the
 * goal, or given). Invariant: every state it makes meets fif_state_t's
 * invariants (a solvable permutation, dist and hash consistent). */
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "games/fifteen/fifteen_internal.h"

static const int dir_step[FIF_DIRS][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}}; /* (drow, dcol) */

uint64_t fif_key_moves(int moves)
{
    return rng_mix(0x9e3779b97f4a7c15ULL * (uint64_t)(moves + 1) ^ 0x66696674ULL);
}

uint64_t fif_hash_compute(const fif_impl_t *im, const fif_state_t *s)
{
    uint64_t h = fif_key_moves(s->moves);
    for (int c = 0; c < im->cells; c++)
        if (s->cell[c]) h ^= im->zob[s->cell[c]][c];
    return h;
}

void fif_state_finish(const fif_impl_t *im, fif_state_t *s)
{
    int dist = 0;
    for (int c = 0; c < im->cells; c++) {
        if (s->cell[c] == 0)
            s->blank = (uint8_t)c;
        else
            dist += im->mdist[c][im->goal_cell[s->cell[c]]];
    }
    s->dist = (uint16_t)dist;
    s->hash = fif_hash_compute(im, s);
}

/* The parity of the permutation that sends each cell's tile to its goal
 * cell (cycle count), against the blank's distance to its goal cell: one
 * move is a transposition that moves the blank one step, so the two
 * parities agree in every reachable position and, with them equal, every
 * position is reachable (Johnson & Story 1879). */
bool fif_solvable(const fif_impl_t *im, const uint8_t *cells)
{
    uint8_t perm[FIFTEEN_MAX_CELLS];
    bool seen[FIFTEEN_MAX_CELLS] = {false};
    int blank = 0;
    for (int c = 0; c < im->cells; c++) {
        perm[c] = im->goal_cell[cells[c]];
        if (cells[c] == 0) blank = c;
    }
    int cycles = 0;
    for (int c = 0; c < im->cells; c++) {
        if (seen[c]) continue;
        cycles++;
        for (int x = c; !seen[x]; x = perm[x]) seen[x] = true;
    }
    int perm_parity = (im->cells - cycles) & 1;
    return perm_parity == (im->mdist[blank][im->goal_cell[0]] & 1);
}

/* A uniformly random solvable position: a uniform permutation, and if it
 * is not solvable, the tiles on the first two cells without the blank are
 * swapped. That swap is an involution that changes the parity and keeps the
 * blank, so it pairs the unsolvable permutations one to one with the
 * solvable ones: the result is uniform over the solvable positions. */
static void random_start(const fif_impl_t *im, rng_t *rng, uint8_t *cells)
{
    for (int c = 0; c < im->cells; c++) cells[c] = (uint8_t)c;
    for (int c = im->cells - 1; c > 0; c--) {
        int k = (int)rng_below(rng, (uint32_t)c + 1);
        uint8_t t = cells[c];
        cells[c] = cells[k], cells[k] = t;
    }
    if (!fif_solvable(im, cells)) {
        int a = cells[0] ? 0 : 1, b = cells[a + 1] ? a + 1 : a + 2;
        uint8_t t = cells[a];
        cells[a] = cells[b], cells[b] = t;
    }
}

/* `k` random blank moves from the goal, never undoing the previous one. */
static void walk_start(const fif_impl_t *im, rng_t *rng, int k, uint8_t *cells)
{
    for (int c = 0; c < im->cells; c++) cells[c] = im->goal_tile[c];
    int blank = im->goal_cell[0], last = -1;
    for (int i = 0; i < k; i++) {
        int opts[FIF_DIRS], m = 0;
        for (int d = 0; d < FIF_DIRS; d++)
            if (im->nbr[blank][d] >= 0 && (last < 0 || d != (last ^ 1))) opts[m++] = d;
        int d = opts[rng_below(rng, (uint32_t)m)], to = im->nbr[blank][d];
        cells[blank] = cells[to], cells[to] = 0;
        blank = to, last = d;
    }
}

int fif_impl_create(game_t *g, int n, bool blank_first, int max_moves, uint64_t seed, int scramble,
                    const char *start)
{
    fif_impl_t *im = calloc(1, sizeof *im);
    if (im == NULL) return hoyle_error(HOYLE_ENOMEM, "fifteen: out of memory");
    im->n = n;
    im->cells = n * n;
    im->blank_first = blank_first;
    im->max_moves = max_moves;
    for (int c = 0; c < im->cells; c++) {
        int tile = blank_first ? c : (c + 1) % im->cells;
        im->goal_tile[c] = (uint8_t)tile;
        im->goal_cell[tile] = (uint8_t)c;
        for (int d = 0; d < FIF_DIRS; d++) {
            int r = c / n + dir_step[d][0], col = c % n + dir_step[d][1];
            im->nbr[c][d] = (int8_t)(r >= 0 && r < n && col >= 0 && col < n ? r * n + col : -1);
        }
        for (int e = 0; e < im->cells; e++)
            im->mdist[c][e] = (uint8_t)(abs(c / n - e / n) + abs(c % n - e % n));
    }
    /* every tile at most 2(N-1) away */
    im->dist_max = (im->cells - 1) * 2 * (n - 1);
    rng_t keys;
    rng_init(&keys, 0x66696674656e21ULL); /* "fiften!": the same keys in every game */
    for (int t = 1; t < im->cells; t++)
        for (int c = 0; c < im->cells; c++) im->zob[t][c] = rng_next(&keys);
    fif_state_t *s = &im->start;
    if (strcmp(start, "random") != 0) {
        int status = fif_parse_tiles(im, start, "fifteen: start", s->cell);
        if (status) {
            free(im);
            return status;
        }
    } else {
        rng_t rng;
        rng_init(&rng, seed);
        if (scramble > 0)
            walk_start(im, &rng, scramble, s->cell);
        else
            random_start(im, &rng, s->cell);
    }
    fif_state_finish(im, s);
    g->impl = im;
    return HOYLE_OK;
}
