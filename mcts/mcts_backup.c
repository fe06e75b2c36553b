/* mcts_backup.c — backing a simulation's returns up its path, and the
 * MCTS-Solver proof rules (Winands, Björnsson & Saito 2008), stated per
 * player so they hold for one player, two players and chains alike:
 *   decision node of player p: proven as soon as one proven child gives p
 *     the best possible return (+1); otherwise proven when every child is
 *     proven, with the value of the child best for p;
 *   chance node: proven when every outcome is proven, with the
 *     probability-weighted mean of their values;
 *   terminal node: proven with its returns.
 * Invariant: visits and value_sum of a node count exactly the completed
 * simulations through it; vloss counts the ones in flight. */
#include "mcts/mcts_internal.h"

/* Returns are floats in [-1, 1]; a win is "within WIN_EPS of +1" because
 * proven values are stored as float and a chance mean may round. */
#define WIN_EPS 1e-6

static void prove(mcts_node_t *node, const float *value, int np)
{
    for (int p = 0; p < np; p++) node->proven_value[p] = value[p];
    node->flags |= NODE_PROVEN;
}

/* A terminal node is proven with its exact returns; the backup that
 * follows (mcts_backup) then tries the rules on its ancestors. */
void mcts_prove_terminal(mcts_t *m, uint32_t index, const double *returns)
{
    if (!m->p.solver) return;
    mcts_node_t *node = &m->nodes[index];
    for (int p = 0; p < m->g->num_players; p++) node->proven_value[p] = (float)returns[p];
    node->flags |= NODE_PROVEN;
}

/* Try the proof rules at one node; true when it is (now) proven. */
static bool try_prove(mcts_t *m, mcts_node_t *node)
{
    int np = m->g->num_players;
    if (node->flags & NODE_PROVEN) return true;
    if (node->num_children == 0) return false;
    /* an edge without a node is an unvisited child: never proven */
    const mcts_edge_t *edges = mcts_edge(m, node, 0);
    if (node->player == PLAYER_CHANCE) {
        float mean[GAME_MAX_PLAYERS] = {0};
        double total = 0;
        for (int c = 0; c < node->num_children; c++) {
            const mcts_node_t *kid = mcts_edge_node(m, &edges[c]);
            if (!(kid->flags & NODE_PROVEN)) return false;
            total += edges[c].prior;
            for (int p = 0; p < np; p++) mean[p] += edges[c].prior * kid->proven_value[p];
        }
        for (int p = 0; p < np; p++) mean[p] = (float)(mean[p] / total);
        prove(node, mean, np);
        return true;
    }
    int player = node->player;
    if (player < 0) return false;
    const mcts_node_t *best = NULL;
    bool all = true;
    for (int c = 0; c < node->num_children; c++) {
        const mcts_node_t *kid = mcts_edge_node(m, &edges[c]);
        if (!(kid->flags & NODE_PROVEN)) {
            all = false;
            continue;
        }
        /* One proven win for the mover settles the node at once: no other child
         * can do better for p than the maximum return. */
        if (kid->proven_value[player] >= 1.0 - WIN_EPS) {
            prove(node, kid->proven_value, np);
            return true;
        }
        if (!best || kid->proven_value[player] > best->proven_value[player]) best = kid;
    }
    if (!all) return false;
    prove(node, best->proven_value, np);
    return true;
}

bool mcts_try_prove(mcts_t *m, uint32_t index) { return try_prove(m, &m->nodes[index]); }

/* Every value is added to every node on the path as the returns vector of
 * all players (no sign flipping): each node reads the component of the
 * player to move at its parent. Then, with the solver on and a proven leaf,
 * proofs are propagated upward until the first ancestor they do not settle;
 * nothing above an unproven node can become proven by this simulation. */
void mcts_backup(mcts_t *m, const uint32_t *path, int len, const double *values)
{
    int np = m->g->num_players;
    for (int i = 0; i < len; i++) {
        mcts_node_t *node = &m->nodes[path[i]];
        node->visits++;
        node->vloss--;
        for (int p = 0; p < np; p++) node->value_sum[p] += values[p];
    }
    if (!m->p.solver || !(m->nodes[path[len - 1]].flags & NODE_PROVEN)) return;
    for (int i = len - 2; i >= 0; i--)
        if (!try_prove(m, &m->nodes[path[i]])) break;
}

/* A simulation that ends in a collision adds nothing: its virtual visits
 * are taken back so the vloss invariant (see top) holds again. */
void mcts_undo_virtual(mcts_t *m, const uint32_t *path, int len)
{
    for (int i = 0; i < len; i++) m->nodes[path[i]].vloss--;
}
