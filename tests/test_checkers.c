/* test_checkers.c — the checkers family: perft tables, fast vs generic
 * perft, notation and PDN FEN round trips, bad input, the seed's openings
 * and illustrative games, Losing/Polish/Devil rules, draw rules, PDN. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "games/checkers/checkers.h"
#include "games/game.h"
#include "tests/harness.h"

#define SPEC_EN "checkers(variant=english)"
#define SPEC_LO "checkers(variant=losing)"
#define SPEC_PL "checkers(variant=polish)"
#define SPEC_DV "checkers(variant=devil)"
static const char *const all_specs[] = {SPEC_EN, SPEC_LO, SPEC_PL, SPEC_DV, NULL};

typedef struct {
    unsigned char b[1024];
} st_t;

static const game_t *mk(const char *spec)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create(spec, &g));
    CU_ASSERT_FATAL(g != NULL);
    CU_ASSERT_FATAL(g->state_size <= sizeof(st_t));
    return g;
}

static void set_fen(const game_t *g, st_t *s, const char *fen)
{
    memset(s, 0, sizeof *s);
    HARNESS_OK(game_position_from_string(g, fen, s));
}

static int act(int from, int to) { return (from - 1) * 32 + (to - 1); }

/* Apply a whole move in text; asserts it is legal. */
static void play(const game_t *g, st_t *s, const char *move)
{
    int n = game_apply_move_string(g, s, move);
    if (n < 0) fprintf(stderr, "move '%s': %s\n", move, hoyle_last_error());
    CU_ASSERT(n > 0);
}

/* ---- perft ---- */

static int depth_limit(const char *spec)
{
    if (strstr(spec, "english")) return 10;
    if (strstr(spec, "devil")) return 10;
    return 9;
}

static void test_perft_tables(void)
{
    CU_ASSERT(harness_perft_table("checkers/perft.txt", depth_limit, ~0ull, 4, NULL) >= 4);
}

/* Fast perft == generic perft on positions met in random games, including
 * positions in the middle of a capture chain. */
static void test_perft_fast_vs_generic(void)
{
    for (int v = 0; all_specs[v]; v++) {
        const game_t *g = mk(all_specs[v]);
        rng_t rng;
        rng_init(&rng, 1234 + (uint64_t)v);
        int checked = 0, chains = 0;
        for (int game = 0; game < 40; game++) {
            st_t s;
            game_init(g, &s);
            int legal[256];
            for (int ply = 0; ply < 400 && !game_is_terminal(g, &s); ply++) {
                if (ply % 7 == 3 || (ply > 0 && ply % 3 == 0 && game_is_noisy(g, &s, 0))) {
                    int depth = 1 + (int)rng_below(&rng, 3);
                    uint64_t a = game_perft(g, &s, depth), b = game_perft_generic(g, &s, depth);
                    if (a != b) {
                        char fen[GAME_TEXT_MAX];
                        game_position_to_string(g, &s, fen, sizeof fen);
                        fprintf(stderr, "%s %s depth %d: fast %llu generic %llu\n", all_specs[v],
                                fen, depth, (unsigned long long)a, (unsigned long long)b);
                    }
                    CU_ASSERT_EQUAL(a, b);
                    checked++;
                }
                int n = game_legal_actions(g, &s, legal);
                CU_ASSERT_FATAL(n > 0 && n <= g->max_legal);
                int before = game_current_player(g, &s);
                game_apply(g, &s, legal[rng_below(&rng, (uint32_t)n)]);
                if (game_current_player(g, &s) == before) {
                    chains++;
                    CU_ASSERT_EQUAL(game_perft(g, &s, 2), game_perft_generic(g, &s, 2));
                }
            }
        }
        CU_ASSERT(checked > 100);
        if (v != 3) CU_ASSERT(chains > 0);
        game_free(g);
    }
}

/* ---- text ---- */

static void check_roundtrip(const game_t *g, const st_t *s)
{
    char fen[GAME_TEXT_MAX], fen2[GAME_TEXT_MAX];
    HARNESS_OK(game_position_to_string(g, s, fen, sizeof fen));
    st_t t;
    memset(&t, 0xAB, sizeof t);
    int status = game_position_from_string(g, fen, &t);
    if (status) fprintf(stderr, "%s: %s\n", fen, hoyle_last_error());
    CU_ASSERT_FATAL(status == 0);
    CU_ASSERT(memcmp(s, &t, g->state_size) == 0);
    HARNESS_OK(game_position_to_string(g, &t, fen2, sizeof fen2));
    CU_ASSERT_STRING_EQUAL(fen, fen2);
    int legal[256], n = game_legal_actions(g, s, legal);
    for (int i = 0; i < n; i++) {
        char a[GAME_MOVE_MAX];
        int back = -1;
        HARNESS_OK(game_action_to_string(g, s, legal[i], a, sizeof a));
        HARNESS_OK(game_action_from_string(g, s, a, &back));
        CU_ASSERT_EQUAL(back, legal[i]);
    }
}

static void test_roundtrips_random(void)
{
    for (int v = 0; all_specs[v]; v++) {
        const game_t *g = mk(all_specs[v]);
        rng_t rng;
        rng_init(&rng, 99 + (uint64_t)v);
        for (int game = 0; game < 60; game++) {
            st_t s;
            game_init(g, &s);
            int legal[256], plies = 0;
            while (!game_is_terminal(g, &s)) {
                check_roundtrip(g, &s);
                CU_ASSERT_EQUAL(game_hash(g, &s), game_hash_recompute(g, &s));
                int n = game_legal_actions(g, &s, legal);
                game_apply(g, &s, legal[rng_below(&rng, (uint32_t)n)]);
                plies++;
                CU_ASSERT_FATAL(plies <= g->max_game_length);
            }
            check_roundtrip(g, &s);
        }
        game_free(g);
    }
}

typedef struct wm_ctx {
    const game_t *g;
    const void *s;
    int count;
} wm_ctx_t;

static int wm_visit(const int *actions, int n, const void *after, void *ctx)
{
    (void)after;
    wm_ctx_t *c = ctx;
    char text[GAME_MOVE_MAX];
    int back[GAME_MAX_CHAIN];
    HARNESS_OK(game_move_to_string(c->g, c->s, actions, n, text, sizeof text));
    int m = game_move_from_string(c->g, c->s, text, back, GAME_MAX_CHAIN);
    CU_ASSERT_EQUAL(m, n);
    if (m == n) CU_ASSERT(memcmp(back, actions, sizeof(int) * (size_t)n) == 0);
    c->count++;
    return 0;
}

static void test_whole_move_notation(void)
{
    const game_t *g = mk(SPEC_EN);
    st_t s;
    set_fen(g, &s, "B:W14,16,23:B9,12");
    int legal[64];
    int n = game_legal_actions(g, &s, legal);
    CU_ASSERT_EQUAL(n, 2); /* 9x18 and 12x19: no majority rule in English */
    wm_ctx_t c = {g, &s, 0};
    CU_ASSERT_EQUAL(game_whole_moves(g, &s, wm_visit, &c), 2);
    st_t t = s;
    int acts[GAME_MAX_CHAIN];
    CU_ASSERT_EQUAL(game_move_from_string(g, &s, "9x18x27", acts, GAME_MAX_CHAIN), 2);
    CU_ASSERT_EQUAL(game_move_from_string(g, &s, "9x27", acts, GAME_MAX_CHAIN), 2);
    CU_ASSERT_EQUAL(acts[0], act(9, 18));
    CU_ASSERT_EQUAL(acts[1], act(18, 27));
    /* mid-chain: same player, FEN extension round trip */
    game_apply(g, &t, act(9, 18));
    CU_ASSERT_EQUAL(game_current_player(g, &t), 0);
    char fen[256];
    HARNESS_OK(game_position_to_string(g, &t, fen, sizeof fen));
    CU_ASSERT_STRING_EQUAL(fen, "B:W14,16,23:B12,18:C9x18:X14");
    check_roundtrip(g, &t);
    CU_ASSERT_EQUAL(game_legal_actions(g, &t, legal), 1);
    CU_ASSERT_EQUAL(legal[0], act(18, 27));
    char a[16];
    HARNESS_OK(game_action_to_string(g, &t, legal[0], a, sizeof a));
    CU_ASSERT_STRING_EQUAL(a, "18x27");
    game_apply(g, &t, legal[0]);
    HARNESS_OK(game_position_to_string(g, &t, fen, sizeof fen));
    CU_ASSERT_STRING_EQUAL(fen, "W:W16:B12,27");
    game_free(g);
}

static void test_bad_input(void)
{
    const game_t *g = mk(SPEC_EN);
    st_t s, copy;
    game_init(g, &s);
    copy = s;
    static const char *const bad_fens[] = {"",
                                           "X:W21:B1",
                                           "B:W21",
                                           "B:W33:B1",
                                           "B:W0:B1",
                                           "B:W21,21:B1",
                                           "B:W5:B5",
                                           "B:W21:B1:Q",
                                           "B:W21:B1,",
                                           "B:Wx:B1",
                                           "B:W21-19:B1",
                                           "B:W21:B29",
                                           "B:W1:B30",
                                           "B:W21-32,K1:B1-12",
                                           "B:WK32:BK1:H1-6",
                                           "B:W14:B9:C1x9:X14",
                                           "B:W14:B9:C9x18",
                                           "B:W14:B18:C9x18:X14",
                                           "W:W21:B1:H1-5",
                                           "B:W21 :B1",
                                           "B:W1-32:B",
                                           NULL};
    for (int i = 0; bad_fens[i]; i++) {
        int status = game_position_from_string(g, bad_fens[i], &s);
        if (status != HOYLE_EINVAL) fprintf(stderr, "accepted bad fen '%s'\n", bad_fens[i]);
        CU_ASSERT_EQUAL(status, HOYLE_EINVAL);
        CU_ASSERT(strlen(hoyle_last_error()) > 0);
        CU_ASSERT(memcmp(&s, &copy, g->state_size) == 0);
    }
    game_position_from_string(g, "B:W33:B1", &s);
    CU_ASSERT(strstr(hoyle_last_error(), "33") != NULL);
    static const char *const bad_moves[] = {"",       "11",      "11-", "11-19", "0-4",
                                            "33-29",  "11--15",  "a-b", "11-17", "22-18",
                                            "11x15x", "9-14-18", NULL};
    int acts[GAME_MAX_CHAIN], a;
    for (int i = 0; bad_moves[i]; i++) {
        CU_ASSERT(game_move_from_string(g, &s, bad_moves[i], acts, GAME_MAX_CHAIN) < 0);
        CU_ASSERT(game_action_from_string(g, &s, bad_moves[i], &a) < 0);
        CU_ASSERT(game_apply_move_string(g, &s, bad_moves[i]) < 0);
        CU_ASSERT(memcmp(&s, &copy, g->state_size) == 0);
    }
    /* capture is compulsory */
    set_fen(g, &s, "B:W14,30:B9,1");
    CU_ASSERT(game_apply_move_string(g, &s, "1-5") < 0);
    play(g, &s, "9x18");
    game_free(g);
}

/* ---- seed records ---- */

static void test_opening_book(void)
{
    char *text = harness_read_data("../../configs/books/checkers_two_move.txt");
    CU_ASSERT_FATAL(text != NULL);
    const game_t *g = mk(SPEC_EN);
    int count = 0;
    char names[64][64];
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || line[0] == '\0') continue;
        char *bar = strchr(line, '|');
        CU_ASSERT_FATAL(bar != NULL);
        *bar = '\0';
        CU_ASSERT_FATAL(count < 64);
        snprintf(names[count], sizeof names[count], "%s", line);
        for (int i = 0; i < count; i++) CU_ASSERT(strcmp(names[i], names[count]) != 0);
        st_t s;
        game_init(g, &s);
        int moves = 0;
        char *save = NULL;
        for (char *mv = strtok_r(bar + 1, " ", &save); mv; mv = strtok_r(NULL, " ", &save)) {
            int n = game_apply_move_string(g, &s, mv);
            if (n <= 0) fprintf(stderr, "opening %s: move %s: %s\n", line, mv, hoyle_last_error());
            CU_ASSERT(n > 0);
            moves++;
        }
        CU_ASSERT(moves >= 1);
        count++;
    }
    CU_ASSERT_EQUAL(count, 28);
    game_free(g);
    free(text);
}

static void test_seed_games(void)
{
    char *text = harness_read_data("checkers/seed_games.txt");
    CU_ASSERT_FATAL(text != NULL);
    const game_t *g = mk(SPEC_EN);
    int games = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || line[0] == '\0') continue;
        int number;
        char moves[2048], verdict[32];
        CU_ASSERT_FATAL(sscanf(line, "%d | %2047[^|]| %31[^\n]", &number, moves, verdict) == 3);
        /* every move is two squares: read the numbers in pairs */
        int sq[256], n = 0;
        for (char *p = moves; *p;) {
            if (*p >= '0' && *p <= '9')
                sq[n++] = (int)strtol(p, &p, 10);
            else
                p++;
        }
        CU_ASSERT_FATAL(n % 2 == 0);
        st_t s;
        game_init(g, &s);
        for (int i = 0; i < n; i += 2) {
            char mv[32];
            snprintf(mv, sizeof mv, "%d-%d", sq[i], sq[i + 1]);
            CU_ASSERT_EQUAL(game_current_player(g, &s), (i / 2) % 2);
            int k = game_apply_move_string(g, &s, mv);
            if (k <= 0)
                fprintf(stderr, "game %d move %d (%s): %s\n", number, i / 2 + 1, mv,
                        hoyle_last_error());
            CU_ASSERT_FATAL(k > 0);
        }
        if (number == 7) { /* Diagram No. 2: Black is blocked and loses */
            double r[2];
            CU_ASSERT_FATAL(game_is_terminal(g, &s));
            game_returns(g, &s, r);
            CU_ASSERT(r[1] == 1.0 && r[0] == -1.0);
        } else {
            CU_ASSERT(!game_is_terminal(g, &s));
        }
        games++;
    }
    CU_ASSERT_EQUAL(games, 7);
    game_free(g);
    free(text);
}

/* ---- variants ---- */

static void test_losing(void)
{
    const game_t *g = mk(SPEC_LO), *e = mk(SPEC_EN);
    st_t s;
    double r[2];
    set_fen(g, &s, "W:W:B1"); /* White has no men: in the Losing Game he wins */
    CU_ASSERT(game_is_terminal(g, &s));
    game_returns(g, &s, r);
    CU_ASSERT(r[1] == 1.0);
    set_fen(e, &s, "W:W:B1");
    game_returns(e, &s, r);
    CU_ASSERT(r[1] == -1.0);
    /* White must take Black's last man: Black, left without men, wins */
    set_fen(g, &s, "W:W22:B18");
    play(g, &s, "22x15");
    CU_ASSERT(game_is_terminal(g, &s));
    game_returns(g, &s, r);
    CU_ASSERT(r[0] == 1.0 && r[1] == -1.0);
    game_free(g);
    game_free(e);
}

static void test_losing_blocked(void)
{
    const game_t *g = mk(SPEC_LO);
    st_t s;
    double r[2];
    set_fen(g, &s, "B:W23:B19");
    play(g, &s, "19x26");
    CU_ASSERT(game_is_terminal(g, &s)); /* White has no men left and wins */
    game_returns(g, &s, r);
    CU_ASSERT(r[1] == 1.0 && r[0] == -1.0);
    game_free(g);
}

static void test_polish(void)
{
    const game_t *g = mk(SPEC_PL), *e = mk(SPEC_EN);
    st_t s;
    int legal[256];
    /* men take backwards */
    set_fen(g, &s, "B:W14:B18");
    CU_ASSERT_EQUAL(game_legal_actions(g, &s, legal), 1);
    CU_ASSERT_EQUAL(legal[0], act(18, 9));
    set_fen(e, &s, "B:W14:B18");
    CU_ASSERT_EQUAL(game_legal_actions(e, &s, legal), 2);
    /* majority capture */
    set_fen(g, &s, "B:W8,14,23:B4,9");
    CU_ASSERT_EQUAL(game_legal_actions(g, &s, legal), 1);
    CU_ASSERT_EQUAL(legal[0], act(9, 18));
    set_fen(e, &s, "B:W8,14,23:B4,9");
    CU_ASSERT_EQUAL(game_legal_actions(e, &s, legal), 2);
    /* a man passing the king row mid-capture is not crowned */
    set_fen(g, &s, "B:W26,27:B22");
    play(g, &s, "22x31x24");
    char fen[256];
    HARNESS_OK(game_position_to_string(g, &s, fen, sizeof fen));
    CU_ASSERT_STRING_EQUAL(fen, "W:W:B24");
    set_fen(e, &s, "B:W26,27:B22");
    play(e, &s, "22x31");
    HARNESS_OK(game_position_to_string(e, &s, fen, sizeof fen));
    CU_ASSERT_STRING_EQUAL(fen, "W:W27:BK31");
    /* flying king: moves any distance; two pieces on one line in one flight */
    set_fen(g, &s, "B:W32:BK1");
    CU_ASSERT_EQUAL(game_legal_actions(g, &s, legal), 7);
    set_fen(g, &s, "B:W10,19:BK1");
    CU_ASSERT_EQUAL(game_legal_actions(g, &s, legal), 2);
    CU_ASSERT_EQUAL(legal[0], act(1, 24));
    CU_ASSERT_EQUAL(legal[1], act(1, 28));
    CU_ASSERT_EQUAL(game_perft(g, &s, 1), 2);
    CU_ASSERT_EQUAL(game_perft_generic(g, &s, 1), 2);
    game_free(g);
    game_free(e);
}

static void test_devil(void)
{
    const game_t *g = mk(SPEC_DV);
    st_t s;
    char fen[256];
    double r[2];
    game_init(g, &s);
    HARNESS_OK(game_position_to_string(g, &s, fen, sizeof fen));
    CU_ASSERT_STRING_EQUAL(fen, "B:W29,30,31,32:BK1");
    /* "At the end of four moves they should be lined up on 25, 26, 27, 28" */
    const char *line[] = {"1-6",   "29-25", "6-10",  "30-26", "10-15",
                          "31-27", "15-18", "32-28", NULL};
    for (int i = 0; line[i]; i++) play(g, &s, line[i]);
    HARNESS_OK(game_position_to_string(g, &s, fen, sizeof fen));
    CU_ASSERT_STRING_EQUAL(fen, "B:W25,26,27,28:BK18");
    /* no captures: the devil may not jump a tailor */
    set_fen(g, &s, "B:W22,25,26,27:BK18");
    int legal[16], n = game_legal_actions(g, &s, legal);
    for (int i = 0; i < n; i++) CU_ASSERT(!game_is_noisy(g, &s, legal[i]));
    /* the tailors pin the devil: White wins */
    set_fen(g, &s, "B:W5,6:BK1");
    CU_ASSERT(game_is_terminal(g, &s));
    game_returns(g, &s, r);
    CU_ASSERT(r[1] == 1.0);
    game_free(g);
}

static void test_devil_escape(void)
{
    const game_t *g = mk(SPEC_DV);
    st_t s;
    double r[2];
    set_fen(g, &s, "B:W17,18,19:BK20"); /* level with the tailors: not yet free */
    CU_ASSERT(!game_is_terminal(g, &s));
    play(g, &s, "20-24");
    CU_ASSERT(game_is_terminal(g, &s));
    game_returns(g, &s, r);
    CU_ASSERT(r[0] == 1.0);
    game_free(g);
}

/* ---- draws ---- */

static void test_threefold(void)
{
    const game_t *g = mk(SPEC_EN);
    st_t s;
    set_fen(g, &s, "B:WK32:BK1");
    const char *cycle[] = {"1-5", "32-28", "5-1", "28-32"};
    for (int i = 0; i < 8; i++) {
        CU_ASSERT_FATAL(!game_is_terminal(g, &s));
        play(g, &s, cycle[i % 4]);
    }
    double r[2];
    CU_ASSERT(game_is_terminal(g, &s)); /* the start position for the third time */
    game_returns(g, &s, r);
    CU_ASSERT(r[0] == 0.0 && r[1] == 0.0);
    game_free(g);
}

static void test_forty_moves(void)
{
    const game_t *g = mk(SPEC_EN);
    st_t s, t;
    set_fen(g, &s, "B:WK29,K30:BK3,K4");
    int legal[64], reply[64];
    for (int ply = 0; ply < 80; ply++) {
        CU_ASSERT_FATAL(!game_is_terminal(g, &s));
        int n = game_legal_actions(g, &s, legal), chosen = -1;
        /* a move that neither repeats nor offers a capture */
        for (int i = n - 1; i >= 0 && chosen < 0; i--) {
            t = s;
            game_apply(g, &t, legal[i]);
            bool ok = !game_is_terminal(g, &t) || ply == 79;
            int m = ok && !game_is_terminal(g, &t) ? game_legal_actions(g, &t, reply) : 0;
            for (int j = 0; j < m; j++) ok = ok && !game_is_noisy(g, &t, reply[j]);
            if (ok) chosen = i;
        }
        CU_ASSERT_FATAL(chosen >= 0);
        CU_ASSERT(!game_is_noisy(g, &s, legal[chosen]));
        game_apply(g, &s, legal[chosen]);
        if (ply == 78) check_roundtrip(g, &s);
    }
    double r[2];
    CU_ASSERT(game_is_terminal(g, &s));
    game_returns(g, &s, r);
    CU_ASSERT(r[0] == 0.0 && r[1] == 0.0);
    game_free(g);
}

/* ---- PDN ---- */

static void test_pdn(void)
{
    const game_t *g = mk(SPEC_EN);
    checkers_pdn_game_t *pg = calloc(1, sizeof *pg), *pg2 = calloc(1, sizeof *pg2);
    char *text = harness_read_data("checkers/game7.pdn");
    CU_ASSERT_FATAL(text && pg && pg2);
    int used = checkers_pdn_read(g, text, pg);
    if (used < 0) fprintf(stderr, "%s\n", hoyle_last_error());
    CU_ASSERT_FATAL(used > 0);
    CU_ASSERT_EQUAL(pg->num_moves, 26);
    CU_ASSERT_STRING_EQUAL(pg->result, "0-1");
    st_t s;
    HARNESS_OK(checkers_pdn_replay(g, pg, &s));
    CU_ASSERT(game_is_terminal(g, &s));
    char out[8192];
    int n = checkers_pdn_write(g, pg, out, sizeof out);
    CU_ASSERT_FATAL(n > 0);
    CU_ASSERT(checkers_pdn_read(g, out, pg2) > 0);
    CU_ASSERT_EQUAL(pg2->num_actions, pg->num_actions);
    CU_ASSERT(memcmp(pg2->actions, pg->actions, sizeof(int) * (size_t)pg->num_actions) == 0);
    CU_ASSERT_EQUAL(pg2->num_tags, pg->num_tags);
    /* a FEN start and a multi-jump */
    const char *fen_game = "[FEN \"B:W14,16,23:B9,12\"]\n1. 9x18x27 16-11 {note} 2. 12-16 *\n";
    CU_ASSERT(checkers_pdn_read(g, fen_game, pg2) > 0);
    CU_ASSERT_EQUAL(pg2->num_moves, 3);
    CU_ASSERT_EQUAL(pg2->num_actions, 4);
    /* errors name the line and the token, and leave the record alone */
    memcpy(pg2, pg, sizeof *pg);
    static const char *const bad[] = {"[Event \"x\"]\n1. 11-15 22-18\n2. 11-16 *",
                                      "[Event x]\n1. 11-15",
                                      "1. 11-15 {unclosed",
                                      "[Event \"x\"\n",
                                      "1. 11-15 22-18 3. 15x22 25x18 9-14 29x25",
                                      ""};
    for (int i = 0; i < 6; i++) {
        CU_ASSERT(checkers_pdn_read(g, bad[i], pg2) < 0);
        CU_ASSERT(memcmp(pg2, pg, sizeof *pg) == 0);
    }
    checkers_pdn_read(g, bad[0], pg2);
    CU_ASSERT(strstr(hoyle_last_error(), "line 3") != NULL);
    CU_ASSERT(strstr(hoyle_last_error(), "11-16") != NULL);
    free(text);
    free(pg);
    free(pg2);
    game_free(g);
}

/* ---- observation, evaluation ---- */

/* ---- huffing (capture=huff; seed 001 "Huffing", Checker Laws 14-15) ---- */

#define SPEC_HUFF "checkers(capture=huff)"

static bool has_action(const game_t *g, const st_t *s, int a)
{
    int legal[256];
    int n = game_legal_actions(g, s, legal);
    for (int i = 0; i < n; i++)
        if (legal[i] == a) return true;
    return false;
}

static void expect_fen(const game_t *g, const st_t *s, const char *want)
{
    char buf[256];
    CU_ASSERT(game_position_to_string(g, s, buf, sizeof buf) > 0);
    if (strcmp(buf, want) != 0) fprintf(stderr, "position %s, want %s\n", buf, want);
    CU_ASSERT_STRING_EQUAL(buf, want);
    CU_ASSERT_EQUAL(game_hash(g, s), game_hash_recompute(g, s));
    st_t t;
    set_fen(g, &t, buf); /* reads back to the same state */
    CU_ASSERT_EQUAL(game_hash(g, &t), game_hash(g, s));
    CU_ASSERT_EQUAL(memcmp(&t, s, g->state_size), 0);
}

static int huff_act(const game_t *g, const st_t *s, const char *text)
{
    int a = -1;
    HARNESS_OK(game_action_from_string(g, s, text, &a));
    return a;
}

/* Black (to move) can take 14x23; with forced captures it must, with
 * huffing it may play on, and White then chooses. */
#define HUFF_START "B:W18,28:B1,9,14"

static void test_huff_rules(void)
{
    const game_t *forced = mk(SPEC_EN), *g = mk(SPEC_HUFF);
    st_t s;
    int legal[256];
    set_fen(forced, &s, HUFF_START);
    CU_ASSERT_EQUAL(game_legal_actions(forced, &s, legal), 1); /* 14x23 only */
    set_fen(g, &s, HUFF_START);
    CU_ASSERT_EQUAL(game_legal_actions(g, &s, legal), 5); /* 1-5 1-6 9-13 14-17 14x23 */
    CU_ASSERT(has_action(g, &s, act(14, 23)) && has_action(g, &s, act(1, 6)));
    /* no neglect yet: no huff, no compel */
    int a;
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "compel", &a), HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "neglected") != NULL);
    /* a capture taken is no neglect */
    st_t t = s;
    play(g, &t, "14x23");
    CU_ASSERT_FALSE(has_action(g, &t, 1056));
    /* the neglect 1-6: White to move, with the penalty first */
    play(g, &s, "1-6");
    CU_ASSERT_EQUAL(game_current_player(g, &s), 1);
    expect_fen(g, &s, "W:W18,28:B6,9,14:N1-6");
    CU_ASSERT(has_action(g, &s, 1024 + 13));      /* huff 14: the man that should have taken */
    CU_ASSERT_FALSE(has_action(g, &s, 1024 + 8)); /* 9 could not have taken */
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "huff 9", &a), HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "could not have captured") != NULL);
    CU_ASSERT(has_action(g, &s, 1056));                       /* compel */
    CU_ASSERT(has_action(g, &s, act(28, 24)));                /* or play on */
    CU_ASSERT_EQUAL(game_legal_actions(g, &s, legal), 2 + 2); /* 18-15 28-24 + huff, compel */
    char buf[64];
    CU_ASSERT(game_action_to_string(g, &s, 1024 + 13, buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "huff 14");

    /* 1. compel: the move is taken back and Black must capture */
    t = s;
    game_apply(g, &t, huff_act(g, &t, "compel"));
    CU_ASSERT_EQUAL(game_current_player(g, &t), 0);
    expect_fen(g, &t, "B:W18,28:B1,9,14:M");
    CU_ASSERT_EQUAL(game_legal_actions(g, &t, legal), 1);
    CU_ASSERT_EQUAL(legal[0], act(14, 23));
    play(g, &t, "14x23");
    expect_fen(g, &t, "W:W28:B1,9,23");

    /* 2. huff: the man on 14 goes, and White, still to move, makes his own
     * move (the huff "does not constitute a move") */
    t = s;
    game_apply(g, &t, huff_act(g, &t, "huff 14"));
    CU_ASSERT_EQUAL(game_current_player(g, &t), 1);
    expect_fen(g, &t, "W:W18,28:B6,9");
    CU_ASSERT_FALSE(has_action(g, &t, 1056));
    CU_ASSERT(has_action(g, &t, act(18, 14)));
    play(g, &t, "18-14");
    CU_ASSERT_EQUAL(game_current_player(g, &t), 0);
    /* the same as one whole move, in text both ways */
    st_t u = s;
    int acts[8];
    CU_ASSERT_EQUAL(game_move_from_string(g, &u, "huff 14 18-14", acts, 8), 2);
    CU_ASSERT(game_move_to_string(g, &u, acts, 2, buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "huff 14 18-14");
    CU_ASSERT(game_move_from_string(g, &u, "huff 14", acts, 8) < 0); /* his move must follow */
    CU_ASSERT_EQUAL(game_move_from_string(g, &u, "compel", acts, 8), 1);

    /* 3. let it stand: White moves on, and the chance is gone */
    t = s;
    play(g, &t, "28-24");
    expect_fen(g, &t, "B:W18,24:B6,9,14");
    CU_ASSERT_FALSE(has_action(g, &t, 1056));
    CU_ASSERT(has_action(g, &t, act(14, 23))); /* Black may still take, or neglect again */
    game_free(forced);
    game_free(g);
}

/* The man that should have taken moved away: it is huffed where it stands;
 * a neglect that crowned a man is taken back with the crown. */
static void test_huff_moved_and_crowned(void)
{
    const game_t *g = mk(SPEC_HUFF);
    st_t s;
    set_fen(g, &s, HUFF_START);
    play(g, &s, "14-17");
    expect_fen(g, &s, "W:W18,28:B1,9,17:N14-17");
    CU_ASSERT(has_action(g, &s, 1024 + 16)); /* huff 17 */
    CU_ASSERT_FALSE(has_action(g, &s, 1024 + 13));
    game_apply(g, &s, huff_act(g, &s, "huff 17"));
    expect_fen(g, &s, "W:W18,28:B1,9");

    set_fen(g, &s, "B:W18:B14,26");
    play(g, &s, "26-30"); /* crowns, while 14x23 was there */
    expect_fen(g, &s, "W:W18:B14,K30:N26-30K");
    game_apply(g, &s, huff_act(g, &s, "compel"));
    expect_fen(g, &s, "B:W18:B14,26:M"); /* a man again on 26 */
    /* bad huff fields: one-line errors */
    static const char *bad[] = {
        "W:W18:B14,30:N26-30",   /* a man on his king row */
        "W:W18,27:B6,9,14:N5-6", /* 5-6 is no move */
        "W:W18,27:B6,9,13:N1-6", /* nothing could have taken */
        "B:W18,27:B1,9,13:M",    /* compelled without a capture */
        "W:W18,27:B6,9,14:N1-6x",
    };
    st_t t;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(game_position_from_string(g, bad[i], &t), HOYLE_EINVAL);
        CU_ASSERT(strchr(hoyle_last_error(), '\n') == NULL);
    }
    const game_t *forced = mk(SPEC_EN);
    CU_ASSERT_EQUAL(game_position_from_string(forced, "W:W18,27:B6,9,14:N1-6", &t), HOYLE_EINVAL);
    const game_t *bad_game = NULL;
    CU_ASSERT(game_create("checkers(variant=polish,capture=huff)", &bad_game) < 0);
    game_free(forced);
    game_free(g);
}

static void test_observe_eval(void)
{
    for (int v = 0; all_specs[v]; v++) {
        const game_t *g = mk(all_specs[v]);
        st_t s;
        game_init(g, &s);
        CU_ASSERT_EQUAL(g->obs_shape[0] * 64, game_obs_size(g));
        float *obs = malloc(sizeof(float) * (size_t)game_obs_size(g));
        for (int p = 0; p < 2; p++) {
            game_observe(g, &s, p, obs);
            double own = 0, opp = 0;
            for (int i = 0; i < 128; i++) own += obs[i];
            for (int i = 128; i < 256; i++) opp += obs[i];
            int count[2] = {v == 3 ? 1 : 12, v == 3 ? 4 : 12};
            CU_ASSERT_EQUAL((int)own, count[p]);
            CU_ASSERT_EQUAL((int)opp, count[p ^ 1]);
        }
        double e = game_evaluate(g, &s, 0);
        CU_ASSERT(e >= -1.0 && e <= 1.0);
        if (v < 3) CU_ASSERT(e > -0.2 && e < 0.2);
        char board[GAME_TEXT_MAX];
        CU_ASSERT(game_state_to_string(g, &s, board, sizeof board) > 0);
        free(obs);
        game_free(g);
    }
    const game_t *g = mk(SPEC_EN);
    st_t s;
    set_fen(g, &s, "B:W30:B1,2,3,K4");
    CU_ASSERT(game_evaluate(g, &s, 0) > 0.5);
    CU_ASSERT(game_evaluate(g, &s, 1) < -0.5);
    game_free(g);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"perft tables", test_perft_tables},
        {"fast perft equals generic perft", test_perft_fast_vs_generic},
        {"position and action round trips in random games", test_roundtrips_random},
        {"whole-move notation and chain extension", test_whole_move_notation},
        {"bad input", test_bad_input},
        {"seed two-move openings (book)", test_opening_book},
        {"seed illustrative games", test_seed_games},
        {"losing game", test_losing},
        {"losing game: give all men away", test_losing_blocked},
        {"polish draughts", test_polish},
        {"devil among the tailors", test_devil},
        {"devil escapes", test_devil_escape},
        {"threefold repetition", test_threefold},
        {"forty-move rule", test_forty_moves},
        {"pdn import/export", test_pdn},
        {"observation and evaluation", test_observe_eval},
        {"huffing: compel, huff or let stand", test_huff_rules},
        {"huffing: the moved man, a crowning neglect", test_huff_moved_and_crowned},
        {NULL, NULL},
    };
    return harness_run("checkers", tests);
}
