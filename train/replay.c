/* replay.c — the replay buffer (replay.h). Invariant: set holds exactly the
 * samples of shards shard_n[0..num_shards) in order, oldest first. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/symmetry.h"
#include "train/replay.h"

int replay_shard_path(const char *dir, int index, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s/shard-%06d.h5", dir, index);
    if (n < 0 || (size_t)n >= cap) return hoyle_error(HOYLE_EINVAL, "replay: path too long");
    return HOYLE_OK;
}

int replay_init(replay_t *r, const game_t *g, int64_t window_samples, int64_t window_games,
                bool augment)
{
    memset(r, 0, sizeof *r);
    r->g = g;
    r->window_samples = window_samples;
    r->window_games = window_games;
    r->num_syms = augment ? g->num_symmetries : 1;
    /* sym_planes rotates and reflects N x N planes only */
    if (augment && g->num_symmetries > 1 && g->obs_shape[1] != g->obs_shape[2])
        return hoyle_error(HOYLE_EINVAL, "replay: augment needs a square observation (%s)",
                           g->spec);
    int A = g->num_actions;
    r->shard_n = calloc(REPLAY_MAX_SHARDS, sizeof *r->shard_n);
    r->shard_games = calloc(REPLAY_MAX_SHARDS, sizeof *r->shard_games);
    r->perm = malloc(sizeof(int) * (size_t)A * (size_t)r->num_syms);
    r->scratch = malloc(sizeof(float) * (size_t)game_obs_size(g));
    unsigned char *seen = calloc((size_t)A, 1);
    if (!r->shard_n || !r->shard_games || !r->perm || !r->scratch || !seen) {
        free(seen);
        replay_done(r);
        return hoyle_error(HOYLE_ENOMEM, "replay: out of memory");
    }
    /* Tabulate each symmetry's action map once (perm[k][a]), checking that it is a
     * permutation: a game whose map sends two actions to one would silently merge their
     * policy targets when a sample is transformed. */
    for (int k = 0; k < r->num_syms; k++) {
        memset(seen, 0, (size_t)A);
        for (int a = 0; a < A; a++) {
            int b = game_symmetry_action(g, g->symmetries[k], a);
            if (b < 0 || b >= A || seen[b]) {
                free(seen);
                replay_done(r);
                return hoyle_error(HOYLE_EINVAL,
                                   "replay: %s: symmetry %s does not permute the "
                                   "actions (augment=false)",
                                   g->spec, sym_name(g->symmetries[k]));
            }
            seen[b] = 1;
            r->perm[k * A + a] = b;
        }
    }
    free(seen);
    sample_set_init(&r->set, g->obs_shape, A);
    return HOYLE_OK;
}

void replay_done(replay_t *r)
{
    sample_set_done(&r->set);
    free(r->shard_n);
    free(r->shard_games);
    free(r->perm);
    free(r->scratch);
    memset(r, 0, sizeof *r);
}

int replay_set_growing(replay_t *r, int64_t min_samples, double alpha, double beta)
{
    if (min_samples < 1 || !(alpha > 0 && alpha <= 1) || !(beta > 0 && beta <= 1))
        return hoyle_error(HOYLE_EINVAL,
                           "replay: growing window needs min >= 1, alpha and beta in (0, 1]");
    r->grow_min = min_samples;
    r->grow_alpha = alpha;
    r->grow_beta = beta;
    return HOYLE_OK;
}

/* The window's size in samples after `total` samples were added (0 = no limit). */
static int64_t window_for(const replay_t *r, int64_t total)
{
    if (r->grow_min <= 0) return r->window_samples;
    double n0 = (double)r->grow_min, a = r->grow_alpha;
    double w = total <= r->grow_min
                   ? (double)total
                   : n0 * (1 + r->grow_beta * (pow((double)total / n0, a) - 1) / a);
    int64_t size = (int64_t)floor(w);
    if (size < 1) size = 1;
    return r->window_samples > 0 && size > r->window_samples ? r->window_samples : size;
}

int64_t replay_window(const replay_t *r) { return window_for(r, r->total); }

/* Shards, counted from the newest, that the window needs given these counts. */
static int needed(const replay_t *r, const int64_t *n, const int64_t *games, int count)
{
    int64_t samples = 0, played = 0, window = replay_window(r);
    for (int k = count - 1; k >= 0; k--) {
        samples += n[k];
        played += games[k];
        bool full_s = window > 0 && samples >= window;
        bool full_g = r->window_games > 0 && played >= r->window_games;
        if (full_s || full_g) return count - k;
    }
    return count;
}

/* Drop the oldest shards the window no longer needs. Whole shards only, so the window may
 * hold up to one shard more than window_samples; replay_size() caps what is drawn. */
static void trim(replay_t *r)
{
    int keep = needed(r, r->shard_n, r->shard_games, r->num_shards);
    int drop = r->num_shards - keep;
    if (drop <= 0) return;
    int64_t rows = 0;
    for (int k = 0; k < drop; k++) rows += r->shard_n[k];
    sample_set_t *s = &r->set;
    size_t left = (size_t)(s->n - rows), A = (size_t)s->num_actions, O = (size_t)s->obs_size;
    memmove(s->obs, s->obs + (size_t)rows * O, sizeof(float) * O * left);
    memmove(s->policy, s->policy + (size_t)rows * A, sizeof(float) * A * left);
    memmove(s->legal, s->legal + (size_t)rows * A, A * left);
    memmove(s->value, s->value + rows, sizeof(float) * left);
    memmove(s->game_id, s->game_id + rows, sizeof(int64_t) * left);
    memmove(s->move, s->move + rows, sizeof(int32_t) * left);
    memmove(s->flags, s->flags + rows, left);
    s->n = (int64_t)left;
    memmove(r->shard_n, r->shard_n + drop, sizeof(int64_t) * (size_t)keep);
    memmove(r->shard_games, r->shard_games + drop, sizeof(int64_t) * (size_t)keep);
    r->num_shards = keep;
}

int replay_add_shard(replay_t *r, const char *path)
{
    /* trim() ran after the last add, so a full table means the window needs every shard */
    if (r->num_shards >= REPLAY_MAX_SHARDS) trim(r);
    if (r->num_shards >= REPLAY_MAX_SHARDS)
        return hoyle_error(HOYLE_EFULL, "replay: more than %d shards in the window",
                           REPLAY_MAX_SHARDS);
    int64_t before = r->set.n, games = 0;
    int status = samples_read_shard(path, &r->set, &games);
    if (status) return status;
    r->shard_n[r->num_shards] = r->set.n - before;
    r->shard_games[r->num_shards] = games;
    r->num_shards++;
    r->total += r->set.n - before;
    trim(r);
    return HOYLE_OK;
}

int replay_load_dir(replay_t *r, const char *dir, int count)
{
    if (count <= 0) return HOYLE_OK;
    int64_t *n = calloc((size_t)count, sizeof *n), *games = calloc((size_t)count, sizeof *games);
    if (!n || !games) {
        free(n);
        free(games);
        return hoyle_error(HOYLE_ENOMEM, "replay: out of memory");
    }
    char path[4096];
    int status = HOYLE_OK, first = 0;
    /* a growing window's size follows the samples of all shards: read every size first */
    int64_t total = r->total;
    for (int k = count - 1; r->grow_min > 0 && k >= 0 && status == HOYLE_OK; k--) {
        status = replay_shard_path(dir, k, path, sizeof path);
        if (!status) status = samples_shard_info(path, &n[k], &games[k]);
        total += n[k];
    }
    int64_t saved = r->total;
    r->total = total; /* needed() sizes the window as it will be once all are added */
    /* newest first, reading only the shard sizes, until the window is covered */
    for (int k = count - 1; k >= 0 && status == HOYLE_OK; k--) {
        status = replay_shard_path(dir, k, path, sizeof path);
        if (!status) status = samples_shard_info(path, &n[k], &games[k]);
        if (!status && needed(r, n + k, games + k, count - k) < count - k) {
            first = k + 1;
            break;
        }
    }
    /* the shards skipped count as added: the window keeps growing from their total */
    r->total = saved;
    for (int k = 0; k < first; k++) r->total += n[k];
    /* then read them oldest first, as replay_add_shard expects (set stays in order) */
    for (int k = first; k < count && status == HOYLE_OK; k++) {
        status = replay_shard_path(dir, k, path, sizeof path);
        if (!status) status = replay_add_shard(r, path);
    }
    free(n);
    free(games);
    return status;
}

int64_t replay_size(const replay_t *r)
{
    int64_t n = r->set.n, window = replay_window(r);
    return window > 0 && n > window ? window : n;
}

int replay_sample(replay_t *r, rng_t *rng, int batch, float *obs, float *policy, uint8_t *legal,
                  float *value)
{
    const sample_set_t *s = &r->set;
    int64_t size = replay_size(r), base = s->n - size;
    if (size <= 0) return hoyle_error(HOYLE_ESTATE, "replay: no samples yet");
    size_t A = (size_t)s->num_actions, O = (size_t)s->obs_size;
    int C = s->obs_shape[0], N = s->obs_shape[1];
    /* Uniform with replacement over the newest `size` samples; a random symmetry k each
     * (k = 0 is the identity), applied to the planes and, through perm, to the targets. */
    for (int b = 0; b < batch; b++) {
        int64_t i = base + (int64_t)(rng_double(rng) * (double)size);
        if (i >= s->n) i = s->n - 1; /* rounding guard */
        int k = r->num_syms > 1 ? (int)rng_below(rng, (uint32_t)r->num_syms) : 0;
        const float *src_obs = s->obs + (size_t)i * O;
        float *dst_obs = obs + (size_t)b * O;
        if (k == 0)
            memcpy(dst_obs, src_obs, sizeof(float) * O);
        else
            sym_planes(r->g->symmetries[k], C, N, src_obs, dst_obs);
        const int *perm = r->perm + (size_t)k * A;
        for (size_t a = 0; a < A; a++) {
            policy[(size_t)b * A + (size_t)perm[a]] = s->policy[(size_t)i * A + a];
            legal[(size_t)b * A + (size_t)perm[a]] = s->legal[(size_t)i * A + a];
        }
        value[b] = s->value[i];
    }
    return HOYLE_OK;
}
