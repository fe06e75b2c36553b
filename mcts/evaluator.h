/* evaluator.h — the one seam between tree search and leaf evaluation.
 *
 * An evaluator maps a *batch* of states to, per state, a value for every
 * player and a prior over the game's whole action space (OpenSpiel's
 * Evaluator, KataGo's NN seam; STYLE.md point 9). Search asks in batches so
 * that one call of an expensive evaluator (a network, in train/) serves many
 * leaves and, through a shared evaluator, many games. mcts/ never includes
 * anything from train/: a network evaluator is just another evaluator_t.
 *
 * Layouts (row-major, caller-owned buffers):
 *   states  n * g->state_size bytes, state i at states + i * g->state_size;
 *           every state is non-terminal and not a chance node;
 *   values  n * g->num_players doubles, values[i * num_players + p] in [-1, 1]
 *           is the expected return of player p from state i;
 *   priors  n * g->num_actions floats, or NULL when the caller does not want
 *           them. Entries for illegal actions are ignored; search
 *           renormalises over the legal ones. Evaluators without a policy
 *           (rollouts, heuristic) leave has_priors false and write uniform
 *           priors.
 *
 * Evaluators are not thread-safe: one owner calls them (an evaluator that
 * serves several threads does its own locking and batching). */
#ifndef HOYLE_MCTS_EVALUATOR_H
#define HOYLE_MCTS_EVALUATOR_H

#include <stdbool.h>
#include <stdint.h>

#include "games/game.h"

typedef struct evaluator evaluator_t;

typedef struct evaluator_vt {
    /* Evaluate `n` >= 1 states (layouts above). Returns 0 or a negative
     * status + message; on error the outputs are unspecified. */
    int (*evaluate)(evaluator_t *e, const void *states, int n, double *values, float *priors);
    /* Free the evaluator and what it owns. */
    void (*destroy)(evaluator_t *e);
    /* Optional: behave from now on exactly as if just created with `seed`
     * (random streams restarted, caches dropped). NULL: nothing to restart. */
    void (*reseed)(evaluator_t *e, uint64_t seed);
    /* Optional: a new evaluator that gives what `e` gives (same model, same
     * game) with its own buffers and, for a random one, the stream of `seed`,
     * for another thread to own (tree-parallel MCTS, params.threads). NULL:
     * the evaluator cannot be copied, and threads share it under a lock. */
    int (*clone)(const evaluator_t *e, uint64_t seed, evaluator_t **out);
} evaluator_vt_t;

struct evaluator {
    const evaluator_vt_t *vt;
    const game_t *g;      /* borrowed; must outlive the evaluator */
    const char *name;     /* "rollout", "heuristic", "fake", "net" */
    bool has_priors;      /* false: priors are uniform, search may skip them */
    int max_batch;        /* largest n evaluate() accepts (>= 1) */
    uint64_t evaluations; /* states evaluated so far (statistics) */
    uint64_t calls;       /* evaluate() calls so far */
    void *impl;           /* evaluator-private */
};

/* Evaluate (wrapper that keeps the statistics). */
int evaluator_evaluate(evaluator_t *e, const void *states, int n, double *values, float *priors);

/* x_free(NULL) is a no-op. */
void evaluator_free(evaluator_t *e);

/* Restart `e` as if created with `seed` (the vt's reseed slot; a no-op for
 * evaluators with no random stream and no cache). The statistics are kept. */
void evaluator_reseed(evaluator_t *e, uint64_t seed);

/* A copy of `e` for another thread (the vt's clone slot; *out freed with
 * evaluator_free). HOYLE_EUNSUP when the evaluator cannot be copied. */
int evaluator_clone(const evaluator_t *e, uint64_t seed, evaluator_t **out);

/* Random rollouts: `rollouts` uniformly random playouts to the end of the
 * game (chance outcomes sampled by their probabilities); the value is the
 * mean return. Seeded, deterministic. Priors uniform. */
int evaluator_rollout_create(const game_t *g, int rollouts, uint64_t seed, evaluator_t **out);

/* Heuristic: values[p] = game_evaluate(s, p). Priors uniform. */
int evaluator_heuristic_create(const game_t *g, evaluator_t **out);

/* A seeded fake network: values and priors are pseudo-random functions of
 * (seed, state hash), with a network's shapes and a softmax prior over all
 * actions, so batched search can be tested without libtorch. Two-player
 * values are zero-sum. `max_batch` bounds n. */
int evaluator_fake_create(const game_t *g, uint64_t seed, int max_batch, evaluator_t **out);

/* Create one of the above from a name: "rollout", "heuristic", "fake". */
int evaluator_create_named(const game_t *g, const char *name, int rollouts, uint64_t seed,
                           evaluator_t **out);

#endif
