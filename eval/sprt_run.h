/* sprt_run.h — an SPRT between two agents on colour-swapped game pairs
 * (the statistics are eval/sprt.h): each pair plays one opening twice, A
 * moving first, then B, the two games in parallel threads, each game its
 * own seed. The four agents (A and B for each of the two games) are
 * created once and reseeded per game (agent_reseed), so the games are the
 * ones tournament_play() would play with fresh agents.
 *
 *     sprt_runner_t *r;
 *     sprt_runner_create(g, &params, &r);   // checks specs and openings
 *     sprt_runner_run(r, &test, on_pair, ctx, &pairs, &decision);
 *     sprt_runner_free(r); */
#ifndef HOYLE_EVAL_SPRT_RUN_H
#define HOYLE_EVAL_SPRT_RUN_H

#include <stdint.h>

#include "data/record.h"
#include "eval/sprt.h"
#include "games/game.h"

typedef struct sprt_run_params {
    const char *spec[2];  /* agents A and B */
    const char *openings; /* "random:K" (K random whole moves per pair), "book:PATH", "none" */
    uint64_t max_pairs;   /* stop after this many pairs (>= 1) */
    uint64_t seed;        /* pair i uses rng_mix(seed + i) */
    int max_moves;        /* whole moves before a draw is adjudicated; 0 = rules only */
    /* After each game, on the caller's thread, in order (pair i's game with A
     * first, then with B first): the game as a record (data/record.h: actions
     * from the start, opening included; round = pair + 1, game_index 0 or 1),
     * its pointers valid during the call. A non-zero return stops the run
     * with that status. NULL = none. */
    int (*on_game)(void *ctx, const game_record_t *rec);
    void *game_ctx;
} sprt_run_params_t;

typedef struct sprt_runner sprt_runner_t;

/* Check the agent specs and the opening source, read the book, create the
 * agents. `g` and `p`'s strings are borrowed for the runner's life.
 * Returns 0 and *out (free with sprt_runner_free), or HOYLE_EINVAL /
 * HOYLE_EIO with a message naming the bad input. */
int sprt_runner_create(const game_t *g, const sprt_run_params_t *p, sprt_runner_t **out);
void sprt_runner_free(sprt_runner_t *r);

/* After each pair: its number (0-based), the opening's name and A's pair
 * score in {0, 0.5, 1, 1.5, 2}; `test` already holds it. May be NULL. */
typedef void (*sprt_pair_fn)(void *ctx, uint64_t pair, const char *opening, double pair_score,
                             const sprt_t *test);

/* Play pairs into `test` until sprt_decision() leaves SPRT_CONTINUE or
 * max_pairs pairs are played. Writes the pairs played and the decision.
 * Returns 0, or a negative status (a failure that is not an agent's move:
 * out of memory, an opening that cannot be played). */
int sprt_runner_run(sprt_runner_t *r, sprt_t *test, sprt_pair_fn on_pair, void *ctx,
                    uint64_t *pairs, sprt_decision_t *decision);

#endif
