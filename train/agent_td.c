/* agent_td.c — the `td` agent (agent_td.h): a TD net's choice of whole move,
 * 0-ply or with an expectimax look-ahead over chance and replies. The move
 * chosen is kept as a plan (mcts/agent_plan.h) and played action by action. */
#include "train/agent_td.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/models.h"
#include "mcts/agent_kind.h"
#include "mcts/agent_plan.h"
#include "train/td.h"

typedef struct agent_td {
    agent_plan_t plan; /* first: the agent_plan_vt_* slots read it */
    tdnet_t *net;
    td_scratch_t t;
    int plies, candidates;
    long long evals;
} agent_td_t;

/* One afterstate of a level: its state, its move and its 0-ply equity for the mover. */
typedef struct cand {
    char *state;
    int *actions, n;
    double value;
} cand_t;

typedef struct collect_ctx {
    agent_td_t *A;
    int owner;
    cand_t *c;
    int n, cap;
    bool keep_actions;
    int status;
} collect_ctx_t;

static int collect_visit(const int *actions, int n, const void *after, void *arg)
{
    collect_ctx_t *c = arg;
    const game_t *g = c->A->t.g;
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 64;
        cand_t *grown = realloc(c->c, sizeof *grown * (size_t)cap);
        if (grown == NULL) return c->status = hoyle_error(HOYLE_ENOMEM, "td: out of memory");
        c->c = grown;
        c->cap = cap;
    }
    cand_t *k = &c->c[c->n];
    k->state = malloc(g->state_size);
    k->actions = c->keep_actions ? malloc(sizeof(int) * (size_t)(n > 0 ? n : 1)) : NULL;
    if (k->state == NULL || (c->keep_actions && k->actions == NULL)) {
        free(k->state);
        free(k->actions);
        return c->status = hoyle_error(HOYLE_ENOMEM, "td: out of memory");
    }
    c->n++;
    memcpy(k->state, after, g->state_size);
    if (k->actions) memcpy(k->actions, actions, sizeof(int) * (size_t)n);
    k->n = n;
    float y[GAME_MAX_HEADS];
    td_value(&c->A->t, after, c->owner, y);
    c->A->evals++;
    k->value = td_equity(&c->A->t.heads, y);
    return 0;
}

static void cands_free(collect_ctx_t *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->c[i].state);
        free(c->c[i].actions);
    }
    free(c->c);
}

static int by_value_desc(const void *x, const void *y)
{
    double a = ((const cand_t *)x)->value, b = ((const cand_t *)y)->value;
    return a < b ? 1 : a > b ? -1 : 0;
}

/* The whole moves of the player to move in `s` with their 0-ply values, best first. */
static int collect(agent_td_t *A, const void *s, bool keep_actions, collect_ctx_t *c)
{
    *c = (collect_ctx_t){.A = A, .owner = game_current_player(A->t.g, s)};
    c->keep_actions = keep_actions;
    int n = game_whole_moves(A->t.g, s, collect_visit, c);
    if (c->status) return c->status;
    if (n < 0) return n;
    /* stable order for equal values: qsort is not stable, so ties keep enumeration order
     * only by luck; values tie rarely and any best move is right */
    qsort(c->c, (size_t)c->n, sizeof *c->c, by_value_desc);
    return HOYLE_OK;
}

static int lookahead(agent_td_t *A, const void *a, int owner, int plies, double *value);

/* The value for `owner` of decision state `s` (player q to move): q's best move searched
 * plies - 1 further, the `candidates` best of them at 0-ply when plies > 1. */
static int best_reply(agent_td_t *A, const void *s, int owner, int plies, double *value)
{
    const game_t *g = A->t.g;
    int q = game_current_player(g, s);
    collect_ctx_t c;
    int status = collect(A, s, false, &c);
    double best = -1e300;
    int take = plies > 1 && c.n > A->candidates ? A->candidates : c.n;
    for (int i = 0; i < take && !status; i++) {
        double v = c.c[i].value;
        if (plies > 1) status = lookahead(A, c.c[i].state, q, plies - 1, &v);
        if (v > best) best = v;
    }
    cands_free(&c);
    if (status) return status;
    if (take == 0) return hoyle_error(HOYLE_ESTATE, "td: no legal move");
    *value = q == owner ? best : -best; /* zero-sum: the other player's return, negated */
    return HOYLE_OK;
}

/* The value for `owner` of afterstate `a` searched `plies` deep: chance nodes by their
 * expectation, each decision by the best reply. */
static int lookahead(agent_td_t *A, const void *a, int owner, int plies, double *value)
{
    const game_t *g = A->t.g;
    if (plies == 0 || game_is_terminal(g, a)) {
        float y[GAME_MAX_HEADS];
        td_value(&A->t, a, owner, y);
        A->evals++;
        *value = td_equity(&A->t.heads, y);
        return HOYLE_OK;
    }
    if (!game_is_chance(g, a)) return best_reply(A, a, owner, plies, value);
    int m = g->max_chance_outcomes;
    int *actions = malloc(sizeof(int) * (size_t)m);
    double *probs = malloc(sizeof(double) * (size_t)m);
    char *next = malloc(g->state_size);
    int status = actions && probs && next ? HOYLE_OK : hoyle_error(HOYLE_ENOMEM, "td: no memory");
    int n = status ? 0 : game_chance_outcomes(g, a, actions, probs);
    double sum = 0, mass = 0;
    for (int i = 0; i < n && !status; i++) {
        memcpy(next, a, g->state_size);
        game_apply(g, next, actions[i]);
        double v;
        status = lookahead(A, next, owner, plies, &v); /* a roll is no ply */
        sum += probs[i] * v;
        mass += probs[i];
    }
    free(actions);
    free(probs);
    free(next);
    if (!status) *value = mass > 0 ? sum / mass : 0;
    return status;
}

static int td_act(agent_t *a, const void *state, int *action)
{
    agent_td_t *A = a->impl;
    double t0 = clock_seconds();
    if (agent_plan_next(&A->plan, a->g, state, action)) return HOYLE_OK;
    A->evals = 0;
    collect_ctx_t c;
    int status = collect(A, state, true, &c);
    int owner = game_current_player(a->g, state);
    int take = A->plies > 0 && c.n > A->candidates ? A->candidates : c.n;
    for (int i = 0; i < take && !status && A->plies > 0; i++)
        status = lookahead(A, c.c[i].state, owner, A->plies, &c.c[i].value);
    int best = -1;
    for (int i = 0; i < take && !status; i++)
        if (best < 0 || c.c[i].value > c.c[best].value) best = i;
    if (!status && best < 0) status = hoyle_error(HOYLE_ESTATE, "td: no legal move");
    if (!status) {
        agent_plan_set(&A->plan, a->g, state, c.c[best].actions, c.c[best].n, c.c[best].value);
        status = agent_plan_next(&A->plan, a->g, state, action)
                     ? HOYLE_OK
                     : hoyle_error(HOYLE_ESTATE, "td: the chosen move is empty");
    }
    if (!status) {
        agent_plan_info(&A->plan, &a->info, "td", A->evals, clock_seconds() - t0);
        a->info.value = c.c[best].value;
    }
    cands_free(&c);
    return status;
}

static void td_destroy(agent_t *a)
{
    agent_td_t *A = a->impl;
    if (A == NULL) return;
    agent_plan_done(&A->plan);
    td_scratch_done(&A->t);
    tdnet_free(A->net);
    free(A);
    a->impl = NULL;
}

static int td_create(agent_t *a)
{
    const params_t *pp = &a->params;
    char path[1024];
    if (a->g->num_players != 2)
        return hoyle_error(HOYLE_EINVAL, "td: %s has %d players; td plays two-player games",
                           a->g->spec, a->g->num_players);
    int status = model_find(params_str(pp, "model"), "td", "td", path, sizeof path);
    if (status) return status;
    agent_td_t *A = calloc(1, sizeof *A);
    if (A == NULL) return hoyle_error(HOYLE_ENOMEM, "td: out of memory");
    A->plies = (int)params_int(pp, "plies");
    A->candidates = (int)params_int(pp, "candidates");
    status = tdnet_load(path, a->g, &A->net);
    if (!status) status = td_net_check(a->g, A->net, path);
    if (!status) status = td_scratch_init(&A->t, a->g, A->net);
    if (!status) status = agent_plan_init(&A->plan, a->g);
    a->impl = A;
    if (status) td_destroy(a);
    return status;
}

static const agent_vt_t td_vt = {
    .act = td_act,
    .observe = agent_plan_vt_observe,
    .reset = agent_plan_vt_reset,
    .destroy = td_destroy,
    .reseed = agent_plan_vt_reseed,
};

static int td_create_vt(agent_t *a)
{
    a->vt = &td_vt;
    int status = td_create(a);
    if (status) a->vt = NULL;
    return status;
}

static const param_def_t td_params[] = {
    {.key = "model",
     .type = PARAM_STRING,
     .def = "",
     .help = "TD net file (hoyle train's net-NNNNNN.td), or a shipped model's name"},
    {.key = "plies",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 3,
     .help = "look-ahead: 0 = the net's best afterstate; n = chance and replies n deep"},
    {.key = "candidates",
     .type = PARAM_INT,
     .def = "8",
     .min = 1,
     .max = 1000,
     .help = "with plies > 0: moves searched deeper at each level (best at 0-ply)"},
    {.key = NULL},
};

static const agent_kind_t agent_td_kind = {
    .name = "td",
    .description = "a TD(lambda)-trained value net choosing whole moves, optional look-ahead",
    .params = td_params,
    .caps = AGENT_CAP_CHANCE | AGENT_CAP_TWO_PLAYER | AGENT_CAP_MODEL,
    .model_key = "model",
    .model_ext = "td",
    .create = td_create_vt,
};

int td_register_agents(void) { return agent_register_kind(&agent_td_kind); }
