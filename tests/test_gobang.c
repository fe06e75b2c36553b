/* test_gobang.c — Go-Bang rules, perft, notation, seed fragments, symmetry
 * and bad input. The generic conformance suite covers random games too. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "games/gobang/gobang_internal.h"
#include "games/registry.h"
#include "games/symmetry.h"
#include "tests/gobang_fixture.h"
#include "tests/harness.h"

static uint64_t falling(int n, int d)
{
    uint64_t r = 1;
    for (int i = 0; i < d; i++) r *= (uint64_t)(n - i);
    return r;
}

/* ---- parameters and sizes ---- */

static void test_params(void)
{
    const game_t *g = gbfx_make("gobang");
    CU_ASSERT_STRING_EQUAL(g->spec, "gobang(board=8,men=12,exact=false,move_limit=200)");
    CU_ASSERT_EQUAL(g->num_actions, 64 * 9);
    CU_ASSERT_EQUAL(g->num_symmetries, 8);
    CU_ASSERT_EQUAL(g->obs_shape[0], GB_PLANES);
    /* The seed counts 96 positions of the five on the chess-board. */
    CU_ASSERT_EQUAL(gb_impl(g)->num_windows, 96);
    game_free(g);
    g = gbfx_make("gobang(board=15,men=0)");
    CU_ASSERT_EQUAL(g->num_actions, 225); /* no moving phase: placements only */
    CU_ASSERT_EQUAL(g->max_game_length, 225);
    game_free(g);
    const char *bad[] = {"gobang(board=99)",       "gobang(board=4)",         "gobang(men=33)",
                         "gobang(board=5,men=13)", "gobang(colour=red)",      "gobang(exact=maybe)",
                         "gobang(move_limit=0)",   "gobang(board=8,board=9)", NULL};
    for (int i = 0; bad[i]; i++) {
        const game_t *h = NULL;
        CU_ASSERT_EQUAL(game_create(bad[i], &h), HOYLE_EINVAL);
        CU_ASSERT_PTR_NULL(h);
        CU_ASSERT(strlen(hoyle_last_error()) > 0);
    }
    /* Every listed variant creates (game_registry_check covers all games). */
    const game_entry_t *e = game_registry_find("gobang");
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    int exact_variants = 0;
    for (int i = 0; e->variants[i]; i++) {
        const game_t *v = gbfx_make(e->variants[i]);
        exact_variants += params_bool(&v->params, "exact");
        game_free(v);
    }
    CU_ASSERT(exact_variants >= 1);
}

/* ---- perft ---- */

static void test_perft_placing(void)
{
    /* No five can exist before the 9th placement, so the placing phase is
     * the falling factorial N!/(N-d)! for d <= 9 (within the men in hand). */
    const game_t *g = gbfx_make("gobang");
    gbfx_state_t s;
    game_init(g, &s);
    for (int d = 0; d <= 5; d++) CU_ASSERT_EQUAL(game_perft(g, &s, d), falling(64, d));
    for (int d = 0; d <= 3; d++) CU_ASSERT_EQUAL(game_perft_generic(g, &s, d), falling(64, d));
    game_free(g);
    g = gbfx_make("gobang(board=5,men=12)");
    game_init(g, &s);
    for (int d = 0; d <= 6; d++) CU_ASSERT_EQUAL(game_perft(g, &s, d), falling(25, d));
    CU_ASSERT_EQUAL(game_perft_generic(g, &s, 4), falling(25, 4));
    game_free(g);
}

static void test_perft_positions(void)
{
    /* Fast perft equals the generic one where fives and moves matter. */
    const game_t *g = gbfx_make("gobang(board=6,men=6)");
    gbfx_state_t s;
    const char *pos[] = {
        "....../....../.xxxx./.oooo./....../...... w 2 2 0", /* fives on the next ply */
        "x.o.x./o.x.o./....../x.o.x./o.x.o./...... b 0 0 1", /* moving phase */
        "xxxx../oooo../....../....../....../x....o w 1 1 0", /* placing, threats */
        NULL};
    for (int i = 0; pos[i]; i++) {
        gbfx_set_pos(g, &s, pos[i]);
        for (int d = 1; d <= 3; d++)
            CU_ASSERT_EQUAL(game_perft(g, &s, d), game_perft_generic(g, &s, d));
    }
    /* White's a4 or f4 makes five at once: 28 placements, 2 of them end
     * the game, so perft(2) = 26 * 27 + 2 * 0. */
    gbfx_set_pos(g, &s, pos[0]);
    CU_ASSERT_EQUAL(game_perft(g, &s, 1), 28);
    CU_ASSERT_EQUAL(game_perft(g, &s, 2), 26 * 27);
    game_free(g);
}

/* ---- wins ---- */

static void expect_result(const game_t *g, const gbfx_state_t *s, double white)
{
    double r[2];
    CU_ASSERT(game_is_terminal(g, s));
    game_returns(g, s, r);
    CU_ASSERT_DOUBLE_EQUAL(r[0], white, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(r[1], -white, 1e-9);
}

static void test_wins_placing(void)
{
    const game_t *g = gbfx_make("gobang");
    gbfx_state_t s;
    struct {
        const char *moves;
        double white;
    } cases[] = {
        {"a1,a8,b1,b8,c1,c8,d1,d8,e1", 1.0},       /* row */
        {"h1,a8,h2,b8,h3,c8,h4,d8,h5", 1.0},       /* column */
        {"a1,h8,b2,h7,c3,h6,d4,h5,e5", 1.0},       /* diagonal */
        {"h1,a1,g2,a2,f3,a3,e4,a4,a8,a5", -1.0},   /* Black's column */
        {"a8,h1,b7,h2,c6,h3,d5,h4,f3,a1,e4", 1.0}, /* anti-diagonal, middle filled last */
        {"a1,h8,b1,g8,c1,f8,e1,d8,f1,c8,d1", 1.0}, /* six in a row counts */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        game_init(g, &s);
        int n = gbfx_play(g, &s, cases[i].moves);
        CU_ASSERT(n > 0);
        expect_result(g, &s, cases[i].white);
    }
    /* A non-five does not end the game. */
    game_init(g, &s);
    CU_ASSERT(gbfx_play(g, &s, "a1,a8,b1,b8,c1,c8,d1,d8,f1") == 9);
    CU_ASSERT_FALSE(game_is_terminal(g, &s));
    game_free(g);

    /* exact: the six does not win, an exact five does. */
    g = gbfx_make("gobang(exact=true)");
    game_init(g, &s);
    CU_ASSERT(gbfx_play(g, &s, "a1,h8,b1,g8,c1,f8,e1,d8,f1,c8,d1") == 11);
    CU_ASSERT_FALSE(game_is_terminal(g, &s));
    game_init(g, &s);
    CU_ASSERT(gbfx_play(g, &s, "a1,h8,b1,g8,c1,f8,e1,d8,d1") == 9);
    expect_result(g, &s, 1.0);
    game_free(g);
}

static void test_moving_phase(void)
{
    const game_t *g = gbfx_make("gobang(board=6,men=3)");
    gbfx_state_t s;
    game_init(g, &s);
    CU_ASSERT(gbfx_play(g, &s, "a1,f6,b2,e6,c3,d6") == 6);
    CU_ASSERT_FALSE(game_is_terminal(g, &s));
    int legal[512], n = game_legal_actions(g, &s, legal);
    /* a1: a2 b1 (b2 own); b2: a2 a3 b1 b3 c1 c2 (a1, c3 own); c3: b3 b4 c2 c4 d2 d3 d4 */
    CU_ASSERT_EQUAL(n, 2 + 6 + 7);
    for (int i = 0; i < n; i++) CU_ASSERT(legal[i] >= 36);
    /* Placing is over: a placement is refused, a diagonal step is fine. */
    int a;
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "d4", &a), HOYLE_EINVAL);
    CU_ASSERT(gbfx_play(g, &s, "c3 d4") == 1);
    char buf[64];
    CU_ASSERT(game_position_to_string(g, &s, buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "...ooo/....../...x../....../.x..../x..... b 0 0 1");
    game_free(g);

    /* A five made by moving wins: White brings the fifth man up diagonally. */
    g = gbfx_make("gobang(board=6,men=6)");
    gbfx_set_pos(g, &s, "o.o.o./....../xxxx../....x./...o.o/x.o... w 0 0 4");
    CU_ASSERT(gbfx_play(g, &s, "e2 e3") < 0); /* not a step: e2 is empty */
    CU_ASSERT(gbfx_play(g, &s, "e3 e4") == 1);
    expect_result(g, &s, 1.0);
    game_free(g);
}

/* The seed's odds: "a superior player having eleven against twelve men".
 * Black (the second player) places eleven, White twelve; White's twelfth
 * placement ends the placing, so Black steps first. */
static void test_odds(void)
{
    const game_t *g = gbfx_make("gobang(board=6,men=3,odds=true)");
    gbfx_state_t s;
    game_init(g, &s);
    CU_ASSERT(gbfx_play(g, &s, "a1,f6,b2,e6") == 4);
    CU_ASSERT_EQUAL(game_current_player(g, &s), 0); /* White places his third */
    CU_ASSERT(gbfx_play(g, &s, "c4") == 1);
    CU_ASSERT_EQUAL(game_current_player(g, &s), 1); /* Black, no man in hand: steps */
    int a;
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "d1", &a), HOYLE_EINVAL);
    char buf[64];
    CU_ASSERT(game_position_to_string(g, &s, buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "....oo/....../..x.../....../.x..../x..... b 0 0 0");
    CU_ASSERT(gbfx_play(g, &s, "e6 d5") == 1);
    CU_ASSERT_EQUAL(game_current_player(g, &s), 0);
    CU_ASSERT(game_position_to_string(g, &s, buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, ".....o/...o../..x.../....../.x..../x..... w 0 0 1");
    /* positions read back with the odds' counts and parity, and only those */
    gbfx_state_t t;
    gbfx_set_pos(g, &t, buf);
    CU_ASSERT_EQUAL(game_hash(g, &t), game_hash(g, &s));
    CU_ASSERT_EQUAL(
        game_position_from_string(g, ".....o/...o../..x.../....../.x..../x..... b 0 0 1", &t),
        HOYLE_EINVAL);
    CU_ASSERT_EQUAL(
        game_position_from_string(g, "....oo/...o../..x.../....../.x..../x..... w 0 0 0", &t),
        HOYLE_EINVAL); /* three black men: Black has two at these odds */
    game_free(g);
    /* the default game: twelve and eleven in hand */
    g = gbfx_make("gobang(odds=true)");
    game_init(g, &s);
    char big[256];
    CU_ASSERT(game_position_to_string(g, &s, big, sizeof big) > 0);
    CU_ASSERT(strstr(big, " w 12 11 0") != NULL);
    game_free(g);
    const game_t *bad = NULL;
    CU_ASSERT(game_create("gobang(board=15,men=0,odds=true)", &bad) < 0);
    CU_ASSERT(strstr(hoyle_last_error(), "odds") != NULL);
}

static void test_exact_move_away(void)
{
    /* exact: leaving the end of a six leaves an exact five, which wins. */
    const game_t *g = gbfx_make("gobang(board=8,men=8,exact=true)");
    gbfx_state_t s;
    gbfx_set_pos(g, &s,
                 "oooo..../......../..oo..../.......x/......../......../oo....../xxxxxxx. w 0 0 0");
    CU_ASSERT_FALSE(game_is_terminal(g, &s));  /* seven in a row: no exact five */
    CU_ASSERT(gbfx_play(g, &s, "b1 c2") == 1); /* a1 | c1..g1: five */
    expect_result(g, &s, 1.0);
    game_free(g);
}

static void test_draws(void)
{
    /* Move limit: after move_limit moving-phase moves, a draw. */
    const game_t *g = gbfx_make("gobang(board=6,men=3,move_limit=4)");
    gbfx_state_t s;
    game_init(g, &s);
    CU_ASSERT(gbfx_play(g, &s, "a1,f6,b2,e6,c3,d6,a1 a2,f6 f5,a2 a1") == 9);
    CU_ASSERT_FALSE(game_is_terminal(g, &s));
    CU_ASSERT(gbfx_play(g, &s, "f5 f6") == 1);
    expect_result(g, &s, 0.0);
    game_free(g);

    /* Board full with men=0: a draw (pattern (c + 2r) mod 4 < 2 has no five). */
    g = gbfx_make("gobang(board=5,men=0)");
    game_init(g, &s);
    int white[13], black[12], nw = 0, nb = 0;
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 5; c++)
            if ((c + 2 * r) % 4 < 2)
                white[nw++] = r * 5 + c;
            else
                black[nb++] = r * 5 + c;
    CU_ASSERT_FATAL(nw == 13 && nb == 12);
    for (int i = 0; i < 25; i++) {
        CU_ASSERT_FALSE_FATAL(game_is_terminal(g, &s));
        HARNESS_OK(game_apply_checked(g, &s, i % 2 ? black[i / 2] : white[i / 2]));
    }
    expect_result(g, &s, 0.0);

    /* No legal step for the side to move: a draw. */
    const game_t *h = gbfx_make("gobang(board=5,men=12)");
    gbfx_set_pos(h, &s, "xxxox/ooxxo/xxoox/ooxxo/.ooox b 0 0 1");
    CU_ASSERT_FALSE(game_is_terminal(h, &s)); /* Black can step into a1 */
    gbfx_set_pos(h, &s, "xxxox/ooxxo/xxoox/ooxxo/.ooox w 0 0 0");
    expect_result(h, &s, 0.0); /* a1's neighbours are all Black: White cannot move */
    game_free(h);
    game_free(g);
}

/* ---- seed ---- */

static void test_seed_steps(void)
{
    char *text = harness_read_data("gobang/seed_steps.txt");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    /* One man a side (men=1): White's man on the step's origin, Black's on
     * the first square that is neither end; the step must parse as legal. */
    const game_t *g = gbfx_make("gobang(men=1)");
    int steps = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || !strchr(line, ':')) continue;
        char *p = strchr(line, ':') + 1;
        char a[4], b[4];
        int used;
        while (sscanf(p, " %3s %3[a-h0-9]%n", a, b, &used) == 2) {
            int from = (atoi(a + 1) - 1) * 8 + (a[0] - 'a'),
                to = (atoi(b + 1) - 1) * 8 + (b[0] - 'a');
            CU_ASSERT_FATAL(from >= 0 && from < 64 && to >= 0 && to < 64);
            char pos[80] = "";
            int black = from == 0 || to == 0 ? (from == 1 || to == 1 ? 2 : 1) : 0;
            for (int r = 7; r >= 0; r--) {
                for (int c = 0; c < 8; c++) {
                    int q = r * 8 + c;
                    strcat(pos, q == from ? "x" : q == black ? "o" : ".");
                }
                strcat(pos, r ? "/" : " w 0 0 0");
            }
            gbfx_state_t s;
            gbfx_set_pos(g, &s, pos);
            int act;
            CU_ASSERT_EQUAL(game_action_from_string(g, &s, a, &act),
                            HOYLE_EINVAL); /* no placing now */
            char step[16];
            snprintf(step, sizeof step, "%s %s", a, b);
            HARNESS_OK(game_action_from_string(g, &s, step, &act));
            CU_ASSERT(act >= 64);
            steps++;
            p += used;
            while (*p == ',' || *p == ';' || *p == ' ') p++;
        }
    }
    CU_ASSERT(steps >= 30);
    game_free(g);
    free(text);
}

static void test_seed_game3(void)
{
    char *text = harness_read_data("gobang/game3_c_file.txt");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char pos[256] = "", moves[256] = "";
    int results = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "position ", 9) == 0) snprintf(pos, sizeof pos, "%s", line + 9);
        if (strncmp(line, "moves ", 6) == 0) snprintf(moves, sizeof moves, "%s", line + 6);
        if (strncmp(line, "result ", 7) != 0) continue;
        char spec[64], r0[16], r1[16] = "";
        CU_ASSERT_FATAL(sscanf(line + 7, "%63s %15s %15s", spec, r0, r1) >= 2);
        const game_t *g = gbfx_make(spec);
        gbfx_state_t s;
        gbfx_set_pos(g, &s, pos);
        CU_ASSERT_EQUAL(gbfx_play(g, &s, moves), 2);
        if (strcmp(r0, "ongoing") == 0) {
            CU_ASSERT_FALSE(game_is_terminal(g, &s));
            CU_ASSERT_EQUAL(game_current_player(g, &s), 1);
        } else {
            expect_result(g, &s, atof(r0));
        }
        results++;
        game_free(g);
    }
    CU_ASSERT_EQUAL(results, 2);
    free(text);
}

/* ---- notation, positions, bad input ---- */

static void test_notation(void)
{
    const game_t *g = gbfx_make("gobang");
    gbfx_state_t s;
    game_init(g, &s);
    char buf[GAME_TEXT_MAX];
    int a;
    HARNESS_OK(game_action_from_string(g, &s, "d4", &a));
    CU_ASSERT_EQUAL(a, 3 * 8 + 3);
    HARNESS_OK(game_action_to_string(g, &s, 7 * 8 + 7, buf, sizeof buf));
    CU_ASSERT_STRING_EQUAL(buf, "h8");
    HARNESS_OK(game_position_to_string(g, &s, buf, sizeof buf));
    CU_ASSERT_STRING_EQUAL(
        buf, "......../......../......../......../......../......../......../........ w 12 12 0");
    CU_ASSERT(game_state_to_string(g, &s, buf, sizeof buf) > 0);
    CU_ASSERT(strstr(buf, "a b c d e f g h") != NULL);
    CU_ASSERT_EQUAL(game_state_to_string(g, &s, buf, 10), HOYLE_EFULL);
    game_free(g);
    g = gbfx_make("gobang(board=19,men=0)");
    game_init(g, &s);
    HARNESS_OK(game_action_from_string(g, &s, "s19", &a));
    CU_ASSERT_EQUAL(a, 18 * 19 + 18);
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "t1", &a), HOYLE_EINVAL);
    game_free(g);
}

static void test_bad_input(void)
{
    const game_t *g = gbfx_make("gobang");
    gbfx_state_t s, before;
    game_init(g, &s);
    CU_ASSERT(gbfx_play(g, &s, "d4") == 1);
    before = s;
    const char *bad_actions[] = {"z9",    "a0", "a9",    "",      "d",   "d44", "d4x",  "d4",
                                 "e5 e6", "11", "a1 a1", "a1 c3", "a01", "e5,", "\xff", NULL};
    for (int i = 0; bad_actions[i]; i++) {
        int a = -7;
        CU_ASSERT_EQUAL(game_action_from_string(g, &s, bad_actions[i], &a), HOYLE_EINVAL);
        CU_ASSERT_EQUAL(a, -7);
        CU_ASSERT(strlen(hoyle_last_error()) > 0);
        CU_ASSERT(game_apply_move_string(g, &s, bad_actions[i]) < 0);
        CU_ASSERT_EQUAL(memcmp(&s, &before, g->state_size), 0);
    }
    int dummy;
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "z9", &dummy), HOYLE_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "z9"));
    const char *bad_pos[] = {
        "",
        "......../......../......../......../......../......../........ w 12 12 0", /* 7 ranks */
        "......../......../......../......../......../......../......../......... w 12 12 0",
        "......../......../......../......../......../......../......../.......? w 12 12 0",
        "......../......../......../......../......../......../......../........ v 12 12 0",
        "......../......../......../......../......../......../......../........ w 12 11 0",
        "......../......../......../......../......../......../......../........ b 12 12 0",
        "......../......../......../......../......../......../......../........ w 12 12 1",
        "......../......../......../......../......../......../......../........ w 12 12",
        "......../......../......../......../......../......../......../........ w 12 12 0 x",
        "......../......../......../......../......../......../......../........ w 012 12 0",
        "......../......../......../......../......../......../......../xxxxx... w 7 12 0",
        "xxxxxxxx/xxxx..../......../......../......../......../oooooooo/oooo.... w 0 0 1",
        "xxxx.xxx/xxxx..../......../......../......../......../oooooooo/oooo.... w 0 0 201",
        NULL};
    for (int i = 0; bad_pos[i]; i++) {
        CU_ASSERT_EQUAL(game_position_from_string(g, bad_pos[i], &s), HOYLE_EINVAL);
        CU_ASSERT_EQUAL(memcmp(&s, &before, g->state_size), 0);
    }
    /* Random bytes never crash and never change the state. */
    rng_t rng;
    rng_init(&rng, 42);
    char junk[160];
    static const char alphabet[] = "xo./ wb0123456789-ah\t";
    for (int t = 0; t < 20000; t++) {
        int len = (int)rng_below(&rng, sizeof junk - 1);
        for (int i = 0; i < len; i++)
            junk[i] = t % 2 ? alphabet[rng_below(&rng, sizeof alphabet - 1)]
                            : (char)(1 + rng_below(&rng, 255));
        junk[len] = '\0';
        int a;
        if (game_position_from_string(g, junk, &s) == 0) s = before;
        (void)game_action_from_string(g, &s, junk, &a);
        CU_ASSERT_EQUAL(memcmp(&s, &before, g->state_size), 0);
    }
    game_free(g);
}

/* ---- random games: symmetry, round-trips, hashes, eval ---- */

static void random_checks(const char *spec, int games, uint64_t seed)
{
    const game_t *g = gbfx_make(spec);
    rng_t rng;
    rng_init(&rng, seed);
    int size = game_obs_size(g);
    float *o1 = malloc(sizeof(float) * (size_t)size * 3), *o2 = o1 + size, *o3 = o2 + size;
    int *legal = malloc(sizeof(int) * (size_t)g->max_legal * 2), *legal2 = legal + g->max_legal;
    char buf[GAME_TEXT_MAX];
    for (int gi = 0; gi < games; gi++) {
        gbfx_state_t s, t, u, v;
        game_init(g, &s);
        while (!game_is_terminal(g, &s)) {
            CU_ASSERT_EQUAL(game_hash(g, &s), game_hash_recompute(g, &s));
            CU_ASSERT(game_position_to_string(g, &s, buf, sizeof buf) > 0);
            memset(&t, 0xab, sizeof t);
            HARNESS_OK(game_position_from_string(g, buf, &t));
            CU_ASSERT_EQUAL(memcmp(&s, &t, g->state_size), 0);
            int n = game_legal_actions(g, &s, legal);
            CU_ASSERT_FATAL(n > 0 && n <= g->max_legal);
            double e = game_evaluate(g, &s, 0);
            CU_ASSERT(e >= -1.0 && e <= 1.0 && fabs(e + game_evaluate(g, &s, 1)) < 1e-9);
            int act = legal[rng_below(&rng, (uint32_t)n)];
            (void)game_is_noisy(g, &s, act);
            sym_t sym = (sym_t)rng_below(&rng, SYM_COUNT);
            game_symmetry_state(g, sym, &s, &t);
            int p = game_current_player(g, &s);
            game_observe(g, &s, p, o1);
            game_observe(g, &t, p, o2);
            sym_planes(sym, g->obs_shape[0], g->obs_shape[1], o1, o3);
            CU_ASSERT_EQUAL(memcmp(o2, o3, sizeof(float) * (size_t)size), 0);
            CU_ASSERT_EQUAL(game_legal_actions(g, &t, legal2), n);
            for (int i = 0; i < n; i++)
                CU_ASSERT(game_is_legal(g, &t, game_symmetry_action(g, sym, legal[i])));
            /* apply commutes with the symmetry */
            u = s, v = t;
            game_apply(g, &u, act);
            game_apply(g, &v, game_symmetry_action(g, sym, act));
            game_symmetry_state(g, sym, &u, &t);
            CU_ASSERT_EQUAL(memcmp(&t, &v, g->state_size), 0);
            HARNESS_OK(game_action_to_string(g, &s, act, buf, sizeof buf));
            int back = -1;
            HARNESS_OK(game_action_from_string(g, &s, buf, &back));
            CU_ASSERT_EQUAL(back, act);
            s = u;
        }
        CU_ASSERT_EQUAL(game_hash(g, &s), game_hash_recompute(g, &s));
        CU_ASSERT(game_position_to_string(g, &s, buf, sizeof buf) > 0);
        HARNESS_OK(game_position_from_string(g, buf, &t));
        CU_ASSERT_EQUAL(memcmp(&s, &t, g->state_size), 0);
    }
    free(o1);
    free(legal);
    game_free(g);
}

static void test_random_games(void)
{
    random_checks("gobang", 60, 1);
    random_checks("gobang(board=6,men=4,move_limit=30)", 100, 2);
    random_checks("gobang(board=9,men=0)", 20, 3);
    random_checks("gobang(board=7,men=10,exact=true,move_limit=60)", 60, 4);
    random_checks("gobang(lines=true)", 30, 5); /* the line planes commute with symmetries */
    random_checks("gobang(board=6,men=4,move_limit=30,players=4,lines=true)", 30, 6);
}

/* Plane k of square `sq` ("c5": file, rank 1-9) of `player`'s observation. */
static float plane_at(const game_t *g, const gbfx_state_t *s, int player, int k, const char *sq)
{
    float obs[GB_MAX_SQ * (GB_PLANES_4 + GB_LINE_PLANES)];
    const gb_impl_t *im = gb_impl(g);
    game_observe(g, s, player, obs);
    return obs[k * im->nsq + (sq[1] - '1') * im->n + (sq[0] - 'a')];
}

static void test_line_planes(void)
{
    const game_t *g = gbfx_make("gobang(lines=true)");
    CU_ASSERT_STRING_EQUAL(g->spec, "gobang(board=8,men=12,exact=false,lines=true,move_limit=200)");
    CU_ASSERT_EQUAL(g->obs_shape[0], GB_PLANES + GB_LINE_PLANES);
    gbfx_state_t s;
    /* x: c5-f5; o: c3, e3, g3 and d2 */
    gbfx_set_pos(g, &s,
                 "......../......../......../..xxxx../......../..o.o.o./...o..../........ w 8 8 0");
    const int own4 = GB_PLANES, own3 = GB_PLANES + 1, own2 = GB_PLANES + 2, opp4 = GB_PLANES + 3,
              opp3 = GB_PLANES + 4, opp2 = GB_PLANES + 5;
    /* b5 and g5 complete x's four; a5 holds one line of three (a5-e5) */
    CU_ASSERT_EQUAL(plane_at(g, &s, 0, own4, "b5"), 1.0f);
    CU_ASSERT_EQUAL(plane_at(g, &s, 0, own4, "g5"), 1.0f);
    CU_ASSERT_EQUAL(plane_at(g, &s, 0, own4, "a5"), 0.0f);
    CU_ASSERT_EQUAL(plane_at(g, &s, 0, own3, "a5"), 0.25f);
    CU_ASSERT_EQUAL(plane_at(g, &s, 1, opp4, "b5"), 1.0f); /* the same seen by o */
    CU_ASSERT_EQUAL(plane_at(g, &s, 1, own4, "b5"), 0.0f);
    /* f3: o's c3-g3 (three), b3-f3 and d3-h3 (two each); the columns and
     * diagonals through f3 hold x's men or none of o's */
    CU_ASSERT_EQUAL(plane_at(g, &s, 1, own3, "f3"), 0.25f);
    CU_ASSERT_EQUAL(plane_at(g, &s, 1, own2, "f3"), 0.5f);
    CU_ASSERT_EQUAL(plane_at(g, &s, 0, opp3, "f3"), 0.25f);
    CU_ASSERT_EQUAL(plane_at(g, &s, 0, opp2, "f3"), 0.5f);
    /* occupied squares are zeros; the first planes are those of the plain game */
    for (int k = GB_PLANES; k < GB_PLANES + GB_LINE_PLANES; k++)
        CU_ASSERT_EQUAL(plane_at(g, &s, 0, k, "c5"), 0.0f);
    CU_ASSERT_EQUAL(plane_at(g, &s, 0, 0, "c5"), 1.0f);
    CU_ASSERT_EQUAL(plane_at(g, &s, 0, 1, "c3"), 1.0f);
    game_free(g);
}

static void test_evaluate(void)
{
    const game_t *g = gbfx_make("gobang");
    gbfx_state_t s;
    /* White to place with an open four: wins next, the heuristic knows. */
    gbfx_set_pos(g, &s,
                 "......../......../......../..xxxx../......../..o.o.o./...o..../........ w 8 8 0");
    CU_ASSERT(game_evaluate(g, &s, 0) > 0.9);
    CU_ASSERT(game_evaluate(g, &s, 1) < -0.9);
    int a;
    HARNESS_OK(game_action_from_string(g, &s, "g5", &a));
    CU_ASSERT(game_is_noisy(g, &s, a));
    HARNESS_OK(game_action_from_string(g, &s, "a1", &a));
    CU_ASSERT_FALSE(game_is_noisy(g, &s, a));
    /* Black to place facing two completions: lost. */
    gbfx_set_pos(g, &s,
                 "......../......../......../..xxxx../......../..o.o.o./...o..../x....... b 7 8 0");
    CU_ASSERT(game_evaluate(g, &s, 1) < -0.85);
    CU_ASSERT_EQUAL(
        game_position_from_string(
            g, "......../......../......../..xxxx../......../..o.o.o./...o.o../........ b 8 7 0",
            &s),
        HOYLE_EINVAL);
    game_free(g);
}

/* The hint of one action given in notation. */
static int hint_of(const game_t *g, const gbfx_state_t *s, const char *move)
{
    int a, h = -1;
    HARNESS_OK(game_action_from_string(g, s, move, &a));
    game_threat_hints(g, s, &a, 1, &h);
    return h;
}

static void test_threat_hints(void)
{
    const game_t *g = gbfx_make("gobang");
    gbfx_state_t s;
    /* x to place: c4-d4 and e5-e6; o's c7-d7-e7 */
    gbfx_set_pos(g, &s,
                 "......../..ooo.../....x.../....x.../..xx..../......../......../.......o w 8 8 0");
    CU_ASSERT_EQUAL(hint_of(g, &s, "e4"), GAME_THREAT_MAKES);  /* two open threes */
    CU_ASSERT_EQUAL(hint_of(g, &s, "b4"), GAME_THREAT_MAKES);  /* b4-c4-d4 */
    CU_ASSERT_EQUAL(hint_of(g, &s, "b7"), GAME_THREAT_BLOCKS); /* o's four square */
    /* f7 also makes x's c4-(d5)-e6-f7 an open three */
    CU_ASSERT_EQUAL(hint_of(g, &s, "f7"), GAME_THREAT_MAKES | GAME_THREAT_BLOCKS);
    CU_ASSERT_EQUAL(hint_of(g, &s, "e8"), 0);
    CU_ASSERT_EQUAL(hint_of(g, &s, "a1"), 0);
    game_free(g);
    /* moving: x's four a1-d1 with its gap e1; f3-e2 brings a man beside the gap */
    g = gbfx_make("gobang(board=6,men=5)");
    gbfx_set_pos(g, &s, "oo.o.o/..o.../....../.....x/....../xxxx.. w 0 0 0");
    CU_ASSERT(hint_of(g, &s, "f3 e2") & GAME_THREAT_MAKES);
    CU_ASSERT_FALSE(hint_of(g, &s, "f3 f4") & GAME_THREAT_MAKES);
    game_free(g);
    /* a game without the slot: every action a threat (the attacker searches full width) */
    g = gbfx_make("checkers");
    char *c = malloc(g->state_size);
    int legal[64], hints[64];
    game_init(g, c);
    int n = game_legal_actions(g, c, legal);
    game_threat_hints(g, c, legal, n, hints);
    for (int k = 0; k < n; k++) CU_ASSERT_EQUAL(hints[k], GAME_THREAT_MAKES);
    free(c);
    game_free(g);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"params", test_params},
        {"perft_placing", test_perft_placing},
        {"perft_positions", test_perft_positions},
        {"wins_placing", test_wins_placing},
        {"moving_phase", test_moving_phase},
        {"odds: eleven men against twelve", test_odds},
        {"exact_move_away", test_exact_move_away},
        {"draws", test_draws},
        {"seed_steps", test_seed_steps},
        {"seed_game3", test_seed_game3},
        {"notation", test_notation},
        {"bad_input", test_bad_input},
        {"random_games", test_random_games},
        {"line planes", test_line_planes},
        {"evaluate", test_evaluate},
        {"threat hints", test_threat_hints},
        {NULL, NULL},
    };
    return harness_run("gobang", tests);
}
