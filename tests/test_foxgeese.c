/* test_foxgeese.c — Fox and Geese rules on the seed's own moves, compulsory
 * capture, multi-jumps, how a game ends, variants, text and bad input, the
 * mirror, and a perft table cross-checked against an independent
 * brute-force counter written here from the rules (not from the game's
 * tables). The conformance suite covers random games too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/foxgeese/foxgeese_internal.h"
#include "games/registry.h"
#include "tests/harness.h"

static const game_t *make(const char *spec)
{
    const game_t *g = NULL;
    int st = game_create(spec, &g);
    if (st) fprintf(stderr, "game_create(%s): %s\n", spec, hoyle_last_error());
    CU_ASSERT_FATAL(st == 0 && g != NULL);
    CU_ASSERT_FATAL(g->state_size == sizeof(fg_state_t));
    return g;
}

static void set_pos(const game_t *g, fg_state_t *s, const char *pos)
{
    HARNESS_OK(game_position_from_string(g, pos, s));
}

/* The legal whole moves of `s`, as text, joined by spaces. */
static int list_visit(const int *actions, int n, const void *after, void *ctx)
{
    (void)after;
    char **w = ctx, text[GAME_MOVE_MAX * 2];
    const game_t *g = (const game_t *)w[1];
    const void *s = w[2];
    if (game_move_to_string(g, s, actions, n, text, sizeof text) < 0) return -1;
    strcat(w[0], w[0][0] ? " " : "");
    strcat(w[0], text);
    return 0;
}

static const char *moves(const game_t *g, const fg_state_t *s)
{
    static char buf[2048];
    buf[0] = '\0';
    char *ctx[3] = {buf, (char *)g, (char *)s};
    game_whole_moves(g, s, list_visit, ctx);
    return buf;
}

static void expect_moves(const game_t *g, const fg_state_t *s, const char *want)
{
    const char *got = moves(g, s);
    if (strcmp(got, want) != 0) fprintf(stderr, "moves: want '%s', got '%s'\n", want, got);
    CU_ASSERT_STRING_EQUAL(got, want);
}

static bool has_goose(const fg_state_t *s, int point) { return (s->geese >> (point - 1)) & 1; }

/* ---- parameters ---- */

static void test_params(void)
{
    const game_t *g = make("foxgeese");
    CU_ASSERT_STRING_EQUAL(g->spec, "foxgeese(geese=17,fox=17,fox_wins_at=6,quiet_limit=50)");
    CU_ASSERT_EQUAL(g->num_actions, 264);
    CU_ASSERT_EQUAL(g->max_legal, 51);
    CU_ASSERT_EQUAL(g->num_symmetries, 2);
    CU_ASSERT_EQUAL(g->symmetries[1], SYM_FLIP_COLS);
    CU_ASSERT_EQUAL(g->obs_shape[0], FG_PLANES);
    CU_ASSERT_EQUAL(g->obs_shape[1], 7);
    CU_ASSERT_EQUAL(g->obs_shape[2], 7);
    game_free(g);
    const char *bad[] = {
        "foxgeese(geese=16)",      "foxgeese(fox=5)",           "foxgeese(fox=34)",
        "foxgeese(fox=0)",         "foxgeese(fox_wins_at=17)",  "foxgeese(geese=13,fox_wins_at=13)",
        "foxgeese(quiet_limit=1)", "foxgeese(geese=15,fox=14)", NULL};
    for (int i = 0; bad[i]; i++) {
        const game_t *h = NULL;
        CU_ASSERT_EQUAL(game_create(bad[i], &h), HOYLE_EINVAL);
        CU_ASSERT_PTR_NULL(h);
        CU_ASSERT(strlen(hoyle_last_error()) > 0 && strchr(hoyle_last_error(), '\n') == NULL);
    }
    /* fox on 14 is legal with 13 geese (14 is empty then), not with 15 */
    g = make("foxgeese(geese=13,fox=14)");
    game_free(g);
}

/* ---- the board and the seed's start ---- */

static void test_board_numbering(void)
{
    const game_t *g = make("foxgeese");
    const fg_impl_t *im = fg_impl(g);
    /* "the upper left-hand spot 1 ... to 33, at the lower right-hand corner" */
    CU_ASSERT_EQUAL(im->at[0][2], 0);
    CU_ASSERT_EQUAL(im->at[6][4], 32);
    CU_ASSERT_EQUAL(im->at[3][3], 16); /* 17 is the centre */
    CU_ASSERT_EQUAL(im->at[2][0], 6);  /* 7 starts the first long row */
    CU_ASSERT_EQUAL(im->at[0][0], -1);
    /* only orthogonal lines: the centre has 4 neighbours, a corner point of
     * the cross (1) two, an arm end in the middle (2) three */
    int deg[3] = {0, 0, 0}, pts[3] = {16, 0, 1};
    for (int k = 0; k < 3; k++)
        for (int d = 0; d < FG_DIRS; d++) deg[k] += im->nbr[pts[k]][d] >= 0;
    CU_ASSERT_EQUAL(deg[0], 4);
    CU_ASSERT_EQUAL(deg[1], 2);
    CU_ASSERT_EQUAL(deg[2], 3);
    game_free(g);
}

static void test_start(void)
{
    const game_t *g = make("foxgeese");
    fg_state_t s;
    game_init(g, &s);
    char text[GAME_TEXT_MAX];
    HARNESS_OK(game_position_to_string(g, &s, text, sizeof text) > 0 ? 0 : -1);
    CU_ASSERT_STRING_EQUAL(text, "ggg/ggg/ggggggg/gg.f.gg/......./.../... g 0");
    for (int p = 1; p <= 33; p++) CU_ASSERT_EQUAL(has_goose(&s, p), p <= 15 || p == 19 || p == 20);
    CU_ASSERT_EQUAL(s.fox, 16);
    /* "the Geese, with the first move" */
    CU_ASSERT_EQUAL(game_current_player(g, &s), FG_GEESE);
    expect_moves(g, &s, "9-16 11-18 14-21 15-16 15-22 19-18 19-26 20-27");
    game_free(g);
    g = make("foxgeese(geese=13)");
    game_init(g, &s);
    game_position_to_string(g, &s, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "ggg/ggg/ggggggg/...f.../......./.../... g 0");
    game_free(g);
    g = make("foxgeese(geese=15,fox=25)");
    game_init(g, &s);
    game_position_to_string(g, &s, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "ggg/ggg/ggggggg/g.....g/....f../.../... g 0");
    game_free(g);
}

/* The seed's worked moves, in order: "Having, say, moved 11 to 18, the
 * Goose on 6 moves on to 11. The Fox is still without power to harm." and
 * "Say the Goose on 15 moves to 16, the Fox must take him". They fix the
 * start: 11 and 6 and 15 hold geese, 18 and 16 are empty, the fox is on 17
 * next to 16 and takes towards the 15 the goose just left. */
static void test_seed_moves(void)
{
    const game_t *g = make("foxgeese");
    fg_state_t s, t;
    game_init(g, &s);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "11-18"), 1);
    /* "the Goose on either of the central junction lines can move without
     * fear of capture, and the Fox must retreat": no jump for him */
    expect_moves(g, &s, "17-16 17-24");
    const char *retreats[] = {"17-16", "17-24"};
    for (int k = 0; k < 2; k++) {
        t = s;
        CU_ASSERT_EQUAL(game_apply_move_string(g, &t, retreats[k]), 1);
        CU_ASSERT_EQUAL(game_apply_move_string(g, &t, "6-11"), 1);
        /* "The Fox is still without power to harm": no jump after 6-11 */
        CU_ASSERT_FALSE(fg_fox_can_jump(fg_impl(g), t.geese, t.fox));
        CU_ASSERT(has_goose(&t, 11) && has_goose(&t, 18) && !has_goose(&t, 6));
    }
    /* the bait: 15-16 from the start and the fox's only move is 17x15 */
    game_init(g, &s);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "15-16"), 1);
    expect_moves(g, &s, "17x15");
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "17x15"), 1);
    CU_ASSERT_EQUAL(s.fox, 14);
    CU_ASSERT_EQUAL(fg_popcount(s.geese), 16);
    CU_ASSERT_FALSE(has_goose(&s, 16));
    CU_ASSERT_EQUAL(game_current_player(g, &s), FG_GEESE);
    /* the symmetric opening 9-16 (the other central junction line) */
    game_init(g, &s);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "9-16"), 1);
    expect_moves(g, &s, "17-18 17-24");
    game_free(g);
}

/* Geese: one step down or across, never up, never diagonally; the fox any
 * way along the lines. */
static void test_step_directions(void)
{
    const game_t *g = make("foxgeese");
    fg_state_t s;
    /* a lone goose on 24 below the fox on 10, with six more out of the way */
    set_pos(g, &s, "g.g/.../...f.../......./...g.../g.g/ggg f 0");
    expect_moves(g, &s, "10-5 10-9 10-11 10-17");
    set_pos(g, &s, "g.g/.../...f.../......./...g.../g.g/ggg g 0");
    expect_moves(g, &s, "1-2 1-4 3-2 3-6 24-23 24-25 24-29 28-29 30-29");
    int a;
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "24-17", &a), HOYLE_EINVAL); /* up */
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "24-16", &a), HOYLE_EINVAL); /* not a line */
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "24-30", &a), HOYLE_EINVAL); /* diagonal */
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "31-32", &a), HOYLE_EINVAL); /* occupied */
    /* the goose on 24 moving down is progress (counter 0), across is not */
    fg_state_t t = s;
    CU_ASSERT_EQUAL(game_apply_move_string(g, &t, "24-29"), 1);
    CU_ASSERT_EQUAL(t.quiet, 0);
    t = s;
    CU_ASSERT_EQUAL(game_apply_move_string(g, &t, "24-23"), 1);
    CU_ASSERT_EQUAL(t.quiet, 1);
    CU_ASSERT_PTR_NULL(strstr(g->spec, "geese_keep")); /* a quiet default */
    game_free(g);
    /* geese_keep=bar: the geese keep to the horizontal limits, no step
     * into the lower arm (28-33), from the bar or within the arm */
    g = make("foxgeese(geese_keep=bar)");
    set_pos(g, &s, "g.g/.../...f.../......./...g.../g.g/ggg g 0");
    expect_moves(g, &s, "1-2 1-4 3-2 3-6 24-23 24-25");
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "24-29", &a), HOYLE_EINVAL);
    set_pos(g, &s, "g.g/.../...f.../......./...g.../g.g/ggg f 0");
    expect_moves(g, &s, "10-5 10-9 10-11 10-17"); /* the fox goes anywhere */
    /* a full row 21-27: its only steps lead into the arm, so under the bar
     * the geese cannot move and lose */
    set_pos(g, &s, ".../.../...f.../......./ggggggg/.../... g 0");
    CU_ASSERT(game_is_terminal(g, &s));
    double r[2];
    game_returns(g, &s, r);
    CU_ASSERT_EQUAL(r[FG_FOX], 1.0);
    game_free(g);
    g = make("foxgeese");
    set_pos(g, &s, ".../.../...f.../......./ggggggg/.../... g 0");
    expect_moves(g, &s, "23-28 24-29 25-30");
    game_free(g);
}

/* ---- captures ---- */

static void test_compulsory_capture(void)
{
    const game_t *g = make("foxgeese");
    fg_state_t s, before;
    /* fox on 17, a goose on 18 with 19 empty: he must take, not step */
    set_pos(g, &s, "ggg/ggg/......./...fg../......./.../g.. f 3");
    expect_moves(g, &s, "17x19");
    before = s;
    int a = -1;
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "17-16", &a), HOYLE_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "must jump"));
    CU_ASSERT_EQUAL(a, -1);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "17-16"), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(memcmp(&s, &before, sizeof s), 0);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "17x19"), 1);
    CU_ASSERT_EQUAL(s.quiet, 0);
    CU_ASSERT(game_is_noisy(g, &before, FG_JUMP + 16 * FG_DIRS + 2));
    CU_ASSERT_FALSE(game_is_noisy(g, &before, 16 * FG_DIRS + 1));
    game_free(g);
}

/* A chain is one action per jump with the fox keeping the move; a choice of
 * continuations is a choice; the whole move reads 14x16x28. */
static void test_multi_jump(void)
{
    const game_t *g = make("foxgeese");
    fg_state_t s, t;
    /* fox 14; geese 15 (then 16 empty), 9 (4 empty behind) and 23 (28 empty) */
    const char *pos = "ggg/.../..g..../fg....g/..g..../.../ggg f 0";
    set_pos(g, &s, pos);
    expect_moves(g, &s, "14x16x4 14x16x28");
    t = s;
    int a;
    HARNESS_OK(game_action_from_string(g, &t, "14x16", &a));
    game_apply(g, &t, a);
    CU_ASSERT_EQUAL(game_current_player(g, &t), FG_FOX); /* the same player again */
    CU_ASSERT_EQUAL(t.chain, 1);
    char text[GAME_TEXT_MAX];
    game_position_to_string(g, &t, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "ggg/.../..g..../..f...g/..g..../.../ggg f+ 0");
    /* mid-chain only jumps from his point: no step, no stopping */
    int legal[FG_ACTIONS], n = game_legal_actions(g, &t, legal);
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT_EQUAL(game_action_from_string(g, &t, "16-17", &a), HOYLE_EINVAL);
    /* the whole move, with every point or (unique) from-last */
    int acts[GAME_MAX_CHAIN];
    CU_ASSERT_EQUAL(game_move_from_string(g, &s, "14x16x28", acts, GAME_MAX_CHAIN), 2);
    CU_ASSERT_EQUAL(game_move_from_string(g, &s, "14x28", acts, GAME_MAX_CHAIN), 2);
    CU_ASSERT_EQUAL(game_move_from_string(g, &s, "14x16", acts, GAME_MAX_CHAIN), HOYLE_EINVAL);
    t = s;
    CU_ASSERT_EQUAL(game_apply_move_string(g, &t, "14x16x28"), 2);
    CU_ASSERT_EQUAL(t.fox, 27);
    CU_ASSERT_EQUAL(fg_popcount(t.geese), 8);
    CU_ASSERT_FALSE(has_goose(&t, 15) || has_goose(&t, 23));
    CU_ASSERT_EQUAL(game_current_player(g, &t), FG_GEESE);
    game_free(g);
}

/* ---- how the game ends ---- */

static void test_geese_win(void)
{
    const game_t *g = make("foxgeese");
    fg_state_t s;
    /* fox on 1, geese 2, 3, 9 and 5: 5-4 shuts him in */
    set_pos(g, &s, "fgg/.g./..g..../......./......./.gg/ggg g 0");
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "5-4"), 1);
    CU_ASSERT(game_is_terminal(g, &s));
    CU_ASSERT_EQUAL(s.result, FG_WIN_GEESE);
    double r[2];
    game_returns(g, &s, r);
    CU_ASSERT_EQUAL(r[0], 1.0);
    CU_ASSERT_EQUAL(r[1], -1.0);
    CU_ASSERT_EQUAL(game_evaluate(g, &s, FG_GEESE), 1.0);
    /* the same position read from text is terminal too */
    fg_state_t t;
    set_pos(g, &t, "fgg/g../..g..../......./......./.gg/ggg f 0");
    CU_ASSERT_EQUAL(t.result, FG_WIN_GEESE);
    game_free(g);
}

static void test_fox_wins_by_captures(void)
{
    const game_t *g = make("foxgeese");
    fg_state_t s;
    /* 8 geese; the double jump 14x16x28 leaves 6: "reduced to six" */
    set_pos(g, &s, "ggg/.../......./fg...../..g..../.../ggg f 0");
    CU_ASSERT_EQUAL(fg_popcount(s.geese), 8);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "14x16x28"), 2);
    CU_ASSERT_EQUAL(s.result, FG_WIN_FOX);
    /* 7 geese and the same chain: the first jump ends the game at once */
    set_pos(g, &s, "gg./.../......./fg...../..g..../.../ggg f 0");
    expect_moves(g, &s, "14x16");
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "14x16"), 1);
    CU_ASSERT_EQUAL(s.result, FG_WIN_FOX);
    double r[2];
    game_returns(g, &s, r);
    CU_ASSERT_EQUAL(r[1], 1.0);
    game_free(g);
    /* fox_wins_at=0: "insisting on his catching all the Geese" */
    g = make("foxgeese(fox_wins_at=0)");
    set_pos(g, &s, ".../.../......./fg...../......./.../... f 0");
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "14x16"), 1);
    CU_ASSERT_EQUAL(s.result, FG_WIN_FOX);
    set_pos(g, &s, "g../.../......./fg...../......./.../... f 0");
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "14x16"), 1);
    CU_ASSERT_EQUAL(s.result, FG_ONGOING);
    game_free(g);
}

static void test_geese_stuck_and_draw(void)
{
    const game_t *g = make("foxgeese");
    fg_state_t s;
    /* 13 geese packed at the bottom, geese to move: they cannot, the fox wins */
    set_pos(g, &s, "f../.../......./......./ggggggg/ggg/ggg g 0");
    CU_ASSERT_EQUAL(s.result, FG_WIN_FOX);
    /* the draw rule: quiet_limit moves without a goose moving down or a take */
    set_pos(g, &s, "ggg/ggg/ggggggg/gg...gg/...f.../.../... f 48");
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "24-25"), 1);
    CU_ASSERT_EQUAL(s.result, FG_ONGOING);
    CU_ASSERT_EQUAL(s.quiet, 49);
    fg_state_t t = s;
    CU_ASSERT_EQUAL(game_apply_move_string(g, &t, "19-18"), 1); /* across */
    CU_ASSERT_EQUAL(t.result, FG_DRAW);
    double r[2];
    game_returns(g, &t, r);
    CU_ASSERT(r[0] == 0.0 && r[1] == 0.0);
    t = s;
    CU_ASSERT_EQUAL(game_apply_move_string(g, &t, "9-16"), 1); /* down: progress */
    CU_ASSERT_EQUAL(t.result, FG_ONGOING);
    CU_ASSERT_EQUAL(t.quiet, 0);
    game_free(g);
    /* a tiny limit: two fox steps and two sideways steps */
    g = make("foxgeese(quiet_limit=4)");
    set_pos(g, &s, "ggg/ggg/ggggggg/gg...gg/...f.../.../... g 0");
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "19-18"), 1);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "24-23"), 1);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "18-19"), 1);
    CU_ASSERT_EQUAL(s.result, FG_ONGOING);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "23-24"), 1);
    CU_ASSERT_EQUAL(s.result, FG_DRAW);
    game_free(g);
}

/* ---- text ---- */

static void test_bad_input(void)
{
    const game_t *g = make("foxgeese");
    fg_state_t s, before;
    game_init(g, &s);
    before = s;
    const char *bad_pos[] = {
        "",
        "ggg/ggg/ggggggg/gg.f.gg/......./.../...",       /* no side */
        "ggg/ggg/ggggggg/gg.f.gg/......./.../... x 0",   /* bad side */
        "ggg/ggg/ggggggg/gg...gg/......./.../... g 0",   /* no fox */
        "ggg/ggg/ggggggg/gg.ff.g/......./.../... g 0",   /* two foxes */
        "ggg/ggg/gggggggg/g.f.gg/......./.../... g 0",   /* long row */
        "ggg/ggg/ggggggg/gg.f.gg/......./.../.. g 0",    /* short row */
        "ggg/ggg/ggggggg/gg.f.gg/.......,.../... g 0",   /* bad separator */
        "ggg/ggg/ggggggg/ggzf.gg/......./.../... g 0",   /* bad glyph */
        "ggg/ggg/ggggggg/gg.f.gg/......./.../... g 51",  /* over the limit */
        "ggg/ggg/ggggggg/gg.f.gg/......./.../... g 007", /* leading zero */
        "ggg/ggg/ggggggg/gg.f.gg/......./.../... g 0 x", /* trailing */
        "ggg/ggg/ggggggg/gggfggg/......./.../... g 0",   /* 19 geese */
        "gg./.../......./...f.../......./.../ggg g 0",   /* 5 geese < 6 */
        "ggg/ggg/ggggggg/gg.f.gg/......./.../... f+ 0",  /* chain, no jump */
        "ggg/ggg/......./...fg../......./.../g.. f+ 2",  /* chain, quiet != 0 */
        NULL,
    };
    for (int i = 0; bad_pos[i]; i++) {
        int st = game_position_from_string(g, bad_pos[i], &s);
        if (st == 0) fprintf(stderr, "accepted bad position '%s'\n", bad_pos[i]);
        CU_ASSERT_EQUAL(st, HOYLE_EINVAL);
        CU_ASSERT(strlen(hoyle_last_error()) > 0 && strchr(hoyle_last_error(), '\n') == NULL);
        CU_ASSERT_EQUAL(memcmp(&s, &before, sizeof s), 0);
    }
    const char *bad_moves[] = {"",     "11",    "11-",    "11-19",   "18-11",
                               "0-7",  "34-1",  "11--18", "abc",     "11-18-25",
                               "9-17", "17-16", "11x18",  "1111-18", NULL};
    for (int i = 0; bad_moves[i]; i++) {
        int a = -5;
        int st = game_action_from_string(g, &s, bad_moves[i], &a);
        int st2 = game_apply_move_string(g, &s, bad_moves[i]);
        /* 11x18 names the step 11-18: the separator does not decide the kind */
        if (strcmp(bad_moves[i], "11x18") == 0) {
            CU_ASSERT_EQUAL(st, 0);
            s = before;
            continue;
        }
        if (st == 0 || st2 >= 0) fprintf(stderr, "accepted bad move '%s'\n", bad_moves[i]);
        CU_ASSERT(st < 0 && st2 < 0);
        CU_ASSERT_EQUAL(a, -5);
        CU_ASSERT(strlen(hoyle_last_error()) > 0 && strchr(hoyle_last_error(), '\n') == NULL);
        CU_ASSERT_EQUAL(memcmp(&s, &before, sizeof s), 0);
    }
    /* the reasons people need */
    int a;
    game_action_from_string(g, &s, "18-25", &a);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "no goose on 18"));
    game_free(g);
}

static void test_text_round_trip(void)
{
    const game_t *g = make("foxgeese");
    fg_state_t s, t;
    const char *pos[] = {
        "ggg/ggg/ggggggg/gg.f.gg/......./.../... g 0",
        "ggg/.../..g..../..f...g/..g..../.../ggg f+ 0",
        "fgg/gg./..g..../......./......./.gg/ggg f 0",
        "ggg/ggg/ggggggg/gg...gg/...f.../.../... f 50",
        NULL,
    };
    char text[GAME_TEXT_MAX];
    for (int i = 0; pos[i]; i++) {
        set_pos(g, &s, pos[i]);
        game_position_to_string(g, &s, text, sizeof text);
        CU_ASSERT_STRING_EQUAL(text, pos[i]);
        set_pos(g, &t, text);
        CU_ASSERT_EQUAL(memcmp(&s, &t, sizeof s), 0);
        CU_ASSERT_EQUAL(game_hash(g, &s), game_hash_recompute(g, &s));
    }
    /* the board drawing names the points and the side to move */
    game_init(g, &s);
    CU_ASSERT(game_state_to_string(g, &s, text, sizeof text) > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "14 15 16 17 18 19 20"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "geese to move"));
    CU_ASSERT_EQUAL(game_state_to_string(g, &s, text, 10), HOYLE_EFULL);
    game_free(g);
}

/* ---- mirror, observation, heuristic ---- */

static void test_mirror(void)
{
    const game_t *g = make("foxgeese");
    fg_state_t s, m;
    game_init(g, &s);
    game_symmetry_state(g, SYM_FLIP_COLS, &s, &m);
    CU_ASSERT_EQUAL(memcmp(&s, &m, sizeof s), 0); /* the seed's start is symmetric */
    int a, b;
    HARNESS_OK(game_action_from_string(g, &s, "11-18", &a));
    HARNESS_OK(game_action_from_string(g, &s, "9-16", &b));
    CU_ASSERT_EQUAL(game_symmetry_action(g, SYM_FLIP_COLS, a), b);
    /* a fox jump to the right mirrors to one to the left */
    set_pos(g, &s, "ggg/ggg/......./...fg../......./.../g.. f 3");
    game_symmetry_state(g, SYM_FLIP_COLS, &s, &m);
    char text[GAME_TEXT_MAX];
    game_position_to_string(g, &m, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "ggg/ggg/......./..gf.../......./.../..g f 3");
    expect_moves(g, &m, "17x15");
    CU_ASSERT_EQUAL(game_symmetry_action(g, SYM_FLIP_COLS, FG_JUMP + 16 * FG_DIRS + 2),
                    FG_JUMP + 16 * FG_DIRS + 1);
    CU_ASSERT_EQUAL(game_perft(g, &s, 4), game_perft(g, &m, 4));
    game_free(g);
}

static void test_observe(void)
{
    const game_t *g = make("foxgeese");
    fg_state_t s;
    game_init(g, &s);
    float obs[FG_PLANES * 49];
    game_observe(g, &s, FG_FOX, obs);
    float sum[FG_PLANES] = {0};
    for (int k = 0; k < FG_PLANES; k++)
        for (int i = 0; i < 49; i++) sum[k] += obs[k * 49 + i];
    CU_ASSERT_EQUAL(sum[0], 17.0f);
    CU_ASSERT_EQUAL(sum[1], 1.0f);
    CU_ASSERT_EQUAL(sum[2], 33.0f);
    CU_ASSERT_EQUAL(sum[3], 49.0f);             /* the observer is the fox */
    CU_ASSERT_EQUAL(sum[4], 0.0f);              /* the geese are to move */
    CU_ASSERT_EQUAL(obs[49 + 3 * 7 + 3], 1.0f); /* the fox in the centre */
    CU_ASSERT_EQUAL(obs[2 * 49 + 0], 0.0f);     /* corner off the cross */
    game_observe(g, &s, FG_GEESE, obs);
    CU_ASSERT_EQUAL(obs[3 * 49], 0.0f);
    game_free(g);
}

static void test_evaluate(void)
{
    const game_t *g = make("foxgeese");
    fg_state_t s, t;
    game_init(g, &s);
    double e0 = game_evaluate(g, &s, FG_GEESE);
    CU_ASSERT(e0 > -1e-9 && e0 < 1e-9); /* the start maps to 0 */
    /* the bait taken: the geese are a goose down, the fox better off */
    t = s;
    game_apply_move_string(g, &t, "15-16");
    game_apply_move_string(g, &t, "17x15");
    CU_ASSERT(game_evaluate(g, &t, FG_GEESE) < -0.1);
    CU_ASSERT(game_evaluate(g, &t, FG_FOX) > 0.1);
    /* a goose en prise with the fox to move is worse for the geese than the
     * same goose safe */
    set_pos(g, &s, "ggg/ggg/ggggggg/gg.fg.g/......./.../... f 0");
    set_pos(g, &t, "ggg/ggg/ggggggg/gg.fgg./......./.../... g 0");
    CU_ASSERT(game_evaluate(g, &s, FG_GEESE) < game_evaluate(g, &t, FG_GEESE));
    /* hemming the fox in (less room) is better for the geese */
    set_pos(g, &s, "ggg/ggg/ggggggg/gg.f.gg/......./.../... g 0");
    set_pos(g, &t, "ggg/ggg/......./ggggggg/gg.f.gg/.../... g 0");
    CU_ASSERT(game_evaluate(g, &t, FG_GEESE) > game_evaluate(g, &s, FG_GEESE));
    game_free(g);
}

/* ---- perft: the game against an independent brute-force count ---- */

/* The rules again, from coordinates: a 7x7 grid of '.', 'g', 'f' and ' '
 * (off the cross), no tables shared with games/foxgeese/. */
typedef struct bf {
    char cell[7][7];
    int fr, fc, side, quiet, geese;
} bf_t;

static int bf_wins_at = 6, bf_limit = 50;

static bool on_cross(int r, int c)
{
    if (r < 0 || r > 6 || c < 0 || c > 6) return false;
    return (r >= 2 && r <= 4) || (c >= 2 && c <= 4);
}

static void bf_from_state(const game_t *g, const fg_state_t *s, bf_t *b)
{
    char text[GAME_TEXT_MAX];
    game_position_to_string(g, s, text, sizeof text);
    const char *p = text;
    b->geese = 0;
    for (int r = 0; r < 7; r++) {
        for (int c = 0; c < 7; c++) {
            b->cell[r][c] = ' ';
            if (!on_cross(r, c)) continue;
            b->cell[r][c] = *p;
            if (*p == 'f') b->fr = r, b->fc = c;
            if (*p == 'g') b->geese++;
            p++;
        }
        if (*p == '/') p++;
    }
    p++;
    b->side = *p == 'g' ? 0 : 1;
    b->quiet = atoi(strchr(p, ' ') + 1);
}

static const int DR[4] = {-1, 0, 0, 1}, DC[4] = {0, -1, 1, 0};

static bool bf_can_jump(const bf_t *b)
{
    for (int d = 0; d < 4; d++) {
        int r1 = b->fr + DR[d], c1 = b->fc + DC[d], r2 = r1 + DR[d], c2 = c1 + DC[d];
        if (on_cross(r2, c2) && b->cell[r1][c1] == 'g' && b->cell[r2][c2] == '.') return true;
    }
    return false;
}

static uint64_t bf_perft(const bf_t *b, int depth);

/* The fox's chains from b (he has just jumped, or is to jump): every path
 * to its end is one whole move. */
static uint64_t bf_jumps(const bf_t *b, int depth)
{
    uint64_t n = 0;
    for (int d = 0; d < 4; d++) {
        int r1 = b->fr + DR[d], c1 = b->fc + DC[d], r2 = r1 + DR[d], c2 = c1 + DC[d];
        if (!on_cross(r2, c2) || b->cell[r1][c1] != 'g' || b->cell[r2][c2] != '.') continue;
        bf_t t = *b;
        t.cell[b->fr][b->fc] = '.', t.cell[r1][c1] = '.', t.cell[r2][c2] = 'f';
        t.fr = r2, t.fc = c2, t.geese--, t.quiet = 0;
        if (t.geese > bf_wins_at && bf_can_jump(&t)) {
            n += bf_jumps(&t, depth);
        } else {
            t.side = 0;
            n += bf_perft(&t, depth - 1);
        }
    }
    return n;
}

static bool bf_has_move(const bf_t *b)
{
    if (b->side == 1) {
        for (int d = 0; d < 4; d++) {
            int r = b->fr + DR[d], c = b->fc + DC[d];
            if (on_cross(r, c) && b->cell[r][c] == '.') return true;
        }
        return bf_can_jump(b);
    }
    for (int r = 0; r < 7; r++)
        for (int c = 0; c < 7; c++)
            for (int d = 1; d < 4 && b->cell[r][c] == 'g'; d++)
                if (on_cross(r + DR[d], c + DC[d]) && b->cell[r + DR[d]][c + DC[d]] == '.')
                    return true;
    return false;
}

/* Terminal (0 leaves below depth 0): too few geese, no move, the counter. */
static uint64_t bf_perft(const bf_t *b, int depth)
{
    if (depth == 0) return 1;
    if (b->geese <= bf_wins_at || !bf_has_move(b) || b->quiet >= bf_limit) return 0;
    uint64_t n = 0;
    if (b->side == 1) {
        if (bf_can_jump(b)) return bf_jumps(b, depth);
        for (int d = 0; d < 4; d++) {
            int r = b->fr + DR[d], c = b->fc + DC[d];
            if (!on_cross(r, c) || b->cell[r][c] != '.') continue;
            bf_t t = *b;
            t.cell[b->fr][b->fc] = '.', t.cell[r][c] = 'f';
            t.fr = r, t.fc = c, t.side = 0, t.quiet++;
            n += bf_perft(&t, depth - 1);
        }
        return n;
    }
    for (int r = 0; r < 7; r++)
        for (int c = 0; c < 7; c++) {
            if (b->cell[r][c] != 'g') continue;
            for (int d = 1; d < 4; d++) { /* left, right, down */
                int r2 = r + DR[d], c2 = c + DC[d];
                if (!on_cross(r2, c2) || b->cell[r2][c2] != '.') continue;
                bf_t t = *b;
                t.cell[r][c] = '.', t.cell[r2][c2] = 'g';
                t.side = 1, t.quiet = d == 3 ? 0 : t.quiet + 1;
                n += bf_perft(&t, depth - 1);
            }
        }
    return n;
}

static bool slow_tests(void)
{
    const char *e = getenv("HOYLE_SLOW_TESTS");
    return !(e && strcmp(e, "0") == 0);
}

static void test_perft_table(void)
{
    /* From the seed's start: computed by game_perft (the generic whole-move
     * perft: this game has no fast one) and equal to the brute force below. */
    static const uint64_t want[] = {1, 8, 18, 176, 448, 5008, 12880, 157406, 390306};
    int top = slow_tests() ? 8 : 6;
    const game_t *g = make("foxgeese");
    fg_state_t s;
    game_init(g, &s);
    bf_t b;
    bf_from_state(g, &s, &b);
    for (int d = 0; d <= top; d++) {
        uint64_t got = game_perft(g, &s, d), brute = bf_perft(&b, d);
        if (got != want[d] || brute != want[d])
            fprintf(stderr, "perft(%d): want %llu, game %llu, brute force %llu\n", d,
                    (unsigned long long)want[d], (unsigned long long)got,
                    (unsigned long long)brute);
        CU_ASSERT_EQUAL(got, want[d]);
        CU_ASSERT_EQUAL(brute, want[d]);
    }
    game_free(g);
}

/* The same cross-check from other starts and from positions with chains,
 * wins and the draw counter close to its limit. */
static void test_perft_brute_force(void)
{
    const struct {
        const char *spec, *pos;
        int wins_at, limit, depth;
    } cases[] = {
        {"foxgeese(geese=13)", NULL, 6, 50, 6},
        {"foxgeese(geese=15)", NULL, 6, 50, 6},
        {"foxgeese(geese=17,fox=29)", NULL, 6, 50, 5},
        {"foxgeese", "ggg/.../..g..../fg....g/..g..../.../ggg f 0", 6, 50, 5},
        {"foxgeese", "ggg/.../......./fg...../..g..../.../ggg f 0", 6, 50, 5},
        {"foxgeese", "ggg/ggg/ggggggg/gg...gg/...f.../.../... f 47", 6, 50, 5},
        {"foxgeese(fox_wins_at=0)", "g.g/.g./g.g.g.g/.g.f.g./......./.../... f 0", 0, 50, 5},
        {"foxgeese(quiet_limit=3)", NULL, 6, 3, 6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const game_t *g = make(cases[i].spec);
        fg_state_t s;
        if (cases[i].pos)
            set_pos(g, &s, cases[i].pos);
        else
            game_init(g, &s);
        bf_t b;
        bf_from_state(g, &s, &b);
        bf_wins_at = cases[i].wins_at, bf_limit = cases[i].limit;
        int top = slow_tests() ? cases[i].depth : cases[i].depth - 1;
        for (int d = 1; d <= top; d++) {
            uint64_t got = game_perft(g, &s, d), brute = bf_perft(&b, d);
            if (got != brute)
                fprintf(stderr, "%s %s perft(%d): game %llu, brute force %llu\n", cases[i].spec,
                        cases[i].pos ? cases[i].pos : "start", d, (unsigned long long)got,
                        (unsigned long long)brute);
            CU_ASSERT_EQUAL(got, brute);
        }
        game_free(g);
    }
    bf_wins_at = 6, bf_limit = 50;
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"parameters and bad specs", test_params},
        {"the cross numbered 1-33, orthogonal lines", test_board_numbering},
        {"the seed's start: geese on 1-15, 19, 20, fox on 17", test_start},
        {"the seed's worked moves 11-18, 6-11 and the bait 15-16", test_seed_moves},
        {"geese down or across only, the fox any way", test_step_directions},
        {"capture is compulsory", test_compulsory_capture},
        {"multi-jumps: one action per jump, the fox keeps the move", test_multi_jump},
        {"geese win when the fox cannot move", test_geese_win},
        {"fox wins when the flock is down to six (or all taken)", test_fox_wins_by_captures},
        {"geese that cannot move lose; the quiet-move draw", test_geese_stuck_and_draw},
        {"bad positions and moves: one-line errors, nothing changed", test_bad_input},
        {"position text round-trips", test_text_round_trip},
        {"the left-right mirror", test_mirror},
        {"observation planes", test_observe},
        {"heuristic", test_evaluate},
        {"perft table from the start, brute-force checked", test_perft_table},
        {"perft = brute force on variants and positions", test_perft_brute_force},
        {NULL, NULL},
    };
    return harness_run("foxgeese", tests);
}
