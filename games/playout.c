/* playout.c — the chance sampler, random actions, random playouts and batches
 * of random games (see playout.h). All randomness comes from the caller's
 * rng_t, so a playout is a pure function of (game, state, seed). */
#include "games/playout.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/check.h"

int game_chance_sample(const game_t *g, const void *s, rng_t *rng, int *actions, double *probs)
{
    int n = game_chance_outcomes(g, s, actions, probs);
    if (n <= 0) return hoyle_error(HOYLE_ESTATE, "%s: chance node without outcomes", g->spec);
    /* Inverse-CDF sampling over the listed outcomes. The probabilities are
     * renormalised by their sum so that rounding in a game's table cannot bias
     * the last outcome; the last outcome absorbs whatever remains of u, which also
     * covers u landing exactly on the total. */
    double total = 0;
    for (int i = 0; i < n; i++) total += probs[i];
    double u = rng_double(rng) * total;
    for (int i = 0; i < n - 1; i++) {
        if (u < probs[i]) return actions[i];
        u -= probs[i];
    }
    return actions[n - 1];
}

/* Allocating convenience form for callers without scratch buffers; cap is at
 * least 1 so that malloc(0) never makes a NULL look like out-of-memory. */
int game_chance_sample_alloc(const game_t *g, const void *s, rng_t *rng)
{
    int cap = g->max_chance_outcomes > 0 ? g->max_chance_outcomes : 1;
    int *actions = malloc(sizeof *actions * (size_t)cap);
    double *probs = malloc(sizeof *probs * (size_t)cap);
    int a = actions && probs ? game_chance_sample(g, s, rng, actions, probs)
                             : hoyle_error(HOYLE_ENOMEM, "chance: out of memory");
    free(actions);
    free(probs);
    return a;
}

/* One buffer serves both legal_actions and chance_outcomes, so it must fit
 * the larger of the two. */
int game_scratch_actions(const game_t *g)
{
    return g->max_legal > g->max_chance_outcomes ? g->max_legal : g->max_chance_outcomes;
}

/* Chance nodes sample by their probabilities; decision nodes pick uniformly.
 * A state with no legal action that is not terminal breaks the game contract,
 * hence the CHECK rather than an error return. */
int game_random_action(const game_t *g, const void *s, rng_t *rng, int *legal, double *probs)
{
    if (game_is_chance(g, s)) {
        CHECK(probs != NULL);
        int a = game_chance_sample(g, s, rng, legal, probs);
        CHECK_GE(a, 0);
        return a;
    }
    if (g->vt->legal_random) return g->vt->legal_random(g, s, rng);
    int n = game_legal_actions(g, s, legal);
    CHECK_GE(n, 1);
    return legal[rng_below(rng, (uint32_t)n)];
}

int game_random_playout(const game_t *g, void *s, rng_t *rng, int max_actions, int *legal,
                        double *probs)
{
    int applied = 0;
    while (applied < max_actions && !game_is_terminal(g, s)) {
        game_apply(g, s, game_random_action(g, s, rng, legal, probs));
        applied++;
    }
    return applied;
}

/* Plays `games` uniformly random games from `start` with one rng stream seeded
 * by `seed`, so the statistics are reproducible for a given seed and game. */
int game_random_games(const game_t *g, const void *start, uint64_t games, uint64_t seed,
                      game_random_stats_t *st)
{
    memset(st, 0, sizeof *st);
    st->len_min = INT32_MAX;
    int scratch = game_scratch_actions(g);
    int *legal = malloc(sizeof *legal * (size_t)scratch);
    double *probs = malloc(sizeof *probs * (size_t)scratch);
    char *s = malloc(g->state_size);
    if (!legal || !probs || !s) {
        free(legal), free(probs), free(s);
        return hoyle_error(HOYLE_ENOMEM, "random: out of memory");
    }
    rng_t rng;
    rng_init(&rng, seed);
    for (uint64_t i = 0; i < games; i++) {
        memcpy(s, start, g->state_size);
        int length = 0, last = PLAYER_TERMINAL;
        while (!game_is_terminal(g, s)) {
            int player = game_current_player(g, s);
            /* A "move" is a maximal run of actions by one player (a multi-jump is one
             * move); each chance event counts as a move of its own, and so does each
             * action of a one-player game (games/game.h). */
            if (player != last || player == PLAYER_CHANCE || g->num_players == 1) st->moves++;
            last = player;
            game_apply(g, s, game_random_action(g, s, &rng, legal, probs));
            /* max_game_length is part of the game contract: exceeding it is a game bug,
             * reported instead of looping forever. */
            if (++length > g->max_game_length) {
                free(legal), free(probs), free(s);
                return hoyle_error(HOYLE_ESTATE, "%s: a game ran past max_game_length %d", g->spec,
                                   g->max_game_length);
            }
        }
        double r[GAME_MAX_PLAYERS];
        game_returns(g, s, r);
        /* Two players: the higher return wins. One player (puzzles): a positive
         * return counts as a win. */
        if (g->num_players == 2) {
            if (r[0] > r[1])
                st->wins[0]++;
            else if (r[1] > r[0])
                st->wins[1]++;
            else
                st->draws++;
        } else if (r[0] > 0) {
            st->wins[0]++;
        }
        /* Map the first player's return from [-1, 1] to a score in [0, 1]; the sum and
         * sum of squares give the mean and its standard error. */
        double score = (r[0] + 1.0) / 2.0;
        st->score_first += score;
        st->score_first_sq += score * score;
        st->actions += (uint64_t)length;
        st->len_sum += length;
        st->len_sq += (double)length * length;
        if (length < st->len_min) st->len_min = length;
        if (length > st->len_max) st->len_max = length;
        st->games++;
    }
    free(legal), free(probs), free(s);
    return HOYLE_OK;
}
