/* agent_nmcs.c — Nested Monte-Carlo Search (Cazenave 2009, "Nested Monte-Carlo
 * Search", IJCAI), the `nmcs` agent for one-player games.
 *
 * nested(0, s) is one uniformly random playout from s. nested(L, s), L > 0:
 * from s, at every step try each legal action a, score it by nested(L - 1,
 * child), keep the best whole sequence seen so far (from s to the end), and
 * play the next action of that best sequence (not merely of this step's best
 * child: memorising the best sequence is what makes the score never drop).
 * Its result is the best sequence and its return. The search stops early
 * after `playouts` playouts (0 = no limit) and then follows its best
 * sequence. The agent plans once and follows the plan (agent_plan.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcts/agent_kind.h"
#include "mcts/agent_plan.h"

typedef struct nmcs {
    agent_nested_t nest; /* first: the plan, the budget, best and tmp per level */
    char *states;        /* per level: the current state and a child, 2 * (level + 1) states */
    int *legal;          /* per level: the legal actions of the current state */
} nmcs_t;

static char *state_at(const agent_t *a, nmcs_t *n, int level, int which)
{
    return n->states + (size_t)(2 * level + which) * a->g->state_size;
}

static double playout(agent_t *a, nmcs_t *n, const void *start, int *seq, int *len)
{
    const game_t *g = a->g;
    char *s = state_at(a, n, 0, 0);
    memcpy(s, start, g->state_size);
    int k = 0;
    while (!game_is_terminal(g, s)) {
        int m = game_legal_actions(g, s, n->legal);
        int action = n->legal[rng_below(&a->rng, (uint32_t)m)];
        seq[k++] = action;
        game_apply(g, s, action);
    }
    *len = k;
    agent_nested_playout(&n->nest);
    return agent_plan_score(g, s);
}

/* The best sequence from `start` into seq[0..*len), and its return. */
static double nested(agent_t *a, nmcs_t *n, int level, const void *start, int *seq, int *len)
{
    if (level == 0) return playout(a, n, start, seq, len);
    const game_t *g = a->g;
    int *best = agent_nested_best(&n->nest, level), *tmp = agent_nested_tmp(&n->nest, level);
    int *legal = n->legal + (size_t)level * (size_t)g->max_legal;
    char *cur = state_at(a, n, level, 0), *child = state_at(a, n, level, 1);
    memcpy(cur, start, g->state_size);
    double best_score = -INFINITY;
    int best_len = 0, played = 0;
    /* 1. each step: every action scored one level down, the best sequence kept */
    while (!game_is_terminal(g, cur) && !n->nest.stopped) {
        int m = game_legal_actions(g, cur, legal);
        for (int i = 0; i < m && !n->nest.stopped; i++) {
            memcpy(child, cur, g->state_size);
            game_apply(g, child, legal[i]);
            int tlen;
            double sc = nested(a, n, level - 1, child, tmp, &tlen);
            if (sc > best_score) {
                best_score = sc;
                best[played] = legal[i];
                memcpy(best + played + 1, tmp, sizeof(int) * (size_t)tlen);
                best_len = played + 1 + tlen;
            }
        }
        /* 2. play the best sequence's next action */
        if (best_len <= played) break;
        game_apply(g, cur, best[played++]);
    }
    /* 3. stopped early: the best sequence is complete; with none yet, a playout */
    if (best_len == 0 && !game_is_terminal(g, start)) return playout(a, n, start, seq, len);
    if (best_len == 0) best_score = agent_plan_score(g, start);
    memcpy(seq, best, sizeof(int) * (size_t)best_len);
    *len = best_len;
    return best_score;
}

static double nmcs_search(agent_t *a, const void *state, int *seq, int *len)
{
    nmcs_t *n = a->impl;
    agent_nested_start(&n->nest);
    return nested(a, n, n->nest.level, state, seq, len);
}

static int nmcs_act(agent_t *a, const void *state, int *action)
{
    return agent_nested_act(a, state, action, nmcs_search);
}

static void nmcs_destroy(agent_t *a)
{
    nmcs_t *n = a->impl;
    if (n == NULL) return;
    agent_nested_done(&n->nest);
    free(n->states);
    free(n->legal);
    free(n);
    a->impl = NULL;
}

static const agent_vt_t nmcs_vt = {.act = nmcs_act,
                                   .observe = agent_plan_vt_observe,
                                   .reset = agent_plan_vt_reset,
                                   .destroy = nmcs_destroy,
                                   .reseed = agent_plan_vt_reseed};

static int nmcs_create(agent_t *a)
{
    const game_t *g = a->g;
    nmcs_t *n = calloc(1, sizeof *n);
    if (n == NULL) return hoyle_error(HOYLE_ENOMEM, "nmcs: out of memory");
    a->impl = n;
    int status = agent_nested_init(&n->nest, a);
    size_t levels = (size_t)n->nest.level + 1;
    n->states = malloc(2 * levels * g->state_size);
    n->legal = malloc(sizeof(int) * levels * (size_t)g->max_legal);
    if (status || !n->states || !n->legal) {
        nmcs_destroy(a);
        return hoyle_error(HOYLE_ENOMEM, "nmcs: out of memory");
    }
    a->vt = &nmcs_vt;
    return HOYLE_OK;
}

static const param_def_t nmcs_params[] = {
    {.key = "level",
     .type = PARAM_INT,
     .def = "2",
     .min = 0,
     .max = 5,
     .help = "nesting level (0 = one random playout, 1 = a playout per action, ...)"},
    {.key = "playouts",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1e12,
     .help = "stop each search after this many playouts (0 = no limit)"},
    {.key = NULL},
};

const agent_kind_t agent_nmcs_kind = {
    .name = "nmcs",
    .description = "Nested Monte-Carlo Search (Cazenave 2009), one-player games",
    .params = nmcs_params,
    .caps = AGENT_CAP_ONE_PLAYER | AGENT_CAP_SEEDED,
    .create = nmcs_create,
};
