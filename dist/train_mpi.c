/* train_mpi.c — the training loop over MPI ranks (dist_train_run, dist.h): rank 0 is the
 * learner of train/loop.h, every other rank an actor.
 *
 * Messages (MPI_COMM_WORLD):
 *   0 -> actor  NET {generation, checkpoint bytes}   each new net (the file tch_save wrote),
 *                                                     sent without waiting (MPI_Isend)
 *   actor -> 0  SAMPLES {generation, statistics, samples}   one batch of finished games
 *   0 -> actor  STOP                                  the run is over
 *   actor -> 0  BYE                                   the actor has taken STOP and ends
 * An actor takes every NET waiting between batches and plays with the newest; the learner
 * drops samples of nets older than train.stale generations (docs/training.md). Messages from rank 0
 * arrive in the order sent, so an actor that sees STOP has received every NET before it,
 * and the learner's sends all complete. After STOP the learner discards samples until every
 * actor's BYE, so no actor is left blocked in a send. A run that does not fail sends STOP only
 * after every actor's first batch: the job's first collection waits for one from each.
 * The learner's state is the run folder, as in one process: kill -9 of the job and the same
 * command again resume from the newest finished generation (docs/scaling.md). */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "dist/dist.h"
#include "train/loop.h"
#include "train/samples.h"
#include "train/selfplay.h"

enum { TAG_NET = 11, TAG_SAMPLES, TAG_STOP, TAG_BYE };

/* ---- samples on the wire: int64 {generation, n, obs_size, num_actions}, the actor's
 * selfplay_stats_t (ranks run one build), then int64 game_id[n], float obs[n][O],
 * float policy[n][A], float value[n], int32 move[n], uint8 legal[n][A], uint8 flags[n]: every
 * array at an offset aligned for its type ---- */

static size_t samples_size(const sample_set_t *s)
{
    size_t n = (size_t)s->n, O = (size_t)s->obs_size, A = (size_t)s->num_actions;
    return 4 * sizeof(int64_t) + sizeof(selfplay_stats_t) + n * sizeof(int64_t) +
           n * (O + A + 1) * sizeof(float) + n * sizeof(int32_t) + n * A + n;
}

static void put(unsigned char **p, const void *v, size_t n)
{
    if (n) memcpy(*p, v, n);
    *p += n;
}

static void samples_pack(int64_t gen, const sample_set_t *s, const selfplay_stats_t *ss,
                         unsigned char *buf)
{
    size_t n = (size_t)s->n, O = (size_t)s->obs_size, A = (size_t)s->num_actions;
    int64_t head[4] = {gen, s->n, s->obs_size, s->num_actions};
    unsigned char *p = buf;
    put(&p, head, sizeof head);
    put(&p, ss, sizeof *ss);
    put(&p, s->game_id, n * sizeof(int64_t));
    put(&p, s->obs, n * O * sizeof(float));
    put(&p, s->policy, n * A * sizeof(float));
    put(&p, s->value, n * sizeof(float));
    put(&p, s->move, n * sizeof(int32_t));
    put(&p, s->legal, n * A);
    put(&p, s->flags, n);
}

/* A view of a packed batch as a sample set (pointers into buf, which malloc aligned); the
 * lengths are checked against the message's size and the learner's shapes. */
static int samples_view(const unsigned char *buf, size_t len, const sample_set_t *like,
                        int64_t *gen, selfplay_stats_t *ss, sample_set_t *view)
{
    int64_t head[4];
    if (len < sizeof head + sizeof *ss)
        return hoyle_error(HOYLE_EINVAL, "train: short samples message");
    memcpy(head, buf, sizeof head);
    memcpy(ss, buf + sizeof head, sizeof *ss);
    *view = *like;
    view->n = head[1];
    view->cap = head[1];
    if (head[1] < 0 || head[2] != like->obs_size || head[3] != like->num_actions)
        return hoyle_error(HOYLE_EINVAL, "train: an actor's samples have other shapes (its "
                                         "config differs from rank 0's)");
    if (samples_size(view) != len) return hoyle_error(HOYLE_EINVAL, "train: malformed samples");
    size_t n = (size_t)view->n, O = (size_t)view->obs_size, A = (size_t)view->num_actions;
    unsigned char *p = (unsigned char *)buf + sizeof head + sizeof *ss;
    view->game_id = (int64_t *)(void *)p;
    p += n * sizeof(int64_t);
    view->obs = (float *)(void *)p;
    p += n * O * sizeof(float);
    view->policy = (float *)(void *)p;
    p += n * A * sizeof(float);
    view->value = (float *)(void *)p;
    p += n * sizeof(float);
    view->move = (int32_t *)(void *)p;
    p += n * sizeof(int32_t);
    view->legal = p;
    view->flags = p + n * A;
    *gen = head[0];
    return HOYLE_OK;
}

/* Receive the message `st` announced into *buf (grown as needed); its length in *len. */
static int recv_into(const MPI_Status *st, unsigned char **buf, size_t *cap, size_t *len)
{
    int count = 0;
    MPI_Get_count(st, MPI_BYTE, &count);
    if ((size_t)count > *cap || *buf == NULL) {
        /* the old contents are not needed: free + malloc, not realloc */
        free(*buf);
        *cap = (size_t)count > 64 ? (size_t)count : 64;
        *buf = malloc(*cap);
        if (*buf == NULL) return hoyle_error(HOYLE_ENOMEM, "train: out of memory");
    }
    MPI_Recv(*buf, count, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    *len = (size_t)count;
    return HOYLE_OK;
}

/* ---- the learner (rank 0) ---- */

/* One published net: its bytes stay alive until every actor has received them. */
typedef struct pub {
    unsigned char *bytes;
    MPI_Request *req; /* [size - 1] */
    struct pub *next;
} pub_t;

typedef struct learner {
    int size;
    pub_t *pubs;
    unsigned char *buf;
    size_t cap;
    FILE *progress;           /* the learner's cost at the end (docs/scaling.md), or NULL */
    unsigned char *delivered; /* [size]: rank r has sent a batch (the job's first collection) */
    bool first_done;          /* the job's first collection has ended */
    double busy_s;            /* receiving, checking and appending samples (not waiting) */
    int64_t samples, messages, net_bytes;
} learner_t;

/* Free the published nets every actor has received. */
static void reap(learner_t *l, bool wait)
{
    for (pub_t **pp = &l->pubs; *pp;) {
        pub_t *p = *pp;
        int done = 0;
        if (wait)
            MPI_Waitall(l->size - 1, p->req, MPI_STATUSES_IGNORE), done = 1;
        else
            MPI_Testall(l->size - 1, p->req, &done, MPI_STATUSES_IGNORE);
        if (!done) {
            pp = &p->next;
            continue;
        }
        *pp = p->next;
        free(p->bytes);
        free(p->req);
        free(p);
    }
}

static int learner_publish(void *ctx, int64_t gen, const char *path)
{
    learner_t *l = ctx;
    reap(l, false);
    FILE *f = fopen(path, "rb");
    if (f == NULL) return hoyle_error(HOYLE_EIO, "train: cannot read '%s' to send it", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    pub_t *p = calloc(1, sizeof *p);
    if (p) p->bytes = malloc(sizeof(int64_t) + (size_t)(size > 0 ? size : 0));
    if (p) p->req = calloc((size_t)l->size - 1, sizeof *p->req);
    if (!p || !p->bytes || !p->req || size <= 0 || size > INT32_MAX - 16 ||
        fread(p->bytes + sizeof gen, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        if (p) free(p->bytes), free(p->req);
        free(p);
        return hoyle_error(HOYLE_EIO, "train: cannot read '%s' to send it", path);
    }
    fclose(f);
    memcpy(p->bytes, &gen, sizeof gen);
    int n = (int)(sizeof gen + (size_t)size);
    l->net_bytes += (int64_t)n * (l->size - 1);
    for (int r = 1; r < l->size; r++)
        MPI_Isend(p->bytes, n, MPI_BYTE, r, TAG_NET, MPI_COMM_WORLD, &p->req[r - 1]);
    p->next = l->pubs;
    l->pubs = p;
    return HOYLE_OK;
}

static int learner_collect(void *ctx, int64_t min_gen, int64_t games, sample_set_t *set,
                           selfplay_stats_t *ss, int64_t *stale)
{
    learner_t *l = ctx;
    int64_t got = 0;
    selfplay_tally_t tally = {0}; /* ss->seconds: the mean per contributing actor */
    char seen[4096] = {0};        /* ranks that contributed (past 4096 ranks share entries: only the
                                     divisor of the mean is then approximate) */
    /* The job's first collection (generation 0, or the first after a resume) also waits for a
     * batch from every actor, so none is sent STOP before it has played; once `games` are in,
     * it takes only the batches of actors still missing (the others wait in MPI's queue for
     * the next generation). Later collections are first-come. */
    int missing = l->first_done ? 0 : l->size - 1;
    while (got < games || missing > 0) {
        MPI_Status st;
        int from = MPI_ANY_SOURCE;
        for (int r = 1; got >= games && from == MPI_ANY_SOURCE; r++)
            if (!l->delivered[r]) from = r;
        dist_probe(from, TAG_SAMPLES, &st);
        double t0 = clock_seconds();
        size_t len;
        int status = recv_into(&st, &l->buf, &l->cap, &len);
        if (status) return status;
        int64_t gen = -1;
        selfplay_stats_t a;
        sample_set_t view;
        if ((status = samples_view(l->buf, len, set, &gen, &a, &view)))
            return hoyle_error_prefix(status, "rank %d", st.MPI_SOURCE);
        if (!l->first_done && !l->delivered[st.MPI_SOURCE])
            l->delivered[st.MPI_SOURCE] = 1, missing--;
        if (gen < min_gen) {
            *stale += view.n;
        } else {
            if ((status = sample_set_append(set, &view, 0, view.n))) return status;
            got += a.games;
            int src = st.MPI_SOURCE % (int)sizeof seen;
            selfplay_tally_add(&tally, &a, !seen[src]);
            seen[src] = 1;
        }
        reap(l, false);
        l->busy_s += clock_seconds() - t0;
        l->samples += view.n;
        l->messages++;
    }
    l->first_done = true;
    selfplay_tally_end(&tally, ss);
    return HOYLE_OK;
}

static void learner_stop(void *ctx)
{
    learner_t *l = ctx;
    if (l->progress && l->messages > 0) {
        fprintf(l->progress,
                "[learner] %lld samples in %lld messages from %d actors: busy %.3f s receiving "
                "them (%.1f us per sample); %.1f MB of nets sent\n",
                (long long)l->samples, (long long)l->messages, l->size - 1, l->busy_s,
                1e6 * l->busy_s / (double)l->samples, l->net_bytes / 1e6);
        fflush(l->progress);
    }
    for (int r = 1; r < l->size; r++) MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
    for (int byes = 0; byes < l->size - 1;) {
        MPI_Status st;
        dist_probe(MPI_ANY_SOURCE, MPI_ANY_TAG, &st);
        size_t len;
        if (recv_into(&st, &l->buf, &l->cap, &len)) {
            /* no room to take the message: end every rank rather than hang */
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (st.MPI_TAG == TAG_BYE) byes++;
    }
    reap(l, true);
}

/* ---- an actor ---- */

typedef struct actor {
    char path[256]; /* this actor's copy of the newest net */
    unsigned char *buf;
    size_t cap;
} actor_t;

static int actor_fetch(void *ctx, bool wait, int64_t have, int64_t *gen, char *path, size_t cap)
{
    actor_t *a = ctx;
    int newer = 0;
    for (;;) {
        MPI_Status st;
        int flag = 1;
        if (wait && !newer)
            dist_probe(0, MPI_ANY_TAG, &st);
        else
            MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag) break;
        size_t len;
        int status = recv_into(&st, &a->buf, &a->cap, &len);
        if (status) return status;
        if (st.MPI_TAG == TAG_STOP) {
            MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_BYE, MPI_COMM_WORLD);
            return 1;
        }
        if (st.MPI_TAG != TAG_NET || len < sizeof(int64_t)) continue;
        int64_t g;
        memcpy(&g, a->buf, sizeof g);
        if (g <= have) continue;
        /* the checkpoint as tch_load reads it: a file of this actor's own */
        FILE *f = fopen(a->path, "wb");
        size_t body = len - sizeof g;
        if (f == NULL || fwrite(a->buf + sizeof g, 1, body, f) != body || fclose(f) != 0)
            return hoyle_error(HOYLE_EIO, "train: actor cannot write '%s'", a->path);
        have = g;
        *gen = g;
        newer = 1;
    }
    if (!newer) return 2;
    snprintf(path, cap, "%s", a->path);
    return 0;
}

static int actor_send(void *ctx, int64_t gen, const sample_set_t *set, const selfplay_stats_t *ss)
{
    (void)ctx;
    size_t n = samples_size(set);
    if (n > INT32_MAX)
        return hoyle_error(HOYLE_EFULL,
                           "train: a batch of %zu bytes is too large "
                           "for one message (lower actor_games)",
                           n);
    unsigned char *buf = malloc(n);
    if (buf == NULL) return hoyle_error(HOYLE_ENOMEM, "train: out of memory");
    samples_pack(gen, set, ss, buf);
    MPI_Send(buf, (int)n, MPI_BYTE, 0, TAG_SAMPLES, MPI_COMM_WORLD);
    free(buf);
    return HOYLE_OK;
}

int dist_train_run(const char *path, char *const *sets, int num_sets, FILE *progress,
                   train_summary_t *out, int *rank_out)
{
    int rank = 0, size = 1, init = 0;
    MPI_Initialized(&init);
    if (init) {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
    }
    *rank_out = rank;
    if (size == 1) return train_run(path, sets, num_sets, progress, out);
    if (rank == 0) {
        learner_t l = {.size = size, .progress = progress};
        l.delivered = calloc((size_t)size, 1);
        if (l.delivered == NULL) return hoyle_error(HOYLE_ENOMEM, "train: out of memory");
        train_actors_t actors = {learner_publish, learner_collect, learner_stop, &l};
        int status = train_run_learner(path, sets, num_sets, progress, &actors, out);
        free(l.delivered);
        free(l.buf);
        return status;
    }
    actor_t a = {{0}, NULL, 0};
    const char *tmp = getenv("TMPDIR");
    snprintf(a.path, sizeof a.path, "%s/hoyle-actor-%d-%ld.pt", tmp && *tmp ? tmp : "/tmp", rank,
             (long)getpid());
    train_actor_io_t io = {actor_fetch, actor_send, &a, NULL}; /* MPI actors keep no game records */
    memset(out, 0, sizeof *out);
    int status = train_run_actor(path, sets, num_sets, rank, &io, progress);
    unlink(a.path);
    free(a.buf);
    return status;
}
