/* test_chess_rules.c — the laws one case at a time: every draw rule (fifty
 * moves, threefold with FIDE's en-passant nuance, dead material), mate and
 * stalemate, castling rules and rights, en-passant pins, the action
 * encoding, FEN round trips and every class of bad FEN, SAN disambiguation
 * and bad moves (each error changes nothing). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/chess/chess_internal.h"
#include "games/game.h"
#include "tests/harness.h"

static const game_t *mk(const char *spec)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create(spec, &g));
    CU_ASSERT_FATAL(g != NULL);
    return g;
}

static void load(const game_t *g, ch_state_t *s, const char *fen)
{
    HARNESS_OK(game_position_from_string(g, fen, s));
}

/* Play moves given as one string of SAN/UCI tokens; asserts each is legal. */
static void play(const game_t *g, ch_state_t *s, const char *moves)
{
    char buf[512], *save = NULL;
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        int n = game_apply_move_string(g, s, t);
        if (n != 1) fprintf(stderr, "move '%s': %s\n", t, hoyle_last_error());
        CU_ASSERT_FATAL(n == 1);
    }
}

static void fen_of(const game_t *g, const ch_state_t *s, char *buf)
{
    CU_ASSERT(game_position_to_string(g, s, buf, 128) > 0);
}

/* ---- ends ---- */

static void test_mate_and_stalemate(void)
{
    const game_t *g = mk("chess");
    ch_state_t s;
    game_init(g, &s);
    play(g, &s, "f3 e5 g4 Qh4#");
    CU_ASSERT_EQUAL(s.result, CH_WIN_BLACK);
    CU_ASSERT_EQUAL(s.reason, CH_END_MATE);
    double r[2];
    game_returns(g, &s, r);
    CU_ASSERT(r[0] == -1.0 && r[1] == 1.0);
    load(g, &s, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    CU_ASSERT_EQUAL(s.result, CH_DRAW);
    CU_ASSERT_EQUAL(s.reason, CH_END_STALEMATE);
    game_free(g);
}

static void test_fifty_moves(void)
{
    const game_t *g = mk("chess");
    ch_state_t s;
    load(g, &s, "8/8/8/4k3/8/8/R7/4K3 w - - 98 80");
    play(g, &s, "Ra3");
    CU_ASSERT_EQUAL(s.result, CH_ONGOING);
    play(g, &s, "Kd5");
    CU_ASSERT_EQUAL(s.result, CH_DRAW);
    CU_ASSERT_EQUAL(s.reason, CH_END_FIFTY);
    /* a capture or pawn move resets the count */
    load(g, &s, "8/8/8/4k3/8/8/P7/4K3 w - - 99 80");
    play(g, &s, "a3");
    CU_ASSERT_EQUAL(s.result, CH_ONGOING);
    CU_ASSERT_EQUAL(s.pos.halfmove, 0);
    /* mate on the hundredth ply stands */
    load(g, &s, "7k/8/6K1/8/8/8/8/R7 w - - 99 80");
    play(g, &s, "Ra8#");
    CU_ASSERT_EQUAL(s.result, CH_WIN_WHITE);
    game_free(g);
}

static void test_threefold(void)
{
    const game_t *g = mk("chess");
    ch_state_t s;
    game_init(g, &s);
    play(g, &s, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    CU_ASSERT_EQUAL(s.result, CH_ONGOING);
    CU_ASSERT_EQUAL(ch_repetitions(&s), 1);
    play(g, &s, "Ng8");
    CU_ASSERT_EQUAL(s.result, CH_DRAW);
    CU_ASSERT_EQUAL(s.reason, CH_END_REPETITION);
    game_free(g);
}

/* FIDE 9.2.3: right after a double step, the position differs from a later
 * one with the same placement only if the en-passant capture was legal. */
static void test_threefold_en_passant(void)
{
    const game_t *g = mk("chess");
    ch_state_t s;
    /* capturable: the position after e4 (ep on e3) is not repeated by the
     * same placement after 3.Ng1 and 5.Ng1, so 5.Ng1 does not draw; the
     * draw comes one ply later, with 5...Kd8 (third time after 1...Kd8) */
    load(g, &s, "4k3/8/8/8/5p2/8/4P3/4K1N1 w - - 0 1");
    play(g, &s, "e4 Kd8 Nh3 Ke8 Ng1 Kd8 Nh3 Ke8 Ng1");
    CU_ASSERT_EQUAL(s.result, CH_ONGOING);
    play(g, &s, "Kd8");
    CU_ASSERT_EQUAL(s.result, CH_DRAW);
    CU_ASSERT_EQUAL(s.reason, CH_END_REPETITION);
    /* no pawn to take: the first occurrence already counts */
    load(g, &s, "4k3/8/8/8/p7/8/4P3/4K1N1 w - - 0 1");
    play(g, &s, "e4 Kd8 Nh3 Ke8 Ng1 Kd8 Nh3 Ke8 Ng1");
    CU_ASSERT_EQUAL(s.result, CH_DRAW);
    /* capturable but pinned along the rank (king h4, rook a4): no ep */
    ch_state_t a, b;
    load(g, &a, "8/8/8/8/R4p1k/8/4P3/4K3 w - - 0 1");
    play(g, &a, "e4");
    CU_ASSERT_EQUAL(a.pos.ep, CH_NO_SQ);
    load(g, &b, "8/8/8/8/R3Pp1k/8/8/4K3 b - e3 0 1");
    CU_ASSERT_EQUAL(game_hash(g, &a), game_hash(g, &b));
    char fen[128];
    fen_of(g, &b, fen);
    CU_ASSERT_STRING_EQUAL(fen, "8/8/8/8/R3Pp1k/8/8/4K3 b - - 0 1");
    game_free(g);
}

static void test_insufficient_material(void)
{
    static const struct {
        const char *fen;
        bool dead;
    } cases[] = {
        {"8/8/4k3/8/8/3K4/8/8 w - - 0 1", true},     /* K v K */
        {"8/8/4k3/8/8/3KB3/8/8 w - - 0 1", true},    /* K+B v K */
        {"8/8/4k3/8/8/3KN3/8/8 b - - 0 1", true},    /* K+N v K */
        {"8/8/3bk3/8/8/3KB3/8/8 w - - 0 1", true},   /* bishops on one colour */
        {"8/8/2b1k3/8/8/3KB3/8/8 w - - 0 1", false}, /* opposite colours */
        {"8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", false},  /* K+N+N v K: a mate exists */
        {"8/8/4k3/8/8/3KBN2/8/8 w - - 0 1", false},  {"8/8/4k3/8/8/3KP3/8/8 w - - 0 1", false},
        {"8/8/4k3/8/8/3K4/3R4/8 w - - 0 1", false},
    };
    const game_t *g = mk("chess"), *play_on = mk("chess(insufficient=play)");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ch_state_t s;
        load(g, &s, cases[i].fen);
        if ((s.result == CH_DRAW) != cases[i].dead) fprintf(stderr, "%s\n", cases[i].fen);
        CU_ASSERT_EQUAL(s.result == CH_DRAW, cases[i].dead);
        if (cases[i].dead) CU_ASSERT_EQUAL(s.reason, CH_END_MATERIAL);
        load(play_on, &s, cases[i].fen);
        CU_ASSERT_EQUAL(s.result, CH_ONGOING);
    }
    /* reached by a capture */
    ch_state_t s;
    load(g, &s, "8/8/8/4p3/3K4/8/8/7k w - - 0 1");
    play(g, &s, "Kxe5");
    CU_ASSERT_EQUAL(s.reason, CH_END_MATERIAL);
    game_free(g);
    game_free(play_on);
}

/* ---- castling ---- */

static bool has_move(const game_t *g, const ch_state_t *s, const char *text)
{
    int a;
    return game_action_from_string(g, s, text, &a) == 0;
}

static void test_castling(void)
{
    const game_t *g = mk("chess");
    ch_state_t s;
    load(g, &s, "5r2/8/2k5/8/8/8/8/R3K2R w KQ - 0 1"); /* f1 attacked */
    CU_ASSERT(!has_move(g, &s, "O-O"));
    CU_ASSERT(has_move(g, &s, "O-O-O"));
    load(g, &s, "6r1/8/2k5/8/8/8/8/R3K2R w KQ - 0 1"); /* g1 attacked: into check */
    CU_ASSERT(!has_move(g, &s, "O-O"));
    load(g, &s, "4r3/8/2k5/8/8/8/8/R3K2R w KQ - 0 1"); /* in check */
    CU_ASSERT(!has_move(g, &s, "O-O") && !has_move(g, &s, "O-O-O"));
    load(g, &s, "1r6/8/2k5/8/8/8/8/R3K2R w KQ - 0 1"); /* only b1 attacked: allowed */
    CU_ASSERT(has_move(g, &s, "O-O-O") && has_move(g, &s, "e1c1"));
    load(g, &s, "8/8/2k5/8/8/8/8/RN2K2R w KQ - 0 1"); /* b1 occupied */
    CU_ASSERT(!has_move(g, &s, "O-O-O"));
    char fen[128];
    /* rights: rook captured on its square, rook moved, king moved */
    load(g, &s, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(g, &s, "Rxa8+");
    fen_of(g, &s, fen);
    CU_ASSERT_STRING_EQUAL(fen, "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
    play(g, &s, "Kd7");
    fen_of(g, &s, fen);
    CU_ASSERT_STRING_EQUAL(fen, "R6r/3k4/8/8/8/8/8/4K2R w K - 1 2");
    play(g, &s, "Rh2");
    fen_of(g, &s, fen);
    CU_ASSERT_STRING_EQUAL(fen, "R6r/3k4/8/8/8/8/7R/4K3 b - - 2 2");
    load(g, &s, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(g, &s, "Rb1");
    fen_of(g, &s, fen);
    CU_ASSERT_STRING_EQUAL(fen, "r3k2r/8/8/8/8/8/8/1R2K2R b Kkq - 1 1");
    load(g, &s, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(g, &s, "O-O");
    fen_of(g, &s, fen);
    CU_ASSERT_STRING_EQUAL(fen, "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    game_free(g);
}

/* ---- en passant ---- */

static void test_en_passant(void)
{
    const game_t *g = mk("chess");
    ch_state_t s;
    game_init(g, &s);
    play(g, &s, "e4 a6 e5 d5");
    CU_ASSERT(has_move(g, &s, "exd6"));
    play(g, &s, "exd6");
    char fen[128];
    fen_of(g, &s, fen);
    CU_ASSERT_STRING_EQUAL(fen, "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
    /* horizontal pin: taking would open the rank to the rook */
    load(g, &s, "8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
    CU_ASSERT(!has_move(g, &s, "bxc6"));
    CU_ASSERT_EQUAL(s.pos.ep, CH_NO_SQ);
    /* diagonal pin of the capturing pawn */
    load(g, &s, "7k/1b6/8/2pP4/4K3/8/8/8 w - c6 0 1"); /* stays on the pin line */
    CU_ASSERT(has_move(g, &s, "dxc6"));
    load(g, &s, "7k/5b2/8/2pP4/2K5/8/8/8 w - c6 0 1"); /* leaves it */
    CU_ASSERT(!has_move(g, &s, "dxc6"));
    /* two takers, one pinned on a diagonal: only the other may take */
    load(g, &s, "8/1K6/8/3PpP2/4b3/8/8/7k w - e6 0 1");
    CU_ASSERT(has_move(g, &s, "fxe6"));
    CU_ASSERT(!has_move(g, &s, "dxe6"));
    /* the only way out of a check by the double-stepped pawn */
    load(g, &s, "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    CU_ASSERT(has_move(g, &s, "exd3"));
    game_free(g);
}

/* ---- encoding ---- */

static void test_action_encoding(void)
{
    const game_t *g = mk("chess");
    ch_state_t s;
    game_init(g, &s);
    int w, b;
    HARNESS_OK(game_action_from_string(g, &s, "e4", &w));
    CU_ASSERT_EQUAL(w, 12 * 73 + 1); /* e2, north, two squares */
    play(g, &s, "e4");
    HARNESS_OK(game_action_from_string(g, &s, "e5", &b));
    CU_ASSERT_EQUAL(b, w); /* the same move seen from Black's side */
    HARNESS_OK(game_action_from_string(g, &s, "Nf6", &b));
    CU_ASSERT(b / 73 == 6 && b % 73 >= 56 && b % 73 < 64);
    load(g, &s, "1n5k/P7/8/8/8/8/8/K7 w - - 0 1");
    int q, n, r, qx;
    HARNESS_OK(game_action_from_string(g, &s, "a8=Q", &q));
    HARNESS_OK(game_action_from_string(g, &s, "a7a8n", &n));
    HARNESS_OK(game_action_from_string(g, &s, "axb8=R", &r));
    HARNESS_OK(game_action_from_string(g, &s, "axb8Q", &qx));
    CU_ASSERT_EQUAL(q, 48 * 73 + 0);          /* queen-like, north 1 */
    CU_ASSERT_EQUAL(n, 48 * 73 + 64 + 1 * 3); /* straight underpromotion to N */
    CU_ASSERT_EQUAL(r, 48 * 73 + 64 + 2 * 3 + 2);
    CU_ASSERT_EQUAL(qx, 48 * 73 + 7 * 1 + 0); /* NE 1 */
    char text[16];
    CU_ASSERT(game_action_to_string(g, &s, n, text, sizeof text) > 0);
    CU_ASSERT_STRING_EQUAL(text, "a7a8n");
    game_free(g);
}

static void test_observation(void)
{
    const game_t *g = mk("chess");
    ch_state_t s;
    game_init(g, &s);
    play(g, &s, "e4");
    float *obs = calloc((size_t)game_obs_size(g), sizeof(float));
    game_observe(g, &s, CH_BLACK, obs);
    /* Black's pawns in its own second row, White's e-pawn on row 3 (e4 seen
     * from Black is e5 in the flipped view: row 4) */
    for (int f = 0; f < 8; f++) CU_ASSERT_EQUAL(obs[0 * 64 + 8 + f], 1.0f);
    CU_ASSERT_EQUAL(obs[6 * 64 + 4 * 8 + 4], 1.0f);
    CU_ASSERT_EQUAL(obs[14 * 64], 0.0f);
    CU_ASSERT_EQUAL(obs[15 * 64], 1.0f);
    game_observe(g, &s, CH_WHITE, obs);
    CU_ASSERT_EQUAL(obs[0 * 64 + 3 * 8 + 4], 1.0f);
    CU_ASSERT_EQUAL(obs[14 * 64], 1.0f);
    free(obs);
    game_free(g);
}

/* ---- FEN ---- */

static void test_fen_roundtrip(void)
{
    static const char *const fens[] = {
        CH_START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 17 60",
    };
    const game_t *g = mk("chess");
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        ch_state_t s;
        char out[128];
        load(g, &s, fens[i]);
        fen_of(g, &s, out);
        CU_ASSERT_STRING_EQUAL(out, fens[i]);
        CU_ASSERT_EQUAL(game_hash(g, &s), game_hash_recompute(g, &s));
    }
    /* the counters may be left out */
    ch_state_t s;
    char out[128];
    load(g, &s, "4k3/8/8/8/8/8/8/4K2R b K -");
    fen_of(g, &s, out);
    CU_ASSERT_STRING_EQUAL(out, "4k3/8/8/8/8/8/8/4K2R b K - 0 1");
    game_free(g);
}

static void test_bad_fen(void)
{
    static const struct {
        const char *fen, *word;
    } bad[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", "fields"},
        {"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "bad piece letter"},
        {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7"},
        {"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7"},
        {"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "ranks"},
        {"rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "ranks"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1", "white kings"},
        {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black kings"},
        {"4k3/8/8/8/8/8/8/3PK3 w - - 0 1", "pawn on the first or last rank"},
        {"4k3/8/8/8/8/8/PPPPPPPP/QQQ1K3 w - - 0 1", "promoted"},
        {"4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"},
        {"4k3/8/8/8/8/8/4r3/4K3 b - - 0 1", "in check but"},
        {"4k3/8/8/8/8/8/8/4K3 w K - 0 1", "no white rook on h1"},
        {"4k3/8/8/8/8/8/8/3K3R w K - 0 1", "no white king on e1"},
        {"4k3/8/8/8/8/8/8/R3K3 w QQ - 0 1", "twice"},
        {"4k3/8/8/8/8/8/8/4K3 w X - 0 1", "castling field"},
        {"4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1", "en-passant"},
        {"4k3/8/8/8/4P3/8/8/4K3 b - e3x 0 1", "en-passant"},
        {"4k3/8/8/8/8/8/8/4K3 b - e3 0 1", "en-passant"},
        {"4k3/8/8/8/8/8/8/4K3 w - - 101 1", "halfmove"},
        {"4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove"},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 0", "move number"},
    };
    const game_t *g = mk("chess");
    ch_state_t s, before;
    game_init(g, &s);
    play(g, &s, "e4 e5");
    memcpy(&before, &s, sizeof s);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = game_position_from_string(g, bad[i].fen, &s);
        CU_ASSERT_EQUAL(rc, HOYLE_EINVAL);
        const char *msg = hoyle_last_error();
        if (!strstr(msg, bad[i].word)) fprintf(stderr, "'%s' -> '%s'\n", bad[i].fen, msg);
        CU_ASSERT(strstr(msg, bad[i].word) != NULL);
        CU_ASSERT(strchr(msg, '\n') == NULL);
        CU_ASSERT(memcmp(&s, &before, sizeof s) == 0);
    }
    game_free(g);
}

/* ---- SAN ---- */

static void san_of(const game_t *g, const ch_state_t *s, const char *move, const char *want)
{
    ch_move_t m;
    char san[16];
    HARNESS_OK(ch_move_parse(&s->pos, move, &m));
    CU_ASSERT(ch_move_to_san(&s->pos, m, san, sizeof san) > 0);
    if (strcmp(san, want)) fprintf(stderr, "%s: SAN %s, want %s\n", move, san, want);
    CU_ASSERT_STRING_EQUAL(san, want);
    (void)g;
}

static void test_san(void)
{
    const game_t *g = mk("chess");
    ch_state_t s, before;
    /* knights b1/f1 both reach d2; rooks e1/e3 share a file; */
    load(g, &s, "k7/8/8/8/8/4R3/8/1N2RNK1 w - - 0 1");
    san_of(g, &s, "b1d2", "Nbd2");
    san_of(g, &s, "f1d2", "Nfd2");
    san_of(g, &s, "e3e2", "R3e2");
    san_of(g, &s, "e1e2", "R1e2");
    load(g, &s, "2k5/8/8/8/Q6Q/8/8/Q5K1 w - - 0 1");
    san_of(g, &s, "a4d4", "Qa4d4");
    san_of(g, &s, "h4d4", "Qhd4");
    san_of(g, &s, "a1d4", "Q1d4");
    load(g, &s, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    san_of(g, &s, "e1g1", "O-O");
    san_of(g, &s, "0-0-0", "O-O-O");
    load(g, &s, "1n5k/P7/8/8/8/8/8/K7 w - - 0 1");
    san_of(g, &s, "a8Q", "a8=Q");
    san_of(g, &s, "Kb2", "Kb2");
    san_of(g, &s, "axb8=N", "axb8=N");
    game_init(g, &s);
    san_of(g, &s, "g1f3", "Nf3");
    san_of(g, &s, "Ng1-f3", "Nf3");
    /* bad or ambiguous: an error naming the candidates, nothing changed */
    static const struct {
        const char *fen, *move, *word;
    } bad[] = {
        {"k7/8/8/8/8/8/8/1N2RNK1 w - - 0 1", "Nd2", "Nbd2 Nfd2"},
        {"k7/8/8/8/8/8/8/1N2RNK1 w - - 0 1", "Nd4", "not legal"},
        {"1n5k/P7/8/8/8/8/8/K7 w - - 0 1", "a8", "ambiguous"},
        {"1n5k/P7/8/8/8/8/8/K7 w - - 0 1", "Kb3", "not legal"},
        {CH_START_FEN, "e5", "not legal"},
        {CH_START_FEN, "Nxf3", "not legal"},
        {CH_START_FEN, "O-O", "not legal"},
        {CH_START_FEN, "xyz", "not a move"},
        {CH_START_FEN, "e2e5", "not legal"},
        {CH_START_FEN, "", "not a move"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        load(g, &s, bad[i].fen);
        memcpy(&before, &s, sizeof s);
        int a = -7;
        CU_ASSERT_EQUAL(game_action_from_string(g, &s, bad[i].move, &a), HOYLE_EINVAL);
        CU_ASSERT_EQUAL(a, -7);
        const char *msg = hoyle_last_error();
        if (!strstr(msg, bad[i].word)) fprintf(stderr, "'%s' -> '%s'\n", bad[i].move, msg);
        CU_ASSERT(strstr(msg, bad[i].word) != NULL);
        CU_ASSERT(game_apply_move_string(g, &s, bad[i].move) < 0);
        CU_ASSERT(memcmp(&s, &before, sizeof s) == 0);
    }
    game_free(g);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"checkmate and stalemate", test_mate_and_stalemate},
        {"fifty-move rule", test_fifty_moves},
        {"threefold repetition", test_threefold},
        {"threefold: the en-passant square counts only when usable", test_threefold_en_passant},
        {"insufficient material", test_insufficient_material},
        {"castling: check, rights lost", test_castling},
        {"en passant: pins, check evasion", test_en_passant},
        {"action encoding: mover's view, promotions", test_action_encoding},
        {"observation planes", test_observation},
        {"FEN round trips", test_fen_roundtrip},
        {"bad FEN: each class named, nothing changed", test_bad_fen},
        {"SAN out and in, ambiguous and bad moves", test_san},
        {NULL, NULL},
    };
    return harness_run("chess_rules", tests);
}
