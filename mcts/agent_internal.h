/* agent_internal.h — what agent kinds share (not public).
 * A kind is one agent_kind_t in agent_registry[] (agent.c): a name, a
 * parameter schema and a create function that fills a->vt and a->impl. */
#ifndef HOYLE_MCTS_AGENT_INTERNAL_H
#define HOYLE_MCTS_AGENT_INTERNAL_H

#include "core/rng.h"
#include "mcts/agent.h"
#include "mcts/mcts.h"

typedef struct agent_vt {
    int (*act)(agent_t *a, const void *state, int *action);
    void (*observe)(agent_t *a, const void *state_before, int action); /* may be NULL */
    void (*reset)(agent_t *a);                                         /* may be NULL */
    void (*destroy)(agent_t *a); /* frees a->impl; may be NULL */
    /* Restart as if created with a->seed (a->rng is already re-initialised):
     * for kinds whose only seeded state is a->rng. NULL = agent_reseed()
     * destroys and re-creates the kind's state. */
    int (*reseed)(agent_t *a);
} agent_vt_t;

struct agent {
    const agent_vt_t *vt;
    const struct agent_kind *kind;
    const game_t *g;
    char spec[GAME_SPEC_MAX];
    params_t params;
    uint64_t seed;
    rng_t rng;
    agent_info_t info;
    int *legal; /* max_legal scratch for kinds that want it */
    void *impl;
};

typedef struct agent_kind {
    const char *name;
    const char *description;
    const param_def_t *params;
    int human;                 /* reads the terminal */
    int (*create)(agent_t *a); /* a->g, params, seed, rng, legal are set */
} agent_kind_t;

/* The act step of every agent that plays by one MCTS search (mcts, az):
 * search from `state` with `m`, choose with `temperature` (mcts_choose) and
 * fill a->info from the result. Returns 0 or the search's status. */
int agent_search_act(agent_t *a, mcts_t *m, const void *state, double temperature, int *action);

/* The search keys the mcts and az agents share: AGENT_SEARCH_PARAM_DEFS in
 * their schemas (one fragment, so ranges and help agree), plus their own
 * "c", "c_base", "sims" and "batch" and MCTS_GUMBEL_PARAM_DEFS.
 * agent_search_params() reads all of these into `p` ("c" is both c_uct and
 * c_init); temp and temp_moves are the agent's own (agent_search_act). */
#define AGENT_SEARCH_PARAM_DEFS                                                                    \
    {.key = "vloss",                                                                               \
     .type = PARAM_DOUBLE,                                                                         \
     .def = "1",                                                                                   \
     .min = 0,                                                                                     \
     .max = 100,                                                                                   \
     .help = "virtual loss per in-flight visit"},                                                  \
        {.key = "noise_alpha",                                                                     \
         .type = PARAM_DOUBLE,                                                                     \
         .def = "0.3",                                                                             \
         .min = 0.001,                                                                             \
         .max = 100,                                                                               \
         .help = "root Dirichlet noise alpha"},                                                    \
        {.key = "noise_eps",                                                                       \
         .type = PARAM_DOUBLE,                                                                     \
         .def = "0",                                                                               \
         .min = 0,                                                                                 \
         .max = 1,                                                                                 \
         .help = "root Dirichlet noise weight (0 = off)"},                                         \
        {.key = "temp",                                                                            \
         .type = PARAM_DOUBLE,                                                                     \
         .def = "0",                                                                               \
         .min = 0,                                                                                 \
         .max = 100,                                                                               \
         .help = "move choice temperature (0 = most visits)"},                                     \
        {.key = "temp_moves",                                                                      \
         .type = PARAM_INT,                                                                        \
         .def = "0",                                                                               \
         .min = 0,                                                                                 \
         .max = 1e6,                                                                               \
         .help = "own moves chosen with temperature (0 = all)"},                                   \
    {                                                                                              \
        .key = "reuse", .type = PARAM_BOOL, .def = "true",                                         \
        .help = "keep the subtree of the played move"                                              \
    }
void agent_search_params(const params_t *pp, mcts_params_t *p);

extern const agent_kind_t agent_random_kind;
extern const agent_kind_t agent_greedy_kind;
extern const agent_kind_t agent_alphabeta_kind;
extern const agent_kind_t agent_expectimax_kind;
extern const agent_kind_t agent_mcts_kind;
extern const agent_kind_t agent_human_kind;
extern const agent_kind_t agent_gnubg_kind;

#endif
