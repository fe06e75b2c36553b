/* test_chess.c — the chess game: perft tables (chessprogramming wiki and rule traps) by the fast
 * and by the generic perft, fast vs generic perft in random games and with a repetition history,
 * SAN and UCI round trips over every legal move of random games, the noisy-move generator against
 * the filtered legal moves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "games/chess/chess_internal.h"
#include "games/game.h"
#include "tests/harness.h"

static const game_t *mk(const char *spec)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create(spec, &g));
    CU_ASSERT_FATAL(g != NULL);
    CU_ASSERT_FATAL(g->state_size == sizeof(ch_state_t));
    return g;
}

static bool slow_tests(void)
{
    const char *e = getenv("HOYLE_SLOW_TESTS");
    return !(e && strcmp(e, "0") == 0);
}

/* ---- perft tables ---- */

/* Every count up to node_limit, by the fast perft (board mode) and by the
 * generic one (the game contract: legal actions, copy, apply, legal_count at
 * the last ply): both must give the published count. */
static int run_table(const char *file, uint64_t node_limit)
{
    int checked = 0, rows = harness_perft_table(file, NULL, node_limit, 64, &checked);
    fprintf(stderr, "  %s: %d rows, %d counts\n", file, rows, checked);
    return rows;
}

static void test_perft_wiki(void)
{
    CU_ASSERT(run_table("chess/perft_wiki.txt", slow_tests() ? 5000000 : 200000) >= 7);
}

static void test_perft_traps(void)
{
    CU_ASSERT(run_table("chess/perft_traps.txt", slow_tests() ? 2000000 : 200000) >= 25);
}

/* ---- fast perft == generic perft ---- */

static void test_perft_fast_vs_generic(void)
{
    static const char *const specs[] = {"chess", "chess(insufficient=play)", NULL};
    for (int v = 0; specs[v]; v++) {
        const game_t *g = mk(specs[v]);
        rng_t rng;
        rng_init(&rng, 77 + (uint64_t)v);
        int checked = 0, games = slow_tests() ? 30 : 8;
        for (int game = 0; game < games; game++) {
            ch_state_t s;
            game_init(g, &s);
            int legal[CH_MAX_MOVES];
            for (int ply = 0; ply < 600 && !game_is_terminal(g, &s); ply++) {
                if (ply % 9 == 4) {
                    int depth = 1 + (int)rng_below(&rng, 2);
                    uint64_t a = game_perft(g, &s, depth), b = game_perft_generic(g, &s, depth);
                    if (a != b) {
                        char fen[128];
                        game_position_to_string(g, &s, fen, sizeof fen);
                        fprintf(stderr, "%s depth %d: fast %llu generic %llu\n", fen, depth,
                                (unsigned long long)a, (unsigned long long)b);
                    }
                    CU_ASSERT_EQUAL(a, b);
                    checked++;
                }
                int n = game_legal_actions(g, &s, legal);
                CU_ASSERT_FATAL(n > 0 && n <= g->max_legal);
                game_apply(g, &s, legal[rng_below(&rng, (uint32_t)n)]);
            }
        }
        CU_ASSERT(checked > 50);
        game_free(g);
    }
}

/* A repetition inside the perft tree: after Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1,
 * Black's Ng8 makes the start position's third occurrence, so that child has
 * no moves: perft(2) is the history-free count minus White's 20 replies. */
static void test_perft_repetition_history(void)
{
    const game_t *g = mk("chess");
    ch_state_t s, bare;
    game_init(g, &s);
    const char *moves[] = {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"};
    for (int i = 0; i < 7; i++) CU_ASSERT(game_apply_move_string(g, &s, moves[i]) == 1);
    char fen[128];
    game_position_to_string(g, &s, fen, sizeof fen);
    HARNESS_OK(game_position_from_string(g, fen, &bare));
    CU_ASSERT_EQUAL(game_perft(g, &s, 2), game_perft(g, &bare, 2) - 20);
    CU_ASSERT_EQUAL(game_perft(g, &s, 2), game_perft_generic(g, &s, 2));
    CU_ASSERT_EQUAL(game_perft(g, &s, 3), game_perft_generic(g, &s, 3));
    game_free(g);
}

/* ---- notation over random games ---- */

static void test_notation_random_games(void)
{
    const game_t *g = mk("chess");
    rng_t rng;
    rng_init(&rng, 4242);
    int moves_checked = 0, games = slow_tests() ? 40 : 10;
    for (int game = 0; game < games; game++) {
        ch_state_t s;
        game_init(g, &s);
        int legal[CH_MAX_MOVES];
        for (int ply = 0; ply < 300 && !game_is_terminal(g, &s); ply++) {
            ch_move_t mv[CH_MAX_MOVES];
            int n = ch_gen_legal(&s.pos, mv);
            for (int i = 0; i < n; i++) {
                char san[16], uci[8];
                ch_move_t back = 0;
                CU_ASSERT(ch_move_to_san(&s.pos, mv[i], san, sizeof san) > 0);
                int rc = ch_move_parse(&s.pos, san, &back);
                if (rc || back != mv[i]) fprintf(stderr, "SAN '%s': %s\n", san, hoyle_last_error());
                CU_ASSERT(rc == 0 && back == mv[i]);
                ch_move_to_uci(mv[i], uci);
                CU_ASSERT(ch_move_parse(&s.pos, uci, &back) == 0 && back == mv[i]);
                int a = ch_move_to_action(&s.pos, mv[i]);
                CU_ASSERT(ch_action_to_move(&s.pos, a) == mv[i]);
                moves_checked++;
            }
            CU_ASSERT_EQUAL(game_legal_actions(g, &s, legal), n);
            game_apply(g, &s, legal[rng_below(&rng, (uint32_t)n)]);
        }
    }
    CU_ASSERT(moves_checked > 10000);
    game_free(g);
}

/* ---- quiescence's moves ---- */

/* The noisy-move generator (the noisy_actions slot) gives exactly the legal
 * actions is_noisy accepts, in the same ascending order: every position of
 * the perft tables (en-passant pins, promotions, checks) and 12 random
 * plies from each, and random games from the start. */
static int noisy_checked(const game_t *g, const ch_state_t *s)
{
    int legal[CH_MAX_MOVES], noisy[CH_MAX_MOVES], k = 0;
    int n = game_legal_actions(g, s, legal), m = game_noisy_actions(g, s, noisy);
    bool same = true;
    for (int i = 0; i < n; i++)
        if (game_is_noisy(g, s, legal[i])) same = same && k < m && noisy[k++] == legal[i];
    CU_ASSERT(same && k == m);
    return m;
}

static void test_noisy_actions(void)
{
    const game_t *g = mk("chess(insufficient=play)");
    rng_t rng;
    rng_init(&rng, 31);
    int positions = 0, noisy = 0, legal[CH_MAX_MOVES];
    static const char *const files[] = {"chess/perft_traps.txt", "chess/perft_wiki.txt"};
    for (int f = 0; f < 2; f++) {
        char *text = harness_read_data(files[f]);
        CU_ASSERT_FATAL(text != NULL);
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            char *a = strstr(line, " | "), *b = a ? strstr(a + 3, " | ") : NULL;
            if (line[0] == '#' || !b) continue;
            *b = 0;
            ch_state_t s;
            HARNESS_OK(game_position_from_string(g, a + 3, &s));
            for (int ply = 0; ply < 12 && !game_is_terminal(g, &s); ply++, positions++) {
                noisy += noisy_checked(g, &s);
                int n = game_legal_actions(g, &s, legal);
                game_apply(g, &s, legal[rng_below(&rng, (uint32_t)n)]);
            }
        }
        free(text);
    }
    for (int game = 0; game < 20; game++) {
        ch_state_t s;
        game_init(g, &s);
        for (int ply = 0; ply < 300 && !game_is_terminal(g, &s); ply++, positions++) {
            noisy += noisy_checked(g, &s);
            int n = game_legal_actions(g, &s, legal);
            game_apply(g, &s, legal[rng_below(&rng, (uint32_t)n)]);
        }
    }
    fprintf(stderr, "  %d positions, %d noisy moves\n", positions, noisy);
    CU_ASSERT(positions > 2000 && noisy > 5000);
    game_free(g);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"perft: chessprogramming wiki positions", test_perft_wiki},
        {"perft: rule traps", test_perft_traps},
        {"fast perft equals generic perft in random games", test_perft_fast_vs_generic},
        {"perft sees the repetition history", test_perft_repetition_history},
        {"SAN, UCI and actions round trip over random games", test_notation_random_games},
        {"noisy actions: the captures and promotions, in legal order", test_noisy_actions},
        {NULL, NULL},
    };
    return harness_run("chess", tests);
}
