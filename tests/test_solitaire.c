/* test_solitaire.c — English Solitaire: perft, the seed's notion of a move
 * (Bergholt's 18-move solution replayed), notation and position text with bad
 * input, returns, symmetries; and the solver of solve/solitaire.h: solutions
 * that replay, impossible pairs by the position classes, the class argument
 * checked by exhaustive search, and fewest moves against brute force. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "games/registry.h"
#include "games/solitaire/solitaire.h"
#include "solve/solitaire.h"
#include "tests/harness.h"

typedef struct st {
    uint64_t w[8];
} st_t;

static const game_t *make(const char *spec) { return harness_game(spec, sizeof(st_t)); }

static void test_perft(void)
{
    const game_t *g = make("solitaire");
    st_t s;
    game_init(g, &s);
    char *text = harness_read_data("solitaire/perft.txt");
    CU_ASSERT_FATAL(text != NULL);
    int rows = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        int depth;
        unsigned long long nodes;
        if (line[0] == '#' || sscanf(line, "%d %llu", &depth, &nodes) != 2) continue;
        CU_ASSERT_EQUAL(game_perft(g, &s, depth), nodes);
        if (depth <= 4) CU_ASSERT_EQUAL(game_perft_generic(g, &s, depth), nodes);
        rows++;
    }
    CU_ASSERT_EQUAL(rows, 7);
    free(text);
    game_free(g);
}

/* The 18 runs apply as whole moves, the state counts 18 moves, and one
 * marble is left in the centre: return +1. */
static void test_bergholt(void)
{
    const game_t *g = make("solitaire");
    st_t s;
    game_init(g, &s);
    char *text = harness_read_data("solitaire/bergholt18.txt");
    CU_ASSERT_FATAL(text != NULL);
    char *line = NULL;
    for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"))
        if (l[0] != '#') line = l;
    CU_ASSERT_FATAL(line != NULL);
    int runs = 0, jumps = 0;
    for (char *w = strtok(line, " "); w; w = strtok(NULL, " ")) {
        int n = game_apply_move_string(g, &s, w);
        CU_ASSERT(n >= 1);
        if (n < 1) break;
        jumps += n;
        runs++;
        CU_ASSERT_EQUAL(solitaire_state_moves(&s), runs);
    }
    CU_ASSERT_EQUAL(runs, 18);
    CU_ASSERT_EQUAL(jumps, 31);
    CU_ASSERT(game_is_terminal(g, &s));
    CU_ASSERT_EQUAL(solitaire_state_pegs(&s), 1ULL << SOL_CENTRE);
    double r;
    game_returns(g, &s, &r);
    CU_ASSERT_DOUBLE_EQUAL(r, 1.0, 1e-12);
    free(text);
    game_free(g);
}

static void test_notation(void)
{
    const game_t *g = make("solitaire");
    st_t s, before;
    game_init(g, &s);
    char buf[GAME_TEXT_MAX];
    CU_ASSERT(game_position_to_string(g, &s, buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo 0 -");
    /* Bergholt's first four moves, one jump each */
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "19-17"), 1);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "30-18"), 1);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "27-25"), 1);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "24-26"), 1);
    CU_ASSERT_EQUAL(solitaire_state_moves(&s), 4);
    const char *bad[] = {"17-5",   "1-2", "5-17-", "40-17",  "05-17",   "",
                         "5 - 17", "x",   "1-3",   "2-10-2", "31-33-25"};
    memcpy(&before, &s, sizeof s);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT(game_apply_move_string(g, &s, bad[i]) < 0);
        CU_ASSERT(memcmp(&before, &s, sizeof s) == 0);
        int a;
        CU_ASSERT(game_action_from_string(g, &s, bad[i], &a) < 0);
    }
    /* one jump, its text and back; a whole run parses into its jumps */
    int a;
    HARNESS_OK(game_action_from_string(g, &s, "22-24", &a));
    CU_ASSERT(game_action_to_string(g, &s, a, buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "22-24");
    HARNESS_OK(game_apply_checked(g, &s, a));
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "31-23"), 1);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "16-28"), 1);
    CU_ASSERT_EQUAL(solitaire_state_moves(&s), 7);
    int run[4];
    int n = game_move_from_string(g, &s, "33-31-23", run, 4);
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT(game_move_to_string(g, &s, run, n, buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "33-31-23");
    /* a run of two jumps by one marble is one move more, not two */
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "33-31-23"), 2);
    CU_ASSERT_EQUAL(solitaire_state_moves(&s), 8);
    /* a jump by another marble starts a new move */
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "11-25"), 1);
    CU_ASSERT_EQUAL(solitaire_state_moves(&s), 9);
    game_free(g);
}

static void test_position_text(void)
{
    const game_t *g = make("solitaire(target=0)");
    st_t s, t;
    game_init(g, &s);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "5-17"), 1);
    CU_ASSERT_EQUAL(game_apply_move_string(g, &s, "12-10"), 1);
    char buf[GAME_TEXT_MAX];
    CU_ASSERT(game_position_to_string(g, &s, buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "ooo/o.o/oooo..o/ooooooo/ooooooo/ooo/ooo 2 10");
    HARNESS_OK(game_position_from_string(g, buf, &t));
    CU_ASSERT(memcmp(&s, &t, sizeof s) == 0);
    const char *bad[] = {
        "ooo/ooo/ooooooo/ooooooo/ooooooo/ooo/ooo 0 -",   /* no hole empty */
        ".../.../......./......./......./.../... 0 -",   /* no marble */
        "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo 1 -",   /* moves without last */
        "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo 0 5",   /* last without moves */
        "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo 1 17",  /* last is empty */
        "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo 2 5",   /* 2 moves, 32 marbles */
        "ooo/ooo/oooooo/ooo.ooo/ooooooo/ooo/ooo 0 -",    /* short row */
        "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo",       /* no counters */
        "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo 0 - x", /* junk */
        "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo 0 34",
        "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/oox 0 -",
    };
    memcpy(&t, &s, sizeof s);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT(game_position_from_string(g, bad[i], &t) < 0);
        CU_ASSERT(memcmp(&s, &t, sizeof s) == 0);
    }
    game_free(g);
}

/* r = 1 - 2 (marbles - 1 + miss) / 32 */
static void test_returns_and_symmetries(void)
{
    const game_t *g = make("solitaire(start=17,target=17)");
    const game_t *any = make("solitaire(target=0)");
    st_t s;
    double r;
    HARNESS_OK(game_position_from_string(g, ".../.../......./...o.../......./.../... 5 17", &s));
    game_returns(g, &s, &r);
    CU_ASSERT_DOUBLE_EQUAL(r, 1.0, 1e-12);
    HARNESS_OK(game_position_from_string(g, ".../.o./......./......./......./.../... 5 5", &s));
    game_returns(g, &s, &r);
    CU_ASSERT_DOUBLE_EQUAL(r, 1.0 - 2.0 / 32, 1e-12);
    game_returns(any, &s, &r);
    CU_ASSERT_DOUBLE_EQUAL(r, 1.0, 1e-12);
    HARNESS_OK(game_position_from_string(g, "o.o/.../......./...o.../......./.../... 5 17", &s));
    CU_ASSERT(game_is_terminal(g, &s));
    game_returns(g, &s, &r);
    CU_ASSERT_DOUBLE_EQUAL(r, 1.0 - 4.0 / 32, 1e-12);
    /* the symmetries that fix the target: all 8 for the centre, 2 for hole 10, 1 for a corner */
    CU_ASSERT_EQUAL(g->num_symmetries, 8);
    const game_t *g10 = make("solitaire(start=10,target=10)");
    const game_t *g3 = make("solitaire(start=3,target=3)");
    CU_ASSERT_EQUAL(g10->num_symmetries, 2);
    CU_ASSERT_EQUAL(g3->num_symmetries, 1);
    const game_t *bad = NULL;
    CU_ASSERT(game_create("solitaire(start=34)", &bad) < 0);
    CU_ASSERT(game_create("solitaire(start=5+5)", &bad) < 0);
    CU_ASSERT(game_create("solitaire(start=5+)", &bad) < 0);
    CU_ASSERT(game_create("solitaire(target=34)", &bad) < 0);
    const game_t *two = make("solitaire(start=5+17,target=0)");
    game_init(two, &s);
    CU_ASSERT_EQUAL(__builtin_popcountll(solitaire_state_pegs(&s)), 31);
    game_free(two);
    game_free(g3);
    game_free(g10);
    game_free(any);
    game_free(g);
}

/* ---- the solver ---- */

/* The jumps of Bergholt's solution (tests/data/solitaire/bergholt18.txt),
 * into jumps[31]; returns the count. */
static int bergholt_jumps(const game_t *g, int *jumps)
{
    char *text = harness_read_data("solitaire/bergholt18.txt");
    CU_ASSERT_FATAL(text != NULL);
    char *line = NULL;
    for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"))
        if (l[0] != '#') line = l;
    st_t s;
    game_init(g, &s);
    int n = 0;
    for (char *w = strtok(line, " "); w; w = strtok(NULL, " ")) {
        int k = game_move_from_string(g, &s, w, jumps + n, SOL_HOLES - n);
        CU_ASSERT_FATAL(k >= 1);
        for (int i = 0; i < k; i++) game_apply(g, &s, jumps[n + i]);
        n += k;
    }
    free(text);
    return n;
}

/* The position after the first `k` jumps of Bergholt's solution, then
 * `wander` random jumps (seeded), so that positions stay near solvable ones. */
static void near_solution(const game_t *g, int k, int wander, rng_t *rng, st_t *s)
{
    int jumps[SOL_HOLES], legal[SOL_JUMPS];
    int n = bergholt_jumps(g, jumps);
    CU_ASSERT_FATAL(k <= n);
    game_init(g, s);
    for (int i = 0; i < k; i++) game_apply(g, s, jumps[i]);
    for (int i = 0; i < wander && !game_is_terminal(g, s); i++) {
        int m = game_legal_actions(g, s, legal);
        game_apply(g, s, legal[rng_below(rng, (uint32_t)m)]);
    }
}

static void replay_ok(const game_t *g, const solitaire_result_t *r)
{
    st_t s;
    game_init(g, &s);
    for (int i = 0; i < r->num_jumps; i++) HARNESS_OK(game_apply_checked(g, &s, r->jumps[i]));
    CU_ASSERT(game_is_terminal(g, &s));
    double ret;
    game_returns(g, &s, &ret);
    CU_ASSERT_DOUBLE_EQUAL(ret, 1.0, 1e-12);
}

static void test_solve_pairs(void)
{
    solitaire_options_t opt;
    solitaire_options_default(&opt);
    opt.tt_bytes = (size_t)8 << 20;
    /* each pair takes under 0.4 M nodes: a regression fails here instead of hanging */
    opt.node_limit = 50000000;
    /* the rule of three: from the centre, one marble can end only in 17, 2,
     * 14, 20 or 32 */
    const struct {
        const char *spec;
        int target;
        solitaire_verdict_t verdict;
    } pairs[] = {
        {"solitaire", SOL_CENTRE, SOLITAIRE_SOLVED},
        {"solitaire(target=2)", 1, SOLITAIRE_SOLVED},
        {"solitaire(target=20)", 19, SOLITAIRE_SOLVED},
        {"solitaire(start=10,target=10)", 9, SOLITAIRE_SOLVED},
        {"solitaire(target=1)", 0, SOLITAIRE_UNSOLVABLE},
        {"solitaire(target=16)", 15, SOLITAIRE_UNSOLVABLE},
        {"solitaire(start=1,target=17)", SOL_CENTRE, SOLITAIRE_UNSOLVABLE},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const game_t *g = make(pairs[i].spec);
        st_t s;
        game_init(g, &s);
        solitaire_result_t r;
        HARNESS_OK(solitaire_solve(solitaire_state_pegs(&s), pairs[i].target, &opt, &r));
        CU_ASSERT_EQUAL(r.verdict, pairs[i].verdict);
        if (r.verdict != pairs[i].verdict)
            fprintf(stderr, "  %s: verdict %d\n", pairs[i].spec, r.verdict);
        if (r.verdict == SOLITAIRE_SOLVED) {
            CU_ASSERT_EQUAL(r.num_jumps, 31);
            replay_ok(g, &r);
        } else {
            CU_ASSERT(r.by_class);
            CU_ASSERT(r.nodes <= 1); /* decided by the classes, without search */
        }
        game_free(g);
    }
}

/* The class argument against exhaustive search: from positions of a random
 * game with few marbles left, search every target with the prune off; a
 * target is reached only if its class is the position's, and pruning never
 * changes a verdict. */
static void test_classes_against_search(void)
{
    const game_t *g = make("solitaire(target=0)");
    sol_geometry_t *geo = malloc(sizeof *geo);
    sol_geometry_init(geo);
    solitaire_options_t plain, pruned;
    solitaire_options_default(&plain);
    plain.use_classes = false;
    plain.tt_bytes = (size_t)1 << 20;
    pruned = plain;
    pruned.use_classes = true;
    rng_t rng;
    rng_init(&rng, 13);
    int reached = 0, positions = 0;
    const int games =
        getenv("HOYLE_SLOW_TESTS") && strcmp(getenv("HOYLE_SLOW_TESTS"), "0") == 0 ? 3 : 12;
    for (int k = 0; k < games; k++) {
        st_t s;
        near_solution(g, 17 + k % 6, k / 6, &rng, &s);
        uint64_t pegs = solitaire_state_pegs(&s);
        if (__builtin_popcountll(pegs) < 2) continue;
        positions++;
        for (int t = 0; t < SOL_HOLES; t++) {
            solitaire_result_t a, b;
            HARNESS_OK(solitaire_solve(pegs, t, &plain, &a));
            HARNESS_OK(solitaire_solve(pegs, t, &pruned, &b));
            CU_ASSERT_EQUAL(a.verdict, b.verdict);
            if (a.verdict == SOLITAIRE_SOLVED) {
                reached++;
                CU_ASSERT_EQUAL(sol_class(geo, pegs), sol_class(geo, 1ULL << t));
            }
        }
    }
    CU_ASSERT(positions > 0);
    CU_ASSERT(reached > 0);
    free(geo);
    game_free(g);
}

/* Reference: the fewest moves by plain recursion (no table, no bound). */
static int brute_moves(const sol_geometry_t *geo, uint64_t pegs, int last, int target)
{
    if ((pegs & (pegs - 1)) == 0) return pegs == 1ULL << target ? 0 : 99;
    int best = 99;
    for (int j = 0; j < SOL_JUMPS; j++) {
        const sol_jump_t *jp = &geo->jump[j];
        if (!(pegs & jp->from_bit) || !(pegs & jp->over_bit) || (pegs & jp->to_bit)) continue;
        int m =
            brute_moves(geo, pegs ^ (jp->from_bit | jp->over_bit | jp->to_bit), jp->to, target) +
            (jp->from != last);
        if (m < best) best = m;
    }
    return best;
}

static void test_min_moves_small(void)
{
    const game_t *g = make("solitaire(target=0)");
    sol_geometry_t *geo = malloc(sizeof *geo);
    sol_geometry_init(geo);
    solitaire_options_t opt;
    solitaire_options_default(&opt);
    opt.tt_bytes = (size_t)1 << 20;
    rng_t rng;
    rng_init(&rng, 7);
    int checked = 0;
    for (int k = 0; k < 12; k++) {
        st_t s;
        near_solution(g, 22 + k % 4, k / 4, &rng, &s);
        uint64_t pegs = solitaire_state_pegs(&s);
        int last = solitaire_state_last(&s);
        for (int t = 0; t < SOL_HOLES; t++) {
            int want = brute_moves(geo, pegs, last, t);
            solitaire_result_t r;
            HARNESS_OK(solitaire_min_moves(pegs, last, t, 31, &opt, NULL, NULL, &r));
            if (want < 99) {
                checked++;
                CU_ASSERT_EQUAL(r.verdict, SOLITAIRE_SOLVED);
                CU_ASSERT_EQUAL(r.moves, want);
                CU_ASSERT_EQUAL(solitaire_count_moves(geo, last, r.jumps, r.num_jumps), want);
            } else {
                CU_ASSERT_EQUAL(r.verdict, SOLITAIRE_UNSOLVABLE);
            }
        }
    }
    CU_ASSERT(checked > 5);
    free(geo);
    game_free(g);
}

/* After k of Bergholt's moves exactly 18 - k more are needed (18 is the
 * minimum, Beasley 1964, and Bergholt's own moves reach it), so the fewest
 * moves from there is an exact answer: 6 after 12 moves, 8 after 10 (where
 * regions are still full and the Merson bound prunes). */
static void test_min_moves_bergholt_tail(void)
{
    const game_t *g = make("solitaire");
    char *text = harness_read_data("solitaire/bergholt18.txt");
    CU_ASSERT_FATAL(text != NULL);
    char *line = NULL;
    for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"))
        if (l[0] != '#') line = l;
    char *moves[18];
    int nmoves = 0;
    for (char *w = strtok(line, " "); w && nmoves < 18; w = strtok(NULL, " ")) moves[nmoves++] = w;
    CU_ASSERT_FATAL(nmoves == 18);
    const char *slow = getenv("HOYLE_SLOW_TESTS");
    const int ks[] = {12, 10};
    int nk = slow && strcmp(slow, "0") == 0 ? 1 : 2;
    for (int i = 0; i < nk; i++) {
        st_t s;
        game_init(g, &s);
        for (int m = 0; m < ks[i]; m++) CU_ASSERT(game_apply_move_string(g, &s, moves[m]) >= 1);
        solitaire_options_t opt;
        solitaire_options_default(&opt);
        opt.tt_bytes = (size_t)16 << 20;
        solitaire_result_t r;
        HARNESS_OK(solitaire_min_moves(solitaire_state_pegs(&s), solitaire_state_last(&s),
                                       SOL_CENTRE, 31, &opt, NULL, NULL, &r));
        CU_ASSERT_EQUAL(r.verdict, SOLITAIRE_SOLVED);
        CU_ASSERT_EQUAL(r.moves, 18 - ks[i]);
    }
    free(text);
    game_free(g);
}

/* ---- Double Solitaire (players=2) ---- */

/* Play `move` in a fresh copy of `pos` and return seat 0's return at the
 * end (the game must end there). */
static double double_end(const game_t *g, const char *pos, const char *move)
{
    void *s = malloc(g->state_size);
    HARNESS_OK(game_position_from_string(g, pos, s));
    CU_ASSERT_EQUAL(game_current_player(g, s), 0);
    HARNESS_OK(game_apply_move_string(g, s, move) < 0 ? -1 : 0);
    CU_ASSERT(game_is_terminal(g, s));
    double r[2] = {0, 0};
    game_returns(g, s, r);
    CU_ASSERT_EQUAL(r[0], -r[1]);
    free(s);
    return r[0];
}

static void test_double(void)
{
    const game_t *g = make("solitaire(players=2)");
    CU_ASSERT_EQUAL(g->num_players, 2);
    CU_ASSERT_EQUAL(g->num_symmetries, 8);
    void *s = malloc(g->state_size);
    game_init(g, s);
    /* turns alternate, one jump each; a run is refused, nothing changed */
    CU_ASSERT_EQUAL(game_current_player(g, s), 0);
    HARNESS_OK(game_apply_move_string(g, s, "5-17") < 0 ? -1 : 0);
    CU_ASSERT_EQUAL(game_current_player(g, s), 1);
    uint64_t h = game_hash(g, s);
    CU_ASSERT_EQUAL(game_apply_move_string(g, s, "12-10-24"), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(game_hash(g, s), h);
    HARNESS_OK(game_apply_move_string(g, s, "12-10") < 0 ? -1 : 0);
    CU_ASSERT_EQUAL(game_current_player(g, s), 0);
    char text[GAME_TEXT_MAX];
    HARNESS_OK(game_state_to_string(g, s, text, sizeof text) < 0 ? -1 : 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "player 1 to jump"));
    /* three marbles: 29 jumps made, the second player is to move */
    HARNESS_OK(game_position_from_string(g, ".../.../......./.oo..../......./o../... 0 -", s));
    CU_ASSERT_EQUAL(game_current_player(g, s), 1);

    /* marbles on 15 and 16, the first player to move: whoever jumps last
     * wins (goal=last); with goal=solve only the jump into 17, the target,
     * wins for the first player */
    const char *pos = ".../.../......./.oo..../......./.../... 0 -";
    CU_ASSERT_EQUAL(double_end(g, pos, "15-17"), 1.0);
    CU_ASSERT_EQUAL(double_end(g, pos, "16-14"), 1.0);
    game_free(g);
    g = make("solitaire(players=2,goal=solve)");
    CU_ASSERT_EQUAL(g->num_symmetries, 8); /* the centre target is fixed by all */
    CU_ASSERT_EQUAL(double_end(g, pos, "15-17"), 1.0);
    CU_ASSERT_EQUAL(double_end(g, pos, "16-14"), -1.0);
    game_free(g);
    g = make("solitaire(players=2,goal=solve,start=1,target=1)");
    CU_ASSERT_EQUAL(g->num_symmetries, 1); /* hole 1 is fixed by none but the identity */
    game_free(g);
    g = make("solitaire(players=2,start=1,target=1)"); /* goal=last: any hole */
    CU_ASSERT_EQUAL(g->num_symmetries, 8);
    game_free(g);
    g = make("solitaire");
    CU_ASSERT_STRING_EQUAL(g->spec, "solitaire(start=17,target=17)"); /* quiet defaults */
    game_free(g);
    CU_ASSERT_EQUAL(game_create("solitaire(goal=solve)", &g), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(game_create("solitaire(players=3)", &g), HOYLE_EINVAL);
    free(s);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"perft from the centre game", test_perft},
        {"Bergholt's 18-move solution replays", test_bergholt},
        {"jumps, runs and bad moves", test_notation},
        {"position text and bad positions", test_position_text},
        {"returns, symmetries, parameters", test_returns_and_symmetries},
        {"Double Solitaire: turns, goals, runs refused", test_double},
        {"solver: pairs solve or are impossible by class", test_solve_pairs},
        {"solver: classes against exhaustive search", test_classes_against_search},
        {"solver: fewest moves against brute force", test_min_moves_small},
        {"solver: fewest moves after Bergholt's 12th move", test_min_moves_bergholt_tail},
        {NULL, NULL},
    };
    return harness_run("solitaire", tests);
}
