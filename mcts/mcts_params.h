/* mcts_params.h — search parameters as spec keys: the schema fragments that
 * every search schema is built from (the mcts and az agents in their agent
 * specs, self-play in `hoyle selfplay` and the training config), the one
 * binder from bound values to mcts_params_t, and the one tree-size formula.
 *
 * A schema lists the fragments where its keys go, so that canonical specs
 * keep their key order; the fragments whose default differs between kinds
 * take that default as an argument (mcts: c=1.4, batch 1; az: c=1.25,
 * batch 4, as self-play; self-play: c=1.25, batch 4, noise_alpha 0, noise_eps 0.25).
 * Keys whose meaning is a kind's own (sims, select, time_ms, solver, nodes,
 * the string or number spelling of fpu) are defined by the kind and read by
 * mcts_params_bind() when the schema has them.
 *
 * Adding a search knob: one line in MCTS_KNOBS (mcts/mcts.h) when its default
 * is the same everywhere, else one entry in a fragment below and one line in
 * mcts_params_bind(). */
#ifndef HOYLE_MCTS_MCTS_PARAMS_H
#define HOYLE_MCTS_MCTS_PARAMS_H

#include "core/spec.h"
#include "games/game.h"
#include "mcts/mcts.h"

/* c (UCT's c and PUCT's c_init) and c_base; C_DEF is the kind's default c. */
#define MCTS_PUCT_PARAM_DEFS(C_DEF)                                                                \
    {.key = "c",                                                                                   \
     .type = PARAM_DOUBLE,                                                                         \
     .def = C_DEF,                                                                                 \
     .min = 0,                                                                                     \
     .max = 100,                                                                                   \
     .help = "exploration: UCT c, or PUCT c_init"},                                                \
    {                                                                                              \
        .key = "c_base", .type = PARAM_DOUBLE, .def = "19652", .min = 1, .max = 1e9,               \
        .help = "PUCT c_base"                                                                      \
    }

/* fpu as the PUCT kinds (az, self-play) spell it: MCTS_FPU_PARENT with this
 * reduction. The mcts agent has its own string key (auto, inf, parent-R, a
 * value), parsed by mcts_params_bind() too. */
#define MCTS_FPU_PARENT_PARAM_DEF                                                                  \
    {                                                                                              \
        .key = "fpu", .type = PARAM_DOUBLE, .def = "0.2", .min = 0, .max = 2,                      \
        .help = "first-play urgency: parent Q minus this"                                          \
    }

/* batch, vloss, noise_alpha, noise_eps, with the kind's defaults for batch
 * and the root noise. noise_alpha 0 is self-play's "noise_scale / typical
 * legal moves"; a search with noise_eps > 0 needs noise_alpha > 0. */
#define MCTS_BATCH_PARAM_DEFS(BATCH_DEF, ALPHA_DEF, EPS_DEF)                                       \
    {.key = "batch",                                                                               \
     .type = PARAM_INT,                                                                            \
     .def = BATCH_DEF,                                                                             \
     .min = 1,                                                                                     \
     .max = 4096,                                                                                  \
     .help = "leaves per evaluator call (virtual loss)"},                                          \
        {.key = "vloss",                                                                           \
         .type = PARAM_DOUBLE,                                                                     \
         .def = "1",                                                                               \
         .min = 0,                                                                                 \
         .max = 100,                                                                               \
         .help = "virtual loss per in-flight visit"},                                              \
        {.key = "noise_alpha",                                                                     \
         .type = PARAM_DOUBLE,                                                                     \
         .def = ALPHA_DEF,                                                                         \
         .min = 0,                                                                                 \
         .max = 100,                                                                               \
         .help = "root Dirichlet noise alpha (0: self-play's noise_scale / typical legal)"},       \
    {                                                                                              \
        .key = "noise_eps", .type = PARAM_DOUBLE, .def = EPS_DEF, .min = 0, .max = 1,              \
        .help = "root Dirichlet noise weight (0 = off)"                                            \
    }

#define MCTS_REUSE_PARAM_DEF                                                                       \
    {                                                                                              \
        .key = "reuse", .type = PARAM_BOOL, .def = "true",                                         \
        .help = "keep the subtree of the played move"                                              \
    }

/* The MCTS_KNOBS entries, the last keys of every search schema. Each entry
 * ends with a comma: write `MCTS_PARAM_DEFS {.key = NULL}`. */
#define MCTS_KNOB_DEF_(ctype, name, ptype, dflt, lo, hi, text)                                     \
    {.key = #name, .type = ptype, .def = #dflt, .min = lo, .max = hi, .help = text},
#define MCTS_PARAM_DEFS MCTS_KNOBS(MCTS_KNOB_DEF_)

/* Read the search keys of `pp` into *p, which holds the kind's defaults for
 * what the schema lacks (mcts_params_default, then e.g. select = MCTS_PUCT).
 * Every key of the fragments above must be in the schema; of the kinds' own
 * keys, those present are read: sims (max_sims; 0 with time_ms 0 = 1000),
 * time_ms, select (uct|puct), solver, nodes (max_nodes; 0 = sized), memory_mb
 * (max_nodes from megabytes; with nodes too: HOYLE_EINVAL), threads, fpu
 * (PARAM_DOUBLE: parent minus the value; PARAM_STRING: auto, inf, parent,
 * parent-R or a value in [-1, 1]). Without `nodes`, max_nodes is 0: sized by
 * mcts_create() with mcts_nodes_for(). Returns 0, or HOYLE_EINVAL naming the
 * key with *p unchanged. */
int mcts_params_bind(const params_t *pp, mcts_params_t *p);

/* The tree size (nodes) for a search of `p` over `g`, for every tree that
 * is not given one (the mcts and az agents, self-play, bench): room for about
 * two searches' expansions, 2 * (max_sims + 16) * min(max_legal, 64) + 4096,
 * at most 2^22; 2^20 for a search limited by time only. Games with more
 * than 64 legal actions can fill it (a reported condition, arena_full). */
size_t mcts_nodes_for(const game_t *g, const mcts_params_t *p);

#endif
