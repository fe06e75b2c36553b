/* net_eval.h — the network evaluator: an evaluator_t (mcts/evaluator.h) over a
 * libtorch policy/value net (train/tch/tch.h). Built only with libtorch.
 *
 * One evaluate() call = one tch_forward() over the states the cache does not
 * already hold: the self-play driver pools the leaves of many trees and many
 * games into that call, so the net sees large batches.
 *
 * Per state s with player p to move:
 *   input   game_observe(s, p)              the observation from p's view
 *   prior   softmax of the logits over the legal actions of s (0 elsewhere)
 *   value   the net has num_values = 1: v = the expected return of p; the
 *           evaluator writes values[p] = v and, in two-player (zero-sum)
 *           games, values[1 - p] = -v; in one-player games values[0] = v.
 * Cache (optional): a direct-mapped table of `cache_entries` (rounded up to a
 * power of two) keyed by the full 64-bit state hash, storing value and priors;
 * net_evaluator_clear_cache() after the weights change.
 * Threads: one evaluator per thread (its buffers and cache are its own); several may
 * share one net (tch_forward is thread-safe, train/tch/tch.h). */
#ifndef HOYLE_TRAIN_NET_EVAL_H
#define HOYLE_TRAIN_NET_EVAL_H

#include <stdint.h>

#include "mcts/evaluator.h"
#include "train/tch/tch.h"

/* Create an evaluator over `net` (borrowed: it must outlive the evaluator;
 * the evaluator never trains or frees it). The net's shapes must match g:
 * in_channels/height/width = g->obs_shape, num_actions = g->num_actions,
 * num_values = 1 (HOYLE_EINVAL otherwise). max_batch >= 1; cache_entries 0 =
 * no cache. */
int net_evaluator_create(const game_t *g, tch_net_t *net, int max_batch, int cache_entries,
                         evaluator_t **out);

/* Forget every cached entry (after training changed the net). */
void net_evaluator_clear_cache(evaluator_t *e);

/* Cache hits so far (0 without a cache). */
uint64_t net_evaluator_cache_hits(const evaluator_t *e);

/* Forward passes so far; *positions (may be NULL) gets the positions they held (mean
 * forward batch = positions / forwards: the cache's hits are not forwarded). */
uint64_t net_evaluator_forwards(const evaluator_t *e, uint64_t *positions);

/* Forward calls so far by batch size: counts[b] for b = 0..*max_batch (counts[0] is 0: a call
 * with every state cached forwards nothing). Owned by the evaluator. */
const uint64_t *net_evaluator_batch_sizes(const evaluator_t *e, int *max_batch);

/* The raw forward that self-play's evaluations are measured against (docs/training.md,
 * "Throughput"): the forward calls recorded so far, the same batch sizes in a random order
 * (seeded), through the same net, with nothing around them, passes over the whole list until
 * at least `min_seconds` have passed. *positions gets the positions forwarded, *seconds the
 * wall time. HOYLE_EINVAL when nothing was recorded. */
int net_evaluator_replay(evaluator_t *e, double min_seconds, uint64_t seed, uint64_t *positions,
                         double *seconds);

/* The same for the calls counted in sizes[b], b = 1..max_batch (one round's calls: the
 * difference of two net_evaluator_batch_sizes copies). With min_seconds 0, one pass: the
 * same calls and positions as those counted. */
int net_evaluator_replay_sizes(evaluator_t *e, const uint64_t *sizes, double min_seconds,
                               uint64_t seed, uint64_t *positions, double *seconds);

/* HOYLE_OK when a net of config `c` fits game g (shapes above). */
int net_config_check(const game_t *g, const tch_net_config_t *c);

#endif
