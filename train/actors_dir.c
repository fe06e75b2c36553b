/* actors_dir.c — the training loop's actors through a shared folder, without MPI (actors_dir.h):
 * actors read the run folder's newest net and write sample shards into RUN/incoming/, the
 * learner picks them up (docs/scaling.md, "Shared folder").
 *
 * The files are the messages: nets are the run's own checkpoints RUN/net-NNNNNN.pt (tch_save
 * writes them atomically), a batch of samples is a shard
 * RUN/incoming/gGGGGGG-aACTOR-NNNNNN.h5 written with samples_create_shard (atomic, never
 * replacing a file) whose name carries the generation of the net that played it and whose
 * `selfplay_stats` attribute carries the actor's statistics of the batch, the batch's game
 * records are RUN/games/gGGGGGG-aACTOR-PID-NNNNNN.h5 (the same name), and the end of the run
 * is the file RUN/stop. Any number of actors, on any machines that share the folder,
 * may come and go; a learner killed and restarted takes the shards waiting for it. */
#include "train/actors_dir.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "train/samples.h"
#include "train/selfplay.h"

/* Polling period of both sides: a batch of games takes seconds, a tenth of one is noise. */
static void nap(void)
{
    struct timespec ts = {0, 100 * 1000000L};
    nanosleep(&ts, NULL);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* ---- the learner's side ---- */

typedef struct learner {
    char dir[1024];
    char incoming[1100];
    int (*watch)(void *ctx); /* called while waiting (train_dir_actors_watch); may be NULL */
    void *watch_ctx;
} learner_t;

/* The statistics a shard carries (samples_meta_t.stats): the counts and times of
 * selfplay_stats_t that add up over batches, as "key=value,..." text. */
typedef struct stat_field {
    const char *name;
    size_t offset; /* in selfplay_stats_t */
    char kind;     /* 'i' int64_t, 'u' uint64_t, 'd' double */
} stat_field_t;

/* one row: {STAT(field, kind)} */
#define STAT(field, kind) #field, offsetof(selfplay_stats_t, field), kind
static const stat_field_t stat_fields[] = {
    {STAT(games, 'i')},
    {STAT(actions, 'i')},
    {STAT(samples, 'i')},
    {STAT(full_searches, 'i')},
    {STAT(fast_searches, 'i')},
    {STAT(draws, 'i')},
    {STAT(resigned, 'i')},
    {STAT(truncated, 'i')},
    {STAT(forced, 'i')},
    {STAT(game_actions, 'i')},
    {STAT(dropped, 'i')},
    {STAT(resign_checks, 'i')},
    {STAT(false_resigns, 'i')},
    {STAT(evaluations, 'u')},
    {STAT(evaluator_calls, 'u')},
    {STAT(eval_seconds, 'd')},
    {STAT(cache_hits, 'u')},
    {STAT(forwards, 'u')},
    {STAT(forwarded, 'u')},
    {STAT(seconds, 'd')},
    {"wins0", offsetof(selfplay_stats_t, wins), 'i'},
    {"wins1", offsetof(selfplay_stats_t, wins) + sizeof(int64_t), 'i'},
};
#undef STAT
#define NUM_STAT_FIELDS (sizeof stat_fields / sizeof stat_fields[0])

static void stats_format(const selfplay_stats_t *ss, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < NUM_STAT_FIELDS && n < cap; i++) {
        const stat_field_t *f = &stat_fields[i];
        const char *at = (const char *)ss + f->offset;
        const char *sep = i ? "," : "";
        if (f->kind == 'i')
            n += (size_t)snprintf(buf + n, cap - n, "%s%s=%" PRId64, sep, f->name,
                                  *(const int64_t *)at);
        else if (f->kind == 'u')
            n += (size_t)snprintf(buf + n, cap - n, "%s%s=%" PRIu64, sep, f->name,
                                  *(const uint64_t *)at);
        else
            n +=
                (size_t)snprintf(buf + n, cap - n, "%s%s=%.17g", sep, f->name, *(const double *)at);
    }
}

/* The text of stats_format back into *ss (zeroed first); unknown keys are skipped, so that a
 * newer actor's extra counts do not stop an older learner. */
static void stats_parse(const char *text, selfplay_stats_t *ss)
{
    memset(ss, 0, sizeof *ss);
    for (const char *p = text; p && *p; p = strchr(p, ','), p = p ? p + 1 : NULL) {
        const char *eq = strchr(p, '=');
        if (eq == NULL) break;
        size_t k = (size_t)(eq - p);
        for (size_t i = 0; i < NUM_STAT_FIELDS; i++) {
            const stat_field_t *f = &stat_fields[i];
            if (strlen(f->name) != k || strncmp(p, f->name, k) != 0) continue;
            char *at = (char *)ss + f->offset;
            if (f->kind == 'i')
                *(int64_t *)at = strtoll(eq + 1, NULL, 10);
            else if (f->kind == 'u')
                *(uint64_t *)at = strtoull(eq + 1, NULL, 10);
            else
                *(double *)at = strtod(eq + 1, NULL);
        }
    }
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The shard names waiting in `dir`, sorted (generation first, so older batches first). */
static int list_shards(const char *dir, char ***out, int *n)
{
    *out = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (d == NULL) return hoyle_error(HOYLE_EIO, "'%s': %s", dir, strerror(errno));
    int cap = 0, status = HOYLE_OK;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && status == 0) {
        size_t len = strlen(e->d_name);
        /* gGGGGGG-....h5; a writer's NAME.tmp is not a shard yet */
        if (e->d_name[0] != 'g' || len < 4 || strcmp(e->d_name + len - 3, ".h5") != 0) continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            char **grown = realloc(*out, sizeof(char *) * (size_t)cap);
            if (grown == NULL) {
                status = hoyle_error(HOYLE_ENOMEM, "train: out of memory");
                break;
            }
            *out = grown;
        }
        if (((*out)[*n] = strdup(e->d_name)) == NULL)
            status = hoyle_error(HOYLE_ENOMEM, "train: out of memory");
        else
            (*n)++;
    }
    closedir(d);
    if (status == 0 && *n > 1) qsort(*out, (size_t)*n, sizeof(char *), cmp_names);
    return status;
}

static void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++) free(names[i]);
    free(names);
}

static int learner_publish(void *ctx, int64_t gen, const char *path)
{
    /* The checkpoint is already where actors look (the run folder), and the learner holds the
     * folder by now: make incoming/ for the actors. A stop file left by an
     * earlier, finished run of this folder must go before actors come back for a resume. */
    learner_t *l = ctx;
    (void)gen;
    /* the run folder is the checkpoint's: the loop read it from the config */
    const char *slash = strrchr(path, '/');
    snprintf(l->dir, sizeof l->dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    snprintf(l->incoming, sizeof l->incoming, "%s/incoming", l->dir);
    if (mkdir(l->incoming, 0755) != 0 && errno != EEXIST)
        return hoyle_error(HOYLE_EIO, "'%s': cannot create: %s", l->incoming, strerror(errno));
    char stop[1100];
    snprintf(stop, sizeof stop, "%s/stop", l->dir);
    if (unlink(stop) != 0 && errno != ENOENT)
        return hoyle_error(HOYLE_EIO, "'%s': %s", stop, strerror(errno));
    return HOYLE_OK;
}

static int learner_collect(void *ctx, int64_t min_gen, int64_t games, sample_set_t *set,
                           selfplay_stats_t *ss, int64_t *stale)
{
    learner_t *l = ctx;
    int64_t got = 0;
    selfplay_tally_t tally = {0}; /* ss->seconds: the mean per contributing actor */
    char writers[64][48]; /* "aACTOR-PID" of the shards taken (past 64: the divisor is 64) */
    while (got < games) {
        char **names;
        int n;
        int status = l->watch ? l->watch(l->watch_ctx) : HOYLE_OK;
        if (status) return status;
        if ((status = list_shards(l->incoming, &names, &n))) return status;
        for (int i = 0; i < n && got < games && status == 0; i++) {
            char path[1400];
            snprintf(path, sizeof path, "%s/%s", l->incoming, names[i]);
            long long gen = strtoll(names[i] + 1, NULL, 10);
            int64_t k = 0, g = 0;
            if (gen < min_gen) {
                /* too old to train on: counted as stale and removed, once it proves a shard */
                if ((status = samples_shard_info(path, &k, &g)) == 0) *stale += k;
            } else if ((status = samples_read_shard(path, set, &g)) == 0) {
                got += g;
                char *text = NULL;
                selfplay_stats_t a;
                if (samples_shard_stats(path, &text) == 0) {
                    stats_parse(text, &a);
                } else { /* a shard without statistics (an older actor): its games only */
                    memset(&a, 0, sizeof a);
                }
                free(text);
                a.games = g;
                /* the writer: the name between the generation and the batch number */
                const char *dash = strchr(names[i], '-'), *end = dash ? strrchr(dash, '-') : NULL;
                char who[48];
                snprintf(who, sizeof who, "%.*s", dash && end > dash ? (int)(end - dash) : 0,
                         dash ? dash : "");
                int w = 0;
                while (w < tally.actors && strcmp(writers[w], who) != 0) w++;
                bool new_writer = w == tally.actors && tally.actors < 64;
                if (new_writer) memcpy(writers[w], who, 48);
                selfplay_tally_add(&tally, &a, new_writer);
            }
            if (status) {
                /* a foreign or damaged file in incoming/, old or new: say so and set it
                 * aside, so that one bad file does not stop the run */
                fprintf(stderr, "train: %s: %s; moved to %s.bad\n", path, hoyle_last_error(),
                        names[i]);
                char bad[1500];
                snprintf(bad, sizeof bad, "%s.bad", path);
                rename(path, bad);
                status = HOYLE_OK;
                continue;
            }
            /* taken (or too old): the samples are in memory, the generation's shard will
             * hold them once written; a kill before that loses only this batch */
            unlink(path);
        }
        free_names(names, n);
        if (status) return status;
        if (got < games) nap();
    }
    ss->workers = tally.actors;
    selfplay_tally_end(&tally, ss);
    ss->samples = set->n;
    return HOYLE_OK;
}

static void learner_stop(void *ctx)
{
    learner_t *l = ctx;
    if (l->dir[0] == '\0') return; /* no net was published: no actor can have started */
    char stop[1100];
    snprintf(stop, sizeof stop, "%s/stop", l->dir);
    FILE *f = fopen(stop, "w");
    if (f) fclose(f);
}

int train_dir_actors(train_actors_t *out)
{
    learner_t *l = calloc(1, sizeof *l);
    if (l == NULL) return hoyle_error(HOYLE_ENOMEM, "train: out of memory");
    *out = (train_actors_t){learner_publish, learner_collect, learner_stop, l};
    return HOYLE_OK;
}

void train_dir_actors_watch(train_actors_t *a, int (*watch)(void *ctx), void *ctx)
{
    learner_t *l = a->ctx;
    l->watch = watch;
    l->watch_ctx = ctx;
}

void train_dir_actors_free(train_actors_t *a)
{
    free(a->ctx);
    a->ctx = NULL;
}

/* ---- an actor ---- */

typedef struct actor {
    const char *dir; /* the run folder: config.yaml, nets, stop */
    const char *out; /* where incoming/ is */
    int actor;
    int64_t batches;
} actor_t;

/* The newest net-NNNNNN.pt of the folder, -1 when none. */
static int64_t newest_net(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL) return -1;
    int64_t best = -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long long g;
        char tail[8];
        if (sscanf(e->d_name, "net-%lld%7s", &g, tail) == 2 && strcmp(tail, ".pt") == 0 && g > best)
            best = g;
    }
    closedir(d);
    return best;
}

static int actor_fetch(void *ctx, bool wait, int64_t have, int64_t *gen, char *path, size_t cap)
{
    actor_t *a = ctx;
    char stop[1100];
    snprintf(stop, sizeof stop, "%s/stop", a->dir);
    for (;;) {
        if (exists(stop)) return 1;
        int64_t g = newest_net(a->dir);
        if (g > have) {
            *gen = g;
            snprintf(path, cap, "%s/net-%06" PRId64 ".pt", a->dir, g);
            return 0;
        }
        if (!wait) return 2;
        nap();
    }
}

/* OUT/SUB/gGGGGGG-aACTOR-PID-NNNNNN.h5 for this actor's batch `batch`: the pid keeps two actors
 * given the same number apart. */
static void batch_path(const actor_t *a, const char *sub, int64_t gen, int64_t batch, char *buf,
                       size_t cap)
{
    snprintf(buf, cap, "%s/%s/g%06" PRId64 "-a%d-%ld-%06" PRId64 ".h5", a->out, sub, gen, a->actor,
             (long)getpid(), batch);
}

static int actor_send(void *ctx, int64_t gen, const sample_set_t *set, const selfplay_stats_t *ss)
{
    actor_t *a = ctx;
    char path[1400], netid[64], stats[1024];
    batch_path(a, "incoming", gen, a->batches++, path, sizeof path);
    snprintf(netid, sizeof netid, "net-%06" PRId64 ".pt", gen);
    stats_format(ss, stats, sizeof stats);
    samples_meta_t meta = {
        .network_id = netid, .generation = gen, .games = ss->games, .stats = stats};
    return samples_create_shard(path, set, &meta);
}

/* The batch's game records under the shard's name in OUT/games/, written as NAME.tmp and then
 * linked into place, so that the file appears complete and never replaces another. */
static int actor_record(void *ctx, int64_t gen, const game_t *g, const selfplay_games_t *games,
                        const char *agent, const char *config)
{
    actor_t *a = ctx;
    char path[1400], tmp[1500];
    batch_path(a, "games", gen, a->batches, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int status = selfplay_games_write(tmp, g, games, agent, (int32_t)gen, config);
    if (!status && link(tmp, path) != 0)
        status = hoyle_error(HOYLE_EIO, "'%s': cannot create: %s", path, strerror(errno));
    unlink(tmp);
    return status;
}

int train_run_dir_actor(const char *dir, const char *out, int actor, int threads, FILE *progress)
{
    char config[1100], incoming[1100], games[1100];
    snprintf(config, sizeof config, "%s/config.yaml", dir);
    snprintf(incoming, sizeof incoming, "%s/incoming", out);
    /* a learner not started yet: wait for its config and its first net */
    bool said = false;
    while (!exists(config) || newest_net(dir) < 0 || !exists(incoming)) {
        if (progress && !said) {
            fprintf(progress, "[actor %d] waiting for a learner's config, net and '%s'\n", actor,
                    incoming);
            fflush(progress);
            said = true;
        }
        nap();
    }
    snprintf(games, sizeof games, "%s/games", out);
    if (mkdir(games, 0755) != 0 && errno != EEXIST)
        return hoyle_error(HOYLE_EIO, "'%s': cannot create: %s", games, strerror(errno));
    actor_t a = {.dir = dir, .out = out, .actor = actor};
    train_actor_io_t io = {actor_fetch, actor_send, &a, actor_record};
    char set[64], *sets[1] = {set};
    snprintf(set, sizeof set, "train.threads=%d", threads);
    return train_run_actor(config, sets, threads > 0 ? 1 : 0, actor, &io, progress);
}
