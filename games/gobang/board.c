/* board.c — Go-Bang tables (Zobrist keys, neighbours, symmetry maps, the
 * lines of five) and the board queries rules, notation and eval share.
 * Tables are made deterministically from a fixed seed, so the same spec gives
 * the same hashes in every process. */
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "games/gobang/gobang_internal.h"
#include "games/symmetry.h"

/* Index d and 7 - d are opposite directions: run counting and the symmetry
 * maps rely on that pairing. */
const int gb_dirs[GB_DIRS][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1},
                                 {0, 1},   {1, -1}, {1, 0},  {1, 1}};

#define GB_ZOBRIST_SEED 0x60b4a6d5eedULL

/* Men in hand and the moving-phase counter are hashed with keys computed on
 * demand (their ranges depend on the spec), mixed with distinct tags so that
 * they never collide with the table keys. */
uint64_t gb_key_hand(int side, int count)
{
    return rng_mix(0x9e3779b97f4a7c15ULL * (uint64_t)(2 * count + side + 1) ^ 0x68616e64ULL);
}

uint64_t gb_key_moves(int moves)
{
    return rng_mix(0xc2b2ae3d27d4eb4fULL * (uint64_t)(moves + 1) ^ 0x6d6f7665ULL);
}

int gb_impl_create(game_t *g, int n, int men, bool odds, bool exact, int move_limit, int seats)
{
    gb_impl_t *im = calloc(1, sizeof *im);
    if (im == NULL) return hoyle_error(HOYLE_ENOMEM, "gobang: out of memory");
    im->n = n;
    im->nsq = n * n;
    im->men = men;
    /* men = 0 is Gomoku: place until the board is full, White (first) gets
     * the odd square */
    im->hand0[0] = men ? men : (im->nsq + 1) / 2;
    im->hand0[1] = men ? men - (odds ? 1 : 0) : im->nsq / 2;
    im->exact = exact;
    /* a moving phase exists only when men leave empty squares to move into */
    im->moving = men > 0 && 2 * men < im->nsq;
    im->move_limit = move_limit;
    im->seats = seats;

    rng_t rng;
    rng_init(&rng, GB_ZOBRIST_SEED);
    for (int p = 0; p < 2; p++)
        for (int q = 0; q < GB_MAX_SQ; q++) im->zob[p][q] = rng_next(&rng);
    im->zob_side = rng_next(&rng);
    /* drawn after the two-seat keys, so those (and every two-seat hash) are
     * the same as before partnerships existed */
    for (int q = 0; q < GB_MAX_SQ; q++) im->zob_partner[q] = rng_next(&rng);

    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            for (int d = 0; d < GB_DIRS; d++) {
                int r2 = r + gb_dirs[d][0], c2 = c + gb_dirs[d][1];
                im->nbr[r * n + c][d] =
                    (r2 >= 0 && r2 < n && c2 >= 0 && c2 < n) ? (int16_t)(r2 * n + c2) : -1;
            }

    for (int sym = 0; sym < SYM_COUNT; sym++) {
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                int r2, c2;
                sym_map((sym_t)sym, n, r, c, &r2, &c2);
                im->sq_map[sym][r * n + c] = (uint16_t)(r2 * n + c2);
            }
        /* A step maps like the vector between two squares: use a 3x3 board
         * whose centre is fixed by every symmetry. */
        for (int d = 0; d < GB_DIRS; d++) {
            int r2, c2;
            sym_map((sym_t)sym, 3, 1 + gb_dirs[d][0], 1 + gb_dirs[d][1], &r2, &c2);
            for (int e = 0; e < GB_DIRS; e++)
                if (gb_dirs[e][0] == r2 - 1 && gb_dirs[e][1] == c2 - 1)
                    im->dir_map[sym][d] = (uint8_t)e;
        }
    }

    /* each line of five is listed once, from its start square, for the
     * evaluator's window scan */
    /* Lines of five: start square + 4 forward directions (E, N, NE, NW). */
    static const int fwd[4] = {4, 6, 7, 5};
    for (int q = 0; q < im->nsq; q++)
        for (int k = 0; k < 4; k++) {
            int cells[5], len = 1;
            cells[0] = q;
            while (len < 5 && im->nbr[cells[len - 1]][fwd[k]] >= 0)
                cells[len] = im->nbr[cells[len - 1]][fwd[k]], len++;
            if (len < 5) continue;
            for (int i = 0; i < 5; i++) im->window[im->num_windows][i] = (int16_t)cells[i];
            im->num_windows++;
        }
    g->impl = im;
    return HOYLE_OK;
}

uint64_t gb_hash_compute(const game_t *g, const gb_state_t *s)
{
    const gb_impl_t *im = gb_impl(g);
    uint64_t h = 0;
    for (int q = 0; q < im->nsq; q++)
        if (s->cell[q])
            h ^= im->zob[s->cell[q] - 1][q] ^ (gb_partner_at(im, s, q) ? im->zob_partner[q] : 0);
    if (s->to_move) h ^= im->zob_side;
    h ^= gb_key_hand(0, s->in_hand[0]) ^ gb_key_hand(1, s->in_hand[1]) ^ gb_key_moves(s->moves);
    return h;
}

/* Length of the run of `color` through sq along d and its opposite 7 - d,
 * counting sq itself. */
int gb_run(const gb_impl_t *im, const gb_state_t *s, int sq, int d, int color)
{
    int len = 1;
    for (int at = im->nbr[sq][d]; at >= 0 && s->cell[at] == color; at = im->nbr[at][d]) len++;
    for (int at = im->nbr[sq][7 - d]; at >= 0 && s->cell[at] == color; at = im->nbr[at][7 - d])
        len++;
    return len;
}

bool gb_wins_at(const gb_impl_t *im, const gb_state_t *s, int sq)
{
    int color = s->cell[sq];
    if (color == GB_EMPTY) return false;
    for (int d = 4; d < 8; d++) { /* E, SW, N, NE and their opposites */
        int len = gb_run(im, s, sq, d, color);
        if (im->exact ? len == 5 : len >= 5) return true;
    }
    return false;
}

bool gb_has_five(const gb_impl_t *im, const gb_state_t *s, int color)
{
    for (int q = 0; q < im->nsq; q++)
        if (s->cell[q] == color && gb_wins_at(im, s, q)) return true;
    return false;
}

/* Whether `seat` has any one-square step: without one in the moving phase
 * the game is drawn (gb_settle). */
bool gb_can_move(const gb_impl_t *im, const gb_state_t *s, int seat)
{
    for (int q = 0; q < im->nsq; q++) {
        if (!gb_owns(im, s, q, seat)) continue;
        for (int d = 0; d < GB_DIRS; d++) {
            int to = im->nbr[q][d];
            if (to >= 0 && s->cell[to] == GB_EMPTY) return true;
        }
    }
    return false;
}

/* Exact mode: does a run of exactly five of `color` end next to `from`? */
/* With `exact`, moving a man off the end of a six can leave exactly five
 * behind: the five is then beside the square the man left. */
static bool five_beside(const gb_impl_t *im, const gb_state_t *s, int from, int color)
{
    for (int d = 4; d < 8; d++)
        for (int side = 0; side < 2; side++) {
            int a = im->nbr[from][side ? 7 - d : d];
            if (a >= 0 && s->cell[a] == color && gb_run(im, s, a, d, color) == 5) return true;
        }
    return false;
}

/* Sets s->result after a placement or step to `to` (from -1 for a
 * placement). Only lines through `to` (and, in exact mode, beside `from`)
 * can have changed, so this looks nowhere else; the side that just moved
 * is the one that can have made five. */
void gb_settle(const gb_impl_t *im, gb_state_t *s, int from, int to)
{
    s->result = GB_ONGOING;
    if (to >= 0 && (gb_wins_at(im, s, to) ||
                    (im->exact && from >= 0 && five_beside(im, s, from, s->cell[to])))) {
        s->result = (uint8_t)(s->to_move == 0 ? GB_WIN1 : GB_WIN0);
        return;
    }
    if (s->in_hand[0] + s->in_hand[1] > 0) return; /* placing: an empty square always exists */
    if (im->moving && s->moves >= im->move_limit)
        s->result = GB_DRAW;
    else if (!gb_can_move(im, s, gb_seat(im, s)))
        s->result = GB_DRAW;
}

int gb_seat_hand(const gb_impl_t *im, const gb_state_t *s, int seat)
{
    int side = seat % 2, h0 = im->hand0[side];
    if (im->seats == 2) return s->in_hand[side];
    /* the first partner places first: of the side's p placements it made
     * ceil(p/2), and it started with ceil(h0/2) of the side's men */
    int placed = h0 - s->in_hand[side];
    return seat < 2 ? (h0 + 1) / 2 - (placed + 1) / 2 : h0 / 2 - placed / 2;
}
