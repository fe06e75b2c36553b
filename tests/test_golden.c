/* test_golden.c — seeded outputs compared with committed golden files under
 * tests/data/golden/ (STYLE.md points 12-13; KataGo's tests/results/): every
 * deterministic count of `hoyle bench` (bench.txt: per item, the solver
 * items and the total, no rates) and the root visit tables of seeded MCTS searches
 * (mcts_visits.txt), whole seeded games between agents (agent_games.txt),
 * and the records the checkers record writer makes
 * (checkers_records.pdn). A change that moves a line fails and prints the
 * first differing line, expected and got.
 *
 * After a change that is meant to move them, regenerate and commit the files
 * with the change:   HOYLE_UPDATE_GOLDEN=1 build/tests/test_golden
 * HOYLE_SLOW_TESTS=0 (the sanitizer run) checks the bench lines of two cheap
 * variants only; the visit tables always run. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>

#include "core/rng.h"
#include "games/checkers/checkers.h"
#include "games/playout.h"
#include "games/registry.h"
#include "mcts/agent.h"
#include "mcts/bench.h"
#include "mcts/evaluator.h"
#include "mcts/mcts.h"
#include "solve/bench.h"
#include "tests/harness.h"
#include "tests/toy_games.h"

enum { MAX_ITEMS = 64, MAX_THREADS = 16 };

static bool env_is(const char *name, const char *value)
{
    const char *v = getenv(name);
    return v && strcmp(v, value) == 0;
}

/* The next line of `*p` (without its newline) in line[cap]; false at the end. */
static bool next_line(const char **p, char *line, size_t cap)
{
    if (**p == '\0') return false;
    size_t n = strcspn(*p, "\n");
    snprintf(line, cap, "%.*s", (int)n, *p);
    *p += n + ((*p)[n] == '\n');
    return true;
}

/* Does `line` belong to one of `only` (lines "<prefix> ...")? NULL = all. */
static bool kept(const char *line, const char *const *only)
{
    if (only == NULL) return true;
    for (int i = 0; only[i]; i++) {
        size_t n = strlen(only[i]);
        if (strncmp(line, only[i], n) == 0 && line[n] == ' ') return true;
    }
    return false;
}

/* Compare `actual` with tests/data/golden/<name> line by line (only the golden
 * lines kept by `only`), or rewrite the file under HOYLE_UPDATE_GOLDEN=1. */
static void golden_compare(const char *name, const char *actual, const char *const *only)
{
    char rel[256], path[1024];
    snprintf(rel, sizeof rel, "golden/%s", name);
    snprintf(path, sizeof path, "%s/%s", HOYLE_TEST_DATA, rel);
    if (env_is("HOYLE_UPDATE_GOLDEN", "1")) {
        FILE *f = fopen(path, "w");
        CU_ASSERT_FATAL(f != NULL);
        fputs(actual, f);
        CU_ASSERT(fclose(f) == 0);
        printf("\n  golden: wrote %s\n", path);
        return;
    }
    char *expected = harness_read_data(rel);
    if (expected == NULL) {
        fprintf(stderr, "%s: missing (HOYLE_UPDATE_GOLDEN=1 writes it)\n", path);
        CU_FAIL("golden file missing");
        return;
    }
    const char *e = expected, *a = actual;
    char le[512], la[512];
    int line = 0;
    for (;;) {
        bool have_e;
        do {
            have_e = next_line(&e, le, sizeof le);
            line++;
        } while (have_e && !kept(le, only));
        bool have_a = next_line(&a, la, sizeof la);
        if (!have_e && !have_a) break;
        if (!have_e || !have_a || strcmp(le, la) != 0) {
            fprintf(stderr,
                    "%s:%d: first differing line\n  expected: %s\n  got:      %s\n"
                    "(HOYLE_UPDATE_GOLDEN=1 rewrites the file when the change is intended)\n",
                    path, line, have_e ? le : "(end of file)", have_a ? la : "(end of output)");
            CU_FAIL("output differs from the golden file");
            break;
        }
    }
    free(expected);
}

/* ---- the bench counts ---- */

typedef struct bench_jobs {
    int n;
    const char *specs[MAX_ITEMS];
    bench_item_t items[MAX_ITEMS];
    int status[MAX_ITEMS];
    char error[MAX_ITEMS][256];
    atomic_int next;
} bench_jobs_t;

/* Items are independent and each one is single-threaded and seeded, so the
 * counts do not depend on how many run at once; threads only save time. */
static void *bench_worker(void *arg)
{
    bench_jobs_t *jobs = arg;
    for (int i; (i = atomic_fetch_add(&jobs->next, 1)) < jobs->n;) {
        jobs->status[i] = bench_item(jobs->specs[i], &jobs->items[i]);
        if (jobs->status[i])
            snprintf(jobs->error[i], sizeof jobs->error[i], "%s", hoyle_last_error());
    }
    return NULL;
}

/* One line per deterministic count of an item, in `hoyle bench` order. */
static void bench_lines(FILE *out, const bench_item_t *r)
{
    const char *s = r->spec;
    fprintf(out, "%s perft_depth %d\n", s, r->perft_depth);
    fprintf(out, "%s perft_nodes %llu\n", s, (unsigned long long)r->perft_nodes);
    fprintf(out, "%s random_games %llu\n", s, (unsigned long long)r->random.games);
    fprintf(out, "%s random_actions %llu\n", s, (unsigned long long)r->random.actions);
    fprintf(out, "%s random_moves %llu\n", s, (unsigned long long)r->random.moves);
    fprintf(out, "%s random_wins %llu %llu\n", s, (unsigned long long)r->random.wins[0],
            (unsigned long long)r->random.wins[1]);
    fprintf(out, "%s random_draws %llu\n", s, (unsigned long long)r->random.draws);
    fprintf(out, "%s random_length_min_max %d %d\n", s, r->random.len_min, r->random.len_max);
    fprintf(out, "%s mcts_sims %lld\n", s, r->mcts.count);
    fprintf(out, "%s mcts_signature %016llx\n", s, (unsigned long long)r->mcts.signature);
    fprintf(out, "%s alphabeta_depth %d\n", s, r->ab_depth);
    fprintf(out, "%s alphabeta_nodes %lld\n", s, r->ab.count);
    fprintf(out, "%s alphabeta_signature %016llx\n", s, (unsigned long long)r->ab.signature);
    fprintf(out, "%s nodes %llu\n", s, (unsigned long long)bench_item_nodes(r));
}

static void test_bench_counts(void)
{
    /* The cheap items that still run with HOYLE_SLOW_TESTS=0. */
    static const char *const quick[] = {"checkers(variant=devil)", "gobang(board=5,men=6)", NULL};
    bool all = !env_is("HOYLE_SLOW_TESTS", "0") || env_is("HOYLE_UPDATE_GOLDEN", "1");
    bench_jobs_t *jobs = calloc(1, sizeof *jobs);
    CU_ASSERT_FATAL(jobs != NULL);
    if (all) {
        for (int i = 0; game_registry[i]; i++)
            for (int v = 0; game_registry[i]->variants[v] && jobs->n < MAX_ITEMS; v++)
                jobs->specs[jobs->n++] = game_registry[i]->variants[v];
    } else {
        for (int i = 0; quick[i]; i++) jobs->specs[jobs->n++] = quick[i];
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int nthreads = cpus < 1 ? 1 : cpus > MAX_THREADS ? MAX_THREADS : (int)cpus;
    if (nthreads > jobs->n) nthreads = jobs->n;
    pthread_t threads[MAX_THREADS];
    for (int t = 0; t < nthreads; t++)
        CU_ASSERT_FATAL(pthread_create(&threads[t], NULL, bench_worker, jobs) == 0);
    for (int t = 0; t < nthreads; t++) pthread_join(threads[t], NULL);

    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    CU_ASSERT_FATAL(out != NULL);
    uint64_t total = 0;
    const char *only[MAX_ITEMS + 1] = {NULL};
    for (int i = 0; i < jobs->n; i++) {
        if (jobs->status[i]) {
            fprintf(stderr, "bench %s: %s\n", jobs->specs[i], jobs->error[i]);
            CU_FAIL("a bench item failed");
            continue;
        }
        bench_lines(out, &jobs->items[i]);
        total += bench_item_nodes(&jobs->items[i]);
        only[i] = jobs->items[i].spec; /* canonical spec, as in the golden lines */
    }
    /* the solver items of `hoyle bench`, after the games */
    solve_bench_item_t sv[SOLVE_BENCH_ITEMS];
    if (all) HARNESS_OK(solve_bench(sv));
    for (int i = 0; all && i < SOLVE_BENCH_ITEMS; i++) {
        fprintf(out, "%s solver_instances %d\n", sv[i].name, sv[i].instances);
        fprintf(out, "%s solver_length %ld\n", sv[i].name, sv[i].total_length);
        fprintf(out, "%s solver_nodes %llu\n", sv[i].name, (unsigned long long)sv[i].nodes);
        total += sv[i].nodes;
    }
    if (all) fprintf(out, "total nodes %llu\n", (unsigned long long)total);
    fclose(out);
    golden_compare("bench.txt", text, all ? NULL : only);
    free(text);
    free(jobs);
}

/* ---- seeded MCTS visit tables ---- */

/* One search from `start`, then one line per root action: its text, visits
 * and Q for the player to move (4 decimals), and the search's summary. */
static void visit_table(FILE *out, const game_t *g, const char *label, const void *start,
                        const mcts_params_t *p, evaluator_t *e)
{
    mcts_t *m = NULL;
    const mcts_result_t *r = NULL;
    fprintf(out, "%s %s\n", g->spec, label);
    HARNESS_OK(mcts_create(g, p, e, &m));
    if (m) HARNESS_OK(mcts_search(m, start, &r));
    if (r == NULL) {
        fprintf(out, "%s search failed\n", g->spec);
        mcts_free(m);
        return;
    }
    for (int i = 0; i < r->num_children; i++) {
        char a[GAME_MOVE_MAX];
        if (game_action_to_string(g, start, r->actions[i], a, sizeof a) < 0)
            snprintf(a, sizeof a, "#%d", r->actions[i]);
        fprintf(out, "%s %-8s visits %5d q %+.4f%s\n", g->spec, a, r->visits[i], r->q[i],
                r->proven[i] ? " proven" : "");
    }
    char best[GAME_MOVE_MAX] = "-";
    if (r->num_children > 0) game_action_to_string(g, start, r->best_action, best, sizeof best);
    /* nodes: visited positions; edges: the moves of expanded nodes (edges + 1 is
     * the node count of the tree before compact edges, which held every move) */
    fprintf(out, "%s sims %lld nodes %zu edges %zu best %s value %+.4f\n", g->spec, r->sims,
            r->nodes_used, r->edges_used, best, r->value[r->player]);
    mcts_free(m);
}

/* UCT with one seeded random rollout per leaf (the bench's search) and PUCT
 * with the seeded fake network, from `start`. */
static void game_tables(FILE *out, const game_t *g, const void *start, long long sims, bool puct)
{
    mcts_params_t p;
    mcts_params_default(&p);
    p.max_sims = sims;
    p.seed = 7;
    p.max_nodes = (size_t)sims * (size_t)(g->max_legal < 64 ? g->max_legal : 64) * 2 + 4096;
    evaluator_t *e = NULL;
    HARNESS_OK(evaluator_rollout_create(g, 1, 11, &e));
    char label[64];
    snprintf(label, sizeof label, "uct rollout sims=%lld seed=7", sims);
    if (e) visit_table(out, g, label, start, &p, e);
    evaluator_free(e);
    if (!puct) return;
    e = NULL;
    p.select = MCTS_PUCT;
    p.batch = 4;
    HARNESS_OK(evaluator_fake_create(g, 13, p.batch, &e));
    snprintf(label, sizeof label, "puct fake-net batch=4 sims=%lld seed=7", sims);
    if (e) visit_table(out, g, label, start, &p, e);
    evaluator_free(e);
}

static void test_mcts_visits(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    CU_ASSERT_FATAL(out != NULL);
    static const struct {
        const char *spec;
        long long sims;
        bool puct;
    } games[] = {
        {"checkers", 2000, true},
        {"gobang(board=8,men=12)", 1000, true},
        {"gobang(board=5,men=6)", 1000, false},
        {"backgammon", 500, true}, /* from after the opening roll (bench_start) */
    };
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        const game_t *g = NULL;
        HARNESS_OK(game_create(games[i].spec, &g));
        if (g == NULL) continue; /* the failure is already recorded */
        void *s = malloc(g->state_size);
        CU_ASSERT_FATAL(s != NULL);
        HARNESS_OK(bench_start(g, s));
        game_tables(out, g, s, games[i].sims, games[i].puct);
        free(s);
        game_free(g);
    }
    static const char *const toys[] = {"ttt", "dice", "puzzle", "chain"};
    for (size_t i = 0; i < sizeof toys / sizeof toys[0]; i++) {
        const game_t *g = toy_create(toys[i]);
        CU_ASSERT_FATAL(g != NULL);
        void *s = malloc(g->state_size);
        CU_ASSERT_FATAL(s != NULL);
        HARNESS_OK(bench_start(g, s));
        game_tables(out, g, s, 400, true);
        free(s);
        toy_free(g);
    }
    fclose(out);
    golden_compare("mcts_visits.txt", text, NULL);
    free(text);
}

/* ---- seeded agent games ---- */

typedef struct move_log {
    FILE *out;
    const game_t *g;
    int ply;
} move_log_t;

static void log_move(void *ctx, const void *state_before, int player, int action)
{
    move_log_t *l = ctx;
    char a[GAME_MOVE_MAX];
    if (game_action_to_string(l->g, state_before, action, a, sizeof a) < 0)
        snprintf(a, sizeof a, "#%d", action);
    fprintf(l->out, "%s %3d %s %s\n", l->g->spec, l->ply++,
            player == PLAYER_CHANCE ? "chance"
            : player == 0           ? "p0"
                                    : "p1",
            a);
}

/* Whole seeded games between agents through agent_play_game(), one line per
 * action: the search agents' tree reuse (agent_observe), their move choice
 * and the driver's dice all show in the moves. */
static void test_agent_games(void)
{
    static const struct {
        const char *game, *a, *b;
        uint64_t seed;
    } games[] = {
        {"checkers", "mcts(sims=200)", "alphabeta(depth=3)", 5},
        {"gobang(board=5,men=6)", "mcts(sims=200)", "mcts(sims=100)", 6},
        {"backgammon", "mcts(sims=50)", "greedy", 7},
    };
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    CU_ASSERT_FATAL(out != NULL);
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        const game_t *g = NULL;
        agent_t *ag[2] = {NULL, NULL};
        HARNESS_OK(game_create(games[i].game, &g));
        if (g == NULL) continue;
        HARNESS_OK(agent_create(g, games[i].a, games[i].seed, &ag[0]));
        HARNESS_OK(agent_create(g, games[i].b, games[i].seed + 100, &ag[1]));
        if (ag[0] && ag[1]) {
            fprintf(out, "%s %s vs %s seed %llu\n", g->spec, games[i].a, games[i].b,
                    (unsigned long long)games[i].seed);
            move_log_t log = {.out = out, .g = g};
            double r[GAME_MAX_PLAYERS] = {0};
            int length = 0;
            HARNESS_OK(agent_play_game(g, ag, NULL, games[i].seed, log_move, &log, r, &length));
            fprintf(out, "%s returns %+.4f %+.4f length %d\n", g->spec, r[0], r[1], length);
        }
        agent_free(ag[0]);
        agent_free(ag[1]);
        game_free(g);
    }
    fclose(out);
    golden_compare("agent_games.txt", text, NULL);
    free(text);
}

/* ---- game records ---- */

/* Seeded random games of the checkers variants through the record writer
 * (game_record_to_string: PDN), compared with golden/checkers_records.pdn,
 * and each record read back by the PDN reader to the same actions. */
static void test_checkers_records(void)
{
    static const char *const specs[] = {"checkers", "checkers(variant=polish)",
                                        "checkers(variant=losing)"};
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    CU_ASSERT_FATAL(out != NULL);
    size_t cap = 1 << 16;
    char *buf = malloc(cap);
    checkers_pdn_game_t *back = malloc(sizeof *back);
    CU_ASSERT_FATAL(buf && back);
    for (int i = 0; i < 3; i++) {
        const game_t *g = NULL;
        HARNESS_OK(game_create(specs[i], &g));
        if (g == NULL) continue;
        int *actions = malloc(sizeof *actions * (size_t)g->max_game_length);
        int *legal = malloc(sizeof *legal * (size_t)game_scratch_actions(g));
        void *start = malloc(g->state_size), *s = malloc(g->state_size);
        CU_ASSERT_FATAL(actions && legal && start && s);
        game_init(g, start);
        memcpy(s, start, g->state_size);
        rng_t rng;
        rng_init(&rng, 2024 + (uint64_t)i);
        int n = 0;
        while (!game_is_terminal(g, s) && n < 120) {
            actions[n] = game_random_action(g, s, &rng, legal, NULL);
            game_apply(g, s, actions[n++]);
        }
        game_record_tags_t tags = {.event = "golden",
                                   .round = i + 1,
                                   .players = {"random(seed=1)", NULL},
                                   .score = i == 2 ? -1 : 0.5,
                                   .opening = i == 0 ? "Old Faithful" : NULL,
                                   .termination = "move_limit"};
        int w = game_record_to_string(g, &tags, start, actions, n, buf, cap);
        HARNESS_OK(w);
        if (w > 0) {
            fprintf(out, "%s\n", buf);
            HARNESS_OK(checkers_pdn_read(g, buf, back));
            CU_ASSERT_EQUAL(back->num_actions, n);
            CU_ASSERT(memcmp(back->actions, actions, sizeof *actions * (size_t)n) == 0);
        }
        free(s), free(start), free(legal), free(actions);
        game_free(g);
    }
    fclose(out);
    golden_compare("checkers_records.pdn", text, NULL);
    free(text);
    free(back);
    free(buf);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"hoyle bench counts = golden/bench.txt", test_bench_counts},
        {"seeded MCTS root visits = golden/mcts_visits.txt", test_mcts_visits},
        {"seeded agent games = golden/agent_games.txt", test_agent_games},
        {"checkers records (PDN) = golden/checkers_records.pdn", test_checkers_records},
        {NULL, NULL},
    };
    return harness_run("golden", tests);
}
