/* retro_unmove.c — building one endgame table (retro.h) by walking un-moves
 * back from the positions each level decides, without the move graph.
 *
 * The scheme of the published generators (Thompson, "Retrograde analysis of
 * certain endgames", ICCA Journal 9(3), 1986; Wirth and Nievergelt's and
 * Nalimov's generators): two arrays over the class's indices,
 *     codes[i]  the value once decided; before that the position's best
 *               "external" value (moves that end the game or leave the
 *               class, read from the returns or the smaller tables), or
 *               EXT_NONE;
 *     aux[i]    DONE | the number of distinct in-class children (by index)
 *               not yet known to be won for their mover (at most 127),
 * three bytes a position, against 12 + 4 per edge for the graph.
 * 1. Initial pass: terminal positions get their value (distance 0, level 0);
 *    every other one its external value and its count, from its forward
 *    moves (game_whole_moves).
 * 2. Level n = 1, 2, ...: every position decided at level n-1 (n >= 2; the
 *    terminal ones are already in their parents' external values) is
 *    un-moved (retro_index_t.unmoves); each distinct predecessor P not yet
 *    decided is a win in n when the child is lost for its mover, else its
 *    count drops by one, and at zero P is a loss in n when its external
 *    value allows one by now (none, or a loss within n plies). A scan of the
 *    same level decides what the external values bring at n (a win in n; a
 *    loss in n with the count at zero). A position decided at level n is
 *    given distance n, as in retro_gen.c, so both build the same table.
 * 3. What is undecided when a level decides nothing and no external value is
 *    still to come is a draw.
 * Threads split the index range. Within a level the decisions do not depend
 * on each other (a count reaches zero only when no child is lost for its
 * mover, so a position is never both a win and a loss at one level, and
 * every decider of a position writes the same code), and a level reads only
 * what earlier levels decided (positions decided at n have distance n): the
 * table does not depend on the threads or their timing.
 * After a level the codes (undecided as draws) go to NAME.tb.part as
 * retro_gen.c writes them; a resumed build redoes the initial pass with the
 * counts of the children decided before the last level written taken off,
 * and goes on from the next level: the same file as a build never stopped. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/check.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/progress.h"
#include "solve/retro_internal.h"

#define MAX_THREADS 16
#define EXT_NONE    RETRO_INVALID /* no external child */
#define DONE        0x80u         /* aux: decided */
#define COUNT_MAX   0x7Fu
#define MAX_KIDS    512 /* in-class moves or un-moves of one position */

typedef struct useg {
    uint64_t lo, hi;
    void *state, *kid;     /* state buffers */
    uint64_t decided;      /* this level's decisions */
    _Atomic uint64_t done; /* progress of a pass */
    int status;
    char error[HOYLE_ERROR_MAX];
} useg_t;

typedef struct ugen {
    const game_t *g;
    const retro_index_t *ix;
    char name[RETRO_CLASS_MAX];
    uint64_t size;
    retro_tables_t *sub;
    retro_code_t *codes;
    uint8_t *aux;
    const retro_code_t *resumed; /* the resume file's codes, during the initial pass */
    int threads, level;
    useg_t seg[MAX_THREADS];
} ugen_t;

typedef struct kids {
    ugen_t *gen;
    useg_t *seg;
    const void *before;
    int mover;
    retro_code_t ext;
    int n;
    uint64_t idx[MAX_KIDS];
} kids_t;

static int useg_fail(useg_t *s, int rc)
{
    if (s->status == 0) {
        s->status = rc;
        snprintf(s->error, sizeof s->error, "%s", hoyle_last_error());
    }
    return rc;
}

static retro_code_t load_code(const ugen_t *gen, uint64_t i)
{
    return __atomic_load_n(&gen->codes[i], __ATOMIC_ACQUIRE);
}

static uint8_t load_aux(const ugen_t *gen, uint64_t i)
{
    return __atomic_load_n(&gen->aux[i], __ATOMIC_ACQUIRE);
}

/* Decide position i as `code` at this level. Every decider of a position at
 * one level writes the same code (file comment), so the code goes first and
 * DONE after it: a reader that sees DONE sees the code. */
static void decide(ugen_t *gen, useg_t *s, uint64_t i, retro_code_t code)
{
    __atomic_store_n(&gen->codes[i], code, __ATOMIC_RELEASE);
    if (!(__atomic_fetch_or(&gen->aux[i], DONE, __ATOMIC_ACQ_REL) & DONE)) s->decided++;
}

/* Whether an undecided position with external value `ext` and no child left
 * to come is lost at level n. */
static bool loss_due(retro_code_t ext, int n)
{
    return ext == EXT_NONE || (retro_is_loss(ext) && retro_dist(ext) <= n);
}

static int add_kid(kids_t *k, uint64_t idx)
{
    for (int j = 0; j < k->n; j++)
        if (k->idx[j] == idx) return 0;
    if (k->n == MAX_KIDS)
        return useg_fail(
            k->seg, hoyle_error(HOYLE_EFULL, "%s: more than %d moves", k->gen->name, MAX_KIDS));
    k->idx[k->n++] = idx;
    return 0;
}

/* A forward move of the initial pass: an in-class child counted once, any
 * other folded into the external value. */
static int forward(const int *actions, int n, const void *after, void *vctx)
{
    (void)actions, (void)n;
    kids_t *k = vctx;
    ugen_t *gen = k->gen;
    if (!game_is_terminal(gen->g, after)) {
        char name[RETRO_CLASS_MAX];
        uint64_t idx;
        int rc = retro_index_locate(gen->ix, gen->g, after, name, &idx);
        if (rc < 0) return useg_fail(k->seg, rc);
        if (strcmp(name, gen->name) == 0) {
            if (game_current_player(gen->g, after) == k->mover)
                return useg_fail(
                    k->seg,
                    hoyle_error(HOYLE_EUNSUP, "%s: un-moves need alternating movers", gen->name));
            retro_code_t c = gen->resumed ? gen->resumed[idx] : RETRO_DRAW;
            /* taken off already: won for its mover before the last level written */
            if (retro_is_win(c) && retro_dist(c) < gen->level) return 0;
            return add_kid(k, idx);
        }
    }
    retro_code_t c;
    int rc = retro_probe_move(gen->sub, k->before, after, &c);
    if (rc < 0) return useg_fail(k->seg, rc);
    if (k->ext == EXT_NONE || retro_code_cmp(c, k->ext) > 0) k->ext = c;
    return 0;
}

/* Step 1 of the file comment over one segment. */
static void init_range(ugen_t *gen, useg_t *s)
{
    kids_t *k = malloc(sizeof *k);
    if (k == NULL) {
        useg_fail(s, hoyle_error(HOYLE_ENOMEM, "%s: out of memory", gen->name));
        atomic_store(&s->done, s->hi - s->lo);
        return;
    }
    for (uint64_t i = s->lo; i < s->hi && s->status == 0; i++) {
        if (!gen->ix->unindex(gen->g, gen->name, i, s->state)) {
            gen->codes[i] = RETRO_INVALID, gen->aux[i] = DONE;
        } else if (game_is_terminal(gen->g, s->state)) {
            gen->codes[i] = retro_terminal_code(gen->g, gen->ix, s->state), gen->aux[i] = DONE;
        } else if (gen->resumed && gen->resumed[i] != RETRO_DRAW) {
            gen->codes[i] = gen->resumed[i], gen->aux[i] = DONE;
        } else {
            k->gen = gen, k->seg = s, k->before = s->state, k->ext = EXT_NONE, k->n = 0;
            k->mover = game_current_player(gen->g, s->state);
            game_whole_moves(gen->g, s->state, forward, k);
            if (k->n > (int)COUNT_MAX)
                useg_fail(s, hoyle_error(HOYLE_EFULL, "%s: %d children (at most %u)", gen->name,
                                         k->n, COUNT_MAX));
            gen->codes[i] = k->ext, gen->aux[i] = (uint8_t)k->n;
        }
        if ((i & 1023) == 0) atomic_store(&s->done, i - s->lo);
    }
    free(k);
    atomic_store(&s->done, s->hi - s->lo); /* also on failure: the progress loop ends */
}

static int backward(const void *pred, void *vctx)
{
    kids_t *k = vctx;
    char name[RETRO_CLASS_MAX];
    uint64_t idx;
    int rc = retro_index_locate(k->gen->ix, k->gen->g, pred, name, &idx);
    if (rc < 0) return useg_fail(k->seg, rc);
    if (strcmp(name, k->gen->name) != 0)
        return useg_fail(k->seg, hoyle_error(HOYLE_EINVAL, "%s: an un-move led to class %s",
                                             k->gen->name, name));
    return add_kid(k, idx);
}

/* One child won for its mover: take it off predecessor p's count. */
static void count_down(ugen_t *gen, useg_t *s, uint64_t p, int n)
{
    uint8_t a = load_aux(gen, p);
    do {
        if (a & DONE) return;
        if (a == 0) {
            useg_fail(s, hoyle_error(HOYLE_ESTATE, "%s: index %llu counted below zero", gen->name,
                                     (unsigned long long)p));
            return;
        }
    } while (!__atomic_compare_exchange_n(&gen->aux[p], &a, (uint8_t)(a - 1), true,
                                          __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
    if (a - 1 == 0 && loss_due(load_code(gen, p), n)) decide(gen, s, p, RETRO_LOSS | n);
}

/* Step 2 for the positions of one segment: un-move those decided at n-1,
 * and decide those whose external value comes due at n. */
static void level_range(ugen_t *gen, useg_t *s, kids_t *k)
{
    int n = gen->level;
    s->decided = 0;
    for (uint64_t i = s->lo; i < s->hi && s->status == 0; i++) {
        uint8_t a = load_aux(gen, i);
        retro_code_t c = load_code(gen, i);
        if (!(a & DONE)) {
            if (retro_is_win(c) && retro_dist(c) == n)
                decide(gen, s, i, c);
            else if (a == 0 && retro_is_loss(c) && retro_dist(c) == n)
                decide(gen, s, i, c);
            continue;
        }
        if (n < 2 || retro_dist(c) != n - 1 || retro_sign(c) == 0) continue;
        if (!gen->ix->unindex(gen->g, gen->name, i, s->state)) {
            useg_fail(s, hoyle_error(HOYLE_ESTATE, "%s: decided index %llu names no position",
                                     gen->name, (unsigned long long)i));
            return;
        }
        k->gen = gen, k->seg = s, k->n = 0;
        if (gen->ix->unmoves(gen->g, s->state, backward, k) < 0) return;
        retro_code_t up = retro_back_up(c, 0);
        for (int j = 0; j < k->n; j++) {
            if (load_aux(gen, k->idx[j]) & DONE) continue;
            if (retro_is_win(up))
                decide(gen, s, k->idx[j], up);
            else
                count_down(gen, s, k->idx[j], n);
        }
        if ((i & 1023) == 0) atomic_store(&s->done, i - s->lo);
    }
}

typedef struct ujob {
    ugen_t *gen;
    useg_t *seg;
    int init;
} ujob_t;

static void *ujob_run(void *arg)
{
    ujob_t *j = arg;
    if (j->init) {
        init_range(j->gen, j->seg);
        return NULL;
    }
    kids_t *k = malloc(sizeof *k);
    if (k == NULL)
        useg_fail(j->seg, hoyle_error(HOYLE_ENOMEM, "%s: out of memory", j->gen->name));
    else
        level_range(j->gen, j->seg, k);
    free(k);
    atomic_store(&j->seg->done, j->seg->hi - j->seg->lo);
    return NULL;
}

/* Run a pass on every segment, one thread each; the first failure, if any. */
static int run_all(ugen_t *gen, int init, progress_t *p)
{
    pthread_t tid[MAX_THREADS];
    ujob_t jobs[MAX_THREADS];
    int started = 0;
    for (int t = 0; t < gen->threads; t++) {
        atomic_store(&gen->seg[t].done, 0);
        jobs[t] = (ujob_t){gen, &gen->seg[t], init};
    }
    for (int t = 0; t < gen->threads; t++, started++)
        if (pthread_create(&tid[t], NULL, ujob_run, &jobs[t]) != 0) break;
    for (int t = started; t < gen->threads; t++) ujob_run(&jobs[t]); /* no thread: run here */
    while (p) {
        uint64_t done = 0;
        for (int t = 0; t < gen->threads; t++) done += atomic_load(&gen->seg[t].done);
        progress_update(p, (int64_t)done, (int64_t)gen->size, NULL, done == gen->size);
        if (done == gen->size) break;
        nanosleep(&(struct timespec){.tv_nsec = 200000000}, NULL);
    }
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
    for (int t = 0; t < gen->threads; t++)
        if (gen->seg[t].status) return hoyle_error(gen->seg[t].status, "%s", gen->seg[t].error);
    return 0;
}

/* The codes as a table holds them (undecided: draw) into `out`. */
static void final_codes(const ugen_t *gen, retro_code_t *out)
{
    for (uint64_t i = 0; i < gen->size; i++)
        out[i] = gen->aux[i] & DONE ? gen->codes[i] : RETRO_DRAW;
}

static int write_codes(ugen_t *gen, const char *path, const char *magic, uint32_t level,
                       retro_code_t *buf, retro_header_t *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, magic, 8);
    snprintf(h->game, sizeof h->game, "%s", gen->g->spec);
    snprintf(h->name, sizeof h->name, "%s", gen->name); /* zero-padded: equal builds, equal bytes */
    h->size = gen->size;
    h->level = level;
    final_codes(gen, buf);
    retro_header_count(h, buf);
    return retro_table_write(path, h, buf);
}

/* Resume file: one more copy of the codes for as long as it is written. */
static int checkpoint(ugen_t *gen, const char *part)
{
    retro_code_t *buf = malloc(gen->size * sizeof *buf);
    if (buf == NULL) return hoyle_error(HOYLE_ENOMEM, "%s: out of memory (resume file)", part);
    retro_header_t h;
    int rc = write_codes(gen, part, RETRO_MAGIC_PART, (uint32_t)gen->level, buf, &h);
    free(buf);
    return rc;
}

/* The levels (step 2) from gen->level + 1 to the end. */
static int run_levels(ugen_t *gen, const char *part, const retro_gen_opts_t *o)
{
    int max_ext = 0;
    for (uint64_t i = 0; i < gen->size; i++)
        if (!(gen->aux[i] & DONE) && gen->codes[i] != EXT_NONE &&
            retro_dist(gen->codes[i]) > max_ext)
            max_ext = retro_dist(gen->codes[i]);
    double every = o->checkpoint_seconds > 0 ? o->checkpoint_seconds : 30.0;
    double t0 = clock_seconds(), last = t0, last_note = t0;
    for (;;) {
        gen->level++;
        if (gen->level > RETRO_DIST_MAX)
            return hoyle_error(HOYLE_EFULL, "%s: distances past %d plies", gen->name,
                               RETRO_DIST_MAX);
        int rc = run_all(gen, 0, NULL);
        if (rc < 0) return rc;
        uint64_t decided = 0;
        for (int t = 0; t < gen->threads; t++) decided += gen->seg[t].decided;
        double now = clock_seconds();
        if (o->progress && now - last_note >= 2.0) {
            fprintf(o->progress, "[%s] ply level %d: %llu decided (%.0f s of levels)\n", gen->name,
                    gen->level, (unsigned long long)decided, now - t0);
            last_note = now;
        }
        if (decided == 0 && gen->level > max_ext) return 0;
        if (now - last >= every || gen->level == o->stop_after_level) {
            if ((rc = checkpoint(gen, part)) < 0) return rc;
            last = now;
        }
        if (gen->level == o->stop_after_level)
            return hoyle_error(HOYLE_ESTATE, "%s: stopped after ply level %d", gen->name,
                               gen->level);
    }
}

/* Map the resume file, if any; sets gen->level and gen->resumed. */
static int resume(ugen_t *gen, const char *part, retro_table_t *t, FILE *log)
{
    gen->level = 0;
    if (access(part, F_OK) != 0) return 0;
    int rc = retro_table_map(part, gen->g->spec, gen->name, 1, t);
    if (rc < 0) return rc;
    if (t->h.size != gen->size) {
        retro_table_unmap(t);
        return hoyle_error(HOYLE_EINVAL, "%s: %llu indices, the class has %llu", part,
                           (unsigned long long)t->h.size, (unsigned long long)gen->size);
    }
    gen->resumed = t->codes;
    gen->level = (int)t->h.level;
    if (log) fprintf(log, "[%s] resuming after ply level %d (%s)\n", gen->name, gen->level, part);
    return 0;
}

static int build(ugen_t *gen, const char *dir, const retro_gen_opts_t *o)
{
    char path[4096], part[4096];
    int rc = retro_path(path, sizeof path, dir, gen->name, ".tb");
    if (rc == 0) rc = retro_path(part, sizeof part, dir, gen->name, ".tb.part");
    if (rc == 0) rc = retro_tables_open(gen->g, dir, &gen->sub);
    if (rc < 0) return rc;
    gen->codes = malloc(gen->size * sizeof *gen->codes);
    gen->aux = malloc(gen->size);
    if (gen->codes == NULL || gen->aux == NULL)
        return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", gen->name);
    size_t ss = (gen->g->state_size + GAME_STATE_ALIGN - 1) / GAME_STATE_ALIGN * GAME_STATE_ALIGN;
    for (int t = 0; t < gen->threads; t++) {
        useg_t *s = &gen->seg[t];
        s->lo = gen->size * (uint64_t)t / (uint64_t)gen->threads;
        s->hi = gen->size * (uint64_t)(t + 1) / (uint64_t)gen->threads;
        s->state = aligned_alloc(GAME_STATE_ALIGN, ss);
        if (s->state == NULL) return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", gen->name);
    }
    double t0 = clock_seconds();
    retro_table_t res = {0};
    if ((rc = resume(gen, part, &res, o->progress)) < 0) return rc;
    progress_t p;
    char label[64];
    snprintf(label, sizeof label, "[%s] initial pass", gen->name);
    progress_start(&p, o->progress, label, "positions", 0);
    rc = run_all(gen, 1, &p);
    if (gen->resumed) retro_table_unmap(&res), gen->resumed = NULL;
    if (rc < 0 || (rc = run_levels(gen, part, o)) < 0) return rc;
    /* the final codes go over the external values: no second copy */
    for (uint64_t i = 0; i < gen->size; i++)
        if (!(gen->aux[i] & DONE)) gen->codes[i] = RETRO_DRAW;
    retro_header_t h = {0};
    memcpy(h.magic, RETRO_MAGIC, 8);
    snprintf(h.game, sizeof h.game, "%s", gen->g->spec);
    snprintf(h.name, sizeof h.name, "%s", gen->name);
    h.size = gen->size;
    retro_header_count(&h, gen->codes);
    if ((rc = retro_table_write(path, &h, gen->codes)) < 0) return rc;
    unlink(part);
    if (o->progress)
        fprintf(o->progress,
                "[%s] %llu positions: %llu wins, %llu draws, %llu losses; longest win %u "
                "plies; un-moves, %d levels; %.1f s\n",
                gen->name, (unsigned long long)(h.wins + h.draws + h.losses),
                (unsigned long long)h.wins, (unsigned long long)h.draws,
                (unsigned long long)h.losses, h.longest_win, gen->level, clock_seconds() - t0);
    return 0;
}

int retro_unmove_build(const game_t *g, const retro_index_t *ix, const char *name, uint64_t size,
                       const char *dir, const retro_gen_opts_t *o)
{
    ugen_t *gen = calloc(1, sizeof *gen);
    if (gen == NULL) return hoyle_error(HOYLE_ENOMEM, "tablebase: out of memory");
    gen->g = g, gen->ix = ix, gen->size = size;
    snprintf(gen->name, sizeof gen->name, "%s", name);
    gen->threads = o->threads > 0 ? (o->threads < MAX_THREADS ? o->threads : MAX_THREADS) : 2;
    int rc = build(gen, dir, o);
    for (int t = 0; t < MAX_THREADS; t++) free(gen->seg[t].state);
    free(gen->codes);
    free(gen->aux);
    retro_tables_close(gen->sub);
    free(gen);
    return rc;
}
