/* agent_oracle.c — the `oracle` agent (agent_oracle.h): every whole move of
 * the position valued by the tables (retro_probe_move), one of the best
 * played, its first action returned; mid-chain (checkers) the same from the
 * chain's state, so the agent finishes the move it began. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mcts/agent_kind.h"
#include "solve/agent_oracle.h"
#include "solve/retro.h"

#define ORACLE_MAX_MOVES 512

typedef struct oracle {
    retro_tables_t *tables;
    int first[ORACLE_MAX_MOVES]; /* first action of each whole move */
    retro_code_t code[ORACLE_MAX_MOVES];
    double q[ORACLE_MAX_MOVES];
    int n, status;
    const void *before;
} oracle_t;

static int visit(const int *actions, int n, const void *after, void *ctx)
{
    oracle_t *o = ctx;
    if (n < 1 || o->n == ORACLE_MAX_MOVES) return 0;
    int rc = retro_probe_move(o->tables, o->before, after, &o->code[o->n]);
    if (rc < 0) return o->status = rc;
    o->first[o->n++] = actions[0];
    return 0;
}

static int oracle_act(agent_t *a, const void *state, int *action)
{
    oracle_t *o = a->impl;
    o->n = 0, o->status = 0, o->before = state;
    game_whole_moves(a->g, state, visit, o);
    if (o->status < 0) return hoyle_error_prefix(o->status, "oracle");
    if (o->n == 0) return hoyle_error(HOYLE_ESTATE, "oracle: no legal move");
    int best = 0, ties = 0;
    for (int i = 1; i < o->n; i++)
        if (retro_code_cmp(o->code[i], o->code[best]) > 0) best = i;
    for (int i = 0; i < o->n; i++) /* uniform among the best (reservoir) */
        if (retro_code_cmp(o->code[i], o->code[best]) == 0 &&
            rng_below(&a->rng, (uint32_t)++ties) == 0)
            *action = o->first[i];
    for (int i = 0; i < o->n; i++) o->q[i] = retro_sign(o->code[i]);
    memset(&a->info, 0, sizeof a->info);
    a->info.kind = "oracle";
    a->info.num_moves = o->n;
    a->info.actions = o->first;
    a->info.q = o->q;
    a->info.value = retro_sign(o->code[best]);
    a->info.proven = 1;
    return 0;
}

static void oracle_destroy(agent_t *a)
{
    oracle_t *o = a->impl;
    if (o == NULL) return;
    retro_tables_close(o->tables);
    free(o);
}

static const agent_vt_t oracle_vt = {.act = oracle_act, .destroy = oracle_destroy};

static int oracle_create(agent_t *a)
{
    const char *dir = params_str(&a->params, "tb");
    if (dir[0] == '\0') return hoyle_error(HOYLE_EINVAL, "oracle: tb=DIR (the tables) is required");
    oracle_t *o = calloc(1, sizeof *o);
    if (o == NULL) return hoyle_error(HOYLE_ENOMEM, "oracle: out of memory");
    int rc = retro_tables_open(a->g, dir, &o->tables);
    if (rc < 0) {
        free(o);
        return hoyle_error_prefix(rc, "oracle");
    }
    a->impl = o;
    a->vt = &oracle_vt;
    return 0;
}

static const param_def_t oracle_params[] = {
    {.key = "tb",
     .type = PARAM_STRING,
     .def = "",
     .help = "the folder of endgame tables (hoyle tablebase)"},
    {.key = NULL},
};

const agent_kind_t agent_oracle_kind = {
    .name = "oracle",
    .description = "perfect play from endgame tables (refuses outside them)",
    .params = oracle_params,
    .caps = AGENT_CAP_TWO_PLAYER,
    .create = oracle_create,
};

int solve_agents_register(void)
{
    static int done;
    if (done) return 0;
    retro_tb_register(); /* alphabeta(tb=DIR), mcts(tb=DIR) */
    int rc = agent_register_kind(&agent_oracle_kind);
    if (rc == 0) rc = agent_register_kind(&agent_pns_kind);
    if (rc == 0) done = 1;
    return rc;
}
