/* mcts_amaf.c — all-moves-as-first statistics for RAVE (Gelly & Silver 2007)
 * and GRAVE (Cazenave 2015, "Generalized Rapid Action Value Estimation").
 *
 * After every simulation (a playout counts on its own), each decision node N
 * on its path, with mover p, counts once every action that p plays at N or
 * later in the simulation (tree part and playout; chance outcomes are nobody's
 * move): AMAF(N, a).n += 1, AMAF(N, a).sum += return of p. The statistics are
 * keyed by (hash of N's state, a) in one table (mcts_var.h), so GRAVE can read
 * them at an ancestor for actions that are not its children, transpositions
 * share them, and tree reuse keeps them. Selection mixes them into Q
 * (mcts_var_select): RAVE reads N's own, GRAVE those of the closest ancestor
 * with more than `grave` playouts. */
#include <string.h>

#include "mcts/mcts_var.h"

/* Going up the path from the leaf, the set of each player's actions "from
 * position i on" only grows: each action enters once (a stamp per (player,
 * action) marks it for this simulation), and every node reads its mover's set. */
void mcts_amaf_update(mcts_t *m, int slot, const uint32_t *path, int len, const double *values)
{
    mcts_var_t *v = m->var;
    const uint64_t *hash = v->path_hash + (size_t)slot * (size_t)m->path_cap;
    if (++v->stamp_now == 0) {
        memset(v->stamp, 0, sizeof *v->stamp * (size_t)v->np * (size_t)v->na);
        v->stamp_now = 1;
    }
    for (int p = 0; p < v->np; p++) v->distinct_n[p] = 0;
    /* seq[i] is the action leaving path node i (i < len - 1), then the playout */
    int j = v->seq_len;
    for (int i = len - 1; i >= 0; i--) {
        while (j > i) {
            j--;
            int p = v->seq_player[j], a = v->seq[j];
            if (p < 0) continue;
            uint32_t *mark = &v->stamp[(size_t)p * (size_t)v->na + (size_t)a];
            if (*mark == v->stamp_now) continue;
            *mark = v->stamp_now;
            v->distinct[(size_t)p * (size_t)v->seq_cap + (size_t)v->distinct_n[p]++] = a;
        }
        int p = m->nodes[path[i]].player;
        if (p < 0) continue; /* chance and terminal nodes choose nothing */
        const int *set = v->distinct + (size_t)p * (size_t)v->seq_cap;
        for (int d = 0; d < v->distinct_n[p]; d++)
            mcts_stat_add(&v->amaf_table, mcts_amaf_key(hash[i], set[d]), values[p]);
    }
}

bool mcts_amaf_stats(const mcts_t *m, uint64_t hash, int action, uint32_t *n, double *sum)
{
    const mcts_var_t *v = m->var;
    if (v == NULL || !v->amaf) return false;
    const mcts_stat_t *e = mcts_stat_find(&v->amaf_table, mcts_amaf_key(hash, action));
    if (e == NULL) return false;
    *n = e->n;
    *sum = e->sum;
    return true;
}
