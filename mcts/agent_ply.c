/* agent_ply.c — the one-move body (agent_kind.h: agent_ply_create) of the greedy kind and
 * of az(search=ply): every move of the player to move valued one move ahead by an
 * evaluator, the best played.
 *
 * A move is one action, or with `whole` the mover's whole turn: a chain of his own actions
 * until another player (or chance) is to move, each chain valued by its best continuation
 * (the mover's choice). A chance node on the way is the probability-weighted mean of its
 * outcomes (one expectimax ply: backgammon's next roll). A terminal state is valued by its
 * returns; every other state the move reaches is a leaf for the evaluator.
 *
 * Two passes over the same tree. The first collects the distinct leaves (by hash), the
 * evaluator values them in batches of its max_batch, the second backs the values up. Every
 * state below the root is memoised by its hash in both passes, so the orders of one set of
 * steps, or one end position reached twice, are walked and evaluated once. This is how
 * TD-Gammon and gnubg's 0-ply play a roll: the net's value of every distinct position the
 * roll can reach, here averaged over the opponent's roll as well.
 *
 * Ties (within 1e-12) are broken uniformly by the agent's seeded stream (reservoir
 * sampling), so a fixed evaluator plays the same game for the same seed. */
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "mcts/agent_kind.h"

/* One memoised state: its hash (0 = empty slot), its leaf index (-1 = interior), and its
 * value for the mover once the second pass computed it. */
typedef struct memo {
    uint64_t hash;
    int32_t leaf;
    bool done;
    double value;
} memo_t;

/* What one level of the walk needs: its state and the actions (or outcomes) it tries. */
typedef struct level {
    void *state;
    int *actions;
    double *probs;
} level_t;

typedef struct ply {
    evaluator_t *eval;
    void (*release)(void *owner);
    void *owner;
    bool whole;
    int mover;
    memo_t *memo;
    size_t memo_cap, memo_used; /* a power of two; kept at most half full */
    char *leaves;               /* leaf states, state_size each */
    double *leaf_value;         /* the mover's value of each, after the evaluation */
    int num_leaves, leaf_cap;
    double *batch_values; /* max_batch x num_players */
    double *root_q;       /* max_legal: the mover's value of each root action (a->info.q) */
    level_t *levels;
    int num_levels;
} ply_t;

/* Any nonzero word marks a state reached off the mover's chain (after chance), so that
 * one hash cannot stand for a chain node and a leaf at once. */
#define OFF_CHAIN_SALT 0x9e3779b97f4a7c15ULL

static void ply_free_levels(ply_t *p)
{
    for (int i = 0; i < p->num_levels; i++) {
        free(p->levels[i].state);
        free(p->levels[i].actions);
        free(p->levels[i].probs);
    }
    free(p->levels);
    p->levels = NULL;
    p->num_levels = 0;
}

/* Level `depth`'s buffers, made on first use (a chain deeper than any before). */
static level_t *ply_level(ply_t *p, const game_t *g, int depth)
{
    if (depth < p->num_levels) return &p->levels[depth];
    level_t *grown = realloc(p->levels, sizeof *grown * (size_t)(depth + 1));
    if (grown == NULL) return NULL;
    p->levels = grown;
    int width = g->max_legal > g->max_chance_outcomes ? g->max_legal : g->max_chance_outcomes;
    for (; p->num_levels <= depth; p->num_levels++) {
        level_t *l = &p->levels[p->num_levels];
        l->state = malloc(g->state_size);
        l->actions = malloc(sizeof(int) * (size_t)(width > 0 ? width : 1));
        l->probs = malloc(sizeof(double) * (size_t)(width > 0 ? width : 1));
        if (!l->state || !l->actions || !l->probs) {
            p->num_levels++; /* freed with the others */
            return NULL;
        }
    }
    return &p->levels[depth];
}

static void memo_clear(ply_t *p)
{
    if (p->memo) memset(p->memo, 0, sizeof(memo_t) * p->memo_cap);
    p->memo_used = 0;
}

/* The slot of `hash` (0 is mapped to 1: 0 marks an empty slot). */
static memo_t *memo_slot(ply_t *p, uint64_t hash)
{
    size_t mask = p->memo_cap - 1, i = (size_t)(hash * 0xff51afd7ed558ccdULL >> 17) & mask;
    while (p->memo[i].hash != 0 && p->memo[i].hash != hash) i = (i + 1) & mask;
    return &p->memo[i];
}

/* The entry of `hash`, inserted when absent (*fresh says which); NULL when out of memory. */
static memo_t *memo_get(ply_t *p, uint64_t hash, bool *fresh)
{
    if (hash == 0) hash = 1;
    if (2 * (p->memo_used + 1) > p->memo_cap) {
        size_t cap = p->memo_cap ? 2 * p->memo_cap : 1024;
        memo_t *old = p->memo, *grown = calloc(cap, sizeof *grown);
        if (grown == NULL) return NULL;
        size_t old_cap = p->memo_cap;
        p->memo = grown;
        p->memo_cap = cap;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].hash) *memo_slot(p, old[i].hash) = old[i];
        free(old);
    }
    memo_t *e = memo_slot(p, hash);
    *fresh = e->hash == 0;
    if (*fresh) {
        *e = (memo_t){.hash = hash, .leaf = -1};
        p->memo_used++;
    }
    return e;
}

static int ply_add_leaf(ply_t *p, const game_t *g, const void *s)
{
    if (p->num_leaves == p->leaf_cap) {
        int cap = p->leaf_cap ? 2 * p->leaf_cap : 256;
        char *states = realloc(p->leaves, g->state_size * (size_t)cap);
        if (states == NULL) return -1;
        p->leaves = states;
        double *values = realloc(p->leaf_value, sizeof(double) * (size_t)cap);
        if (values == NULL) return -1;
        p->leaf_value = values;
        p->leaf_cap = cap;
    }
    memcpy(p->leaves + g->state_size * (size_t)p->num_leaves, s, g->state_size);
    return p->num_leaves++;
}

/* The mover's value of levels[depth].state. `chain`: the mover is still in his turn (his own
 * decisions are walked, not evaluated). `second`: the second pass (values); the first only
 * collects leaves and returns 0. Returns HOYLE_OK or a negative status with *v unset. */
static int walk(agent_t *a, ply_t *p, int depth, bool chain, bool second, double *v)
{
    const game_t *g = a->g;
    level_t *l = &p->levels[depth];
    if (game_is_terminal(g, l->state)) {
        double r[GAME_MAX_PLAYERS];
        game_returns(g, l->state, r);
        *v = r[p->mover];
        return HOYLE_OK;
    }
    bool fresh;
    memo_t *e = memo_get(p, game_hash(g, l->state) ^ (chain ? 0 : OFF_CHAIN_SALT), &fresh);
    if (e == NULL) return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", a->kind->name);
    *v = 0;
    if (!second && !fresh) return HOYLE_OK; /* collected through another path */
    if (second && e->done) {
        *v = e->value;
        return HOYLE_OK;
    }
    int player = game_current_player(g, l->state);
    bool inner = player == PLAYER_CHANCE || (chain && player == p->mover);
    if (inner && ply_level(p, g, depth + 1) == NULL)
        return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", a->kind->name);
    l = &p->levels[depth]; /* ply_level may have moved the array */
    level_t *next = &p->levels[depth + 1];
    double value = 0;
    if (inner) {
        /* chance: the probability-weighted mean of the outcomes; the mover's chain: the best
         * continuation */
        bool chance = player == PLAYER_CHANCE;
        int n = chance ? game_chance_outcomes(g, l->state, l->actions, l->probs)
                       : game_legal_actions(g, l->state, l->actions);
        if (n <= 0 && !chance)
            return hoyle_error(HOYLE_ESTATE, "%s: live state without actions", g->spec);
        double sum = 0, total = 0;
        value = -1e300;
        for (int i = 0; i < n; i++) {
            memcpy(next->state, l->state, g->state_size);
            game_apply(g, next->state, l->actions[i]);
            double w;
            int status = walk(a, p, depth + 1, !chance, second, &w);
            if (status) return status;
            l = &p->levels[depth]; /* the walk below may have moved the array */
            next = &p->levels[depth + 1];
            if (chance) {
                sum += l->probs[i] * w;
                total += l->probs[i];
            } else if (w > value) {
                value = w;
            }
        }
        /* divided by the total, not assumed to be 1: games may round probabilities */
        if (chance) value = total > 0 ? sum / total : 0;
    } else if (!second) {
        if ((e->leaf = ply_add_leaf(p, g, l->state)) < 0)
            return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", a->kind->name);
    } else {
        value = p->leaf_value[e->leaf];
    }
    if (second) {
        /* memo_get may have moved the table during the walk below: look the entry up again */
        e = memo_get(p, game_hash(g, l->state) ^ (chain ? 0 : OFF_CHAIN_SALT), &fresh);
        e->value = value;
        e->done = true;
        *v = value;
    }
    return HOYLE_OK;
}

/* The largest batch asked of `e`: its max_batch, at most PLY_BATCH_MAX. */
#define PLY_BATCH_MAX 256
static int ply_batch(const evaluator_t *e)
{
    return e->max_batch < 1 ? 1 : e->max_batch > PLY_BATCH_MAX ? PLY_BATCH_MAX : e->max_batch;
}

/* The evaluator's values of every collected leaf, for the mover, in batches. */
static int evaluate_leaves(agent_t *a, ply_t *p)
{
    const game_t *g = a->g;
    int batch = ply_batch(p->eval);
    for (int at = 0; at < p->num_leaves; at += batch) {
        int n = p->num_leaves - at < batch ? p->num_leaves - at : batch;
        int status = evaluator_evaluate(p->eval, p->leaves + g->state_size * (size_t)at, n,
                                        p->batch_values, NULL);
        if (status) return status;
        for (int i = 0; i < n; i++)
            p->leaf_value[at + i] = p->batch_values[(size_t)i * (size_t)g->num_players + p->mover];
    }
    return HOYLE_OK;
}

static int ply_act(agent_t *a, const void *state, int *action)
{
    const game_t *g = a->g;
    ply_t *p = a->impl;
    double t0 = clock_seconds();
    p->mover = game_current_player(g, state);
    int n = game_legal_actions(g, state, a->legal);
    if (n <= 0) return hoyle_error(HOYLE_ESTATE, "%s: no legal action", a->kind->name);
    memo_clear(p);
    p->num_leaves = 0;
    bool chain = p->whole && g->num_players > 1;
    double best = -1e300;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            int status = evaluate_leaves(a, p);
            if (status) return status;
        }
        int ties = 0;
        for (int i = 0; i < n; i++) {
            memcpy(p->levels[0].state, state, g->state_size);
            game_apply(g, p->levels[0].state, a->legal[i]);
            double v;
            int status = walk(a, p, 0, chain, pass == 1, &v);
            if (status) return status;
            if (pass == 0) continue;
            p->root_q[i] = v;
            /* Values within 1e-12 are ties: float noise between equal positions must not
             * decide the move, the seeded tie-break does (the k-th tie replaces the
             * choice with probability 1/k). */
            if (v > best + 1e-12) {
                best = v;
                ties = 1;
                *action = a->legal[i];
            } else if (v >= best - 1e-12 && rng_below(&a->rng, (uint32_t)++ties) == 0) {
                *action = a->legal[i];
            }
        }
    }
    a->info.kind = a->kind->name;
    a->info.num_moves = n;
    a->info.actions = a->legal;
    a->info.q = p->root_q;
    a->info.value = best;
    a->info.sims = p->num_leaves; /* the evaluator's positions */
    a->info.nodes = p->memo_used;
    a->info.seconds = clock_seconds() - t0;
    return HOYLE_OK;
}

static int ply_reseed(agent_t *a)
{
    ply_t *p = a->impl;
    evaluator_reseed(p->eval, a->seed);
    return HOYLE_OK;
}

static void ply_destroy(agent_t *a)
{
    ply_t *p = a->impl;
    if (p == NULL) return;
    evaluator_free(p->eval);
    if (p->release) p->release(p->owner);
    ply_free_levels(p);
    free(p->memo);
    free(p->leaves);
    free(p->leaf_value);
    free(p->batch_values);
    free(p->root_q);
    free(p);
    a->impl = NULL;
}

static const agent_vt_t ply_vt = {.act = ply_act, .reseed = ply_reseed, .destroy = ply_destroy};

int agent_ply_create(agent_t *a, evaluator_t *eval, bool whole, void (*release)(void *owner),
                     void *owner)
{
    ply_t *p = calloc(1, sizeof *p);
    if (p == NULL) {
        evaluator_free(eval);
        if (release) release(owner);
        return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", a->kind->name);
    }
    *p = (ply_t){.eval = eval, .release = release, .owner = owner, .whole = whole};
    a->impl = p;
    a->vt = &ply_vt;
    p->batch_values = malloc(sizeof(double) * (size_t)ply_batch(eval) * (size_t)a->g->num_players);
    p->root_q = malloc(sizeof(double) * (size_t)(a->g->max_legal > 0 ? a->g->max_legal : 1));
    if (p->batch_values == NULL || p->root_q == NULL || ply_level(p, a->g, 0) == NULL) {
        ply_destroy(a);
        return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", a->kind->name);
    }
    return HOYLE_OK;
}
