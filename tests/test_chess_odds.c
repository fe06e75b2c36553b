/* test_chess_odds.c — games at odds, chess(odds=...) (seed 001, "Games at
 * Odds" and "Rules for Playing the Game at Odds"): each start, the opening
 * turn of Pawn and Two Moves (two moves, none past the fourth rank, one
 * move number, hash and position text), castling after a Rook's odds, and
 * the seed's example openings at odds replayed in descriptive from each
 * start, equal to the books in configs/books/chess_odds_*.txt. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/openings.h"
#include "games/chess/chess_internal.h"
#include "games/chess/notation_seed.h"
#include "games/game.h"
#include "tests/harness.h"

#define BOOKS HOYLE_TEST_DATA "/../../configs/books/chess_odds_"

static const game_t *odds_game(const char *odds)
{
    char spec[64];
    snprintf(spec, sizeof spec, "chess(odds=%s)", odds);
    const game_t *g = NULL;
    HARNESS_OK(game_create(spec, &g));
    return g;
}

static void fen_of(const game_t *g, const void *s, char *buf, size_t cap)
{
    CU_ASSERT(game_position_to_string(g, s, buf, cap) > 0);
}

static void test_starts(void)
{
    static const struct {
        const char *odds, *fen;
    } want[] = {
        {"none", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
        {"pawn_move", "rnbqkbnr/ppppp1pp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
        {"pawn_two_moves", "rnbqkbnr/ppppp1pp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves_left=2"},
        {"qknight", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1"},
        {"kknight", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1"},
        {"qrook", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1"},
        {"krook", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1"},
        {"queen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1"},
        {"exchange", "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const game_t *g = odds_game(want[i].odds);
        ch_state_t s;
        char fen[160];
        game_init(g, &s);
        fen_of(g, &s, fen, sizeof fen);
        if (strcmp(fen, want[i].fen) != 0) fprintf(stderr, "%s: %s\n", want[i].odds, fen);
        CU_ASSERT_STRING_EQUAL(fen, want[i].fen);
        CU_ASSERT_EQUAL(game_current_player(g, &s), 0); /* White moves first in every one */
        CU_ASSERT_EQUAL(game_hash(g, &s), game_hash_recompute(g, &s));
        game_free(g);
    }
    const game_t *g = NULL;
    CU_ASSERT(game_create("chess(odds=knight)", &g) < 0);
    CU_ASSERT(strstr(hoyle_last_error(), "odds") != NULL);
}

static int act(const game_t *g, const void *s, const char *text)
{
    int a = -1;
    HARNESS_OK(game_action_from_string(g, s, text, &a));
    return a;
}

/* Law V: two moves "collectively considered as the first move", none past
 * the fourth rank before Black's first. */
static void test_two_moves(void)
{
    const game_t *g = odds_game("pawn_two_moves");
    ch_state_t s, t;
    game_init(g, &s);
    int legal[2 * CH_MAX_MOVES];
    CU_ASSERT_EQUAL(game_legal_actions(g, &s, legal), 20); /* as at the usual start */
    /* the turn is one whole move in text: "e4 d4" or "e4,d4", not "e4" alone */
    int pair[4];
    CU_ASSERT_EQUAL(game_move_from_string(g, &s, "e4 d4", pair, 4), 2);
    CU_ASSERT_EQUAL(game_move_from_string(g, &s, "e4,d4", pair, 4), 2);
    char shown[64];
    CU_ASSERT(game_move_to_display(g, &s, pair, 2, shown, sizeof shown) > 0);
    CU_ASSERT_STRING_EQUAL(shown, "e4 d4");
    CU_ASSERT_EQUAL(game_move_from_string(g, &s, "e4", pair, 4), HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "two moves") != NULL);
    CU_ASSERT(game_move_from_string(g, &s, "e4 d5", pair, 4) < 0); /* past the fourth rank */
    game_apply(g, &s, act(g, &s, "e4"));
    CU_ASSERT_EQUAL(game_current_player(g, &s), 0); /* White again */
    CU_ASSERT_EQUAL(s.fullmove, 1);
    /* Bb5 and Qh5 reach the fifth rank: refused, the state unchanged */
    memcpy(&t, &s, sizeof s);
    int a = -1;
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "Bb5", &a), HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "fourth rank") != NULL);
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "Qh5", &a), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(memcmp(&s, &t, sizeof s), 0);
    /* e4-e5 is past the fourth rank too; d4, Bc4, Qf3 are not */
    int n = game_legal_actions(g, &s, legal);
    int e5 = -1;
    ch_move_t m;
    HARNESS_OK(ch_move_parse(&s.pos, "e5", &m));
    e5 = ch_move_to_action(&s.pos, m);
    for (int i = 0; i < n; i++) CU_ASSERT(legal[i] != e5);
    CU_ASSERT(game_is_legal(g, &s, act(g, &s, "Bc4")));
    char fen[160];
    fen_of(g, &s, fen, sizeof fen);
    CU_ASSERT_STRING_EQUAL(
        fen, "rnbqkbnr/ppppp1pp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1 moves_left=1");
    /* the text reads back to the same state, hash included */
    HARNESS_OK(game_position_from_string(g, fen, &t));
    CU_ASSERT_EQUAL(game_hash(g, &t), game_hash(g, &s));
    CU_ASSERT_EQUAL(game_hash(g, &s), game_hash_recompute(g, &s));
    /* the same men without the prelude are another state */
    HARNESS_OK(game_position_from_string(
        g, "rnbqkbnr/ppppp1pp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", &t));
    CU_ASSERT(game_hash(g, &t) != game_hash(g, &s));
    game_apply(g, &s, act(g, &s, "d4"));
    CU_ASSERT_EQUAL(game_current_player(g, &s), 1); /* now Black */
    CU_ASSERT_EQUAL(s.fullmove, 1);
    CU_ASSERT_EQUAL(game_hash(g, &s), game_hash_recompute(g, &s));
    game_apply(g, &s, act(g, &s, "e6"));
    CU_ASSERT_EQUAL(s.fullmove, 2);
    CU_ASSERT(game_is_legal(g, &s, act(g, &s, "d5"))); /* the limit is over */
    /* bad texts: one-line errors */
    static const char *bad[] = {
        "rnbqkbnr/ppppp1pp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1 moves_left=3",
        "rnbqkbnr/ppppp1pp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 moves_left=1",
        "rnbqkbnr/ppppp1pp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 5 moves_left=1",
        "rnbqkbnr/ppppp1pp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1 moves_left=x",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(game_position_from_string(g, bad[i], &t), HOYLE_EINVAL);
        CU_ASSERT(strchr(hoyle_last_error(), '\n') == NULL);
    }
    /* only the odds of two moves have a prelude */
    const game_t *plain = odds_game("pawn_move");
    CU_ASSERT_EQUAL(game_position_from_string(plain, fen, &t), HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "moves_left") != NULL);
    /* perft counts whole moves, and White's two moves are one (the same
     * player keeps the turn): 20 first moves times the second moves within
     * the fourth rank; the fast perft defers to the generic one */
    game_init(g, &s);
    uint64_t pairs = 0;
    n = game_legal_actions(g, &s, legal);
    for (int i = 0; i < n; i++) {
        memcpy(&t, &s, sizeof s);
        game_apply(g, &t, legal[i]);
        pairs += (uint64_t)game_legal_actions(g, &t, legal + n);
    }
    CU_ASSERT_EQUAL(game_perft(g, &s, 1), pairs);
    CU_ASSERT_EQUAL(game_perft(g, &s, 2), game_perft_generic(g, &s, 2));
    CU_ASSERT_EQUAL(game_perft(g, &s, 3), game_perft_generic(g, &s, 3));
    game_free(plain);
    game_free(g);
}

/* Law III: no castling on the side of the removed Rook. */
static void test_rook_odds_castling(void)
{
    const game_t *g = odds_game("qrook");
    ch_state_t s;
    HARNESS_OK(game_position_from_string(g, "r3k2r/8/8/8/8/8/8/4K2R w Kkq - 0 1", &s));
    int a = -1;
    CU_ASSERT_EQUAL(game_action_from_string(g, &s, "O-O-O", &a), HOYLE_EINVAL);
    CU_ASSERT(game_is_legal(g, &s, act(g, &s, "O-O")));
    game_init(g, &s);
    CU_ASSERT_EQUAL(s.pos.castling & CH_WQ, 0);
    CU_ASSERT(s.pos.castling & CH_WK);
    game_free(g);
}

/* Replay `plies` with the marks of the data file from the game's start. */
static int replay(const game_t *g, const char *plies, int *acts, int cap, int *marks)
{
    ch_state_t s;
    game_init(g, &s);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", plies);
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ";", &save); tok;
         tok = strtok_r(NULL, ";", &save)) {
        while (*tok == ' ') tok++;
        size_t len = strlen(tok);
        while (len && tok[len - 1] == ' ') tok[--len] = '\0';
        char text[64], seed[64];
        ch_move_t m;
        if (tok[0] == '(') { /* printed, impossible: refused, and the line ends */
            snprintf(seed, sizeof seed, "%.*s", (int)(len - 2), tok + 1);
            CU_ASSERT(ch_descriptive_parse(&s.pos, seed, &m) != HOYLE_OK);
            (*marks)++;
            break;
        }
        char *open = strchr(tok, '{');
        if (open) { /* TEXT {READ}: TEXT is refused, READ is played */
            snprintf(seed, sizeof seed, "%.*s", (int)(open - tok), tok);
            size_t sl = strlen(seed);
            while (sl && seed[sl - 1] == ' ') seed[--sl] = '\0';
            char *inner = seed[0] == '[' ? seed + 1 : seed;
            if (seed[0] == '[') inner[strlen(inner) - 1] = '\0';
            CU_ASSERT(ch_descriptive_parse(&s.pos, inner, &m) != HOYLE_OK);
            snprintf(text, sizeof text, "%.*s", (int)strcspn(open + 1, "}"), open + 1);
            (*marks)++;
        } else if (tok[0] == '[' || tok[0] == '<') {
            snprintf(text, sizeof text, "%.*s", (int)(len - 2), tok + 1);
            (*marks)++;
        } else {
            snprintf(text, sizeof text, "%s", tok);
        }
        int rc = ch_descriptive_parse(&s.pos, text, &m);
        if (rc == CH_NOTATION_FOREIGN) rc = ch_move_parse_any(&s.pos, text, &m); /* 0-0 */
        if (rc != HOYLE_OK || n >= cap || !ch_odds_allows(&s, m)) {
            fprintf(stderr, "ply %d '%s': %s\n", n + 1, text, hoyle_last_error());
            return -1;
        }
        acts[n] = ch_move_to_action(&s.pos, m);
        CU_ASSERT(game_is_legal(g, &s, acts[n]));
        game_apply(g, &s, acts[n++]);
    }
    return n;
}

static void test_seed_examples_are_the_books(void)
{
    char *text = harness_read_data("chess/seed_odds_descriptive.txt");
    CU_ASSERT_FATAL(text != NULL);
    int seen = 0, marks = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || line[0] == '\0') continue;
        char odds[32], name[96];
        char *b1 = strchr(line, '|'), *b2 = b1 ? strchr(b1 + 1, '|') : NULL;
        CU_ASSERT_FATAL(b1 != NULL && b2 != NULL);
        snprintf(odds, sizeof odds, "%.*s", (int)(b1 - line - 1), line);
        snprintf(name, sizeof name, "%.*s", (int)(b2 - b1 - 3), b1 + 2);
        const game_t *g = odds_game(odds);
        char path[512];
        snprintf(path, sizeof path, BOOKS "%s.txt", odds);
        opening_list_t l;
        HARNESS_OK(openings_load_book(g, path, &l));
        const opening_t *o = NULL;
        for (int i = 0; i < l.n; i++)
            if (strcmp(l.items[i].name, name) == 0) o = &l.items[i];
        if (o == NULL) fprintf(stderr, "%s: no book opening '%s'\n", odds, name);
        CU_ASSERT_FATAL(o != NULL);
        int acts[32];
        int n = replay(g, b2 + 1, acts, 32, &marks);
        if (n != o->num_actions)
            fprintf(stderr, "'%s': %d plies, book %d\n", name, n, o->num_actions);
        CU_ASSERT_EQUAL(n, o->num_actions);
        if (n == o->num_actions && memcmp(acts, o->actions, sizeof(int) * (size_t)n) != 0)
            CU_FAIL("descriptive and book differ");
        seen++;
        opening_list_done(&l);
        game_free(g);
    }
    CU_ASSERT_EQUAL(seen, 12);
    CU_ASSERT_EQUAL(marks, 13); /* the marks the data file's header lists */
    free(text);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"the start of each odds", test_starts},
        {"pawn and two moves: one turn, nothing past the fourth rank", test_two_moves},
        {"rook odds: no castling on that side", test_rook_odds_castling},
        {"the seed's openings at odds are the books", test_seed_examples_are_the_books},
        {NULL, NULL},
    };
    return harness_run("chess_odds", tests);
}
