/* test_fuzz.c — seeded fuzzing of the public API: mutated text, fast perft, agent specs.
 *
 * Three kinds, each a run of numbered cases over every registered variant
 * (the registry loop of test_conformance.c), so a new game is fuzzed the
 * moment it is registered:
 *   text   valid inputs (the position of a random reachable state, an action
 *          string, a whole move, a game spec, an agent spec), mutated (bit
 *          flips, insertions, deletions, truncation, splices with another
 *          game's text, control characters, huge numbers, repeated tokens)
 *          and fed to position import, action_from_string, whole-move
 *          parsing, game_create and agent_create. A call either succeeds
 *          with a consistent result (an imported position re-exports and
 *          re-imports to the same state and hash; a parsed move is legal) or
 *          fails with a negative status and a non-empty one-line message,
 *          leaving the state as it was.
 *   perft  random reachable positions (and their symmetric images) where the
 *          game's fast perft equals game_perft_generic() at depths 1..3, as
 *          deep as a node budget allows.
 *   agent  random parameter sets for every agent kind, read from its schema,
 *          with values in and out of range: out-of-range values are refused
 *          naming the key, other sets create or fail cleanly, and a created
 *          agent (with its search capped small) plays legal moves and is
 *          freed (ASan sees leaks).
 *
 * Environment: HOYLE_FUZZ_RUNS cases per kind (default DEFAULT_RUNS, a few
 * seconds), HOYLE_FUZZ_SEED (default 1), HOYLE_FUZZ_KIND (text, perft or
 * agent: only that kind) and HOYLE_FUZZ_CASE (only that case). A failure
 * prints the kind, the game, the input (C-escaped) and the command that
 * replays exactly that case. The large run is documented in docs/architecture.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "games/playout.h"
#include "games/registry.h"
#include "mcts/agent_kind.h"
#include "tests/fuzz_mutate.h"
#include "tests/harness.h"

enum {
    DEFAULT_RUNS = 1500,
    PERFT_NODE_BUDGET = 60000, /* generic perft leaves one perft case may count */
    MAX_VARIANTS = 64,
    MAX_PRINTED_FAILURES = 20
};

/* ---- configuration and failure reports ---- */

static uint64_t fuzz_seed = 1;
static long fuzz_runs = DEFAULT_RUNS, only_case = -1;
static const char *only_kind, *program = "test_fuzz";
/* Whether hoyle_error() itself keeps messages on one line (escaping the
 * newlines of echoed input). Until it does (issue 16, item 8: core/error.c),
 * the one-line check is made only for inputs without a newline. */
static int errors_one_line;

/* The case being run, for the failure report. */
static struct {
    const char *kind, *target, *game;
    long run;
    const char *input;
} cur;
static int printed_failures;

/* Accepted and refused inputs per target, printed after each kind (a fuzz
 * run that only ever refuses, or only accepts, tests little). */
enum { T_POSITION, T_ACTION, T_MOVE, T_GAME_SPEC, T_AGENT_TEXT, T_AGENT_SET, T_PERFT, T_COUNT };
static const char *const target_names[T_COUNT] = {
    "position", "action", "move", "game spec", "agent spec text", "agent set", "perft"};
static long accepted[T_COUNT], refused[T_COUNT];

static void print_stats(void)
{
    const char *sep = "\n";
    for (int t = 0; t < T_COUNT; t++) {
        if (accepted[t] + refused[t])
            fprintf(stderr, "%s  %-16s %7ld accepted %7ld refused\n", sep, target_names[t],
                    accepted[t], refused[t]);
        if (accepted[t] + refused[t]) sep = "";
        accepted[t] = refused[t] = 0;
    }
}

static void report(const char *file, int line, const char *what)
{
    if (printed_failures++ >= MAX_PRINTED_FAILURES) return;
    fprintf(stderr, "FUZZ FAILURE %s:%d: %s\n  kind %s, target %s, game %s, seed %llu, case %ld\n",
            file, line, what, cur.kind, cur.target ? cur.target : "-", cur.game ? cur.game : "-",
            (unsigned long long)fuzz_seed, cur.run);
    if (cur.input) fprintf(stderr, "  input \"%s\"\n", fuzz_escaped(cur.input));
    fprintf(stderr, "  replay: HOYLE_FUZZ_SEED=%llu HOYLE_FUZZ_KIND=%s HOYLE_FUZZ_CASE=%ld %s\n",
            (unsigned long long)fuzz_seed, cur.kind, cur.run, program);
}

#define FUZZ_EXPECT(cond, ...)                                                                     \
    do {                                                                                           \
        int fuzz_ok_ = !!(cond);                                                                   \
        if (!fuzz_ok_) {                                                                           \
            char fuzz_what_[1024];                                                                 \
            snprintf(fuzz_what_, sizeof fuzz_what_, __VA_ARGS__);                                  \
            report(__FILE__, __LINE__, fuzz_what_);                                                \
        }                                                                                          \
        CU_assertImplementation(fuzz_ok_, __LINE__, #cond, __FILE__, "", CU_FALSE);                \
    } while (0)

/* A refused input: a negative status and a non-empty one-line message. */
static void expect_clean_failure(int status, const char *input)
{
    const char *msg = hoyle_last_error();
    FUZZ_EXPECT(status < 0, "failed with a non-negative status %d", status);
    FUZZ_EXPECT(msg[0] != '\0', "failed (%d) without a message", status);
    if (errors_one_line || strpbrk(input, "\r\n") == NULL)
        FUZZ_EXPECT(strpbrk(msg, "\r\n") == NULL, "multi-line message \"%s\"", fuzz_escaped(msg));
}

/* ---- the variants, created once ---- */

static const game_t *variants[MAX_VARIANTS];
static int num_variants;

static void variants_create(void)
{
    num_variants = 0;
    for (int i = 0; game_registry[i]; i++)
        for (int v = 0; game_registry[i]->variants[v] && num_variants < MAX_VARIANTS; v++) {
            const game_t *g = NULL;
            HARNESS_OK(game_create(game_registry[i]->variants[v], &g));
            if (g) variants[num_variants++] = g;
        }
}

static void variants_free(void)
{
    for (int i = 0; i < num_variants; i++) game_free(variants[i]);
    num_variants = 0;
}

/* Whether HOYLE_FUZZ_KIND lets `kind` run. */
static int kind_enabled(const char *kind) { return only_kind == NULL || !strcmp(only_kind, kind); }

static void case_rng(rng_t *rng, uint64_t salt, long run)
{
    rng_init(rng, rng_mix(fuzz_seed ^ rng_mix(salt * 0x9E3779B97F4A7C15ull + (uint64_t)run)));
}

/* Scratch sized for one game. */
typedef struct scratch {
    int *legal;
    double *probs;
    char *s, *s2, *s3, *text, *text2;
} scratch_t;

static void scratch_init(const game_t *g, scratch_t *x)
{
    size_t na = (size_t)game_scratch_actions(g) + 1;
    x->legal = calloc(na, sizeof(int));
    x->probs = calloc(na, sizeof(double));
    x->s = calloc(1, g->state_size);
    x->s2 = calloc(1, g->state_size);
    x->s3 = calloc(1, g->state_size);
    x->text = calloc(1, GAME_TEXT_MAX);
    x->text2 = calloc(1, GAME_TEXT_MAX);
}

static void scratch_done(scratch_t *x)
{
    free(x->legal), free(x->probs);
    free(x->s), free(x->s2), free(x->s3), free(x->text), free(x->text2);
}

/* The variants and one scratch each, for one kind's run. */
static scratch_t *kind_begin(const char *kind, const char *target)
{
    cur.kind = kind, cur.target = target;
    variants_create();
    scratch_t *xs = calloc((size_t)num_variants + 1, sizeof *xs);
    for (int v = 0; v < num_variants; v++) scratch_init(variants[v], &xs[v]);
    return xs;
}

static void kind_end(scratch_t *xs)
{
    cur.target = NULL, cur.game = NULL, cur.input = NULL;
    print_stats();
    for (int v = 0; v < num_variants; v++) scratch_done(&xs[v]);
    free(xs);
    variants_free();
}

/* A random reachable state: a random playout of random length from the start. */
static void random_state(const game_t *g, rng_t *rng, void *s, scratch_t *x)
{
    game_init(g, s);
    int cap = g->max_game_length < 400 ? g->max_game_length : 400;
    int len = (int)rng_below(rng, rng_below(rng, 4) ? 40u : (uint32_t)cap + 1);
    for (int i = 0; i < len && !game_is_terminal(g, s); i++)
        game_apply(g, s, game_random_action(g, s, rng, x->legal, x->probs));
}

/* ---- kind text: positions, actions, whole moves, specs ---- */

/* A random whole move from `s` (reservoir sampling over game_whole_moves). */
typedef struct move_pick {
    rng_t *rng;
    int seen, n, actions[GAME_MAX_CHAIN];
} move_pick_t;

static int pick_move(const int *actions, int n, const void *after, void *ctx)
{
    (void)after;
    move_pick_t *m = ctx;
    if (rng_below(m->rng, (uint32_t)++m->seen) == 0 && n <= GAME_MAX_CHAIN) {
        memcpy(m->actions, actions, sizeof *actions * (size_t)n);
        m->n = n;
    }
    return 0;
}

/* An accepted position: consistent, re-exports and re-imports to the same
 * state and hash, and its rules hold for a few random actions. */
static void check_imported(const game_t *g, const void *s, scratch_t *x, rng_t *rng)
{
    FUZZ_EXPECT(game_hash(g, s) == game_hash_recompute(g, s), "imported hash is stale");
    int len = game_position_to_string(g, s, x->text2, GAME_TEXT_MAX);
    FUZZ_EXPECT(len > 0, "imported position does not export: %s", hoyle_last_error());
    if (len <= 0) return;
    memset(x->s3, 0x5A, g->state_size);
    int st = game_position_from_string(g, x->text2, x->s3);
    FUZZ_EXPECT(st == 0, "re-export '%s' does not import: %s", fuzz_escaped(x->text2),
                hoyle_last_error());
    if (st) return;
    FUZZ_EXPECT(memcmp(s, x->s3, g->state_size) == 0, "re-import of '%s' is another state",
                fuzz_escaped(x->text2));
    FUZZ_EXPECT(game_hash(g, x->s3) == game_hash(g, s), "re-import hashes differently");
    char *again = malloc(GAME_TEXT_MAX);
    game_position_to_string(g, x->s3, again, GAME_TEXT_MAX);
    FUZZ_EXPECT(strcmp(again, x->text2) == 0, "re-export '%s' is not '%s'", again, x->text2);
    free(again);
    /* It draws, and its observation fills exactly the declared shape (a
     * buffer of that size: ASan sees a write past it) with finite values. */
    FUZZ_EXPECT(game_state_to_string(g, s, x->text2, GAME_TEXT_MAX) > 0,
                "imported position does not draw: %s", hoyle_last_error());
    int size = game_obs_size(g), bad = 0;
    float *obs = malloc(sizeof *obs * (size_t)size);
    for (int p = 0; p < g->num_players; p++) {
        for (int i = 0; i < size; i++) obs[i] = NAN;
        game_observe(g, s, p, obs);
        for (int i = 0; i < size; i++) bad += !isfinite(obs[i]);
    }
    FUZZ_EXPECT(bad == 0, "observation of the imported position has %d bad values", bad);
    free(obs);
    /* The accepted state follows the rules for a few random actions. */
    memcpy(x->s3, s, g->state_size);
    for (int k = 0; k < 12; k++) {
        int p = game_current_player(g, x->s3);
        FUZZ_EXPECT(p == PLAYER_TERMINAL || p == PLAYER_CHANCE || (p >= 0 && p < g->num_players),
                    "player %d after import", p);
        if (p == PLAYER_TERMINAL || p < PLAYER_CHANCE || p >= g->num_players) break;
        int n = p == PLAYER_CHANCE ? game_chance_outcomes(g, x->s3, x->legal, x->probs)
                                   : game_legal_actions(g, x->s3, x->legal);
        FUZZ_EXPECT(n >= 1 && n <= (p == PLAYER_CHANCE ? g->max_chance_outcomes : g->max_legal),
                    "%d legal actions for player %d after import", n, p);
        if (n < 1) break;
        for (int i = 0; i < n && k == 0 && p >= 0; i++) { /* action text round-trips */
            char a[GAME_MOVE_MAX];
            int back = -1;
            int alen = game_action_to_string(g, x->s3, x->legal[i], a, sizeof a);
            FUZZ_EXPECT(alen > 0 && game_action_from_string(g, x->s3, a, &back) == 0 &&
                            back == x->legal[i],
                        "after import, action %d prints as '%s' and parses as %d", x->legal[i],
                        alen > 0 ? a : "", back);
        }
        if (p >= 0) {
            double e = game_evaluate(g, x->s3, p);
            FUZZ_EXPECT(e >= -1 && e <= 1, "evaluate %g after import", e);
        }
        if (k == 0 && p >= 0 && game_has_fast_perft(g) && n <= 64)
            FUZZ_EXPECT(game_perft(g, x->s3, 2) == game_perft_generic(g, x->s3, 2),
                        "imported position: fast perft(2) != generic");
        game_apply(g, x->s3, x->legal[rng_below(rng, (uint32_t)n)]);
        FUZZ_EXPECT(game_hash(g, x->s3) == game_hash_recompute(g, x->s3),
                    "stale hash %d actions after import", k + 1);
    }
}

static void fuzz_position(const game_t *g, scratch_t *x, rng_t *rng, const char *other)
{
    cur.target = "position";
    game_position_to_string(g, x->s, x->text, GAME_TEXT_MAX);
    int changed;
    char *in = fuzz_mutated(rng, x->text, other, &changed);
    cur.input = in;
    memcpy(x->s2, x->s, g->state_size);
    hoyle_clear_error();
    int st = game_position_from_string(g, in, x->s2);
    ++*(st == 0 ? &accepted[T_POSITION] : &refused[T_POSITION]);
    if (st == 0)
        check_imported(g, x->s2, x, rng);
    else {
        FUZZ_EXPECT(changed, "the unmutated position is refused: %s", hoyle_last_error());
        expect_clean_failure(st, in);
        FUZZ_EXPECT(memcmp(x->s2, x->s, g->state_size) == 0, "refused position changed the state");
    }
    cur.input = NULL;
    free(in);
}

static void fuzz_action(const game_t *g, scratch_t *x, rng_t *rng, const char *other)
{
    cur.target = "action";
    int p = game_current_player(g, x->s);
    if (p == PLAYER_TERMINAL) return;
    int n = p == PLAYER_CHANCE ? game_chance_outcomes(g, x->s, x->legal, x->probs)
                               : game_legal_actions(g, x->s, x->legal);
    if (n < 1) return;
    int want = x->legal[rng_below(rng, (uint32_t)n)];
    char base[GAME_MOVE_MAX];
    if (game_action_to_string(g, x->s, want, base, sizeof base) <= 0) {
        FUZZ_EXPECT(0, "action %d has no text: %s", want, hoyle_last_error());
        return;
    }
    int changed, action = -7;
    char *in = fuzz_mutated(rng, base, other, &changed);
    cur.input = in;
    memcpy(x->s2, x->s, g->state_size);
    hoyle_clear_error();
    int st = game_action_from_string(g, x->s2, in, &action);
    ++*(st == 0 ? &accepted[T_ACTION] : &refused[T_ACTION]);
    FUZZ_EXPECT(memcmp(x->s2, x->s, g->state_size) == 0, "action parsing changed the state");
    if (st == 0) {
        FUZZ_EXPECT(game_is_legal(g, x->s, action), "parsed action %d is not legal", action);
        FUZZ_EXPECT(changed || action == want, "'%s' parsed as %d, not %d", base, action, want);
    } else {
        FUZZ_EXPECT(changed, "the unmutated action '%s' is refused: %s", base, hoyle_last_error());
        expect_clean_failure(st, in);
        FUZZ_EXPECT(action == -7, "a failed action parse wrote its output (%d)", action);
    }
    cur.input = NULL;
    free(in);
}

static void fuzz_move(const game_t *g, scratch_t *x, rng_t *rng, const char *other)
{
    cur.target = "move";
    int mover = game_current_player(g, x->s);
    if (mover < 0) return;
    move_pick_t m = {.rng = rng};
    game_whole_moves(g, x->s, pick_move, &m);
    if (m.seen == 0) return;
    char base[GAME_MOVE_MAX * 2];
    if (game_move_to_string(g, x->s, m.actions, m.n, base, sizeof base) <= 0) {
        FUZZ_EXPECT(0, "whole move has no text: %s", hoyle_last_error());
        return;
    }
    int changed, actions[GAME_MAX_CHAIN + 1];
    if (m.n > 1) { /* the valid move into a cap one short: refused, nothing written past it */
        cur.input = base;
        actions[m.n - 1] = -7;
        hoyle_clear_error();
        int n = game_move_from_string(g, x->s, base, actions, m.n - 1);
        FUZZ_EXPECT(n < 0, "a move of %d actions parsed into a cap of %d", m.n, m.n - 1);
        if (n < 0) expect_clean_failure(n, base);
        FUZZ_EXPECT(actions[m.n - 1] == -7, "move parsing wrote past cap %d", m.n - 1);
    }
    char *in = fuzz_mutated(rng, base, other, &changed);
    cur.input = in;
    /* sometimes a cap near the move's length (a cap too small is refused) */
    int cap = rng_below(rng, 4) == 0 ? 1 + (int)fuzz_pick(rng, (size_t)m.n + 1) : GAME_MAX_CHAIN;
    actions[cap] = -7;
    memcpy(x->s2, x->s, g->state_size);
    hoyle_clear_error();
    int n = game_move_from_string(g, x->s2, in, actions, cap);
    ++*(n > 0 ? &accepted[T_MOVE] : &refused[T_MOVE]);
    FUZZ_EXPECT(memcmp(x->s2, x->s, g->state_size) == 0, "move parsing changed the state");
    FUZZ_EXPECT(actions[cap] == -7, "move parsing wrote past cap %d", cap);
    if (n > 0) {
        FUZZ_EXPECT(n <= cap, "%d actions parsed into a cap of %d", n, cap);
        /* Legal in sequence, all by the mover, and the whole move: the mover
         * changes after it (or the game ends, or chance is next). */
        int ok = 1;
        for (int i = 0; i < n && ok; i++) {
            ok = game_current_player(g, x->s2) == mover && game_is_legal(g, x->s2, actions[i]);
            FUZZ_EXPECT(ok, "action %d (%d) of the parsed move is not legal", i, actions[i]);
            if (ok) game_apply(g, x->s2, actions[i]);
        }
        /* (a one-player game may parse a sequence of its whole moves, each one
         * action: Solitaire's marble runs) */
        if (ok && g->num_players > 1)
            FUZZ_EXPECT(game_current_player(g, x->s2) != mover, "parsed move is not a whole move");
        if (!changed && cap >= m.n) {
            int same = n == m.n;
            for (int i = 0; same && i < n; i++) same = actions[i] == m.actions[i];
            FUZZ_EXPECT(same, "the unmutated move '%s' parses as another move", base);
        }
    } else {
        FUZZ_EXPECT(n != 0, "move parsing returned 0 actions");
        FUZZ_EXPECT(changed || cap < m.n, "the unmutated move '%s' is refused: %s", base,
                    hoyle_last_error());
        expect_clean_failure(n, in);
    }
    /* game_apply_move_string: all or nothing. */
    memcpy(x->s2, x->s, g->state_size);
    hoyle_clear_error();
    int applied = game_apply_move_string(g, x->s2, in);
    if (applied < 0) {
        expect_clean_failure(applied, in);
        FUZZ_EXPECT(memcmp(x->s2, x->s, g->state_size) == 0, "refused move changed the state");
    } else {
        FUZZ_EXPECT(applied > 0, "applied a move of %d actions", applied);
        FUZZ_EXPECT(game_hash(g, x->s2) == game_hash_recompute(g, x->s2),
                    "stale hash after the move");
    }
    cur.input = NULL;
    free(in);
}

static void fuzz_game_spec(const game_t *g, rng_t *rng, const char *other)
{
    cur.target = "game spec";
    const char *base = rng_below(rng, 2) ? g->spec : g->entry->name;
    int changed;
    char *in = fuzz_mutated(rng, base, other, &changed);
    cur.input = in;
    const game_t *made = (const game_t *)&changed; /* a sentinel game_create must not touch */
    hoyle_clear_error();
    int st = game_create(in, &made);
    ++*(st == 0 ? &accepted[T_GAME_SPEC] : &refused[T_GAME_SPEC]);
    if (st == 0) {
        /* The canonical spec makes the same game again. */
        const game_t *again = NULL;
        int st2 = game_create(made->spec, &again);
        FUZZ_EXPECT(st2 == 0, "canonical spec '%s' is refused: %s", made->spec, hoyle_last_error());
        if (st2 == 0) FUZZ_EXPECT(!strcmp(again->spec, made->spec), "canonical spec changes");
        game_free(again);
        void *s = calloc(1, made->state_size);
        char *text = calloc(1, GAME_TEXT_MAX);
        game_init(made, s);
        FUZZ_EXPECT(game_position_to_string(made, s, text, GAME_TEXT_MAX) > 0,
                    "start position does not export");
        free(text);
        free(s);
        game_free(made);
    } else {
        FUZZ_EXPECT(changed, "the unmutated spec is refused: %s", hoyle_last_error());
        expect_clean_failure(st, in);
        FUZZ_EXPECT(made == (const game_t *)&changed, "failed game_create wrote its output");
    }
    cur.input = NULL;
    free(in);
}

/* ---- agent kinds and their caps ---- */

/* What a search may cost here: the keys that decide time and memory, and
 * their largest value in a fuzz case (sims, depth and time_ms 0 mean "the
 * default", which is bigger, so they are allowed only as the code below says). */
typedef struct cap {
    const char *key;
    long long max;
} cap_t;
static const cap_t caps[] = {{"sims", 64}, {"time_ms", 10},   {"tt_mb", 4},      {"nodes", 200000},
                             {"depth", 2}, {"rollouts", 4},   {"batch", 16},     {"qdepth", 8},
                             {"level", 1}, {"iterations", 8}, {"memory_mb", 16}, {"threads", 4},
                             {NULL, 0}};

static const agent_kind_t *kind_named(const char *name)
{
    for (int i = 0; agent_kind_at(i); i++)
        if (!strcmp(agent_kind_at(i)->name, name)) return agent_kind_at(i);
    return NULL;
}

/* How `text` binds for game `g`, by the binder agent_create() uses: BIND_FAILS
 * (it does not parse or bind: creating it must fail), BIND_OVER_CAPS (it binds,
 * but acting or even creating would cost more than a fuzz case may) or
 * BIND_OK (cheap to create and to let act). */
enum { BIND_FAILS, BIND_OVER_CAPS, BIND_OK };
static int bind_caps(const game_t *g, const char *text)
{
    static spec_t sp;
    static params_t p;
    if (spec_parse(text, &sp)) return BIND_FAILS;
    const agent_kind_t *k = kind_named(sp.name);
    if (k == NULL || params_bind(k->params, &sp, k->name, &p)) return BIND_FAILS;
    long long time_ms = params_has(&p, "time_ms") ? params_int(&p, "time_ms") : 0;
    for (int c = 0; caps[c].key; c++) {
        if (!params_has(&p, caps[c].key)) continue;
        long long v = params_int(&p, caps[c].key), max = caps[c].max;
        if (!strcmp(caps[c].key, "depth") && g->max_chance_outcomes > 0) max = 1;
        if (v > max) return BIND_OVER_CAPS;
        if (v == 0 && time_ms == 0 &&
            (!strcmp(caps[c].key, "sims") || !strcmp(caps[c].key, "depth")))
            return BIND_OVER_CAPS;
    }
    return BIND_OK;
}

/* A decision state of `g` reachable from the start. */
static void random_decision_state(const game_t *g, rng_t *rng, void *s, scratch_t *x)
{
    random_state(g, rng, s, x);
    while (game_is_chance(g, s))
        game_apply(g, s, game_random_action(g, s, rng, x->legal, x->probs));
    if (game_is_terminal(g, s)) game_init(g, s);
    while (game_is_chance(g, s))
        game_apply(g, s, game_random_action(g, s, rng, x->legal, x->probs));
}

/* Agent `a` plays up to two legal moves from a random decision state. */
static void agent_plays(agent_t *a, const game_t *g, scratch_t *x, rng_t *rng)
{
    random_decision_state(g, rng, x->s, x);
    for (int k = 0; k < 2 && game_current_player(g, x->s) >= 0; k++) {
        int action = -7;
        memcpy(x->s2, x->s, g->state_size);
        hoyle_clear_error();
        int st = agent_act(a, x->s, &action);
        FUZZ_EXPECT(memcmp(x->s2, x->s, g->state_size) == 0, "agent_act changed the state");
        FUZZ_EXPECT(st == 0, "agent %s could not act: %s", agent_spec(a), hoyle_last_error());
        if (st) return;
        FUZZ_EXPECT(game_is_legal(g, x->s, action), "agent %s played illegal %d", agent_spec(a),
                    action);
        if (!game_is_legal(g, x->s, action)) return;
        agent_observe(a, x->s, action);
        game_apply(g, x->s, action);
        while (game_is_chance(g, x->s)) {
            int c = game_random_action(g, x->s, rng, x->legal, x->probs);
            agent_observe(a, x->s, c);
            game_apply(g, x->s, c);
        }
    }
}

static void fuzz_agent_spec_text(const game_t *g, rng_t *rng, const char *other)
{
    static const char *const bases[] = {
        "random",
        "greedy",
        "greedy(whole=true)",
        "alphabeta(depth=2,tt_mb=1)",
        "expectimax(depth=1,tt_mb=1)",
        "alphabeta(depth=1,time_ms=5,tt_mb=1,quiescence=true,qdepth=4)",
        "mcts(sims=16)",
        "mcts(sims=8,select=puct,eval=fake,batch=4,noise_eps=0.25,temp=1)",
        "mcts(sims=8,eval=heuristic,fpu=parent-0.2,solver=false,reuse=false,nodes=64)"};
    cur.target = "agent spec";
    const char *base = bases[fuzz_pick(rng, sizeof bases / sizeof *bases)];
    int changed;
    char *in = fuzz_mutated(
        rng, base, rng_below(rng, 2) ? other : bases[fuzz_pick(rng, sizeof bases / sizeof *bases)],
        &changed);
    cur.input = in;
    if (bind_caps(g, in) != BIND_OVER_CAPS) {
        agent_t *a = (agent_t *)&changed; /* a sentinel agent_create must not touch */
        hoyle_clear_error();
        int st = agent_create(g, in, rng_next(rng), &a);
        ++*(st == 0 ? &accepted[T_AGENT_TEXT] : &refused[T_AGENT_TEXT]);
        if (st == 0)
            agent_free(a);
        else {
            FUZZ_EXPECT(changed, "the unmutated agent spec is refused: %s", hoyle_last_error());
            expect_clean_failure(st, in);
            FUZZ_EXPECT(a == (agent_t *)&changed, "failed agent_create wrote its output");
        }
    }
    cur.input = NULL;
    free(in);
}

static void test_text(void)
{
    if (!kind_enabled("text")) return;
    scratch_t *xs = kind_begin("text", NULL);
    char *other = malloc(GAME_TEXT_MAX);
    for (long run = 0; run < fuzz_runs && num_variants; run++) {
        if (only_case >= 0 && run != only_case) continue;
        rng_t rng;
        case_rng(&rng, 1, run);
        const game_t *g = variants[run % num_variants];
        scratch_t *x = &xs[run % num_variants];
        cur.run = run, cur.game = g->spec;
        /* Another valid text to splice in: a position, action or spec of any variant. */
        int w = (int)fuzz_pick(&rng, (size_t)num_variants);
        random_state(variants[w], &rng, xs[w].s, &xs[w]);
        switch (rng_below(&rng, 3)) {
        case 0: game_position_to_string(variants[w], xs[w].s, other, GAME_TEXT_MAX); break;
        case 1: snprintf(other, GAME_TEXT_MAX, "%s", variants[w]->spec); break;
        default: {
            int n = game_is_terminal(variants[w], xs[w].s)
                        ? 0
                        : game_legal_actions(variants[w], xs[w].s, xs[w].legal);
            other[0] = '\0';
            if (n > 0)
                game_action_to_string(variants[w], xs[w].s, xs[w].legal[fuzz_pick(&rng, (size_t)n)],
                                      other, GAME_MOVE_MAX);
        }
        }
        random_state(g, &rng, x->s, x);
        fuzz_position(g, x, &rng, other);
        fuzz_action(g, x, &rng, other);
        fuzz_move(g, x, &rng, other);
        fuzz_game_spec(g, &rng, other);
        fuzz_agent_spec_text(g, &rng, other);
    }
    free(other);
    kind_end(xs);
}

/* ---- kind perft: fast perft = generic perft on reachable positions ---- */

static void test_perft(void)
{
    if (!kind_enabled("perft")) return;
    scratch_t *xs = kind_begin("perft", "perft");
    int fast = 0;
    for (int v = 0; v < num_variants; v++) fast += game_has_fast_perft(variants[v]);
    for (long run = 0; run < fuzz_runs && fast; run++) {
        if (only_case >= 0 && run != only_case) continue;
        const game_t *g = variants[run % num_variants];
        if (!game_has_fast_perft(g)) continue;
        scratch_t *x = &xs[run % num_variants];
        rng_t rng;
        case_rng(&rng, 2, run);
        cur.run = run, cur.game = g->spec;
        random_state(g, &rng, x->s, x);
        if (g->num_symmetries > 1 && rng_below(&rng, 2)) {
            game_symmetry_state(g, g->symmetries[fuzz_pick(&rng, (size_t)g->num_symmetries)], x->s,
                                x->s2);
            memcpy(x->s, x->s2, g->state_size);
        }
        game_position_to_string(g, x->s, x->text, GAME_TEXT_MAX);
        cur.input = x->text;
        uint64_t prev = 1, first = game_perft_generic(g, x->s, 1);
        for (int d = 1; d <= 3; d++) {
            if (d > 1 && (prev * first > PERFT_NODE_BUDGET || prev == 0)) break;
            uint64_t a = game_perft(g, x->s, d), b = game_perft_generic(g, x->s, d);
            FUZZ_EXPECT(a == b, "fast perft(%d) = %llu, generic %llu", d, (unsigned long long)a,
                        (unsigned long long)b);
            prev = b;
            accepted[T_PERFT]++;
        }
        cur.input = NULL;
    }
    kind_end(xs);
}

/* ---- kind agent: random parameter sets from every kind's schema ---- */

/* Append a value for `d` to `spec`; returns 1 when it is certainly out of
 * the schema (agent_create must refuse it, naming the key). */
static int random_value(const param_def_t *d, rng_t *rng, const game_t *g, char *out, size_t cap)
{
    static const char *const junk[] = {"", "abc", "1.5x", "nan", "inf", "1e999", "--1", "0x"};
    static const char *const bools[] = {"true", "false", "1", "0", "yes", "no", "on", "off"};
    static const char *const fpus[] = {"auto",   "inf", "parent", "parent-0.3",
                                       "0.5",    "-1",  "1",      "parent-",
                                       "banana", "2",   "-0.25",  "parent-9"};
    long long vmax = (long long)d->max;
    for (int c = 0; caps[c].key; c++)
        if (!strcmp(caps[c].key, d->key) && caps[c].max < vmax) vmax = caps[c].max;
    if (!strcmp(d->key, "depth") && g->max_chance_outcomes > 0) vmax = 1;
    int bad = rng_below(rng, 6) == 0;
    switch (d->type) {
    case PARAM_INT:
        if (!bad) {
            long long lo = (long long)d->min, lo1 = lo < 1 && vmax >= 1 ? 1 : lo;
            if (!strcmp(d->key, "sims") || !strcmp(d->key, "depth")) lo = lo1; /* 0 = default */
            snprintf(out, cap, "%lld", lo + (long long)fuzz_pick(rng, (size_t)(vmax - lo + 1)));
            return 0;
        }
        switch (rng_below(rng, 4)) {
        case 0: snprintf(out, cap, "%lld", (long long)d->min - 1); return 1;
        case 1: snprintf(out, cap, "%lld", (long long)d->max + 1); return 1;
        case 2: snprintf(out, cap, "%s", "1.5"); return 1;
        default: snprintf(out, cap, "%s", junk[fuzz_pick(rng, 8)]); return 1;
        }
    case PARAM_DOUBLE:
        if (!bad) {
            snprintf(out, cap, "%.17g", d->min + (d->max - d->min) * rng_double(rng));
            return 0;
        }
        switch (rng_below(rng, 3)) {
        case 0: snprintf(out, cap, "%.17g", d->min - 1 - d->min * 1e-9); return 1;
        case 1: snprintf(out, cap, "%.17g", d->max * 2 + 1); return 1;
        default: snprintf(out, cap, "%s", junk[fuzz_pick(rng, 8)]); return 1;
        }
    case PARAM_BOOL:
        if (!bad) {
            snprintf(out, cap, "%s", bools[fuzz_pick(rng, 8)]);
            return 0;
        }
        snprintf(out, cap, "%s", rng_below(rng, 2) ? "maybe" : "2");
        return 1;
    case PARAM_CHOICE: {
        if (bad) {
            snprintf(out, cap, "%s", "no_such_choice");
            return 1;
        }
        int n = 1;
        for (const char *c = d->choices; *c; c++) n += *c == '|';
        int k = (int)fuzz_pick(rng, (size_t)n);
        const char *c = d->choices;
        while (k-- > 0) c = strchr(c, '|') + 1;
        size_t len = strcspn(c, "|");
        snprintf(out, cap, "%.*s", (int)len, c);
        return 0;
    }
    case PARAM_STRING:
        /* free text: the kind parses it (fpu is the only one today) */
        snprintf(out, cap, "%s",
                 !strcmp(d->key, "fpu") ? fpus[fuzz_pick(rng, 12)] : junk[fuzz_pick(rng, 8)]);
        return 0;
    case PARAM_LIST:
    case PARAM_SECTION:
    case PARAM_TABLE: break; /* config schemas only, never an agent's */
    }
    return 0;
}

static void test_agent_specs(void)
{
    if (!kind_enabled("agent")) return;
    scratch_t *xs = kind_begin("agent", "agent spec");
    int nkinds = 0; /* every kind agent_create() knows (the human kind never acts) */
    while (agent_kind_at(nkinds)) nkinds++;
    char *spec = malloc(8192);
    for (long run = 0; run < fuzz_runs && num_variants; run++) {
        if (only_case >= 0 && run != only_case) continue;
        rng_t rng;
        case_rng(&rng, 3, run);
        const agent_kind_t *k = agent_kind_at((int)(run % nkinds));
        int vi = (int)fuzz_pick(&rng, (size_t)num_variants);
        const game_t *g = variants[vi];
        cur.run = run, cur.game = g->spec;
        /* Each key at most once, in a random subset; sometimes an unknown key. */
        size_t used = (size_t)snprintf(spec, 8192, "%s(", k->name);
        const char *bad_keys[SPEC_MAX_PARAMS + 1];
        int nbad = 0, nkeys = 0;
        for (int i = 0; k->params[i].key; i++) {
            if (rng_below(&rng, 2)) continue;
            char value[64];
            if (random_value(&k->params[i], &rng, g, value, sizeof value))
                bad_keys[nbad++] = k->params[i].key;
            used += (size_t)snprintf(spec + used, 8192 - used, "%s%s=%s", nkeys++ ? "," : "",
                                     k->params[i].key, value);
        }
        if (rng_below(&rng, 16) == 0) {
            used +=
                (size_t)snprintf(spec + used, 8192 - used, "%sno_such_key=1", nkeys++ ? "," : "");
            bad_keys[nbad++] = "no_such_key";
        }
        snprintf(spec + used, 8192 - used, ")");
        cur.input = spec;
        int bound = bind_caps(g, spec);
        if (nbad > 0 && bound != BIND_FAILS) {
            /* never created: an accepted out-of-range value may cost anything */
            FUZZ_EXPECT(0, "binds with a value out of its schema (%s)", bad_keys[0]);
            continue;
        }
        if (bound == BIND_OVER_CAPS) continue;
        agent_t *a = NULL;
        hoyle_clear_error();
        int st = agent_create(g, spec, rng_next(&rng), &a);
        ++*(st == 0 ? &accepted[T_AGENT_SET] : &refused[T_AGENT_SET]);
        if (nbad > 0) {
            FUZZ_EXPECT(st != 0, "accepted with a value out of its schema (%s)", bad_keys[0]);
            int named = 0;
            for (int i = 0; i < nbad; i++) named |= strstr(hoyle_last_error(), bad_keys[i]) != NULL;
            if (st) FUZZ_EXPECT(named, "message \"%s\" names no bad key", hoyle_last_error());
        }
        if (st) {
            expect_clean_failure(st, spec);
            FUZZ_EXPECT(a == NULL, "failed agent_create wrote its output");
        } else {
            /* The canonical spec makes the same agent again. */
            agent_t *b = NULL;
            int st2 = agent_create(g, agent_spec(a), 1, &b);
            FUZZ_EXPECT(st2 == 0 && !strcmp(agent_spec(b), agent_spec(a)),
                        "canonical spec '%s' does not make itself: %s", agent_spec(a),
                        st2 ? hoyle_last_error() : agent_spec(b));
            agent_free(b);
            if (!agent_is_human(a)) agent_plays(a, g, &xs[vi], &rng);
            agent_free(a);
        }
        cur.input = NULL;
    }
    free(spec);
    kind_end(xs);
}

int main(int argc, char **argv)
{
    (void)argc;
    program = argv[0];
    const char *env = getenv("HOYLE_FUZZ_RUNS");
    if (env && atol(env) > 0) fuzz_runs = atol(env);
    env = getenv("HOYLE_FUZZ_SEED");
    if (env && *env) fuzz_seed = strtoull(env, NULL, 10);
    env = getenv("HOYLE_FUZZ_CASE");
    if (env && *env) only_case = atol(env);
    if (only_case >= fuzz_runs) fuzz_runs = only_case + 1;
    only_kind = getenv("HOYLE_FUZZ_KIND");
    if (only_kind && !*only_kind) only_kind = NULL;
    hoyle_error(HOYLE_EINVAL, "probe '%s'", "a\nb");
    errors_one_line = strpbrk(hoyle_last_error(), "\r\n") == NULL;
    hoyle_error_prefix(HOYLE_EINVAL, "at '%s'", "c\rd");
    errors_one_line &= strpbrk(hoyle_last_error(), "\r\n") == NULL;
    hoyle_clear_error();
    fprintf(stderr, "fuzz: seed %llu, %ld cases per kind%s\n", (unsigned long long)fuzz_seed,
            fuzz_runs,
            errors_one_line ? "" : " (messages of input with a newline not checked: issue 16)");
    static const harness_test_t tests[] = {
        {"text: mutated positions, actions, moves and specs", test_text},
        {"perft: fast = generic on random reachable positions", test_perft},
        {"agent: random parameter sets of every kind", test_agent_specs},
        {NULL, NULL},
    };
    return harness_run("fuzz", tests);
}
