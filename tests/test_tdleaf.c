/* test_tdleaf.c — TDLeaf(λ) and the weighted heuristics it learns
 * (train/tdleaf.h, mcts/eval_linear.h): the update of a constructed game
 * equals the formula computed by hand; the hand-set weights reproduce each
 * game's heuristic; with quiescence in the principal variation, the search's
 * value is the static value of its leaf (what TDLeaf learns from); weight
 * files round-trip, are refused when foreign or damaged, and change the
 * alpha-beta agent's play. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/rng.h"
#include "games/game.h"
#include "games/playout.h"
#include "mcts/agent.h"
#include "mcts/alphabeta.h"
#include "mcts/eval_linear.h"
#include "tests/harness.h"
#include "train/tdleaf.h"

/* The game `spec` and its hand-set weights in *e; a failed call is a failed assertion (and
 * NULL when the game cannot be made). */
static const game_t *linear_game(const char *spec, eval_linear_t *e)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create(spec, &g));
    if (g) HARNESS_OK(eval_linear_default(g, e));
    return g;
}

/* v = (0.2, -0.1, 0.4) then the result 1; three terms per leaf (men, kings, and the back
 * row, hand-set weight 0); with scale_rate r the step g gains r (g . w / w . w) w, the part
 * along the weights; with new_rate q the back row's part of g is q times its own. */
static void check_update_by_hand(double scale_rate, double new_rate)
{
    eval_linear_t e;
    const game_t *g = linear_game("checkers", &e);
    CU_ASSERT_STRING_EQUAL(e.names[5], "back_row");
    double w0[GAME_MAX_TERMS];
    memcpy(w0, e.w, sizeof w0);
    CU_ASSERT(w0[0] != 0 && w0[1] != 0 && w0[5] == 0);
    const int col[3] = {0, 1, 5};
    double v[4] = {0.2, -0.1, 0.4, 1.0}, terms[3 * GAME_MAX_TERMS] = {0};
    double t[3][3] = {{1, 2, 1}, {3, -1, 0}, {0.5, 4, 2}};
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++) terms[k * GAME_MAX_TERMS + col[c]] = t[k][c];
    tdleaf_params_t p = {
        .alpha = 0.1, .lambda = 0.5, .scale_rate = scale_rate, .new_rate = new_rate};
    double absd = 0;
    tdleaf_update(&e, v, terms, 3, &p, &absd);
    double d[3] = {v[1] - v[0], v[2] - v[1], v[3] - v[2]};
    double s[3];
    s[2] = d[2];
    s[1] = d[1] + p.lambda * d[2];
    s[0] = d[0] + p.lambda * d[1] + p.lambda * p.lambda * d[2];
    double step[GAME_MAX_TERMS] = {0}, along = 0, norm = 0;
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++) step[col[c]] += (1 - v[k] * v[k]) * t[k][c] * s[k];
    for (int i = 0; i < e.n; i++) {
        along += step[i] * w0[i];
        norm += w0[i] * w0[i];
    }
    for (int i = 0; i < e.n; i++) {
        double rate = i == 5 ? new_rate : 1;
        double want = w0[i] + p.alpha * (rate * step[i] + scale_rate * along / norm * w0[i]);
        CU_ASSERT_DOUBLE_EQUAL(e.w[i], want, 1e-12);
        if (scale_rate == 0 && step[i] == 0) CU_ASSERT_EQUAL(e.w[i], w0[i]); /* no change */
    }
    CU_ASSERT(e.w[5] != 0);
    CU_ASSERT_DOUBLE_EQUAL(absd, fabs(d[0]) + fabs(d[1]) + fabs(d[2]), 1e-12);
    game_free(g);
}

static void test_update_by_hand(void) { check_update_by_hand(0, 1); }

/* The scaled rule moves every weight, the zero terms' too, along w. */
static void test_update_scale_rate(void) { check_update_by_hand(20, 1); }

/* The terms at hand-set weight 0 learn new_rate times faster. */
static void test_update_new_rate(void) { check_update_by_hand(0, 7); }

/* Random positions of `spec` (a few random actions from the start). */
static int random_position(const game_t *g, rng_t *rng, void *s, int plies)
{
    int legal[1024];
    double probs[1024];
    game_init(g, s);
    for (int i = 0; i < plies && !game_is_terminal(g, s); i++)
        game_apply(g, s, game_random_action(g, s, rng, legal, probs));
    return !game_is_terminal(g, s);
}

/* The games with a linear model, and how far eval_linear may be from the heuristic:
 * chess's taper divides by 24 in integers (at most 1 cp, 1/1000 before tanh). */
static const struct {
    const char *spec;
    double tolerance;
} linear_games[] = {{"checkers", 1e-12}, {"chess", 1.01e-3},
                    {"fanorona", 1e-12}, {"fanorona(vela=true)", 1e-12},
                    {"foxgeese", 1e-12}, {"foxgeese(geese=13,fox=24)", 1e-12}};
enum { LINEAR_GAMES = sizeof linear_games / sizeof linear_games[0] };

/* Every term is `player`'s minus the opponent's (or signed by the side to move). */
static void check_terms_antisymmetric(const game_t *g, const eval_linear_t *e, const void *s)
{
    double t0[GAME_MAX_TERMS], t1[GAME_MAX_TERMS];
    eval_linear_value(e, s, 0, t0);
    eval_linear_value(e, s, 1, t1);
    for (int i = 0; i < e->n; i++) {
        CU_ASSERT_DOUBLE_EQUAL(t0[i], -t1[i], 1e-12);
        if (fabs(t0[i] + t1[i]) > 1e-12)
            printf("\n  %s: term %s %g for 0, %g for 1\n", g->spec, e->names[i], t0[i], t1[i]);
    }
}

static void test_default_weights_are_the_heuristic(void)
{
    for (int k = 0; k < LINEAR_GAMES; k++) {
        eval_linear_t e;
        const game_t *g = linear_game(linear_games[k].spec, &e);
        rng_t rng;
        rng_init(&rng, 11);
        char *s = malloc(g->state_size);
        int checked = 0;
        double worst = 0;
        for (int i = 0; i < 300; i++) {
            if (!random_position(g, &rng, s, (int)rng_below(&rng, 60))) continue;
            for (int p = 0; p < 2; p++) {
                double a = eval_linear_value(&e, s, p, NULL), b = game_evaluate(g, s, p);
                if (fabs(a - b) > worst) worst = fabs(a - b);
                checked++;
            }
            check_terms_antisymmetric(g, &e, s);
        }
        CU_ASSERT(worst < linear_games[k].tolerance);
        CU_ASSERT(checked > 300);
        if (worst >= linear_games[k].tolerance) printf("\n  %s: off by %g\n", g->spec, worst);
        free(s);
        game_free(g);
    }
    const game_t *g = NULL;
    eval_linear_t e;
    HARNESS_OK(game_create("checkers(variant=losing)", &g));
    CU_ASSERT(eval_linear_default(g, &e) < 0); /* no linear model for this variant */
    game_free(g);
}

/* The eval_dot slot (chess's sums only the men's square terms) equals the dense sum
 * w . terms at random weights; chess has its 384 square terms after the 42 groups, then the
 * 30 learned terms. */
static void test_eval_dot_is_the_dense_sum(void)
{
    for (int k = 0; k < LINEAR_GAMES; k++) {
        eval_linear_t e;
        const game_t *g = linear_game(linear_games[k].spec, &e);
        if (strcmp(linear_games[k].spec, "chess") == 0) {
            CU_ASSERT_EQUAL(e.n, 42 + 384 + 30);
            CU_ASSERT_STRING_EQUAL(e.names[42], "pst_pawn_a8_mg");
            CU_ASSERT_STRING_EQUAL(e.names[42 + 383], "pst_king_d1_eg");
            CU_ASSERT_STRING_EQUAL(e.names[e.n - 1], "passed_king_eg");
        }
        rng_t rng;
        rng_init(&rng, 12);
        for (int i = 0; i < e.n; i++) e.w[i] = 2 * rng_double(&rng) - 1;
        char *s = malloc(g->state_size);
        double worst = 0, t[GAME_MAX_TERMS];
        int checked = 0;
        for (int i = 0; i < 200; i++) {
            if (!random_position(g, &rng, s, (int)rng_below(&rng, 60))) continue;
            for (int p = 0; p < 2; p++) {
                int n = game_eval_terms(g, s, p, t, NULL, NULL);
                double dense = 0, dot = game_eval_dot(g, s, p, e.w, e.n);
                for (int j = 0; j < n; j++) dense += e.w[j] * t[j];
                if (fabs(dense - dot) > worst) worst = fabs(dense - dot);
                checked++;
            }
        }
        CU_ASSERT(checked > 200);
        CU_ASSERT(worst < 1e-9);
        if (worst >= 1e-9) printf("\n  %s: eval_dot off by %g\n", g->spec, worst);
        free(s);
        game_free(g);
    }
}

/* Chess's square terms by hand: a man's term is its piece and square seen from its own side,
 * folded left-right, tapered by the phase (24 at the start), in units of 100 cp (x 0.1). */
static void test_chess_square_terms(void)
{
    eval_linear_t e;
    const game_t *g = linear_game("chess", &e);
    int b1 = -1, c3 = -1;
    for (int i = 0; i < e.n; i++) {
        if (strcmp(e.names[i], "pst_knight_b1_mg") == 0) b1 = i;
        if (strcmp(e.names[i], "pst_knight_c3_mg") == 0) c3 = i;
    }
    CU_ASSERT_FATAL(b1 > 0 && c3 > 0);
    CU_ASSERT_STRING_EQUAL(e.names[b1 + 1], "pst_knight_b1_eg");
    char *s = malloc(g->state_size);
    double t[GAME_MAX_TERMS];
    /* Nf3 is Nc3's mirror (the same terms); Black's Nc6 mirrors White's Nf3 across the board */
    const char *lines[3][2] = {{"Nc3", NULL}, {"Nf3", NULL}, {"Nf3", "Nc6"}};
    const double want_b1[] = {-0.1, -0.1, 0}, want_c3[] = {0.1, 0.1, 0};
    for (int k = 0; k < 3; k++) {
        game_init(g, s);
        for (int j = 0; j < 2 && lines[k][j]; j++)
            HARNESS_OK(game_apply_move_string(g, s, lines[k][j]));
        eval_linear_value(&e, s, 0, t); /* White's view */
        CU_ASSERT_DOUBLE_EQUAL(t[b1], want_b1[k], 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(t[c3], want_c3[k], 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(t[b1 + 1], 0, 1e-12); /* the endgame part at phase 24 */
        eval_linear_value(&e, s, 1, t);              /* Black's view: the same, negated */
        CU_ASSERT_DOUBLE_EQUAL(t[b1], -want_b1[k], 1e-12);
    }
    free(s);
    game_free(g);
}

/* The index of chess term `name`, or -1. */
static int term_index(const eval_linear_t *e, const char *name)
{
    for (int i = 0; i < e->n; i++)
        if (strcmp(e->names[i], name) == 0) return i;
    return -1;
}

/* Chess's learned terms by hand, in a position where White's pawn d5 attacks Black's
 * undefended knight c6 and White's rook stands on the seventh rank of a file with White's
 * passed pawn; phase 3 (a knight and a rook), so a count is 100 cp x 3/24 in the middlegame
 * part and x 21/24 in the endgame's, in units of 1000 cp. With White to move the threats are
 * the mover's; with Black to move the same threats are the waiter's. */
static void test_chess_learned_terms(void)
{
    eval_linear_t e;
    const game_t *g = linear_game("chess", &e);
    char *s = malloc(g->state_size);
    double t[GAME_MAX_TERMS];
    const char *fen[2] = {"6k1/3R4/2n5/3P4/8/8/8/6K1 w - - 0 1",
                          "6k1/3R4/2n5/3P4/8/8/8/6K1 b - - 0 1"};
    const double mg = 100 * 3 / 24000.0, eg = 100 * 21 / 24000.0;
    for (int k = 0; k < 2; k++) {
        HARNESS_OK(game_position_from_string(g, fen[k], s));
        eval_linear_value(&e, s, 0, t);
        const char *mover = k == 0 ? "mover" : "waiter", *other = k == 0 ? "waiter" : "mover";
        struct {
            char name[64];
            double want; /* the count, White's minus Black's */
        } rows[] = {{"tempo", k == 0 ? 1 : -1},
                    {"", 1},
                    {"", 1},
                    {"", 0},
                    {"", 0},
                    {"threat_minor_mover", 0},
                    {"threat_minor_waiter", 0},
                    {"rook_open", 0},
                    {"rook_semiopen", 0},
                    {"rook_seventh", 1},
                    {"outpost", 0},
                    {"passed_free", 1},
                    {"passed_king", -2 * 0.25}}; /* 3 - 5 kings' moves, 25 cp each */
        snprintf(rows[1].name, sizeof rows[1].name, "threat_pawn_%s", mover);
        snprintf(rows[2].name, sizeof rows[2].name, "hanging_%s", mover);
        snprintf(rows[3].name, sizeof rows[3].name, "threat_pawn_%s", other);
        snprintf(rows[4].name, sizeof rows[4].name, "hanging_%s", other);
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
            char name[80];
            snprintf(name, sizeof name, "%.60s_mg", rows[r].name);
            int i = term_index(&e, name);
            CU_ASSERT_FATAL(i > 0);
            CU_ASSERT_STRING_EQUAL(e.names[i + 1] + strlen(rows[r].name), "_eg");
            CU_ASSERT_DOUBLE_EQUAL(t[i], rows[r].want * mg, 1e-12);
            CU_ASSERT_DOUBLE_EQUAL(t[i + 1], rows[r].want * eg, 1e-12);
            if (fabs(t[i] - rows[r].want * mg) > 1e-12) printf("\n  %s: %g\n", name, t[i] / mg);
        }
        eval_linear_value(&e, s, 1, t); /* Black's view: negated */
        CU_ASSERT_DOUBLE_EQUAL(t[term_index(&e, "rook_seventh_eg")], -eg, 1e-12);
    }
    free(s);
    game_free(g);
}

/* With qsearch_pv and no table, the value is the leaf's static value from the root
 * mover's view (negamax signs): the property TDLeaf's leaf rests on. */
static void test_pv_leaf_value(void)
{
    for (int k = 0; k < LINEAR_GAMES; k++) {
        const game_t *g = NULL;
        HARNESS_OK(game_create(linear_games[k].spec, &g));
        ab_params_t p;
        ab_params_default(&p);
        p.max_depth = 2;
        p.tt_entries = 0;
        p.quiescence = true;
        p.qsearch_pv = true;
        ab_t *t = NULL;
        HARNESS_OK(ab_create(g, &p, &t));
        rng_t rng;
        rng_init(&rng, 3);
        char *s = malloc(g->state_size), *leaf = malloc(g->state_size);
        int checked = 0, deeper = 0;
        for (int i = 0; i < 60; i++) {
            if (!random_position(g, &rng, s, 4 + (int)rng_below(&rng, 40))) continue;
            const ab_result_t *r;
            HARNESS_OK(ab_search(t, s, &r));
            int root = game_current_player(g, s);
            memcpy(leaf, s, g->state_size);
            for (int j = 0; j < r->pv_len; j++) HARNESS_OK(game_apply_checked(g, leaf, r->pv[j]));
            deeper += r->pv_len > 2;
            double v = game_evaluate(g, leaf, root);
            CU_ASSERT_DOUBLE_EQUAL(r->value, v, 1e-12);
            if (fabs(r->value - v) > 1e-12)
                printf("\n  %s: value %.15g, leaf %.15g (pv %d)\n", g->spec, r->value, v,
                       r->pv_len);
            checked++;
        }
        CU_ASSERT(checked > 30);
        CU_ASSERT(deeper > 0); /* some principal variations went on through captures */
        free(s);
        free(leaf);
        ab_free(t);
        game_free(g);
    }
}

static void refused(const char *path, const game_t *g, const char *words)
{
    eval_linear_t e;
    CU_ASSERT(eval_linear_load(path, g, &e) < 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), words));
    if (!strstr(hoyle_last_error(), words))
        printf("\n  got '%s', wanted '%s'\n", hoyle_last_error(), words);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void test_files_and_agent(void)
{
    const game_t *g = NULL, *chess = NULL;
    HARNESS_OK(game_create("checkers", &g));
    HARNESS_OK(game_create("chess", &chess));
    char dir[] = "/tmp/hoyle-test-tdleaf-XXXXXX", path[256], bad[256], spec[512];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/w.eval", dir);
    snprintf(bad, sizeof bad, "%s/bad.eval", dir);
    eval_linear_t e, back;
    HARNESS_OK(eval_linear_default(g, &e));
    e.w[5] = 0.125;
    HARNESS_OK(eval_linear_save(&e, path));
    HARNESS_OK(eval_linear_load(path, g, &back));
    CU_ASSERT(memcmp(back.w, e.w, sizeof e.w) == 0);
    refused(path, chess, "not for 'chess");
    write_text(bad, "HOYLE-EVAL 1\ngame checkers(variant=english)\nterms 8\nmen x\n");
    refused(bad, g, "line 4");
    write_text(bad, "HOYLE-EVAL 1\ngame checkers(variant=english)\nterms 2\n");
    refused(bad, g, "terms 8");
    write_text(bad, "HOYLE-EVAL 3\n");
    refused(bad, g, "not a hoyle evaluation file");
    write_text(bad, "");
    refused(bad, g, "empty");
    /* version 2's checksum: one byte of a weight changed, the checksum line cut off; a
     * version 1 file (no checksum line) still reads */
    char text[4096];
    FILE *in = fopen(path, "r");
    size_t len = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[len] = '\0';
    char *digit = strstr(text, "0.125") + 3;
    *digit = '3';
    write_text(bad, text);
    refused(bad, g, "checksum mismatch");
    *digit = '2';
    *strstr(text, "checksum ") = '\0';
    write_text(bad, text);
    refused(bad, g, "want 'checksum HEX'");
    text[11] = '1'; /* HOYLE-EVAL 1 */
    write_text(bad, text);
    HARNESS_OK(eval_linear_load(bad, g, &back));
    CU_ASSERT(back.w[5] == 0.125);
    FILE *f = fopen(path, "r"), *o = fopen(bad, "w");
    char line[256];
    for (int i = 0; fgets(line, sizeof line, f); i++) fputs(i == 4 ? "queens 1\n" : line, o);
    fclose(f);
    fclose(o);
    refused(bad, g, "term 'queens'");
    /* the agent: the hand-set weights play as alphabeta; negated weights play otherwise */
    eval_linear_t neg = e;
    for (int i = 0; i < neg.n; i++) neg.w[i] = -neg.w[i];
    HARNESS_OK(eval_linear_save(&neg, bad));
    snprintf(spec, sizeof spec, "alphabeta(depth=3,eval=%s)", bad);
    agent_t *a = NULL, *b = NULL;
    HARNESS_OK(agent_create(g, spec, 1, &a));
    HARNESS_OK(agent_create(g, "alphabeta(depth=3)", 1, &b));
    rng_t rng;
    rng_init(&rng, 5);
    char *s = malloc(g->state_size);
    int differ = 0;
    for (int i = 0; i < 20; i++) {
        if (!random_position(g, &rng, s, 6 + i)) continue;
        int x, y;
        HARNESS_OK(agent_act(a, s, &x));
        HARNESS_OK(agent_act(b, s, &y));
        CU_ASSERT(game_is_legal(g, s, x));
        differ += x != y;
    }
    CU_ASSERT(differ > 0);
    agent_free(a);
    a = NULL;
    snprintf(spec, sizeof spec, "alphabeta(eval=%s/none.eval)", dir);
    CU_ASSERT(agent_create(g, spec, 1, &a) < 0);
    CU_ASSERT_PTR_NULL(a);
    agent_free(b);
    free(s);
    unlink(path);
    unlink(bad);
    rmdir(dir);
    game_free(g);
    game_free(chess);
}

/* A whole learning game: the weights move, and two learners with the same stream agree. */
static void test_learn_game(void)
{
    eval_linear_t e;
    const game_t *g = linear_game("checkers", &e);
    tdleaf_params_t p = {.alpha = 1e-3,
                         .new_rate = 1,
                         .lambda = 0.7,
                         .depth = 2,
                         .quiescence = true,
                         .opening_plies = 4,
                         .max_moves = 100};
    tdleaf_t l1, l2;
    HARNESS_OK(tdleaf_init(&l1, g, &e, &p));
    HARNESS_OK(tdleaf_init(&l2, g, &e, &p));
    rng_t r1, r2;
    rng_init(&r1, 7);
    rng_init(&r2, 7);
    tdleaf_stats_t s1 = {0}, s2 = {0};
    HARNESS_OK(tdleaf_learn_game(&l1, &r1, &s1));
    HARNESS_OK(tdleaf_learn_game(&l2, &r2, &s2));
    CU_ASSERT_EQUAL(s1.games, 1);
    CU_ASSERT(s1.moves > 10);
    CU_ASSERT(memcmp(l1.w.w, l2.w.w, sizeof l1.w.w) == 0);
    double moved = 0;
    for (int i = 0; i < e.n; i++) moved += fabs(l1.w.w[i] - e.w[i]);
    CU_ASSERT(moved > 0);
    tdleaf_done(&l1);
    tdleaf_done(&l2);
    game_free(g);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"update equals the formula by hand", test_update_by_hand},
        {"update with scale_rate equals the formula by hand", test_update_scale_rate},
        {"update with new_rate equals the formula by hand", test_update_new_rate},
        {"hand-set weights are the heuristic", test_default_weights_are_the_heuristic},
        {"eval_dot is the dense sum", test_eval_dot_is_the_dense_sum},
        {"chess's square terms by hand", test_chess_square_terms},
        {"chess's learned terms by hand", test_chess_learned_terms},
        {"search value is the PV leaf's value", test_pv_leaf_value},
        {"weight files and the alphabeta agent", test_files_and_agent},
        {"a learning game", test_learn_game},
        {NULL, NULL},
    };
    return harness_run("tdleaf", tests);
}
