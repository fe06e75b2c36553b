/* tournament_mpi.c — a tournament over MPI ranks (dist_tournament_run, dist.h): rank 0 runs the
 * runner of tournament_parts.h, the other ranks run players.
 *
 * Protocol (MPI_COMM_WORLD; every message to or from rank 0):
 *   0 opens the file, then MPI_Bcast tells every rank whether it could (a refused resume ends
 *   the run on every rank, with rank 0's message).
 *   worker -> 0  HELLO {slots, jobs}     once: its play threads, and its schedule's length
 *   worker -> 0  ASK {slot}              a thread is free (one outstanding job per thread)
 *   0 -> worker  JOB {slot, job, seed}   job = -1: nothing left, the thread ends
 *   worker -> 0  RESULT {job, game}      a finished game (then an ASK for the next)
 *   worker -> 0  FAIL {job, message}     the job could not be played (not a forfeit: out of
 *                                        memory, an agent spec that does not create here)
 * Rank 0 receives with MPI_ANY_SOURCE and answers in arrival order; it stores through
 * tour_runner_store, so every finished game is durable on rank 0 as it arrives and the file's
 * invariant is the one-process run's. Jobs carry their seed: a worker whose config gives another
 * seed for a job (a different config file on its machine) fails the run instead of playing
 * another tournament into this file.
 * Threads: MPI is initialised FUNNELED; on a worker only the main thread calls MPI, the play
 * threads exchange jobs and results with it through per-slot mailboxes.
 * A rank that dies: Open MPI's launcher then ends the whole job (its default); every game
 * stored by then is in rank 0's journal, and the same command resumes (docs/scaling.md). */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/error.h"
#include "dist/dist.h"
#include "eval/tournament_parts.h"

enum { TAG_HELLO = 1, TAG_ASK, TAG_JOB, TAG_RESULT, TAG_FAIL };

/* ---- the result on the wire: int32 {job, end, num_actions, error length}, double returns[2],
 * int32 actions[n], float action_ms[n], the error text (no NUL) ---- */

static size_t result_size(const tour_game_result_t *res)
{
    return 4 * sizeof(int32_t) + 2 * sizeof(double) +
           (size_t)res->num_actions * (sizeof(int32_t) + sizeof(float)) + strlen(res->error);
}

static void put(unsigned char **p, const void *v, size_t n)
{
    memcpy(*p, v, n);
    *p += n;
}

static void result_pack(int job, const tour_game_result_t *res, unsigned char *buf)
{
    int32_t head[4] = {job, (int32_t)res->end, res->num_actions, (int32_t)strlen(res->error)};
    unsigned char *p = buf;
    put(&p, head, sizeof head);
    put(&p, res->returns, sizeof res->returns);
    put(&p, res->actions, sizeof(int32_t) * (size_t)res->num_actions);
    put(&p, res->action_ms, sizeof(float) * (size_t)res->num_actions);
    put(&p, res->error, (size_t)head[3]);
}

/* Unpack into *res (arrays malloc'd); HOYLE_EINVAL for a message whose lengths do not add up. */
static int result_unpack(const unsigned char *buf, size_t len, int *job, tour_game_result_t *res)
{
    int32_t head[4];
    memset(res, 0, sizeof *res);
    *job = -1;
    size_t fixed = sizeof head + 2 * sizeof(double);
    if (len < fixed) return hoyle_error(HOYLE_EINVAL, "tournament: short result message");
    memcpy(head, buf, sizeof head);
    size_t n = head[2] >= 0 ? (size_t)head[2] : 0, elen = head[3] >= 0 ? (size_t)head[3] : 0;
    if (head[2] < 0 || head[3] < 0 || elen >= sizeof res->error ||
        len != fixed + n * (sizeof(int32_t) + sizeof(float)) + elen)
        return hoyle_error(HOYLE_EINVAL, "tournament: malformed result message");
    const unsigned char *p = buf + sizeof head;
    *job = head[0];
    res->end = (record_end_t)head[1];
    res->num_actions = head[2];
    memcpy(res->returns, p, 2 * sizeof(double));
    p += 2 * sizeof(double);
    res->actions = malloc(sizeof(int32_t) * (n ? n : 1));
    res->action_ms = malloc(sizeof(float) * (n ? n : 1));
    if (!res->actions || !res->action_ms) {
        tour_game_result_done(res);
        return hoyle_error(HOYLE_ENOMEM, "tournament: out of memory");
    }
    memcpy(res->actions, p, sizeof(int32_t) * n);
    p += sizeof(int32_t) * n;
    memcpy(res->action_ms, p, sizeof(float) * n);
    p += sizeof(float) * n;
    memcpy(res->error, p, elen);
    res->error[elen] = '\0';
    return HOYLE_OK;
}

/* ---- rank 0 ---- */

/* The runner's loop; *busy_s sums the time spent on messages (receive, store, answer), which
 * is rank 0's cost per game (docs/scaling.md). */
static int run_master(tour_runner_t *r, int size, double *busy_s)
{
    int hellos = size - 1, live = 0, outstanding = 0;
    unsigned char *buf = NULL;
    size_t cap = 0;
    while (hellos > 0 || live > 0 || outstanding > 0) {
        MPI_Status st;
        dist_probe(MPI_ANY_SOURCE, MPI_ANY_TAG, &st);
        double t0 = clock_seconds();
        int count = 0, src = st.MPI_SOURCE;
        MPI_Get_count(&st, MPI_BYTE, &count);
        if ((size_t)count + 1 > cap) {
            unsigned char *nb = realloc(buf, (size_t)count + 1);
            if (nb == NULL) {
                /* Without room for the message it cannot be received; stopping the whole
                 * job is the only way out that leaves no rank waiting. */
                tour_runner_fail(r, hoyle_error(HOYLE_ENOMEM, "tournament: out of memory"));
                free(buf);
                return HOYLE_ENOMEM;
            }
            buf = nb;
            cap = (size_t)count + 1;
        }
        MPI_Recv(buf, count, MPI_BYTE, src, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (st.MPI_TAG == TAG_HELLO) {
            int64_t hello[2];
            memcpy(hello, buf, sizeof hello);
            hellos--;
            live += (int)hello[0];
            const tour_job_t *last = tour_runner_job(r, (int)hello[1] - 1);
            if (last == NULL || tour_runner_job(r, (int)hello[1]) != NULL)
                tour_runner_fail(r, hoyle_error(HOYLE_EINVAL,
                                                "tournament: rank %d's schedule has %lld games, "
                                                "not rank 0's: its config differs",
                                                src, (long long)hello[1]));
        } else if (st.MPI_TAG == TAG_ASK) {
            int64_t job[3];
            memcpy(job, buf, sizeof(int64_t));
            job[1] = tour_runner_next(r);
            job[2] = job[1] >= 0 ? (int64_t)tour_runner_job(r, (int)job[1])->seed : 0;
            if (job[1] < 0)
                live--;
            else
                outstanding++;
            MPI_Send(job, (int)sizeof job, MPI_BYTE, src, TAG_JOB, MPI_COMM_WORLD);
        } else if (st.MPI_TAG == TAG_RESULT) {
            int idx = -1;
            tour_game_result_t res;
            outstanding--;
            if (result_unpack(buf, (size_t)count, &idx, &res) == 0) {
                if (tour_runner_job(r, idx) == NULL)
                    tour_runner_fail(r, hoyle_error(HOYLE_EINVAL,
                                                    "tournament: rank %d returned job %d, "
                                                    "which is not in the schedule",
                                                    src, idx));
                else
                    tour_runner_store(r, idx, &res);
                tour_game_result_done(&res);
            } else {
                tour_runner_fail(r, HOYLE_EINVAL);
            }
        } else if (st.MPI_TAG == TAG_FAIL) {
            outstanding--;
            buf[count] = '\0';
            tour_runner_fail(r, hoyle_error(HOYLE_EINVAL, "rank %d: %s", src,
                                            (const char *)buf + sizeof(int32_t)));
        }
        *busy_s += clock_seconds() - t0;
    }
    free(buf);
    return HOYLE_OK;
}

/* ---- the other ranks ---- */

enum { SLOT_ASKED, SLOT_JOB, SLOT_DONE_GAME, SLOT_FAILED, SLOT_CLOSED };

typedef struct slot {
    int state; /* SLOT_*, under worker_t.mu */
    int job;
    tour_game_result_t res;
    char error[HOYLE_ERROR_MAX];
    pthread_cond_t wake; /* the main thread gave this slot a job or closed it */
} slot_t;

typedef struct worker {
    const tour_config_t *c;
    tour_job_t *jobs;
    int num_jobs;
    pthread_mutex_t mu;
    pthread_cond_t done; /* a play thread finished its job (the main thread's wake-up) */
    slot_t *slots;
    int played;
} worker_t;

typedef struct slot_arg {
    worker_t *w;
    int i;
} slot_arg_t;

static void *play_thread(void *arg)
{
    slot_arg_t *a = arg;
    worker_t *w = a->w;
    slot_t *s = &w->slots[a->i];
    tour_player_t *p = tour_player_new();
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (s->state != SLOT_JOB && s->state != SLOT_CLOSED) pthread_cond_wait(&s->wake, &w->mu);
        if (s->state == SLOT_CLOSED) break;
        int job = s->job;
        pthread_mutex_unlock(&w->mu);
        tour_game_result_t res;
        int status = p ? tour_player_play(p, w->c, &w->jobs[job], &res)
                       : hoyle_error(HOYLE_ENOMEM, "tournament: out of memory");
        pthread_mutex_lock(&w->mu);
        if (status) {
            snprintf(s->error, sizeof s->error, "%s", hoyle_last_error());
            s->state = SLOT_FAILED;
        } else {
            s->res = res;
            s->state = SLOT_DONE_GAME;
        }
        pthread_cond_signal(&w->done);
    }
    pthread_mutex_unlock(&w->mu);
    tour_player_free(p);
    return NULL;
}

static void ask(int slot)
{
    int64_t v = slot;
    MPI_Send(&v, (int)sizeof v, MPI_BYTE, 0, TAG_ASK, MPI_COMM_WORLD);
}

/* Send what the slots finished (results, failures) and ask for their next jobs; take the jobs
 * rank 0 sent. Returns the number of slots still open. Caller holds w->mu. */
static int worker_step(worker_t *w, int nslots, int *busy)
{
    int open = 0;
    *busy = 0;
    for (int i = 0; i < nslots; i++) {
        slot_t *s = &w->slots[i];
        if (s->state == SLOT_DONE_GAME) {
            size_t n = result_size(&s->res);
            unsigned char *buf = malloc(n ? n : 1);
            if (buf) {
                result_pack(s->job, &s->res, buf);
                MPI_Send(buf, (int)n, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
                free(buf);
                w->played++;
            } else {
                snprintf(s->error, sizeof s->error, "out of memory sending job %d", s->job);
                s->state = SLOT_FAILED;
            }
            tour_game_result_done(&s->res);
        }
        if (s->state == SLOT_DONE_GAME || s->state == SLOT_FAILED) {
            if (s->state == SLOT_FAILED) {
                size_t n = sizeof(int32_t) + strlen(s->error) + 1;
                unsigned char buf[sizeof(int32_t) + HOYLE_ERROR_MAX];
                int32_t job = s->job;
                memcpy(buf, &job, sizeof job);
                memcpy(buf + sizeof job, s->error, n - sizeof job);
                MPI_Send(buf, (int)n, MPI_BYTE, 0, TAG_FAIL, MPI_COMM_WORLD);
            }
            s->state = SLOT_ASKED;
            ask(i);
            *busy = 1;
        }
        if (s->state != SLOT_CLOSED) open++;
    }
    int flag = 0;
    MPI_Status st;
    while (MPI_Iprobe(0, TAG_JOB, MPI_COMM_WORLD, &flag, &st), flag) {
        int64_t job[3];
        MPI_Recv(job, (int)sizeof job, MPI_BYTE, 0, TAG_JOB, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        *busy = 1;
        if (job[0] < 0 || job[0] >= nslots) continue; /* rank 0 echoes our own slot numbers */
        slot_t *s = &w->slots[job[0]];
        if (job[1] < 0) {
            s->state = SLOT_CLOSED;
            open--;
        } else if (job[1] >= w->num_jobs || w->jobs[job[1]].seed != (uint64_t)job[2]) {
            /* Another schedule here than on rank 0: playing it would put another tournament's
             * game under this job's number. */
            s->job = (int)job[1];
            snprintf(s->error, sizeof s->error,
                     "job %lld has another seed on this rank: its config differs from rank 0's",
                     (long long)job[1]);
            s->state = SLOT_FAILED;
        } else {
            s->job = (int)job[1];
            s->state = SLOT_JOB;
        }
        pthread_cond_signal(&s->wake);
    }
    return open;
}

static int run_worker(const tour_config_t *c, tour_run_stats_t *stats)
{
    worker_t w = {.c = c};
    int status = tournament_schedule(c, &w.jobs, &w.num_jobs);
    int nslots = c->workers < 1 ? 1 : c->workers;
    w.slots = calloc((size_t)nslots, sizeof *w.slots);
    pthread_t *th = calloc((size_t)nslots, sizeof *th);
    slot_arg_t *args = calloc((size_t)nslots, sizeof *args);
    pthread_mutex_init(&w.mu, NULL);
    pthread_cond_init(&w.done, NULL);
    int started = 0;
    if (w.slots && th && args && status == 0) {
        for (int i = 0; i < nslots; i++) {
            pthread_cond_init(&w.slots[i].wake, NULL);
            w.slots[i].state = SLOT_ASKED;
            args[i] = (slot_arg_t){&w, i};
        }
        for (int i = 0; i < nslots; i++) {
            if (pthread_create(&th[i], NULL, play_thread, &args[i]) != 0) break;
            started++;
        }
    }
    /* The slots are the threads that started; with none (or no schedule: rank 0 then refuses
     * the run on the job count) this rank plays nothing, and rank 0 counts no slot of it. */
    int64_t hello[2] = {started, status ? 0 : w.num_jobs};
    MPI_Send(hello, (int)sizeof hello, MPI_BYTE, 0, TAG_HELLO, MPI_COMM_WORLD);
    for (int i = 0; i < started; i++) ask(i);
    nslots = started;
    pthread_mutex_lock(&w.mu);
    for (;;) {
        int busy;
        if (worker_step(&w, nslots, &busy) == 0) break;
        if (busy) continue;
        /* While every thread plays, nothing can arrive (rank 0 answers only ASKs): sleep until
         * one finishes. While a thread waits for its job, poll for it every millisecond (a
         * blocking MPI receive would spin a core away from the play threads). */
        bool asked = false;
        for (int i = 0; i < nslots && !asked; i++) asked = w.slots[i].state == SLOT_ASKED;
        if (!asked) {
            pthread_cond_wait(&w.done, &w.mu);
        } else {
            pthread_mutex_unlock(&w.mu);
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
            pthread_mutex_lock(&w.mu);
        }
    }
    pthread_mutex_unlock(&w.mu);
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < started; i++) pthread_cond_destroy(&w.slots[i].wake);
    pthread_cond_destroy(&w.done);
    pthread_mutex_destroy(&w.mu);
    stats->played = w.played;
    free(args);
    free(th);
    free(w.slots);
    free(w.jobs);
    return HOYLE_OK;
}

int dist_tournament_run(const tour_config_t *c, FILE *progress, tour_run_stats_t *stats)
{
    int rank = 0, size = 1, init = 0;
    MPI_Initialized(&init);
    if (init) {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
    }
    if (size == 1) return tournament_run(c, progress, stats);
    memset(stats, 0, sizeof *stats);
    stats->ranks = size;
    tour_runner_t *r = NULL;
    int opened = 1;
    int status = HOYLE_OK;
    if (rank == 0) {
        status = tour_runner_open(c, progress, &r, stats);
        opened = status == 0;
    }
    MPI_Bcast(&opened, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!opened) return rank == 0 ? status : HOYLE_OK;
    if (rank != 0) return run_worker(c, stats);
    double busy = 0;
    status = run_master(r, size, &busy);
    int closed = tour_runner_close(r, stats);
    stats->ranks = size;
    stats->busy_s = busy;
    return status ? status : closed;
}
