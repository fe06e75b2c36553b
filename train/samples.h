/* samples.h — training samples in memory and in HDF5 shard files.
 *
 * A sample is one position of a self-play game seen from the player to move:
 *   obs     float[C][H][W]   game_observe(s, player to move)
 *   policy  float[A]         the search's visit distribution (sums to 1, 0 off the legal set)
 *   legal   uint8[A]         1 = legal in s (the loss masks illegal logits)
 *   value   float            the final return of the player to move, in [-1, 1]
 *   game_id int64            self-play game number (unique within a run)
 *   move    int32            actions played before s in that game
 *   flags   uint8            SAMPLE_* bits (SAMPLE_TRUNCATED: the game hit the move cap)
 *
 * Shards. Samples are written one file per self-play batch ("shard"), never
 * appended in place: the file is written under NAME.tmp, fsync'ed and renamed,
 * so a shard exists complete or not at all (a killed writer leaves at most a
 * .tmp). Datasets are chunked and deflate-compressed; the schema
 * (hoyle.samples, version 1) is in docs/formats.md, "Training samples", and
 * h5py reads it with no hoyle code (tests/check_samples_h5.py). */
#ifndef HOYLE_TRAIN_SAMPLES_H
#define HOYLE_TRAIN_SAMPLES_H

#include <stdint.h>

#include "games/game.h"

#define SAMPLES_SCHEMA_NAME    "hoyle.samples"
#define SAMPLES_SCHEMA_VERSION 1

#define SAMPLE_TRUNCATED 1 /* flags: the game was cut at the move cap (no final result) */

/* A growable array of samples (caller storage: sample_set_init / _done). */
typedef struct sample_set {
    int obs_shape[3]; /* C, H, W */
    int obs_size;     /* C * H * W */
    int num_actions;  /* A */
    int64_t n, cap;   /* samples held, capacity */
    float *obs;       /* [n][obs_size] */
    float *policy;    /* [n][A] */
    uint8_t *legal;   /* [n][A] */
    float *value;     /* [n] */
    int64_t *game_id; /* [n] */
    int32_t *move;    /* [n] */
    uint8_t *flags;   /* [n] SAMPLE_* bits */
} sample_set_t;

/* Empty set for observations of `obs_shape` and `num_actions` actions. */
void sample_set_init(sample_set_t *s, const int obs_shape[3], int num_actions);
void sample_set_done(sample_set_t *s);
/* Forget the samples, keep the memory. */
void sample_set_clear(sample_set_t *s);
/* Append one zeroed sample; returns its index or HOYLE_ENOMEM. */
int64_t sample_set_push(sample_set_t *s);
/* Append samples [from, from + count) of `src` (same shapes). */
int sample_set_append(sample_set_t *s, const sample_set_t *src, int64_t from, int64_t count);

/* What made a shard; stored as root attributes. NULL strings are written as "". */
typedef struct samples_meta {
    const char *game_spec;  /* canonical game spec */
    const char *params;     /* self-play parameters (canonical spec text) */
    const char *network_id; /* which network played ("net-000003.pt", "fake", ...) */
    const char *config;     /* the run's YAML config, or "" */
    int64_t generation;     /* loop generation (0 outside the loop) */
    int64_t games;          /* games whose samples the shard holds */
    const char *stats;      /* the writer's self-play statistics as "key=value,..." text, for
                               the learner of a run-folder run (NULL = no such attribute) */
} samples_meta_t;

/* Write all samples of `s` to a new shard at `path` (atomically: PATH.tmp +
 * fsync + rename; an existing file at `path` is replaced). */
int samples_write_shard(const char *path, const sample_set_t *s, const samples_meta_t *meta);

/* The same, but a new file only: an existing file at `path` is left as it is and the call
 * fails (HOYLE_EIO, "already exists"), even one created after the caller looked. */
int samples_create_shard(const char *path, const sample_set_t *s, const samples_meta_t *meta);

/* Append the samples of the shard at `path` to `s`, whose shapes must match the
 * file's (HOYLE_EINVAL otherwise); a shard without `flags` (older files) reads as 0. *games_out
 * (may be NULL) receives the shard's `games` attribute. Foreign or damaged files: HOYLE_EIO. */
int samples_read_shard(const char *path, sample_set_t *s, int64_t *games_out);

/* The shard's `selfplay_stats` attribute (samples_meta_t.stats) as a new string the caller
 * frees: 0 with *out set, 1 when the shard has none (*out NULL), HOYLE_EIO when the file
 * cannot be read. */
int samples_shard_stats(const char *path, char **out);

/* Samples and games in a shard without reading its datasets. */
int samples_shard_info(const char *path, int64_t *n, int64_t *games);

#endif
