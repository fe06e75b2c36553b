/* mcts_result.c — what a search reports (visits, Q, priors, principal
 * variation, proof status) and the move choice from it.
 * Best action: with a proven root, the most visited child whose proven value
 * equals the root's (so won endgames are played out exactly); otherwise the
 * most visited child that is not a proven loss, ties broken by Q. With
 * params.gumbel (and an unproven root): the Gumbel choice (mcts_select.c). */
#include <math.h>

#include <limits.h>
#include <string.h>

#include "core/clock.h"
#include "mcts/mcts_internal.h"
#include "mcts/tb_probe.h"

/* Proven values are stored as float and chance means may round, so equality
 * of values is tested within VALUE_EPS. */
#define VALUE_EPS 1e-6

/* The value a child shows its parent's mover: exact when proven, else the
 * mean return; an unvisited child reports 0 (a draw) rather than dividing
 * by zero. */
static double child_q(const mcts_t *m, const mcts_node_t *ch, int player)
{
    if (m->p.solver && (ch->flags & NODE_PROVEN)) return ch->proven_value[player];
    return ch->visits > 0 ? ch->value_sum[player] / ch->visits : 0.0;
}

/* With tables (params.tb), how a decided root's child ranks by distance:
 * the plies to the end after its move (0 when the move ends the game, the
 * tables' distance where they hold the state) when the move keeps the root's
 * value `sign` (+1 won, -1 lost) for its mover `player`, negated for a won
 * root so that the fastest win ranks highest and the slowest loss; INT_MIN
 * when it does not or the tables do not say. Every child is probed, visited
 * or not: the search stops at the first proven win, and proven values carry
 * no distance, so without this a won ending is kept won but maybe never won. */
static int table_rank(const mcts_t *m, const mcts_edge_t *ch, int player, int sign)
{
    memcpy(m->state, m->root_state, m->g->state_size);
    game_apply(m->g, m->state, ch->action);
    int mover = game_current_player(m->g, m->state), value, plies = 0;
    if (mover == PLAYER_TERMINAL) {
        double r[GAME_MAX_PLAYERS];
        game_returns(m->g, m->state, r);
        value = r[player] > VALUE_EPS ? 1 : r[player] < -VALUE_EPS ? -1 : 0;
    } else if (mover < 0 || tb_probe(m->p.tb, m->state, &value, &plies) < 0) {
        return INT_MIN;
    } else if (mover != player) {
        value = -value;
    }
    if (value != sign) return INT_MIN;
    return sign > 0 ? -plies : plies;
}

/* Index (m->edges) of the edge to the best child of a decision or chance node, or 0. */
static uint32_t best_child(const mcts_t *m, const mcts_node_t *node)
{
    if (node->num_children == 0) return 0;
    int player = node->player;
    bool proven = player >= 0 && m->p.solver && (node->flags & NODE_PROVEN);
    /* a decided root with tables: its children by distance first (table_rank) */
    bool by_table = proven && m->p.tb && node == &m->nodes[0] &&
                    fabs(node->proven_value[player]) > 1.0 - VALUE_EPS;
    uint32_t best = 0;
    double best_visits = -1, best_q = -INFINITY;
    int best_rank = INT_MIN;
    for (int c = 0; c < node->num_children; c++) {
        uint32_t index = node->first_edge + (uint32_t)c;
        const mcts_edge_t *e = &m->edges[index];
        const mcts_node_t *ch = mcts_edge_node(m, e);
        double q = player >= 0 ? child_q(m, ch, player) : 0;
        bool ch_proven = m->p.solver && (ch->flags & NODE_PROVEN);
        int rank =
            by_table ? table_rank(m, e, player, node->proven_value[player] > 0 ? 1 : -1) : INT_MIN;
        /* A proven root picks among the children that achieve its proven value
         * (the fastest way to keep a won game won); an unproven one excludes
         * proven losses, since visits alone can still favour a refuted move that
         * was heavily searched before its refutation was found. */
        if (rank > INT_MIN) {
            /* the tables say this move keeps the decided value: a candidate */
        } else if (proven) {
            if (!ch_proven ||
                fabs(ch->proven_value[player] - node->proven_value[player]) > VALUE_EPS)
                continue;
        } else if (player >= 0 && ch_proven && q <= -1.0 + VALUE_EPS) {
            continue;
        }
        if (best != 0 && rank < best_rank) continue;
        /* Most visits first (the "robust child" of Chaslot et al. 2008), Q only on ties. */
        if (rank > best_rank || ch->visits > best_visits ||
            (ch->visits == best_visits && q > best_q)) {
            best = index;
            best_visits = ch->visits;
            best_q = q;
            best_rank = rank;
        }
    }
    if (best == 0) best = node->first_edge; /* every move loses: play the first */
    return best;
}

/* The principal variation from edge `next` (an m->edges index, 0 = none):
 * the same choice rule down the tree, stopping at the first unvisited node
 * (its Q says nothing yet). Returns its length. */
static int line_from(const mcts_t *m, uint32_t next, int *pv)
{
    int len = 0;
    while (len < MCTS_PV_MAX && next != 0 && m->edges[next].node != 0) {
        const mcts_node_t *ch = &m->nodes[m->edges[next].node];
        if (ch->visits == 0) break;
        pv[len++] = m->edges[next].action;
        next = best_child(m, ch);
    }
    return len;
}

int mcts_pv_under(const mcts_t *m, int action, int *pv)
{
    const mcts_node_t *root = &m->nodes[0];
    if (!m->has_root || m->used == 0) return 0;
    for (int c = 0; c < root->num_children; c++)
        if (mcts_edge(m, root, c)->action == action)
            return line_from(m, root->first_edge + (uint32_t)c, pv);
    return 0;
}

void mcts_fill_result(mcts_t *m)
{
    const game_t *g = m->g;
    mcts_result_t *r = &m->result;
    const mcts_node_t *root = &m->nodes[0];
    int player = root->player;
    r->player = player;
    r->num_children = root->num_children;
    for (int c = 0; c < root->num_children; c++) {
        const mcts_edge_t *e = mcts_edge(m, root, c);
        const mcts_node_t *ch = mcts_edge_node(m, e);
        m->r_actions[c] = e->action;
        m->r_visits[c] = ch->visits;
        m->r_q[c] = child_q(m, ch, player);
        m->r_priors[c] = e->prior;
        m->r_proven[c] = (signed char)(m->p.solver && (ch->flags & NODE_PROVEN) ? 1 : 0);
    }
    r->actions = m->r_actions;
    r->visits = m->r_visits;
    r->q = m->r_q;
    r->priors = m->r_priors;
    r->proven = m->r_proven;
    r->root_proven = m->p.solver && (root->flags & NODE_PROVEN);
    /* With Gumbel, the move is the Sequential Halving winner and the policy
     * target is the completed-Q improved policy, not the visit counts. */
    for (int p = 0; p < g->num_players; p++) {
        r->value[p] = root->visits > 0 ? root->value_sum[p] / root->visits : 0.0;
        r->proven_value[p] = r->root_proven ? root->proven_value[p] : 0.0;
    }
    r->improved_policy = NULL;
    r->considered = NULL;
    uint32_t gumbel_best = 0;
    if (m->p.gumbel && root->num_children > 0 && root->player >= 0) {
        mcts_gumbel_policy(m, m->r_improved);
        r->improved_policy = m->r_improved;
        if (m->g_ready) {
            r->considered = m->g_in;
            if (!r->root_proven) gumbel_best = mcts_gumbel_best(m);
        }
    }
    uint32_t best = gumbel_best ? gumbel_best : best_child(m, root);
    r->best_action = best ? m->edges[best].action : -1;
    r->pv_len = line_from(m, best, r->pv);
    r->sims = m->sims;
    r->root_visits = root->visits;
    r->nodes_used = m->used;
    r->edges_used = m->edge_cap - m->edge_low;
    r->tree_bytes = mcts_tree_bytes(m);
    r->max_nodes = m->p.max_nodes;
    r->arena_full = m->arena_full;
    r->threads = m->threads;
    r->evaluator_calls = m->calls;
    r->seconds = clock_seconds() - m->t_start;
}

/* Samples a root move with probability proportional to N(a)^(1/T) (the
 * AlphaZero self-play temperature). T <= 0, or a proven root, plays the
 * best action; proven losses get no weight so exploration never throws a
 * solved game away. */
int mcts_choose(mcts_t *m, double temperature, int *action)
{
    const mcts_result_t *r = &m->result;
    if (r->num_children == 0) return hoyle_error(HOYLE_ESTATE, "mcts: no search to choose from");
    if (temperature <= 0 || r->root_proven) {
        *action = r->best_action;
        return HOYLE_OK;
    }
    double total = 0;
    for (int c = 0; c < r->num_children; c++)
        if (!(r->proven[c] && r->q[c] <= -1.0 + VALUE_EPS))
            total += pow((double)r->visits[c], 1.0 / temperature);
    if (total <= 0) {
        *action = r->best_action;
        return HOYLE_OK;
    }
    double u = rng_double(&m->rng) * total;
    *action = r->best_action;
    for (int c = 0; c < r->num_children; c++) {
        if (r->proven[c] && r->q[c] <= -1.0 + VALUE_EPS) continue;
        double w = pow((double)r->visits[c], 1.0 / temperature);
        if (w > 0 && u < w) {
            *action = r->actions[c];
            break;
        }
        u -= w;
    }
    return HOYLE_OK;
}
