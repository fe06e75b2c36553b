/* retro_run.c — what the two table generators (retro_gen.c, retro_unmove.c)
 * run the same way (retro_internal.h): the class being built and its index
 * range split among threads, a pass over every segment with a progress line,
 * the ply-level loop with its checkpoints, the codes written as the table or
 * the resume file (streamed in pieces, retro_file.c), and the resume file
 * read back. A pass's segments are independent: each thread
 * writes only its own segment's record, and the first failure is kept. */
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "solve/retro_internal.h"

int retro_run_init(retro_run_t *r, int threads, const char *dir)
{
    uint64_t size = r->size;
    r->level = 0;
    r->threads = threads > 0 ? (threads < RETRO_MAX_THREADS ? threads : RETRO_MAX_THREADS) : 2;
    for (int t = 0; t < r->threads; t++) {
        r->seg[t].lo = size * (uint64_t)t / (uint64_t)r->threads;
        r->seg[t].hi = size * (uint64_t)(t + 1) / (uint64_t)r->threads;
        r->seg[t].status = 0;
    }
    char part[16];
    snprintf(part, sizeof part, "%s.part", retro_metric_suffix(r->metric));
    int rc = retro_path(r->path, sizeof r->path, dir, r->name, retro_metric_suffix(r->metric));
    if (rc == 0) rc = retro_path(r->part, sizeof r->part, dir, r->name, part);
    return rc == 0 ? retro_tables_open(r->g, dir, &r->sub) : rc;
}

void retro_run_done(retro_run_t *r)
{
    retro_tables_close(r->sub);
    r->sub = NULL;
}

int retro_run_child(const retro_run_t *r, const void *after, uint64_t *idx)
{
    if (game_is_terminal(r->g, after)) return 0;
    char name[RETRO_CLASS_MAX];
    int rc = retro_index_locate(r->ix, r->g, after, name, idx);
    if (rc < 0) return rc;
    return strcmp(name, r->name) == 0;
}

int retro_run_external(const retro_run_t *r, const void *before, const void *after,
                       retro_code_t *out)
{
    int rc = retro_probe_move(r->sub, before, after, out);
    if (rc == 0 && r->metric == RETRO_DTC) *out = retro_converted(*out);
    return rc;
}

int retro_seg_fail(retro_seg_t *s, int rc)
{
    if (s->status == 0) {
        s->status = rc;
        snprintf(s->error, sizeof s->error, "%s", hoyle_last_error());
    }
    return rc;
}

typedef struct job {
    retro_run_t *r;
    void (*fn)(void *ctx, int t);
    void *ctx;
    int t;
} job_t;

static void *job_run(void *arg)
{
    job_t *j = arg;
    j->fn(j->ctx, j->t);
    retro_seg_t *s = &j->r->seg[j->t];
    atomic_store(&s->done, s->hi - s->lo); /* also on failure: the progress loop ends */
    return NULL;
}

int retro_run_all(retro_run_t *r, void (*fn)(void *ctx, int t), void *ctx, progress_t *p)
{
    pthread_t tid[RETRO_MAX_THREADS];
    job_t jobs[RETRO_MAX_THREADS];
    int started = 0;
    for (int t = 0; t < r->threads; t++) {
        atomic_store(&r->seg[t].done, 0);
        jobs[t] = (job_t){r, fn, ctx, t};
    }
    for (int t = 0; t < r->threads; t++, started++)
        if (pthread_create(&tid[t], NULL, job_run, &jobs[t]) != 0) break;
    for (int t = started; t < r->threads; t++) job_run(&jobs[t]); /* no thread: run here */
    while (p) {
        uint64_t done = 0;
        for (int t = 0; t < r->threads; t++) done += atomic_load(&r->seg[t].done);
        progress_update(p, (int64_t)done, (int64_t)r->size, NULL, done == r->size);
        if (done == r->size) break;
        nanosleep(&(struct timespec){.tv_nsec = 200000000}, NULL);
    }
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
    for (int t = 0; t < r->threads; t++)
        if (r->seg[t].status) return hoyle_error(r->seg[t].status, "%s", r->seg[t].error);
    return 0;
}

int retro_run_write(const retro_run_t *r, const char *path, int part, retro_fill_fn fill, void *ctx,
                    retro_header_t *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, retro_magic(r->metric, part), 8);
    snprintf(h->game, sizeof h->game, "%s", r->g->spec);
    snprintf(h->name, sizeof h->name, "%s", r->name); /* zero-padded: equal builds, equal bytes */
    h->size = r->size;
    h->level = part ? (uint32_t)r->level : 0;
    return retro_table_stream(path, h, fill, ctx, 0);
}

int retro_run_resume(retro_run_t *r, FILE *log, retro_table_t *t)
{
    const char *part = r->part;
    r->level = 0;
    t->map = NULL, t->codes = NULL;
    if (access(part, F_OK) != 0) return 0;
    int rc = retro_table_map(part, r->g->spec, r->name, 1, (int)r->metric, t);
    if (rc < 0) return rc;
    if (t->h.size != r->size) {
        retro_table_unmap(t);
        return hoyle_error(HOYLE_EINVAL, "%s: %llu indices, the class has %llu", part,
                           (unsigned long long)t->h.size, (unsigned long long)r->size);
    }
    r->level = (int)t->h.level;
    if (log) fprintf(log, "[%s] resuming after ply level %d (%s)\n", r->name, r->level, part);
    return 0;
}

int retro_run_levels(retro_run_t *r, const retro_gen_opts_t *o, const retro_levels_t *lv, void *ctx)
{
    double every = o->checkpoint_seconds > 0 ? o->checkpoint_seconds : 30.0;
    double t0 = clock_seconds(), last = t0, last_note = t0;
    for (;;) {
        r->level++;
        if (r->level > RETRO_DIST_MAX)
            return hoyle_error(HOYLE_EFULL, "%s: distances past %d plies", r->name, RETRO_DIST_MAX);
        int rc = retro_run_all(r, lv->pass, ctx, NULL);
        if (rc < 0) return rc;
        uint64_t decided = lv->collect(ctx);
        double now = clock_seconds();
        if (o->progress && now - last_note >= 2.0) {
            fprintf(o->progress, "[%s] ply level %d: %llu decided", r->name, r->level,
                    (unsigned long long)decided);
            if (lv->note_seconds) fprintf(o->progress, " (%.0f s of levels)", now - t0);
            fputc('\n', o->progress);
            last_note = now;
        }
        if (decided == 0 && r->level > lv->max_ext) return 0;
        if (now - last >= every || r->level == o->stop_after_level) {
            retro_header_t h;
            if ((rc = retro_run_write(r, r->part, 1, lv->fill, ctx, &h)) < 0) return rc;
            last = now;
        }
        if (r->level == o->stop_after_level)
            return hoyle_error(HOYLE_ESTATE, "%s: stopped after ply level %d", r->name, r->level);
    }
}

int retro_run_finish(const retro_run_t *r, retro_fill_fn fill, void *ctx, FILE *log,
                     const char *what, double t0)
{
    retro_header_t h;
    int rc = retro_run_write(r, r->path, 0, fill, ctx, &h);
    if (rc < 0) return rc;
    unlink(r->part);
    if (log)
        fprintf(log,
                "[%s] %llu positions: %llu wins, %llu draws, %llu losses; longest win %u "
                "plies; %s; %.1f s\n",
                r->name, (unsigned long long)(h.wins + h.draws + h.losses),
                (unsigned long long)h.wins, (unsigned long long)h.draws,
                (unsigned long long)h.losses, h.longest_win, what, clock_seconds() - t0);
    return 0;
}
