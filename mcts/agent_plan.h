/* agent_plan.h — what the one-player search agents (nmcs, nrpa) share: the
 * plan (the best action sequence the last search found), which later acts
 * follow while the game stays on it, and the nested searches' shell (a
 * playout budget, per-level sequences, the act slot). That the game is a puzzle is their
 * kinds' capability (AGENT_CAP_ONE_PLAYER, checked by agent_create).
 *
 * One search from a position returns a whole sequence to the end; playing it
 * out move by move is what NMCS and NRPA do (Cazenave 2009, Rosin 2011). The
 * plan is followed while each state's hash is the one it expects, so an
 * observed action off the plan (a human's, an opening) makes the next act
 * search again. */
#ifndef HOYLE_MCTS_AGENT_PLAN_H
#define HOYLE_MCTS_AGENT_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "games/game.h"
#include "mcts/agent.h"

typedef struct agent_plan {
    int *actions;  /* max_game_length + 1 entries, owned */
    int len, pos;  /* actions[pos..len) are still to play */
    uint64_t hash; /* the hash of the state actions[pos] is meant for */
    double value;  /* the return the whole plan reaches */
} agent_plan_t;

int agent_plan_init(agent_plan_t *p, const game_t *g);
void agent_plan_done(agent_plan_t *p);
void agent_plan_clear(agent_plan_t *p);
/* Adopt actions[0..n) found from `state` with return `value`. */
void agent_plan_set(agent_plan_t *p, const game_t *g, const void *state, const int *actions, int n,
                    double value);
/* The plan's next action for `state`, when it has one for it. */
bool agent_plan_next(const agent_plan_t *p, const game_t *g, const void *state, int *action);
/* `action` was played in `state`: advance along the plan, or drop it. */
void agent_plan_observe(agent_plan_t *p, const game_t *g, const void *state, int action);

/* The return of player 0 (the one player) in a terminal state. */
double agent_plan_score(const game_t *g, const void *terminal);

/* a->info after an act: `kind`, the plan's value, `playouts` as sims, the
 * rest of the plan as the principal variation, `seconds`. */
void agent_plan_info(const agent_plan_t *p, agent_info_t *info, const char *kind,
                     long long playouts, double seconds);

/* agent_vt_t slots for kinds whose impl struct begins with its agent_plan_t. */
struct agent;
/* A kind's search from `state`: fills seq[0..*len) with a whole sequence and returns its
 * value (the return of the one player). */
typedef double (*agent_plan_search_fn)(struct agent *a, const void *state, int *seq, int *len);
/* The act of such a kind (nmcs, nrpa): the plan's next action while the game stays on it,
 * else a new plan from search() into seq (room for a whole game); none found is
 * HOYLE_ESTATE. a->info by agent_plan_info with *playouts and the seconds taken. */
int agent_plan_act(struct agent *a, const void *state, int *action, agent_plan_search_fn search,
                   int *seq, const long long *playouts);
void agent_plan_vt_observe(struct agent *a, const void *state_before, int action);
void agent_plan_vt_reset(struct agent *a);
int agent_plan_vt_reseed(struct agent *a);

/* ---- the shell of the nested searches (nmcs, nrpa) ---- */

/* What NMCS and NRPA keep besides their own tables; a kind's impl struct begins with it.
 * The search's budget: `playouts` playouts (0 = no limit), after which every level returns
 * the best it has. Per nesting level 0..level, max_len + 1 actions each: the level's best
 * sequence and what the level below returned (level 0's tmp is free at the top: act's seq). */
typedef struct agent_nested {
    agent_plan_t plan;      /* first: the agent_plan_vt_* slots read it */
    int level, max_len;     /* `level`; the longest game (g->max_game_length) */
    long long playouts_max; /* `playouts` (0 = no limit) */
    long long playouts;     /* this search's, so far */
    bool stopped;           /* the budget is spent */
    int *best, *tmp;        /* (level + 1) * (max_len + 1) actions each, owned */
} agent_nested_t;

/* Read `level` and `playouts` from a->params and allocate; HOYLE_ENOMEM with
 * "KIND: out of memory". agent_nested_done() in either case. */
int agent_nested_init(agent_nested_t *n, const struct agent *a);
void agent_nested_done(agent_nested_t *n);
/* Level L's best sequence and what the level below returned. */
int *agent_nested_best(agent_nested_t *n, int level);
int *agent_nested_tmp(agent_nested_t *n, int level);
/* A new search from the full budget; one playout more (which may spend it). */
void agent_nested_start(agent_nested_t *n);
void agent_nested_playout(agent_nested_t *n);
/* The act slot of a nested kind: agent_plan_act with level 0's tmp and its playouts. */
int agent_nested_act(struct agent *a, const void *state, int *action, agent_plan_search_fn search);

#endif
