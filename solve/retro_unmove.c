/* retro_unmove.c — building one endgame table (retro.h) by walking un-moves
 * back from the positions each level decides, without the move graph.
 *
 * The scheme of the published generators (Thompson, "Retrograde analysis of
 * certain endgames", ICCA Journal 9(3), 1986; Wirth and Nievergelt's and
 * Nalimov's generators): two arrays over the class's indices,
 *     codes[i]  the value once decided; before that the position's best
 *               "external" value (moves that end the game or leave the
 *               class, read from the returns or the smaller tables; under
 *               RETRO_DTC one ply each, retro_run_external), or EXT_NONE;
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
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/check.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/progress.h"
#include "solve/retro_internal.h"

#define EXT_NONE  RETRO_INVALID /* no external child */
#define DONE      0x80u         /* aux: decided */
#define COUNT_MAX 0x7Fu
#define MAX_KIDS  512 /* in-class moves or un-moves of one position */

/* A thread's buffers, beside its retro_seg_t (the same t). */
typedef struct useg {
    retro_seg_t *rs;  /* its indices, progress and status */
    void *state;      /* a state buffer */
    uint64_t decided; /* this level's decisions */
} useg_t;

typedef struct ugen {
    retro_run_t run; /* the class, its segments and level */
    retro_code_t *codes;
    uint8_t *aux;
    const retro_code_t *resumed; /* the resume file's codes, during the initial pass */
    useg_t seg[RETRO_MAX_THREADS];
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

static int useg_fail(useg_t *s, int rc) { return retro_seg_fail(s->rs, rc); }

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
            k->seg, hoyle_error(HOYLE_EFULL, "%s: more than %d moves", k->gen->run.name, MAX_KIDS));
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
    uint64_t idx;
    int in = retro_run_child(&gen->run, after, &idx);
    if (in < 0) return useg_fail(k->seg, in);
    if (in) {
        if (game_current_player(gen->run.g, after) == k->mover)
            return useg_fail(
                k->seg,
                hoyle_error(HOYLE_EUNSUP, "%s: un-moves need alternating movers", gen->run.name));
        retro_code_t c = gen->resumed ? gen->resumed[idx] : RETRO_DRAW;
        /* taken off already: won for its mover before the last level written */
        if (retro_is_win(c) && retro_dist(c) < gen->run.level) return 0;
        return add_kid(k, idx);
    }
    retro_code_t c;
    int rc = retro_run_external(&gen->run, k->before, after, &c);
    if (rc < 0) return useg_fail(k->seg, rc);
    if (k->ext == EXT_NONE || retro_code_cmp(c, k->ext) > 0) k->ext = c;
    return 0;
}

/* Step 1 of the file comment over segment t. */
static void init_range(void *ctx, int t)
{
    ugen_t *gen = ctx;
    useg_t *s = &gen->seg[t];
    retro_seg_t *r = s->rs;
    kids_t *k = malloc(sizeof *k);
    if (k == NULL) {
        useg_fail(s, hoyle_error(HOYLE_ENOMEM, "%s: out of memory", gen->run.name));
        return;
    }
    for (uint64_t i = r->lo; i < r->hi && r->status == 0; i++) {
        if (!gen->run.ix->unindex(gen->run.g, gen->run.name, i, s->state)) {
            gen->codes[i] = RETRO_INVALID, gen->aux[i] = DONE;
        } else if (game_is_terminal(gen->run.g, s->state)) {
            gen->codes[i] = retro_terminal_code(gen->run.g, gen->run.ix, s->state),
            gen->aux[i] = DONE;
        } else if (gen->resumed && gen->resumed[i] != RETRO_DRAW) {
            gen->codes[i] = gen->resumed[i], gen->aux[i] = DONE;
        } else {
            k->gen = gen, k->seg = s, k->before = s->state, k->ext = EXT_NONE, k->n = 0;
            k->mover = game_current_player(gen->run.g, s->state);
            game_whole_moves(gen->run.g, s->state, forward, k);
            if (k->n > (int)COUNT_MAX)
                useg_fail(s, hoyle_error(HOYLE_EFULL, "%s: %d children (at most %u)", gen->run.name,
                                         k->n, COUNT_MAX));
            gen->codes[i] = k->ext, gen->aux[i] = (uint8_t)k->n;
        }
        if ((i & 1023) == 0) atomic_store(&r->done, i - r->lo);
    }
    free(k);
}

static int backward(const void *pred, void *vctx)
{
    kids_t *k = vctx;
    char name[RETRO_CLASS_MAX];
    uint64_t idx;
    int rc = retro_index_locate(k->gen->run.ix, k->gen->run.g, pred, name, &idx);
    if (rc < 0) return useg_fail(k->seg, rc);
    if (strcmp(name, k->gen->run.name) != 0)
        return useg_fail(k->seg, hoyle_error(HOYLE_EINVAL, "%s: an un-move led to class %s",
                                             k->gen->run.name, name));
    return add_kid(k, idx);
}

/* One child won for its mover: take it off predecessor p's count. */
static void count_down(ugen_t *gen, useg_t *s, uint64_t p, int n)
{
    uint8_t a = load_aux(gen, p);
    do {
        if (a & DONE) return;
        if (a == 0) {
            useg_fail(s, hoyle_error(HOYLE_ESTATE, "%s: index %llu counted below zero",
                                     gen->run.name, (unsigned long long)p));
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
    retro_seg_t *r = s->rs;
    int n = gen->run.level;
    s->decided = 0;
    for (uint64_t i = r->lo; i < r->hi && r->status == 0; i++) {
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
        if (!gen->run.ix->unindex(gen->run.g, gen->run.name, i, s->state)) {
            useg_fail(s, hoyle_error(HOYLE_ESTATE, "%s: decided index %llu names no position",
                                     gen->run.name, (unsigned long long)i));
            return;
        }
        k->gen = gen, k->seg = s, k->n = 0;
        if (gen->run.ix->unmoves(gen->run.g, s->state, backward, k) < 0) return;
        retro_code_t up = retro_back_up(c, 0);
        for (int j = 0; j < k->n; j++) {
            if (load_aux(gen, k->idx[j]) & DONE) continue;
            if (retro_is_win(up))
                decide(gen, s, k->idx[j], up);
            else
                count_down(gen, s, k->idx[j], n);
        }
        if ((i & 1023) == 0) atomic_store(&r->done, i - r->lo);
    }
}

/* Step 2 over segment t, with its own un-move buffer. */
static void level_job(void *ctx, int t)
{
    ugen_t *gen = ctx;
    kids_t *k = malloc(sizeof *k);
    if (k == NULL)
        useg_fail(&gen->seg[t], hoyle_error(HOYLE_ENOMEM, "%s: out of memory", gen->run.name));
    else
        level_range(gen, &gen->seg[t], k);
    free(k);
}

static uint64_t collect(void *ctx)
{
    const ugen_t *gen = ctx;
    uint64_t decided = 0;
    for (int t = 0; t < gen->run.threads; t++) decided += gen->seg[t].decided;
    return decided;
}

/* The codes as a table holds them (undecided: draw), streamed to the resume
 * file and the table: no copy of the codes. */
static void fill_codes(void *ctx, uint64_t first, size_t n, retro_code_t *out)
{
    const ugen_t *gen = ctx;
    for (size_t k = 0; k < n; k++)
        out[k] = gen->aux[first + k] & DONE ? gen->codes[first + k] : RETRO_DRAW;
}

/* The levels (step 2) from gen->run.level + 1 to the end. */
static int run_levels(ugen_t *gen, const retro_gen_opts_t *o)
{
    retro_levels_t lv = {level_job, collect, fill_codes, 0, 1};
    for (uint64_t i = 0; i < gen->run.size; i++)
        if (!(gen->aux[i] & DONE) && gen->codes[i] != EXT_NONE &&
            retro_dist(gen->codes[i]) > lv.max_ext)
            lv.max_ext = retro_dist(gen->codes[i]);
    return retro_run_levels(&gen->run, o, &lv, gen);
}

static int build(ugen_t *gen, const char *dir, const retro_gen_opts_t *o)
{
    int rc = retro_run_init(&gen->run, o->threads, dir);
    if (rc < 0) return rc;
    gen->codes = malloc(gen->run.size * sizeof *gen->codes);
    gen->aux = malloc(gen->run.size);
    if (gen->codes == NULL || gen->aux == NULL)
        return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", gen->run.name);
    size_t ss =
        (gen->run.g->state_size + GAME_STATE_ALIGN - 1) / GAME_STATE_ALIGN * GAME_STATE_ALIGN;
    for (int t = 0; t < gen->run.threads; t++) {
        useg_t *s = &gen->seg[t];
        s->rs = &gen->run.seg[t];
        s->state = aligned_alloc(GAME_STATE_ALIGN, ss);
        if (s->state == NULL) return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", gen->run.name);
    }
    double t0 = clock_seconds();
    retro_table_t res;
    if ((rc = retro_run_resume(&gen->run, o->progress, &res)) < 0) return rc;
    gen->resumed = res.codes; /* NULL: no resume file */
    progress_t p;
    char label[64];
    snprintf(label, sizeof label, "[%s] initial pass", gen->run.name);
    progress_start(&p, o->progress, label, "positions", 0);
    rc = retro_run_all(&gen->run, init_range, gen, &p);
    if (gen->resumed) retro_table_unmap(&res), gen->resumed = NULL;
    if (rc < 0 || (rc = run_levels(gen, o)) < 0) return rc;
    char what[64];
    snprintf(what, sizeof what, "un-moves, %d levels", gen->run.level);
    return retro_run_finish(&gen->run, fill_codes, gen, o->progress, what, t0);
}

int retro_unmove_build(const game_t *g, const retro_index_t *ix, const char *name, uint64_t size,
                       const char *dir, const retro_gen_opts_t *o)
{
    ugen_t *gen = calloc(1, sizeof *gen);
    if (gen == NULL) return hoyle_error(HOYLE_ENOMEM, "tablebase: out of memory");
    gen->run.g = g, gen->run.ix = ix, gen->run.size = size, gen->run.metric = o->metric;
    snprintf(gen->run.name, sizeof gen->run.name, "%s", name);
    int rc = build(gen, dir, o);
    for (int t = 0; t < RETRO_MAX_THREADS; t++) free(gen->seg[t].state);
    free(gen->codes);
    free(gen->aux);
    retro_run_done(&gen->run);
    free(gen);
    return rc;
}
