/* test_chess_seed.c — the seed's chess records and notations: the two
 * "simple little games" replay to mate, the opening list (descriptive, as
 * printed, lines filled in where marked) gives the moves of the opening
 * book, descriptive and German read and write every legal move, bad moves
 * are one-line errors that change nothing, the 1,500-game table loads and
 * prints, and the evaluation is colour-symmetric. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "eval/opening_table.h"
#include "eval/openings.h"
#include "games/chess/chess_internal.h"
#include "games/chess/notation_seed.h"
#include "games/game.h"
#include "mcts/alphabeta.h"
#include "tests/harness.h"

#define BOOK    HOYLE_TEST_DATA "/../../configs/books/chess_seed_openings.txt"
#define RESULTS HOYLE_TEST_DATA "/../../configs/books/chess_seed_results.txt"

static const game_t *chess(void)
{
    static const game_t *g;
    if (g == NULL) HARNESS_OK(game_create("chess", &g));
    return g;
}

/* Replay `plies` (';'-separated, the data file's marks) with the
 * descriptive reader from the start; the actions go to acts. Counts the
 * filled-in lines and checks that every "TEXT {READ}" TEXT is refused.
 * Returns the number of actions, or -1 (with a message) on failure. */
static int replay_descriptive(const char *plies, ch_state_t *s, int *acts, int cap, int *filled)
{
    const game_t *g = chess();
    game_init(g, s);
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", plies);
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ";", &save); tok;
         tok = strtok_r(NULL, ";", &save)) {
        while (*tok == ' ') tok++;
        size_t len = strlen(tok);
        while (len && tok[len - 1] == ' ') tok[--len] = '\0';
        char text[64];
        if (tok[0] == '[') {
            snprintf(text, sizeof text, "%.*s", (int)(len - 2), tok + 1);
            (*filled)++;
        } else if (strchr(tok, '{')) {
            char *open = strchr(tok, '{');
            char seed[64];
            snprintf(seed, sizeof seed, "%.*s", (int)(open - tok), tok);
            snprintf(text, sizeof text, "%.*s", (int)(strcspn(open + 1, "}")), open + 1);
            ch_move_t m;
            CU_ASSERT_EQUAL(ch_descriptive_parse(&s->pos, seed, &m), HOYLE_EINVAL);
        } else {
            snprintf(text, sizeof text, "%s", tok);
        }
        ch_move_t m;
        if (ch_descriptive_parse(&s->pos, text, &m) != HOYLE_OK || n >= cap) {
            fprintf(stderr, "ply %d '%s': %s\n", n + 1, text, hoyle_last_error());
            return -1;
        }
        acts[n++] = ch_move_to_action(&s->pos, m);
        ch_state_make(ch_game(g), s, m);
    }
    return n;
}

static void test_book_loads(void)
{
    opening_list_t l;
    HARNESS_OK(openings_load_book(chess(), BOOK, &l));
    CU_ASSERT_EQUAL(l.n, 60);
    ch_state_t s;
    for (int i = 0; i < l.n; i++) {
        HARNESS_OK(opening_apply(chess(), &l.items[i], &s));
        CU_ASSERT(l.items[i].num_actions == 8 || l.items[i].num_actions == 9);
    }
    opening_list_done(&l);
}

/* Every opening of the seed's list, read in descriptive as printed (with
 * the marked fill-ins and readings), is the book's opening of that name. */
static void test_descriptive_list_is_the_book(void)
{
    opening_list_t l;
    HARNESS_OK(openings_load_book(chess(), BOOK, &l));
    char *text = harness_read_data("chess/seed_openings_descriptive.txt");
    CU_ASSERT_FATAL(text != NULL);
    int seen = 0, filled = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || line[0] == '\0') continue;
        char *bar = strchr(line, '|');
        CU_ASSERT_FATAL(bar != NULL);
        char name[96];
        snprintf(name, sizeof name, "%.*s", (int)(bar - line - 1), line);
        const opening_t *o = NULL;
        for (int i = 0; i < l.n; i++)
            if (strcmp(l.items[i].name, name) == 0) o = &l.items[i];
        if (o == NULL) fprintf(stderr, "no book opening '%s'\n", name);
        CU_ASSERT_FATAL(o != NULL);
        ch_state_t s;
        int acts[32];
        int n = replay_descriptive(bar + 1, &s, acts, 32, &filled);
        CU_ASSERT_EQUAL(n, o->num_actions);
        if (n == o->num_actions && memcmp(acts, o->actions, sizeof(int) * (size_t)n) != 0) {
            fprintf(stderr, "'%s': descriptive and book differ\n", name);
            CU_FAIL("descriptive and book differ");
        }
        seen++;
    }
    CU_ASSERT_EQUAL(seen, l.n);
    CU_ASSERT_EQUAL(filled, 79); /* the lines docs/games/chess.md says were filled in */
    free(text);
    opening_list_done(&l);
}

/* The two "simple little games": White mates with Kt-Q5, Black with B-Kt5.
 * Black's first replies (P-K4 after P-K4; and Kt-KB3 after Kt-KB3 in the
 * second) were dropped by text extraction and are filled in. */
static void test_seed_games_mate(void)
{
    static const char *const games[2] = {
        "P-K4 ; [P-K4] ; Kt-KB3 ; P-Q3 ; Kt-QB3 ; P-KR3 ; B-B4 ; B-Kt5 ; KtxP ; BxQ ; BxKBP ch ; "
        "K-K2 ; Kt-Q5 mate",
        "P-K4 ; [P-K4] ; Kt-KB3 ; [Kt-KB3] ; KtxP ; Kt-QB3 ; KtxKt ; QPxKt ; P-Q3 ; B-QB4 ; B-Kt5 "
        "; KtxP ; BxQ ; BxP ch ; K-K2 ; B-Kt5 mate"};
    static const int winner[2] = {CH_WIN_WHITE, CH_WIN_BLACK}, plies[2] = {13, 16};
    for (int k = 0; k < 2; k++) {
        ch_state_t s;
        int acts[32], filled = 0;
        CU_ASSERT_EQUAL(replay_descriptive(games[k], &s, acts, 32, &filled), plies[k]);
        CU_ASSERT_EQUAL(filled, k + 1);
        CU_ASSERT_EQUAL(s.result, winner[k]);
        CU_ASSERT_EQUAL(s.reason, CH_END_MATE);
    }
}

/* Writers read back; the chain reads every notation. */
static void check_all_moves(const ch_pos_t *p)
{
    ch_move_t moves[CH_MAX_MOVES];
    int n = ch_gen_legal(p, moves);
    for (int i = 0; i < n; i++) {
        char d[64], gm[64];
        ch_move_t m = 0, m2 = 0, m3 = 0, m4 = 0;
        CU_ASSERT(ch_move_to_descriptive(p, moves[i], d, sizeof d) > 0);
        CU_ASSERT(ch_move_to_german(p, moves[i], gm, sizeof gm) > 0);
        CU_ASSERT_EQUAL(ch_descriptive_parse(p, d, &m), HOYLE_OK);
        CU_ASSERT_EQUAL(ch_german_parse(p, gm, &m2), HOYLE_OK);
        CU_ASSERT_EQUAL(ch_move_parse_any(p, d, &m3), HOYLE_OK);
        CU_ASSERT_EQUAL(ch_move_parse_any(p, gm, &m4), HOYLE_OK);
        if (m != moves[i] || m2 != moves[i] || m3 != moves[i] || m4 != moves[i]) {
            char fen[100];
            ch_fen_write(p, 1, fen, sizeof fen);
            fprintf(stderr, "%s: '%s' / '%s' do not read back\n", fen, d, gm);
            CU_FAIL("a written move does not read back");
            return;
        }
    }
}

static void test_round_trip(void)
{
    const char *slow = getenv("HOYLE_SLOW_TESTS");
    int games = slow && strcmp(slow, "0") == 0 ? 4 : 40;
    rng_t r;
    rng_init(&r, 7);
    const game_t *g = chess();
    ch_state_t s;
    int legal[CH_MAX_MOVES];
    for (int k = 0; k < games; k++) {
        game_init(g, &s);
        for (int ply = 0; ply < 200 && !game_is_terminal(g, &s); ply++) {
            check_all_moves(&s.pos);
            int n = game_legal_actions(g, &s, legal);
            for (int i = 0; i < n; i++) { /* the fast noisy test agrees with the move */
                ch_move_t m = ch_action_to_move(&s.pos, legal[i]);
                CU_ASSERT_EQUAL(game_is_noisy(g, &s, legal[i]),
                                ch_is_capture(&s.pos, m) || ch_is_promo(m));
            }
            game_apply(g, &s, legal[rng_below(&r, (uint32_t)n)]);
        }
    }
    /* promotions, en passant and both castlings */
    static const char *const fens[] = {
        "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",
        "r3k2r/1P4P1/8/8/3Pp3/8/1p4p1/R3K2R b KQkq d3 0 1",
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    };
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        HARNESS_OK(game_position_from_string(g, fens[i], &s));
        check_all_moves(&s.pos);
    }
}

static void expect_error(const char *fen, const char *text, const char *needle)
{
    const game_t *g = chess();
    ch_state_t s, before;
    if (fen)
        HARNESS_OK(game_position_from_string(g, fen, &s));
    else
        game_init(g, &s);
    before = s;
    int rc = game_apply_move_string(g, &s, text);
    CU_ASSERT_EQUAL(rc, HOYLE_EINVAL);
    CU_ASSERT(memcmp(&s, &before, sizeof s) == 0);
    const char *msg = hoyle_last_error();
    CU_ASSERT(strchr(msg, '\n') == NULL);
    if (strstr(msg, needle) == NULL) {
        fprintf(stderr, "'%s': message '%s' lacks '%s'\n", text, msg, needle);
        CU_FAIL("error message");
    }
}

static void test_bad_moves(void)
{
    expect_error(NULL, "Kt-B3", "ambiguous for White: Kt-QB3 (Nc3), Kt-KB3 (Nf3)");
    expect_error(NULL, "P-K5", "not legal for White; the Pawn's moves: P-QR3 (a3)");
    expect_error(NULL, "Q-Q4", "the Queen's moves: none");
    expect_error(NULL, "P-K9", "rank 1-8");
    expect_error(NULL, "KQ-K4", "no man is named");
    expect_error(NULL, "Castles", "the King's moves: none");
    expect_error(NULL, "e2-e5", "not legal; the man on e2 can play: e2-e3, e2-e4");
    expect_error(NULL, "Lg1-f3", "the man on g1 is S, not L");
    expect_error(NULL, "Sg1nf3", "nothing is captured, write '-'");
    expect_error(NULL, "e7-e5", "no man of the side to move on e7");
    expect_error(NULL, "0-0", "cannot castle");
    /* after 1 P-K4 P-K4 2 Kt-KB3 Kt-QB3 */
    expect_error("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "Sf3-e5",
                 "the move captures, write 'n'");
    expect_error("rnbqkbnr/ppp2ppp/8/3pp3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 0 3", "KtxP",
                 "the Knight's moves:");
}

/* The seed's own examples: Diagram No. 11 ("supposing the white Queen to
 * arrive from K8"), Diagram No. 12, and "K B x Q P". */
static void test_seed_examples(void)
{
    const game_t *g = chess();
    ch_state_t s;
    HARNESS_OK(game_position_from_string(g, "kq2Q3/p7/rp6/1K6/8/8/8/8 w - - 0 1", &s));
    ch_state_t t = s;
    char buf[64];
    static const char *const english[] = {"Q-B 6, ch", "Q-Kt 2", "Q-K 8, ch", "Q-Kt's"};
    static const char *const written[] = {"Q-B6 ch", "Q-Kt2", "Q-K8 ch", "Q-Kt sq"};
    static const char *const german[] = {"D e 8-c 6 +", "D b 8-b 7", "Dc6-e8+", "Db7-b8"};
    static const char *const germ_w[] = {"De8-c6+", "Db8-b7", "Dc6-e8+", "Db7-b8"};
    for (int i = 0; i < 4; i++) {
        ch_move_t m, m2;
        HARNESS_OK(ch_descriptive_parse(&s.pos, english[i], &m));
        HARNESS_OK(ch_german_parse(&s.pos, german[i], &m2));
        CU_ASSERT_EQUAL(m, m2);
        ch_move_to_descriptive(&s.pos, m, buf, sizeof buf);
        CU_ASSERT_STRING_EQUAL(buf, written[i]);
        ch_move_to_german(&s.pos, m, buf, sizeof buf);
        CU_ASSERT_STRING_EQUAL(buf, germ_w[i]);
        ch_state_make(ch_game(g), &s, m);
    }
    /* "Q-Q Kt 2", the unabbreviated form of Black's reply */
    ch_move_t m, m2;
    HARNESS_OK(ch_descriptive_parse(&t.pos, "Q-B6ch", &m));
    ch_state_make(ch_game(g), &t, m);
    HARNESS_OK(ch_descriptive_parse(&t.pos, "Q-Q Kt 2", &m));
    HARNESS_OK(ch_german_parse(&t.pos, "Db8-b7", &m2));
    CU_ASSERT_EQUAL(m, m2);
    /* Diagram No. 12: P-K 4, K Kt-B 3 or Kt-K B 3; e 2-e 4; S g 1-f 3; S f 3 n e 5 */
    game_init(g, &s);
    HARNESS_OK(game_apply_move_string(g, &s, "e 2-e 4"));
    HARNESS_OK(game_apply_move_string(g, &s, "P-K 4"));
    t = s;
    HARNESS_OK(game_apply_move_string(g, &t, "K Kt-B 3"));
    HARNESS_OK(game_apply_move_string(g, &s, "S g 1-f 3"));
    CU_ASSERT_EQUAL(s.pos.key, t.pos.key);
    HARNESS_OK(game_apply_move_string(g, &s, "Kt-QB3"));
    HARNESS_OK(game_apply_move_string(g, &s, "S f 3 n e 5"));
    CU_ASSERT_EQUAL(s.pos.board[36], CH_KNIGHT); /* a white Knight on e5 */
    /* K B x Q P: 1 P-K4 P-K4 2 B-B4 P-Q4 3 KBxQP */
    game_init(g, &s);
    HARNESS_OK(game_apply_move_string(g, &s, "e4"));
    HARNESS_OK(game_apply_move_string(g, &s, "e5"));
    HARNESS_OK(game_apply_move_string(g, &s, "Bc4"));
    HARNESS_OK(game_apply_move_string(g, &s, "d5"));
    HARNESS_OK(game_apply_move_string(g, &s, "K B x Q P"));
    CU_ASSERT_EQUAL(s.pos.board[35], CH_BISHOP);
}

static void test_game_text(void)
{
    const game_t *g = chess();
    ch_state_t s, start;
    game_init(g, &start);
    s = start;
    int acts[8], n = 0;
    for (const char *mv = "e4 e5 Nf3 Nc6 Bb5 a6 O-O"; *mv;) {
        char t[8];
        int k = 0;
        while (*mv && *mv != ' ') t[k++] = *mv++;
        t[k] = '\0';
        while (*mv == ' ') mv++;
        HARNESS_OK(game_action_from_string(g, &s, t, &acts[n]));
        game_apply(g, &s, acts[n++]);
    }
    char buf[256];
    CU_ASSERT(ch_game_to_notation(g, &start, acts, n, CH_NOTE_DESCRIPTIVE, buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "1. P-K4 P-K4 2. Kt-KB3 Kt-QB3 3. B-Kt5 P-QR3 4. O-O");
    CU_ASSERT(ch_game_to_notation(g, &start, acts, n, CH_NOTE_GERMAN, buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "1. e2-e4 e7-e5 2. Sg1-f3 Sb8-c6 3. Lf1-b5 a7-a6 4. 0-0");
    CU_ASSERT_EQUAL(ch_game_to_notation(g, &start, acts, n, CH_NOTE_GERMAN, buf, 20), HOYLE_EFULL);
}

static void test_seed_table(void)
{
    otable_t t;
    HARNESS_OK(otable_load(RESULTS, &t));
    CU_ASSERT_EQUAL(t.n_rows, 18);
    CU_ASSERT(t.won == 697 && t.lost == 542 && t.drew == 261 && t.total == 1500);
    CU_ASSERT(t.pct_won == 55.2);
    /* every opening a row names is in the book */
    opening_list_t l;
    HARNESS_OK(openings_load_book(chess(), BOOK, &l));
    for (int i = 0; i < t.n_rows; i++)
        for (int k = 0; k < t.rows[i].n_openings; k++) {
            int found = 0;
            for (int j = 0; j < l.n; j++)
                found |= strcmp(l.items[j].name, t.rows[i].openings[k]) == 0;
            if (!found)
                fprintf(stderr, "table row '%s': no opening '%s'\n", t.rows[i].name,
                        t.rows[i].openings[k]);
            CU_ASSERT(found);
        }
    opening_list_done(&l);
    CU_ASSERT_STRING_EQUAL(t.rows[otable_row_of(&t, "King's Gambit 3")].name, "King's Gambit");
    CU_ASSERT_STRING_EQUAL(t.rows[otable_row_of(&t, "Four Knights")].name, "Miscellaneous");
    /* The chapter's notes (a) and (b): the Queen's Gambits count as Queen's
     * Pawn, the Centre Counter Gambit as Centre Gambit; the Queen's Pawn
     * Counter Gambit (an open game) stays in Miscellaneous. */
    CU_ASSERT_STRING_EQUAL(t.rows[otable_row_of(&t, "Queen's Gambit 1")].name, "Queen's Pawn(a)");
    CU_ASSERT_STRING_EQUAL(t.rows[otable_row_of(&t, "Queen's Gambit 3")].name, "Queen's Pawn(a)");
    CU_ASSERT_STRING_EQUAL(t.rows[otable_row_of(&t, "Centre Counter Gambit")].name,
                           "Centre Gambit(b)");
    CU_ASSERT_STRING_EQUAL(t.rows[otable_row_of(&t, "Queen's Pawn Counter Gambit")].name,
                           "Miscellaneous");
    /* printed: our figures beside the seed's */
    elo_group_t groups[3] = {
        {"Ruy Lopez", 2, 1, 1}, {"Evans' Gambit", 1, 0, 0}, {"Jerome Gambit", 0, 0, 2}};
    char *out = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&out, &size);
    HARNESS_OK(otable_print(f, &t, groups, 3));
    fclose(f);
    CU_ASSERT(strstr(out, "Ruy Lopez                  2     1     1      4   62.5   57.1     145   "
                          "103    58    306     57     20") != NULL);
    CU_ASSERT(strstr(out, "Evans                      1     0     0      1  100.0   14.3      34   "
                          " 20    12     66     61      4") != NULL);
    CU_ASSERT(strstr(out, "Miscellaneous              0     2     0      2    0.0   28.6") != NULL);
    CU_ASSERT(strstr(out, "Total                      3     3     1      7   50.0  100.0     697   "
                          "542   261   1500     55    100") != NULL);
    CU_ASSERT(strstr(out, "won 50.0 per cent of games played, counting drawn games as one-half "
                          "(the seed: 55.2)") != NULL);
    free(out);
    otable_done(&t);
    /* a row whose figures do not add up is refused, naming the line */
    char path[512];
    harness_tmp_path(path, sizeof path, "hoyle_otable_XXXXXX");
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    f = fdopen(fd, "w");
    fputs("# bad\nA | 1 2 3 7 50 100 | x\nTotal | 1 2 3 7 50\n", f);
    fclose(f);
    CU_ASSERT_EQUAL(otable_load(path, &t), HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), ":2: row 'A': 1 + 2 + 3 is not 7") != NULL);
    remove(path);
}

/* The evaluation of a position and of its colour mirror are opposite. */
/* The evaluation of fixed positions (middlegames, pawn endings with passed,
 * doubled and isolated pawns), standard and the seed's values: the figures
 * of the per-pawn evaluation the set-wise pawn terms replaced. */
static void test_eval_fixed(void)
{
    static const struct {
        const char *fen;
        int standard, seed;
    } cases[] = {
        {"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8", 54, 54},
        {"2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1", 120, 120},
        {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 141, 141},
        {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", -35, -35},
        {"4k3/1p4pp/p1p5/P7/2P1P3/3P4/5PPP/4K3 w - - 0 1", 265, 265},
        {"8/3k4/2p5/2P5/p2P4/P7/1K6/8 w - - 0 1", 100, 100},
        {"6k1/5p2/4p1p1/1P5p/P2P3P/6P1/5PK1/8 b - - 0 40", 310, 310},
        {"8/1p3k2/1P6/3p4/3P2PP/5K2/8/8 w - - 0 50", 350, 350},
        {"r1bq1rk1/pp2bppp/4pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8", 382, 412},
    };
    const game_t *g = chess();
    ch_game_t seed = {.material_draw = true, .seed_values = true};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ch_state_t s;
        HARNESS_OK(game_position_from_string(g, cases[i].fen, &s));
        CU_ASSERT_EQUAL(ch_evaluate_cp(NULL, &s.pos), cases[i].standard);
        CU_ASSERT_EQUAL(ch_evaluate_cp(&seed, &s.pos), cases[i].seed);
    }
}

static void test_eval_symmetric(void)
{
    const game_t *g = chess();
    rng_t r;
    rng_init(&r, 11);
    ch_state_t s;
    int legal[CH_MAX_MOVES], bad = 0;
    for (int k = 0; k < 20; k++) {
        game_init(g, &s);
        for (int ply = 0; ply < 80 && !game_is_terminal(g, &s); ply++) {
            ch_pos_t m;
            ch_pos_clear(&m);
            for (int sq = 0; sq < 64; sq++)
                if (s.pos.board[sq] != CH_EMPTY) {
                    int pc = s.pos.board[sq];
                    ch_pos_put(&m, (1 - ch_piece_color(pc)) * 6 + ch_piece_type(pc), sq ^ 56);
                }
            if (ch_evaluate_cp(NULL, &s.pos) != -ch_evaluate_cp(NULL, &m)) bad++;
            int n = game_legal_actions(g, &s, legal);
            game_apply(g, &s, legal[rng_below(&r, (uint32_t)n)]);
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    /* the seed's values: a Rook for a Knight is worth more than standard */
    ch_state_t a;
    HARNESS_OK(game_position_from_string(g, "4k3/8/8/8/8/8/8/R3K1n1 w - - 0 1", &a));
    ch_game_t seed = {.material_draw = true, .seed_values = true};
    CU_ASSERT(ch_evaluate_cp(&seed, &a.pos) - ch_evaluate_cp(NULL, &a.pos) == 450 - 30);
    CU_ASSERT(ch_evaluate(g, &a, CH_WHITE) > 0 && ch_evaluate(g, &a, CH_BLACK) < 0);
}

/* Check extension and quiescence in check: a mate in two found at depth 2
 * only because the check (depth 1 left) is extended. */
static void test_search_extends_checks(void)
{
    const game_t *g = chess();
    ch_state_t s;
    /* 1 R-Q8 ch RxR 2 RxR mate (back rank): depth 2 reaches it only by
     * extending the check */
    HARNESS_OK(game_position_from_string(g, "3r2k1/5ppp/8/8/8/8/5PPP/3RR1K1 w - - 0 1", &s));
    ab_params_t p;
    ab_params_default(&p);
    p.max_depth = 2;
    p.quiescence = true;
    ab_t *t;
    HARNESS_OK(ab_create(g, &p, &t));
    const ab_result_t *res;
    HARNESS_OK(ab_search(t, &s, &res));
    char mv[16];
    game_action_to_string(g, &s, res->best_action, mv, sizeof mv);
    CU_ASSERT_STRING_EQUAL(mv, "d1d8");
    CU_ASSERT(res->value > 0.999);
    ab_free(t);
}

/* Brute-force references with alphabeta.h's rules: the check extension
 * (a move into check costs no depth below ply 2 * root) and quiescence that
 * stands pat unless in check, where every move is searched. */
static int forcing_nodes;

/* Apply `a` to a copy of `s` in *c; true (and the mover's return in *v)
 * when the game ends there. */
static bool ends(const game_t *g, const ch_state_t *s, int a, ch_state_t *c, double *v)
{
    int player = game_current_player(g, s);
    *c = *s;
    game_apply(g, c, a);
    if (!game_is_terminal(g, c)) return false;
    double r[2];
    game_returns(g, c, r);
    *v = r[player];
    return true;
}

static double ref_q(const game_t *g, const ch_state_t *s, int qd)
{
    int player = game_current_player(g, s);
    bool forcing = qd > 0 && game_is_forcing(g, s);
    double best = forcing ? -1e9 : game_evaluate(g, s, player);
    if (!forcing && qd <= 0) return best;
    forcing_nodes += forcing;
    int legal[CH_MAX_MOVES], n = game_legal_actions(g, s, legal);
    for (int i = 0; i < n; i++) {
        if (!forcing && !game_is_noisy(g, s, legal[i])) continue;
        ch_state_t c;
        double v;
        if (!ends(g, s, legal[i], &c, &v)) v = -ref_q(g, &c, qd - 1);
        if (v > best) best = v;
    }
    return best;
}

static double ref_search(const game_t *g, const ch_state_t *s, int depth, int ply, int root, int qd)
{
    if (depth <= 0) return ref_q(g, s, qd);
    int legal[CH_MAX_MOVES], n = game_legal_actions(g, s, legal);
    double best = -1e9;
    for (int i = 0; i < n; i++) {
        ch_state_t c;
        double v;
        if (!ends(g, s, legal[i], &c, &v)) {
            int d = depth - 1;
            if (ply < 2 * root && game_is_forcing(g, &c)) d = depth;
            v = -ref_search(g, &c, d, ply + 1, root, qd);
        }
        if (v > best) best = v;
    }
    return best;
}

static void test_search_equals_reference(void)
{
    const game_t *g = chess();
    rng_t r;
    rng_init(&r, 5);
    ab_params_t p;
    ab_params_default(&p);
    p.max_depth = 1;
    p.quiescence = true;
    p.qdepth = 3;
    ab_t *t, *t2; /* depth 1, and depth 2 (PVS's null windows into quiescence) */
    HARNESS_OK(ab_create(g, &p, &t));
    p.max_depth = 2;
    HARNESS_OK(ab_create(g, &p, &t2));
    int bad = 0, done = 0, legal[CH_MAX_MOVES];
    forcing_nodes = 0;
    for (int k = 0; k < 400 && done < 40; k++) {
        ch_state_t s;
        game_init(g, &s);
        int plies = 10 + (int)rng_below(&r, 40);
        for (int i = 0; i < plies && !game_is_terminal(g, &s); i++)
            game_apply(g, &s, legal[rng_below(&r, (uint32_t)game_legal_actions(g, &s, legal))]);
        if (game_is_terminal(g, &s)) continue;
        int depth = 1 + done % 2;
        double want = ref_search(g, &s, depth, 0, depth, 3);
        const ab_result_t *res;
        ab_t *ab = depth == 1 ? t : t2;
        ab_clear(ab);
        HARNESS_OK(ab_search(ab, &s, &res));
        if (fabs(res->value - want) > 1e-9) bad++;
        done++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(done >= 30);
    CU_ASSERT(forcing_nodes > 0);
    ab_free(t);
    ab_free(t2);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"the opening book loads", test_book_loads},
        {"the seed's list in descriptive is the book", test_descriptive_list_is_the_book},
        {"the two simple little games end in mate", test_seed_games_mate},
        {"descriptive and German read back every move", test_round_trip},
        {"bad moves: one-line errors, nothing changed", test_bad_moves},
        {"the seed's notation examples", test_seed_examples},
        {"a game in descriptive and German", test_game_text},
        {"the 1,500-game table", test_seed_table},
        {"evaluation: colour symmetry, the seed's values", test_eval_symmetric},
        {"evaluation: fixed positions", test_eval_fixed},
        {"search: check extension finds a back-rank mate", test_search_extends_checks},
        {"search: check extension and quiescence in check as documented",
         test_search_equals_reference},
        {NULL, NULL},
    };
    return harness_run("chess_seed", tests);
}
