/* retro_gen.c — building one endgame table (retro.h) by forward iteration
 * to the fixpoint over the class's move graph, for the classes whose game
 * gives no un-moves (the others: retro_unmove.c, called from generate()).
 *
 * 1. Graph: every index is unranked; a terminal position gets its value from
 *    the game's returns (distance 0); every whole move of another position is
 *    an edge to a position of the same class, or, when it ends the game or
 *    leaves the class (a capture), folds into the position's best "external"
 *    value, read from the returns or the smaller class's table.
 * 2. Levels n = 1, 2, ...: an undecided position is decided at level n when
 *    a child decided earlier is lost for its mover (a win in n plies), or
 *    every child is decided and won for its mover (a loss in n, the slowest);
 *    external values count from the level of their distance (distance to
 *    conversion, RETRO_DTC: every external value one ply, retro_run_external,
 *    so a distance counts to the first move that leaves the class or ends
 *    the game). Every value
 *    decided at level n has distance n (checked), so the result is the exact
 *    distance to the end. The decisions of a level are collected per thread
 *    and applied after it, so a level reads only earlier levels: the table
 *    does not depend on the number of threads or their timing.
 * 3. What is left undecided when a level decides nothing and no external
 *    value is still to come is a draw.
 * After a level the codes are written to NAME.tb.part (at most every
 * checkpoint_seconds): levels are a pure function of the codes before them,
 * so a resumed build (graph rebuilt, codes read back) writes the same file
 * as one never interrupted. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/check.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/progress.h"
#include "solve/retro_internal.h"

#define EDGE_SAME 0x80000000u   /* the mover moves again in the child */
#define EXT_NONE  RETRO_INVALID /* no external child */

/* A thread's part of the graph, beside its retro_seg_t (the same t). */
typedef struct seg {
    retro_seg_t *rs; /* its indices, progress and status */
    uint64_t *off;   /* hi - lo + 1 offsets into edges */
    uint32_t *edges; /* child index | EDGE_SAME */
    size_t n, cap;   /* edges used, allocated */
    uint64_t *chg;   /* a level's decisions: index << 16 | code */
    size_t nchg, capchg;
} seg_t;

typedef struct gen {
    retro_run_t run; /* the class, its segments and level */
    retro_code_t *codes, *ext;
    seg_t seg[RETRO_MAX_THREADS];
} gen_t;

typedef struct visit_ctx {
    gen_t *gen;
    seg_t *seg;
    const void *before;
    int mover;
    retro_code_t ext;
} visit_ctx_t;

static int seg_fail(seg_t *s, int rc) { return retro_seg_fail(s->rs, rc); }

static void fold(retro_code_t *best, retro_code_t c)
{
    if (*best == EXT_NONE || retro_code_cmp(c, *best) > 0) *best = c;
}

static int visit(const int *actions, int n, const void *after, void *vctx)
{
    (void)actions, (void)n;
    visit_ctx_t *v = vctx;
    gen_t *gen = v->gen;
    retro_code_t c;
    uint64_t idx;
    int in = retro_run_child(&gen->run, after, &idx);
    if (in < 0) return seg_fail(v->seg, in);
    if (in) {
        seg_t *s = v->seg;
        if (s->n == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 1u << 16;
            uint32_t *e = realloc(s->edges, cap * sizeof *e);
            if (e == NULL)
                return seg_fail(
                    s, hoyle_error(HOYLE_ENOMEM, "%s: out of memory (edges)", gen->run.name));
            s->edges = e, s->cap = cap;
        }
        int same = game_current_player(gen->run.g, after) == v->mover;
        s->edges[s->n++] = (uint32_t)idx | (same ? EDGE_SAME : 0);
        return 0;
    }
    int rc = retro_run_external(&gen->run, v->before, after, &c);
    if (rc < 0) return seg_fail(v->seg, rc);
    fold(&v->ext, c);
    return 0;
}

retro_code_t retro_terminal_code(const game_t *g, const retro_index_t *ix, const void *s)
{
    double r[GAME_MAX_PLAYERS];
    game_returns(g, s, r);
    double mine = r[ix->to_move(g, s)];
    return mine > 0 ? RETRO_WIN : mine < 0 ? RETRO_LOSS : RETRO_DRAW;
}

static void build_range(void *ctx, int t)
{
    gen_t *gen = ctx;
    seg_t *s = &gen->seg[t];
    retro_seg_t *r = s->rs;
    void *state = aligned_alloc(GAME_STATE_ALIGN, (gen->run.g->state_size + GAME_STATE_ALIGN - 1) /
                                                      GAME_STATE_ALIGN * GAME_STATE_ALIGN);
    s->off = malloc((r->hi - r->lo + 1) * sizeof *s->off);
    if (state == NULL || s->off == NULL) {
        free(state);
        seg_fail(s, hoyle_error(HOYLE_ENOMEM, "%s: out of memory", gen->run.name));
        return;
    }
    for (uint64_t i = r->lo; i < r->hi && r->status == 0; i++) {
        s->off[i - r->lo] = s->n;
        gen->ext[i] = EXT_NONE;
        if (!gen->run.ix->unindex(gen->run.g, gen->run.name, i, state)) {
            gen->codes[i] = RETRO_INVALID;
        } else if (game_is_terminal(gen->run.g, state)) {
            gen->codes[i] = retro_terminal_code(gen->run.g, gen->run.ix, state);
            gen->ext[i] = RETRO_DRAW; /* never decided again */
        } else {
            gen->codes[i] = RETRO_DRAW;
            visit_ctx_t v = {gen, s, state, game_current_player(gen->run.g, state), EXT_NONE};
            game_whole_moves(gen->run.g, state, visit, &v);
            gen->ext[i] = v.ext;
        }
        if ((i & 1023) == 0) atomic_store(&r->done, i - r->lo);
    }
    if (r->status == 0) s->off[r->hi - r->lo] = s->n;
    free(state);
}

/* Decide what level `gen->run.level` decides in segment t. */
static void level_range(void *ctx, int t)
{
    gen_t *gen = ctx;
    seg_t *s = &gen->seg[t];
    retro_seg_t *r = s->rs;
    int n = gen->run.level;
    s->nchg = 0;
    for (uint64_t i = r->lo; i < r->hi && r->status == 0; i++) {
        if (gen->codes[i] != RETRO_DRAW) continue;
        retro_code_t best = EXT_NONE, e = gen->ext[i];
        bool all = true;
        if (e != EXT_NONE) {
            if (retro_dist(e) <= n)
                best = e;
            else
                all = false;
        }
        for (uint64_t k = s->off[i - r->lo]; k < s->off[i - r->lo + 1]; k++) {
            retro_code_t c = gen->codes[s->edges[k] & ~EDGE_SAME];
            if (c == RETRO_DRAW) {
                all = false;
                continue;
            }
            fold(&best, retro_back_up(c, (s->edges[k] & EDGE_SAME) != 0));
        }
        if (best == EXT_NONE || !(retro_is_win(best) || (all && retro_is_loss(best)))) continue;
        CHECK_EQ(retro_dist(best), n); /* levels decide distances in order */
        if (s->nchg == s->capchg) {
            size_t cap = s->capchg ? s->capchg * 2 : 4096;
            uint64_t *c = realloc(s->chg, cap * sizeof *c);
            if (c == NULL) {
                seg_fail(s, hoyle_error(HOYLE_ENOMEM, "%s: out of memory", gen->run.name));
                return;
            }
            s->chg = c, s->capchg = cap;
        }
        s->chg[s->nchg++] = i << 16 | best;
    }
}

/* The codes of the table or resume file: the working codes as they are. */
static void fill_codes(void *ctx, uint64_t first, size_t n, retro_code_t *out)
{
    const gen_t *gen = ctx;
    memcpy(out, gen->codes + first, n * sizeof *out);
}

/* Read the resume file, if any, over the built codes; sets gen->run.level. */
static int resume(gen_t *gen, FILE *log)
{
    retro_table_t t;
    int rc = retro_run_resume(&gen->run, log, &t);
    if (rc < 0 || t.map == NULL) return rc;
    memcpy(gen->codes, t.codes, gen->run.size * sizeof(retro_code_t));
    retro_table_unmap(&t);
    return 0;
}

/* After a level's pass: its decisions into the codes (step 2). */
static uint64_t collect(void *ctx)
{
    gen_t *gen = ctx;
    uint64_t decided = 0;
    for (int t = 0; t < gen->run.threads; t++) {
        seg_t *s = &gen->seg[t];
        for (size_t k = 0; k < s->nchg; k++)
            gen->codes[s->chg[k] >> 16] = (retro_code_t)(s->chg[k] & 0xFFFF);
        decided += s->nchg;
    }
    return decided;
}

/* The levels (step 2 of the file comment) from gen->run.level + 1 to the end. */
static int run_levels(gen_t *gen, const retro_gen_opts_t *o)
{
    retro_levels_t lv = {level_range, collect, fill_codes, 0, 0};
    for (uint64_t i = 0; i < gen->run.size; i++)
        if (gen->ext[i] != EXT_NONE && retro_dist(gen->ext[i]) > lv.max_ext)
            lv.max_ext = retro_dist(gen->ext[i]);
    return retro_run_levels(&gen->run, o, &lv, gen);
}

static void gen_free(gen_t *gen)
{
    for (int t = 0; t < RETRO_MAX_THREADS; t++) {
        free(gen->seg[t].off);
        free(gen->seg[t].edges);
        free(gen->seg[t].chg);
    }
    free(gen->codes);
    free(gen->ext);
    retro_run_done(&gen->run);
}

/* Build the table of `gen->run.name` (its subclasses' tables are in `dir`). */
static int build_class(gen_t *gen, const char *dir, const retro_gen_opts_t *o)
{
    int rc = retro_run_init(&gen->run, o->threads, dir);
    if (rc < 0) return rc;
    gen->codes = malloc(gen->run.size * sizeof *gen->codes);
    gen->ext = malloc(gen->run.size * sizeof *gen->ext);
    if (gen->codes == NULL || gen->ext == NULL)
        return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", gen->run.name);
    for (int t = 0; t < RETRO_MAX_THREADS; t++) gen->seg[t].rs = &gen->run.seg[t];
    double t0 = clock_seconds();
    progress_t p;
    char label[64];
    snprintf(label, sizeof label, "[%s] graph", gen->run.name);
    progress_start(&p, o->progress, label, "positions", 0);
    if ((rc = retro_run_all(&gen->run, build_range, gen, &p)) < 0) return rc;
    if ((rc = resume(gen, o->progress)) < 0) return rc;
    if ((rc = run_levels(gen, o)) < 0) return rc;
    size_t edges = 0;
    for (int t = 0; t < gen->run.threads; t++) edges += gen->seg[t].n;
    char what[64];
    snprintf(what, sizeof what, "%zu edges", edges);
    return retro_run_finish(&gen->run, fill_codes, gen, o->progress, what, t0);
}

static int generate(const game_t *g, const char *text, const char *dir, const retro_gen_opts_t *o,
                    int depth)
{
    const retro_index_t *ix = retro_index_find(g);
    if (ix == NULL)
        return hoyle_error(HOYLE_EUNSUP, "%s: no endgame tables for this game", g->spec);
    gen_t *gen = calloc(1, sizeof *gen);
    if (gen == NULL) return hoyle_error(HOYLE_ENOMEM, "tablebase: out of memory");
    gen->run.g = g, gen->run.ix = ix, gen->run.metric = o->metric;
    int rc = ix->class_parse(g, text, gen->run.name, &gen->run.size);
    if (rc == 0 && gen->run.size >= EDGE_SAME)
        rc = hoyle_error(HOYLE_EUNSUP, "%s: %llu indices is too many", gen->run.name,
                         (unsigned long long)gen->run.size);
    char path[4096];
    if (rc == 0)
        rc = retro_path(path, sizeof path, dir, gen->run.name, retro_metric_suffix(o->metric));
    if (rc == 0 && access(path, F_OK) == 0) { /* built before: check it and keep it */
        retro_table_t t;
        rc = retro_table_map(path, g->spec, gen->run.name, 0, (int)o->metric, &t);
        if (rc == 0) rc = retro_table_fits(g, path, &t), retro_table_unmap(&t);
        free(gen);
        return rc;
    }
    char subs[RETRO_SUBCLASSES][RETRO_CLASS_MAX];
    int nsub = rc == 0 ? ix->subclasses(g, gen->run.name, subs) : 0;
    retro_gen_opts_t dtm =
        *o; /* the smaller classes: ordinary tables, whatever this one's metric */
    dtm.metric = RETRO_DTM;
    for (int i = 0; i < nsub && rc == 0 && depth < 16; i++)
        rc = generate(g, subs[i], dir, &dtm, depth + 1);
    bool unmoves =
        ix->unmoves && ix->unmove_class && !o->graph && ix->unmove_class(g, gen->run.name);
    if (rc == 0)
        rc = unmoves ? retro_unmove_build(g, ix, gen->run.name, gen->run.size, dir, o)
                     : build_class(gen, dir, o);
    gen_free(gen);
    free(gen);
    return rc;
}

int retro_generate(const game_t *g, const char *name, const char *dir, const retro_gen_opts_t *opts)
{
    retro_gen_opts_t o = opts ? *opts : (retro_gen_opts_t){0};
    struct stat st;
    if (stat(dir, &st) != 0 && mkdir(dir, 0755) != 0)
        return hoyle_error(HOYLE_EIO, "%s: cannot create the folder", dir);
    return generate(g, name, dir, &o, 0);
}
