/* net_eval.c — the network evaluator (net_eval.h). Invariant: a valid cache
 * entry holds exactly what a forward pass of the current net gave for the
 * state with that hash (cleared whenever the caller changes the weights). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "train/net_eval.h"

#include "core/clock.h"
#include "core/error.h"
#include "core/rng.h"

typedef struct net_eval {
    tch_net_t *net;
    int obs_size;
    float *obs;     /* [max_batch][obs_size] */
    float *logits;  /* [max_batch][A] */
    float *vals;    /* [max_batch] */
    int *miss;      /* [max_batch] indices of the states not in the cache */
    int *legal;     /* [max_legal] */
    uint64_t mask;  /* cache slots - 1, or 0 with no cache */
    uint64_t *keys; /* [slots] hash + 1 (0 = empty) */
    float *cvalue;  /* [slots] */
    float *cprior;  /* [slots][A] */
    uint64_t hits;
    uint64_t forwards, forwarded; /* tch_forward calls, positions they held */
    uint64_t *sizes;              /* [max_batch + 1] forward calls by batch size */
} net_eval_t;

int net_config_check(const game_t *g, const tch_net_config_t *c)
{
    if (c->in_channels != g->obs_shape[0] || c->height != g->obs_shape[1] ||
        c->width != g->obs_shape[2] || c->num_actions != g->num_actions)
        return hoyle_error(HOYLE_EINVAL,
                           "net: shapes %dx%dx%d -> %d do not fit %s (%dx%dx%d -> %d actions)",
                           c->in_channels, c->height, c->width, c->num_actions, g->spec,
                           g->obs_shape[0], g->obs_shape[1], g->obs_shape[2], g->num_actions);
    if (c->num_values != 1)
        return hoyle_error(HOYLE_EINVAL,
                           "net: num_values is %d; the evaluator needs 1 (the value "
                           "for the player to move)",
                           c->num_values);
    return HOYLE_OK;
}

/* Priors over the legal actions (softmax of their logits), value per player. */
static void write_out(const game_t *g, const void *s, const float *logits, float v, int *legal,
                      double *values, float *priors)
{
    int p = game_current_player(g, s);
    if (g->num_players == 2) {
        values[p] = v;
        values[1 - p] = -v;
    } else {
        values[0] = v;
    }
    if (priors == NULL) return;
    int n = game_legal_actions(g, s, legal);
    memset(priors, 0, sizeof(float) * (size_t)g->num_actions);
    float top = -INFINITY;
    for (int i = 0; i < n; i++) top = fmaxf(top, logits[legal[i]]);
    double total = 0;
    for (int i = 0; i < n; i++) total += priors[legal[i]] = expf(logits[legal[i]] - top);
    for (int i = 0; i < n; i++) priors[legal[i]] = (float)(priors[legal[i]] / total);
}

/* 1. answer cached states and encode the others into one batch; 2. one forward for the
 * misses; 3. store them in the cache and write the outputs. A full cache slot is simply
 * overwritten (direct-mapped: no probing, no eviction order to maintain). */
static int net_evaluate(evaluator_t *e, const void *states, int n, double *values, float *priors)
{
    const game_t *g = e->g;
    net_eval_t *ne = e->impl;
    size_t A = (size_t)g->num_actions;
    int np = g->num_players, misses = 0;
    for (int i = 0; i < n; i++) {
        const char *s = (const char *)states + (size_t)i * g->state_size;
        if (ne->mask) {
            /* keys hold hash + 1 so that a zeroed table is empty; a full 64-bit compare
             * makes a wrong hit as likely as a hash collision */
            uint64_t h = game_hash(g, s), slot = h & ne->mask;
            if (ne->keys[slot] == h + 1) {
                ne->hits++;
                write_out(g, s, ne->cprior + slot * A, ne->cvalue[slot], ne->legal,
                          values + (size_t)i * (size_t)np, NULL);
                if (priors)
                    memcpy(priors + (size_t)i * A, ne->cprior + slot * A, sizeof(float) * A);
                continue;
            }
        }
        /* the net sees the position from the player to move (its value is theirs) */
        game_observe(g, s, game_current_player(g, s),
                     ne->obs + (size_t)misses * (size_t)ne->obs_size);
        ne->miss[misses++] = i;
    }
    if (misses == 0) return HOYLE_OK;
    int status = tch_forward(ne->net, ne->obs, misses, ne->logits, ne->vals);
    if (status) return status;
    ne->forwards++;
    ne->forwarded += (uint64_t)misses;
    ne->sizes[misses]++;
    for (int k = 0; k < misses; k++) {
        int i = ne->miss[k];
        const char *s = (const char *)states + (size_t)i * g->state_size;
        float *pr = priors ? priors + (size_t)i * A : NULL;
        uint64_t slot = 0;
        if (ne->mask) { /* priors go straight into the cache slot, then are copied out */
            uint64_t h = game_hash(g, s);
            slot = h & ne->mask;
            ne->keys[slot] = h + 1;
            ne->cvalue[slot] = ne->vals[k];
            pr = ne->cprior + slot * A;
        }
        write_out(g, s, ne->logits + (size_t)k * A, ne->vals[k], ne->legal,
                  values + (size_t)i * (size_t)np, pr);
        if (ne->mask && priors) memcpy(priors + (size_t)i * A, pr, sizeof(float) * A);
    }
    return HOYLE_OK;
}

static void net_destroy(evaluator_t *e)
{
    net_eval_t *ne = e->impl;
    if (ne) {
        free(ne->obs);
        free(ne->logits);
        free(ne->vals);
        free(ne->miss);
        free(ne->sizes);
        free(ne->legal);
        free(ne->keys);
        free(ne->cvalue);
        free(ne->cprior);
        free(ne);
    }
    free(e);
}

/* The net is not seeded, but its cache is state: a cached answer came from
 * another batch, whose float rounding may differ from a fresh forward. */
static void net_reseed(evaluator_t *e, uint64_t seed)
{
    (void)seed;
    net_evaluator_clear_cache(e);
}

static const evaluator_vt_t net_vt = {
    .evaluate = net_evaluate, .destroy = net_destroy, .reseed = net_reseed};

int net_evaluator_create(const game_t *g, tch_net_t *net, int max_batch, int cache_entries,
                         evaluator_t **out)
{
    tch_net_config_t c;
    int status = tch_net_get_config(net, &c);
    if (status || (status = net_config_check(g, &c))) return status;
    if (max_batch < 1 || cache_entries < 0)
        return hoyle_error(HOYLE_EINVAL, "net evaluator: max_batch must be >= 1, cache >= 0");
    evaluator_t *e = calloc(1, sizeof *e);
    net_eval_t *ne = calloc(1, sizeof *ne);
    if (e == NULL || ne == NULL) {
        free(e);
        free(ne);
        return hoyle_error(HOYLE_ENOMEM, "net evaluator: out of memory");
    }
    *e = (evaluator_t){.vt = &net_vt,
                       .g = g,
                       .name = "net",
                       .has_priors = true,
                       .max_batch = max_batch,
                       .impl = ne};
    size_t B = (size_t)max_batch, A = (size_t)g->num_actions;
    ne->net = net;
    ne->obs_size = game_obs_size(g);
    ne->obs = malloc(sizeof(float) * B * (size_t)ne->obs_size);
    ne->logits = malloc(sizeof(float) * B * A);
    ne->vals = malloc(sizeof(float) * B);
    ne->miss = malloc(sizeof(int) * B);
    ne->sizes = calloc(B + 1, sizeof *ne->sizes);
    ne->legal = malloc(sizeof(int) * (size_t)g->max_legal);
    bool ok = ne->obs && ne->logits && ne->vals && ne->miss && ne->sizes && ne->legal;
    if (ok && cache_entries > 0) { /* a power of two, so that the slot is hash & mask */
        uint64_t slots = 1;
        while (slots < (uint64_t)cache_entries) slots *= 2;
        ne->mask = slots - 1;
        ne->keys = calloc(slots, sizeof *ne->keys);
        ne->cvalue = malloc(sizeof(float) * slots);
        ne->cprior = malloc(sizeof(float) * slots * A);
        ok = ne->keys && ne->cvalue && ne->cprior;
    }
    if (!ok) {
        net_destroy(e);
        return hoyle_error(HOYLE_ENOMEM, "net evaluator: out of memory");
    }
    *out = e;
    return HOYLE_OK;
}

void net_evaluator_clear_cache(evaluator_t *e)
{
    net_eval_t *ne = e->impl;
    if (ne->mask) memset(ne->keys, 0, sizeof(uint64_t) * (size_t)(ne->mask + 1));
}

uint64_t net_evaluator_cache_hits(const evaluator_t *e)
{
    const net_eval_t *ne = e->impl;
    return ne->hits;
}

uint64_t net_evaluator_forwards(const evaluator_t *e, uint64_t *positions)
{
    const net_eval_t *ne = e->impl;
    if (positions) *positions = ne->forwarded;
    return ne->forwards;
}

const uint64_t *net_evaluator_batch_sizes(const evaluator_t *e, int *max_batch)
{
    const net_eval_t *ne = e->impl;
    if (max_batch) *max_batch = e->max_batch;
    return ne->sizes;
}

int net_evaluator_replay(evaluator_t *e, double min_seconds, uint64_t seed, uint64_t *positions,
                         double *seconds)
{
    return net_evaluator_replay_sizes(e, ((net_eval_t *)e->impl)->sizes, min_seconds, seed,
                                      positions, seconds);
}

int net_evaluator_replay_sizes(evaluator_t *e, const uint64_t *sizes, double min_seconds,
                               uint64_t seed, uint64_t *positions, double *seconds)
{
    net_eval_t *ne = e->impl;
    int B = e->max_batch;
    uint64_t calls = 0;
    for (int b = 1; b <= B; b++) calls += sizes[b];
    *positions = 0;
    *seconds = 0;
    if (calls == 0) return hoyle_error(HOYLE_EINVAL, "net evaluator: no forward to replay");
    /* The calls in a seeded random order (Fisher-Yates), so that the sizes mix as they did in
     * self-play rather than running sorted. */
    int *order = malloc(sizeof(int) * (size_t)calls);
    if (order == NULL) return hoyle_error(HOYLE_ENOMEM, "net evaluator: out of memory");
    uint64_t k = 0;
    for (int b = 1; b <= B; b++)
        for (uint64_t c = 0; c < sizes[b]; c++) order[k++] = b;
    rng_t rng;
    rng_init(&rng, seed);
    for (uint64_t i = calls - 1; i > 0; i--) {
        uint64_t j = rng_below(&rng, (uint32_t)(i + 1)); /* calls < 2^32: one per forward */
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    /* the inputs are the last batch's observations (real positions, repeated) */
    int status = HOYLE_OK;
    double t0 = clock_seconds();
    do {
        for (uint64_t i = 0; i < calls && status == HOYLE_OK; i++) {
            status = tch_forward(ne->net, ne->obs, order[i], ne->logits, ne->vals);
            *positions += (uint64_t)order[i];
        }
        *seconds = clock_seconds() - t0;
    } while (status == HOYLE_OK && *seconds < min_seconds);
    free(order);
    return status;
}
