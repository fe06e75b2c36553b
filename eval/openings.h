/* openings.h — opening positions for matches and tournaments.
 *
 * An opening is a named list of actions from a game's initial position.
 * Two sources:
 *   - a book file: one opening per line, `name | moves` or just `moves`
 *     (then the name is the moves text); moves are whole moves in the game's
 *     notation (game_move_from_string), separated by blanks or ';'. Lines
 *     starting with '#' and blank lines are ignored (the format of
 *     configs/books/checkers_two_move.txt). Every move is checked for
 *     legality; an opening that ends the game is refused.
 *   - random k-move openings: k whole moves chosen uniformly among the legal
 *     actions (chance outcomes by their probabilities) from a seed; openings
 *     that end the game, or repeat an earlier one, are drawn again.
 * Both are deterministic: same file or same (k, count, seed), same list. */
#ifndef HOYLE_EVAL_OPENINGS_H
#define HOYLE_EVAL_OPENINGS_H

#include <stdint.h>

#include "games/game.h"

#define OPENING_NAME_MAX    96
#define OPENING_MAX_ACTIONS 128 /* actions (steps) in one opening */

typedef struct opening {
    char name[OPENING_NAME_MAX];
    int num_actions;
    int actions[OPENING_MAX_ACTIONS];
} opening_t;

/* A list of openings (heap array owned by the list). */
typedef struct opening_list {
    int n;
    opening_t *items;
} opening_list_t;

/* Read the book at `path` for game `g`. On success *out holds >= 1 opening
 * (free with opening_list_done). Errors name the file and the line:
 * `book.txt:12: move '11-16' is not legal ...`. *out is untouched on error. */
int openings_load_book(const game_t *g, const char *path, opening_list_t *out);

/* `count` distinct random openings of `moves` whole moves each, from `seed`.
 * moves = 0 gives one empty opening ("start") whatever `count` is. Fails
 * (HOYLE_EINVAL) when it cannot find enough distinct openings. */
int openings_random(const game_t *g, int moves, int count, uint64_t seed, opening_list_t *out);

/* The most whole moves of a random opening: far beyond any useful one, and it keeps
 * OPENING_MAX_ACTIONS from being reached by multi-action moves. */
#define OPENINGS_RANDOM_MAX 60

/* "random:K": 1 with *k = K when K is a whole number in 0..OPENINGS_RANDOM_MAX, -1 when
 * `src` starts with "random:" but K is not, 0 when it does not start with "random:". The
 * one reading of the spelling for every caller (openings_from_source, tournament configs,
 * hoyle sprt), each with its own messages. */
int openings_parse_random(const char *src, int *k);

/* The openings of a source as configs spell it: "random:K" (`count` distinct K-move
 * openings from `seed`, K in 0..60), "book:PATH" (the book) or "none" (the start).
 * HOYLE_EINVAL names the source when it is none of these. */
int openings_from_source(const game_t *g, const char *src, int count, uint64_t seed,
                         opening_list_t *out);

/* Apply an opening to a fresh initial state `s` (g->state_size bytes).
 * HOYLE_EINVAL if an action is illegal or the game ends inside it. */
int opening_apply(const game_t *g, const opening_t *o, void *s);

/* Write the opening's moves in whole-move notation into buf ("" when empty). */
int opening_to_text(const game_t *g, const opening_t *o, char *buf, size_t cap);

/* Free the list's items and zero it; NULL-safe. */
void opening_list_done(opening_list_t *l);

#endif
