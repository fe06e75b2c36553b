/* tdnet.h — the small value net of TD(λ) (train/td.h): one hidden layer of
 * sigmoid units over an input vector, a sigmoid per outcome head
 * (game_outcome_heads_t, games/game.h), in plain C (no libtorch: a forward
 * pass over every afterstate of a move and one update a move are far below
 * the cost of a libtorch call).
 *
 *   h = sigmoid(b1 + x W1)          W1: inputs x hidden, input-major, so that
 *   y = sigmoid(b2 + W2 h)          a zero input costs nothing (the board
 *                                   planes are mostly zeros)
 *
 * Eligibility traces (tdnet_trace_t) hold one gradient per head over every
 * parameter; the view of the heads (whose outcome they describe) can be
 * switched in O(heads) (tdnet_trace_flip) when the next afterstate belongs to
 * the other player.
 *
 * Files (docs/formats.md, "TD nets"): a text header (magic, game spec,
 * feature set with its size and signature, hidden width, heads, parameter
 * count, checksum) and the parameters as little-endian float32. A file for
 * another game, feature set or shape, or with a wrong checksum, is refused
 * with a one-line error. Whoever creates a net frees it (tdnet_free). */
#ifndef HOYLE_TRAIN_TDNET_H
#define HOYLE_TRAIN_TDNET_H

#include <stddef.h>
#include <stdint.h>

#include "core/rng.h"
#include "games/game.h"

#define TDNET_FEATURES_MAX 32

typedef struct tdnet {
    int inputs, hidden, heads;
    size_t num_params;                 /* inputs*hidden + hidden + heads*hidden + heads */
    float *params;                     /* W1 | b1 | W2 (heads x hidden, head-major) | b2 */
    float *w1, *b1, *w2, *b2;          /* views into params */
    char game[GAME_SPEC_MAX];          /* the canonical spec of the game it is for */
    char features[TDNET_FEATURES_MAX]; /* the feature set's name (train/td.h) */
    uint64_t signature;                /* of the feature set on fixed positions */
} tdnet_t;

/* A net with weights uniform in [-init, init] from `rng` (biases 0). */
int tdnet_create(int inputs, int hidden, int heads, double init, rng_t *rng, tdnet_t **out);
void tdnet_free(tdnet_t *n);
/* dst := src (same shape; metadata included). */
void tdnet_copy(tdnet_t *dst, const tdnet_t *src);

/* Forward pass: hidden activations into h[hidden] and heads into y[heads]. */
void tdnet_forward(const tdnet_t *n, const float *x, float *h, float *y);

/* Traces: per head, a gradient over every parameter; head k's trace is
 * sign[k] * block[slot[k]]. */
typedef struct tdnet_trace {
    int heads;
    size_t num_params;
    float *blocks; /* heads x num_params */
    int slot[GAME_MAX_HEADS];
    float sign[GAME_MAX_HEADS];
} tdnet_trace_t;

int tdnet_trace_init(tdnet_trace_t *t, const tdnet_t *n);
void tdnet_trace_done(tdnet_trace_t *t);
void tdnet_trace_clear(tdnet_trace_t *t);
/* Switch the traces to the other player's view of the heads (h->other,
 * h->complement): head k's trace becomes (complement ? -1 : 1) times the
 * trace of head other[k]. */
void tdnet_trace_flip(tdnet_trace_t *t, const game_outcome_heads_t *h);
/* Add the gradient of every head y_k at input x (h, y from tdnet_forward) to
 * the traces. */
void tdnet_trace_add(tdnet_trace_t *t, const tdnet_t *n, const float *x, const float *h,
                     const float *y);
/* The TD step: params += alpha * sum_k delta[k] * trace_k, then every trace
 * *= lambda (one pass over the parameters). */
void tdnet_td_step(tdnet_t *n, tdnet_trace_t *t, double alpha, const float *delta, double lambda);

/* Write the net to `path` atomically (PATH.tmp, fsync, rename). */
int tdnet_save(const tdnet_t *n, const char *path);
/* Read a net file. With g not NULL, the file must be for g's canonical spec
 * (HOYLE_EINVAL naming both otherwise). *out: a new net. */
int tdnet_load(const char *path, const game_t *g, tdnet_t **out);

#endif
