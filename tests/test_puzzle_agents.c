/* test_puzzle_agents.c — the one-player search agents (nmcs, nrpa) and MCTS
 * with one player: two-player and chance games refused with a clear message,
 * the toy puzzle solved, Solitaire endgames solved, budgets respected, seeded
 * repeats, and a plan dropped when the game leaves it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/registry.h"
#include "games/solitaire/solitaire.h"
#include "mcts/agent.h"
#include "tests/harness.h"
#include "tests/toy_games.h"

/* Bergholt's 18-move solution as jumps (tests/data/solitaire/bergholt18.txt). */
static const char *const bergholt =
    "19-17 30-18 27-25 24-26 22-24 31-23 16-28 33-31-23 11-25 3-11 4-16-28-30-18-6 "
    "13-27-25-23 7-9 10-8 21-7-9 1-3-11 12-10-8-22-24-10 5-17";

/* The centre game after the first `jumps` jumps of Bergholt's solution. */
static void bergholt_after(const game_t *g, int jumps, void *s)
{
    int all[SOL_HOLES], n = 0;
    game_init(g, s);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", bergholt);
    void *t = malloc(g->state_size);
    game_init(g, t);
    for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
        int k = game_move_from_string(g, t, w, all + n, SOL_HOLES - n);
        CU_ASSERT_FATAL(k >= 1);
        for (int i = 0; i < k; i++) game_apply(g, t, all[n + i]);
        n += k;
    }
    free(t);
    for (int i = 0; i < jumps && i < n; i++) game_apply(g, s, all[i]);
}

/* One game by `spec` from `start`; returns the return, actions into *len. */
static double play_from(const game_t *g, const char *spec, const void *start, uint64_t seed,
                        int32_t *actions, int *len)
{
    agent_t *a = NULL;
    HARNESS_OK(agent_create(g, spec, seed, &a));
    if (a == NULL) return -2;
    agent_game_opts_t o = {.start = start, .actions = actions};
    agent_game_result_t r;
    HARNESS_OK(agent_play(g, &a, &o, &r));
    CU_ASSERT_EQUAL(r.end, AGENT_GAME_RULES);
    if (len) *len = r.num_actions;
    agent_free(a);
    return r.returns[0];
}

static void test_refuse_two_players(void)
{
    const game_t *ttt = toy_create("ttt");
    const game_t *gb = NULL;
    HARNESS_OK(game_create("gobang", &gb));
    const char *specs[] = {"nmcs", "nrpa", "nmcs(level=1)", "nrpa(level=1,iterations=3)"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        agent_t *a = NULL;
        CU_ASSERT(agent_create(ttt, specs[i], 1, &a) == HOYLE_EINVAL);
        CU_ASSERT(a == NULL);
        CU_ASSERT(strstr(hoyle_last_error(), "one-player games only") != NULL);
        CU_ASSERT(agent_create(gb, specs[i], 1, &a) == HOYLE_EINVAL);
        CU_ASSERT(strstr(hoyle_last_error(), "2 players") != NULL);
    }
    game_free(gb);
    toy_free(ttt);
}

/* The toy puzzle's best is +1 (10 reached in 3 moves). */
static void test_toy_puzzle(void)
{
    const game_t *g = toy_create("puzzle");
    const char *specs[] = {"nmcs(level=1)", "nmcs(level=2)", "nrpa(level=1,iterations=60)",
                           "nrpa(level=2,iterations=10,code=state)", "mcts(sims=500)"};
    void *s = malloc(g->state_size);
    game_init(g, s);
    int32_t actions[64];
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        double r = play_from(g, specs[i], s, 3, actions, NULL);
        CU_ASSERT_DOUBLE_EQUAL(r, 1.0, 1e-9);
        if (r < 1.0 - 1e-9) fprintf(stderr, "  %s: return %g\n", specs[i], r);
    }
    free(s);
    toy_free(g);
}

/* Solitaire endgames (Bergholt's line after 22 jumps: 10 marbles) are
 * solved; MCTS with one player too. */
static void test_solitaire_endgame(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("solitaire", &g));
    void *s = malloc(g->state_size);
    bergholt_after(g, 22, s);
    int32_t actions[64];
    const char *specs[] = {"nmcs(level=2)", "nrpa(level=2,iterations=40)", "mcts(sims=3000)"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        int len = 0;
        double r = play_from(g, specs[i], s, 5, actions, &len);
        CU_ASSERT_DOUBLE_EQUAL(r, 1.0, 1e-9);
        CU_ASSERT_EQUAL(len, 9);
        if (r < 1.0 - 1e-9) fprintf(stderr, "  %s: return %g\n", specs[i], r);
    }
    free(s);
    game_free(g);
}

/* Same seed, same game; the playout budget caps a search. */
static void test_seeds_and_budgets(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("solitaire", &g));
    void *s = malloc(g->state_size);
    game_init(g, s);
    int32_t a1[64], a2[64];
    const char *specs[] = {"nmcs(level=1)", "nrpa(level=1,iterations=20)"};
    for (size_t i = 0; i < 2; i++) {
        int n1 = 0, n2 = 0;
        play_from(g, specs[i], s, 9, a1, &n1);
        play_from(g, specs[i], s, 9, a2, &n2);
        CU_ASSERT_EQUAL(n1, n2);
        CU_ASSERT(memcmp(a1, a2, sizeof(int32_t) * (size_t)n1) == 0);
    }
    const char *capped[] = {"nmcs(level=3,playouts=25)", "nrpa(level=3,iterations=50,playouts=25)"};
    for (size_t i = 0; i < 2; i++) {
        agent_t *a = NULL;
        HARNESS_OK(agent_create(g, capped[i], 1, &a));
        int action;
        HARNESS_OK(agent_act(a, s, &action));
        CU_ASSERT(game_is_legal(g, s, action));
        CU_ASSERT(agent_info(a)->sims >= 1 && agent_info(a)->sims <= 25);
        /* the plan is followed: the next act does not search */
        agent_observe(a, s, action);
        void *t = malloc(g->state_size);
        memcpy(t, s, g->state_size);
        game_apply(g, t, action);
        HARNESS_OK(agent_act(a, t, &action));
        CU_ASSERT(game_is_legal(g, t, action));
        /* an action off the plan: the agent searches again from there */
        int legal[SOL_JUMPS], n = game_legal_actions(g, t, legal), off = legal[0];
        if (off == action && n > 1) off = legal[1];
        agent_observe(a, t, off);
        game_apply(g, t, off);
        HARNESS_OK(agent_act(a, t, &action));
        CU_ASSERT(game_is_legal(g, t, action));
        CU_ASSERT(agent_info(a)->sims >= 1);
        free(t);
        agent_free(a);
    }
    free(s);
    game_free(g);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"two-player games refused", test_refuse_two_players},
        {"the toy puzzle solved", test_toy_puzzle},
        {"Solitaire endgames solved (nmcs, nrpa, mcts)", test_solitaire_endgame},
        {"seeded repeats, budgets, plans", test_seeds_and_budgets},
        {NULL, NULL},
    };
    return harness_run("puzzle_agents", tests);
}
