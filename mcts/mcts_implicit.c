/* mcts_implicit.c — implicit minimax backups (Lanctot, Winands, Pepels &
 * Sturtevant 2014, "Monte Carlo Tree Search with Heuristic Evaluations using
 * Implicit Minimax Backups").
 *
 * Beside its mean return, every node keeps v_tau, a value per player backed up
 * by minimax from heuristic leaf values: a leaf gets its heuristic value when
 * it is first evaluated (the game's evaluate when leaves are valued by random
 * playouts, else the evaluator's value; a terminal or proven leaf its exact
 * value), and each node on the way up takes the value of its child best for its
 * mover (decision node) or the probability-weighted mean of its outcomes
 * (chance node; expectimax), over the children that have one. Selection reads
 *   Q = (1 - implicit) * mean + implicit * v_tau     (the paper's alpha)
 * for children that have a v_tau (mcts_var_select). The values live in a side
 * array indexed like the arena's nodes; NODE_IMPLICIT marks the nodes that have
 * one (a new node is zeroed, hence unmarked; an edge without a node has none). */
#include "mcts/mcts_var.h"

/* v_tau of `index` from its children that have one; false (unchanged) without any. */
static bool recompute(mcts_t *m, uint32_t index)
{
    mcts_var_t *v = m->var;
    int np = v->np;
    mcts_node_t *node = &m->nodes[index];
    float *out = v->imp + (size_t)index * (size_t)np;
    if (node->num_children == 0) return false;
    if (node->player == PLAYER_CHANCE) {
        double sum[GAME_MAX_PLAYERS] = {0}, total = 0;
        for (int c = 0; c < node->num_children; c++) {
            const mcts_edge_t *e = mcts_edge(m, node, c);
            uint32_t k = e->node; /* 0: no node yet, hence no value */
            if (k == 0 || !(m->nodes[k].flags & NODE_IMPLICIT)) continue;
            total += e->prior;
            for (int p = 0; p < np; p++)
                sum[p] += e->prior * v->imp[(size_t)k * (size_t)np + (size_t)p];
        }
        if (total <= 0) return false;
        for (int p = 0; p < np; p++) out[p] = (float)(sum[p] / total);
    } else if (node->player >= 0) {
        int mover = node->player;
        const float *best = NULL;
        for (int c = 0; c < node->num_children; c++) {
            uint32_t k = mcts_edge(m, node, c)->node;
            if (k == 0 || !(m->nodes[k].flags & NODE_IMPLICIT)) continue;
            const float *val = v->imp + (size_t)k * (size_t)np;
            if (best == NULL || val[mover] > best[mover]) best = val;
        }
        if (best == NULL) return false;
        for (int p = 0; p < np; p++) out[p] = best[p];
    } else {
        return false;
    }
    node->flags |= NODE_IMPLICIT;
    return true;
}

void mcts_implicit_backup(mcts_t *m, int slot, const uint32_t *path, int len, const double *values)
{
    mcts_var_t *v = m->var;
    const game_t *g = m->g;
    int np = v->np;
    uint32_t leaf = path[len - 1];
    mcts_node_t *node = &m->nodes[leaf];
    float *val = v->imp + (size_t)leaf * (size_t)np;
    /* A leaf is usually new (just expanded or not expandable); one whose children
     * have values already (a full arena re-evaluates leaves) takes their minimax. */
    if (!recompute(m, leaf)) {
        if (!v->implicit_heuristic || (node->flags & NODE_PROVEN) ||
            node->player == PLAYER_TERMINAL) {
            for (int p = 0; p < np; p++) val[p] = (float)values[p];
        } else {
            const void *s = m->cur->states + (size_t)slot * g->state_size;
            for (int p = 0; p < np; p++) val[p] = (float)game_evaluate(g, s, p);
        }
        node->flags |= NODE_IMPLICIT;
    }
    for (int i = len - 2; i >= 0; i--) recompute(m, path[i]);
}
