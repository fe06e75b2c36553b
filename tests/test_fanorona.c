/* test_fanorona.c — Fanorona on the seed's own lines: the set-up, the
 * opening examples of seed 002 (also the end of seed 000), the whole véla
 * game of seed 002 (tests/data/fanorona/vela_game.txt), the perft counts of
 * issue 12 per turn and per step, the chain rules, notation, positions, bad
 * input, symmetries, observation and heuristic. HOYLE_SLOW_TESTS=0 leaves
 * out the deepest perft levels (tests/cli/fanorona.sh runs them through the
 * CLI too). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "tests/harness.h"

#define START "bbbbbbbbb/bbbbbbbbb/bwbw.bwbw/wwwwwwwww/wwwwwwwww w open"
/* White's C2-C3W takes C1 and may go on: C3-D3W takes B3 (C3-C4A, east
 * twice, would take C5 but is barred) */
#define CHAIN_POS "........b/..b....../bw..b..../........./......... w"

/* States are small plain data: a buffer with room and alignment for one. */
typedef struct st {
    _Alignas(8) unsigned char b[256];
} st_t;

static bool slow(void)
{
    const char *e = getenv("HOYLE_SLOW_TESTS");
    return !(e && strcmp(e, "0") == 0);
}

static const game_t *make(const char *spec)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create(spec, &g));
    CU_ASSERT_FATAL(g != NULL);
    CU_ASSERT_FATAL(g->state_size <= sizeof(st_t));
    return g;
}

static void set_pos(const game_t *g, st_t *s, const char *text)
{
    HARNESS_OK(game_position_from_string(g, text, s));
}

static const char *pos(const game_t *g, const st_t *s)
{
    static char buf[GAME_TEXT_MAX];
    CU_ASSERT(game_position_to_string(g, s, buf, sizeof buf) > 0);
    return buf;
}

/* Number of pieces written in a position's board part for colour c ('w'/'b'). */
static int count(const game_t *g, const st_t *s, char c)
{
    const char *p = pos(g, s);
    int n = 0;
    for (; *p && *p != ' '; p++) n += *p == c;
    return n;
}

/* Whether point `name` (`D5`) is empty in s. */
static char at(const game_t *g, const st_t *s, const char *name)
{
    const char *p = pos(g, s);
    int r = name[0] - 'A', c = name[1] - '1';
    return p[r * 10 + c];
}

/* Apply a whole move; returns the number of actions (negative on error). */
static int play(const game_t *g, st_t *s, const char *move)
{
    int n = game_apply_move_string(g, s, move);
    if (n < 0) fprintf(stderr, "move '%s': %s\n", move, hoyle_last_error());
    return n;
}

/* ---- perft ---- */

/* Per-step perft: every action is one ply (capture steps and stop too). */
static uint64_t perft_steps(const game_t *g, const st_t *s, int depth)
{
    if (depth == 0) return 1;
    int legal[512];
    int n = game_legal_actions(g, s, legal);
    if (depth == 1) return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        st_t t = *s;
        game_apply(g, &t, legal[i]);
        total += perft_steps(g, &t, depth - 1);
    }
    return total;
}

static void test_setup(void)
{
    const game_t *g = make("fanorona");
    st_t s;
    game_init(g, &s);
    CU_ASSERT_STRING_EQUAL(pos(g, &s), START);
    CU_ASSERT_EQUAL(game_current_player(g, &s), 0); /* White first */
    CU_ASSERT_EQUAL(count(g, &s, 'w'), 22);
    CU_ASSERT_EQUAL(count(g, &s, 'b'), 22);
    CU_ASSERT_EQUAL(at(g, &s, "C5"), '.'); /* the foibeny */
    /* the seed: "those on C4, D4, D5, D6" can move into C5 (C4 two ways) */
    int legal[512], n = game_legal_actions(g, &s, legal);
    char text[512] = "";
    for (int i = 0; i < n; i++) {
        char a[GAME_MOVE_MAX];
        game_action_to_string(g, &s, legal[i], a, sizeof a);
        strcat(text, i ? " " : "");
        strcat(text, a);
    }
    CU_ASSERT_STRING_EQUAL(text, "C4-C5A C4-C5W D4-C5A D5-C5A D6-C5A");
    game_free(g);
}

static void test_perft_per_turn(void)
{
    /* issue 12: whole moves (every chain, every prefix where stopping is
     * allowed, approach and withdrawal distinct) */
    static const uint64_t want[] = {5, 39, 724, 18026, 431852};
    const game_t *g = make("fanorona");
    st_t s;
    game_init(g, &s);
    int depth = slow() ? 5 : 4;
    for (int d = 1; d <= depth; d++) {
        uint64_t got = game_perft(g, &s, d);
        if (got != want[d - 1])
            fprintf(stderr, "perft %d: %llu, want %llu\n", d, (unsigned long long)got,
                    (unsigned long long)want[d - 1]);
        CU_ASSERT_EQUAL(got, want[d - 1]);
        /* the fast perft (games/fanorona/perft.c) against the reference */
        if (d <= 4) CU_ASSERT_EQUAL(game_perft_generic(g, &s, d), want[d - 1]);
    }
    CU_ASSERT(game_has_fast_perft(g));
    game_free(g);
}

static void test_perft_per_step(void)
{
    static const uint64_t want[] = {5, 17, 64, 337, 1496, 6884, 33162, 156196, 747936};
    const game_t *g = make("fanorona");
    st_t s;
    game_init(g, &s);
    int depth = slow() ? 9 : 7;
    for (int d = 1; d <= depth; d++) CU_ASSERT_EQUAL(perft_steps(g, &s, d), want[d - 1]);
    game_free(g);
}

static void test_perft_vela(void)
{
    /* issue 12, véla from its start. No chain can happen in these six plies
     * (White takes one piece and the turn passes; Black only steps), so the
     * per-turn and per-step counts are the same numbers. */
    static const uint64_t want[] = {5, 24, 94, 817, 3984, 43015};
    const game_t *g = make("fanorona(vela=true)");
    st_t s;
    game_init(g, &s);
    for (int d = 1; d <= 6; d++) {
        CU_ASSERT_EQUAL(game_perft(g, &s, d), want[d - 1]);
        CU_ASSERT_EQUAL(perft_steps(g, &s, d), want[d - 1]);
    }
    game_free(g);
}

/* ---- the seed's opening examples ---- */

static void test_seed_opening(void)
{
    const game_t *g = make("fanorona");
    st_t s;
    game_init(g, &s);
    /* "If he advances D5 to C5, then he immediately captures Black's pieces
     * on B5 and A5." */
    CU_ASSERT_EQUAL(play(g, &s, "D5-C5(B5,A5)"), 1);
    CU_ASSERT_EQUAL(at(g, &s, "B5"), '.');
    CU_ASSERT_EQUAL(at(g, &s, "A5"), '.');
    CU_ASSERT_EQUAL(count(g, &s, 'b'), 20);
    CU_ASSERT_EQUAL(game_current_player(g, &s), 1);
    /* "Black may now retaliate by withdrawing his piece on B6 to A5, thereby
     * capturing White's pieces on C7, D8, E9." */
    st_t before = s;
    /* (A5 could go on capturing; the seed's Black stops: the stop is
     * implied by the text, so the move is two actions) */
    CU_ASSERT_EQUAL(play(g, &s, "B6-A5(C7,D8,E9)"), 2);
    CU_ASSERT_EQUAL(count(g, &s, 'w'), 19);
    s = before;
    CU_ASSERT_EQUAL(play(g, &s, "B6-A5W stop"), 2); /* the same, A/W spelling */
    CU_ASSERT_EQUAL(count(g, &s, 'w'), 19);
    CU_ASSERT_EQUAL(game_current_player(g, &s), 0);
    /* "D6, to C7, taking B8, A9; then „ B6, „ A5; „ B5, „ B4, B3, B2, B1." */
    before = s;
    int n = play(g, &s, "D6-C7(B8,A9)-B6(A5)-B5(B4,B3,B2,B1)");
    CU_ASSERT_EQUAL(n, 3); /* no stop: the chain cannot go on */
    CU_ASSERT_EQUAL(count(g, &s, 'b'), 13);
    /* "Now the White piece must stop awhile": it is Black's turn by itself */
    CU_ASSERT_EQUAL(game_current_player(g, &s), 1);
    /* "the Black piece at B7 is under his range": the same board with a
     * fresh White turn allows B5-B6 taking B7; in the chain it was barred
     * (B6 was just left, and the chain may not revisit it) */
    st_t fresh;
    char text[GAME_TEXT_MAX];
    snprintf(text, sizeof text, "%s", pos(g, &s));
    text[strlen(text) - 1] = 'w'; /* "... b" -> "... w" */
    set_pos(g, &fresh, text);
    CU_ASSERT_EQUAL(play(g, &fresh, "B5-B6(B7)"), 1);
    /* Mid-chain, after D6-C7 and C7-B6, the piece stands on B6 */
    st_t mid = before;
    int acts[GAME_MAX_CHAIN];
    CU_ASSERT_EQUAL(game_move_from_string(g, &mid, "D6-C7A", acts, GAME_MAX_CHAIN), 2);
    CU_ASSERT_EQUAL(acts[1], 1080); /* a stop was added: the chain could go on */
    game_apply(g, &mid, acts[0]);
    CU_ASSERT_EQUAL(game_current_player(g, &mid), 0);
    CU_ASSERT_STRING_EQUAL(strstr(pos(g, &mid), " chain="), " chain=D6-C7");
    /* ... and "B7, to C7, taking D7, E7; then „ D6, „ E5; then „ D5, „ D4,
     * D3, D2, D1; then „ E5, „ C5, B5." */
    n = play(g, &s, "B7-C7(D7,E7)-D6(E5)-D5(D4,D3,D2,D1)-E5(C5,B5)");
    CU_ASSERT(n == 4 || n == 5);
    CU_ASSERT_EQUAL(count(g, &s, 'w'), 10);
    CU_ASSERT_EQUAL(game_current_player(g, &s), 0);
    game_free(g);
}

/* ---- the véla game of seed 002 ---- */

/* The pieces listed in one step's parentheses: `(B5,A5)` -> names[]. */
static int step_lists(const char *move, char lists[][12][3], int *sizes)
{
    int steps = 0;
    for (const char *p = move; *p; p++) {
        if (*p == '-') sizes[steps++] = 0;
        if (*p == '(') {
            for (p++; *p && *p != ')'; p++)
                if (*p >= 'A' && *p <= 'E') {
                    memcpy(lists[steps - 1][sizes[steps - 1]++], p, 2);
                    lists[steps - 1][sizes[steps - 1] - 1][2] = '\0';
                }
        }
    }
    return steps;
}

static void test_vela_game(void)
{
    const game_t *g = make("fanorona(vela=true)");
    char *data = harness_read_data("fanorona/vela_game.txt");
    CU_ASSERT_FATAL(data != NULL);
    st_t s;
    game_init(g, &s);
    int moves = 0, ok = 1;
    for (char *line = strtok(data, "\n"); line && ok; line = strtok(NULL, "\n")) {
        if (line[0] == '#') continue;
        char move[256];
        snprintf(move, sizeof move, "%s", line);
        char *hash = strchr(move, '#');
        if (hash) *hash = '\0';
        for (char *e = move + strlen(move); e > move && e[-1] == ' ';) *--e = '\0';
        char lists[GAME_MAX_CHAIN][12][3];
        int sizes[GAME_MAX_CHAIN];
        int steps = step_lists(move, lists, sizes);
        int mover = game_current_player(g, &s);
        CU_ASSERT_EQUAL(mover, moves % 2); /* White and Black in turn */
        /* Black's 18th: the misprinted D1 is refused, the board unchanged */
        if (strncmp(move, "C8-B8(D8,E8)", 12) == 0) {
            st_t copy = s;
            CU_ASSERT(game_apply_move_string(g, &copy, "C8-B8(D1,E8)") < 0);
            CU_ASSERT_EQUAL(memcmp(&copy, &s, g->state_size), 0);
            CU_ASSERT(game_apply_move_string(g, &copy, "C8-B8(D8,E8)") > 0);
        }
        int acts[GAME_MAX_CHAIN];
        int n = game_move_from_string(g, &s, move, acts, GAME_MAX_CHAIN);
        if (n < steps) {
            fprintf(stderr, "véla move %d '%s': %s\n", moves + 1, move, hoyle_last_error());
            ok = 0;
            break;
        }
        /* step by step, each takes exactly the record's pieces */
        for (int i = 0; i < n; i++) {
            int enemy = count(g, &s, mover ? 'w' : 'b');
            game_apply(g, &s, acts[i]);
            if (i >= steps) continue; /* a stop */
            CU_ASSERT_EQUAL(enemy - count(g, &s, mover ? 'w' : 'b'), sizes[i]);
            for (int k = 0; k < sizes[i]; k++) CU_ASSERT_EQUAL(at(g, &s, lists[i][k]), '.');
        }
        moves++;
        /* the sacrifices: while Black has more than five, White takes one a
         * turn and Black never takes; Black's 17th begins the attack */
        if (moves <= 33) CU_ASSERT_EQUAL(count(g, &s, 'w'), 22);
        if (moves <= 33) CU_ASSERT_EQUAL(count(g, &s, 'b'), 22 - (moves + 1) / 2);
    }
    CU_ASSERT_EQUAL(moves, 47);
    /* "24. D2 „ C1 and wins": one Black piece left, and whatever it does
     * White takes it next move */
    CU_ASSERT_EQUAL(count(g, &s, 'b'), 1);
    CU_ASSERT_EQUAL(count(g, &s, 'w'), 2);
    int legal[512], n = game_legal_actions(g, &s, legal);
    CU_ASSERT_EQUAL(n, 4);
    for (int i = 0; i < n; i++) {
        st_t t = s;
        game_apply(g, &t, legal[i]);
        int white[512], m = game_legal_actions(g, &t, white), wins = 0;
        for (int k = 0; k < m; k++) {
            st_t u = t;
            game_apply(g, &u, white[k]);
            double r[2];
            game_returns(g, &u, r);
            wins += game_is_terminal(g, &u) && r[0] == 1.0;
        }
        CU_ASSERT(wins > 0);
    }
    free(data);
    game_free(g);
}

/* ---- rules ---- */

static void test_chain_rules(void)
{
    const game_t *g = make("fanorona");
    st_t s;
    /* withdrawal C2-C3 takes C1; going on east (C3-C4 would take C5 by
     * approach) is the same direction twice: the turn ends by itself */
    set_pos(g, &s, "........b/........./bw..b..../........./......... w");
    CU_ASSERT_EQUAL(play(g, &s, "C2-C3W"), 1);
    CU_ASSERT_EQUAL(game_current_player(g, &s), 1);
    set_pos(g, &s, "........b/........./..w.b..../........./......... w");
    CU_ASSERT_EQUAL(play(g, &s, "C3-C4A"), 1); /* the same capture, fresh */
    /* a chain with a choice: stop (written or not) or go on to D3 */
    set_pos(g, &s, CHAIN_POS);
    int acts[GAME_MAX_CHAIN];
    CU_ASSERT_EQUAL(game_move_from_string(g, &s, "C2-C3W", acts, GAME_MAX_CHAIN), 2);
    CU_ASSERT_EQUAL(game_move_from_string(g, &s, "C2-C3W stop", acts, GAME_MAX_CHAIN), 2);
    st_t t = s;
    CU_ASSERT_EQUAL(play(g, &t, "C2-C3W-D3W"), 2);
    CU_ASSERT(!strstr(pos(g, &t), "b/..b")); /* B3 taken */
    t = s;
    CU_ASSERT(play(g, &t, "C2-C3W-C4A") < 0); /* east twice in a row: refused */
    CU_ASSERT_EQUAL(memcmp(&t, &s, g->state_size), 0);
    /* captures are compulsory: a paika is refused while a capture exists */
    set_pos(g, &s, "b......../w......../........./........./........b w");
    CU_ASSERT(play(g, &s, "B1-B2") < 0);
    CU_ASSERT_EQUAL(play(g, &s, "B1-C1W"), 1);
    /* the game's first move is one capture only ("open"): the step that
     * goes on in a chain above ends the turn. (From the seed's set-up no
     * first move could go on anyway: every capture there leaves the piece
     * on C5 with no second capture.) */
    set_pos(g, &s, CHAIN_POS " open");
    CU_ASSERT_EQUAL(play(g, &s, "C2-C3W"), 1);
    CU_ASSERT_EQUAL(game_current_player(g, &s), 1);
    CU_ASSERT_PTR_NULL(strstr(pos(g, &s), "open"));
    /* taking the last piece wins; a capture resets the draw counter */
    set_pos(g, &s, "........./........./..wb...../........./........b w quiet=7");
    CU_ASSERT_EQUAL(play(g, &s, "C3-C2W"), 1);
    CU_ASSERT(!game_is_terminal(g, &s));
    CU_ASSERT_PTR_NULL(strstr(pos(g, &s), "quiet"));
    set_pos(g, &s, "........./........./..wb...../........./......... w");
    CU_ASSERT_EQUAL(play(g, &s, "C3-C2W"), 1);
    double r[2];
    CU_ASSERT(game_is_terminal(g, &s));
    game_returns(g, &s, r);
    CU_ASSERT(r[0] == 1.0 && r[1] == -1.0);
    game_free(g);
}

static void test_draw_and_blocked(void)
{
    const game_t *g = make("fanorona");
    st_t s;
    double r[2];
    /* draw_moves=50 whole moves without a capture draw the game */
    set_pos(g, &s, "w......../........./........./........./........b w quiet=48");
    CU_ASSERT_EQUAL(play(g, &s, "A1-A2"), 1);
    CU_ASSERT(!game_is_terminal(g, &s));
    CU_ASSERT_EQUAL(play(g, &s, "E9-E8"), 1);
    CU_ASSERT(game_is_terminal(g, &s));
    game_returns(g, &s, r);
    CU_ASSERT(r[0] == 0.0 && r[1] == 0.0);
    game_free(g);
    g = make("fanorona(draw_moves=3)");
    set_pos(g, &s, "w......../........./........./........./........b w quiet=2");
    CU_ASSERT_EQUAL(play(g, &s, "A1-B1"), 1);
    CU_ASSERT(game_is_terminal(g, &s));
    game_free(g);
    /* a side that cannot move loses: White's A1 hemmed in, no capture (the
     * Black pieces have no empty point behind or beyond them) */
    g = make("fanorona");
    set_pos(g, &s, "wbb....../bbb....../bb......./........./......... w");
    CU_ASSERT(game_is_terminal(g, &s));
    game_returns(g, &s, r);
    CU_ASSERT(r[0] == -1.0 && r[1] == 1.0);
    game_free(g);
}

/* ---- notation, positions, bad input ---- */

/* A call that must fail: one-line message, state unchanged. */
static void expect_refused(const game_t *g, const char *start, const char *move)
{
    st_t s, before;
    set_pos(g, &s, start);
    before = s;
    int r = game_apply_move_string(g, &s, move);
    CU_ASSERT(r < 0);
    CU_ASSERT_EQUAL(memcmp(&s, &before, g->state_size), 0);
    CU_ASSERT(hoyle_last_error()[0] != '\0' && strchr(hoyle_last_error(), '\n') == NULL);
    int a = -7;
    r = game_action_from_string(g, &s, move, &a);
    if (r != 0) CU_ASSERT_EQUAL(a, -7);
}

static void test_bad_input(void)
{
    const game_t *g = make("fanorona");
    static const char *const bad_moves[] = {
        "",
        "D5",
        "D5-",
        "D5-C4",
        "E5-D5",
        "C4-C5",
        "Z9-A1",
        "stop",
        "D5-C5W",
        "D5-C5(B5)",
        "D5-C5(B5,A5",
        "D5-C5A-B5A",
        "D5-C5A x",
        "C4-C5A(C6,C6)",
        "D5-C5A stop",
        "d5-c5a,,zz",
    };
    for (size_t i = 0; i < sizeof bad_moves / sizeof *bad_moves; i++)
        expect_refused(g, START, bad_moves[i]);
    /* lower case, and a step written with its list only */
    st_t s;
    set_pos(g, &s, START);
    CU_ASSERT_EQUAL(play(g, &s, "c4-c5(c3)"), 1);
    CU_ASSERT_EQUAL(at(g, &s, "C3"), '.');
    static const char *const bad_positions[] = {
        "",
        "bbbbbbbbb/bbbbbbbbb/bwbw.bwbw/wwwwwwwww/wwwwwwwww",
        "bbbbbbbbb/bbbbbbbbb/bwbw.bwbw/wwwwwwwww/wwwwwwwww x",
        "bbbbbbbbb/bbbbbbbbb/bwbw.bwbw/wwwwwwwww/wwwwwwww w",
        "bbbbbbbbb/bbbbbbbbb/bwbwxbwbw/wwwwwwwww/wwwwwwwww w",
        "bbbbbbbbb/bbbbbbbbb/bwbw.bwbw/wwwwwwwww/wwwwwwwww w open open",
        "bbbbbbbbb/bbbbbbbbb/bwbw.bwbw/wwwwwwwww/wwwwwwwww w quiet=51",
        "bbbbbbbbb/bbbbbbbbb/bwbw.bwbw/wwwwwwwww/wwwwwwwww w quiet=x",
        "bbbbbbbbb/bbbbbbbbb/bbbbbbbbb/wwwwwwwww/wwwwwwwww w",             /* 27 black */
        "........./........./..w....../........./......... w",             /* Black has none */
        "........./........./..w....../........./........b w chain=C2-C3", /* no capture */
        "........./........./bw..b..../........./...b..... w visited=C3",
        "........./........./b.w.b..../...b...../...b..... w chain=C1-C3",
        "........./........./b.w.b..../...b...../...b..... w open chain=C2-C3",
    };
    for (size_t i = 0; i < sizeof bad_positions / sizeof *bad_positions; i++) {
        st_t before;
        game_init(g, &s);
        before = s;
        int r = game_position_from_string(g, bad_positions[i], &s);
        if (r == 0) fprintf(stderr, "accepted bad position '%s'\n", bad_positions[i]);
        CU_ASSERT(r < 0);
        CU_ASSERT_EQUAL(memcmp(&s, &before, g->state_size), 0);
        CU_ASSERT(strchr(hoyle_last_error(), '\n') == NULL);
    }
    game_free(g);
}

static void test_text_round_trips(void)
{
    const game_t *g = make("fanorona");
    st_t s, t;
    /* mid-chain: the piece on C3 came from C2 (withdrawal); it stood on C2 */
    set_pos(g, &s, CHAIN_POS);
    CU_ASSERT_EQUAL(game_apply_checked(g, &s, (2 * 9 + 1) * 24 + 4 * 3 + 2), 0); /* C2-C3W */
    CU_ASSERT_EQUAL(game_current_player(g, &s), 0);
    const char *text = pos(g, &s);
    CU_ASSERT_STRING_EQUAL(text, "........b/..b....../..w.b..../........./......... w chain=C2-C3");
    set_pos(g, &t, text);
    CU_ASSERT_EQUAL(game_hash(g, &t), game_hash(g, &s));
    CU_ASSERT_EQUAL(memcmp(&s, &t, g->state_size), 0);
    /* actions and whole moves in the seed's spelling */
    int acts[GAME_MAX_CHAIN];
    char buf[128];
    game_init(g, &s);
    int n = game_move_from_string(g, &s, "D5-C5", acts, GAME_MAX_CHAIN);
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT(game_move_to_string(g, &s, acts, n, buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "D5-C5A");
    game_action_to_string(g, &s, 1080, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "stop");
    game_free(g);
}

/* ---- symmetries, observation, heuristic ---- */

static void test_symmetries(void)
{
    const game_t *g = make("fanorona");
    CU_ASSERT_EQUAL(g->num_symmetries, 4);
    st_t s, t;
    game_init(g, &s);
    game_symmetry_state(g, SYM_FLIP_COLS, &s, &t);
    CU_ASSERT_STRING_EQUAL(pos(g, &t), "bbbbbbbbb/bbbbbbbbb/wbwb.wbwb/wwwwwwwww/wwwwwwwww w open");
    game_symmetry_state(g, SYM_FLIP_ROWS, &s, &t);
    CU_ASSERT_STRING_EQUAL(pos(g, &t), "wwwwwwwww/wwwwwwwww/bwbw.bwbw/bbbbbbbbb/bbbbbbbbb w open");
    game_symmetry_state(g, SYM_ROT180, &s, &t);
    CU_ASSERT_STRING_EQUAL(pos(g, &t), "wwwwwwwww/wwwwwwwww/wbwb.wbwb/bbbbbbbbb/bbbbbbbbb w open");
    /* D5-C5A seen upside down is B5-C5A; stop stays stop */
    char buf[GAME_MOVE_MAX];
    int a, img;
    HARNESS_OK(game_action_from_string(g, &s, "D5-C5A", &a));
    game_symmetry_state(g, SYM_FLIP_ROWS, &s, &t);
    img = game_symmetry_action(g, SYM_FLIP_ROWS, a);
    game_action_to_string(g, &t, img, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "B5-C5A");
    CU_ASSERT(game_is_legal(g, &t, img));
    CU_ASSERT_EQUAL(game_symmetry_action(g, SYM_ROT180, 1080), 1080);
    /* the diagonals are kept: C4-C5A (orthogonal) and D6-C5A (diagonal) map
     * to legal steps under every symmetry (the conformance suite checks all
     * legal actions of random positions) */
    HARNESS_OK(game_action_from_string(g, &s, "D6-C5A", &a));
    for (int k = 1; k < g->num_symmetries; k++) {
        game_symmetry_state(g, g->symmetries[k], &s, &t);
        CU_ASSERT(game_is_legal(g, &t, game_symmetry_action(g, g->symmetries[k], a)));
    }
    game_free(g);
}

static void test_observe_eval(void)
{
    const game_t *g = make("fanorona");
    CU_ASSERT_EQUAL(g->obs_shape[0], 8);
    CU_ASSERT_EQUAL(g->obs_shape[1], 5);
    CU_ASSERT_EQUAL(g->obs_shape[2], 9);
    int size = game_obs_size(g);
    float *w = calloc((size_t)size, sizeof *w), *b = calloc((size_t)size, sizeof *b);
    st_t s;
    game_init(g, &s);
    /* the set-up is the same seen from either side (180 degrees, colours
     * swapped), so both players observe the same tensor */
    game_observe(g, &s, 0, w);
    game_observe(g, &s, 1, b);
    CU_ASSERT_EQUAL(memcmp(w, b, sizeof(float) * (size_t)size), 0);
    CU_ASSERT_EQUAL(w[0 * 45 + 44], 1.0f); /* own piece on E9 */
    CU_ASSERT_EQUAL(w[1 * 45 + 0], 1.0f);  /* enemy on A1 */
    CU_ASSERT_EQUAL(w[5 * 45], 1.0f);      /* first-move rule */
    /* after D5-C5A Black sees his A5/B5 losses at the bottom (E5, D5) */
    CU_ASSERT_EQUAL(play(g, &s, "D5-C5A"), 1);
    game_observe(g, &s, 1, b);
    CU_ASSERT_EQUAL(b[0 * 45 + 40], 0.0f);
    CU_ASSERT_EQUAL(b[0 * 45 + 31], 0.0f);
    CU_ASSERT_EQUAL(b[0 * 45 + 39], 1.0f);
    CU_ASSERT_EQUAL(b[5 * 45], 0.0f);
    /* the heuristic: White two pieces up */
    CU_ASSERT(game_evaluate(g, &s, 0) > 0.1);
    CU_ASSERT(game_evaluate(g, &s, 1) < -0.1);
    int legal[512], n = game_legal_actions(g, &s, legal), noisy = 0;
    for (int i = 0; i < n; i++) noisy += game_is_noisy(g, &s, legal[i]);
    CU_ASSERT_EQUAL(noisy, n); /* Black must capture: every action is one */
    set_pos(g, &s, "w......../........./........./........./........b w");
    n = game_legal_actions(g, &s, legal);
    for (int i = 0; i < n; i++) CU_ASSERT(!game_is_noisy(g, &s, legal[i]));
    CU_ASSERT(!game_is_noisy(g, &s, 1080));
    free(w);
    free(b);
    game_free(g);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"set-up and first moves", test_setup},
        {"perft per turn (whole moves)", test_perft_per_turn},
        {"perft per step (actions)", test_perft_per_step},
        {"perft, vela", test_perft_vela},
        {"seed 002 opening examples", test_seed_opening},
        {"seed 002 vela game", test_vela_game},
        {"chain rules, compulsory capture, first move", test_chain_rules},
        {"draw rule and a blocked side", test_draw_and_blocked},
        {"bad input", test_bad_input},
        {"text round trips", test_text_round_trips},
        {"symmetries", test_symmetries},
        {"observation and heuristic", test_observe_eval},
        {NULL, NULL},
    };
    return harness_run("fanorona", tests);
}
