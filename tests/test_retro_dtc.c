/* test_retro_dtc.c — distance-to-conversion tables (solve/retro.h,
 * RETRO_DTC): every position of K+P v K (promotions convert) and of K+R v
 * K+Kt (captures convert) against a one-ply recursion written here, not the
 * generators' code: the value the DTM table's, distance 0 at the end, else
 * the fastest win (slowest loss) over the moves, a move that leaves the class
 * or ends the game counting one ply; the move-graph and un-move generators
 * give the same DTC file byte for byte; a DTC file is refused where a DTM
 * table is asked for and the reverse (tables, resume files, a kept file);
 * a build stopped after a ply level resumes to the identical file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "games/registry.h"
#include "solve/retro.h"
#include "solve/retro_internal.h"
#include "tests/harness.h"

static char dir[512];

static const game_t *chess(void)
{
    const game_t *g = NULL;
    CU_ASSERT_FATAL(game_create("chess", &g) == 0);
    return g;
}

static void make_dir(void)
{
    if (dir[0]) return;
    harness_tmp_path(dir, sizeof dir, "hoyle_test_dtc_XXXXXX");
    CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
}

/* Build class `cls` into where/ by metric `m` (`graph`: the move graph). */
static int gen(const game_t *g, const char *cls, const char *where, retro_metric_t m, bool graph,
               int stop_after_level)
{
    retro_gen_opts_t o = {
        .threads = 2, .metric = m, .graph = graph, .stop_after_level = stop_after_level};
    return retro_generate(g, cls, where, &o);
}

static int same_file(const char *a, const char *b)
{
    char cmd[2100];
    snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", a, b);
    return system(cmd) == 0;
}

/* The one-ply recursion over one position's moves. */
typedef struct ply {
    const game_t *g;
    const retro_index_t *ix;
    const char *cls;
    const retro_code_t *dtc; /* the class's DTC codes */
    retro_tables_t *dtm;     /* the folder's DTM tables, for the other classes */
    int mover;
    int win, loss; /* the fastest win, the slowest loss (plies); -1: none */
    bool draw;
} ply_t;

static int one_move(const int *actions, int n, const void *after, void *vctx)
{
    (void)actions, (void)n;
    ply_t *p = vctx;
    int sign, dist = 1; /* a move that ends the game or leaves the class: one ply */
    if (game_is_terminal(p->g, after)) {
        double r[GAME_MAX_PLAYERS];
        game_returns(p->g, after, r);
        sign = r[p->mover] > 0 ? 1 : r[p->mover] < 0 ? -1 : 0;
    } else {
        char name[RETRO_CLASS_MAX];
        uint64_t idx;
        retro_code_t c;
        HARNESS_OK(retro_index_locate(p->ix, p->g, after, name, &idx));
        if (strcmp(name, p->cls) == 0) {
            c = p->dtc[idx];
            dist = retro_dist(c) + 1;
        } else {
            HARNESS_OK(retro_probe(p->dtm, after, &c));
        }
        sign = retro_sign(c) * (game_current_player(p->g, after) == p->mover ? 1 : -1);
    }
    if (sign > 0 && (p->win < 0 || dist < p->win)) p->win = dist;
    if (sign < 0 && dist > p->loss) p->loss = dist;
    if (sign == 0) p->draw = true;
    return 0;
}

/* Every position of class `cls` in `where` (where/CLS.dtc and where/CLS.tb):
 * its DTC code the one-ply recursion's, its value the DTM table's. Returns
 * the positions checked; *longest the longest DTC win (plies). */
static uint64_t check_one_ply(const game_t *g, const char *where, const char *cls, int *longest)
{
    const retro_index_t *ix = retro_index_find(g);
    char pdtc[700], pdtm[700];
    snprintf(pdtc, sizeof pdtc, "%s/%s.dtc", where, cls);
    snprintf(pdtm, sizeof pdtm, "%s/%s.tb", where, cls);
    retro_table_t a, b;
    HARNESS_OK(retro_table_map(pdtc, g->spec, cls, 0, RETRO_DTC, &a));
    HARNESS_OK(retro_table_map(pdtm, g->spec, cls, 0, RETRO_DTM, &b));
    CU_ASSERT_FATAL(a.h.size == b.h.size);
    retro_tables_t *t;
    HARNESS_OK(retro_tables_open(g, where, &t));
    void *s = aligned_alloc(GAME_STATE_ALIGN, 2048);
    CU_ASSERT_FATAL(s != NULL && g->state_size <= 2048);
    uint64_t checked = 0, bad = 0, shorter = 0;
    *longest = 0;
    for (uint64_t i = 0; i < a.h.size && bad < 5; i++) {
        retro_code_t got = a.codes[i], want;
        if (!ix->unindex(g, cls, i, s)) {
            CU_ASSERT_EQUAL(got, RETRO_INVALID);
            continue;
        }
        checked++;
        if (game_is_terminal(g, s)) {
            want = retro_terminal_code(g, ix, s);
        } else {
            ply_t p = {g, ix, cls, a.codes, t, game_current_player(g, s), -1, -1, false};
            game_whole_moves(g, s, one_move, &p);
            want = p.win >= 0 ? (retro_code_t)(RETRO_WIN | p.win)
                   : p.draw   ? RETRO_DRAW
                              : (retro_code_t)(RETRO_LOSS | p.loss);
        }
        if (got != want || retro_sign(got) != retro_sign(b.codes[i]))
            bad++, fprintf(stderr, "%s %llu: DTC %04x, one ply %04x, DTM %04x\n", cls,
                           (unsigned long long)i, got, want, b.codes[i]);
        if (retro_is_win(got) && retro_dist(got) > *longest) *longest = retro_dist(got);
        shorter += retro_dist(got) < retro_dist(b.codes[i]);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(shorter > 0); /* conversions shorten some distances */
    free(s);
    retro_tables_close(t);
    retro_table_unmap(&a);
    retro_table_unmap(&b);
    return checked;
}

/* (a) K+P v K by the move graph (its only generator: promotions convert)
 * and K+R v K+Kt by un-moves (captures convert), every position. */
static void test_one_ply(void)
{
    const game_t *g = chess();
    make_dir();
    int longest;
    HARNESS_OK(gen(g, "KPvK", dir, RETRO_DTM, false, 0));
    HARNESS_OK(gen(g, "KPvK", dir, RETRO_DTC, false, 0));
    CU_ASSERT(check_one_ply(g, dir, "KPvK", &longest) == 165676);
    CU_ASSERT(longest > 0 && longest < 55); /* DTM: mate in 28, 55 plies */
    HARNESS_OK(gen(g, "KRvKN", dir, RETRO_DTM, false, 0));
    HARNESS_OK(gen(g, "KRvKN", dir, RETRO_DTC, false, 0));
    CU_ASSERT(check_one_ply(g, dir, "KRvKN", &longest) == 2915128);
    CU_ASSERT_EQUAL(longest, 53); /* 27 moves to conversion, the published figure */
    char path[700];
    snprintf(path, sizeof path, "%s/KRvKN.dtc", dir);
    retro_info_t in;
    HARNESS_OK(retro_table_info(path, &in));
    CU_ASSERT_EQUAL(in.metric, RETRO_DTC);
    CU_ASSERT_EQUAL(in.longest_win, 53);
    game_free(g);
}

/* (b) The move graph gives the un-moves' DTC file, byte for byte. */
static void test_both_generators(void)
{
    const game_t *g = chess();
    make_dir();
    char where[600], a[700], b[700];
    snprintf(where, sizeof where, "%s/graph", dir);
    HARNESS_OK(gen(g, "KRvKN", where, RETRO_DTC, true, 0));
    HARNESS_OK(gen(g, "KRvKN", dir, RETRO_DTC, false, 0)); /* kept from (a) if there */
    snprintf(a, sizeof a, "%s/KRvKN.dtc", where);
    snprintf(b, sizeof b, "%s/KRvKN.dtc", dir);
    CU_ASSERT(same_file(a, b));
    game_free(g);
}

/* Probing the K+R v K+Kt position by metric `m` in folder `where` fails
 * with a message that contains `why`. */
static void expect_refused(const game_t *g, const char *where, retro_metric_t m, const char *why)
{
    retro_tables_t *t;
    HARNESS_OK(retro_tables_open_metric(g, where, m, &t));
    char s[2048] __attribute__((aligned(64)));
    CU_ASSERT_FATAL(g->state_size <= sizeof s);
    HARNESS_OK(game_position_from_string(g, "8/8/8/4k3/8/2n5/8/KR6 w - - 0 1", s));
    retro_code_t v;
    CU_ASSERT(retro_probe(t, s, &v) < 0);
    if (strstr(hoyle_last_error(), why) == NULL)
        fprintf(stderr, "want '%s', got '%s'\n", why, hoyle_last_error());
    CU_ASSERT(strstr(hoyle_last_error(), why) != NULL);
    retro_tables_close(t);
}

/* (c) A DTC file where a DTM table is asked for, and the reverse: refused,
 * the message saying what the file holds; a resume file of the other
 * metric and a kept table of the other metric too. */
static void test_refused(void)
{
    const game_t *g = chess();
    make_dir();
    HARNESS_OK(gen(g, "KRvKN", dir, RETRO_DTM, false, 0));
    HARNESS_OK(gen(g, "KRvKN", dir, RETRO_DTC, false, 0));
    char bad[600], cmd[2400];
    snprintf(bad, sizeof bad, "%s/bad", dir);
    mkdir(bad, 0755);
    snprintf(cmd, sizeof cmd, "cp %s/KRvKN.dtc %s/KRvKN.tb && cp %s/KRvKN.tb %s/KRvKN.dtc", dir,
             bad, dir, bad);
    CU_ASSERT_FATAL(system(cmd) == 0);
    expect_refused(g, bad, RETRO_DTM, "holds the distance to conversion (DTC)");
    expect_refused(g, bad, RETRO_DTC, "holds the distance to the end (DTM)");
    CU_ASSERT_EQUAL(gen(g, "KRvKN", bad, RETRO_DTM, false, 0), HOYLE_EINVAL); /* not kept */
    CU_ASSERT(strstr(hoyle_last_error(), "(DTC)") != NULL);
    CU_ASSERT_EQUAL(gen(g, "KRvKN", bad, RETRO_DTC, false, 0), HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "(DTM)") != NULL);
    /* a DTM resume file under the DTC resume file's name */
    char part[600];
    snprintf(part, sizeof part, "%s/part", dir);
    CU_ASSERT_EQUAL(gen(g, "KRvK", part, RETRO_DTM, false, 5), HOYLE_ESTATE);
    snprintf(cmd, sizeof cmd, "mv %s/KRvK.tb.part %s/KRvK.dtc.part", part, part);
    CU_ASSERT_FATAL(system(cmd) == 0);
    CU_ASSERT_EQUAL(gen(g, "KRvK", part, RETRO_DTC, false, 0), HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "KRvK.dtc.part: holds the distance to the end") != NULL);
    game_free(g);
}

/* Reading by DTC (the probes of `hoyle solve --metric dtc`): a capture is
 * one ply to conversion with the smaller class's value; the position's own
 * code from its .dtc. */
static void test_probe(void)
{
    const game_t *g = chess();
    make_dir();
    HARNESS_OK(gen(g, "KRvKN", dir, RETRO_DTC, false, 0));
    char before[2048] __attribute__((aligned(64))), after[2048] __attribute__((aligned(64)));
    HARNESS_OK(game_position_from_string(g, "8/8/8/8/8/k7/8/KRn5 w - - 0 1", before));
    memcpy(after, before, g->state_size);
    HARNESS_OK(game_apply_move_string(g, after, "Rxc1"));
    retro_tables_t *dtc, *dtm;
    HARNESS_OK(retro_tables_open_metric(g, dir, RETRO_DTC, &dtc));
    HARNESS_OK(retro_tables_open(g, dir, &dtm));
    retro_code_t v, m, mm;
    HARNESS_OK(retro_probe(dtc, before, &v));
    CU_ASSERT_EQUAL(v, RETRO_WIN | 1); /* Rxc1 converts at once */
    HARNESS_OK(retro_probe_move(dtc, before, after, &m));
    CU_ASSERT_EQUAL(m, RETRO_WIN | 1);
    HARNESS_OK(retro_probe_move(dtm, before, after, &mm));
    CU_ASSERT(retro_is_win(mm) && retro_dist(mm) > 1); /* to mate: further */
    retro_tables_close(dtc);
    retro_tables_close(dtm);
    game_free(g);
}

/* (d) A DTC build stopped after a ply level (as a kill after its
 * checkpoint) resumes to the file of a build never stopped: un-moves and
 * the move graph. */
static void test_resume(void)
{
    const game_t *g = chess();
    make_dir();
    HARNESS_OK(gen(g, "KRvKN", dir, RETRO_DTC, false, 0));
    HARNESS_OK(gen(g, "KPvK", dir, RETRO_DTC, false, 0));
    const char *cls[] = {"KRvKN", "KPvK"};
    for (int k = 0; k < 2; k++) {
        char where[600], part[700], a[700], b[700];
        snprintf(where, sizeof where, "%s/resume%d", dir, k);
        HARNESS_OK(gen(g, cls[k], where, RETRO_DTM, false, 0)); /* and the smaller classes */
        CU_ASSERT_EQUAL(gen(g, cls[k], where, RETRO_DTC, false, 12), HOYLE_ESTATE);
        snprintf(part, sizeof part, "%s/%s.dtc.part", where, cls[k]);
        snprintf(a, sizeof a, "%s/%s.dtc", where, cls[k]);
        CU_ASSERT(access(part, F_OK) == 0 && access(a, F_OK) != 0);
        HARNESS_OK(gen(g, cls[k], where, RETRO_DTC, false, 0));
        CU_ASSERT(access(part, F_OK) != 0);
        snprintf(b, sizeof b, "%s/%s.dtc", dir, cls[k]);
        CU_ASSERT(same_file(a, b));
    }
    game_free(g);
}

static void cleanup(void) { CU_ASSERT_EQUAL(harness_remove_tree(dir), 0); }

int main(void)
{
    static const harness_test_t tests[] = {
        {"every position against a one-ply recursion (K+P v K, K+R v K+Kt)", test_one_ply},
        {"the move graph and un-moves: the same DTC file", test_both_generators},
        {"a DTC file refused as DTM, and the reverse", test_refused},
        {"probes by DTC: a capture converts in one ply", test_probe},
        {"an interrupted DTC build resumes to the same file", test_resume},
        {"cleanup", cleanup},
        {NULL, NULL},
    };
    return harness_run("retro_dtc", tests);
}
