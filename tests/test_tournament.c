/* test_tournament.c — tournaments (eval/tournament.h): configs and their
 * errors, the schedule's determinism and shape, openings from a book and at
 * random, the move-limit adjudication, and resume skipping stored jobs. The
 * end-to-end run, kill -9 and the h5py check are tests/cli/tournament.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "data/h5rec.h"
#include "eval/openings.h"
#include "eval/tournament.h"
#include "tests/harness.h"

#define BOOK HOYLE_TEST_DATA "/../../configs/books/checkers_two_move.txt"

static char tmpdir[256];

static void make_tmpdir(void)
{
    if (tmpdir[0]) return;
    harness_tmp_path(tmpdir, sizeof tmpdir, "hoyle_tour_XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(tmpdir));
}

/* Write `text` (with %s replaced by tmpdir, up to 3 times) to tmpdir/name. */
static const char *write_yaml(const char *name, const char *text)
{
    static char path[512];
    make_tmpdir();
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, text, tmpdir, tmpdir, tmpdir);
    fclose(f);
    return path;
}

static const char tiny_yaml[] = "name: tiny\n"
                                "games: [checkers, gobang]\n"
                                "agents: [random, greedy, \"alphabeta(depth=1)\"]\n"
                                "openings: {checkers: \"book:" BOOK "\", gobang: \"random:2\"}\n"
                                "openings_per_pairing: 2\n"
                                "games_per_opening: 2\n"
                                "max_moves: 60\n"
                                "workers: 2\n"
                                "seed: 5\n"
                                "output: %s/tiny.h5\n";

static void test_schedule_shape_and_determinism(void)
{
    const char *path = write_yaml("tiny.yaml", tiny_yaml);
    tour_config_t a, b;
    HARNESS_OK(tournament_config_load(path, NULL, 0, &a));
    HARNESS_OK(tournament_config_load(path, NULL, 0, &b));
    CU_ASSERT_EQUAL(a.num_games, 2);
    CU_ASSERT_EQUAL(a.num_agents, 3);
    CU_ASSERT_EQUAL(a.openings[0].n, 28); /* the whole book is the pool */
    CU_ASSERT_PTR_NULL(strstr(a.config_text, "workers"));
    CU_ASSERT_PTR_NULL(strstr(a.config_text, "output"));
    tour_job_t *ja, *jb;
    int na, nb;
    HARNESS_OK(tournament_schedule(&a, &ja, &na));
    HARNESS_OK(tournament_schedule(&b, &jb, &nb));
    /* 2 games x 3 pairings x 2 openings x 2 repeats x 2 colours */
    CU_ASSERT_EQUAL(na, 48);
    CU_ASSERT_EQUAL(nb, na);
    CU_ASSERT_EQUAL(memcmp(ja, jb, sizeof *ja * (size_t)na), 0);
    for (int g = 0; g < 2; g++)
        for (int o = 0; o < a.openings[g].n; o++)
            CU_ASSERT_EQUAL(
                memcmp(&a.openings[g].items[o], &b.openings[g].items[o], sizeof(opening_t)), 0);
    for (int i = 0; i < na; i++) {
        CU_ASSERT_EQUAL(ja[i].index, i);
        CU_ASSERT_NOT_EQUAL(ja[i].seat[0], ja[i].seat[1]);
        for (int k = 0; k < i; k++) CU_ASSERT_NOT_EQUAL(ja[i].seed, ja[k].seed);
        if (i % 2 == 1) { /* colours swapped on the same opening */
            CU_ASSERT_EQUAL(ja[i].seat[0], ja[i - 1].seat[1]);
            CU_ASSERT_EQUAL(ja[i].seat[1], ja[i - 1].seat[0]);
            CU_ASSERT_EQUAL(ja[i].opening, ja[i - 1].opening);
            CU_ASSERT_EQUAL(ja[i].pairing, ja[i - 1].pairing);
        }
    }
    /* a different seed changes seeds but not the shape */
    char *set = "seed=6";
    tour_config_t c;
    HARNESS_OK(tournament_config_load(path, &set, 1, &c));
    tour_job_t *jc;
    int nc;
    HARNESS_OK(tournament_schedule(&c, &jc, &nc));
    CU_ASSERT_EQUAL(nc, na);
    CU_ASSERT_NOT_EQUAL(jc[0].seed, ja[0].seed);
    /* a gauntlet: the first agent against each other one */
    char *g = "schedule=gauntlet";
    tour_config_t d;
    HARNESS_OK(tournament_config_load(path, &g, 1, &d));
    tour_job_t *jd;
    int nd;
    HARNESS_OK(tournament_schedule(&d, &jd, &nd));
    CU_ASSERT_EQUAL(nd, 32);
    for (int i = 0; i < nd; i++) CU_ASSERT(jd[i].seat[0] == 0 || jd[i].seat[1] == 0);
    free(ja);
    free(jb);
    free(jc);
    free(jd);
    tournament_config_done(&a);
    tournament_config_done(&b);
    tournament_config_done(&c);
    tournament_config_done(&d);
}

static void test_openings_legal(void)
{
    const game_t *ck, *gb;
    HARNESS_OK(game_create("checkers", &ck));
    HARNESS_OK(game_create("gobang", &gb));
    opening_list_t book, r1, r2;
    HARNESS_OK(openings_load_book(ck, BOOK, &book));
    CU_ASSERT_EQUAL(book.n, 28);
    void *s = malloc(ck->state_size > gb->state_size ? ck->state_size : gb->state_size);
    for (int i = 0; i < book.n; i++) HARNESS_OK(opening_apply(ck, &book.items[i], s));
    CU_ASSERT_STRING_EQUAL(book.items[0].name, "Alma");
    CU_ASSERT_EQUAL(book.items[0].num_actions, 5); /* 11-15 23-19 8-11 22-17 3-8 */
    char text[256];
    CU_ASSERT(opening_to_text(ck, &book.items[0], text, sizeof text) > 0);
    CU_ASSERT_STRING_EQUAL(text, "11-15 23-19 8-11 22-17 3-8");
    HARNESS_OK(openings_random(gb, 3, 20, 9, &r1));
    HARNESS_OK(openings_random(gb, 3, 20, 9, &r2));
    CU_ASSERT_EQUAL(r1.n, 20);
    for (int i = 0; i < r1.n; i++) {
        HARNESS_OK(opening_apply(gb, &r1.items[i], s));
        CU_ASSERT_EQUAL(r1.items[i].num_actions, 3); /* Go-Bang: one action per move */
        CU_ASSERT_EQUAL(memcmp(&r1.items[i], &r2.items[i], sizeof(opening_t)), 0);
        for (int k = 0; k < i; k++)
            CU_ASSERT(memcmp(r1.items[i].actions, r1.items[k].actions, 3 * sizeof(int)) != 0);
    }
    /* a bad book names the file and the line */
    const char *bad = write_yaml("bad_book.txt", "# comment\nGood | 11-15\nBad | 11-15 11-15\n");
    opening_list_t none = {0, NULL};
    CU_ASSERT_EQUAL(openings_load_book(ck, bad, &none), HOYLE_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "bad_book.txt:3"));
    CU_ASSERT_PTR_NULL(none.items);
    opening_list_done(&book);
    opening_list_done(&r1);
    opening_list_done(&r2);
    free(s);
    game_free(ck);
    game_free(gb);
}

static void test_move_limit(void)
{
    const game_t *ck;
    HARNESS_OK(game_create("checkers", &ck));
    const char *specs[2] = {"random", "random"};
    tour_game_result_t r;
    HARNESS_OK(tournament_play(ck, specs, NULL, 3, 5, &r));
    CU_ASSERT_EQUAL(r.end, RECORD_END_MOVE_LIMIT);
    CU_ASSERT_EQUAL(r.returns[0], 0);
    CU_ASSERT(r.num_actions >= 5 && r.num_actions < 40);
    tour_game_result_t r2;
    HARNESS_OK(tournament_play(ck, specs, NULL, 3, 5, &r2)); /* same seed, same game */
    CU_ASSERT_EQUAL(r2.num_actions, r.num_actions);
    CU_ASSERT_EQUAL(memcmp(r.actions, r2.actions, sizeof(int32_t) * (size_t)r.num_actions), 0);
    tour_game_result_done(&r);
    tour_game_result_done(&r2);
    HARNESS_OK(tournament_play(ck, specs, NULL, 3, 0, &r));
    CU_ASSERT_EQUAL(r.end, RECORD_END_RULES);
    tour_game_result_done(&r);
    game_free(ck);
}

/* Agents created once and reseeded per game (agent_reseed, as sprt and
 * `hoyle match` keep them) play exactly the games of fresh agents, for the
 * kinds that rebuild on reseed (mcts, greedy) and the one that only clears
 * (alphabeta), on a game with dice and one without. */
static void test_reused_agents_equal_fresh(void)
{
    static const char *const games[] = {"checkers", "backgammon"};
    static const char *const pairs[][2] = {{"mcts(sims=30)", "greedy"},
                                           {"alphabeta(depth=2)", "random"},
                                           {"expectimax(depth=1)", "mcts(sims=20)"}};
    for (int gi = 0; gi < 2; gi++) {
        const game_t *g;
        HARNESS_OK(game_create(games[gi], &g));
        for (int k = 0; k < 3; k++) {
            if (gi == 0 && k == 2) continue; /* expectimax is alphabeta by another name */
            agent_t *ag[2];
            HARNESS_OK(agent_create(g, pairs[k][0], 0, &ag[0]));
            HARNESS_OK(agent_create(g, pairs[k][1], 0, &ag[1]));
            for (uint64_t seed = 1; seed <= 3; seed++) {
                tour_game_result_t fresh, reused;
                HARNESS_OK(tournament_play(g, pairs[k], NULL, seed, 40, &fresh));
                for (int p = 0; p < 2; p++)
                    HARNESS_OK(agent_reseed(ag[p], tournament_agent_seed(seed, p)));
                HARNESS_OK(tournament_play_agents(g, ag, pairs[k], NULL, seed, 40, &reused));
                CU_ASSERT_EQUAL(reused.num_actions, fresh.num_actions);
                CU_ASSERT_EQUAL(reused.end, fresh.end);
                CU_ASSERT_EQUAL(reused.returns[0], fresh.returns[0]);
                int n =
                    reused.num_actions < fresh.num_actions ? reused.num_actions : fresh.num_actions;
                CU_ASSERT_EQUAL(memcmp(reused.actions, fresh.actions, sizeof(int32_t) * (size_t)n),
                                0);
                tour_game_result_done(&fresh);
                tour_game_result_done(&reused);
            }
            agent_free(ag[0]);
            agent_free(ag[1]);
        }
        game_free(g);
    }
}

/* Expect a config error whose message contains `want`, and no output file. */
static void expect_bad(const char *yaml, const char *want)
{
    static int n;
    char name[64];
    snprintf(name, sizeof name, "bad%d.yaml", n++);
    const char *path = write_yaml(name, yaml);
    tour_config_t c;
    int rc = tournament_config_load(path, NULL, 0, &c);
    CU_ASSERT(rc < 0);
    if (rc == 0) tournament_config_done(&c);
    if (strstr(hoyle_last_error(), want) == NULL || strstr(hoyle_last_error(), name) == NULL)
        fprintf(stderr, "\nmessage '%s' lacks '%s'\n", hoyle_last_error(), want);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), want));
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), name));
    char out[512];
    snprintf(out, sizeof out, "%s/never.h5", tmpdir);
    CU_ASSERT_NOT_EQUAL(access(out, F_OK), 0);
}

static void test_bad_configs(void)
{
    const char *head = "name: x\ngames: [checkers]\n";
    char y[1024];
    snprintf(y, sizeof y, "%sagents: [random, greedy]\noutput: %%s/never.h5\ncolour: red\n", head);
    expect_bad(y, ":5: unknown key 'colour'");
    snprintf(y, sizeof y, "%sagents: [random, \"mcts(sims=-1)\"]\noutput: %%s/never.h5\n", head);
    expect_bad(y, ":3: key 'agents[1]'");
    snprintf(y, sizeof y, "%sagents: [random, random]\noutput: %%s/never.h5\n", head);
    expect_bad(y, ":3: key 'agents[1]': 'random' is listed twice");
    snprintf(y, sizeof y,
             "name: x\ngames: [chess960]\nagents: [random, greedy]\noutput: %%s/never.h5\n");
    expect_bad(y, ":2: key 'games[0]'");
    snprintf(y, sizeof y,
             "%sagents: [random, greedy]\noutput: %%s/never.h5\nopenings: {gobang: random:2}\n",
             head);
    expect_bad(y, ":5: key 'openings.gobang'");
    snprintf(y, sizeof y,
             "%sagents: [random, greedy]\noutput: %%s/never.h5\nopenings:\n  checkers: "
             "book:/no/such/book\n",
             head);
    expect_bad(y, ":6: key 'openings.checkers'");
    const char *bad_k[] = {"random:61", "random:-1", "random:x", "random:", "random:99999999999"};
    for (int i = 0; i < 5; i++) {
        snprintf(y, sizeof y,
                 "%sagents: [random, greedy]\noutput: %%s/never.h5\nopenings:\n  checkers: "
                 "\"%s\"\n",
                 head, bad_k[i]);
        expect_bad(y, "K in random:K must be 0..60");
    }
    snprintf(y, sizeof y, "%sagents: [random, greedy]\noutput: %%s/never.h5\nanchor: mcts\n", head);
    expect_bad(y, ":5: key 'anchor'");
    snprintf(y, sizeof y, "%sagents: [random, greedy]\noutput: %%s/never.h5\nworkers: 1000\n",
             head);
    expect_bad(y, ":5: key 'workers'");
    snprintf(y, sizeof y, "%sagents: [random, greedy]\n", head);
    expect_bad(y, "key 'output' is required");
    /* two agents that play one game whatever their seeds, no dice: a repeat
     * of an opening is the same game (issue 37); with a seeded agent, or
     * games_per_opening: 1, the config loads */
    const char *det = "name: x\ngames: [checkers]\nagents: [\"alphabeta(depth=1)\", "
                      "\"mcts(sims=8%s)\"]\noutput: %%s/never.h5\ngames_per_opening: %d\n";
    snprintf(y, sizeof y, det, ",eval=heuristic", 2);
    expect_bad(y, "key 'games_per_opening': 2 would repeat one game");
    for (int k = 0; k < 2; k++) {
        /* games_per_opening: 1; or rollouts, which draw from the seed */
        snprintf(y, sizeof y, det, k == 0 ? ",eval=heuristic" : "", k + 1);
        tour_config_t c;
        const char *path = write_yaml(k ? "det1.yaml" : "det0.yaml", y);
        int rc = tournament_config_load(path, NULL, 0, &c);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc == 0) tournament_config_done(&c);
    }
}

/* A config error caused by a callee (game spec, agent spec, book line) keeps
 * the callee's reason after the file:line:key context, word for word. */
static void test_bad_configs_keep_the_reason(void)
{
    const char *tail = "agents: [random, greedy]\noutput: %s/never.h5\n";
    char y[1024];
    snprintf(y, sizeof y, "name: x\ngames: [\"gobang(board=99)\"]\n%s", tail);
    expect_bad(y, ":2: key 'games[0]': gobang: board: 99 is out of range [5, 19]");
    snprintf(y, sizeof y,
             "name: x\ngames: [checkers]\nagents: [random, \"mcts(sims=-1)\"]\n"
             "output: %%s/never.h5\n");
    expect_bad(y, ":3: key 'agents[1]': mcts: sims: -1 is out of range");
    /* two levels: the book's line and move inside the config's key */
    write_yaml("bad_move_book.txt", "good | 11-15 23-19\nbad | 11-15 99-1\n");
    snprintf(y, sizeof y,
             "name: x\ngames: [checkers]\n%sopenings: {checkers: "
             "\"book:%%s/bad_move_book.txt\"}\n",
             tail);
    expect_bad(y, ":5: key 'openings.checkers': book ");
    expect_bad(y, "bad_move_book.txt:2: move '99-1': move: bad square 99 in '99-1'");
}

/* Jobs of a file: results and lengths by job index. */
static void read_jobs(const char *path, int n, double *result, int *length)
{
    h5rec_t *h;
    HARNESS_OK(h5rec_open_read(path, &h));
    CU_ASSERT_EQUAL(h5rec_count(h), n);
    for (int64_t i = 0; i < h5rec_count(h); i++) {
        game_record_t r;
        HARNESS_OK(h5rec_read(h, i, &r));
        CU_ASSERT_FATAL(r.game_index >= 0 && r.game_index < n);
        result[r.game_index] = r.result;
        length[r.game_index] = r.num_actions;
        game_record_free(&r);
    }
    h5rec_close(h);
}

/* A new record file `to` (made with meta) holding the games of `from` whose job index is
 * one of jobs[0..n). */
static void copy_jobs(const char *from, const char *to, const h5rec_meta_t *meta, const int *jobs,
                      int n)
{
    h5rec_t *src, *dst;
    HARNESS_OK(h5rec_create(to, meta, &dst));
    HARNESS_OK(h5rec_open_read(from, &src));
    for (int64_t i = 0; i < h5rec_count(src); i++) {
        game_record_t r;
        HARNESS_OK(h5rec_read(src, i, &r));
        for (int k = 0; k < n; k++)
            if (r.game_index == jobs[k]) HARNESS_OK(h5rec_append(dst, &r));
        game_record_free(&r);
    }
    h5rec_close(src);
    HARNESS_OK(h5rec_close(dst));
}

static void test_resume_skips_done_jobs(void)
{
    const char *path = write_yaml("tiny.yaml", tiny_yaml);
    char *sets[2] = {"games_per_opening=1", NULL};
    tour_config_t c;
    HARNESS_OK(tournament_config_load(path, sets, 1, &c));
    tour_run_stats_t st;
    HARNESS_OK(tournament_run(&c, NULL, &st));
    CU_ASSERT_EQUAL(st.total, 24);
    CU_ASSERT_EQUAL(st.played, 24);
    CU_ASSERT_FALSE(st.interrupted);
    /* a second run finds every job stored and plays nothing */
    HARNESS_OK(tournament_run(&c, NULL, &st));
    CU_ASSERT_EQUAL(st.already, 24);
    CU_ASSERT_EQUAL(st.played, 0);
    double full_res[24], part_res[24];
    int full_len[24], part_len[24];
    read_jobs(c.output, 24, full_res, full_len);
    /* a file holding jobs {0, 5, 17} of the same config: resume plays the 21 others */
    char part[600];
    snprintf(part, sizeof part, "%s/part.h5", tmpdir);
    char set_out[700];
    snprintf(set_out, sizeof set_out, "output=%s", part);
    sets[1] = set_out;
    tour_config_t p;
    HARNESS_OK(tournament_config_load(path, sets, 2, &p));
    const char *specs[2] = {p.games[0]->spec, p.games[1]->spec};
    h5rec_meta_t meta = {.config_text = p.config_text,
                         .config_path = p.config_path,
                         .num_games = 2,
                         .game_specs = specs};
    copy_jobs(c.output, part, &meta, (const int[]){0, 5, 17}, 3);
    HARNESS_OK(tournament_run(&p, NULL, &st));
    CU_ASSERT_EQUAL(st.already, 3);
    CU_ASSERT_EQUAL(st.played, 21);
    read_jobs(part, 24, part_res, part_len);
    for (int i = 0; i < 24; i++) {
        CU_ASSERT_EQUAL(part_res[i], full_res[i]);
        CU_ASSERT_EQUAL(part_len[i], full_len[i]);
    }
    /* the same file with another config is refused and left alone */
    char *other[3] = {sets[0], sets[1], "max_moves=61"};
    tour_config_t q;
    HARNESS_OK(tournament_config_load(path, other, 3, &q));
    CU_ASSERT(tournament_run(&q, NULL, &st) < 0);
    CU_ASSERT_EQUAL(st.total, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "key 'max_moves' was '60' (file), now '61'"));
    tournament_config_done(&q);
    /* a file whose stored config names its output path (as files written before
     * `output` left the stored config do) resumes, also from another path, and
     * keeps the config it was made with */
    char old[600], old_text[4096], set_old[700];
    snprintf(old, sizeof old, "%s/old.h5", tmpdir);
    snprintf(set_old, sizeof set_old, "output=%s", old);
    snprintf(old_text, sizeof old_text, "%soutput: %s/moved-from.h5\n", p.config_text, tmpdir);
    CU_ASSERT_PTR_NULL(strstr(p.config_text, "output:")); /* the new stored config has none */
    sets[1] = set_old;
    tour_config_t o;
    HARNESS_OK(tournament_config_load(path, sets, 2, &o));
    meta.config_text = old_text;
    copy_jobs(c.output, old, &meta, (const int[]){3, 20}, 2);
    HARNESS_OK(tournament_run(&o, NULL, &st));
    CU_ASSERT_EQUAL(st.already, 2);
    CU_ASSERT_EQUAL(st.played, 22);
    read_jobs(old, 24, part_res, part_len);
    for (int i = 0; i < 24; i++) CU_ASSERT_EQUAL(part_res[i], full_res[i]);
    h5rec_t *h;
    HARNESS_OK(h5rec_open_read(old, &h));
    CU_ASSERT_STRING_EQUAL(h5rec_meta(h)->config_text, old_text);
    h5rec_close(h);
    tournament_config_done(&o);
    tournament_config_done(&p);
    tournament_config_done(&c);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"schedule shape and determinism", test_schedule_shape_and_determinism},
        {"openings: book and random, legal", test_openings_legal},
        {"move limit adjudication", test_move_limit},
        {"reused, reseeded agents play the games of fresh ones", test_reused_agents_equal_fresh},
        {"bad configs name file:line:key, write nothing", test_bad_configs},
        {"bad configs keep the callee's reason", test_bad_configs_keep_the_reason},
        {"resume skips stored jobs", test_resume_skips_done_jobs},
        {NULL, NULL},
    };
    int rc = harness_run("tournament", tests);
    if (tmpdir[0]) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
        if (system(cmd) != 0) rc = rc ? rc : 0;
    }
    return rc;
}
