/* test_mcts.c — MCTS on the toy games: convergence to the minimax value,
 * MCTS-Solver proofs, chance nodes, chains, one-player puzzles, a full
 * arena, batching with virtual loss, tree reuse, noise, determinism; Gumbel
 * root selection (schedule, step API, best move, improved policy); decisive moves;
 * the root proof search (prove=N) against a minimax oracle. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "games/playout.h"
#include "games/registry.h"
#include "mcts/agent.h"
#include "mcts/evaluator.h"
#include "mcts/mcts.h"
#include "tests/harness.h"
#include "tests/toy_games.h"

typedef struct fixture {
    const game_t *g;
    evaluator_t *e;
    mcts_t *m;
    void *s;
} fixture_t;

static void setup(fixture_t *f, const char *toy, const mcts_params_t *p, const char *eval)
{
    f->g = toy_create(toy);
    HARNESS_OK(evaluator_create_named(f->g, eval, 1, 5, &f->e));
    HARNESS_OK(mcts_create(f->g, p, f->e, &f->m));
    f->s = malloc(f->g->state_size);
    game_init(f->g, f->s);
}

static void teardown(fixture_t *f)
{
    mcts_free(f->m);
    evaluator_free(f->e);
    free(f->s);
    toy_free(f->g);
}

static void test_converges_without_solver(void)
{
    mcts_params_t p;
    mcts_params_default(&p);
    p.solver = false;
    p.max_sims = 20000;
    fixture_t f;
    setup(&f, "nim", &p, "rollout");
    /* 6 stones: take 2 (action 1) leaves 4, a win for the mover */
    game_apply(f.g, f.s, 2); /* 15 -> 12 */
    game_apply(f.g, f.s, 2); /* 12 -> 9 */
    game_apply(f.g, f.s, 2); /* 9 -> 6 */
    const mcts_result_t *r;
    HARNESS_OK(mcts_search(f.m, f.s, &r));
    CU_ASSERT_EQUAL(r->best_action, 1);
    CU_ASSERT(r->value[r->player] > 0.6);
    CU_ASSERT(!r->root_proven);
    CU_ASSERT_EQUAL(r->sims, 20000);
    teardown(&f);
    /* tic-tac-toe from the start is a draw: the root value approaches 0 */
    mcts_params_default(&p);
    p.solver = false;
    p.max_sims = 30000;
    setup(&f, "ttt", &p, "rollout");
    HARNESS_OK(mcts_search(f.m, f.s, &r));
    CU_ASSERT(fabs(r->value[0]) < 0.25);
    CU_ASSERT(r->value[0] == -r->value[1]);
    teardown(&f);
}

static void test_solver_proves(void)
{
    mcts_params_t p;
    mcts_params_default(&p);
    p.max_sims = 200000;
    fixture_t f;
    /* nim from 15: proven win, take 3 */
    setup(&f, "nim", &p, "rollout");
    const mcts_result_t *r;
    HARNESS_OK(mcts_search(f.m, f.s, &r));
    CU_ASSERT(r->root_proven);
    CU_ASSERT_DOUBLE_EQUAL(r->proven_value[0], 1.0, 1e-6);
    CU_ASSERT_EQUAL(r->best_action, 2);
    CU_ASSERT(r->sims < 200000);
    teardown(&f);
    /* tic-tac-toe: X to play and win at once (X: 0 1, O: 3 4) */
    setup(&f, "ttt", &p, "rollout");
    int moves[] = {0, 3, 1, 4};
    for (int i = 0; i < 4; i++) game_apply(f.g, f.s, moves[i]);
    HARNESS_OK(mcts_search(f.m, f.s, &r));
    CU_ASSERT(r->root_proven);
    CU_ASSERT_EQUAL(r->best_action, 2);
    teardown(&f);
    /* centre, then a corner reply: a proven draw */
    setup(&f, "ttt", &p, "rollout");
    game_apply(f.g, f.s, 4);
    game_apply(f.g, f.s, 0);
    HARNESS_OK(mcts_search(f.m, f.s, &r));
    CU_ASSERT(r->root_proven);
    CU_ASSERT_DOUBLE_EQUAL(r->proven_value[0], 0.0, 1e-6);
    teardown(&f);
    /* the puzzle: a forced line of three moves reaching 10 exactly */
    setup(&f, "puzzle", &p, "rollout");
    HARNESS_OK(mcts_search(f.m, f.s, &r));
    CU_ASSERT(r->root_proven);
    CU_ASSERT_DOUBLE_EQUAL(r->proven_value[0], 1.0, 1e-6);
    CU_ASSERT(r->pv_len >= 3);
    char c[256];
    memcpy(c, f.s, f.g->state_size);
    for (int i = 0; i < r->pv_len && i < 3; i++) game_apply(f.g, c, r->pv[i]);
    double ret[GAME_MAX_PLAYERS];
    CU_ASSERT(game_is_terminal(f.g, c));
    game_returns(f.g, c, ret);
    CU_ASSERT_DOUBLE_EQUAL(ret[0], 1.0, 1e-9);
    teardown(&f);
}

static void test_chance_nodes(void)
{
    mcts_params_t p;
    mcts_params_default(&p);
    p.max_sims = 400000;
    fixture_t f;
    setup(&f, "dice", &p, "rollout");
    /* three turns: roll 2 bank, roll 3 gamble-lost, roll 1 bank; player 1 rolls 3 */
    int line[] = {3, 0, 4, 1, 6, 2, 0, 4};
    for (int i = 0; i < 8; i++) game_apply(f.g, f.s, line[i]);
    CU_ASSERT_EQUAL(game_current_player(f.g, f.s), 1);
    double last = toy_solve(f.g, f.s, 1);
    const mcts_result_t *r;
    HARNESS_OK(mcts_search(f.m, f.s, &r));
    /* the solver proves the probability-weighted value once every outcome is known */
    CU_ASSERT(r->root_proven);
    CU_ASSERT_DOUBLE_EQUAL(r->proven_value[1], last, 1e-5);
    CU_ASSERT(fabs(last) < 1.0);
    teardown(&f);
    setup(&f, "dice", &p, "rollout");
    game_apply(f.g, f.s, 3); /* roll a 2 */
    double want = toy_solve(f.g, f.s, 0);
    teardown(&f);
    /* without the solver, the sampled-descent average approaches it */
    p.solver = false;
    p.max_sims = 40000;
    setup(&f, "dice", &p, "rollout");
    game_apply(f.g, f.s, 3);
    HARNESS_OK(mcts_search(f.m, f.s, &r));
    CU_ASSERT(fabs(r->value[0] - want) < 0.1);
    teardown(&f);
}

static void test_chains(void)
{
    mcts_params_t p;
    mcts_params_default(&p);
    p.max_sims = 300000;
    for (int take = 0; take < 3; take++) {
        fixture_t f;
        setup(&f, "chain", &p, "rollout");
        game_apply(f.g, f.s, take);
        int player = game_current_player(f.g, f.s);
        double want = toy_solve(f.g, f.s, player);
        const mcts_result_t *r;
        HARNESS_OK(mcts_search(f.m, f.s, &r));
        CU_ASSERT(r->root_proven);
        CU_ASSERT_DOUBLE_EQUAL(r->proven_value[player], want, 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(r->proven_value[1 - player], -want, 1e-6);
        teardown(&f);
    }
}

static void test_full_arena(void)
{
    mcts_params_t p;
    mcts_params_default(&p);
    p.max_nodes = 40;
    p.max_sims = 3000;
    fixture_t f;
    setup(&f, "ttt", &p, "rollout");
    const mcts_result_t *r;
    HARNESS_OK(mcts_search(f.m, f.s, &r));
    CU_ASSERT(r->arena_full);
    CU_ASSERT(r->nodes_used <= 40);
    CU_ASSERT_EQUAL(r->sims, 3000);
    CU_ASSERT(game_is_legal(f.g, f.s, r->best_action));
    teardown(&f);
}

static void test_batching_and_determinism(void)
{
    mcts_params_t p;
    mcts_params_default(&p);
    p.select = MCTS_PUCT;
    p.fpu = MCTS_FPU_PARENT;
    p.batch = 16;
    p.max_sims = 2000;
    p.solver = false;
    p.seed = 11;
    int visits[2][9];
    for (int run = 0; run < 2; run++) {
        fixture_t f;
        setup(&f, "ttt", &p, "fake");
        const mcts_result_t *r;
        HARNESS_OK(mcts_search(f.m, f.s, &r));
        CU_ASSERT_EQUAL(r->sims, 2000);
        CU_ASSERT(r->evaluator_calls < 2000 / 4); /* many leaves per call */
        CU_ASSERT_EQUAL(f.e->evaluations + 0, f.e->evaluations);
        CU_ASSERT_EQUAL(r->num_children, 9);
        long long total = 0;
        for (int c = 0; c < 9; c++) total += visits[run][c] = r->visits[c];
        CU_ASSERT_EQUAL(total + 1, r->root_visits);
        teardown(&f);
    }
    CU_ASSERT(memcmp(visits[0], visits[1], sizeof visits[0]) == 0);
}

/* Two searches share one evaluator through the step API: one call serves
 * the leaves of both trees. */
static void test_shared_evaluator(void)
{
    const game_t *g = toy_create("ttt");
    evaluator_t *e;
    HARNESS_OK(evaluator_fake_create(g, 3, 64, &e));
    mcts_params_t p;
    mcts_params_default(&p);
    p.select = MCTS_PUCT;
    p.batch = 8;
    p.max_sims = 400;
    mcts_t *m[2];
    char s[2][256];
    for (int i = 0; i < 2; i++) {
        HARNESS_OK(mcts_create(g, &p, NULL, &m[i]));
        game_init(g, s[i]);
    }
    game_apply(g, s[1], 4);
    for (int i = 0; i < 2; i++) HARNESS_OK(mcts_search_begin(m[i], s[i]));
    char *pool = malloc(g->state_size * 16);
    double values[16 * 2];
    float *priors = malloc(sizeof(float) * 16 * (size_t)g->num_actions);
    while (!mcts_search_finished(m[0]) || !mcts_search_finished(m[1])) {
        int n[2] = {0, 0};
        for (int i = 0; i < 2; i++) {
            const void *states = NULL;
            if (!mcts_search_finished(m[i])) HARNESS_OK(mcts_search_collect(m[i], &states, &n[i]));
            if (n[i] > 0)
                memcpy(pool + (size_t)(i ? n[0] : 0) * g->state_size, states,
                       g->state_size * (size_t)n[i]);
        }
        if (n[0] + n[1] > 0) HARNESS_OK(evaluator_evaluate(e, pool, n[0] + n[1], values, priors));
        HARNESS_OK(mcts_search_deliver(m[0], values, priors));
        HARNESS_OK(mcts_search_deliver(m[1], values + 2 * n[0],
                                       priors + (size_t)n[0] * (size_t)g->num_actions));
    }
    for (int i = 0; i < 2; i++) {
        const mcts_result_t *r = mcts_search_end(m[i]);
        CU_ASSERT_EQUAL(r->sims, 400);
        CU_ASSERT(game_is_legal(g, s[i], r->best_action));
        mcts_free(m[i]);
    }
    CU_ASSERT(e->calls < 100);
    free(pool);
    free(priors);
    evaluator_free(e);
    toy_free(g);
}

static void test_reuse_noise_temperature(void)
{
    mcts_params_t p;
    mcts_params_default(&p);
    p.max_sims = 2000;
    p.solver = false;
    p.dirichlet_eps = 0.25;
    fixture_t f;
    setup(&f, "ttt", &p, "rollout");
    const mcts_result_t *r;
    HARNESS_OK(mcts_search(f.m, f.s, &r));
    double total = 0;
    for (int c = 0; c < r->num_children; c++) total += r->priors[c];
    CU_ASSERT_DOUBLE_EQUAL(total, 1.0, 1e-4);
    CU_ASSERT(fabs(r->priors[0] - 1.0 / 9) > 1e-6); /* noise changed the uniform prior */
    int a = r->best_action;
    int kept = 0;
    for (int c = 0; c < r->num_children; c++)
        if (r->actions[c] == a) kept = r->visits[c];
    mcts_advance(f.m, f.s, a);
    game_apply(f.g, f.s, a);
    HARNESS_OK(mcts_search(f.m, f.s, &r));
    CU_ASSERT_EQUAL(r->root_visits, kept + 2000); /* the subtree was kept */
    int counts[9] = {0};
    for (int i = 0; i < 200; i++) {
        int b;
        HARNESS_OK(mcts_choose(f.m, 1.0, &b));
        CU_ASSERT(game_is_legal(f.g, f.s, b));
        counts[b]++;
    }
    int distinct = 0;
    for (int i = 0; i < 9; i++) distinct += counts[i] > 0;
    CU_ASSERT(distinct > 1);
    /* a move that is not the root starts a fresh tree */
    char other[256];
    memcpy(other, f.s, f.g->state_size);
    mcts_advance(f.m, other, r->actions[0]);
    game_apply(f.g, other, r->actions[0]);
    mcts_advance(f.m, f.s, 99); /* unknown root: ignored, no crash */
    HARNESS_OK(mcts_search(f.m, other, &r));
    CU_ASSERT(r->root_visits >= 2000);
    teardown(&f);
}

static void test_time_limit_and_errors(void)
{
    mcts_params_t p;
    mcts_params_default(&p);
    p.max_sims = 0;
    p.time_limit_ms = 20;
    fixture_t f;
    setup(&f, "ttt", &p, "heuristic");
    const mcts_result_t *r;
    HARNESS_OK(mcts_search(f.m, f.s, &r));
    CU_ASSERT(r->sims > 0);
    CU_ASSERT(r->seconds < 1.0);
    teardown(&f);
    setup(&f, "dice", &p, "rollout");
    CU_ASSERT_EQUAL(mcts_search(f.m, f.s, &r), HOYLE_ESTATE); /* a chance node */
    teardown(&f);
    p.time_limit_ms = 0;
    const game_t *g = toy_create("nim");
    mcts_t *m = NULL;
    CU_ASSERT_EQUAL(mcts_create(g, &p, NULL, &m), HOYLE_EINVAL);
    toy_free(g);
}

/* Every registered game: a short search from the start (after any opening
 * chance nodes, the dice drawn by a fixed seed) yields a legal move; seeded
 * runs repeat exactly. */
static void test_registry_games(void)
{
    for (int i = 0; game_registry[i]; i++)
        for (int v = 0; game_registry[i]->variants[v]; v++) {
            const game_t *g = NULL;
            HARNESS_OK(game_create(game_registry[i]->variants[v], &g)); /* fails with the message */
            if (g == NULL) continue;
            mcts_params_t p;
            mcts_params_default(&p);
            p.max_sims = 300;
            p.seed = 5;
            int best[2];
            long long nodes[2];
            for (int run = 0; run < 2; run++) {
                evaluator_t *e;
                mcts_t *m;
                HARNESS_OK(evaluator_rollout_create(g, 1, 9, &e));
                HARNESS_OK(mcts_create(g, &p, e, &m));
                void *s = malloc(g->state_size);
                game_init(g, s);
                rng_t dice;
                rng_init(&dice, 11);
                while (game_is_chance(g, s))
                    game_apply(g, s, game_chance_sample_alloc(g, s, &dice));
                const mcts_result_t *r;
                HARNESS_OK(mcts_search(m, s, &r));
                CU_ASSERT(game_is_legal(g, s, r->best_action));
                best[run] = r->best_action;
                nodes[run] = (long long)r->nodes_used;
                free(s);
                mcts_free(m);
                evaluator_free(e);
            }
            CU_ASSERT_EQUAL(best[0], best[1]);
            CU_ASSERT_EQUAL(nodes[0], nodes[1]);
            game_free(g);
        }
}

/* ---- Gumbel root selection (params.gumbel; Danihelka et al. 2022) ---- */

/* An exact two-player evaluator: minimax value, priors with weight `bias`
 * on action `disfavoured` (a misleading prior) and the rest spread evenly. */
typedef struct oracle {
    int disfavoured;
    float bias;
} oracle_t;

static int oracle_evaluate(evaluator_t *e, const void *states, int n, double *values, float *priors)
{
    const oracle_t *o = e->impl;
    const game_t *g = e->g;
    for (int i = 0; i < n; i++) {
        const char *s = (const char *)states + (size_t)i * g->state_size;
        int p = game_current_player(g, s);
        double v = toy_solve(g, s, p);
        values[2 * i + p] = v;
        values[2 * i + 1 - p] = -v;
        if (priors == NULL) continue;
        for (int a = 0; a < g->num_actions; a++)
            priors[(size_t)i * (size_t)g->num_actions + (size_t)a] =
                a == o->disfavoured ? o->bias : 1.0f;
    }
    return HOYLE_OK;
}

static void oracle_destroy(evaluator_t *e)
{
    free(e->impl);
    free(e);
}

static const evaluator_vt_t oracle_vt = {.evaluate = oracle_evaluate, .destroy = oracle_destroy};

static evaluator_t *oracle_create(const game_t *g, int disfavoured, float bias)
{
    evaluator_t *e = calloc(1, sizeof *e);
    oracle_t *o = calloc(1, sizeof *o);
    o->disfavoured = disfavoured;
    o->bias = bias;
    *e = (evaluator_t){.vt = &oracle_vt,
                       .g = g,
                       .name = "oracle",
                       .has_priors = true,
                       .max_batch = 1 << 20,
                       .impl = o};
    return e;
}

static void gumbel_params(mcts_params_t *p, int m, long long sims, int batch, uint64_t seed)
{
    mcts_params_default(p);
    p->select = MCTS_PUCT;
    p->fpu = MCTS_FPU_PARENT;
    p->solver = false;
    p->gumbel = true;
    p->gumbel_m = m;
    p->max_sims = sims;
    p->batch = batch;
    p->seed = seed;
}

/* The visits Sequential Halving gives m candidates from a budget of n
 * (mctx's get_sequence_of_considered_visits), sorted descending; returns the
 * number of candidates still in when the budget ran out. */
static int expected_schedule(int m, long long n, int *out)
{
    memset(out, 0, sizeof(int) * (size_t)m);
    int log2max = 0;
    while ((1 << log2max) < m) log2max++;
    if (log2max == 0) log2max = 1;
    long long spent = 0;
    int k = m, in = m;
    while (spent < n) {
        in = k;
        long long extra = n / ((long long)log2max * k);
        if (extra < 1) extra = 1;
        for (long long e = 0; e < extra; e++)
            for (int i = 0; i < k && spent < n; i++, spent++) out[i]++;
        if (k > 2) k = k / 2 > 2 ? k / 2 : 2;
    }
    return in;
}

static int desc(const void *a, const void *b) { return *(const int *)b - *(const int *)a; }

/* Visits of the considered children match the schedule; the others have none;
 * the move is one still in. `base` = visits per child before the search. */
static void check_schedule(const mcts_result_t *r, int m, long long budget, const int *base)
{
    int want[64], got[64], k = 0, still_in = 0, best_v = -1;
    int in = expected_schedule(m, budget, want);
    CU_ASSERT(r->improved_policy != NULL);
    CU_ASSERT_FATAL(r->considered != NULL);
    for (int c = 0; c < r->num_children; c++) {
        int v = r->visits[c] - (base ? base[c] : 0);
        if (r->considered[c]) {
            if (k < 64) got[k++] = v;
            still_in += r->considered[c] == 2;
            if (r->actions[c] == r->best_action) {
                CU_ASSERT_EQUAL(r->considered[c], 2);
                best_v = v;
            }
        } else {
            CU_ASSERT_EQUAL(v, 0);
            CU_ASSERT(r->actions[c] != r->best_action);
        }
    }
    CU_ASSERT_EQUAL(k, m);
    CU_ASSERT_EQUAL(still_in, in);
    qsort(got, (size_t)k, sizeof(int), desc);
    for (int i = 0; i < k && i < m; i++) CU_ASSERT_EQUAL(got[i], want[i]);
    CU_ASSERT_EQUAL(best_v, want[0]); /* the move has the most visits */
}

static void test_gumbel_schedule(void)
{
    const game_t *g = toy_create("ttt");
    evaluator_t *e;
    HARNESS_OK(evaluator_heuristic_create(g, &e));
    char s[256];
    game_init(g, s);
    static const int ms[] = {1, 2, 3, 4, 8, 9, 16};
    static const long long budgets[] = {32, 7, 100};
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++)
        for (size_t j = 0; j < sizeof budgets / sizeof budgets[0]; j++)
            for (int batch = 1; batch <= 8; batch += 7) {
                mcts_params_t p;
                gumbel_params(&p, ms[i], budgets[j] + 1, batch, 3 + i);
                mcts_t *m;
                HARNESS_OK(mcts_create(g, &p, e, &m));
                const mcts_result_t *r;
                HARNESS_OK(mcts_search(m, s, &r));
                CU_ASSERT_EQUAL(r->sims, budgets[j] + 1); /* +1: the root's own evaluation */
                CU_ASSERT_EQUAL(r->num_children, 9);
                check_schedule(r, ms[i] < 9 ? ms[i] : 9, budgets[j], NULL);
                CU_ASSERT(game_is_legal(g, s, r->best_action));
                mcts_free(m);
            }
    evaluator_free(e);
    toy_free(g);
}

/* The step API with a batch, tree reuse in a second search, and repeatability. */
static void test_gumbel_step_api_reuse(void)
{
    const game_t *g = toy_create("ttt");
    evaluator_t *e;
    HARNESS_OK(evaluator_fake_create(g, 7, 64, &e));
    int visits[3][9], best[3];
    for (int run = 0; run < 3; run++) {
        mcts_params_t p;
        gumbel_params(&p, 4, 41, 4, run < 2 ? 21 : 22);
        mcts_t *m;
        char s[256];
        game_init(g, s);
        HARNESS_OK(mcts_create(g, &p, NULL, &m));
        HARNESS_OK(mcts_search_begin(m, s));
        double values[4 * 2];
        float *priors = malloc(sizeof(float) * 4 * (size_t)g->num_actions);
        while (!mcts_search_finished(m)) {
            const void *states;
            int n;
            HARNESS_OK(mcts_search_collect(m, &states, &n));
            if (n > 0) HARNESS_OK(evaluator_evaluate(e, states, n, values, priors));
            HARNESS_OK(mcts_search_deliver(m, values, priors));
        }
        const mcts_result_t *r = mcts_search_end(m);
        check_schedule(r, 4, 40, NULL);
        double total = 0;
        for (int c = 0; c < 9; c++) {
            visits[run][c] = r->visits[c];
            total += r->improved_policy[c];
        }
        CU_ASSERT_DOUBLE_EQUAL(total, 1.0, 1e-5);
        best[run] = r->best_action;
        /* the next search starts from the kept subtree and spends its own budget */
        int a = r->best_action;
        mcts_advance(m, s, a);
        game_apply(g, s, a);
        HARNESS_OK(mcts_search_begin(m, s));
        const mcts_result_t *r2 = mcts_search_end(m);
        int base[9] = {0};
        for (int c = 0; c < r2->num_children; c++) base[c] = r2->visits[c];
        int kids = r2->num_children;
        HARNESS_OK(mcts_search_begin(m, s));
        while (!mcts_search_finished(m)) {
            const void *states;
            int n;
            HARNESS_OK(mcts_search_collect(m, &states, &n));
            if (n > 0) HARNESS_OK(evaluator_evaluate(e, states, n, values, priors));
            HARNESS_OK(mcts_search_deliver(m, values, priors));
        }
        r2 = mcts_search_end(m);
        CU_ASSERT_EQUAL(r2->num_children, kids);
        CU_ASSERT_EQUAL(r2->sims, 41);
        if (kids > 0) check_schedule(r2, 4, 41, base); /* the root was expanded: all 41 */
        free(priors);
        mcts_free(m);
    }
    CU_ASSERT(memcmp(visits[0], visits[1], sizeof visits[0]) == 0);
    CU_ASSERT_EQUAL(best[0], best[1]);
    evaluator_free(e);
    toy_free(g);
}

/* With an exact evaluator the move is a winning one, even against a
 * misleading prior; the improved policy moves mass towards it. */
static void test_gumbel_best_and_policy(void)
{
    const game_t *g = toy_create("nim");
    char s[256];
    game_init(g, s);
    for (int i = 0; i < 3; i++) game_apply(g, s, 2); /* 15 -> 6: take 2 (action 1) wins */
    for (int misleading = 0; misleading < 2; misleading++)
        for (uint64_t seed = 1; seed <= 8; seed++) {
            evaluator_t *e = oracle_create(g, 1, misleading ? 0.05f : 1.0f);
            mcts_params_t p;
            gumbel_params(&p, 16, 33, 1 + (int)(seed % 3), seed);
            mcts_t *m;
            HARNESS_OK(mcts_create(g, &p, e, &m));
            const mcts_result_t *r;
            HARNESS_OK(mcts_search(m, s, &r));
            CU_ASSERT_EQUAL(r->best_action, 1);
            CU_ASSERT_EQUAL(r->pv[0], 1);
            double total = 0;
            for (int c = 0; c < r->num_children; c++) {
                total += r->improved_policy[c];
                if (r->actions[c] == 1) {
                    CU_ASSERT(r->improved_policy[c] > r->priors[c]);
                    CU_ASSERT(r->improved_policy[c] > 0.9f);
                }
            }
            CU_ASSERT_DOUBLE_EQUAL(total, 1.0, 1e-5);
            mcts_free(m);
            evaluator_free(e);
        }
    toy_free(g);
    /* tic-tac-toe, X (0 1) against O (3 4): the move played wins */
    g = toy_create("ttt");
    game_init(g, s);
    int moves[] = {0, 3, 1, 4};
    for (int i = 0; i < 4; i++) game_apply(g, s, moves[i]);
    for (uint64_t seed = 1; seed <= 4; seed++) {
        evaluator_t *e = oracle_create(g, 2, 0.02f);
        mcts_params_t p;
        gumbel_params(&p, 16, 64, 4, seed);
        mcts_t *m;
        HARNESS_OK(mcts_create(g, &p, e, &m));
        const mcts_result_t *r;
        HARNESS_OK(mcts_search(m, s, &r));
        char c[256];
        memcpy(c, s, g->state_size);
        game_apply(g, c, r->best_action);
        CU_ASSERT_DOUBLE_EQUAL(toy_solve(g, c, 0), 1.0, 1e-9);
        mcts_free(m);
        evaluator_free(e);
    }
    toy_free(g);
}

/* Gumbel off: no improved policy, exactly the PUCT search; bad parameters. */
static void test_gumbel_off_and_errors(void)
{
    const game_t *g = toy_create("ttt");
    evaluator_t *e;
    HARNESS_OK(evaluator_fake_create(g, 7, 64, &e));
    char s[256];
    game_init(g, s);
    mcts_params_t p;
    gumbel_params(&p, 4, 50, 1, 1);
    p.gumbel = false;
    mcts_t *m;
    HARNESS_OK(mcts_create(g, &p, e, &m));
    const mcts_result_t *r;
    HARNESS_OK(mcts_search(m, s, &r));
    CU_ASSERT(r->improved_policy == NULL);
    CU_ASSERT(r->considered == NULL);
    mcts_free(m);
    p.gumbel = true;
    p.max_sims = 0;
    p.time_limit_ms = 10;
    CU_ASSERT_EQUAL(mcts_create(g, &p, e, &m), HOYLE_EINVAL);
    gumbel_params(&p, 0, 10, 1, 1);
    CU_ASSERT_EQUAL(mcts_create(g, &p, e, &m), HOYLE_EINVAL);
    evaluator_free(e);
    toy_free(g);
}

static void test_gumbel_agent_keys(void)
{
    const game_t *g = toy_create("ttt");
    char s[256];
    game_init(g, s);
    agent_t *a;
    HARNESS_OK(
        agent_create(g, "mcts(sims=40,select=puct,eval=fake,gumbel=true,gumbel_m=4)", 3, &a));
    int action;
    HARNESS_OK(agent_act(a, s, &action));
    CU_ASSERT(game_is_legal(g, s, action));
    agent_free(a);
    CU_ASSERT_EQUAL(agent_create(g, "mcts(gumbel=true,gumbel_m=0)", 3, &a), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(agent_create(g, "mcts(gumbel=true,time_ms=5)", 3, &a), HOYLE_EINVAL);
    toy_free(g);
}

/* One PUCT search (fake evaluator, `sims` simulations, decisive moves on or off) of the Go-Bang
 * 8x8 position after `moves`; its result. */
static const mcts_result_t *gobang_search(const game_t *g, const char *moves, bool decisive,
                                          long long sims, mcts_t **m, evaluator_t **e, void *s)
{
    mcts_params_t p;
    mcts_params_default(&p);
    p.select = MCTS_PUCT;
    p.fpu = MCTS_FPU_PARENT;
    p.max_sims = sims;
    p.decisive = decisive;
    game_init(g, s);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, ";"); t; t = strtok(NULL, ";"))
        HARNESS_OK(game_apply_move_string(g, s, t));
    HARNESS_OK(evaluator_create_named(g, "fake", 1, 9, e));
    HARNESS_OK(mcts_create(g, &p, *e, m));
    const mcts_result_t *r = NULL;
    HARNESS_OK(mcts_search(*m, s, &r));
    return r;
}

/* Decisive moves: a win in one is proven the moment the root is expanded (two simulations
 * are enough; without the key they are not), and a move that leaves the opponent a win in
 * one is refuted at its first visit, so the one block is played. */
static void test_decisive_moves(void)
{
    const game_t *g;
    HARNESS_OK(game_create("gobang(board=8,men=12)", &g));
    char s[4096];
    CU_ASSERT_FATAL(g->state_size <= sizeof s);
    mcts_t *m;
    evaluator_t *e;
    int d3;
    /* x on d4-d7, o on d8: x to move wins at d3 */
    const char *win = "d4;d8;d5;a1;d6;a2;d7;a3";
    const mcts_result_t *r = gobang_search(g, win, true, 2, &m, &e, s);
    HARNESS_OK(game_action_from_string(g, s, "d3", &d3));
    CU_ASSERT(r->root_proven);
    CU_ASSERT_DOUBLE_EQUAL(r->proven_value[r->player], 1.0, 1e-6);
    CU_ASSERT_EQUAL(r->best_action, d3);
    CU_ASSERT(r->sims <= 2);
    mcts_free(m);
    evaluator_free(e);
    r = gobang_search(g, win, false, 2, &m, &e, s);
    CU_ASSERT(!r->root_proven);
    mcts_free(m);
    evaluator_free(e);
    /* o to move must block at d3: every other move loses at once */
    const char *block = "d4;d8;d5;a1;d6;a2;d7";
    r = gobang_search(g, block, true, 400, &m, &e, s);
    HARNESS_OK(game_action_from_string(g, s, "d3", &d3));
    CU_ASSERT_EQUAL(r->best_action, d3);
    int refuted = 0, visited = 0; /* every other move tried is refuted: one visit each */
    for (int c = 0; c < r->num_children; c++) {
        if (r->actions[c] == d3 || r->visits[c] == 0) continue;
        visited++;
        refuted += r->proven[c] && r->q[c] <= -1.0 + 1e-6 && r->visits[c] == 1;
    }
    CU_ASSERT(visited > 10);
    CU_ASSERT_EQUAL(refuted, visited);
    mcts_free(m);
    evaluator_free(e);
    /* The visit that expanded a refuted move backs up its exact value, not the evaluator's:
     * after two simulations (the root's own evaluation, then one child) the root's mean is
     * (v(root) + v(child)) / 2 with v(child) = -1 for the mover. */
    r = gobang_search(g, block, true, 2, &m, &e, s);
    int o = r->player, tried = -1;
    for (int c = 0; c < r->num_children; c++)
        if (r->visits[c] > 0) tried = c;
    CU_ASSERT_FATAL(tried >= 0);
    CU_ASSERT(r->actions[tried] != d3 && r->proven[tried]);
    double v_root[GAME_MAX_PLAYERS];
    float *priors = malloc(sizeof(float) * (size_t)g->num_actions);
    HARNESS_OK(evaluator_evaluate(e, s, 1, v_root, priors));
    CU_ASSERT_DOUBLE_EQUAL(r->value[o], (v_root[o] - 1.0) / 2, 1e-9);
    free(priors);
    mcts_free(m);
    evaluator_free(e);
    game_free(g);
}

/* The oracle of the root proof search: within `plies` plies (the mover's action included),
 * +1 when the mover forces a win, -1 when every action loses, else 0; plain full-width
 * minimax over terminal results, two players, no chance. */
static int oracle(const game_t *g, const void *s, int plies)
{
    int p = game_current_player(g, s), best = -1;
    int *legal = malloc(sizeof *legal * (size_t)g->max_legal);
    char *t = malloc(g->state_size);
    int n = game_legal_actions(g, s, legal);
    for (int i = 0; i < n && best < 1; i++) {
        memcpy(t, s, g->state_size);
        game_apply(g, t, legal[i]);
        int v = 0, q = game_current_player(g, t);
        double r[GAME_MAX_PLAYERS];
        if (q == PLAYER_TERMINAL) {
            game_returns(g, t, r);
            v = r[p] >= 1 - 1e-6 ? 1 : r[p] <= -1 + 1e-6 ? -1 : 0;
        } else if (plies > 1 && q >= 0) {
            v = oracle(g, t, plies - 1) * (q == p ? 1 : -1);
        }
        if (v > best) best = v;
    }
    free(t);
    free(legal);
    return best;
}

/* One root search with the proof search at `plies` (one simulation: the root is expanded and
 * proved) checked against the oracle child by child: a child proven won is a forced win and
 * ends the proof (the root is then proven won); every other child is proven exactly when the
 * oracle decides it (a terminal move, a win, or a loss after the opponent's reply; a chain
 * move is only ever proven won). Returns the number of children proven. */
static int check_root_proof_mode(const game_t *g, const void *s, int plies, bool threats)
{
    mcts_params_t p;
    mcts_params_default(&p);
    p.max_sims = 1;
    if (threats)
        p.threats = plies;
    else
        p.prove = plies;
    evaluator_t *e;
    mcts_t *m;
    HARNESS_OK(evaluator_create_named(g, "fake", 1, 9, &e));
    HARNESS_OK(mcts_create(g, &p, e, &m));
    const mcts_result_t *r;
    HARNESS_OK(mcts_search(m, s, &r));
    int mover = r->player, proven = 0, won = -1;
    /* a proven win ends the proof search, in its own order (by prior): the children it had
     * not reached yet may be unproven */
    bool stopped = false;
    for (int c = 0; c < r->num_children; c++) stopped |= r->proven[c] && r->q[c] > 1 - 1e-6;
    char *t = malloc(g->state_size);
    for (int c = 0; c < r->num_children; c++) {
        memcpy(t, s, g->state_size);
        game_apply(g, t, r->actions[c]);
        int q = game_current_player(g, t), want = 0;
        double ret[GAME_MAX_PLAYERS];
        if (q == PLAYER_TERMINAL) {
            game_returns(g, t, ret);
            want = ret[mover] >= 1 - 1e-6 ? 1 : ret[mover] <= -1 + 1e-6 ? -1 : 0;
        } else if (q >= 0 && plies > 1) {
            int v = oracle(g, t, plies - 1) * (q == mover ? 1 : -1);
            want = q == mover && v < 0 ? 0 : v;
        }
        proven += r->proven[c];
        if (r->proven[c]) {
            CU_ASSERT(want != 0 || q == PLAYER_TERMINAL);
            CU_ASSERT_DOUBLE_EQUAL(r->q[c], want, 1e-6);
            if (want == 1 && won < 0) won = c;
        } else if (!threats && !stopped) {
            CU_ASSERT_EQUAL(want, 0);
        }
    }
    /* threat-space: sound but not complete, and never the last child proven lost */
    if (threats) {
        CU_ASSERT(won >= 0 || proven < r->num_children);
    } else {
        CU_ASSERT_EQUAL(r->root_proven,
                        won >= 0 || (proven == r->num_children && oracle(g, s, plies) < 0));
    }
    if (won >= 0) { /* the move played is a proven win */
        int best = -1;
        for (int c = 0; c < r->num_children; c++)
            if (r->actions[c] == r->best_action) best = c;
        CU_ASSERT_FATAL(best >= 0);
        CU_ASSERT(r->proven[best] && r->q[best] > 1 - 1e-6);
        CU_ASSERT_EQUAL(oracle(g, s, plies), 1);
    }
    free(t);
    mcts_free(m);
    evaluator_free(e);
    return proven;
}

static int check_root_proof(const game_t *g, const void *s, int plies)
{
    return check_root_proof_mode(g, s, plies, false);
}

/* The root proof search (prove=N) against the oracle on Go-Bang 6x6 and tic-tac-toe after
 * random openings, and on the chain toy (the same player twice); Go-Bang 8x8's open three,
 * where every move but the two blocks is proven lost; off by default; a search too big for
 * the budget stops and proves nothing wrong. */
/* One uniformly random action applied to the live state s. */
static void play_random(const game_t *g, void *s, rng_t *rng)
{
    int *legal = malloc(sizeof *legal * (size_t)g->max_legal);
    int a = game_random_action(g, s, rng, legal, NULL);
    CU_ASSERT_FATAL(a >= 0);
    game_apply(g, s, a);
    free(legal);
}

/* Random positions checked against the oracle: per case, `trials` positions after
 * moves + rng_below(spread) random actions, each at plies + trial % alt. A case with `toy` set
 * names a toy game (toy_create), otherwise a registry spec. Enough positions are checked, and
 * enough children proven, that the sweep is not vacuous. */
typedef struct proof_case {
    const char *spec;
    bool toy;
    int trials, moves, spread, plies, alt;
} proof_case_t;

static void proof_sweep(const proof_case_t *cases, uint64_t seed, bool threats)
{
    int proven = 0, checked = 0;
    for (const proof_case_t *c = cases; c->spec; c++) {
        const game_t *g = NULL;
        if (c->toy)
            g = toy_create(c->spec);
        else
            HARNESS_OK(game_create(c->spec, &g));
        char *s = malloc(g->state_size);
        rng_t rng;
        rng_init(&rng, seed);
        for (int trial = 0; trial < c->trials; trial++) {
            game_init(g, s);
            int moves = c->moves + (int)rng_below(&rng, (uint32_t)c->spread);
            for (int i = 0; i < moves && game_current_player(g, s) >= 0; i++)
                play_random(g, s, &rng);
            if (game_current_player(g, s) < 0) continue;
            proven += check_root_proof_mode(g, s, c->plies + trial % c->alt, threats);
            checked++;
        }
        free(s);
        if (c->toy)
            toy_free(g);
        else
            game_free(g);
    }
    CU_ASSERT(checked > 50);
    CU_ASSERT(proven > 100); /* the positions are not all quiet */
}

static void test_root_proof(void)
{
    /* 6x6 at 3-4 plies, 5x5 at 4-5; the toys at 2-6 */
    const proof_case_t cases[] = {{"gobang(board=6,men=0)", false, 24, 16, 6, 3, 2},
                                  {"gobang(board=5,men=0)", false, 24, 10, 6, 4, 2},
                                  {"ttt", true, 8, 2, 3, 2, 5},
                                  {"chain", true, 8, 2, 3, 2, 5},
                                  {"nim", true, 8, 2, 3, 2, 5},
                                  {NULL, false, 0, 0, 0, 0, 0}};
    proof_sweep(cases, 7, false);

    const game_t *g;
    HARNESS_OK(game_create("gobang(board=8,men=12)", &g));
    char *s = malloc(g->state_size);
    /* o's open three c4-d4-e4, x to move: only b4 and f4 stop an open four */
    HARNESS_OK(game_position_from_string(
        g, "......../...x..../..x...../......../..ooo.../......../......../.......x w 9 9 0", s));
    CU_ASSERT_EQUAL(check_root_proof(g, s, 4), 64 - 6 - 2); /* 6 men on the board */
    agent_t *a;
    int action, b4, f4;
    HARNESS_OK(game_action_from_string(g, s, "b4", &b4));
    HARNESS_OK(game_action_from_string(g, s, "f4", &f4));
    HARNESS_OK(agent_create(g, "mcts(sims=50,prove=4)", 1, &a));
    HARNESS_OK(agent_act(a, s, &action));
    CU_ASSERT(action == b4 || action == f4);
    agent_free(a);
    mcts_params_t p;
    mcts_params_default(&p);
    CU_ASSERT_EQUAL(p.prove, 0);
    free(s);
    game_free(g);
    /* 2^21 applies and stop: nothing is proven on the empty 15x15 board at 9 plies */
    HARNESS_OK(game_create("gobang(board=15,men=0)", &g));
    s = malloc(g->state_size);
    game_init(g, s);
    p.max_sims = 1;
    p.prove = 9;
    evaluator_t *e;
    mcts_t *m;
    const mcts_result_t *r;
    HARNESS_OK(evaluator_create_named(g, "fake", 1, 9, &e));
    HARNESS_OK(mcts_create(g, &p, e, &m));
    HARNESS_OK(mcts_search(m, s, &r));
    int some = 0;
    for (int c = 0; c < r->num_children; c++) some += r->proven[c];
    CU_ASSERT(some == 0 && !r->root_proven);
    mcts_free(m);
    evaluator_free(e);
    free(s);
    game_free(g);
}

/* The threat-space proof search (threats=N): every child it proves agrees with the oracle, on
 * Go-Bang 6x6 and 5x5 (placing) and 5x5 with 4 men (moving), where the hints cut the
 * attacker's moves, and on the toys, where every move is a threat (full width); on 8x8 it
 * proves a double three won in five plies, and in the position before it every move but the
 * defences lost, where the full-width search at the same depth runs out of its budget. */
static void test_threat_proof(void)
{
    const proof_case_t cases[] = {{"gobang(board=6,men=0)", false, 16, 16, 6, 4, 2},
                                  {"gobang(board=5,men=0)", false, 16, 10, 6, 4, 2},
                                  {"gobang(board=5,men=4)", false, 16, 8, 12, 4, 1},
                                  {"ttt", true, 6, 2, 3, 2, 5},
                                  {"chain", true, 6, 2, 3, 2, 5},
                                  {"nim", true, 6, 2, 3, 2, 5},
                                  {NULL, false, 0, 0, 0, 0, 0}};
    proof_sweep(cases, 11, true);

    const game_t *g;
    HARNESS_OK(game_create("gobang(board=8,men=12)", &g));
    char *s = malloc(g->state_size);
    /* x to move: e4 makes two open threes (c4-d4-e4 and e4-e5-e6), a win in five plies */
    HARNESS_OK(game_position_from_string(
        g, "o......o/......../....x.../....x.../..xx..../......../......../o......o w 8 8 0", s));
    mcts_params_t p;
    mcts_params_default(&p);
    CU_ASSERT_EQUAL(p.threats, 0);
    p.max_sims = 1;
    p.threats = 9;
    evaluator_t *e;
    mcts_t *m;
    const mcts_result_t *r;
    HARNESS_OK(evaluator_create_named(g, "fake", 1, 9, &e));
    HARNESS_OK(mcts_create(g, &p, e, &m));
    HARNESS_OK(mcts_search(m, s, &r));
    int e4;
    HARNESS_OK(game_action_from_string(g, s, "e4", &e4));
    CU_ASSERT(r->root_proven && r->best_action == e4);
    mcts_free(m);
    /* the same without the last o: o to move must stop the fork; the threat-space search
     * proves all but a handful of moves lost (e4 itself is not), the full-width search at
     * the same depth runs out of its budget with far fewer */
    HARNESS_OK(game_position_from_string(
        g, "o......o/......../....x.../....x.../..xx..../......../......../o....... b 8 9 0", s));
    int lost[2];
    for (int mode = 0; mode < 2; mode++) {
        mcts_params_default(&p);
        p.max_sims = 1;
        if (mode)
            p.threats = 7;
        else
            p.prove = 7;
        HARNESS_OK(mcts_create(g, &p, e, &m));
        HARNESS_OK(mcts_search(m, s, &r));
        lost[mode] = 0;
        for (int c = 0; c < r->num_children; c++) {
            lost[mode] += r->proven[c];
            if (r->actions[c] == e4) CU_ASSERT(!r->proven[c]);
        }
        CU_ASSERT(!r->root_proven);
        mcts_free(m);
    }
    CU_ASSERT(lost[1] >= 50 && lost[1] > 2 * lost[0]);
    /* o to move against x's open four b4-e4: every move loses, all but one are proven */
    HARNESS_OK(game_position_from_string(
        g, "......../......../......../......../.xxxx.../......../......../oo.o.... b 8 9 0", s));
    CU_ASSERT_EQUAL(check_root_proof_mode(g, s, 3, true), 64 - 7 - 1);
    evaluator_free(e);
    free(s);
    game_free(g);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"root value converges (no solver)", test_converges_without_solver},
        {"solver proves wins, draws and a puzzle line", test_solver_proves},
        {"chance nodes: expectation", test_chance_nodes},
        {"chains never flip the sign", test_chains},
        {"full arena is reported, not a crash", test_full_arena},
        {"batching with virtual loss, deterministic", test_batching_and_determinism},
        {"one evaluator shared by two searches", test_shared_evaluator},
        {"tree reuse, root noise, temperature", test_reuse_noise_temperature},
        {"time limit and errors", test_time_limit_and_errors},
        {"registry games", test_registry_games},
        {"gumbel: sequential halving spends the budget as scheduled", test_gumbel_schedule},
        {"gumbel: step API, batching, tree reuse, repeatability", test_gumbel_step_api_reuse},
        {"gumbel: exact evaluator, best move, improved policy", test_gumbel_best_and_policy},
        {"gumbel: off, bad parameters", test_gumbel_off_and_errors},
        {"gumbel: agent keys", test_gumbel_agent_keys},
        {"decisive moves: a win in one, the one block", test_decisive_moves},
        {"root proof search against a minimax oracle", test_root_proof},
        {"threat-space proof search: sound, and deeper than full width", test_threat_proof},
        {NULL, NULL},
    };
    return harness_run("mcts", tests);
}
