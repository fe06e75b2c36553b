/* board.c — squares, lines, Zobrist keys and the start positions.
 * Keys come from a fixed splitmix64 stream, so hashes are the same on
 * every run and platform. */
#include <string.h>

#include "core/rng.h"
#include "games/checkers/checkers_internal.h"

/* The keys are drawn in a fixed order from one counter: changing the order or
 * the count changes every hash (and with it transposition-table behaviour and
 * the bench signature). */
void ck_zobrist_init(ck_game_t *cg)
{
    uint64_t x = 0x636865636B657273ull; /* "checkers" */
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 2; k++)
            for (int sq = 0; sq < 32; sq++) cg->z_piece[c][k][sq] = rng_mix(x++);
    cg->z_side = rng_mix(x++);
    for (int sq = 0; sq < 32; sq++) {
        cg->z_chain[sq] = rng_mix(x++);
        cg->z_prev[sq] = rng_mix(x++);
        cg->z_cap[sq] = rng_mix(x++);
    }
    /* drawn after the others, so the keys above (and every hash without a
     * huff) are unchanged */
    for (int i = 0; i < 8; i++) cg->z_huff[i] = rng_mix(x++);
    for (int k = 0; k < 2; k++)
        for (int sq = 0; sq < 32; sq++) cg->z_neg[k][sq] = rng_mix(x++);
}

/* From scratch; ck_apply updates the hash incrementally, and this is the
 * reference it must equal (a state read from text starts here). Mid-chain
 * states hash their chain squares and captured set too. */
uint64_t ck_hash_compute(const ck_game_t *cg, const ck_state_t *s)
{
    uint64_t h = s->side ? cg->z_side : 0;
    for (int c = 0; c < 2; c++)
        for (uint32_t b = s->bb[c]; b; b &= b - 1) {
            int sq = ck_lsb(b);
            h ^= cg->z_piece[c][(s->kings >> sq) & 1][sq];
        }
    if (s->chain) h ^= cg->z_chain[s->chain - 1];
    if (s->chain_prev) h ^= cg->z_prev[s->chain_prev - 1];
    for (uint32_t b = s->captured; b; b &= b - 1) h ^= cg->z_cap[ck_lsb(b)];
    return h ^ ck_huff_key(cg, s);
}

void ck_start_position(const ck_game_t *cg, ck_state_t *s)
{
    memset(s, 0, sizeof *s);
    if (cg->variant == CK_DEVIL) {
        s->bb[0] = ck_bit(0); /* the devil on 1 */
        s->kings = ck_bit(0);
        s->bb[1] = 0xF0000000u; /* the tailors on 29-32 */
    } else {
        /* black on squares 1-12, white on 21-32 */
        s->bb[0] = 0x00000FFFu;
        s->bb[1] = 0xFFF00000u;
    }
    s->hash = ck_hash_compute(cg, s);
}

/* Direction from `from` to `to` if they share a diagonal (-1 otherwise), and
 * the squares strictly between them in *between. Walking with ck_shift keeps
 * the result right at the board edges, where the 32-square numbering's rows
 * alternate their offset. */
int ck_line(int from, int to, uint32_t *between)
{
    *between = 0;
    int dr = ck_row(to) - ck_row(from), dc = ck_col(to) - ck_col(from);
    if (from == to || (dr != dc && dr != -dc)) return -1;
    int d = dr > 0 ? (dc < 0 ? 0 : 1) : (dc < 0 ? 2 : 3);
    uint32_t b = ck_shift(d, ck_bit(from)), target = ck_bit(to), mask = 0;
    while (b && b != target) {
        mask |= b;
        b = ck_shift(d, b);
    }
    if (b != target) return -1;
    *between = mask;
    return d;
}
