/* mcts_var.c — the search variants' state (mcts_var.h): its lifecycle, the
 * statistics hash table they share, and the two steps that combine them, the
 * tree policy (mcts_var_select) and the per-simulation bookkeeping
 * (mcts_var_playouts, mcts_var_backup).
 *
 * Selection at a decision node of player p, for a child with n visits (in-flight
 * ones included), mean q, prior P:
 *   1. RAVE/GRAVE: with AMAF count na and mean qa of the child's action at the
 *      node (RAVE) or at the reference ancestor (GRAVE),
 *        q <- (1 - beta) q + beta qa,  beta = na / (na + n + rave_bias * na * n)
 *      (Cazenave 2015, eq. 1); an unvisited child with AMAF samples gets qa;
 *   2. implicit minimax: q <- (1 - implicit) q + implicit v_tau (mcts_implicit.c);
 *   3. the plain exploration term (UCT or PUCT; an unvisited child scored by AMAF
 *      explores as after one visit), plus progressive history
 *        phist * xa / ((1 - xi) n + 1),  xa, xi = (mean + 1) / 2 in [0, 1]
 *      (Nijssen & Winands 2011: xa the action's history mean, xi the child's);
 *   4. progressive widening: only the first ceil(pw N^pw_alpha) children in the
 *      widening order compete (mcts_widen.c).
 * Invariant: with m->var NULL the search never enters this file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcts/mcts_var.h"

#define LOSS_EPS 1e-6

/* ---- the statistics table ---- */

/* malloc + memset, not calloc: a lazily mapped table takes a page fault at each
 * first touch of a page, and keys land on random pages, so a search on the clock
 * paid them by the thousand (RAVE on checkers at 200 ms: 68 simulations against
 * 3,169 plain, before this). The table is touched whole here, at creation. */
int mcts_stat_init(mcts_stat_table_t *t, size_t capacity)
{
    t->e = malloc(sizeof *t->e * capacity);
    t->mask = capacity - 1;
    if (t->e == NULL) return HOYLE_ENOMEM;
    mcts_stat_clear(t);
    return HOYLE_OK;
}

void mcts_stat_done(mcts_stat_table_t *t)
{
    free(t->e);
    t->e = NULL;
}

void mcts_stat_clear(mcts_stat_table_t *t)
{
    if (t->e == NULL) return;
    memset(t->e, 0, sizeof *t->e * (t->mask + 1));
    t->used = 0;
    t->full = false;
}

const mcts_stat_t *mcts_stat_find(const mcts_stat_table_t *t, uint64_t key)
{
    for (size_t i = key & t->mask;; i = (i + 1) & t->mask) {
        if (t->e[i].key == key) return &t->e[i];
        if (t->e[i].key == 0) return NULL;
    }
}

void mcts_stat_add(mcts_stat_table_t *t, uint64_t key, double value)
{
    size_t i = key & t->mask;
    while (t->e[i].key != key) {
        if (t->e[i].key == 0) {
            /* at 7/8 load the probes get long: keep the keys there are */
            if (t->used + 1 > (t->mask + 1) / 8 * 7) {
                t->full = true;
                return;
            }
            t->e[i].key = key;
            t->used++;
            break;
        }
        i = (i + 1) & t->mask;
    }
    t->e[i].n++;
    t->e[i].sum += (float)value;
}

uint64_t mcts_amaf_key(uint64_t hash, int action)
{
    uint64_t k = rng_mix(hash ^ ((uint64_t)(action + 1) * 0x9e3779b97f4a7c15ULL));
    return k ? k : 1;
}

uint64_t mcts_ngram_key(int player, int prev, int action)
{
    uint64_t x = ((uint64_t)(uint32_t)(prev + 1) << 32) | (uint32_t)action;
    uint64_t k = rng_mix(x ^ ((uint64_t)(player + 3) << 58));
    return k ? k : 1;
}

/* ---- lifecycle ---- */

static size_t pow2_at_least(size_t n)
{
    size_t c = 1;
    while (c < n) c <<= 1;
    return c;
}

bool mcts_var_any(const mcts_params_t *p)
{
    return p->rave || p->grave > 0 || p->mast > 0 || p->nst > 0 || p->phist > 0 ||
           p->implicit > 0 || p->pw > 0 || p->playouts > 0;
}

int mcts_var_check(const mcts_params_t *p)
{
    if (p->mast > 0 && p->nst > 0)
        return hoyle_error(HOYLE_EINVAL, "mcts: mast and nst are two playout policies: set one");
    if ((p->mast > 0 || p->nst > 0) && p->playouts <= 0)
        return hoyle_error(HOYLE_EINVAL, "mcts: mast and nst shape random playouts: they need "
                                         "eval=rollout");
    if (p->playouts < 0) return hoyle_error(HOYLE_EINVAL, "mcts: playouts must be >= 0");
    /* the variants' tables are not shared between the workers of one search
     * (parallel=root gives every tree its own) */
    if (p->threads > 1 && p->parallel == MCTS_PARALLEL_TREE && mcts_var_any(p))
        return hoyle_error(HOYLE_EINVAL, "mcts: threads > 1 does not combine with rave, grave, "
                                         "mast, nst, phist, implicit or pw (yet): set threads=1");
    return HOYLE_OK;
}

int mcts_var_create(mcts_t *m)
{
    const game_t *g = m->g;
    const mcts_params_t *p = &m->p;
    m->var = NULL;
    if (!mcts_var_any(p)) return HOYLE_OK;
    mcts_var_t *v = calloc(1, sizeof *v);
    if (v == NULL) return hoyle_error(HOYLE_ENOMEM, "mcts: out of memory (variants)");
    m->var = v;
    v->np = g->num_players;
    v->na = g->num_actions;
    v->amaf = p->rave || p->grave > 0;
    v->history = p->mast > 0 || p->nst > 0 || p->phist > 0;
    v->ngrams = p->nst > 0;
    v->implicit = p->implicit > 0;
    /* The implicit values are heuristic values (Lanctot et al. 2014): the game's own
     * when leaves are valued by random playouts, else the evaluator's. */
    v->implicit_heuristic = v->implicit && g->vt->evaluate &&
                            (p->playouts > 0 || (m->eval && strcmp(m->eval->name, "rollout") == 0));
    size_t batch = (size_t)p->batch, nl = (size_t)g->max_legal;
    if ((size_t)g->max_chance_outcomes > nl) nl = (size_t)g->max_chance_outcomes;
    v->seq_cap = m->path_cap + g->max_game_length + 2;
    bool ok = true;
    if (v->amaf) {
        /* about four (node, action) pairs per node, within [2^16, 2^20] entries */
        size_t cap = pow2_at_least(4 * p->max_nodes);
        cap = cap < ((size_t)1 << 16)   ? (size_t)1 << 16
              : cap > ((size_t)1 << 20) ? (size_t)1 << 20
                                        : cap;
        ok = ok && mcts_stat_init(&v->amaf_table, cap) == HOYLE_OK;
        v->path_hash = malloc(sizeof *v->path_hash * batch * (size_t)m->path_cap);
        v->stamp = calloc((size_t)v->np * (size_t)v->na, sizeof *v->stamp);
        v->distinct = malloc(sizeof *v->distinct * (size_t)v->np * (size_t)v->seq_cap);
        v->distinct_n = malloc(sizeof *v->distinct_n * (size_t)v->np);
        ok = ok && v->path_hash && v->stamp && v->distinct && v->distinct_n;
    }
    if (v->ngrams) ok = ok && mcts_stat_init(&v->ngram_table, (size_t)1 << 18) == HOYLE_OK;
    if (v->history) {
        v->hist_sum = calloc((size_t)v->np * (size_t)v->na, sizeof *v->hist_sum);
        v->hist_n = calloc((size_t)v->np * (size_t)v->na, sizeof *v->hist_n);
        ok = ok && v->hist_sum && v->hist_n;
    }
    if (v->implicit) {
        v->imp = malloc(sizeof *v->imp * p->max_nodes * (size_t)v->np);
        ok = ok && v->imp;
    }
    v->played = calloc(batch, 1);
    v->seq = malloc(sizeof *v->seq * (size_t)v->seq_cap);
    v->seq_player = malloc(sizeof *v->seq_player * (size_t)v->seq_cap);
    v->state = malloc(g->state_size);
    v->legal = malloc(sizeof *v->legal * nl);
    v->weight = malloc(sizeof *v->weight * nl);
    v->keys = malloc(sizeof *v->keys * nl);
    v->sel = malloc(sizeof *v->sel * nl);
    if (!ok || !v->played || !v->seq || !v->seq_player || !v->state || !v->legal || !v->weight ||
        !v->keys || !v->sel) {
        mcts_var_free(m);
        return hoyle_error(HOYLE_ENOMEM, "mcts: out of memory (variants)");
    }
    return HOYLE_OK;
}

void mcts_var_free(mcts_t *m)
{
    mcts_var_t *v = m->var;
    if (v == NULL) return;
    mcts_stat_done(&v->amaf_table);
    mcts_stat_done(&v->ngram_table);
    free(v->hist_sum);
    free(v->hist_n);
    free(v->path_hash);
    free(v->played);
    free(v->seq);
    free(v->seq_player);
    free(v->state);
    free(v->legal);
    free(v->weight);
    free(v->keys);
    free(v->sel);
    free(v->stamp);
    free(v->distinct);
    free(v->distinct_n);
    free(v->imp);
    free(v);
    m->var = NULL;
}

size_t mcts_var_memory_bytes(const mcts_t *m)
{
    const mcts_var_t *v = m->var;
    if (v == NULL) return 0;
    size_t b = sizeof *v, pa = (size_t)v->np * (size_t)v->na;
    if (v->amaf_table.e) b += sizeof(mcts_stat_t) * (v->amaf_table.mask + 1);
    if (v->ngram_table.e) b += sizeof(mcts_stat_t) * (v->ngram_table.mask + 1);
    if (v->hist_sum) b += pa * (sizeof(double) + sizeof(uint32_t));
    if (v->stamp) b += pa * sizeof(uint32_t) + (size_t)v->np * (size_t)v->seq_cap * sizeof(int);
    if (v->path_hash) b += sizeof(uint64_t) * (size_t)m->p.batch * (size_t)m->path_cap;
    if (v->imp) b += sizeof(float) * m->p.max_nodes * (size_t)v->np;
    return b + (size_t)v->seq_cap * (sizeof(int) + 1) + m->g->state_size;
}

void mcts_var_clear(mcts_t *m)
{
    mcts_var_t *v = m->var;
    if (v == NULL) return;
    mcts_stat_clear(&v->amaf_table);
    mcts_stat_clear(&v->ngram_table);
    size_t pa = (size_t)v->np * (size_t)v->na;
    if (v->hist_sum) memset(v->hist_sum, 0, sizeof *v->hist_sum * pa);
    if (v->hist_n) memset(v->hist_n, 0, sizeof *v->hist_n * pa);
}

/* The AMAF table keeps the pairs of positions the game has left behind; once
 * it is half full, a new search starts it afresh (the tree keeps its visits). */
void mcts_var_begin(mcts_t *m)
{
    mcts_var_t *v = m->var;
    if (v->amaf && v->amaf_table.used > (v->amaf_table.mask + 1) / 2)
        mcts_stat_clear(&v->amaf_table);
}

void mcts_var_compact(mcts_t *m, const uint32_t *from, size_t count)
{
    mcts_var_t *v = m->var;
    if (v == NULL || v->imp == NULL || from == NULL) return;
    size_t np = (size_t)v->np;
    /* breadth-first order can put a node before one with a smaller old index:
     * gather into a copy (one block per move, like the compaction itself) */
    float *copy = malloc(sizeof *copy * count * np);
    if (copy == NULL) { /* the values are lost, not wrong: unmark every node */
        for (size_t i = 0; i < count; i++) m->nodes[i].flags &= (uint8_t)~NODE_IMPLICIT;
        return;
    }
    for (size_t i = 0; i < count; i++)
        memcpy(copy + i * np, v->imp + (size_t)from[i] * np, sizeof *copy * np);
    memcpy(v->imp, copy, sizeof *copy * count * np);
    free(copy);
}

/* ---- the steps of one simulation ---- */

void mcts_var_descend(mcts_t *m, int slot, int depth, const mcts_node_t *node, const void *state)
{
    mcts_var_t *v = m->var;
    if (!v->amaf && m->p.pw <= 0) return;
    uint64_t h = game_hash(m->g, state);
    v->cur_hash = h;
    if (v->path_hash) v->path_hash[(size_t)slot * (size_t)m->path_cap + (size_t)depth] = h;
    /* GRAVE's reference: the root, then each decision node with more than
     * `grave` playouts on the way down (Cazenave 2015) */
    if (depth == 0 || (node->player >= 0 && m->p.grave > 0 && node->visits > m->p.grave))
        v->ref_hash = h;
}

uint32_t mcts_var_select(mcts_t *m, const mcts_node_t *node, int player, double fpu, double explore)
{
    const mcts_params_t *p = &m->p;
    mcts_var_t *v = m->var;
    int np = m->g->num_players;
    int k = node->num_children;
    uint64_t threshold = 0;
    if (p->pw > 0) {
        k = mcts_widen_count(m, node);
        if (k < node->num_children) threshold = mcts_widen_threshold(m, node, k);
    }
    uint64_t amaf_hash = p->grave > 0 ? v->ref_hash : v->cur_hash;
    uint32_t best = node->first_edge;
    double best_score = -INFINITY;
    /* pass 0 among the widened children; pass 1 among all, when every one of
     * those is a proven loss */
    for (int pass = threshold ? 0 : 1; pass < 2; pass++) {
        for (int c = 0; c < node->num_children; c++) {
            if (pass == 0 && v->keys[c] < threshold) continue;
            uint32_t index = node->first_edge + (uint32_t)c;
            const mcts_edge_t *e = &m->edges[index];
            const mcts_node_t *ch = mcts_edge_node(m, e);
            double n = (double)ch->visits + ch->vloss, q, score, mean = 0, n_exp = n;
            bool have = false;
            if (p->solver && (ch->flags & NODE_PROVEN)) {
                q = ch->proven_value[player];
                if (q <= -1.0 + LOSS_EPS) continue;
                have = true;
            } else {
                if (n > 0) {
                    q = mean = (ch->value_sum[player] - p->virtual_loss * ch->vloss) / n;
                    have = true;
                } else {
                    q = fpu;
                }
                uint32_t na;
                double sa;
                if (v->amaf && mcts_amaf_stats(m, amaf_hash, e->action, &na, &sa) && na > 0) {
                    double qa = sa / na;
                    double beta = na / (na + n + p->rave_bias * na * n);
                    q = have ? (1 - beta) * q + beta * qa : qa;
                    if (!have) n_exp = 1;
                    have = true;
                }
                if (v->implicit && have && (ch->flags & NODE_IMPLICIT))
                    q = (1 - p->implicit) * q +
                        p->implicit * v->imp[(size_t)e->node * (size_t)np + (size_t)player];
            }
            if (p->select == MCTS_PUCT)
                score = q + explore * e->prior / (1.0 + n);
            else
                score = !have ? q : q + explore / sqrt(n_exp > 0 ? n_exp : 1);
            if (p->phist > 0) {
                double xa = (mcts_history_mean(m, player, e->action, 0) + 1) / 2;
                double xi = n > 0 ? (mean + 1) / 2 : 0;
                score += p->phist * xa / ((1 - xi) * n + 1);
            }
            if (score > best_score) {
                best_score = score;
                best = index;
            }
        }
        if (best_score > -INFINITY) break;
    }
    return best;
}

/* The simulation's tree part: each path node's action, by its parent's mover. */
void mcts_var_record_path(mcts_t *m, const uint32_t *path, int len)
{
    mcts_var_t *v = m->var;
    v->seq_len = 0;
    for (int i = 1; i < len; i++) {
        v->seq[v->seq_len] = m->nodes[path[i]].action;
        v->seq_player[v->seq_len++] = (int8_t)m->nodes[path[i - 1]].player;
    }
    v->seq_tree = v->seq_len;
}

/* The leaves of this batch played out by the searcher: params.playouts per
 * leaf, each counted in the AMAF and history tables on its own; a leaf's value
 * is their mean. */
int mcts_var_playouts(mcts_t *m, double *values)
{
    mcts_var_t *v = m->var;
    const game_t *g = m->g;
    int np = g->num_players;
    for (int i = 0; i < m->cur->n; i++) {
        const uint32_t *path = m->cur->paths + (size_t)i * (size_t)m->path_cap;
        int len = m->cur->len[i];
        const char *s = m->cur->states + (size_t)i * g->state_size;
        /* the 2-gram context of the first playout action (mcts_playout.c) */
        int prev = -1;
        if (len > 1) {
            int a = m->nodes[path[len - 1]].action;
            prev = m->nodes[path[len - 2]].player == PLAYER_CHANCE ? -2 - a : a;
        }
        double *val = values + (size_t)i * (size_t)np;
        for (int p = 0; p < np; p++) val[p] = 0;
        for (int k = 0; k < m->p.playouts; k++) {
            double r[GAME_MAX_PLAYERS];
            mcts_var_record_path(m, path, len);
            int status = mcts_playout(m, s, prev, r);
            if (status) return status;
            if (v->amaf) mcts_amaf_update(m, i, path, len, r);
            if (v->history) mcts_history_update(m, r);
            for (int p = 0; p < np; p++) val[p] += r[p];
        }
        for (int p = 0; p < np; p++) val[p] /= m->p.playouts;
        v->played[i] = 1;
    }
    return HOYLE_OK;
}

/* Before the plain backup of a simulation in `slot`: the statistics of a
 * simulation that was not played out here (a terminal or proven leaf, an
 * evaluator's leaf: its tree part only), then the implicit minimax values. */
void mcts_var_backup(mcts_t *m, int slot, const uint32_t *path, int len, const double *values)
{
    mcts_var_t *v = m->var;
    if (!v->played[slot] && (v->amaf || v->history)) {
        mcts_var_record_path(m, path, len);
        if (v->amaf) mcts_amaf_update(m, slot, path, len, values);
        if (v->history) mcts_history_update(m, values);
    }
    v->played[slot] = 0;
    if (v->implicit) mcts_implicit_backup(m, slot, path, len, values);
}
