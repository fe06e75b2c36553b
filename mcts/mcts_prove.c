/* mcts_prove.c — a shallow exact win/loss search at the root (params.prove).
 *
 * MCTS finds a forced line only once enough simulations happen to walk down
 * every defence of it; a small net or a short time budget misses three-move
 * threats that a full-width search sees at once (Go-Bang's open three). Like
 * the MCTS-minimax hybrids of Baier & Winands (2015, "MCTS-Minimax Hybrids"),
 * this runs a full-width AND/OR search over the game's own terminal results,
 * with no heuristic, once per new root, and hands what it proves to the
 * solver: a root move that wins within `prove` plies (counting the move)
 * makes a proven win, so the root is proven and the search ends at once; a
 * root move after which the opponent wins within the remaining plies makes a
 * proven loss, which the descent never selects again. Moves proven neither
 * way are left to the search. Only two-player states without chance are
 * searched (a chance node or a one-player game proves nothing here).
 *
 * The search is bounded by PROVE_BUDGET applies per root and, with a time
 * limit, by half of it; an aborted search proves only what it finished. */
#include <string.h>

#include "core/clock.h"
#include "mcts/mcts_internal.h"

#define PROVE_BUDGET (1u << 21) /* game_apply calls per root */
#define WIN_EPS      1e-6

typedef struct prover {
    mcts_t *m;
    uint64_t applies;
    bool aborted;
} prover_t;

static char *level_state(prover_t *pv, int level)
{
    return pv->m->prove_states + (size_t)level * pv->m->g->state_size;
}

static int *level_legal(prover_t *pv, int level)
{
    return pv->m->prove_legal + (size_t)level * (size_t)pv->m->g->max_legal;
}

/* Applies action a to s into `out`; false once the budget or the clock ran out. */
static bool step(prover_t *pv, const void *s, int a, void *out)
{
    const game_t *g = pv->m->g;
    if (pv->aborted) return false;
    if (++pv->applies > PROVE_BUDGET) {
        pv->aborted = true;
        return false;
    }
    if ((pv->applies & 1023) == 0 && pv->m->p.time_limit_ms > 0 &&
        (clock_seconds() - pv->m->t_start) * 1000.0 >= 0.5 * pv->m->p.time_limit_ms) {
        pv->aborted = true;
        return false;
    }
    memcpy(out, s, g->state_size);
    game_apply(g, out, a);
    return true;
}

static bool won_by(const game_t *g, const void *s, int p)
{
    double r[GAME_MAX_PLAYERS];
    game_returns(g, s, r);
    return r[p] >= 1.0 - WIN_EPS;
}

static bool all_replies_lose(prover_t *pv, int level, const void *s, int plies, int p);

/* Can the player to move at the live decision state `s` force a win within
 * `plies` >= 1 plies (his own action included)? Immediate wins are tried
 * first, over every action, before anything deeper. */
static bool wins(prover_t *pv, int level, const void *s, int plies)
{
    const game_t *g = pv->m->g;
    int p = game_current_player(g, s);
    int *legal = level_legal(pv, level);
    char *t = level_state(pv, level);
    int n = game_legal_actions(g, s, legal);
    for (int i = 0; i < n; i++) {
        if (!step(pv, s, legal[i], t)) return false;
        if (game_is_terminal(g, t) && won_by(g, t, p)) return true;
    }
    if (plies < 2) return false;
    for (int i = 0; i < n; i++) {
        if (!step(pv, s, legal[i], t)) return false;
        if (game_is_terminal(g, t)) continue;
        int q = game_current_player(g, t);
        if (q == p ? wins(pv, level + 1, t, plies - 1)
                   : q >= 0 && all_replies_lose(pv, level + 1, t, plies - 1, p))
            return true;
    }
    return false;
}

/* Does every action of the player to move at the live state `s` (not `p`)
 * leave `p` a forced win within `plies` >= 1 plies, that action included? */
static bool all_replies_lose(prover_t *pv, int level, const void *s, int plies, int p)
{
    const game_t *g = pv->m->g;
    int q = game_current_player(g, s);
    int *legal = level_legal(pv, level);
    char *t = level_state(pv, level);
    int n = game_legal_actions(g, s, legal);
    for (int i = 0; i < n; i++) {
        if (!step(pv, s, legal[i], t)) return false;
        if (game_is_terminal(g, t)) {
            if (won_by(g, t, p)) continue;
            return false;
        }
        if (plies < 2) return false;
        int r = game_current_player(g, t);
        if (r == p ? !wins(pv, level + 1, t, plies - 1)
                   : r != q || !all_replies_lose(pv, level + 1, t, plies - 1, p))
            return false;
    }
    return true;
}

static void prove_child(mcts_t *m, uint32_t index, int winner)
{
    double r[GAME_MAX_PLAYERS];
    for (int p = 0; p < m->g->num_players; p++) r[p] = p == winner ? 1.0 : -1.0;
    mcts_prove_terminal(m, index, r);
}

void mcts_prove_root(mcts_t *m)
{
    const game_t *g = m->g;
    mcts_node_t *root = &m->nodes[0];
    if (m->root_proved || m->p.prove <= 0 || !m->p.solver || g->num_players != 2 ||
        root->player < 0 || !(root->flags & NODE_EXPANDED) || (root->flags & NODE_PROVEN))
        return;
    m->root_proved = true;
    int p = root->player, plies = m->p.prove;
    prover_t pv = {.m = m};
    char *t = level_state(&pv, 0);
    /* Two passes over the root's children: the quick one settles immediate
     * results, the second searches the rest; a win ends both. */
    for (int pass = 0; pass < 2 && !pv.aborted; pass++) {
        for (int c = 0; c < root->num_children; c++) {
            uint32_t index = root->first_child + (uint32_t)c;
            if (m->nodes[index].flags & NODE_PROVEN) continue;
            if (!step(&pv, m->root_state, m->nodes[index].action, t)) break;
            if (game_is_terminal(g, t)) {
                double r[GAME_MAX_PLAYERS];
                game_returns(g, t, r);
                mcts_prove_terminal(m, index, r);
                if (r[p] >= 1.0 - WIN_EPS) break;
                continue;
            }
            if (pass == 0) continue;
            int q = game_current_player(g, t);
            if (q < 0 || plies < 2) continue;
            bool win =
                q == p ? wins(&pv, 1, t, plies - 1) : all_replies_lose(&pv, 1, t, plies - 1, p);
            if (pv.aborted) break;
            if (win) {
                prove_child(m, index, p);
                break;
            }
            if (q != p && wins(&pv, 1, t, plies - 1)) prove_child(m, index, q);
        }
        mcts_try_prove(m, 0);
        if (root->flags & NODE_PROVEN) break;
    }
}
