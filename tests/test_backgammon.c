/* test_backgammon.c — Backgammon: the start, chance, the plays of every
 * opening roll against GNU Backgammon, rules edge cases from constructed
 * positions, results, move text, position text and bad input, hashing and
 * Position IDs along random games. The generic conformance suite covers
 * random games too.
 *
 * Reference figures (play counts, Position IDs, the plays of each case) come
 * from GNU Backgammon 1.07.001: `set board ID`, `set dice H L`, then
 * gnubg.hint(1000) after `set evaluation chequerplay evaluation plies 0`
 * lists every legal play once; gnubg.positionid(board) gives the IDs.
 * tests/data/backgammon/ holds gnubg's plays of every roll from the start
 * and its play counts for positions from random games. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "games/backgammon/bg_internal.h"
#include "games/registry.h"
#include "tests/harness.h"

#define STATE_WORDS 32 /* uint64_t words: room for a bg_state_t */
#define MAX_MOVES   BG_MAX_PLAYS

typedef struct gs {
    uint64_t w[STATE_WORDS];
} gs_t;

static const bg_state_t *bs(const gs_t *s) { return (const bg_state_t *)s; }

static const game_t *make(const char *spec) { return harness_game(spec, sizeof(gs_t)); }

static void set_pos(const game_t *g, gs_t *s, const char *pos) { harness_set_position(g, s, pos); }

static void pos_of(const game_t *g, const gs_t *s, char *buf, size_t cap)
{
    CU_ASSERT_FATAL(game_position_to_string(g, s, buf, cap) > 0);
}

/* One side's men from "P:N P:N ..." in his own numbering (25 = the bar);
 * men not listed are borne off. */
static void spec_side(int8_t *men, const char *spec)
{
    memset(men, 0, BG_POINTS);
    int total = 0, q, n, used;
    for (const char *p = spec; sscanf(p, " %d:%d%n", &q, &n, &used) == 2; p += used) {
        CU_ASSERT_FATAL(q >= 1 && q <= BG_BAR && n >= 0);
        men[q] = (int8_t)(men[q] + n);
        total += n;
    }
    men[BG_OFF] = (int8_t)(BG_MEN - total);
}

static void spec_board(bg_board_t *b, int mover, const char *me, const char *opp)
{
    spec_side(b->men[mover], me);
    spec_side(b->men[1 - mover], opp);
}

/* Position text "ID:SIDE:tail" for `mover` with the men `me` and `opp`. */
static void pos_text(char *buf, size_t cap, int mover, const char *me, const char *opp,
                     const char *tail)
{
    bg_board_t b;
    spec_board(&b, mover, me, opp);
    char id[BG_ID_LEN + 1];
    bg_position_id(&b, mover, id);
    snprintf(buf, cap, "%s:%c:%s", id, mover ? 'O' : 'X', tail);
}

/* ---- whole moves ---- */

typedef struct moves {
    int n;
    int len[MAX_MOVES];
    int act[MAX_MOVES][BG_MAX_STEPS];
    gs_t after[MAX_MOVES];
} moves_t;

static int collect(const int *actions, int n, const void *after, void *ctx)
{
    moves_t *m = ctx;
    if (m->n >= MAX_MOVES || n > BG_MAX_STEPS) return -1;
    m->len[m->n] = n;
    memcpy(m->act[m->n], actions, sizeof(int) * (size_t)n);
    memcpy(&m->after[m->n], after, sizeof(gs_t));
    m->n++;
    return 0;
}

static moves_t moves_buf;

/* The whole moves from `s` into moves_buf; returns their count. */
static int whole_moves(const game_t *g, const gs_t *s)
{
    moves_buf.n = 0;
    int n = game_whole_moves(g, s, collect, &moves_buf);
    CU_ASSERT_EQUAL(n, moves_buf.n);
    CU_ASSERT_EQUAL(game_whole_moves(g, s, NULL, NULL), n);
    return n;
}

/* Every whole move of moves_buf ends on a different board (one play per
 * resulting position), and its text parses back to the same actions. */
static void check_moves(const game_t *g, const gs_t *s)
{
    char text[GAME_MOVE_MAX];
    for (int i = 0; i < moves_buf.n; i++) {
        for (int j = 0; j < i; j++)
            if (memcmp(&bs(&moves_buf.after[i])->board, &bs(&moves_buf.after[j])->board,
                       sizeof(bg_board_t)) == 0) {
                CU_FAIL("two whole moves reach the same board");
            }
        int len = game_move_to_string(g, s, moves_buf.act[i], moves_buf.len[i], text, sizeof text);
        CU_ASSERT_FATAL(len > 0);
        int back[GAME_MAX_CHAIN];
        int n = game_move_from_string(g, s, text, back, GAME_MAX_CHAIN);
        if (n != moves_buf.len[i])
            fprintf(stderr, "move '%s' parses to %d actions, made of %d\n", text, n,
                    moves_buf.len[i]);
        CU_ASSERT_EQUAL(n, moves_buf.len[i]);
        if (n == moves_buf.len[i])
            CU_ASSERT_EQUAL(memcmp(back, moves_buf.act[i], sizeof(int) * (size_t)n), 0);
    }
}

/* Parse `text` as a whole move from `s` and return the index of the whole
 * move of moves_buf it is (-1 when it does not parse or is no whole move). */
static int find_move(const game_t *g, const gs_t *s, const char *text)
{
    int act[GAME_MAX_CHAIN];
    int n = game_move_from_string(g, s, text, act, GAME_MAX_CHAIN);
    if (n < 0) {
        fprintf(stderr, "move '%s': %s\n", text, hoyle_last_error());
        return -1;
    }
    for (int i = 0; i < moves_buf.n; i++)
        if (moves_buf.len[i] == n && memcmp(moves_buf.act[i], act, sizeof(int) * (size_t)n) == 0)
            return i;
    fprintf(stderr, "move '%s' is not one of the whole moves\n", text);
    return -1;
}

/* `texts` (gnubg's plays, NULL-terminated or `count` of them) are exactly
 * the whole moves from `s`: each parses to a different whole move and none
 * is left over. */
static void expect_plays(const game_t *g, const gs_t *s, const char *const *texts, int count)
{
    int n = whole_moves(g, s);
    CU_ASSERT_EQUAL(n, count);
    check_moves(g, s);
    bool seen[MAX_MOVES] = {false};
    for (int i = 0; i < count && texts[i]; i++) {
        int k = find_move(g, s, texts[i]);
        CU_ASSERT(k >= 0);
        if (k < 0) continue;
        CU_ASSERT_FALSE(seen[k]);
        seen[k] = true;
    }
}

/* ---- parameters, start, chance ---- */

static void test_params(void)
{
    const game_t *g = make("backgammon");
    CU_ASSERT_STRING_EQUAL(g->spec, "backgammon(scoring=win,max_turns=1000,numbering=modern)");
    CU_ASSERT_EQUAL(g->num_players, 2);
    CU_ASSERT_EQUAL(g->num_actions, BG_NUM_ACTIONS);
    CU_ASSERT_EQUAL(g->max_chance_outcomes, 30);
    CU_ASSERT_EQUAL(g->num_symmetries, 1);
    CU_ASSERT_EQUAL(g->obs_shape[0], BG_PLANES);
    CU_ASSERT_EQUAL(g->obs_shape[1], 1);
    CU_ASSERT_EQUAL(g->obs_shape[2], BG_POINTS);
    game_free(g);
    const char *bad[] = {"backgammon(scoring=cube)",     "backgammon(max_turns=1)",
                         "backgammon(max_turns=10001)",  "backgammon(cube=true)",
                         "backgammon(numbering=french)", NULL};
    for (int i = 0; bad[i]; i++) {
        const game_t *h = NULL;
        CU_ASSERT_EQUAL(game_create(bad[i], &h), HOYLE_EINVAL);
        CU_ASSERT_PTR_NULL(h);
    }
}

/* The seed's numbering: the same plays, every point written 25 - q. */
static void test_foster_numbering(void)
{
    const game_t *m = make("backgammon"), *f = make("backgammon(numbering=foster)");
    gs_t a, b;
    set_pos(m, &a, "4HPwATDgc/ABMA:X:62:t1");
    set_pos(f, &b, "4HPwATDgc/ABMA:X:62:t1");
    int acts[GAME_MAX_CHAIN], back[GAME_MAX_CHAIN];
    int n = game_move_from_string(m, &a, "24/18 13/11", acts, GAME_MAX_CHAIN);
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT_EQUAL(game_move_from_string(f, &b, "1/7 12/14", back, GAME_MAX_CHAIN), n);
    CU_ASSERT_EQUAL(memcmp(acts, back, sizeof(int) * (size_t)(n > 0 ? n : 0)), 0);
    char text[GAME_MOVE_MAX];
    CU_ASSERT(game_move_to_string(f, &b, acts, n, text, sizeof text) > 0);
    CU_ASSERT_STRING_EQUAL(text, "1/7 12/14");
    CU_ASSERT(game_action_to_string(f, &b, acts[0], text, sizeof text) > 0);
    CU_ASSERT_STRING_EQUAL(text, "1/7");
    /* modern text is not the same play in Foster's numbering */
    CU_ASSERT_EQUAL(game_move_from_string(f, &b, "24/18 13/11", back, GAME_MAX_CHAIN),
                    HOYLE_EINVAL);
    char board[GAME_TEXT_MAX];
    CU_ASSERT(game_state_to_string(f, &b, board, sizeof board) > 0);
    CU_ASSERT(strstr(board, " +12-11-10--9--8--7-------6--5--4--3--2--1-+   O:") != NULL);
    game_free(m);
    game_free(f);
}

static void test_start(void)
{
    const game_t *g = make("backgammon");
    gs_t s, t;
    char buf[GAME_TEXT_MAX];
    game_init(g, &s);
    CU_ASSERT_EQUAL(game_current_player(g, &s), PLAYER_CHANCE);
    pos_of(g, &s, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "4HPwATDgc/ABMA:-:-:t0");
    set_pos(g, &t, buf);
    CU_ASSERT_EQUAL(memcmp(&s, &t, g->state_size), 0);
    /* 2 men on the 24-point, 5 on the 13, 3 on the 8, 5 on the 6, each side. */
    const bg_board_t *b = &bs(&s)->board;
    for (int p = 0; p < 2; p++) {
        CU_ASSERT_EQUAL(b->men[p][24], 2);
        CU_ASSERT_EQUAL(b->men[p][13], 5);
        CU_ASSERT_EQUAL(b->men[p][8], 3);
        CU_ASSERT_EQUAL(b->men[p][6], 5);
        CU_ASSERT_EQUAL(bg_pips(b, p), 167);
    }
    CU_ASSERT(game_state_to_string(g, &s, buf, sizeof buf) > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "opening roll"));
    /* gnubg: after X's opening 8/3 6/3 the ID (O on roll) is jGfwATDgc/ABMA. */
    bg_board_t after = *b;
    after.men[0][8] = 2, after.men[0][6] = 4, after.men[0][3] = 2;
    char id[BG_ID_LEN + 1];
    bg_position_id(&after, 1, id);
    CU_ASSERT_STRING_EQUAL(id, "jGfwATDgc/ABMA");
    game_free(g);
}

static void test_opening_roll(void)
{
    const game_t *g = make("backgammon");
    gs_t s, t;
    game_init(g, &s);
    int acts[64];
    double probs[64], total = 0;
    int n = game_chance_outcomes(g, &s, acts, probs);
    CU_ASSERT_EQUAL_FATAL(n, 30);
    bool seen[36] = {false};
    char buf[GAME_TEXT_MAX], want[64];
    for (int i = 0; i < n; i++) {
        int d0 = acts[i] / 6 + 1, d1 = acts[i] % 6 + 1;
        CU_ASSERT(acts[i] >= 0 && acts[i] < 36 && !seen[acts[i]]);
        seen[acts[i]] = true;
        CU_ASSERT(d0 != d1);
        CU_ASSERT_DOUBLE_EQUAL(probs[i], 1.0 / 30, 1e-12);
        total += probs[i];
        t = s;
        game_apply(g, &t, acts[i]);
        /* The higher die moves first and plays both numbers. */
        int mover = d0 > d1 ? 0 : 1, hi = d0 > d1 ? d0 : d1, lo = d0 + d1 - hi;
        CU_ASSERT_EQUAL(game_current_player(g, &t), mover);
        CU_ASSERT_EQUAL(bs(&t)->dice[0], hi);
        CU_ASSERT_EQUAL(bs(&t)->dice[1], lo);
        CU_ASSERT_EQUAL(bs(&t)->need, 2);
        pos_of(g, &t, buf, sizeof buf);
        snprintf(want, sizeof want, "4HPwATDgc/ABMA:%c:%d%d:t1", mover ? 'O' : 'X', hi, lo);
        CU_ASSERT_STRING_EQUAL(buf, want);
        HARNESS_OK(game_action_to_string(g, &s, acts[i], buf, sizeof buf));
        int back = -1;
        HARNESS_OK(game_action_from_string(g, &s, buf, &back));
        CU_ASSERT_EQUAL(back, acts[i]);
    }
    CU_ASSERT_DOUBLE_EQUAL(total, 1.0, 1e-12);
    int a;
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "X3-O3", &a), HOYLE_EINVAL);
    game_free(g);
}

static void test_regular_roll(void)
{
    const game_t *g = make("backgammon");
    gs_t s, t;
    game_init(g, &s);
    HARNESS_OK(game_apply_move_string(g, &s, "X3-O1"));
    HARNESS_OK(game_apply_move_string(g, &s, "8/5 6/5"));
    char buf[GAME_TEXT_MAX];
    pos_of(g, &s, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "sGfwATDgc/ABMA:O:-:t1"); /* gnubg.positionid */
    CU_ASSERT_EQUAL(game_current_player(g, &s), PLAYER_CHANCE);
    int acts[64];
    double probs[64], total = 0;
    int n = game_chance_outcomes(g, &s, acts, probs);
    CU_ASSERT_EQUAL_FATAL(n, 21);
    for (int i = 0; i < n; i++) {
        int hi = acts[i] / 6 + 1, lo = acts[i] % 6 + 1;
        CU_ASSERT(hi >= lo);
        CU_ASSERT_DOUBLE_EQUAL(probs[i], hi == lo ? 1.0 / 36 : 2.0 / 36, 1e-12);
        total += probs[i];
        t = s;
        game_apply(g, &t, acts[i]);
        CU_ASSERT_EQUAL(game_current_player(g, &t), 1);
        CU_ASSERT_EQUAL(bs(&t)->dice[0], hi);
        CU_ASSERT_EQUAL(bs(&t)->dice[1], lo);
        CU_ASSERT_EQUAL(bs(&t)->need, hi == lo ? 4 : 2);
        CU_ASSERT_EQUAL(bs(&t)->turns, 2);
    }
    CU_ASSERT_DOUBLE_EQUAL(total, 1.0, 1e-12);
    int legal[BG_NUM_ACTIONS];
    CU_ASSERT_EQUAL(game_legal_actions(g, &s, legal), 21);
    HARNESS_OK(game_apply_move_string(g, &s, "13")); /* a roll is written high or low first */
    CU_ASSERT_EQUAL(bs(&s)->dice[0], 3);
    CU_ASSERT_EQUAL(bs(&s)->dice[1], 1);
    game_free(g);
}

/* ---- the plays of every roll from the start ---- */

/* Distinct plays of each roll from the starting position, X on roll, as GNU
 * Backgammon 1.07.001 lists them (hint at 0-ply; the plays themselves are in
 * tests/data/backgammon/gnubg_start_plays.txt). Index [hi][lo]. */
static const int start_plays[7][7] = {
    [1] = {[1] = 42},
    [2] = {[1] = 15, [2] = 75},
    [3] = {[1] = 16, [2] = 17, [3] = 73},
    [4] = {[1] = 14, [2] = 18, [3] = 17, [4] = 52},
    [5] = {[1] = 8, [2] = 8, [3] = 9, [4] = 9, [5] = 4},
    [6] = {[1] = 10, [2] = 14, [3] = 14, [4] = 14, [5] = 7, [6] = 11},
};

static void test_start_counts(void)
{
    const game_t *g = make("backgammon");
    gs_t s;
    char pos[64];
    int total = 0;
    for (int hi = 1; hi <= 6; hi++)
        for (int lo = 1; lo <= hi; lo++) {
            /* Doubles cannot be an opening roll: X on roll with them. */
            snprintf(pos, sizeof pos, "4HPwATDgc/ABMA:X:%d%d:t1", hi, lo);
            set_pos(g, &s, pos);
            int n = whole_moves(g, &s);
            if (n != start_plays[hi][lo])
                fprintf(stderr, "roll %d%d: %d plays, gnubg %d\n", hi, lo, n, start_plays[hi][lo]);
            CU_ASSERT_EQUAL(n, start_plays[hi][lo]);
            check_moves(g, &s);
            total += n;
            if (hi == lo) continue;
            /* The same from the opening roll, either side winning it. */
            for (int p = 0; p < 2; p++) {
                game_init(g, &s);
                game_apply(g, &s, p == 0 ? (hi - 1) * 6 + lo - 1 : (lo - 1) * 6 + hi - 1);
                CU_ASSERT_EQUAL(game_current_player(g, &s), p);
                CU_ASSERT_EQUAL(game_whole_moves(g, &s, NULL, NULL), start_plays[hi][lo]);
            }
        }
    CU_ASSERT_EQUAL(total, 447);
    game_free(g);
}

static void test_start_plays_gnubg(void)
{
    char *text = harness_read_data("backgammon/gnubg_start_plays.txt");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    const game_t *g = make("backgammon");
    gs_t s;
    int rolls = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') continue;
        int hi, lo, count, used;
        CU_ASSERT_FATAL(sscanf(line, "%1d%1d %d:%n", &hi, &lo, &count, &used) == 3);
        CU_ASSERT_EQUAL(count, start_plays[hi][lo]);
        char pos[64];
        snprintf(pos, sizeof pos, "4HPwATDgc/ABMA:X:%d%d:t1", hi, lo);
        set_pos(g, &s, pos);
        const char *plays[MAX_MOVES];
        int n = 0;
        char *save2 = NULL;
        for (char *p = strtok_r(line + used, ";", &save2); p && n < MAX_MOVES;
             p = strtok_r(NULL, ";", &save2))
            plays[n++] = p;
        CU_ASSERT_EQUAL(n, count);
        expect_plays(g, &s, plays, n);
        rolls++;
    }
    CU_ASSERT_EQUAL(rolls, 21);
    game_free(g);
    free(text);
}

/* Positions from random games: hoyle's number of plays equals gnubg's. */
static void test_random_counts_gnubg(void)
{
    char *text = harness_read_data("backgammon/gnubg_random_counts.txt");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    const game_t *g = make("backgammon");
    gs_t s, t;
    int lines = 0, none = 0, big = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') continue;
        char id[32], pos[64];
        int hi, lo, count;
        CU_ASSERT_FATAL(sscanf(line, "%31s %1d%1d %d", id, &hi, &lo, &count) == 4);
        lines++;
        snprintf(pos, sizeof pos, "%s:X:%d%d:t9", id, hi, lo);
        if (count == 0) {
            /* No play: the only action is the pass, then O rolls. */
            none++;
            set_pos(g, &s, pos);
            int only[BG_NUM_ACTIONS];
            CU_ASSERT_EQUAL(game_legal_actions(g, &s, only), 1);
            CU_ASSERT_EQUAL(only[0], BG_PASS);
            game_apply(g, &s, BG_PASS);
            CU_ASSERT_EQUAL(game_current_player(g, &s), PLAYER_CHANCE);
            CU_ASSERT_EQUAL(bs(&s)->to_move, 1);
            continue;
        }
        set_pos(g, &s, pos);
        t = s;
        int n = game_whole_moves(g, &s, NULL, NULL);
        if (n != count) fprintf(stderr, "%s %d%d: %d plays, gnubg %d\n", id, hi, lo, n, count);
        CU_ASSERT_EQUAL(n, count);
        CU_ASSERT_EQUAL(memcmp(&s, &t, g->state_size), 0);
        big += count >= 100;
    }
    CU_ASSERT(lines >= 400 && none > 0 && big > 0);
    game_free(g);
    free(text);
}

/* Perft counts whole moves (a roll is one, a play another): from the
 * opening roll, 30 rolls, then 2 x 190 plays (the 15 non-double rolls of
 * the table above, either side moving), then 21 rolls after each. */
static void test_perft(void)
{
    const game_t *g = make("backgammon");
    gs_t s;
    game_init(g, &s);
    CU_ASSERT_EQUAL(game_perft(g, &s, 0), 1);
    CU_ASSERT_EQUAL(game_perft(g, &s, 1), 30);
    CU_ASSERT_EQUAL(game_perft(g, &s, 2), 380);
    CU_ASSERT_EQUAL(game_perft(g, &s, 3), 380 * 21);
    CU_ASSERT_EQUAL(game_perft_generic(g, &s, 2), 380);
    CU_ASSERT_EQUAL(game_perft(g, &s, 4), game_perft_generic(g, &s, 4));
    /* From a play in progress and from a position with doubles. */
    set_pos(g, &s, "4HPwATDgc/ABMA:X:22:13/11:t1");
    for (int d = 1; d <= 2; d++)
        CU_ASSERT_EQUAL(game_perft(g, &s, d), game_perft_generic(g, &s, d));
    CU_ASSERT_EQUAL(game_perft(g, &s, 1), game_whole_moves(g, &s, NULL, NULL));
    game_free(g);
}

/* ---- rules edge cases, against gnubg ---- */

typedef struct bg_case {
    const char *name;
    int mover;
    const char *me, *opp; /* men, each side in his own numbering */
    const char *id;       /* gnubg.positionid() of the board */
    const char *dice;
    int count;            /* gnubg's distinct plays */
    const char *plays[6]; /* ...and their text */
} bg_case_t;

#define START "24:2 13:5 8:3 6:5"
#define OHOME "6:5 5:5 4:5"

static const bg_case_t cases[] = {
    /* Enter from the bar before any other step: the 6 is blocked (O's
     * 6-point), so the 3 enters and then the 6 may move any man. */
    {"bar",
     0,
     "25:1 24:1 13:5 8:3 6:5",
     START,
     "4HPwATDgc/ABUA",
     "63",
     4,
     {"bar/16", "bar/22 24/18", "bar/22 13/7", "bar/22 8/2"}},
    /* Two men on the bar, one entry point open: the play is one step. */
    {"bar2", 0, "25:2 13:5 8:3 6:5", START, "4HPwATDgc/ABYA", "63", 1, {"bar/22"}},
    /* One man free to move; after either die the other is blocked: the
     * larger die is played. */
    {"larger", 0, "1:14 13:1", "23:2 22:2 6:5 5:4", "8D4AwMb/DwABAA", "65", 1, {"13/7"}},
    /* The same with the 6 blocked too: the smaller die. */
    {"smaller", 0, "1:14 13:1", "23:2 22:2 18:2 6:5 5:4", "8D4ADBv/PwAEAA", "65", 1, {"13/8"}},
    /* The 6 is playable only after the 1: both dice must be used. */
    {"order", 0, "1:14 13:1", "18:2 6:5 5:4 4:4", "eO8DwAD/PwAEAA", "61", 1, {"13/6"}},
    /* Doubles with only three, or two, of the four steps playable. */
    {"doubles3", 0, "1:14 21:1", "20:2 3:5 2:4 1:4", "730AAAP/PwAABA", "44", 1, {"21/9"}},
    {"doubles2", 0, "1:14 17:1", "20:2 6:5 5:4 4:4", "eO8DAAP/PwBAAA", "44", 1, {"17/9"}},
    /* Bearing off: exact numbers, or the 6 moved inside. */
    {"exact", 0, "6:1 5:2 3:2", OHOME, "+L4PAADMAgAAAA", "65", 2, {"6/off 5/off", "6/1 5/off"}},
    /* A higher die bears off from the highest point only. */
    {"higher", 0, "5:1 3:1", OHOME, "+L4PAAAkAAAAAA", "43", 2, {"5/1 3/off", "5/2 3/off"}},
    /* No bearing off while a man is outside: 8/2/off and 8/6/off are one. */
    {"outside", 0, "8:1 2:1", OHOME, "+L4PAAACAQAAAA", "62", 1, {"8/off"}},
    /* The last two men off with 6-5: one play, whichever die takes which. */
    {"last2", 0, "3:1 2:1", OHOME, "+L4PAAAKAAAAAA", "65", 1, {"3/off 2/off"}},
    /* O enters hitting X's blot on X's 6-point while X bears off. */
    {"hit_bearing",
     1,
     "25:1 6:5 5:5 4:4",
     "6:1 2:2",
     "hgAAgPd9AAAEAA",
     "61",
     5,
     {"bar/19*/18", "bar/19* 4/3", "bar/19* 5/4", "bar/19* 6/5", "bar/18"}},
    /* ...and X must bring that man round before bearing off again. */
    {"come_round",
     0,
     "25:1 2:2",
     "19:1 6:4 5:5 4:4",
     "eN8DgAADAAACAA",
     "21",
     2,
     {"bar/22", "bar/23 2/1"}},
    /* Both dice must be used even when one would bear off the last man:
     * 2/off alone is not a play, 2/1* 1/off is (gnubg agrees). */
    {"last_man", 0, "2:1", "6:14 24:1", "4P8HACACAAAAAA", "21", 1, {"2/1*/off"}},
    {"last_man2", 0, "3:1", "6:14 23:1", "4P8HABAEAAAAAA", "21", 2, {"3/off", "3/2*/off"}},
};

/* Set up case `c` with its dice, as the 9th roll of the game (any will do). */
static void case_state(const game_t *g, const bg_case_t *c, gs_t *s)
{
    char tail[32], pos[64];
    snprintf(tail, sizeof tail, "%s:t9", c->dice);
    pos_text(pos, sizeof pos, c->mover, c->me, c->opp, tail);
    set_pos(g, s, pos);
    CU_ASSERT_EQUAL(game_current_player(g, s), c->mover);
}

static const bg_case_t *find_case(const char *name)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (strcmp(cases[i].name, name) == 0) return &cases[i];
    CU_FAIL_FATAL("no such case");
    return NULL;
}

static void test_cases_gnubg(void)
{
    const game_t *g = make("backgammon");
    gs_t s;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bg_case_t *c = &cases[i];
        bg_board_t b;
        spec_board(&b, c->mover, c->me, c->opp);
        char id[BG_ID_LEN + 1];
        bg_position_id(&b, c->mover, id);
        if (strcmp(id, c->id) != 0)
            fprintf(stderr, "case %s: ID %s, gnubg %s\n", c->name, id, c->id);
        CU_ASSERT_STRING_EQUAL(id, c->id);
        case_state(g, c, &s);
        expect_plays(g, &s, c->plays, c->count);
        if (moves_buf.n != c->count) fprintf(stderr, "case %s: %d plays\n", c->name, moves_buf.n);
        /* Every play completes the roll: the other side rolls next (or the
         * game is over). */
        for (int k = 0; k < moves_buf.n; k++) {
            int p = game_current_player(g, &moves_buf.after[k]);
            CU_ASSERT(p == PLAYER_TERMINAL ||
                      (p == PLAYER_CHANCE && bs(&moves_buf.after[k])->to_move == 1 - c->mover));
        }
    }
    game_free(g);
}

static int legal_of(const game_t *g, const gs_t *s, int *legal)
{
    return game_legal_actions(g, s, legal);
}

static void test_bar(void)
{
    const game_t *g = make("backgammon");
    gs_t s;
    int legal[BG_NUM_ACTIONS];
    case_state(g, find_case("bar"), &s);
    int n = legal_of(g, &s, legal);
    /* Only the 3 enters (the 6-point is O's): one legal first step. */
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(legal[0], bg_step_action(BG_BAR, 3));
    int a;
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "24/18", &a), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "bar/19", &a), HOYLE_EINVAL);
    HARNESS_OK(game_action_from_string(g, &s, "bar/22", &a));
    game_apply(g, &s, a);
    /* Entered: now any man may play the 6. */
    n = legal_of(g, &s, legal);
    CU_ASSERT_EQUAL(n, 4); /* 24/18, 22/16, 13/7, 8/2 */
    CU_ASSERT(game_is_legal(g, &s, bg_step_action(24, 6)));
    CU_ASSERT(game_is_legal(g, &s, bg_step_action(22, 6)));

    /* Two on the bar: after entering one, the 6 cannot be played. */
    case_state(g, find_case("bar2"), &s);
    CU_ASSERT_EQUAL(bs(&s)->need, 1);
    HARNESS_OK(game_apply_move_string(g, &s, "bar/22"));
    CU_ASSERT_EQUAL(game_current_player(g, &s), PLAYER_CHANCE);
    CU_ASSERT_EQUAL(bs(&s)->to_move, 1);
    CU_ASSERT_EQUAL(bs(&s)->board.men[0][BG_BAR], 1);
    game_free(g);
}

static void test_blocked_bar(void)
{
    const game_t *g = make("backgammon");
    gs_t s, t;
    char pos[64], buf[GAME_TEXT_MAX];
    /* O has made all six points of his home table; X has a man on the bar. */
    const char *x = "25:1 6:5 5:5 4:4", *o = "1:2 2:2 3:2 4:2 5:2 6:2 13:3";
    bg_board_t b;
    spec_board(&b, 0, x, o);
    char id[BG_ID_LEN + 1];
    bg_position_id(&b, 0, id);
    CU_ASSERT_STRING_EQUAL(id, "27YBBwB43wcAQA"); /* gnubg: no legal play of 31 */
    pos_text(pos, sizeof pos, 0, x, o, "-:t9");
    set_pos(g, &s, pos);
    int acts[64];
    double probs[64];
    int n = game_chance_outcomes(g, &s, acts, probs);
    CU_ASSERT_EQUAL(n, 21);
    for (int i = 0; i < n; i++) {
        t = s;
        game_apply(g, &t, acts[i]);
        /* No play: X's only action is the pass, and then O rolls. */
        int only[BG_NUM_ACTIONS];
        CU_ASSERT_EQUAL(game_current_player(g, &t), 0);
        CU_ASSERT_EQUAL(game_legal_actions(g, &t, only), 1);
        CU_ASSERT_EQUAL(only[0], BG_PASS);
        CU_ASSERT_EQUAL(game_hash(g, &t), game_hash_recompute(g, &t));
        game_apply(g, &t, BG_PASS);
        CU_ASSERT_EQUAL(game_current_player(g, &t), PLAYER_CHANCE);
        CU_ASSERT_EQUAL(bs(&t)->to_move, 1);
        CU_ASSERT_EQUAL(bs(&t)->phase, BG_ROLL);
        CU_ASSERT_EQUAL(memcmp(&bs(&t)->board, &bs(&s)->board, sizeof(bg_board_t)), 0);
        CU_ASSERT_EQUAL(bs(&t)->turns, 10);
        CU_ASSERT_EQUAL(game_hash(g, &t), game_hash_recompute(g, &t));
    }
    t = s;
    game_apply(g, &t, acts[0]);
    game_apply(g, &t, BG_PASS);
    pos_of(g, &t, buf, sizeof buf);
    bg_position_id(&b, 1, id);
    snprintf(pos, sizeof pos, "%s:O:-:t10", id);
    CU_ASSERT_STRING_EQUAL(buf, pos);
    /* X to play a roll he cannot play: the position is his pass, in text
     * as in the move notation. */
    pos_text(pos, sizeof pos, 0, x, o, "31:t10");
    t = s;
    CU_ASSERT_EQUAL(game_position_from_string(g, pos, &t), 0);
    pos_of(g, &t, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, pos);
    int pass;
    CU_ASSERT_EQUAL(game_action_from_string(g, &t, "pass", &pass), 0);
    CU_ASSERT_EQUAL(pass, BG_PASS);
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "pass", &pass), HOYLE_EINVAL);
    game_free(g);
}

static void test_one_die(void)
{
    const game_t *g = make("backgammon");
    gs_t s;
    int legal[BG_NUM_ACTIONS];
    /* Either die alone: the larger. */
    case_state(g, find_case("larger"), &s);
    CU_ASSERT_EQUAL(bs(&s)->need, 1);
    CU_ASSERT_EQUAL_FATAL(legal_of(g, &s, legal), 1);
    CU_ASSERT_EQUAL(legal[0], bg_step_action(13, 6));
    int a;
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "13/8", &a), HOYLE_EINVAL);
    CU_ASSERT(game_apply_move_string(g, &s, "13/8") < 0);
    HARNESS_OK(game_apply_move_string(g, &s, "13/7"));
    CU_ASSERT_EQUAL(game_current_player(g, &s), PLAYER_CHANCE);
    /* The larger blocked: the smaller. */
    case_state(g, find_case("smaller"), &s);
    CU_ASSERT_EQUAL(bs(&s)->need, 1);
    CU_ASSERT_EQUAL_FATAL(legal_of(g, &s, legal), 1);
    CU_ASSERT_EQUAL(legal[0], bg_step_action(13, 5));
    game_free(g);
}

static void test_both_dice(void)
{
    const game_t *g = make("backgammon");
    gs_t s;
    int legal[BG_NUM_ACTIONS];
    /* 13/7 is blocked and 13/12 is open: the 1 first, then 12/6. */
    case_state(g, find_case("order"), &s);
    CU_ASSERT_EQUAL(bs(&s)->need, 2);
    CU_ASSERT_EQUAL_FATAL(legal_of(g, &s, legal), 1);
    CU_ASSERT_EQUAL(legal[0], bg_step_action(13, 1));
    int act[GAME_MAX_CHAIN];
    CU_ASSERT_EQUAL(game_move_from_string(g, &s, "13/12", act, GAME_MAX_CHAIN), HOYLE_EINVAL);
    CU_ASSERT_EQUAL_FATAL(game_move_from_string(g, &s, "13/6", act, GAME_MAX_CHAIN), 2);
    CU_ASSERT_EQUAL(act[0], bg_step_action(13, 1));
    CU_ASSERT_EQUAL(act[1], bg_step_action(12, 6));
    CU_ASSERT_EQUAL(game_move_from_string(g, &s, "13/12 12/6", act, GAME_MAX_CHAIN), 2);
    game_free(g);
}

static void test_doubles_partial(void)
{
    const game_t *g = make("backgammon");
    gs_t s;
    const char *names[] = {"doubles3", "doubles2"};
    for (int i = 0; i < 2; i++) {
        case_state(g, find_case(names[i]), &s);
        CU_ASSERT_EQUAL(bs(&s)->need, 3 - i);
        HARNESS_OK(game_apply_move_string(g, &s, find_case(names[i])->plays[0]));
        CU_ASSERT_EQUAL(game_current_player(g, &s), PLAYER_CHANCE);
        CU_ASSERT_EQUAL(bs(&s)->to_move, 1);
        CU_ASSERT_EQUAL(bs(&s)->board.men[0][9], 1);
    }
    /* Four steps when the way is open: 21/5 with nothing in the way. */
    char pos[64];
    pos_text(pos, sizeof pos, 0, "1:14 21:1", "3:5 2:4 1:4", "44:t9");
    set_pos(g, &s, pos);
    CU_ASSERT_EQUAL(bs(&s)->need, 4);
    game_free(g);
}

static void test_bear_off(void)
{
    const game_t *g = make("backgammon");
    gs_t s;
    bg_board_t b;
    /* Step by step: exact, higher from the highest point only, none while a
     * man is outside. */
    spec_board(&b, 0, "5:1 3:1", OHOME);
    CU_ASSERT(bg_step_ok(&b, 0, bg_step_action(5, 5)));
    CU_ASSERT(bg_step_ok(&b, 0, bg_step_action(5, 6)));
    CU_ASSERT(bg_step_ok(&b, 0, bg_step_action(3, 3)));
    CU_ASSERT_FALSE(bg_step_ok(&b, 0, bg_step_action(3, 4)));
    CU_ASSERT_FALSE(bg_step_ok(&b, 0, bg_step_action(3, 6)));
    spec_board(&b, 0, "8:1 2:1", OHOME);
    CU_ASSERT_FALSE(bg_step_ok(&b, 0, bg_step_action(2, 2)));
    CU_ASSERT_FALSE(bg_step_ok(&b, 0, bg_step_action(2, 6)));
    spec_board(&b, 0, "25:1 2:2", "19:1 6:4 5:5 4:4");
    CU_ASSERT_FALSE(bg_step_ok(&b, 0, bg_step_action(2, 2)));

    int legal[BG_NUM_ACTIONS];
    case_state(g, find_case("exact"), &s);
    HARNESS_OK(game_apply_move_string(g, &s, "6/off 5/off"));
    CU_ASSERT_EQUAL(bs(&s)->board.men[0][BG_OFF], 12);
    case_state(g, find_case("higher"), &s);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "5/2 3/off"), 2);
    CU_ASSERT_EQUAL(bs(&s)->board.men[0][BG_OFF], 14);
    case_state(g, find_case("outside"), &s);
    /* Only the man on the 8 may move first; 8/2/off and 8/6/off are one
     * play, whose canonical order is the higher die first. */
    CU_ASSERT_EQUAL_FATAL(legal_of(g, &s, legal), 1);
    CU_ASSERT_EQUAL(legal[0], bg_step_action(8, 6));
    int act[GAME_MAX_CHAIN];
    CU_ASSERT_EQUAL_FATAL(game_move_from_string(g, &s, "8/6 6/off", act, GAME_MAX_CHAIN), 2);
    CU_ASSERT_EQUAL(act[0], bg_step_action(8, 6));
    CU_ASSERT_EQUAL(act[1], bg_step_action(2, 2));
    /* Move text is matched by the position it reaches, so the steps may be
     * written in any order ("2/off 8/2" is this play); 8/6 with 2/off is
     * not a play. */
    CU_ASSERT(game_apply_move_string(g, &s, "2/off 8/6") < 0);
    HARNESS_OK(game_apply_move_string(g, &s, "8/6 6/off"));
    CU_ASSERT_EQUAL(bs(&s)->board.men[0][BG_OFF], 14);
    CU_ASSERT_EQUAL(bs(&s)->board.men[0][2], 1);
    game_free(g);
}

static void test_hit(void)
{
    const game_t *g = make("backgammon");
    gs_t s;
    /* O enters with the 6 on X's 6-point, where X has a blot. */
    case_state(g, find_case("hit_bearing"), &s);
    int a;
    HARNESS_OK(game_action_from_string(g, &s, "bar/19", &a));
    char buf[GAME_MOVE_MAX];
    HARNESS_OK(game_action_to_string(g, &s, a, buf, sizeof buf));
    CU_ASSERT_STRING_EQUAL(buf, "bar/19*");
    CU_ASSERT(game_is_noisy(g, &s, a));
    HARNESS_OK(game_apply_move_string(g, &s, "bar/19* 6/5"));
    const bg_board_t *b = &bs(&s)->board;
    CU_ASSERT_EQUAL(b->men[0][6], 0);
    CU_ASSERT_EQUAL(b->men[0][BG_BAR], 1);
    CU_ASSERT_EQUAL(b->men[1][19], 1);
    CU_ASSERT_EQUAL(b->men[1][BG_BAR], 0);
    CU_ASSERT_EQUAL(b->men[0][BG_OFF] + b->men[0][2] + b->men[0][BG_BAR], BG_MEN);
    /* X's man must come round: with 21 no play bears off. */
    HARNESS_OK(game_apply_move_string(g, &s, "21"));
    CU_ASSERT_EQUAL(game_current_player(g, &s), 0);
    const char *plays[] = {"bar/22", "bar/23 2/1", NULL};
    expect_plays(g, &s, plays, 2);
    for (int k = 0; k < moves_buf.n; k++) {
        CU_ASSERT_EQUAL(bs(&moves_buf.after[k])->board.men[0][BG_OFF], 12);
        CU_ASSERT_EQUAL(bg_step_from(moves_buf.act[k][0]), BG_BAR);
    }
    /* A blot hit in the middle of a move: 24/18* from the start against a
     * blot on O's 7-point. */
    char pos[64];
    pos_text(pos, sizeof pos, 0, START, "24:2 13:5 8:2 7:1 6:5", "61:t3");
    set_pos(g, &s, pos);
    HARNESS_OK(game_apply_move_string(g, &s, "24/18* 24/23"));
    CU_ASSERT_EQUAL(bs(&s)->board.men[1][BG_BAR], 1);
    CU_ASSERT_EQUAL(bs(&s)->board.men[1][7], 0);
    CU_ASSERT_EQUAL(bs(&s)->board.men[0][18], 1);
    game_free(g);
}

/* ---- results ---- */

static void expect_returns(const game_t *g, const gs_t *s, double x)
{
    double r[2];
    CU_ASSERT_FATAL(game_is_terminal(g, s));
    game_returns(g, s, r);
    CU_ASSERT_DOUBLE_EQUAL(r[0], x, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r[1], -x, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(game_evaluate(g, s, 0), x, 1e-12);
}

static void test_results(void)
{
    const game_t *win = make("backgammon"), *pts = make("backgammon(scoring=points)");
    struct {
        int mover;
        const char *me, *opp;
        int kind;
        double points; /* for X */
    } r[] = {
        {0, "1:1", "6:14", BG_SINGLE, 1.0 / 3},       /* O has borne a man off */
        {0, "1:1", "6:15", BG_GAMMON, 2.0 / 3},       /* none off, none in X's home */
        {0, "1:1", "6:14 25:1", BG_BACKGAMMON, 1.0},  /* one on the bar */
        {0, "1:1", "6:14 19:1", BG_BACKGAMMON, 1.0},  /* one in X's home table */
        {0, "1:1", "18:1 6:14", BG_GAMMON, 2.0 / 3},  /* X's 7-point is not home */
        {1, "1:1", "6:15", BG_GAMMON, -2.0 / 3},      /* O wins */
        {1, "1:1", "6:13 13:1", BG_SINGLE, -1.0 / 3}, /* X has borne one off */
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        char pos[64];
        pos_text(pos, sizeof pos, r[i].mover, r[i].me, r[i].opp, "21:t99");
        for (int k = 0; k < 2; k++) {
            const game_t *g = k ? pts : win;
            gs_t s;
            set_pos(g, &s, pos);
            CU_ASSERT_FALSE(game_is_terminal(g, &s));
            CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "1/off"), 1);
            CU_ASSERT_EQUAL(bs(&s)->result, r[i].kind);
            CU_ASSERT_EQUAL(bs(&s)->winner, r[i].mover);
            expect_returns(g, &s, k ? r[i].points : (r[i].mover ? -1.0 : 1.0));
            CU_ASSERT_EQUAL(game_hash(g, &s), game_hash_recompute(g, &s));
            /* The finished game round-trips as ':-:end'. */
            char buf[GAME_TEXT_MAX];
            pos_of(g, &s, buf, sizeof buf);
            CU_ASSERT_PTR_NOT_NULL(strstr(buf, ":-:end:t99"));
            gs_t t;
            set_pos(g, &t, buf);
            CU_ASSERT_EQUAL(bs(&t)->result, r[i].kind);
            expect_returns(g, &t, k ? r[i].points : (r[i].mover ? -1.0 : 1.0));
        }
    }
    /* The last man with both dice when both can be used (gnubg: 2/1* /off
     * only): still a backgammon, O's man now on the bar. */
    gs_t s;
    case_state(pts, find_case("last_man"), &s);
    CU_ASSERT(game_apply_move_string(pts, &s, "2/off") < 0);
    HARNESS_OK(game_apply_move_string(pts, &s, "2/1*/off"));
    expect_returns(pts, &s, 1.0);
    /* The turn limit draws. */
    const game_t *g = make("backgammon(max_turns=2)");
    game_init(g, &s);
    HARNESS_OK(game_apply_move_string(g, &s, "X6-O1"));
    HARNESS_OK(game_apply_move_string(g, &s, "13/7 8/7"));
    HARNESS_OK(game_apply_move_string(g, &s, "31"));
    HARNESS_OK(game_apply_move_string(g, &s, "8/5 6/5"));
    CU_ASSERT_EQUAL(bs(&s)->result, BG_DRAW);
    expect_returns(g, &s, 0.0);
    game_free(g);
    game_free(win);
    game_free(pts);
}

/* ---- duplicates and move text ---- */

static void test_duplicates(void)
{
    const game_t *g = make("backgammon");
    gs_t s;
    set_pos(g, &s, "4HPwATDgc/ABMA:X:61:t1");
    int a1[GAME_MAX_CHAIN], a2[GAME_MAX_CHAIN];
    CU_ASSERT_EQUAL_FATAL(game_move_from_string(g, &s, "13/7 8/7", a1, GAME_MAX_CHAIN), 2);
    CU_ASSERT_EQUAL_FATAL(game_move_from_string(g, &s, "8/7 13/7", a2, GAME_MAX_CHAIN), 2);
    CU_ASSERT_EQUAL(memcmp(a1, a2, sizeof(int) * 2), 0);
    CU_ASSERT_EQUAL(a1[0], bg_step_action(13, 6));
    CU_ASSERT_EQUAL(a1[1], bg_step_action(8, 1));
    /* Each play is legal in its canonical order only: from the start every
     * play of 6-1 can take the 6 first, so the legal first steps are the
     * three 6s (8/2, 13/7, 24/18) and 8/7 is not one of them. */
    int legal[BG_NUM_ACTIONS];
    CU_ASSERT_EQUAL_FATAL(legal_of(g, &s, legal), 3);
    CU_ASSERT_EQUAL(legal[0], bg_step_action(8, 6));
    CU_ASSERT_EQUAL(legal[1], bg_step_action(13, 6));
    CU_ASSERT_EQUAL(legal[2], bg_step_action(24, 6));
    CU_ASSERT_EQUAL(whole_moves(g, &s), 10);
    /* The last two men off with 6-5: one play of two steps. */
    case_state(g, find_case("last2"), &s);
    CU_ASSERT_EQUAL(whole_moves(g, &s), 1);
    CU_ASSERT_EQUAL(moves_buf.len[0], 2);
    CU_ASSERT_EQUAL(game_current_player(g, &moves_buf.after[0]), PLAYER_TERMINAL);
    CU_ASSERT_EQUAL(game_move_from_string(g, &s, "2/off 3/off", a1, GAME_MAX_CHAIN), 2);
    game_free(g);
}

static void test_move_text(void)
{
    const game_t *g = make("backgammon");
    gs_t s, t, before;
    char buf[GAME_TEXT_MAX];
    int act[GAME_MAX_CHAIN];
    struct {
        const char *pos, *move;
        int n; /* actions */
    } ok[] = {
        {"4HPwATDgc/ABMA:X:62:t1", "24/18 13/11", 2},
        {"4HPwATDgc/ABMA:X:62:t1", "13/11 24/18", 2},
        {"4HPwATDgc/ABMA:X:62:t1", "24/18,13/11", 2},
        {"4HPwATDgc/ABMA:X:33:t1", "8/5(2) 6/3(2)", 4},
        {"4HPwATDgc/ABMA:X:33:t1", "8/5 8/5 6/3 6/3", 4},
        {"4HPwATDgc/ABMA:X:11:t1", "8/7(2) 6/5(2)", 4},
        {"4HPwATDgc/ABMA:X:11:t1", "24/22 6/4", 4},
        {"4HPwATDgc/ABMA:X:65:t1", "24/13", 2},
        {"4HPwATDgc/ABMA:X:65:t1", "24/18/13", 2},
        {"4HPwATDgc/ABMA:X:65:t1", "24/18 18/13", 2},
        {"4HPwATDgc/ABUA:X:63:t9", "bar/22 24/18", 2},
        {"4HPwATDgc/ABUA:X:63:t9", "bar/16", 2},
        {"4HPwATDgc/ABYA:X:63:t9", "bar/22", 1},
        {"+L4PAADMAgAAAA:X:65:t9", "6/off 5/off", 2},
        {"+L4PAADMAgAAAA:X:65:t9", "5/off 6/off", 2},
        {"4HPwATDgc/ABMA:X:62:24/18:t1", "13/11", 1}, /* the rest of a play */
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        set_pos(g, &s, ok[i].pos);
        int n = game_move_from_string(g, &s, ok[i].move, act, GAME_MAX_CHAIN);
        if (n != ok[i].n)
            fprintf(stderr, "%s '%s': %d (%s)\n", ok[i].pos, ok[i].move, n, hoyle_last_error());
        CU_ASSERT_EQUAL(n, ok[i].n);
        if (n <= 0) continue;
        /* move_to_string of the parsed move parses back to the same. */
        CU_ASSERT(game_move_to_string(g, &s, act, n, buf, sizeof buf) > 0);
        int back[GAME_MAX_CHAIN];
        CU_ASSERT_EQUAL(game_move_from_string(g, &s, buf, back, GAME_MAX_CHAIN), n);
        CU_ASSERT_EQUAL(memcmp(back, act, sizeof(int) * (size_t)n), 0);
        t = s;
        CU_ASSERT_EQUAL(game_apply_move_string(g, &t, ok[i].move), n);
        CU_ASSERT_EQUAL(game_current_player(g, &t), PLAYER_CHANCE);
    }
    /* Written the usual way. */
    set_pos(g, &s, "4HPwATDgc/ABMA:X:65:t1");
    CU_ASSERT_EQUAL_FATAL(game_move_from_string(g, &s, "24/13", act, GAME_MAX_CHAIN), 2);
    CU_ASSERT(game_move_to_string(g, &s, act, 2, buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "24/13");
    set_pos(g, &s, "4HPwATDgc/ABMA:X:11:t1");
    CU_ASSERT_EQUAL_FATAL(game_move_from_string(g, &s, "6/5(2) 8/7(2)", act, GAME_MAX_CHAIN), 4);
    CU_ASSERT(game_move_to_string(g, &s, act, 4, buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "8/7(2) 6/5(2)");
    HARNESS_OK(game_apply_move_string(g, &s, "8/7(2) 6/5(2)"));
    CU_ASSERT_EQUAL(bs(&s)->board.men[0][8], 1);
    CU_ASSERT_EQUAL(bs(&s)->board.men[0][7], 2);
    CU_ASSERT_EQUAL(bs(&s)->board.men[0][6], 3);
    CU_ASSERT_EQUAL(bs(&s)->board.men[0][5], 2);

    /* Illegal or unreadable text: HOYLE_EINVAL, the state unchanged. */
    set_pos(g, &s, "4HPwATDgc/ABMA:X:62:t1");
    before = s;
    const char *bad[] = {"24/18 13/10",
                         "24/18",
                         "24/18 13/11 6/5",
                         "13/11(2)",
                         "13/5 8/2",
                         "6/off",
                         "25/19",
                         "bar/18 13/11",
                         "24/18 13/11 x",
                         "24-18 13-11",
                         "",
                         "   ",
                         "24/30",
                         "0/6",
                         "24/18(5)",
                         "24/18(0) 13/11",
                         "13/7 13/11*x",
                         "18/24 13/11",
                         "24/18 13/11(",
                         "\xff",
                         NULL};
    for (int i = 0; bad[i]; i++) {
        int dummy[GAME_MAX_CHAIN];
        int st = game_move_from_string(g, &s, bad[i], dummy, GAME_MAX_CHAIN);
        if (st != HOYLE_EINVAL) fprintf(stderr, "move '%s' gives %d\n", bad[i], st);
        CU_ASSERT_EQUAL(st, HOYLE_EINVAL);
        CU_ASSERT(strlen(hoyle_last_error()) > 0);
        CU_ASSERT(game_apply_move_string(g, &s, bad[i]) < 0);
        CU_ASSERT_EQUAL(memcmp(&s, &before, g->state_size), 0);
    }
    /* Steps: only the canonical first steps of a play are legal. */
    int a = -7;
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "24/22/18", &a), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "6/5", &a), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(a, -7);
    HARNESS_OK(game_action_from_string(g, &s, "24/18", &a));
    CU_ASSERT_EQUAL(a, bg_step_action(24, 6));
    game_free(g);
}

/* ---- bad position texts ---- */

static void test_bad_positions(void)
{
    const game_t *g = make("backgammon");
    gs_t s, before;
    game_init(g, &s);
    HARNESS_OK(game_apply_move_string(g, &s, "X3-O1"));
    before = s;
    char p16[64], pshare[64], pover[64];
    /* 16 men for X (and 14 for O, so the ID still has its 80 bits). */
    pos_text(p16, sizeof p16, 0, "24:2 13:5 8:3 6:6", "24:2 13:5 8:3 6:4", "-:t3");
    /* Both on one point: X's 6-point is O's 19. */
    pos_text(pshare, sizeof pshare, 0, "24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:4 19:1", "-:t3");
    pos_text(pover, sizeof pover, 0, "", "6:15", "-:t9"); /* X is off: wants ':-:end' */
    const char *bad[] = {"",
                         "4HPwATDgc/ABMA",
                         "4HPwATDgc/AB!A:X:-:t1",   /* bad ID character */
                         "4HPwATDgc/ABM:X:-:t1",    /* 13 characters */
                         "4HPwATDgc/ABMAA:X:-:t1",  /* 15 characters */
                         "////////////////:X:-:t1", /* too many men */
                         "4HPwATDgc/ABMA:Y:-:t1",   /* bad side */
                         "4HPwATDgc/ABMA:x:-:t1",
                         "4HPwATDgc/ABMA:X:71:t1", /* bad dice */
                         "4HPwATDgc/ABMA:X:3:t1",
                         "4HPwATDgc/ABMA:X:311:t1",
                         "4HPwATDgc/ABMA:X:0 1:t1",
                         "4HPwATDgc/ABMA:X:31:8/4:t1",     /* not a step of 31 */
                         "4HPwATDgc/ABMA:X:31:6/off:t1",   /* no bearing off from the start */
                         "4HPwATDgc/ABMA:X:31:8/5,6/5:t1", /* the steps complete the play */
                         "4HPwATDgc/ABMA:X:31:8/5,xx:t1",  /* unreadable step */
                         "4HPwATDgc/ABMA:X:-:8/5:t1",      /* steps without dice */
                         "4HPwATDgc/ABMA:-:31:t0",         /* dice before the opening roll */
                         "4HPwATDgc/ABMA:X:-:t-1",         /* bad turn count */
                         "4HPwATDgc/ABMA:X:-:t1001",       /* beyond max_turns */
                         "4HPwATDgc/ABMA:X:-:tx",
                         "4HPwATDgc/ABMA:X:31:8/5:t1:extra",
                         "4HPwATDgc/ABMA:X:-:end:t3",
                         p16,
                         pshare,
                         pover,
                         NULL};
    for (int i = 0; bad[i]; i++) {
        int st = game_position_from_string(g, bad[i], &s);
        if (st != HOYLE_EINVAL) fprintf(stderr, "position '%s' gives %d\n", bad[i], st);
        CU_ASSERT_EQUAL(st, HOYLE_EINVAL);
        CU_ASSERT(strlen(hoyle_last_error()) > 0);
        CU_ASSERT_EQUAL(memcmp(&s, &before, g->state_size), 0);
    }
    /* The position ID decoder itself. */
    bg_board_t b;
    CU_ASSERT_EQUAL(bg_position_id_parse("4HPwATDgc/AB", 0, &b), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(bg_position_id_parse("4HPwATDgc/AB A", 0, &b), HOYLE_EINVAL);
    char id[BG_ID_LEN + 1];
    memcpy(id, p16, BG_ID_LEN);
    id[BG_ID_LEN] = '\0';
    CU_ASSERT_EQUAL(bg_position_id_parse(id, 0, &b), HOYLE_EINVAL);
    /* Random bytes never crash and never change the state. */
    rng_t rng;
    rng_init(&rng, 7);
    static const char alphabet[] = "4HPwATDgc/ABMA:XO-t0123456789end,off bar*";
    char junk[64];
    for (int t = 0; t < 5000; t++) {
        int len = (int)rng_below(&rng, sizeof junk - 1);
        for (int i = 0; i < len; i++)
            junk[i] = t % 2 ? alphabet[rng_below(&rng, sizeof alphabet - 1)]
                            : (char)(1 + rng_below(&rng, 255));
        junk[len] = '\0';
        if (game_position_from_string(g, junk, &s) == 0) s = before;
        int dummy[GAME_MAX_CHAIN];
        (void)game_move_from_string(g, &s, junk, dummy, GAME_MAX_CHAIN);
        CU_ASSERT_EQUAL(memcmp(&s, &before, g->state_size), 0);
    }
    game_free(g);
}

/* ---- hash ---- */

static void test_hash_fields(void)
{
    const game_t *g = make("backgammon");
    gs_t a, b;
    /* The start is the same board from either side: the side to roll, the
     * dice and the steps made must still tell the states apart. */
    set_pos(g, &a, "4HPwATDgc/ABMA:X:-:t3");
    set_pos(g, &b, "4HPwATDgc/ABMA:O:-:t3");
    CU_ASSERT_EQUAL(memcmp(&bs(&a)->board, &bs(&b)->board, sizeof(bg_board_t)), 0);
    CU_ASSERT_NOT_EQUAL(game_hash(g, &a), game_hash(g, &b));
    set_pos(g, &a, "4HPwATDgc/ABMA:X:31:t3");
    set_pos(g, &b, "4HPwATDgc/ABMA:O:31:t3");
    CU_ASSERT_NOT_EQUAL(game_hash(g, &a), game_hash(g, &b));
    set_pos(g, &b, "4HPwATDgc/ABMA:X:42:t3");
    CU_ASSERT_NOT_EQUAL(game_hash(g, &a), game_hash(g, &b));
    set_pos(g, &b, "4HPwATDgc/ABMA:X:-:t3");
    CU_ASSERT_NOT_EQUAL(game_hash(g, &a), game_hash(g, &b)); /* to roll vs to play 31 */
    set_pos(g, &b, "4HPwATDgc/ABMA:-:-:t0");
    CU_ASSERT_NOT_EQUAL(game_hash(g, &a), game_hash(g, &b));
    /* 6-1 after 13/7 and 6-4 after 13/7: the same board, different dice left. */
    set_pos(g, &a, "4HPwATDgc/ABMA:X:61:13/7:t3");
    set_pos(g, &b, "4HPwATDgc/ABMA:X:64:13/7:t3");
    CU_ASSERT_EQUAL(memcmp(&bs(&a)->board, &bs(&b)->board, sizeof(bg_board_t)), 0);
    CU_ASSERT_NOT_EQUAL(game_hash(g, &a), game_hash(g, &b));
    /* Mid-play the legal steps depend on the board where the play began,
     * not only on the board now and the steps made: X entered with bar/23,
     * hitting O's blot in the first state, while in the second that O man
     * was already on the bar. The boards, dice and steps are equal, but
     * 23/18 is legal only in the first (in the second, bar/23/18 is the
     * play bar/20/18, whose canonical order is the 5 first). The hash must
     * tell them apart (BUG until the hash covers the start or the hits). */
    set_pos(g, &a, "X8GGASFqZuEDQA:X:52:bar/23*:t9");
    set_pos(g, &b, "n2DDgFBqZuEDQA:X:52:bar/23:t9");
    CU_ASSERT_EQUAL(memcmp(&bs(&a)->board, &bs(&b)->board, sizeof(bg_board_t)), 0);
    CU_ASSERT(game_is_legal(g, &a, bg_step_action(23, 5)));
    CU_ASSERT_FALSE(game_is_legal(g, &b, bg_step_action(23, 5)));
    CU_ASSERT_NOT_EQUAL(game_hash(g, &a), game_hash(g, &b));
    CU_ASSERT_EQUAL(game_hash(g, &a), game_hash_recompute(g, &a));
    /* The turn counter is left out (docs/games/backgammon.md). */
    set_pos(g, &a, "4HPwATDgc/ABMA:X:-:t3");
    set_pos(g, &b, "4HPwATDgc/ABMA:X:-:t5");
    CU_ASSERT_EQUAL(game_hash(g, &a), game_hash(g, &b));
    game_free(g);
}

/* ---- random games ---- */

static int pick_chance(const game_t *g, const gs_t *s, rng_t *rng)
{
    int acts[64];
    double probs[64];
    int n = game_chance_outcomes(g, s, acts, probs);
    CU_ASSERT_FATAL(n > 0);
    double u = rng_double(rng), c = 0;
    for (int i = 0; i < n; i++) {
        c += probs[i];
        if (u < c) return acts[i];
    }
    return acts[n - 1];
}

static void test_random_games(void)
{
    const game_t *g = make("backgammon(scoring=points)");
    rng_t rng;
    rng_init(&rng, 2024);
    int legal[BG_NUM_ACTIONS];
    char buf[GAME_TEXT_MAX], buf2[GAME_TEXT_MAX];
    float *obs = malloc(sizeof(float) * (size_t)game_obs_size(g));
    int finished = 0, ids = 0, plays = 0, kinds[5] = {0};
    for (int gi = 0; gi < 40; gi++) {
        gs_t s, t;
        game_init(g, &s);
        while (!game_is_terminal(g, &s)) {
            const bg_state_t *st = bs(&s);
            /* Hash, position text and Position IDs round-trip. */
            CU_ASSERT_EQUAL(game_hash(g, &s), game_hash_recompute(g, &s));
            pos_of(g, &s, buf, sizeof buf);
            set_pos(g, &t, buf);
            pos_of(g, &t, buf2, sizeof buf2);
            CU_ASSERT_STRING_EQUAL(buf, buf2);
            CU_ASSERT_EQUAL(game_hash(g, &t), game_hash(g, &s));
            CU_ASSERT_EQUAL(memcmp(&bs(&t)->board, &st->board, sizeof(bg_board_t)), 0);
            CU_ASSERT_EQUAL(game_current_player(g, &t), game_current_player(g, &s));
            for (int p = 0; p < 2; p++) {
                char id[BG_ID_LEN + 1];
                bg_board_t b;
                bg_position_id(&st->board, p, id);
                CU_ASSERT_EQUAL(strlen(id), BG_ID_LEN);
                HARNESS_OK(bg_position_id_parse(id, p, &b));
                CU_ASSERT_EQUAL(memcmp(&b, &st->board, sizeof b), 0);
                ids++;
            }
            for (int p = 0; p < 2; p++) {
                int men = 0;
                for (int i = 0; i < BG_POINTS; i++) men += st->board.men[p][i];
                CU_ASSERT_EQUAL(men, BG_MEN);
            }
            game_observe(g, &s, 0, obs);
            double e = game_evaluate(g, &s, 0);
            CU_ASSERT(e >= -1.0 && e <= 1.0 && fabs(e + game_evaluate(g, &s, 1)) < 1e-9);
            int act;
            if (game_is_chance(g, &s)) {
                act = pick_chance(g, &s, &rng);
            } else {
                /* At the start of a play: the whole moves are distinct and
                 * their text round-trips (in the first games). */
                if (st->nsteps == 0 && gi < 8) {
                    whole_moves(g, &s);
                    check_moves(g, &s);
                    plays++;
                }
                int n = game_legal_actions(g, &s, legal);
                CU_ASSERT_FATAL(n > 0);
                act = legal[rng_below(&rng, (uint32_t)n)];
                HARNESS_OK(game_action_to_string(g, &s, act, buf, sizeof buf));
                int back = -1;
                HARNESS_OK(game_action_from_string(g, &s, buf, &back));
                CU_ASSERT_EQUAL(back, act);
            }
            game_apply(g, &s, act);
        }
        CU_ASSERT_EQUAL(game_hash(g, &s), game_hash_recompute(g, &s));
        double r[2];
        game_returns(g, &s, r);
        CU_ASSERT_DOUBLE_EQUAL(r[0] + r[1], 0.0, 1e-12);
        CU_ASSERT(bs(&s)->result >= BG_SINGLE && bs(&s)->result <= BG_DRAW);
        kinds[bs(&s)->result]++;
        if (bs(&s)->result != BG_DRAW) {
            CU_ASSERT_DOUBLE_EQUAL(fabs(r[0]), bs(&s)->result / 3.0, 1e-12);
            finished++;
        }
    }
    CU_ASSERT(finished >= 35);
    CU_ASSERT(kinds[BG_GAMMON] > 0); /* random play gammons often */
    CU_ASSERT(ids > 1000 && plays > 100);
    free(obs);
    game_free(g);
}

/* Same seed, same game: the text of a seeded game is reproducible. */
static void test_same_seed(void)
{
    const game_t *g = make("backgammon");
    char first[GAME_TEXT_MAX] = "";
    for (int rep = 0; rep < 2; rep++) {
        rng_t rng;
        rng_init(&rng, 99);
        gs_t s;
        game_init(g, &s);
        int legal[BG_NUM_ACTIONS];
        for (int k = 0; k < 200 && !game_is_terminal(g, &s); k++) {
            int act = game_is_chance(g, &s)
                          ? pick_chance(g, &s, &rng)
                          : legal[rng_below(&rng, (uint32_t)game_legal_actions(g, &s, legal))];
            game_apply(g, &s, act);
        }
        char buf[GAME_TEXT_MAX];
        pos_of(g, &s, buf, sizeof buf);
        if (rep == 0)
            snprintf(first, sizeof first, "%s", buf);
        else
            CU_ASSERT_STRING_EQUAL(buf, first);
    }
    game_free(g);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"params", test_params},
        {"foster_numbering", test_foster_numbering},
        {"start", test_start},
        {"opening_roll", test_opening_roll},
        {"regular_roll", test_regular_roll},
        {"start_counts", test_start_counts},
        {"start_plays_gnubg", test_start_plays_gnubg},
        {"random_counts_gnubg", test_random_counts_gnubg},
        {"perft", test_perft},
        {"cases_gnubg", test_cases_gnubg},
        {"bar", test_bar},
        {"blocked_bar", test_blocked_bar},
        {"one_die", test_one_die},
        {"both_dice", test_both_dice},
        {"doubles_partial", test_doubles_partial},
        {"bear_off", test_bear_off},
        {"hit", test_hit},
        {"results", test_results},
        {"duplicates", test_duplicates},
        {"move_text", test_move_text},
        {"bad_positions", test_bad_positions},
        {"hash_fields", test_hash_fields},
        {"random_games", test_random_games},
        {"same_seed", test_same_seed},
        {NULL, NULL},
    };
    return harness_run("backgammon", tests);
}
