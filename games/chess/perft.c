/* perft.c — fast perft: legal generation, copy-make, bulk counting at the
 * last ply. It counts what game_perft_generic() counts: a position the
 * rules end (fifty-move rule, threefold repetition, dead material unless
 * insufficient=play) has no moves above the last ply. The repetition
 * history is one key stack shared by the recursion, each node seeing its
 * window keys[base, top). */
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "games/chess/chess_internal.h"

typedef struct pf {
    const ch_game_t *cg;
    uint64_t *keys;
} pf_t;

static uint64_t pf_node(pf_t *x, const ch_pos_t *p, int base, int top, int depth)
{
    ch_move_t moves[CH_MAX_MOVES];
    if (depth == 1) return (uint64_t)ch_count_legal(p);
    int n = ch_gen_legal(p, moves);
    uint64_t total = 0;
    x->keys[top] = p->key;
    for (int i = 0; i < n; i++) {
        ch_pos_t q = *p;
        ch_pos_make(&q, moves[i]);
        /* the child's window: a capture, pawn move or lost right starts anew */
        int cb = base, ct = top + 1;
        if (q.halfmove == 0 || q.castling != p->castling) cb = ct;
        /* the rules that end a game (ch_state_finish) */
        if (q.halfmove >= CH_FIFTY) continue;
        if (ct - cb >= 4) {
            int reps = 0;
            for (int k = ct - 2; k >= cb; k -= 2) reps += x->keys[k] == q.key;
            if (reps >= 2) continue;
        }
        if (x->cg->material_draw && ch_insufficient(&q)) continue;
        total += pf_node(x, &q, cb, ct, depth - 1);
    }
    return total;
}

uint64_t ch_perft(const game_t *g, const void *state, int depth)
{
    const ch_state_t *s = state;
    if (depth <= 0) return 1;
    if (s->result != CH_ONGOING) return 0;
    pf_t x = {.cg = ch_game(g), .keys = malloc(sizeof(uint64_t) * (CH_HIST_MAX + 70))};
    /* under 2 KB for any depth `hoyle perft` accepts (at most 64): running
     * out here is no input condition, and the slot has no error channel */
    CHECK(x.keys != NULL);
    memcpy(x.keys, s->hist, sizeof(uint64_t) * s->nhist);
    uint64_t n = pf_node(&x, &s->pos, 0, s->nhist, depth);
    free(x.keys);
    return n;
}
