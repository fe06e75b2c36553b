/* test_conformance.c — the suite every registered game and variant passes
 * (DESIGN.md, last section; OpenSpiel's RandomSimTest). It loops over
 * game_registry[], so a game is covered the moment it is registered.
 *
 * Seeded random games to the end; at every state it checks the contract:
 * legal actions well-formed and applicable, incremental hash = recomputed
 * hash, position text round-trips, action and whole-move text round-trip,
 * bad text is rejected without changing anything, observations fill exactly
 * the declared shape with finite values, symmetries map legal actions to
 * legal actions and observations to transformed observations, chance
 * probabilities sum to 1, returns are in [-1, 1] and zero-sum for two
 * players, the fast perft equals the generic one, a game's legal_count
 * equals its legal-action count, and a game that says its actions are
 * whole moves (one_action_moves) never gives a player two in a row. Same seed, same game.
 * The chance sampler draws outcomes by their probabilities. A game's
 * record writer, where it has one, carries every tag and refuses
 * illegal actions; where it has none, it says so.
 *
 * HOYLE_CONFORMANCE_GAMES overrides the number of games per variant.
 *
 * `test_conformance K/N` runs shard K of N (0 <= K < N): the variants whose
 * index in the registry's walk (games, then their variants) is K mod N, the
 * per-game checks of the games whose index is K mod N, and the registry
 * self-check in shard 0. The N shards together run every check once, as
 * the plain `test_conformance` does; CTest runs them as separate entries
 * (tests/CMakeLists.txt) so that none nears the timeout on a loaded machine. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "games/playout.h"
#include "games/registry.h"
#include "games/symmetry.h"
#include "tests/harness.h"

enum { DEFAULT_GAMES = 1000, OBS_GUARD = 16 };

/* This run's shard (see the top); 0/1 is the whole suite. */
static int shard_k = 0, shard_n = 1;

static int in_shard(int index) { return index % shard_n == shard_k; }

/* One failure message per variant and check is enough to debug; count the rest. */
static int failures;
#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        int expect_ok_ = !!(cond);                                                                 \
        if (!expect_ok_ && failures++ < 20) {                                                      \
            fprintf(stderr, "%s: %s:%d: ", g->spec, __FILE__, __LINE__);                           \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
        }                                                                                          \
        CU_assertImplementation(expect_ok_, __LINE__, #cond, __FILE__, "", CU_FALSE);              \
    } while (0)

typedef struct scratch {
    int *legal, *legal2, *mapped;
    double *probs;
    float *obs, *obs2, *obs3;
    char *s2, *s3, *text, *text2;
} scratch_t;

static void scratch_init(const game_t *g, scratch_t *x)
{
    size_t na = (size_t)game_scratch_actions(g) + 1, no = (size_t)game_obs_size(g) + OBS_GUARD;
    x->legal = calloc(na, sizeof(int));
    x->legal2 = calloc(na, sizeof(int));
    x->mapped = calloc(na, sizeof(int));
    x->probs = calloc(na, sizeof(double));
    x->obs = calloc(no, sizeof(float));
    x->obs2 = calloc(no, sizeof(float));
    x->obs3 = calloc(no, sizeof(float));
    x->s2 = calloc(1, g->state_size);
    x->s3 = calloc(1, g->state_size);
    x->text = calloc(1, GAME_TEXT_MAX);
    x->text2 = calloc(1, GAME_TEXT_MAX);
}

static void scratch_done(scratch_t *x)
{
    free(x->legal), free(x->legal2), free(x->mapped), free(x->probs);
    free(x->obs), free(x->obs2), free(x->obs3);
    free(x->s2), free(x->s3), free(x->text), free(x->text2);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Legal actions of a non-terminal player state: in range, ascending, unique,
 * each with an action string that parses back to itself. */
static int check_legal(const game_t *g, const void *s, scratch_t *x)
{
    int n = game_legal_actions(g, s, x->legal);
    EXPECT(n >= 1 && n <= g->max_legal, "legal count %d outside [1, %d]", n, g->max_legal);
    for (int i = 0; i < n; i++) {
        EXPECT(x->legal[i] >= 0 && x->legal[i] < g->num_actions, "action %d out of range",
               x->legal[i]);
        if (i) EXPECT(x->legal[i] > x->legal[i - 1], "legal actions not ascending/unique");
        char a[GAME_MOVE_MAX];
        int back = -1;
        int len = game_action_to_string(g, s, x->legal[i], a, sizeof a);
        EXPECT(len > 0, "action_to_string(%d) failed: %s", x->legal[i], hoyle_last_error());
        int st = game_action_from_string(g, s, a, &back);
        EXPECT(st == 0 && back == x->legal[i], "action '%s' (%d) parsed back as %d (%s)", a,
               x->legal[i], back, st ? hoyle_last_error() : "ok");
    }
    /* a game's own count (perft's bulk counting) is the length of that list */
    if (game_has_legal_count(g))
        EXPECT(game_legal_count(g, s, NULL) == n, "legal_count %d, legal_actions %d",
               game_legal_count(g, s, NULL), n);
    /* a game's own random pick (playouts) is the list's entry at the same draw, with
     * the same stream left behind; the seed is the first legal action's */
    if (g->vt->legal_random) {
        rng_t a, b;
        rng_init(&a, (uint64_t)x->legal[0] * 7919u + (uint64_t)n);
        b = a;
        int picked = g->vt->legal_random(g, s, &a), want = x->legal[rng_below(&b, (uint32_t)n)];
        EXPECT(picked == want && rng_next(&a) == rng_next(&b), "legal_random gave %d, want %d",
               picked, want);
    }
    /* a game's own noisy-action generator (quiescence's moves) gives exactly the legal
     * actions is_noisy accepts, in order (the default is that filter) */
    if (!g->vt->noisy_actions) return n;
    int k = 0, m = game_noisy_actions(g, s, x->legal2);
    for (int i = 0; i < n; i++)
        if (game_is_noisy(g, s, x->legal[i])) {
            EXPECT(k < m && x->legal2[k] == x->legal[i], "noisy action %d missing or out of order",
                   x->legal[i]);
            k++;
        }
    EXPECT(m == k, "noisy_actions gave %d actions, is_noisy accepts %d", m, k);
    return n;
}

/* Position text round-trips, and bad text changes nothing. */
static void check_text(const game_t *g, const void *s, scratch_t *x, rng_t *rng)
{
    int len = game_position_to_string(g, s, x->text, GAME_TEXT_MAX);
    EXPECT(len > 0, "position_to_string failed: %s", hoyle_last_error());
    memset(x->s2, 0xA5, g->state_size);
    int st = game_position_from_string(g, x->text, x->s2);
    EXPECT(st == 0, "position '%s' does not parse: %s", x->text, hoyle_last_error());
    if (st == 0) {
        game_position_to_string(g, x->s2, x->text2, GAME_TEXT_MAX);
        EXPECT(strcmp(x->text, x->text2) == 0, "position '%s' re-exports as '%s'", x->text,
               x->text2);
        EXPECT(game_current_player(g, x->s2) == game_current_player(g, s),
               "player differs after import");
        EXPECT(game_hash(g, x->s2) == game_hash_recompute(g, x->s2), "imported hash is stale");
        EXPECT(game_hash(g, x->s2) == game_hash(g, s), "imported position '%s' hashes differently",
               x->text);
    }
    /* Corrupt the text: truncate it or flip a character; either it is still a
     * valid position or it is rejected with a message and no change. */
    memcpy(x->s3, s, g->state_size);
    snprintf(x->text2, GAME_TEXT_MAX, "%s", x->text);
    if (len > 0) {
        if (rng_below(rng, 2))
            x->text2[rng_below(rng, (uint32_t)len)] = '\0';
        else
            x->text2[rng_below(rng, (uint32_t)len)] = "#?9Zz:,/ "[rng_below(rng, 9)];
    }
    memcpy(x->s2, s, g->state_size);
    if (game_position_from_string(g, x->text2, x->s2) != 0) {
        EXPECT(memcmp(x->s2, x->s3, g->state_size) == 0, "rejected position '%s' changed the state",
               x->text2);
        EXPECT(hoyle_last_error()[0] != '\0', "rejected position without a message");
    }
    static const char *const junk[] = {"", "?", "zz99", "-1", "99999999999", "\x01\x02", "x-x"};
    for (int j = 0; j < (int)(sizeof junk / sizeof *junk); j++) {
        int a = -7;
        memcpy(x->s2, s, g->state_size);
        int r = game_action_from_string(g, x->s2, junk[j], &a);
        EXPECT(memcmp(x->s2, s, g->state_size) == 0, "action parse changed the state");
        if (r != 0) EXPECT(a == -7, "failed action parse wrote its output");
        r = game_position_from_string(g, junk[j], x->s2);
        EXPECT(r != 0 || j != 0, "empty position text accepted");
    }
}

/* Observation: exactly the declared size, finite values, both points of view. */
static void check_observe(const game_t *g, const void *s, scratch_t *x)
{
    int size = game_obs_size(g);
    for (int p = 0; p < g->num_players; p++) {
        for (int i = 0; i < size + OBS_GUARD; i++) x->obs[i] = NAN;
        game_observe(g, s, p, x->obs);
        int bad = 0;
        for (int i = 0; i < size; i++) bad += !isfinite(x->obs[i]);
        EXPECT(bad == 0, "observation has %d unwritten or non-finite values", bad);
        for (int i = size; i < size + OBS_GUARD; i++) bad += !isnan(x->obs[i]);
        EXPECT(bad == 0, "observation writes past its declared shape");
    }
}

/* Every listed symmetry: the transformed state's legal actions are the images
 * of the legal actions, and its observation is the transformed observation. */
static void check_symmetries(const game_t *g, const void *s, scratch_t *x, int n)
{
    int square = g->obs_shape[1] == g->obs_shape[2];
    for (int k = 1; k < g->num_symmetries; k++) {
        sym_t sym = g->symmetries[k];
        game_symmetry_state(g, sym, s, x->s2);
        EXPECT(game_hash(g, x->s2) == game_hash_recompute(g, x->s2), "%s: stale hash",
               sym_name(sym));
        EXPECT(game_current_player(g, x->s2) == game_current_player(g, s), "%s: player changed",
               sym_name(sym));
        for (int i = 0; i < n; i++) x->mapped[i] = game_symmetry_action(g, sym, x->legal[i]);
        qsort(x->mapped, (size_t)n, sizeof(int), cmp_int);
        int m = game_legal_actions(g, x->s2, x->legal2);
        int same = m == n;
        for (int i = 0; same && i < n; i++) same = x->mapped[i] == x->legal2[i];
        EXPECT(same, "%s does not map legal actions to legal actions", sym_name(sym));
        if (square && game_current_player(g, s) >= 0) {
            int p = game_current_player(g, s);
            game_observe(g, s, p, x->obs);
            game_observe(g, x->s2, p, x->obs2);
            sym_planes(sym, g->obs_shape[0], g->obs_shape[1], x->obs, x->obs3);
            EXPECT(memcmp(x->obs2, x->obs3, sizeof(float) * (size_t)game_obs_size(g)) == 0,
                   "%s: observation of the transformed state is not the transformed observation",
                   sym_name(sym));
        }
    }
}

static void check_terminal(const game_t *g, const void *s, scratch_t *x)
{
    double r[GAME_MAX_PLAYERS];
    game_returns(g, s, r);
    double sum = 0;
    for (int p = 0; p < g->num_players; p++) {
        EXPECT(r[p] >= -1.0 && r[p] <= 1.0, "return %g out of [-1, 1]", r[p]);
        sum += r[p];
    }
    if (g->num_players == 2) EXPECT(fabs(sum) < 1e-9, "two-player returns not zero-sum (%g)", sum);
    EXPECT(game_legal_actions(g, s, x->legal) == 0, "terminal state has legal actions");
    EXPECT(game_legal_count(g, s, x->legal) == 0, "terminal state counts legal actions");
}

/* The whole move made of actions[0..n) from `before` prints and parses back. */
static void check_whole_move(const game_t *g, const void *before, const int *actions, int n)
{
    char text[GAME_MOVE_MAX * 2];
    int parsed[GAME_MAX_CHAIN];
    int len = game_move_to_string(g, before, actions, n, text, sizeof text);
    EXPECT(len > 0, "move_to_string failed: %s", hoyle_last_error());
    if (len <= 0) return;
    int m = game_move_from_string(g, before, text, parsed, GAME_MAX_CHAIN);
    int same = m == n;
    for (int i = 0; same && i < n; i++) same = parsed[i] == actions[i];
    EXPECT(same, "whole move '%s' (%d actions) parses as %d actions (%s)", text, n, m,
           m < 0 ? hoyle_last_error() : "different");
    /* the notation shown to people (chess: SAN) reads back too */
    len = game_move_to_display(g, before, actions, n, text, sizeof text);
    EXPECT(len > 0, "move_to_display failed: %s", hoyle_last_error());
    if (len <= 0) return;
    m = game_move_from_string(g, before, text, parsed, GAME_MAX_CHAIN);
    same = m == n;
    for (int i = 0; same && i < n; i++) same = parsed[i] == actions[i];
    EXPECT(same, "displayed move '%s' (%d actions) parses as %d actions (%s)", text, n, m,
           m < 0 ? hoyle_last_error() : "different");
}

/* One seeded random game with every check; returns a digest of its path. */
static uint64_t play_checked(const game_t *g, uint64_t seed, scratch_t *x, int deep)
{
    rng_t rng;
    rng_init(&rng, seed);
    char *s = malloc(g->state_size), *move_start = malloc(g->state_size);
    game_init(g, s);
    uint64_t digest = seed;
    int length = 0, chain[GAME_MAX_CHAIN], chain_len = 0, mover = PLAYER_TERMINAL;
    for (;;) {
        EXPECT(game_hash(g, s) == game_hash_recompute(g, s),
               "incremental hash != recomputed at ply %d", length);
        int player = game_current_player(g, s);
        /* A whole move ends when the mover changes; in a one-player game each
         * action is one whole move (games/game.h, perft). */
        if (chain_len > 0 && (player != mover || mover == PLAYER_CHANCE || g->num_players == 1)) {
            if (mover != PLAYER_CHANCE) check_whole_move(g, move_start, chain, chain_len);
            chain_len = 0;
        }
        if (player == PLAYER_TERMINAL) {
            check_terminal(g, s, x);
            break;
        }
        EXPECT(player == PLAYER_CHANCE || (player >= 0 && player < g->num_players), "bad player %d",
               player);
        /* the seat at the board belongs to the player to move (games/game.h, "Seats") */
        if (player >= 0) {
            int seat = game_current_seat(g, s);
            EXPECT(seat >= 0 && seat < g->num_seats && seat % g->num_players == player,
                   "seat %d of %d does not belong to player %d", seat, g->num_seats, player);
        }
        if (deep) check_text(g, s, x, &rng);
        check_observe(g, s, x);
        int action;
        if (player == PLAYER_CHANCE) {
            int n = game_chance_outcomes(g, s, x->legal, x->probs);
            double sum = 0;
            for (int i = 0; i < n; i++) sum += x->probs[i];
            EXPECT(n >= 1 && n <= g->max_chance_outcomes && fabs(sum - 1.0) < 1e-9,
                   "chance outcomes: %d, probabilities sum to %g", n, sum);
            action = game_random_action(g, s, &rng, x->legal, x->probs);
        } else {
            int n = check_legal(g, s, x);
            if (n <= 0) break;
            if (deep && rng_below(&rng, 4) == 0) check_symmetries(g, s, x, n);
            double e = game_evaluate(g, s, player);
            EXPECT(e >= -1.0 && e <= 1.0, "evaluate %g out of [-1, 1]", e);
            /* An illegal action is refused and changes nothing. */
            int bad = (int)rng_below(&rng, (uint32_t)g->num_actions), legal_bad = 0;
            for (int i = 0; i < n; i++) legal_bad |= x->legal[i] == bad;
            if (!legal_bad) {
                memcpy(x->s2, s, g->state_size);
                EXPECT(game_apply_checked(g, x->s2, bad) != 0, "illegal action %d accepted", bad);
                EXPECT(memcmp(x->s2, s, g->state_size) == 0, "refused action changed the state");
            }
            if (deep && game_has_fast_perft(g) && rng_below(&rng, 16) == 0) {
                EXPECT(game_perft(g, s, 2) == game_perft_generic(g, s, 2),
                       "fast perft(2) != generic at ply %d", length);
            }
            action = x->legal[rng_below(&rng, (uint32_t)n)];
        }
        if (chain_len == 0) {
            memcpy(move_start, s, g->state_size);
            mover = player;
        }
        if (chain_len < GAME_MAX_CHAIN)
            chain[chain_len++] = action;
        else
            EXPECT(0, "a whole move is longer than GAME_MAX_CHAIN");
        game_apply(g, s, action);
        /* a game that says every action is a whole move never keeps the turn */
        if (g->one_action_moves && player != PLAYER_CHANCE)
            EXPECT(game_current_player(g, s) != player,
                   "one_action_moves, but player %d moves again at ply %d", player, length);
        digest = rng_mix(digest ^ game_hash(g, s));
        if (++length > g->max_game_length) {
            EXPECT(0, "game longer than max_game_length %d", g->max_game_length);
            break;
        }
    }
    free(s);
    free(move_start);
    return digest;
}

static int games_per_variant(void)
{
    const char *env = getenv("HOYLE_CONFORMANCE_GAMES");
    return env && atoi(env) > 0 ? atoi(env) : DEFAULT_GAMES;
}

static void test_registry_self_check(void)
{
    if (!in_shard(0)) return;
    int st = game_registry_check();
    if (st) fprintf(stderr, "registry: %s\n", hoyle_last_error());
    CU_ASSERT_EQUAL(st, 0);
}

/* Run check(g, &x) on every registered variant with fresh scratch and a
 * fresh failure count; a variant that fails to create fails the test. */
static void each_variant(void (*check)(const game_t *g, scratch_t *x))
{
    int index = 0;
    for (int i = 0; game_registry[i]; i++) {
        for (int v = 0; game_registry[i]->variants[v]; v++) {
            if (!in_shard(index++)) continue;
            const game_t *g = NULL;
            HARNESS_OK(game_create(game_registry[i]->variants[v], &g));
            if (g == NULL) continue;
            scratch_t x;
            scratch_init(g, &x);
            failures = 0;
            check(g, &x);
            scratch_done(&x);
            game_free(g);
        }
    }
}

static void random_games_checked(const game_t *g, scratch_t *x)
{
    int games = games_per_variant();
    /* Deep checks (text, symmetries, perft) on the first quarter. */
    for (int k = 0; k < games; k++) play_checked(g, 1000 + (uint64_t)k, x, k < games / 4 + 1);
    fprintf(stderr, "  %-40s %d games, %d failures\n", g->spec, games, failures);
}

static void test_random_games_every_variant(void) { each_variant(random_games_checked); }

static void test_same_seed_same_game(void)
{
    for (int i = 0; game_registry[i]; i++) {
        if (!in_shard(i)) continue;
        const game_t *g = NULL;
        HARNESS_OK(game_create(game_registry[i]->variants[0], &g));
        if (g == NULL) continue;
        scratch_t x;
        scratch_init(g, &x);
        uint64_t a = play_checked(g, 77, &x, 0), b = play_checked(g, 77, &x, 0),
                 c = play_checked(g, 78, &x, 0);
        CU_ASSERT_EQUAL(a, b);
        CU_ASSERT_NOT_EQUAL(a, c);
        scratch_done(&x);
        game_free(g);
    }
}

static void test_bad_params_name_the_key(void)
{
    for (int i = 0; game_registry[i]; i++) {
        if (!in_shard(i)) continue;
        const game_t *g = NULL;
        char spec[128];
        snprintf(spec, sizeof spec, "%s(no_such_key=1)", game_registry[i]->name);
        CU_ASSERT_EQUAL(game_create(spec, &g), HOYLE_EINVAL);
        CU_ASSERT_PTR_NULL(g);
        CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "no_such_key"));
        for (int p = 0; game_registry[i]->params && game_registry[i]->params[p].key; p++) {
            const param_def_t *d = &game_registry[i]->params[p];
            if (d->type == PARAM_STRING) continue; /* free text: any value binds */
            snprintf(spec, sizeof spec, "%s(%s=not_a_value_999999999)", game_registry[i]->name,
                     d->key);
            CU_ASSERT_NOT_EQUAL(game_create(spec, &g), 0);
            CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), d->key) ? hoyle_last_error() : NULL);
        }
    }
}

/* A seeded random game from the start: its actions in out[] (g->max_game_length). */
static int random_game(const game_t *g, uint64_t seed, void *s, int *out, scratch_t *x)
{
    rng_t rng;
    rng_init(&rng, seed);
    int n = 0;
    while (!game_is_terminal(g, s) && n < g->max_game_length) {
        out[n] = game_random_action(g, s, &rng, x->legal, x->probs);
        game_apply(g, s, out[n++]);
    }
    return n;
}

/* The record writer (game_record_to_string): a game without one says so
 * (HOYLE_EUNSUP with a message, game_record_format() NULL); a game with one
 * writes a seeded random game with every tag value in the text, and refuses
 * an illegal action and a buffer that is too small. */
static void record_writer_checked(const game_t *g, scratch_t *x)
{
    void *start = calloc(1, g->state_size), *end = calloc(1, g->state_size);
    int *actions = calloc((size_t)g->max_game_length + 1, sizeof *actions);
    size_t cap = 1 << 16;
    char *buf = calloc(1, cap);
    game_init(g, start);
    memcpy(end, start, g->state_size);
    int n = random_game(g, 42, end, actions, x);
    double r[GAME_MAX_PLAYERS] = {0};
    if (game_is_terminal(g, end)) game_returns(g, end, r);
    game_record_tags_t tags = {.event = "conformance-event",
                               .round = 3,
                               .players = {"seat-zero-agent", "seat-one-agent"},
                               .score = r[0] > r[1]   ? 1
                                        : r[0] < r[1] ? 0
                                                      : 0.5,
                               .opening = "test-opening",
                               .termination = "rules"};
    int len = game_record_to_string(g, &tags, start, actions, n, buf, cap);
    if (game_record_format(g) == NULL) {
        EXPECT(len == HOYLE_EUNSUP, "no record format, yet record_to_string gave %d", len);
        EXPECT(hoyle_last_error()[0] != '\0', "HOYLE_EUNSUP without a message");
    } else {
        EXPECT(len > 0 && (size_t)len == strlen(buf), "record length %d", len);
        const char *want[] = {"conformance-event", "seat-zero-agent", "seat-one-agent",
                              "test-opening"};
        for (int k = 0; k < 4; k++)
            EXPECT(strstr(buf, want[k]) != NULL, "record lacks the tag value '%s'", want[k]);
        EXPECT(game_record_to_string(g, &tags, start, actions, n, buf, 8) == HOYLE_EFULL,
               "a record in an 8-byte buffer");
        int bad = -1, m = game_legal_actions(g, start, x->legal);
        for (int a = 0; a < g->num_actions && bad < 0; a++) {
            int legal = 0;
            for (int k = 0; k < m; k++) legal |= x->legal[k] == a;
            if (!legal) bad = a;
        }
        if (n > 0 && bad >= 0) {
            actions[0] = bad;
            EXPECT(game_record_to_string(g, &tags, start, actions, n, buf, cap) == HOYLE_EINVAL,
                   "a record starting with illegal action %d", bad);
        }
    }
    free(buf);
    free(actions);
    free(end);
    free(start);
}

static void test_record_writer(void) { each_variant(record_writer_checked); }

/* game_chance_sample() draws each outcome of a chance node with its
 * probability: 36,000 seeded draws at the first chance state of every variant
 * with dice, each count within 5 standard deviations of its expectation. */
static void chance_sampler_checked(const game_t *g, scratch_t *x)
{
    enum { DRAWS = 36000 };
    if (g->max_chance_outcomes == 0) return;
    void *s = calloc(1, g->state_size);
    int *count = calloc((size_t)g->num_actions, sizeof *count);
    rng_t rng;
    rng_init(&rng, 99);
    game_init(g, s);
    while (!game_is_chance(g, s) && !game_is_terminal(g, s))
        game_apply(g, s, game_random_action(g, s, &rng, x->legal, x->probs));
    EXPECT(game_is_chance(g, s), "no chance node along a random game");
    for (int k = 0; k < DRAWS && game_is_chance(g, s); k++) {
        int a = game_chance_sample(g, s, &rng, x->legal, x->probs);
        EXPECT(a >= 0 && a < g->num_actions, "sampled outcome %d", a);
        if (a >= 0 && a < g->num_actions) count[a]++;
    }
    int n = game_is_chance(g, s) ? game_chance_outcomes(g, s, x->legal, x->probs) : 0;
    for (int k = 0; k < n; k++) {
        double want = DRAWS * x->probs[k], sd = sqrt(want * (1 - x->probs[k]));
        EXPECT(fabs(count[x->legal[k]] - want) <= 5 * sd + 1,
               "outcome %d drawn %d times, expected %.0f", x->legal[k], count[x->legal[k]], want);
    }
    free(count);
    free(s);
}

static void test_chance_sampler(void) { each_variant(chance_sampler_checked); }

/* A declared policy layout (game_t.policy_planes, what a conv policy head relies on): the
 * sizes agree, and on square boards every symmetry maps an action's square as it maps that
 * square of the observation planes (so action squares are observation squares). */
static void policy_layout_checked(const game_t *g, scratch_t *x)
{
    (void)x;
    const int P = g->policy_planes, L = g->policy_lead, N = g->obs_shape[1];
    const int HW = g->obs_shape[1] * g->obs_shape[2];
    if (P == 0) return;
    EXPECT((long long)P * HW == g->num_actions && L >= 0 && L <= P,
           "policy layout %d planes (lead %d) x %d squares for %d actions", P, L, HW,
           g->num_actions);
    if (failures || g->obs_shape[1] != g->obs_shape[2]) return;
    float *in = calloc((size_t)HW, sizeof *in), *out = calloc((size_t)HW, sizeof *out);
    int bad = 0;
    for (int k = 1; k < g->num_symmetries; k++)
        for (int sq = 0; sq < HW; sq++) {
            in[sq] = 1.0f;
            sym_planes(g->symmetries[k], 1, N, in, out);
            in[sq] = 0.0f;
            int image = 0;
            for (int i = 0; i < HW; i++) image = out[i] > 0.5f ? i : image;
            for (int p = 0; p < P; p++) {
                int a = p < L ? p * HW + sq : L * HW + sq * (P - L) + (p - L);
                int b = game_symmetry_action(g, g->symmetries[k], a);
                int bsq = b < L * HW ? b % HW : (b - L * HW) / (P - L);
                bad += bsq != image;
            }
        }
    EXPECT(bad == 0, "%d actions' squares move unlike the observation's under symmetries", bad);
    free(in);
    free(out);
}

static void test_policy_layout(void) { each_variant(policy_layout_checked); }

/* "K/N" into shard_k, shard_n; 0 when it is a shard, else -1. */
static int parse_shard(const char *arg)
{
    int k, n, used = 0;
    if (sscanf(arg, "%d/%d%n", &k, &n, &used) != 2 || arg[used] != '\0' || n < 1 || k < 0 || k >= n)
        return -1;
    shard_k = k;
    shard_n = n;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2) {
        fprintf(stderr, "test_conformance: one argument at most (usage: test_conformance [K/N])\n");
        return 2;
    }
    if (argc == 2 && parse_shard(argv[1])) {
        fprintf(stderr, "test_conformance: bad shard '%s' (K/N with 0 <= K < N)\n", argv[1]);
        return 2;
    }
    static const harness_test_t tests[] = {
        {"registry self-check", test_registry_self_check},
        {"bad parameters name the key", test_bad_params_name_the_key},
        {"seeded random games, every variant, every check", test_random_games_every_variant},
        {"same seed, same game", test_same_seed_same_game},
        {"record writer: tags, illegal actions, small buffers", test_record_writer},
        {"the chance sampler draws outcomes by their probabilities", test_chance_sampler},
        {"declared policy layouts fit the actions and the symmetries", test_policy_layout},
        {NULL, NULL},
    };
    return harness_run("conformance", tests);
}
