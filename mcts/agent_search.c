/* agent_search.c — the body of every agent that plays by one MCTS search per
 * move (agent_kind.h: agent_search_create): the mcts kind with its own
 * evaluators and the az kind with a network are this body over different
 * evaluators. The tree follows the game through agent_observe (tree reuse),
 * and the first temp_moves own moves are chosen with temperature. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcts/agent_kind.h"

typedef struct search_agent {
    mcts_t *m;
    evaluator_t *eval;            /* owned */
    void (*release)(void *owner); /* frees `owner` after eval (may be NULL) */
    void *owner;                  /* what eval uses: the az agent's network */
    uint64_t tree_salt;           /* the tree's seed is rng_mix(a->seed ^ tree_salt) */
    uint64_t eval_salt;           /* the evaluator's, rng_mix(a->seed ^ eval_salt) */
    double temp;                  /* move-choice temperature */
    int temp_moves;               /* own moves played with temperature (0 = all) */
    int moves;                    /* own moves since reset */
    long long spec_sims;          /* the spec's simulation and time limits (agent_set_limits) */
    double spec_time_ms;
    bool cap_reported; /* the node-cap line has been printed (once per agent) */
} search_agent_t;

static int search_act(agent_t *a, const void *state, int *action)
{
    search_agent_t *sa = a->impl;
    /* temp_moves = 0 means every move is sampled; otherwise only the first
     * temp_moves own moves (the AlphaZero opening schedule), then greedy. */
    double temp = sa->temp_moves == 0 || sa->moves < sa->temp_moves ? sa->temp : 0.0;
    const mcts_result_t *r;
    int status = mcts_search(sa->m, state, &r);
    if (!status) status = mcts_choose(sa->m, temp, action);
    if (status) return status;
    sa->moves++;
    agent_info_t *info = &a->info;
    info->num_moves = r->num_children;
    info->actions = r->actions;
    info->visits = r->visits;
    info->q = r->q;
    info->priors = r->priors;
    info->move_proven = r->proven;
    /* The value is for the player to move at the root; a proven root reports
     * its exact value rather than the mean. */
    info->value = r->root_proven ? r->proven_value[r->player] : r->value[r->player];
    info->proven = r->root_proven;
    info->pv_len = r->pv_len < AGENT_PV_MAX ? r->pv_len : AGENT_PV_MAX;
    memcpy(info->pv, r->pv, sizeof(int) * (size_t)info->pv_len);
    info->sims = r->sims;
    info->root_visits = r->root_visits;
    info->nodes = r->nodes_used;
    info->seconds = r->seconds;
    info->arena_full = r->arena_full;
    info->node_cap = r->max_nodes;
    info->threads = r->threads;
    /* Reaching the cap changes how the search works (leaves are re-evaluated
     * instead of expanded), so it is said once per agent, not silently. */
    if (r->arena_full && !sa->cap_reported) {
        sa->cap_reported = true;
        fprintf(stderr,
                "%s: the tree reached its cap of %zu nodes' worth (%.1f MB of nodes and edges); "
                "it stops growing and "
                "refines the tree it has (raise nodes= or memory_mb=)\n",
                a->kind->name, r->max_nodes, (double)r->max_nodes * mcts_node_bytes() / 1048576.0);
    }
    return HOYLE_OK;
}

/* Every move of the game, ours and the opponent's, moves the root, so the
 * next search starts from the subtree the last one already grew. */
static void search_observe(agent_t *a, const void *state_before, int action)
{
    search_agent_t *sa = a->impl;
    mcts_advance(sa->m, state_before, action);
}

static void search_reset(agent_t *a)
{
    search_agent_t *sa = a->impl;
    mcts_clear(sa->m);
    sa->moves = 0;
}

/* A new game with a->seed already set (agent_reseed): the same tree and
 * evaluator, restarted as agent_search_create would have made them. */
static int search_reseed(agent_t *a)
{
    search_agent_t *sa = a->impl;
    mcts_reseed(sa->m, rng_mix(a->seed ^ sa->tree_salt));
    evaluator_reseed(sa->eval, rng_mix(a->seed ^ sa->eval_salt));
    sa->moves = 0;
    return HOYLE_OK;
}

/* Frees what sa holds, in dependency order: tree, evaluator, then owner. */
static void search_free(search_agent_t *sa)
{
    mcts_free(sa->m);
    evaluator_free(sa->eval);
    if (sa->release) sa->release(sa->owner);
    free(sa);
}

static void search_destroy(agent_t *a)
{
    if (a->impl) search_free(a->impl);
    a->impl = NULL;
}

/* agent_set_limits: nodes are simulations; MCTS has no depth. */
static int search_limits(agent_t *a, const agent_limits_t *l)
{
    search_agent_t *sa = a->impl;
    if (l == NULL) return mcts_set_limits(sa->m, sa->spec_sims, sa->spec_time_ms, NULL);
    return mcts_set_limits(sa->m, l->nodes, l->time_ms, l->stop);
}

static size_t search_memory_bytes(const agent_t *a)
{
    const search_agent_t *sa = a->impl;
    return sizeof *sa + mcts_memory_bytes(sa->m);
}

static const agent_vt_t search_vt = {.act = search_act,
                                     .memory_bytes = search_memory_bytes,
                                     .observe = search_observe,
                                     .reset = search_reset,
                                     .reseed = search_reseed,
                                     .destroy = search_destroy,
                                     .limits = search_limits};

/* Contract: takes ownership of eval and owner even on failure, so a
 * kind's create never frees them itself after calling this. */
bool agent_search_seeded(const agent_t *a, bool eval_draws)
{
    const params_t *p = &a->params;
    bool puct = !params_has(p, "select") || params_choice(p, "select") == 1;
    return eval_draws || a->g->max_chance_outcomes > 0 ||
           (puct && params_double(p, "noise_eps") > 0) || params_double(p, "temp") > 0 ||
           (params_has(p, "gumbel") && params_bool(p, "gumbel")) ||
           (params_has(p, "threads") && params_int(p, "threads") > 1);
}

int agent_search_create(agent_t *a, const mcts_params_t *p, evaluator_t *eval, uint64_t tree_salt,
                        uint64_t eval_salt, void (*release)(void *owner), void *owner)
{
    search_agent_t *sa = calloc(1, sizeof *sa);
    if (sa == NULL) {
        evaluator_free(eval);
        if (release) release(owner);
        return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", a->kind->name);
    }
    *sa = (search_agent_t){.eval = eval,
                           .release = release,
                           .owner = owner,
                           .tree_salt = tree_salt,
                           .eval_salt = eval_salt,
                           .temp = params_double(&a->params, "temp"),
                           .temp_moves = (int)params_int(&a->params, "temp_moves"),
                           .spec_sims = p->max_sims,
                           .spec_time_ms = p->time_limit_ms};
    mcts_params_t seeded = *p;
    /* Salted and mixed: the tree's stream (noise, sampling, Gumbel) and the
     * evaluator's (rollouts) come from one agent seed yet never coincide. */
    seeded.seed = rng_mix(a->seed ^ tree_salt);
    int status = mcts_create(a->g, &seeded, eval, &sa->m);
    if (status) {
        search_free(sa);
        return status;
    }
    a->impl = sa;
    a->vt = &search_vt;
    return HOYLE_OK;
}
