/* board.c — the Fanorona board: lines between the points, Zobrist keys and
 * the seed's set-up.
 *
 * The seed: "a rectangular parallelogram, divided into thirty-two equal
 * spaces. Gather these ... into eight larger squares ... draw the diagonal
 * lines in each of the eight". Each larger square spans two rows and two
 * columns starting on an even row and column, so its diagonals pass exactly
 * through the points with (row + col) even; those points have eight
 * neighbours, the others four. */
#include "games/fanorona/fanorona_internal.h"

#include "core/rng.h"

const int fn_dirs[FN_DIRS][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1},
                                 {0, 1},   {1, -1}, {1, 0},  {1, 1}};

void fn_tables_init(fn_game_t *fg)
{
    for (int p = 0; p < FN_POINTS; p++) {
        int r = p / FN_COLS, c = p % FN_COLS;
        for (int d = 0; d < FN_DIRS; d++) {
            int dr = fn_dirs[d][0], dc = fn_dirs[d][1];
            int r2 = r + dr, c2 = c + dc;
            bool diagonal = dr != 0 && dc != 0;
            bool on = r2 >= 0 && r2 < FN_ROWS && c2 >= 0 && c2 < FN_COLS;
            fg->nbr[p][d] =
                (int8_t)(on && (!diagonal || (r + c) % 2 == 0) ? r2 * FN_COLS + c2 : -1);
        }
    }
    /* Keys from a fixed seed, so hashes are the same in every run. */
    rng_t rng;
    rng_init(&rng, UINT64_C(0xFA2020A5));
    for (int c = 0; c < 2; c++)
        for (int p = 0; p < FN_POINTS; p++) fg->z_piece[c][p] = rng_next(&rng);
    for (int p = 0; p < FN_POINTS; p++) fg->z_chain[p] = rng_next(&rng);
    for (int p = 0; p < FN_POINTS; p++) fg->z_visit[p] = rng_next(&rng);
    for (int d = 0; d < FN_DIRS; d++) fg->z_dir[d] = rng_next(&rng);
    fg->z_side = rng_next(&rng);
    fg->z_open = rng_next(&rng);
    fn_symmetry_init(fg);
}

/* Counter values get keys from a mixer rather than a table: the counter's
 * bound is a parameter. 0 has key 0 so a fresh position hashes without it. */
uint64_t fn_key_quiet(int quiet)
{
    return quiet == 0 ? 0 : rng_mix(UINT64_C(0x51ED270B27C0FFEE) + (uint64_t)quiet);
}

uint64_t fn_hash_compute(const fn_game_t *fg, const fn_state_t *s)
{
    uint64_t h = 0;
    for (int c = 0; c < 2; c++)
        for (uint64_t x = s->bb[c]; x; x &= x - 1) h ^= fg->z_piece[c][fn_lsb(x)];
    for (uint64_t x = s->visited; x; x &= x - 1) h ^= fg->z_visit[fn_lsb(x)];
    if (s->chain) h ^= fg->z_chain[s->chain - 1];
    if (s->last_dir) h ^= fg->z_dir[s->last_dir - 1];
    if (s->side) h ^= fg->z_side;
    if (s->opening) h ^= fg->z_open;
    return h ^ fn_key_quiet(s->quiet);
}

/* The seed: Black on the first and second lines, White on the fourth and
 * fifth; on the third "Black 1, 3, 6, 8 / White 2, 4, 7, 9", its fifth point
 * (the foibeny, C5) empty. White moves first, as in the seed's examples. */
void fn_start_position(const fn_game_t *fg, fn_state_t *s)
{
    static const char row_c[FN_COLS + 1] = "bwbw.bwbw";
    *s = (fn_state_t){0};
    for (int c = 0; c < FN_COLS; c++) {
        s->bb[FN_BLACK] |= fn_bit(0 * FN_COLS + c) | fn_bit(1 * FN_COLS + c);
        s->bb[FN_WHITE] |= fn_bit(3 * FN_COLS + c) | fn_bit(4 * FN_COLS + c);
        if (row_c[c] == 'b') s->bb[FN_BLACK] |= fn_bit(2 * FN_COLS + c);
        if (row_c[c] == 'w') s->bb[FN_WHITE] |= fn_bit(2 * FN_COLS + c);
    }
    s->side = FN_WHITE;
    s->opening = 1;
    s->hash = fn_hash_compute(fg, s);
}
