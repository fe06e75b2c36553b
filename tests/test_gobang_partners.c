/* test_gobang_partners.c — Go-Bang for four in two partnerships
 * (`gobang(players=4)`, the seed's "four persons, taking partners as in
 * whist"): seats and turn order, whose men a seat may move, partnership
 * fives by every seat, the position format, the observation planes, and
 * MCTS and alpha-beta winning and blocking for a partnership. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "games/gobang/gobang_internal.h"
#include "games/registry.h"
#include "games/symmetry.h"
#include "mcts/agent.h"
#include "tests/gobang_fixture.h"
#include "tests/harness.h"

static void test_params(void)
{
    const game_t *g = gbfx_make("gobang(players=4)");
    CU_ASSERT_STRING_EQUAL(g->spec, "gobang(board=8,men=12,players=4,exact=false,move_limit=200)");
    CU_ASSERT_EQUAL(g->num_players, 2);
    CU_ASSERT_EQUAL(g->num_seats, 4);
    CU_ASSERT_EQUAL(g->obs_shape[0], GB_PLANES_4);
    CU_ASSERT_EQUAL(gb_impl(g)->hand0[0], 12); /* six men each, shared by two seats */
    game_free(g);
    /* the two-player game keeps its spec, its seats and its planes */
    g = gbfx_make("gobang");
    CU_ASSERT_STRING_EQUAL(g->spec, "gobang(board=8,men=12,exact=false,move_limit=200)");
    CU_ASSERT_EQUAL(g->num_seats, 2);
    CU_ASSERT_EQUAL(g->obs_shape[0], GB_PLANES);
    game_free(g);
    struct {
        const char *spec, *says;
    } bad[] = {
        {"gobang(players=3)", "players"},
        {"gobang(players=5)", "players"},
        {"gobang(players=4,men=11)", "odd"},
        {"gobang(players=4,odds=true)", "odds"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const game_t *h = NULL;
        CU_ASSERT_EQUAL(game_create(bad[i].spec, &h), HOYLE_EINVAL);
        CU_ASSERT_PTR_NULL(h);
        CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), bad[i].says));
    }
}

/* Whist order W1, B1, W2, B2 through the placing phase and on into the
 * moving phase (which W1 opens: 24 placements are a whole number of
 * rounds); the player to move is always the seat's colour. */
static void test_turn_order(void)
{
    const game_t *g = gbfx_make("gobang(players=4)");
    gbfx_state_t s;
    game_init(g, &s);
    rng_t rng;
    rng_init(&rng, 7);
    int legal[1024];
    for (int t = 0; !game_is_terminal(g, &s) && t < 60; t++) {
        CU_ASSERT_EQUAL(game_current_seat(g, &s), t % 4);
        CU_ASSERT_EQUAL(game_current_player(g, &s), t % 2);
        int n = game_legal_actions(g, &s, legal);
        CU_ASSERT_EQUAL_FATAL(n > 0, 1);
        /* placing for 24 actions, then only steps */
        CU_ASSERT_EQUAL(legal[0] >= 64, t >= 24);
        game_apply(g, &s, legal[rng_below(&rng, (uint32_t)n)]);
    }
    game_free(g);
}

/* Each seat moves only the men it placed: W1 is walled in by his partner's
 * men except for a2's two steps, and W2's man is refused to him by name. */
static void test_own_men(void)
{
    const game_t *g = gbfx_make("gobang(board=6,men=4,players=4)");
    gbfx_state_t s;
    game_init(g, &s);
    const char *moves[] = {"a1", "f6", "b1", "f5", "a2", "e6", "b2", "e5"};
    for (int i = 0; i < 8; i++) CU_ASSERT_EQUAL(game_apply_move_string(g, &s, moves[i]), 1);
    gbfx_expect_position(g, &s, "....oo/....OO/....../....../xX..../xX.... w1 0 0 0");
    CU_ASSERT_EQUAL(game_current_seat(g, &s), 0);
    int legal[512], n = game_legal_actions(g, &s, legal);
    CU_ASSERT_EQUAL(n, 2); /* a2 a3, a2 b3 */
    int a;
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "b2 c3", &a), HOYLE_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "W2's, not W1's"));
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "a2 a3"), 1);
    gbfx_expect_position(g, &s, "....oo/....OO/....../x...../.X..../xX.... b1 0 0 1");
    /* B1 steps his e6 or f6, never B2's e5 or f5 */
    n = game_legal_actions(g, &s, legal);
    for (int i = 0; i < n; i++) {
        int from = (legal[i] - 36) / GB_DIRS;
        CU_ASSERT(from == 34 || from == 35); /* e6, f6 */
    }
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "e5 d4", &a), HOYLE_EINVAL);
    game_free(g);
}

/* A five by each seat ends the game for his partnership, and the five may
 * mix the partners' men: the winning colour places on rank 1, the other on
 * scattered squares of ranks 8 and 6. A second partner completes the five
 * when his colour's first placement went elsewhere (h4). */
static void test_five_by_each_seat(void)
{
    const game_t *g = gbfx_make("gobang(players=4)");
    const char *lose[] = {"a8", "c8", "e8", "g8", "a6", "c6", "e6"};
    for (int seat = 0; seat < 4; seat++) {
        const char *win[7];
        int nw = 0;
        if (seat >= 2) win[nw++] = "h4";
        const char *row[] = {"a1", "b1", "c1", "d1", "e1"};
        for (int i = 0; i < 5; i++) win[nw++] = row[i];
        gbfx_state_t s;
        game_init(g, &s);
        int iw = 0, il = 0, last_seat = -1;
        for (int t = 0; iw < nw; t++) {
            CU_ASSERT_FATAL(!game_is_terminal(g, &s));
            last_seat = game_current_seat(g, &s);
            const char *m = t % 2 == seat % 2 ? win[iw++] : lose[il++];
            CU_ASSERT_EQUAL_FATAL(game_apply_move_string(g, &s, m), 1);
        }
        CU_ASSERT_EQUAL(last_seat, seat);
        CU_ASSERT(game_is_terminal(g, &s));
        double r[GAME_MAX_PLAYERS];
        game_returns(g, &s, r);
        /* both seats of the winning partnership score +1, both of the other -1 */
        for (int k = 0; k < 4; k++)
            CU_ASSERT_DOUBLE_EQUAL(r[k % g->num_players], k % 2 == seat % 2 ? 1.0 : -1.0, 1e-12);
    }
    game_free(g);
}

/* The partnership position format: x/o the first partners' men, X/O the
 * second's, the seat to move named; import refuses a wrong split of a
 * colour's men between partners and a seat out of turn. */
static void test_positions(void)
{
    const game_t *g = gbfx_make("gobang(board=6,men=4,players=4)");
    gbfx_state_t s, t;
    game_init(g, &s);
    gbfx_expect_position(g, &s, "....../....../....../....../....../...... w1 4 4 0");
    gbfx_set_pos(g, &t, "....../....../....../....../....../...... w1 4 4 0");
    CU_ASSERT_EQUAL(memcmp(&s, &t, g->state_size), 0);
    gbfx_set_pos(g, &t, "....../....../....../....../....../x..... b1 3 4 0");
    gbfx_set_pos(g, &t, "....../....../....../....../....../xo.... w2 3 3 0");
    const char *bad[] = {
        "....../....../....../....../....../X..... b1 3 4 0", /* W2 placed before W1 */
        "....../....../....../....../....../x..... b2 3 4 0", /* B1's turn, not B2's */
        "....../....../....../....../....../xo.... w1 3 3 0", /* W2's turn */
        "....oo/....OO/....../....../xx..../xx.... w1 0 0 0", /* W1 has four, W2 none */
        "....../....../....../....../....../...... w 4 4 0",  /* no seat number */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&t, 0x5a, sizeof t);
        gbfx_state_t before = t;
        CU_ASSERT_EQUAL(game_position_from_string(g, bad[i], &t), HOYLE_EINVAL);
        CU_ASSERT_EQUAL(memcmp(&t, &before, sizeof t), 0);
    }
    game_free(g);
    /* a two-player board has no X or O */
    g = gbfx_make("gobang(board=6,men=4)");
    CU_ASSERT_EQUAL(
        game_position_from_string(g, "....../....../....../....../....../X..... b 3 4 0", &t),
        HOYLE_EINVAL);
    game_free(g);
}

/* Planes 0..3 are the men of the colour's next seat, its partner, the
 * opponent seated after it and the other opponent. */
static void test_observe(void)
{
    const game_t *g = gbfx_make("gobang(board=6,men=4,players=4)");
    gbfx_state_t s;
    gbfx_set_pos(g, &s, "....oo/....OO/....../....../xX..../xX.... w1 0 0 0");
    int nsq = 36, size = game_obs_size(g);
    float *o = malloc(sizeof(float) * (size_t)size);
    /* a1 = 0, b1 = 1, a2 = 6, b2 = 7, e5 = 28, f5 = 29, e6 = 34, f6 = 35 */
    const int men[4][2] = {{0, 6}, {34, 35}, {1, 7}, {28, 29}}; /* W1, B1, W2, B2 */
    for (int player = 0; player < 2; player++) {
        game_observe(g, &s, player, o);
        /* White sees from W1 (to move): W1, W2, B1, B2; Black from B1: B1, B2, W2, W1 */
        const int order[2][4] = {{0, 2, 1, 3}, {1, 3, 2, 0}};
        for (int plane = 0; plane < 4; plane++) {
            int seat = order[player][plane], count = 0;
            for (int q = 0; q < nsq; q++) count += o[plane * nsq + q] == 1.0f;
            CU_ASSERT_EQUAL(count, 2);
            CU_ASSERT_EQUAL(o[plane * nsq + men[seat][0]], 1.0f);
            CU_ASSERT_EQUAL(o[plane * nsq + men[seat][1]], 1.0f);
        }
        CU_ASSERT_EQUAL(o[4 * nsq], player == 0 ? 1.0f : 0.0f); /* White's plane */
    }
    free(o);
    game_free(g);
}

/* Random games: hashes, position and action round trips, and symmetries
 * (the owners move with their men). */
static void test_random_games(void)
{
    const game_t *g = gbfx_make("gobang(board=6,men=6,players=4,move_limit=40)");
    rng_t rng;
    rng_init(&rng, 11);
    int legal[512];
    char buf[GAME_TEXT_MAX];
    for (int gi = 0; gi < 40; gi++) {
        gbfx_state_t s, t, u, v;
        game_init(g, &s);
        while (!game_is_terminal(g, &s)) {
            CU_ASSERT_EQUAL(game_hash(g, &s), game_hash_recompute(g, &s));
            CU_ASSERT_FATAL(game_position_to_string(g, &s, buf, sizeof buf) > 0);
            HARNESS_OK(game_position_from_string(g, buf, &t));
            CU_ASSERT_EQUAL(memcmp(&s, &t, g->state_size), 0);
            int n = game_legal_actions(g, &s, legal);
            CU_ASSERT_FATAL(n > 0);
            int act = legal[rng_below(&rng, (uint32_t)n)];
            sym_t sym = (sym_t)rng_below(&rng, SYM_COUNT);
            game_symmetry_state(g, sym, &s, &t);
            CU_ASSERT_EQUAL(game_legal_actions(g, &t, legal), n);
            u = s, v = t;
            game_apply(g, &u, act);
            game_apply(g, &v, game_symmetry_action(g, sym, act));
            game_symmetry_state(g, sym, &u, &t);
            CU_ASSERT_EQUAL(memcmp(&t, &v, g->state_size), 0);
            int back = -1;
            HARNESS_OK(game_action_to_string(g, &s, act, buf, sizeof buf));
            HARNESS_OK(game_action_from_string(g, &s, buf, &back));
            CU_ASSERT_EQUAL(back, act);
            s = u;
        }
    }
    game_free(g);
}

/* W2 to move (moves = 2): a4 b4 c4 d4 are White's, mixed between W1 (x)
 * and W2 (X); W2's f5 steps into e4 for five. W1's f3 could too, but it is
 * not his turn. */
static const char *const WIN_POS =
    "o.o.o.oX/...OXO../ox....oO/.....X.O/xXxX..../.....x.x/.O....../x.X.O... w2 0 0 2";
/* B2 to move (moves = 3) with White threatening e4 next (W1's f3): only
 * B2's own e5 can block; B1's d3 is beside e4 but is not his. */
static const char *const BLOCK_POS =
    "o.o.o.oX/...OXO../ox.....O/....OX../xXxX..../...o.x.x/.O....../x.X.O... b2 0 0 3";

static void agent_plays(const game_t *g, const char *agent_spec, const char *pos, const char *want)
{
    gbfx_state_t s;
    gbfx_set_pos(g, &s, pos);
    agent_t *a = NULL;
    HARNESS_OK(agent_create(g, agent_spec, 5, &a));
    int action = -1, expected = -1;
    HARNESS_OK(agent_act(a, &s, &action));
    HARNESS_OK(game_action_from_string(g, &s, want, &expected));
    char got[GAME_MOVE_MAX] = "?";
    game_action_to_string(g, &s, action, got, sizeof got);
    if (action != expected) fprintf(stderr, "%s played %s, not %s\n", agent_spec, got, want);
    CU_ASSERT_EQUAL(action, expected);
    agent_free(a);
}

static void test_search_wins_and_blocks(void)
{
    const game_t *g = gbfx_make("gobang(players=4)");
    gbfx_state_t s;
    gbfx_set_pos(g, &s, WIN_POS);
    int a;
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "f3 e4", &a), HOYLE_EINVAL); /* W1's man */
    gbfx_set_pos(g, &s, BLOCK_POS);
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "d3 e4", &a), HOYLE_EINVAL); /* B1's man */
    const char *agents[] = {"mcts(sims=3000)", "alphabeta(depth=2)", "alphabeta(depth=3)"};
    for (size_t i = 0; i < sizeof agents / sizeof agents[0]; i++) {
        agent_plays(g, agents[i], WIN_POS, "f5 e4");
        agent_plays(g, agents[i], BLOCK_POS, "e5 e4");
    }
    game_free(g);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"params", test_params},
        {"turn order W1 B1 W2 B2", test_turn_order},
        {"a seat moves only his own men", test_own_men},
        {"a five by each seat", test_five_by_each_seat},
        {"positions", test_positions},
        {"observation planes by seat", test_observe},
        {"random games", test_random_games},
        {"search wins and blocks for a partnership", test_search_wins_and_blocks},
        {NULL, NULL},
    };
    return harness_run("gobang_partners", tests);
}
