/* test_mcts_root.c — root parallelism (params.parallel = MCTS_PARALLEL_ROOT,
 * mcts/mcts_root.c): threads=2 with one tree each proves the values threads=1
 * proves on solved toy positions; the merged root holds both trees' visits
 * (each tree's first simulation is its root's own, so the children's visits
 * are sims - 2, where one shared tree has sims - 1); a seeded search repeats,
 * also after mcts_reseed, and reuses its trees after mcts_advance; the node
 * cap is split and reported whole; the step API, Gumbel, a cap too small to
 * split and an evaluator that cannot be copied are refused with one-line
 * messages; the mcts agent takes parallel=root. scripts/tsan runs this suite
 * under ThreadSanitizer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/rng.h"
#include "games/registry.h"
#include "mcts/agent.h"
#include "mcts/bench.h"
#include "mcts/evaluator.h"
#include "mcts/mcts.h"
#include "tests/harness.h"
#include "tests/toy_games.h"

/* A search of `p` from `g`'s start with a rollout evaluator (seed `eval_seed`). */
typedef struct run {
    int n, visits[512], best, pv_len;
    double q[512];
    long long sims, sum, root_visits;
    size_t max_nodes;
    bool proven;
    int threads;
} run_t;

static void copy_result(const mcts_result_t *r, run_t *o)
{
    memset(o, 0, sizeof *o);
    o->n = r->num_children;
    for (int c = 0; c < r->num_children && c < 512; c++) {
        o->visits[c] = r->visits[c];
        o->q[c] = r->q[c];
        o->sum += r->visits[c];
    }
    o->best = r->best_action;
    o->pv_len = r->pv_len;
    o->sims = r->sims;
    o->root_visits = r->root_visits;
    o->max_nodes = r->max_nodes;
    o->proven = r->root_proven;
    o->threads = r->threads;
}

static void search_seeded(const char *spec, const mcts_params_t *p, uint64_t eval_seed, run_t *o)
{
    const game_t *g = NULL;
    evaluator_t *e = NULL;
    mcts_t *m = NULL;
    memset(o, 0, sizeof *o);
    HARNESS_OK(game_create(spec, &g));
    HARNESS_OK(evaluator_rollout_create(g, 1, eval_seed, &e));
    HARNESS_OK(mcts_create(g, p, e, &m));
    void *s = malloc(g->state_size);
    HARNESS_OK(bench_start(g, s));
    const mcts_result_t *r = NULL;
    if (m) HARNESS_OK(mcts_search(m, s, &r));
    if (r) copy_result(r, o);
    free(s);
    mcts_free(m);
    evaluator_free(e);
    game_free(g);
}

static void search_run(const char *spec, const mcts_params_t *p, run_t *o)
{
    search_seeded(spec, p, 5, o);
}

static mcts_params_t root_params(long long sims, int threads, mcts_parallel_t parallel)
{
    mcts_params_t p;
    mcts_params_default(&p);
    p.max_sims = sims;
    p.solver = false;
    p.threads = threads;
    p.parallel = parallel;
    p.seed = 11;
    return p;
}

/* threads=2, parallel=root proves what threads=1 proves, the exact value, on
 * the solved toy positions (toy_position: nim, tic-tac-toe, the chain toy, the
 * dice toy with chance nodes, the one-player puzzle). */
static void test_root_prove_same(void)
{
    for (int i = 0; i < TOY_POSITIONS; i++) {
        void *s = NULL;
        int player = 0;
        const char *toy = NULL;
        const game_t *g = toy_position(i, &s, &player, &toy);
        double want = toy_solve(g, s, player), got[2] = {99, 99};
        bool proven[2] = {false, false};
        int best[2] = {-1, -1};
        for (int t = 0; t < 2; t++) {
            mcts_params_t p = root_params(400000, t + 1, MCTS_PARALLEL_ROOT);
            p.solver = true;
            evaluator_t *e = NULL;
            mcts_t *m = NULL;
            HARNESS_OK(evaluator_rollout_create(g, 1, 5, &e));
            HARNESS_OK(mcts_create(g, &p, e, &m));
            const mcts_result_t *r = NULL;
            if (m) HARNESS_OK(mcts_search(m, s, &r));
            if (r) {
                proven[t] = r->root_proven;
                got[t] = r->proven_value[player];
                best[t] = r->best_action;
                CU_ASSERT_EQUAL(r->threads, t + 1);
            }
            mcts_free(m);
            evaluator_free(e);
        }
        if (!(proven[0] && proven[1]) || fabs(got[1] - want) > 1e-5)
            fprintf(stderr, "%s: proven %d %d, values %g %g, want %g\n", toy, proven[0], proven[1],
                    got[0], got[1], want);
        CU_ASSERT(proven[0] && proven[1]);
        CU_ASSERT_DOUBLE_EQUAL(got[0], want, 1e-5);
        CU_ASSERT_DOUBLE_EQUAL(got[1], want, 1e-5);
        CU_ASSERT(game_is_legal(g, s, best[1]));
        free(s);
        toy_free(g);
    }
}

/* The merged root holds both trees' visits: sims in all, children's visits
 * sims - 2 (one root evaluation per tree), at least tree 0's own visits per
 * child (tree 0 = a one-thread search of half the budget with the same seed),
 * Q a visit-weighted mean in [-1, 1]. Tree mode with one shared tree has
 * sims - 1: a knob that is ignored fails here. */
static void test_root_merge(void)
{
    const char *specs[] = {"checkers", "gobang(board=9,men=0)"};
    for (int i = 0; i < 2; i++) {
        run_t root, tree, half;
        mcts_params_t p = root_params(2001, 2, MCTS_PARALLEL_ROOT);
        search_run(specs[i], &p, &root);
        p.parallel = MCTS_PARALLEL_TREE;
        search_run(specs[i], &p, &tree);
        p = root_params(1001, 1, MCTS_PARALLEL_TREE); /* tree 0: the remainder goes to it */
        search_run(specs[i], &p, &half);
        CU_ASSERT_EQUAL(root.sims, 2001);
        CU_ASSERT_EQUAL(root.root_visits, 2001);
        CU_ASSERT_EQUAL(root.sum, 2001 - 2);
        CU_ASSERT_EQUAL(tree.sum, 2001 - 1);
        CU_ASSERT_EQUAL(root.threads, 2);
        CU_ASSERT_EQUAL(root.n, half.n);
        bool above = true, diff = false, qok = true;
        int most = 0;
        for (int c = 0; c < root.n && c < half.n; c++) {
            above = above && root.visits[c] >= half.visits[c];
            diff = diff || root.visits[c] != 2 * half.visits[c];
            qok = qok && root.q[c] >= -1 && root.q[c] <= 1;
            /* a child only tree 0 visited keeps tree 0's Q */
            if (root.visits[c] == half.visits[c] && half.visits[c] > 0)
                qok = qok && fabs(root.q[c] - half.q[c]) < 1e-9;
            if (root.visits[c] > root.visits[most]) most = c;
        }
        CU_ASSERT(above && diff && qok);
        CU_ASSERT(root.pv_len >= 1);
        (void)most;
    }
}

/* The merge, exactly: tree 0 is a one-thread search of the remainder's share
 * with the searcher's seed and evaluator, tree 1 one of the other share with
 * the salted seed mcts_root.c documents (seed ^ ("root" << 32 | k), mixed)
 * and an evaluator clone seeded by its mix; the merged visits are their sums
 * and the merged Q their visit-weighted mean, child by child. */
static void test_root_merge_exact(void)
{
    run_t root, t0, t1;
    mcts_params_t p = root_params(2001, 2, MCTS_PARALLEL_ROOT);
    search_run("checkers", &p, &root);
    mcts_params_t q = root_params(1001, 1, MCTS_PARALLEL_TREE);
    search_run("checkers", &q, &t0);
    q.max_sims = 1000;
    q.seed = rng_mix(p.seed ^ (0x726f6f7400000000ull + 1));
    search_seeded("checkers", &q, rng_mix(q.seed), &t1);
    CU_ASSERT(root.n > 0 && root.n == t0.n && root.n == t1.n);
    int bad = 0;
    for (int c = 0; c < root.n; c++) {
        int v = t0.visits[c] + t1.visits[c];
        double want = v > 0 ? (t0.visits[c] * t0.q[c] + t1.visits[c] * t1.q[c]) / v : 0.0;
        if (root.visits[c] != v || fabs(root.q[c] - want) > 1e-9) bad++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(root.root_visits, t0.root_visits + t1.root_visits);
}

/* Seeded and limited by simulations, root mode repeats itself, and
 * mcts_reseed restarts every tree: the same search again. mcts_advance keeps
 * each tree's subtree: the next search starts with visits. */
static void test_root_repeat_reseed_advance(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("checkers", &g));
    if (!g) return;
    mcts_params_t p = root_params(1500, 3, MCTS_PARALLEL_ROOT);
    run_t a, b, c, d;
    search_run("checkers", &p, &a);
    search_run("checkers", &p, &b);
    CU_ASSERT_EQUAL(a.sum, 1500 - 3);
    CU_ASSERT(a.n > 0 && memcmp(a.visits, b.visits, sizeof a.visits) == 0);
    evaluator_t *e = NULL;
    mcts_t *m = NULL;
    HARNESS_OK(evaluator_rollout_create(g, 1, 5, &e));
    HARNESS_OK(mcts_create(g, &p, e, &m));
    void *s = malloc(g->state_size);
    HARNESS_OK(bench_start(g, s));
    const mcts_result_t *r = NULL;
    if (m) HARNESS_OK(mcts_search(m, s, &r));
    if (r) copy_result(r, &c);
    /* reseed with the same seed, and the rollouts too: the first search again */
    mcts_reseed(m, p.seed);
    evaluator_reseed(e, 5);
    if (m) HARNESS_OK(mcts_search(m, s, &r));
    if (r) copy_result(r, &d);
    CU_ASSERT(memcmp(c.visits, d.visits, sizeof c.visits) == 0);
    CU_ASSERT(memcmp(a.visits, c.visits, sizeof a.visits) == 0);
    /* advance along the best move: every tree keeps its subtree */
    if (r) {
        int best = r->best_action;
        void *before = malloc(g->state_size);
        memcpy(before, s, g->state_size);
        game_apply(g, s, best);
        mcts_advance(m, before, best);
        HARNESS_OK(mcts_search(m, s, &r));
        CU_ASSERT_EQUAL(r->sims, 1500);
        CU_ASSERT(r->root_visits > 1500); /* the kept subtrees' visits came along */
        free(before);
    }
    free(s);
    mcts_free(m);
    evaluator_free(e);
    game_free(g);
}

/* The cap is split between the trees and reported whole; too small to split,
 * Gumbel and the step API are refused with a message naming the fix. */
static void test_root_refusals(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("checkers", &g));
    if (!g) return;
    evaluator_t *e = NULL;
    HARNESS_OK(evaluator_rollout_create(g, 1, 5, &e));
    mcts_t *m = NULL;
    mcts_params_t p = root_params(300, 2, MCTS_PARALLEL_ROOT);
    p.max_nodes = 3;
    CU_ASSERT_EQUAL(mcts_create(g, &p, e, &m), HOYLE_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "nodes must be >= 4"));
    p.max_nodes = 0;
    p.gumbel = true;
    CU_ASSERT_EQUAL(mcts_create(g, &p, e, &m), HOYLE_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "parallel=tree"));
    p.gumbel = false;
    p.max_nodes = 100000;
    HARNESS_OK(mcts_create(g, &p, e, &m));
    void *s = malloc(g->state_size);
    HARNESS_OK(bench_start(g, s));
    if (m) {
        CU_ASSERT_EQUAL(mcts_search_begin(m, s), HOYLE_EINVAL);
        CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "parallel=root"));
        const mcts_result_t *r = NULL;
        HARNESS_OK(mcts_search(m, s, &r));
        if (r) CU_ASSERT_EQUAL(r->max_nodes, 100000);
    }
    free(s);
    mcts_free(m);
    evaluator_free(e);
    game_free(g);
}

/* An evaluator without a clone slot (a network's case): root mode refuses it. */
static int forward_evaluate(evaluator_t *e, const void *states, int n, double *values,
                            float *priors)
{
    return evaluator_evaluate(e->impl, states, n, values, priors);
}
static void forward_destroy(evaluator_t *e) { (void)e; }
static const evaluator_vt_t forward_vt = {.evaluate = forward_evaluate, .destroy = forward_destroy};

static void test_root_uncopyable(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("checkers", &g));
    if (!g) return;
    evaluator_t *inner = NULL;
    HARNESS_OK(evaluator_rollout_create(g, 1, 5, &inner));
    evaluator_t fwd = {
        .vt = &forward_vt, .g = g, .name = "forward", .max_batch = 64, .impl = inner};
    mcts_t *m = NULL;
    mcts_params_t p = root_params(300, 2, MCTS_PARALLEL_ROOT);
    CU_ASSERT_EQUAL(mcts_create(g, &p, &fwd, &m), HOYLE_EINVAL);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "cannot be copied"));
    /* tree mode shares it under a lock instead */
    p.parallel = MCTS_PARALLEL_TREE;
    HARNESS_OK(mcts_create(g, &p, &fwd, &m));
    mcts_free(m);
    evaluator_free(inner);
    game_free(g);
}

/* The mcts agent's parallel=root: a legal move; a bad mode and root mode's
 * refusal of Gumbel reach the agent's creation. */
static void test_root_agent(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("gobang(board=9,men=0)", &g));
    if (!g) return;
    agent_t *a = NULL;
    HARNESS_OK(agent_create(g, "mcts(sims=400,threads=2,parallel=root)", 3, &a));
    agent_t *bad = NULL;
    CU_ASSERT_NOT_EQUAL(agent_create(g, "mcts(threads=2,parallel=leaf)", 3, &bad), HOYLE_OK);
    /* the key reaches the search: Gumbel is refused in root mode only */
    CU_ASSERT_NOT_EQUAL(
        agent_create(g, "mcts(sims=64,threads=2,parallel=root,gumbel=true)", 3, &bad), HOYLE_OK);
    HARNESS_OK(agent_create(g, "mcts(sims=64,threads=2,gumbel=true)", 3, &bad));
    agent_free(bad);
    void *s = malloc(g->state_size);
    game_init(g, s);
    int action = -1;
    if (a) HARNESS_OK(agent_act(a, s, &action));
    CU_ASSERT(game_is_legal(g, s, action));
    free(s);
    agent_free(a);
    game_free(g);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"root: threads=2 proves the values threads=1 proves", test_root_prove_same},
        {"root: visits of both trees merged", test_root_merge},
        {"root: the merge is the trees' sums and weighted means", test_root_merge_exact},
        {"root: repeatable, reseed, advance", test_root_repeat_reseed_advance},
        {"root: cap split, refusals", test_root_refusals},
        {"root: an evaluator that cannot be copied", test_root_uncopyable},
        {"root: the mcts agent's parallel=root", test_root_agent},
        {NULL, NULL},
    };
    return harness_run("mcts_root", tests);
}
