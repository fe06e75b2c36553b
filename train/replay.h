/* replay.h — the replay buffer: the newest self-play samples, read from shard
 * files (train/samples.h), drawn uniformly at random for training.
 *
 * Window. Shards are added oldest to newest. With window_samples = W > 0 the
 * buffer draws from the newest W samples (whole shards are dropped once the
 * newer ones hold W); with window_games = G > 0 it keeps the newest shards
 * that hold at least G games. Both may be set (the tighter one wins).
 *
 * Growing window (replay_set_growing; KataGo's shape, Wu 2019): after N samples
 * were added in all, the sample window is
 *     W(N) = N                                               for N <= N0,
 *     W(N) = N0 (1 + beta ((N / N0)^alpha - 1) / alpha)      beyond,
 * capped at window_samples when that is > 0: early nets, whose samples are
 * poor, leave the window quickly, and late in a run it keeps more history.
 * KataGo uses N0 = 250000, alpha = 0.75, beta = 0.4.
 *
 * Augmentation. With augment on, each drawn sample is seen through a symmetry
 * chosen uniformly from the game's list (g->symmetries): observation planes
 * mapped with sym_planes(), policy and legal mask permuted with the game's
 * symmetry_action(). This needs a square board (H == W) and a game whose
 * observe() commutes with its symmetries (Go-Bang documents it).
 *
 * Deterministic: same shards, same rng state → same batches. */
#ifndef HOYLE_TRAIN_REPLAY_H
#define HOYLE_TRAIN_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h"
#include "games/game.h"
#include "train/samples.h"

#define REPLAY_MAX_SHARDS 100000

typedef struct replay {
    const game_t *g;        /* borrowed */
    sample_set_t set;       /* the loaded shards, oldest first */
    int64_t window_samples; /* 0 = no limit */
    int64_t window_games;   /* 0 = no limit */
    int num_shards;         /* loaded shards */
    int64_t *shard_n;       /* [REPLAY_MAX_SHARDS] samples per loaded shard */
    int64_t *shard_games;   /* [REPLAY_MAX_SHARDS] games per loaded shard */
    int64_t total;          /* samples added in all (the growing window's N) */
    int64_t grow_min;       /* growing window: N0 (0 = fixed window) */
    double grow_alpha;      /* growing window: alpha */
    double grow_beta;       /* growing window: beta */
    int num_syms;           /* symmetries used for augmentation (1 = off) */
    int *perm;              /* [num_syms][A] action permutation per symmetry */
    float *scratch;         /* one observation */
} replay_t;

/* Caller storage; replay_done frees. augment needs g->obs_shape[1] == [2]
 * and actions that symmetry_action() permutes (HOYLE_EINVAL otherwise). */
int replay_init(replay_t *r, const game_t *g, int64_t window_samples, int64_t window_games,
                bool augment);
void replay_done(replay_t *r);

/* Make the sample window grow with the samples added (above): N0 = min_samples >= 1,
 * alpha and beta in (0, 1] (beta <= 1: the window never grows faster than samples arrive, so
 * no shard it will need was dropped). Call before adding shards. */
int replay_set_growing(replay_t *r, int64_t min_samples, double alpha, double beta);

/* The sample window now (0 = no limit). */
int64_t replay_window(const replay_t *r);

/* Load one shard (the newest so far) and drop the oldest shards outside the window. */
int replay_add_shard(replay_t *r, const char *path);

/* Load shards DIR/shard-000000.h5 .. shard-(count-1): only the newest ones the
 * window needs are read (resume). */
int replay_load_dir(replay_t *r, const char *dir, int count);

/* Samples the next draw chooses from. */
int64_t replay_size(const replay_t *r);

/* Draw `batch` samples uniformly (with replacement) from the window into
 * caller buffers: obs [batch][C*H*W], policy [batch][A], legal [batch][A],
 * value [batch]. HOYLE_ESTATE when the buffer is empty. */
int replay_sample(replay_t *r, rng_t *rng, int batch, float *obs, float *policy, uint8_t *legal,
                  float *value);

/* The shard path DIR/shard-%06d.h5 into buf. */
int replay_shard_path(const char *dir, int index, char *buf, size_t cap);

#endif
