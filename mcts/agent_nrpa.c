/* agent_nrpa.c — Nested Rollout Policy Adaptation (Rosin 2011, "Nested
 * Rollout Policy Adaptation for Monte Carlo Tree Search", IJCAI), the `nrpa`
 * agent for one-player games.
 *
 * A policy is a weight w[c] per action code c; a playout picks action a in
 * state s with probability exp(w[code(s, a)]) / sum over the legal b of
 * exp(w[code(s, b)]). NRPA(0, w) is one playout. NRPA(L, w), L > 0: repeat
 * `iterations` times: (r, seq) = NRPA(L - 1, copy of w); if r >= best, best
 * = r and keep seq; then adapt w towards the best sequence: along it, for
 * each step, w[code(played)] += alpha and w[code(b)] -= alpha * p(b) for
 * every legal b (p under the policy as this adaptation left it so far; Rosin
 * takes p from the policy before the whole adaptation, which is the same
 * when no code repeats along the sequence). Codes: code=action uses the
 * action id; code=state hashes (state hash, action) into 2^16 codes, a move
 * that depends on where it is played. The search stops early after
 * `playouts` playouts (0 = no limit). The agent plans once and follows the
 * plan (agent_plan.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcts/agent_kind.h"
#include "mcts/agent_plan.h"

#define NRPA_STATE_CODES (1 << 16)

typedef struct nrpa {
    agent_nested_t nest; /* first: the plan, the budget, best and tmp per level */
    int iterations;
    double alpha;
    bool state_codes;
    int num_codes;
    double *policy; /* per level: num_codes weights */
    char *s;        /* playout / adaptation state */
    int *legal, *codes;
    double *prob;
} nrpa_t;

static int code_of(const nrpa_t *n, uint64_t hash, int action)
{
    if (!n->state_codes) return action;
    return (int)(rng_mix(hash ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(action + 1))) &
                 (NRPA_STATE_CODES - 1));
}

/* The policy's probabilities of the legal actions of `s` into n->prob; returns the count. */
static int policy_probs(const game_t *g, nrpa_t *n, const double *w, const void *s)
{
    int m = game_legal_actions(g, s, n->legal);
    uint64_t h = game_hash(g, s);
    double top = -INFINITY, z = 0;
    for (int i = 0; i < m; i++) {
        n->codes[i] = code_of(n, h, n->legal[i]);
        if (w[n->codes[i]] > top) top = w[n->codes[i]];
    }
    for (int i = 0; i < m; i++) z += n->prob[i] = exp(w[n->codes[i]] - top);
    for (int i = 0; i < m; i++) n->prob[i] /= z;
    return m;
}

static double playout(agent_t *a, nrpa_t *n, const double *w, const void *start, int *seq, int *len)
{
    const game_t *g = a->g;
    memcpy(n->s, start, g->state_size);
    int k = 0;
    while (!game_is_terminal(g, n->s)) {
        int m = policy_probs(g, n, w, n->s), i = 0;
        double u = rng_double(&a->rng);
        while (i < m - 1 && (u -= n->prob[i]) > 0) i++;
        seq[k++] = n->legal[i];
        game_apply(g, n->s, n->legal[i]);
    }
    *len = k;
    agent_nested_playout(&n->nest);
    return agent_plan_score(g, n->s);
}

static void adapt(agent_t *a, nrpa_t *n, double *w, const void *start, const int *seq, int len)
{
    const game_t *g = a->g;
    memcpy(n->s, start, g->state_size);
    for (int k = 0; k < len; k++) {
        int m = policy_probs(g, n, w, n->s);
        for (int i = 0; i < m; i++) {
            w[n->codes[i]] -= n->alpha * n->prob[i];
            if (n->legal[i] == seq[k]) w[n->codes[i]] += n->alpha;
        }
        game_apply(g, n->s, seq[k]);
    }
}

/* NRPA(level, w) from `start`: the best sequence into seq[0..*len) and its
 * return. Level 1 plays its playouts with its own w (no copy is needed, a
 * playout does not change w). */
static double nrpa(agent_t *a, nrpa_t *n, int level, double *w, const void *start, int *seq,
                   int *len)
{
    if (level == 0) return playout(a, n, w, start, seq, len);
    int *best = agent_nested_best(&n->nest, level), *tmp = agent_nested_tmp(&n->nest, level);
    double *below = n->policy + (size_t)(level - 1) * (size_t)n->num_codes;
    double best_score = -INFINITY;
    int best_len = 0;
    for (int it = 0; it < n->iterations && !n->nest.stopped; it++) {
        int tlen;
        double sc;
        if (level == 1) {
            sc = playout(a, n, w, start, tmp, &tlen);
        } else {
            memcpy(below, w, sizeof(double) * (size_t)n->num_codes);
            sc = nrpa(a, n, level - 1, below, start, tmp, &tlen);
        }
        if (sc >= best_score) {
            best_score = sc;
            memcpy(best, tmp, sizeof(int) * (size_t)tlen);
            best_len = tlen;
        }
        adapt(a, n, w, start, best, best_len);
    }
    memcpy(seq, best, sizeof(int) * (size_t)best_len);
    *len = best_len;
    return best_score;
}

static double nrpa_search(agent_t *a, const void *state, int *seq, int *len)
{
    nrpa_t *n = a->impl;
    agent_nested_start(&n->nest);
    double *w = n->policy + (size_t)n->nest.level * (size_t)n->num_codes;
    memset(w, 0, sizeof(double) * (size_t)n->num_codes);
    return nrpa(a, n, n->nest.level, w, state, seq, len);
}

static int nrpa_act(agent_t *a, const void *state, int *action)
{
    return agent_nested_act(a, state, action, nrpa_search);
}

static void nrpa_destroy(agent_t *a)
{
    nrpa_t *n = a->impl;
    if (n == NULL) return;
    agent_nested_done(&n->nest);
    free(n->policy);
    free(n->s);
    free(n->legal);
    free(n->codes);
    free(n->prob);
    free(n);
    a->impl = NULL;
}

static const agent_vt_t nrpa_vt = {.act = nrpa_act,
                                   .observe = agent_plan_vt_observe,
                                   .reset = agent_plan_vt_reset,
                                   .destroy = nrpa_destroy,
                                   .reseed = agent_plan_vt_reseed};

static int nrpa_create(agent_t *a)
{
    const game_t *g = a->g;
    nrpa_t *n = calloc(1, sizeof *n);
    if (n == NULL) return hoyle_error(HOYLE_ENOMEM, "nrpa: out of memory");
    a->impl = n;
    int status = agent_nested_init(&n->nest, a);
    n->iterations = (int)params_int(&a->params, "iterations");
    n->alpha = params_double(&a->params, "alpha");
    n->state_codes = params_choice(&a->params, "code") == 1;
    n->num_codes = n->state_codes ? NRPA_STATE_CODES : g->num_actions;
    size_t levels = (size_t)n->nest.level + 1;
    n->policy = malloc(sizeof(double) * levels * (size_t)n->num_codes);
    n->s = malloc(g->state_size);
    n->legal = malloc(sizeof(int) * (size_t)g->max_legal);
    n->codes = malloc(sizeof(int) * (size_t)g->max_legal);
    n->prob = malloc(sizeof(double) * (size_t)g->max_legal);
    if (status || !n->policy || !n->s || !n->legal || !n->codes || !n->prob) {
        nrpa_destroy(a);
        return hoyle_error(HOYLE_ENOMEM, "nrpa: out of memory");
    }
    a->vt = &nrpa_vt;
    return HOYLE_OK;
}

static const param_def_t nrpa_params[] = {
    {.key = "level",
     .type = PARAM_INT,
     .def = "2",
     .min = 1,
     .max = 5,
     .help = "nesting level (level L makes iterations^L playouts)"},
    {.key = "iterations",
     .type = PARAM_INT,
     .def = "100",
     .min = 1,
     .max = 100000,
     .help = "iterations per level (Rosin's N)"},
    {.key = "alpha",
     .type = PARAM_DOUBLE,
     .def = "1",
     .min = 0,
     .max = 100,
     .help = "adaptation step"},
    {.key = "code",
     .type = PARAM_CHOICE,
     .def = "action",
     .choices = "action|state",
     .help = "policy code of a move: the action id, or (state hash, action) hashed"},
    {.key = "playouts",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1e12,
     .help = "stop each search after this many playouts (0 = no limit)"},
    {.key = NULL},
};

const agent_kind_t agent_nrpa_kind = {
    .name = "nrpa",
    .description = "Nested Rollout Policy Adaptation (Rosin 2011), one-player games",
    .params = nrpa_params,
    .caps = AGENT_CAP_ONE_PLAYER | AGENT_CAP_SEEDED,
    .create = nrpa_create,
};
