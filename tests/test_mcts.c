/* test_mcts.c — MCTS on the toy games: convergence to the minimax value,
 * MCTS-Solver proofs, chance nodes, chains, one-player puzzles, a full
 * arena, batching with virtual loss, tree reuse, noise, determinism. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "games/registry.h"
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

/* Exact game value for `player` (no depth limit). */
static double solve(const game_t *g, const void *s, int player)
{
    int q = game_current_player(g, s);
    double r[GAME_MAX_PLAYERS];
    if (q == PLAYER_TERMINAL) {
        game_returns(g, s, r);
        return r[player];
    }
    char c[256];
    int actions[16];
    double probs[16], best = -INFINITY, sum = 0;
    if (q == PLAYER_CHANCE) {
        int n = game_chance_outcomes(g, s, actions, probs);
        for (int i = 0; i < n; i++) {
            memcpy(c, s, g->state_size);
            game_apply(g, c, actions[i]);
            sum += probs[i] * solve(g, c, player);
        }
        return sum;
    }
    int n = game_legal_actions(g, s, actions);
    for (int i = 0; i < n; i++) {
        memcpy(c, s, g->state_size);
        game_apply(g, c, actions[i]);
        double v = solve(g, c, q);
        if (v > best) best = v;
    }
    return q == player ? best : -best;
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
    double last = solve(f.g, f.s, 1);
    const mcts_result_t *r;
    HARNESS_OK(mcts_search(f.m, f.s, &r));
    /* the solver proves the probability-weighted value once every outcome is known */
    CU_ASSERT(r->root_proven);
    CU_ASSERT_DOUBLE_EQUAL(r->proven_value[1], last, 1e-5);
    CU_ASSERT(fabs(last) < 1.0);
    teardown(&f);
    setup(&f, "dice", &p, "rollout");
    game_apply(f.g, f.s, 3); /* roll a 2 */
    double want = solve(f.g, f.s, 0);
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
        double want = solve(f.g, f.s, player);
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

/* Every registered game: a short search from the start and from a random
 * position yields a legal move; seeded runs repeat exactly. */
static void test_registry_games(void)
{
    for (int i = 0; game_registry[i]; i++)
        for (int v = 0; game_registry[i]->variants[v]; v++) {
            const game_t *g;
            if (game_create(game_registry[i]->variants[v], &g)) continue;
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
        {NULL, NULL},
    };
    return harness_run("mcts", tests);
}
