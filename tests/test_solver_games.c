/* test_solver_games.c — search proves known wins on the real games
 * (issue 3): a Go-Bang five-in-one, a checkers shot (a sacrifice that wins
 * by a recapture), and the same positions through alpha-beta. The toy-game
 * proofs live in test_mcts.c; these check the same machinery end to end on
 * registered games through positions in their own notation. */
#include <stdlib.h>
#include <string.h>

#include "mcts/agent.h"
#include "tests/harness.h"

typedef struct known_win {
    const char *game, *position, *winning_move;
} known_win_t;

static const known_win_t wins[] = {
    /* White (x) has a1-d1 and places the fifth man. */
    {"gobang", "oooo..../......../......../......../......../......../......../xxxx.... w 8 8 0",
     "e1"},
    /* Black gives the man on 9 (9-14, 18x9) and recaptures 5x14; White's last
     * man cannot escape. Found by exhaustive search over two-against-two
     * positions: 9-14 is the only winning move and it is not a capture. */
    {"checkers", "B:W18,22:B5,9", "9-14"},
};

static void expect_proven_win(const char *agent_spec, const known_win_t *w)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create(w->game, &g));
    char *s = malloc(g->state_size);
    HARNESS_OK(game_position_from_string(g, w->position, s));
    agent_t *a = NULL;
    HARNESS_OK(agent_create(g, agent_spec, 7, &a));
    int action = -1;
    HARNESS_OK(agent_act(a, s, &action));
    char text[GAME_MOVE_MAX] = "";
    game_action_to_string(g, s, action, text, sizeof text);
    if (strcmp(text, w->winning_move) != 0)
        fprintf(stderr, "%s on %s: played %s, expected %s\n", agent_spec, w->position, text,
                w->winning_move);
    CU_ASSERT_STRING_EQUAL(text, w->winning_move);
    const agent_info_t *info = agent_info(a);
    CU_ASSERT(info->value > 0.99);
    if (strncmp(agent_spec, "mcts", 4) == 0) CU_ASSERT_EQUAL(info->proven, 1);
    agent_free(a);
    free(s);
    game_free(g);
}

static void test_mcts_solver_proves_wins(void)
{
    for (size_t i = 0; i < sizeof wins / sizeof *wins; i++)
        expect_proven_win("mcts(sims=4000,solver=true)", &wins[i]);
}

static void test_alphabeta_finds_wins(void)
{
    for (size_t i = 0; i < sizeof wins / sizeof *wins; i++)
        expect_proven_win("alphabeta(depth=6)", &wins[i]);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"MCTS-Solver proves known wins", test_mcts_solver_proves_wins},
        {"alpha-beta finds known wins", test_alphabeta_finds_wins},
        {NULL, NULL},
    };
    return harness_run("solver on real games", tests);
}
