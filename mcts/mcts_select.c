/* mcts_select.c — choosing the child to descend into, and root noise.
 *
 * Decision nodes maximise, for the player to move p,
 *   UCT  (Kocsis & Szepesvári 2006):  Q_p + c_uct * sqrt(ln N / n)
 *   PUCT (Silver et al. 2018):        Q_p + c(N) * P * sqrt(N) / (1 + n),
 *                                      c(N) = log((1 + N + c_base) / c_base) + c_init
 * where n = child visits + in-flight visits, N = the parent's, and
 * Q_p = (value_sum[p] - virtual_loss * vloss) / n: each in-flight visit
 * counts as a loss of size virtual_loss for the chooser, which spreads a
 * batch over different leaves. Unvisited children get the FPU value.
 * MCTS-Solver (Winands et al. 2008): a proven child's Q is its proven value,
 * and proven losses (value -1 for the chooser) are never selected.
 * Chance nodes sample an outcome by its probability (sampled descent). */
#include <math.h>

#include "mcts/mcts_internal.h"

#define LOSS_EPS 1e-6

static uint32_t sample_outcome(mcts_t *m, const mcts_node_t *node)
{
    double total = 0;
    for (int c = 0; c < node->num_children; c++)
        total += m->nodes[node->first_child + (uint32_t)c].prior;
    double u = rng_double(&m->rng) * total;
    for (int c = 0; c < node->num_children - 1; c++) {
        double pr = m->nodes[node->first_child + (uint32_t)c].prior;
        if (u < pr) return node->first_child + (uint32_t)c;
        u -= pr;
    }
    return node->first_child + (uint32_t)(node->num_children - 1);
}

uint32_t mcts_select_child(mcts_t *m, const mcts_node_t *node, int player)
{
    if (player == PLAYER_CHANCE) return sample_outcome(m, node);
    const mcts_params_t *p = &m->p;
    double parent_n = (double)node->visits + node->vloss;
    double fpu;
    if (p->fpu == MCTS_FPU_INF)
        fpu = INFINITY;
    else if (p->fpu == MCTS_FPU_VALUE || node->visits == 0)
        fpu = p->fpu_value;
    else
        fpu = node->value_sum[player] / node->visits - p->fpu_value;
    double explore;
    if (p->select == MCTS_PUCT)
        explore = (log((1.0 + parent_n + p->c_base) / p->c_base) + p->c_init) * sqrt(parent_n);
    else
        explore = p->c_uct * sqrt(log(parent_n > 1 ? parent_n : 1));
    uint32_t best = node->first_child;
    double best_score = -INFINITY;
    for (int c = 0; c < node->num_children; c++) {
        uint32_t index = node->first_child + (uint32_t)c;
        const mcts_node_t *ch = &m->nodes[index];
        double n = (double)ch->visits + ch->vloss, q, score;
        if (p->solver && (ch->flags & NODE_PROVEN)) {
            q = ch->proven_value[player];
            if (q <= -1.0 + LOSS_EPS) continue; /* a proven loss is never worth a visit */
        } else if (n == 0) {
            q = fpu;
        } else {
            q = (ch->value_sum[player] - p->virtual_loss * ch->vloss) / n;
        }
        if (p->select == MCTS_PUCT)
            score = q + explore * ch->prior / (1.0 + n);
        else
            score = n == 0 ? q : q + explore / sqrt(n);
        if (score > best_score) {
            best_score = score;
            best = index;
        }
    }
    return best;
}

/* Mix Dirichlet(alpha) noise into the root priors: P' = (1 - eps) P + eps * eta
 * (Silver et al. 2017), eta drawn as normalised Gamma(alpha, 1) variates. */
void mcts_add_noise(mcts_t *m)
{
    mcts_node_t *root = &m->nodes[0];
    if (m->p.dirichlet_eps <= 0 || m->root_noised || root->num_children == 0 || root->player < 0)
        return;
    double total = 0;
    for (int c = 0; c < root->num_children; c++)
        total += m->noise[c] = rng_gamma(&m->rng, m->p.dirichlet_alpha);
    if (total <= 0) return;
    for (int c = 0; c < root->num_children; c++) {
        mcts_node_t *ch = &m->nodes[root->first_child + (uint32_t)c];
        ch->prior = (float)((1 - m->p.dirichlet_eps) * ch->prior +
                            m->p.dirichlet_eps * m->noise[c] / total);
    }
    m->root_noised = true;
}
