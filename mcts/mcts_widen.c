/* mcts_widen.c — progressive widening of children and chance outcomes (params.pw,
 * pw_alpha). A node with N visits (in-flight ones included) considers only
 * k(N) = max(1, ceil(pw * N^pw_alpha)) of its children (Coulom 2007; Chaslot et
 * al. 2008, "progressive unpruning").
 *   Decision nodes: the first k(N) children in the widening order, highest
 *   prior first, ties (uniform priors: rollouts, heuristic) in an order drawn
 *   once per position from (state hash, action, seed), so that the first
 *   children are not always the game's first actions.
 *   Chance nodes (double progressive widening, Couetoux et al. 2011): while
 *   fewer than k(N) outcomes have been visited, an outcome is sampled by its
 *   probability (a new one or not); after that only the visited outcomes are
 *   sampled, in proportion to their visits.
 * k grows with N, so a child once chosen stays among the widened ones. */
#include <math.h>
#include <string.h>

#include "mcts/mcts_var.h"

int mcts_widen_count(const mcts_t *m, const mcts_node_t *node)
{
    double n = (double)node->visits + node->vloss;
    double k = ceil(m->p.pw * pow(n, m->p.pw_alpha));
    if (!(k >= 1)) k = 1;
    return k >= node->num_children ? node->num_children : (int)k;
}

/* The k-th largest of a[0..n) (quickselect; a is reordered). */
static uint64_t kth_largest(uint64_t *a, int n, int k)
{
    int lo = 0, hi = n - 1, want = k - 1;
    while (lo < hi) {
        uint64_t pivot = a[lo + (hi - lo) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (a[i] > pivot) i++;
            while (a[j] < pivot) j--;
            if (i <= j) {
                uint64_t t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        }
        if (want <= j)
            hi = j;
        else if (want >= i)
            lo = i;
        else
            return a[want];
    }
    return a[want];
}

/* Fills var->keys with each child's place in the widening order (larger
 * first) and returns the k-th largest: the children with a key at least that
 * are the widened ones. */
uint64_t mcts_widen_threshold(mcts_t *m, const mcts_node_t *node, int k)
{
    mcts_var_t *v = m->var;
    for (int c = 0; c < node->num_children; c++) {
        const mcts_edge_t *ch = mcts_edge(m, node, c);
        uint32_t bits;
        float prior = ch->prior > 0 ? ch->prior : 0; /* non-negative floats order as their bits */
        memcpy(&bits, &prior, sizeof bits);
        uint64_t tie =
            rng_mix(v->cur_hash ^ m->p.seed ^ ((uint64_t)(ch->action + 1) * 0x9e3779b97f4a7c15ULL));
        v->keys[c] = ((uint64_t)bits << 32) | (tie >> 32);
        v->sel[c] = v->keys[c];
    }
    return kth_largest(v->sel, node->num_children, k);
}

uint32_t mcts_widen_outcome(mcts_t *m, const mcts_node_t *node)
{
    int k = mcts_widen_count(m, node), seen = 0;
    double visits = 0, total = 0;
    for (int c = 0; c < node->num_children; c++) {
        const mcts_node_t *ch = mcts_child(m, node, c);
        total += mcts_edge(m, node, c)->prior;
        if (ch->visits + ch->vloss > 0) {
            seen++;
            visits += ch->visits + ch->vloss;
        }
    }
    /* k covering every outcome: no widening, the plain sampling by probability */
    bool fresh = seen < k || k >= node->num_children || visits <= 0;
    double u = rng_double(&m->rng) * (fresh ? total : visits);
    uint32_t last = node->first_edge;
    for (int c = 0; c < node->num_children; c++) {
        const mcts_node_t *ch = mcts_child(m, node, c);
        double w = fresh ? mcts_edge(m, node, c)->prior : (double)(ch->visits + ch->vloss);
        if (w <= 0) continue;
        last = node->first_edge + (uint32_t)c;
        if (u < w) return last;
        u -= w;
    }
    return last; /* float rounding: the last outcome with weight */
}
