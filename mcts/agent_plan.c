/* agent_plan.c — the plan of the one-player search agents and the shell of
 * the nested searches (agent_plan.h). Invariant: when pos < len, `hash` is the hash of
 * the state in which actions[pos] is to be played. */
#include "mcts/agent_plan.h"

#include "mcts/agent_kind.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

int agent_plan_init(agent_plan_t *p, const game_t *g)
{
    memset(p, 0, sizeof *p);
    p->actions = malloc(sizeof(int) * (size_t)(g->max_game_length + 1));
    if (p->actions == NULL) return hoyle_error(HOYLE_ENOMEM, "plan: out of memory");
    return HOYLE_OK;
}

void agent_plan_done(agent_plan_t *p)
{
    free(p->actions);
    p->actions = NULL;
}

void agent_plan_clear(agent_plan_t *p) { p->len = p->pos = 0; }

void agent_plan_set(agent_plan_t *p, const game_t *g, const void *state, const int *actions, int n,
                    double value)
{
    memcpy(p->actions, actions, sizeof(int) * (size_t)n);
    p->len = n, p->pos = 0;
    p->hash = game_hash(g, state);
    p->value = value;
}

bool agent_plan_next(const agent_plan_t *p, const game_t *g, const void *state, int *action)
{
    if (p->pos >= p->len || game_hash(g, state) != p->hash) return false;
    *action = p->actions[p->pos];
    return game_is_legal(g, state, *action);
}

void agent_plan_observe(agent_plan_t *p, const game_t *g, const void *state, int action)
{
    if (p->pos < p->len && game_hash(g, state) == p->hash && p->actions[p->pos] == action) {
        /* the hash of the next state: play the action on a copy */
        char buf[1024] __attribute__((aligned(GAME_STATE_ALIGN)));
        void *t = g->state_size <= sizeof buf ? buf : malloc(g->state_size);
        if (t == NULL) {
            agent_plan_clear(p);
            return;
        }
        memcpy(t, state, g->state_size);
        game_apply(g, t, action);
        p->hash = game_hash(g, t);
        p->pos++;
        if (t != buf) free(t);
    } else {
        agent_plan_clear(p);
    }
}

double agent_plan_score(const game_t *g, const void *terminal)
{
    double r[GAME_MAX_PLAYERS];
    game_returns(g, terminal, r);
    return r[0];
}

void agent_plan_info(const agent_plan_t *p, agent_info_t *info, const char *kind,
                     long long playouts, double seconds)
{
    memset(info, 0, sizeof *info);
    info->kind = kind;
    info->value = p->value;
    info->sims = playouts;
    for (int i = p->pos; i < p->len && info->pv_len < AGENT_PV_MAX; i++)
        info->pv[info->pv_len++] = p->actions[i];
    info->seconds = seconds;
}

int agent_plan_act(agent_t *a, const void *state, int *action, agent_plan_search_fn search,
                   int *seq, const long long *playouts)
{
    agent_plan_t *p = a->impl;
    double t0 = (double)clock() / CLOCKS_PER_SEC;
    if (!agent_plan_next(p, a->g, state, action)) {
        int len = 0;
        double score = search(a, state, seq, &len);
        if (len == 0) return hoyle_error(HOYLE_ESTATE, "%s: no legal action", a->kind->name);
        agent_plan_set(p, a->g, state, seq, len, score);
        *action = seq[0];
    }
    agent_plan_info(p, &a->info, a->kind->name, *playouts, (double)clock() / CLOCKS_PER_SEC - t0);
    return HOYLE_OK;
}

void agent_plan_vt_observe(agent_t *a, const void *state_before, int action)
{
    agent_plan_observe((agent_plan_t *)a->impl, a->g, state_before, action);
}

void agent_plan_vt_reset(agent_t *a) { agent_plan_clear((agent_plan_t *)a->impl); }

int agent_plan_vt_reseed(agent_t *a)
{
    agent_plan_vt_reset(a);
    return HOYLE_OK;
}

int agent_nested_init(agent_nested_t *n, const agent_t *a)
{
    const game_t *g = a->g;
    n->level = (int)params_int(&a->params, "level");
    n->playouts_max = params_int(&a->params, "playouts");
    n->max_len = g->max_game_length;
    size_t levels = (size_t)n->level + 1, stride = (size_t)n->max_len + 1;
    n->best = malloc(sizeof(int) * levels * stride);
    n->tmp = malloc(sizeof(int) * levels * stride);
    if (!n->best || !n->tmp || agent_plan_init(&n->plan, g))
        return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", a->kind->name);
    return HOYLE_OK;
}

void agent_nested_done(agent_nested_t *n)
{
    agent_plan_done(&n->plan);
    free(n->best);
    free(n->tmp);
    n->best = n->tmp = NULL;
}

int *agent_nested_best(agent_nested_t *n, int level)
{
    return n->best + (size_t)level * ((size_t)n->max_len + 1);
}

int *agent_nested_tmp(agent_nested_t *n, int level)
{
    return n->tmp + (size_t)level * ((size_t)n->max_len + 1);
}

void agent_nested_start(agent_nested_t *n)
{
    n->playouts = 0;
    n->stopped = false;
}

void agent_nested_playout(agent_nested_t *n)
{
    n->playouts++;
    if (n->playouts_max && n->playouts >= n->playouts_max) n->stopped = true;
}

int agent_nested_act(agent_t *a, const void *state, int *action, agent_plan_search_fn search)
{
    agent_nested_t *n = a->impl;
    return agent_plan_act(a, state, action, search, n->tmp, &n->playouts);
}
