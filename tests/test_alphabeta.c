/* test_alphabeta.c — alpha-beta equals plain minimax / expectimax.
 * Brute force below uses the same depth rule as alphabeta.h (a chain does
 * not cost depth, chance outcomes are free, a move into a forcing state
 * costs none below ply 2 * depth) and no pruning, no table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "games/playout.h"
#include "games/registry.h"
#include "mcts/alphabeta.h"
#include "tests/harness.h"
#include "tests/toy_games.h"

/* Scratch for minimax: one state and one action list per recursion level,
 * allocated once per game (no malloc per node: the suite runs under ASan). */
typedef struct scratch {
    char *states;
    int *actions;
    double *probs;
    size_t state_size;
    int width, levels;
    int root_depth; /* the search's depth: the check extension's ply limit */
} scratch_t;

static void scratch_init(scratch_t *sc, const game_t *g)
{
    sc->levels = g->max_game_length + 2;
    sc->width = g->max_legal > g->max_chance_outcomes ? g->max_legal : g->max_chance_outcomes;
    sc->state_size = g->state_size;
    sc->states = malloc(g->state_size * (size_t)sc->levels);
    sc->actions = malloc(sizeof(int) * (size_t)sc->width * (size_t)sc->levels);
    sc->probs = malloc(sizeof(double) * (size_t)sc->width * (size_t)sc->levels);
}

static void scratch_done(scratch_t *sc)
{
    free(sc->states);
    free(sc->actions);
    free(sc->probs);
}

/* Value of `s` for `player` by exhaustive minimax/expectimax to `depth`. */
static double minimax_at(const game_t *g, scratch_t *sc, int level, const void *s, int depth,
                         int player)
{
    int q = game_current_player(g, s);
    if (q == PLAYER_TERMINAL) {
        double r[GAME_MAX_PLAYERS];
        game_returns(g, s, r);
        return r[player];
    }
    if (q != PLAYER_CHANCE && depth <= 0) return game_evaluate(g, s, player);
    CU_ASSERT_FATAL(level < sc->levels);
    char *c = sc->states + sc->state_size * (size_t)level;
    int *actions = sc->actions + (size_t)sc->width * (size_t)level;
    double *probs = sc->probs + (size_t)sc->width * (size_t)level;
    if (q == PLAYER_CHANCE) {
        double total = 0, result = 0;
        int n = game_chance_outcomes(g, s, actions, probs);
        for (int i = 0; i < n; i++) {
            memcpy(c, s, g->state_size);
            game_apply(g, c, actions[i]);
            result += probs[i] * minimax_at(g, sc, level + 1, c, depth, player);
            total += probs[i];
        }
        return result / total;
    }
    int n = game_legal_actions(g, s, actions);
    double best = -INFINITY;
    for (int i = 0; i < n; i++) {
        memcpy(c, s, g->state_size);
        game_apply(g, c, actions[i]);
        int d = (g->num_players > 1 && game_current_player(g, c) == q) ? depth : depth - 1;
        if (d < depth && level < 2 * sc->root_depth && game_current_player(g, c) >= 0 &&
            game_is_forcing(g, c))
            d = depth;
        double v = minimax_at(g, sc, level + 1, c, d, q);
        if (v > best) best = v;
    }
    return q == player ? best : -best;
}

static double minimax(const game_t *g, const void *s, int depth, int player)
{
    scratch_t sc;
    scratch_init(&sc, g);
    sc.root_depth = depth;
    double v = minimax_at(g, &sc, 0, s, depth, player);
    scratch_done(&sc);
    return v;
}

/* A random decision state: up to `max_plies` random actions from the start. */
static bool random_position(const game_t *g, rng_t *r, int max_plies, void *s)
{
    int *legal = malloc(sizeof(int) * (size_t)g->max_legal);
    game_init(g, s);
    int plies = (int)rng_below(r, (uint32_t)max_plies + 1);
    for (int i = 0; i < plies && !game_is_terminal(g, s); i++) {
        int a;
        if (game_is_chance(g, s))
            a = game_chance_sample_alloc(g, s, r);
        else
            a = legal[rng_below(r, (uint32_t)game_legal_actions(g, s, legal))];
        game_apply(g, s, a);
    }
    while (game_is_chance(g, s)) game_apply(g, s, game_chance_sample_alloc(g, s, r));
    free(legal);
    return !game_is_terminal(g, s);
}

/* Compare alpha-beta (four configurations: TT + killers + history +
 * counter-moves, PVS and an aspiration window with iterative deepening;
 * plain alpha-beta: no table, no ordering heuristics, no PVS; a table and
 * PVS without iterative deepening; the first with MTD(f) and Star2, the
 * exact engine options) with minimax on `count` random positions
 * at depths 1..max_depth. Searchers are made once per depth and cleared
 * between positions. */
static void compare_on_game(const game_t *g, int count, int max_depth, uint64_t seed)
{
    enum { CONFIGS = 4, MAX_D = 8 };
    rng_t r;
    rng_init(&r, seed);
    void *s = malloc(g->state_size);
    scratch_t sc;
    scratch_init(&sc, g);
    ab_t *searchers[MAX_D + 1][CONFIGS];
    for (int d = 1; d <= max_depth; d++)
        for (int k = 0; k < CONFIGS; k++) {
            ab_params_t q;
            ab_params_default(&q);
            q.max_depth = d;
            q.tt_entries = k == 1 ? 0 : 1 << 10;
            q.killers = q.history = q.counter_moves = q.pvs = k != 1;
            q.iterative = k != 2;
            q.aspiration = k == 0 ? 0.05 : 0;
            q.mtdf = q.star2 = k == 3;
            HARNESS_OK(ab_create(g, &q, &searchers[d][k]));
        }
    int mismatches = 0, done = 0;
    int plies = g->max_game_length < 40 ? g->max_game_length : 40;
    for (int i = 0; i < count * 4 && done < count; i++) {
        if (!random_position(g, &r, plies, s)) continue;
        int depth = 1 + done % max_depth;
        sc.root_depth = depth;
        double want = minimax_at(g, &sc, 0, s, depth, game_current_player(g, s));
        for (int k = 0; k < CONFIGS; k++) {
            ab_t *t = searchers[depth][k];
            ab_clear(t);
            const ab_result_t *res;
            HARNESS_OK(ab_search(t, s, &res));
            if (fabs(res->value - want) > 1e-9 && mismatches++ < 5)
                fprintf(stderr, "%s: depth %d config %d: alphabeta %.12f minimax %.12f\n", g->spec,
                        depth, k, res->value, want);
            CU_ASSERT(game_is_legal(g, s, res->best_action));
            CU_ASSERT(res->pv_len >= 1 && res->pv[0] == res->best_action);
        }
        done++;
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT(done >= count / 2);
    for (int d = 1; d <= max_depth; d++)
        for (int k = 0; k < CONFIGS; k++) ab_free(searchers[d][k]);
    scratch_done(&sc);
    free(s);
}

static void test_toys_equal_minimax(void)
{
    for (int i = 0; toy_names[i]; i++) {
        const game_t *g = toy_create(toy_names[i]);
        compare_on_game(g, 1000, 4, 42 + (uint64_t)i);
        toy_free(g);
    }
}

/* PVS (null windows, re-searched when inside) and the aspiration window
 * keep the minimax value deeper than the registry sweep goes, in two games
 * with heuristic leaves: chess to depth 3 and English checkers to 6. */
static void test_pvs_deeper_equal_minimax(void)
{
    static const struct {
        const char *spec;
        int count, depth;
    } cases[] = {{"chess", 24, 3}, {"checkers(variant=english)", 60, 6}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const game_t *g;
        HARNESS_OK(game_create(cases[i].spec, &g));
        compare_on_game(g, cases[i].count, cases[i].depth, 1234 + (uint64_t)i);
        game_free(g);
    }
}

/* A table shared across positions must not change values either. */
static void test_shared_table(void)
{
    const game_t *g = toy_create("ttt");
    ab_params_t p;
    ab_params_default(&p);
    p.max_depth = 3;
    ab_t *t;
    HARNESS_OK(ab_create(g, &p, &t));
    rng_t r;
    rng_init(&r, 7);
    void *s = malloc(g->state_size);
    int bad = 0;
    for (int i = 0; i < 2000; i++) {
        if (!random_position(g, &r, 6, s)) continue;
        const ab_result_t *res;
        HARNESS_OK(ab_search(t, s, &res));
        if (fabs(res->value - minimax(g, s, 3, game_current_player(g, s))) > 1e-9) bad++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    free(s);
    ab_free(t);
    toy_free(g);
}

/* Full-depth expectiminimax on the dice toy equals a brute-force
 * expectation of the game value (no heuristic involved). */
static void test_expectiminimax_exact(void)
{
    const game_t *g = toy_create("dice");
    void *s = malloc(g->state_size);
    game_init(g, s);
    game_apply(g, s, 4); /* roll a 3 */
    ab_params_t p;
    ab_params_default(&p);
    p.max_depth = 20;
    ab_t *t;
    HARNESS_OK(ab_create(g, &p, &t));
    const ab_result_t *res;
    HARNESS_OK(ab_search(t, s, &res));
    double want = minimax(g, s, 100, 0);
    CU_ASSERT_DOUBLE_EQUAL(res->value, want, 1e-9);
    CU_ASSERT(fabs(want) < 1.0); /* a genuinely stochastic value */
    ab_free(t);
    free(s);
    toy_free(g);
}

/* Chains: the chain toy solved exactly matches the known nim-like theory
 * computed by brute force, from every pile size, for the player to move. */
static void test_chain_sign(void)
{
    const game_t *g = toy_create("chain");
    void *s = malloc(g->state_size);
    ab_params_t p;
    ab_params_default(&p);
    p.max_depth = 20;
    ab_t *t;
    HARNESS_OK(ab_create(g, &p, &t));
    for (int take = 0; take < 3; take++) {
        game_init(g, s);
        game_apply(g, s, take);
        const ab_result_t *res;
        HARNESS_OK(ab_search(t, s, &res));
        double want = minimax(g, s, 100, game_current_player(g, s));
        CU_ASSERT_DOUBLE_EQUAL(res->value, want, 1e-9);
        CU_ASSERT(fabs(res->value) == 1.0);
    }
    ab_free(t);
    free(s);
    toy_free(g);
}

static void test_quiescence_and_time(void)
{
    const game_t *g = toy_create("nim");
    void *s = malloc(g->state_size);
    game_init(g, s);
    ab_params_t p;
    ab_params_default(&p);
    p.max_depth = 2;
    p.quiescence = true;
    ab_t *t;
    HARNESS_OK(ab_create(g, &p, &t));
    const ab_result_t *res;
    HARNESS_OK(ab_search(t, s, &res));
    CU_ASSERT(game_is_legal(g, s, res->best_action));
    CU_ASSERT(res->value >= -1 && res->value <= 1);
    ab_free(t);
    p.quiescence = false;
    p.max_depth = 200;
    p.time_limit_ms = 30;
    HARNESS_OK(ab_create(g, &p, &t));
    HARNESS_OK(ab_search(t, s, &res));
    CU_ASSERT(game_is_legal(g, s, res->best_action));
    CU_ASSERT(res->depth >= 1);
    CU_ASSERT_DOUBLE_EQUAL(res->value, 1.0, 1e-12); /* 15 stones: the mover wins */
    CU_ASSERT_EQUAL(res->best_action, 2);           /* take 3 leaves 12 */
    ab_free(t);
    free(s);
    toy_free(g);
}

/* Every registered game: thousands of random positions at small depth. */
static void test_registry_equal_minimax(void)
{
    int games = 0;
    for (int i = 0; game_registry[i]; i++)
        for (int v = 0; game_registry[i]->variants[v]; v++) {
            const game_t *g;
            /* a variant that does not create is a failure, not a skip: the sweep is over
             * every registered variant */
            if (game_create(game_registry[i]->variants[v], &g)) {
                fprintf(stderr, "FAIL: %s: %s\n", game_registry[i]->variants[v],
                        hoyle_last_error());
                CU_FAIL("a registered variant does not create");
                continue;
            }
            /* thousands of positions on each game's first variant, fewer on the others */
            int depth = g->max_legal > 40 ? 1 : 2;
            compare_on_game(g, v == 0 ? 1000 : 250, depth, 99 + (uint64_t)v);
            game_free(g);
            games++;
        }
    fprintf(stderr, "registry games compared: %d\n", games);
    CU_ASSERT(games > 0);
}

/* Nodes and value of one search of `fen` (chess) or the start with `p`. */
static const ab_result_t *search_once(const game_t *g, const char *pos, const ab_params_t *p,
                                      ab_t **keep)
{
    void *s = malloc(g->state_size);
    game_init(g, s);
    if (pos) HARNESS_OK(game_position_from_string(g, pos, s));
    HARNESS_OK(ab_create(g, p, keep));
    const ab_result_t *r;
    HARNESS_OK(ab_search(*keep, s, &r));
    free(s);
    return r;
}

/* Each engine option changes the search where it applies (it is not ignored),
 * and the exact ones (MTD(f), Star2) keep the value. */
static void test_engine_options(void)
{
    const char *fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    const game_t *g;
    HARNESS_OK(game_create("chess", &g));
    ab_params_t base;
    ab_params_default(&base);
    base.max_depth = 5;
    base.quiescence = true;
    ab_t *t0;
    const ab_result_t *r0 = search_once(g, fen, &base, &t0);
    for (int k = 0; k < 5; k++) {
        ab_params_t p = base;
        if (k == 0) p.null_r = 2;
        if (k == 1) p.lmr = 3;
        if (k == 2) p.check_ext = false;
        if (k == 3) p.capture_ext = true;
        if (k == 4) p.mtdf = true;
        ab_t *t;
        const ab_result_t *r = search_once(g, fen, &p, &t);
        fprintf(stderr, "chess depth 5, option %d: %llu nodes (default %llu), value %.4f (%.4f)\n",
                k, (unsigned long long)r->nodes, (unsigned long long)r0->nodes, r->value,
                r0->value);
        CU_ASSERT(r->nodes != r0->nodes);
        if (k == 4) CU_ASSERT_DOUBLE_EQUAL(r->value, r0->value, 1e-12);
        ab_free(t);
    }
    /* null move: refused in a pawn ending (zugzwang), so the search is the same */
    const char *pawns = "8/8/1p6/1P6/8/3k4/8/3K4 w - - 0 1";
    ab_t *ta, *tb;
    ab_params_t p = base;
    p.max_depth = 7;
    const ab_result_t *ra = search_once(g, pawns, &p, &ta);
    p.null_r = 2;
    const ab_result_t *rb = search_once(g, pawns, &p, &tb);
    CU_ASSERT_EQUAL(ra->nodes, rb->nodes);
    CU_ASSERT_DOUBLE_EQUAL(ra->value, rb->value, 1e-12);
    ab_free(ta);
    ab_free(tb);
    ab_free(t0);
    /* the null move itself: the other side to move, the hash recomputed, not in check */
    void *s = malloc(g->state_size);
    HARNESS_OK(game_position_from_string(g, fen, s));
    CU_ASSERT(game_null_move(g, s));
    CU_ASSERT_EQUAL(game_current_player(g, s), 1);
    CU_ASSERT_EQUAL(game_hash(g, s), game_hash_recompute(g, s));
    HARNESS_OK(game_position_from_string(g, "4k3/8/8/8/8/8/4q3/R3K3 w - - 0 1", s));
    CU_ASSERT(!game_null_move(g, s)); /* in check */
    free(s);
    game_free(g);
    /* checkers has no null move: null_r changes nothing */
    HARNESS_OK(game_create("checkers", &g));
    p = base;
    p.max_depth = 7;
    ra = search_once(g, NULL, &p, &ta);
    p.null_r = 2;
    rb = search_once(g, NULL, &p, &tb);
    CU_ASSERT_EQUAL(ra->nodes, rb->nodes);
    ab_free(ta);
    ab_free(tb);
    game_free(g);
    /* Star2: fewer nodes in backgammon at depth 2, the same value */
    HARNESS_OK(game_create("backgammon", &g));
    s = malloc(g->state_size);
    game_init(g, s);
    rng_t rng;
    rng_init(&rng, 3);
    while (game_is_chance(g, s)) game_apply(g, s, game_chance_sample_alloc(g, s, &rng));
    p = base;
    p.quiescence = false;
    p.max_depth = 2;
    HARNESS_OK(ab_create(g, &p, &ta));
    p.star2 = true;
    HARNESS_OK(ab_create(g, &p, &tb));
    HARNESS_OK(ab_search(ta, s, &ra));
    HARNESS_OK(ab_search(tb, s, &rb));
    fprintf(stderr, "backgammon depth 2: Star1 %llu nodes, Star2 %llu nodes\n",
            (unsigned long long)ra->nodes, (unsigned long long)rb->nodes);
    CU_ASSERT(rb->nodes < ra->nodes);
    CU_ASSERT_DOUBLE_EQUAL(ra->value, rb->value, 1e-9);
    ab_free(ta);
    ab_free(tb);
    free(s);
    game_free(g);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"toys: alpha-beta equals minimax", test_toys_equal_minimax},
        {"shared table keeps values exact", test_shared_table},
        {"expectiminimax equals brute-force expectation", test_expectiminimax_exact},
        {"chains never flip the sign", test_chain_sign},
        {"quiescence and time limit", test_quiescence_and_time},
        {"registry games: alpha-beta equals minimax", test_registry_equal_minimax},
        {"PVS and aspiration equal minimax deeper (chess, checkers)",
         test_pvs_deeper_equal_minimax},
        {"engine options change the search; MTD(f) and Star2 keep the value", test_engine_options},
        {NULL, NULL},
    };
    return harness_run("alphabeta", tests);
}
