/* mcts_playout.c — the searcher's own playouts (params.playouts > 0) and the
 * history tables they learn from.
 *
 * A playout plays from a leaf to the end of the game; chance outcomes are
 * drawn by game_chance_sample, a player's action by the policy:
 *   uniform  (no mast, no nst) the light playout of eval_rollout.c;
 *   MAST     (Finnsson & Bjornsson 2008, Move-Average Sampling Technique):
 *            P(a) proportional to exp(Q(p, a) / mast), Q(p, a) the mean return to
 *            player p of the simulations in which p played a (an action never
 *            seen gets the best value, 1, as in CadiaPlayer);
 *   NST      (Tak, Winands & Bjornsson 2012, N-gram Selection Technique): the
 *            same Gibbs choice with temperature nst over the average of the
 *            1-gram mean Q(p, a) and the 2-gram mean Q(p, prev, a) of a after the
 *            action just played, the 2-gram only once it has MCTS_NST_MIN samples.
 * Every simulation, tree part and playout alike, adds its returns to the
 * (player, action) table (MAST, progressive history) and, with nst, to the
 * 2-gram table. The tables last for a game (mcts_var_clear at a new one). */
#include <math.h>
#include <string.h>

#include "games/playout.h"
#include "mcts/mcts_var.h"

/* The context of a 2-gram: the previous action, or -2 - outcome after a chance
 * outcome (dice are not moves), -1 at the start of a simulation. */
static int prev_code(int action, int player)
{
    return player == PLAYER_CHANCE ? -2 - action : action;
}

double mcts_history_mean(const mcts_t *m, int player, int action, double unseen)
{
    const mcts_var_t *v = m->var;
    size_t i = (size_t)player * (size_t)v->na + (size_t)action;
    return v->hist_n[i] ? v->hist_sum[i] / v->hist_n[i] : unseen;
}

static int choose(mcts_t *m, int player, int prev, int n)
{
    mcts_var_t *v = m->var;
    const int *legal = v->legal;
    double tau = m->p.mast > 0 ? m->p.mast : m->p.nst;
    if (tau <= 0) return legal[rng_below(&m->rng, (uint32_t)n)];
    double best = -INFINITY;
    for (int i = 0; i < n; i++) {
        double s = mcts_history_mean(m, player, legal[i], 1.0);
        if (v->ngrams) {
            const mcts_stat_t *e =
                mcts_stat_find(&v->ngram_table, mcts_ngram_key(player, prev, legal[i]));
            if (e && e->n >= MCTS_NST_MIN) s = (s + e->sum / e->n) / 2;
        }
        v->weight[i] = s;
        if (s > best) best = s;
    }
    double total = 0;
    for (int i = 0; i < n; i++) total += v->weight[i] = exp((v->weight[i] - best) / tau);
    double u = rng_double(&m->rng) * total;
    for (int i = 0; i < n - 1; i++) {
        if (u < v->weight[i]) return legal[i];
        u -= v->weight[i];
    }
    return legal[n - 1];
}

int mcts_playout(mcts_t *m, const void *state, int prev, double *returns)
{
    mcts_var_t *v = m->var;
    const game_t *g = m->g;
    memcpy(v->state, state, g->state_size);
    int steps = 0, limit = g->max_game_length + 1;
    for (;;) {
        int player = game_current_player(g, v->state);
        if (player == PLAYER_TERMINAL) break;
        int a;
        if (player == PLAYER_CHANCE) {
            a = game_chance_sample(g, v->state, &m->rng, m->chance_actions, m->chance_probs);
            if (a < 0) return a;
        } else {
            int n = game_legal_actions(g, v->state, v->legal);
            if (n <= 0)
                return hoyle_error(HOYLE_ESTATE, "%s: no legal actions in a live state", g->spec);
            a = choose(m, player, prev, n);
        }
        if (v->seq_len < v->seq_cap) {
            v->seq[v->seq_len] = a;
            v->seq_player[v->seq_len++] = (int8_t)player;
        }
        game_apply(g, v->state, a);
        prev = prev_code(a, player);
        if (++steps > limit)
            return hoyle_error(HOYLE_ESTATE, "%s: playout exceeded max_game_length", g->spec);
    }
    game_returns(g, v->state, returns);
    return HOYLE_OK;
}

void mcts_history_update(mcts_t *m, const double *returns)
{
    mcts_var_t *v = m->var;
    int prev = -1;
    for (int j = 0; j < v->seq_len; j++) {
        int p = v->seq_player[j], a = v->seq[j];
        if (p >= 0) {
            size_t i = (size_t)p * (size_t)v->na + (size_t)a;
            v->hist_sum[i] += returns[p];
            v->hist_n[i]++;
            if (v->ngrams) mcts_stat_add(&v->ngram_table, mcts_ngram_key(p, prev, a), returns[p]);
        }
        prev = prev_code(a, p);
    }
}
