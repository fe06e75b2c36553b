/* checkers.h — PDN game records for the `checkers` game family.
 *
 * PDN (Portable Draughts Notation, the PGN of draughts): tag pairs
 * `[Event "..."]`, then movetext `1. 11-15 22-18 2. 15x22 25x18 ... 1-0`.
 * Read: move numbers, comments `{...}`, variations `(...)`, NAGs `$n` and
 * `!`/`?` marks are skipped; a `[FEN "..."]` tag sets the start position
 * (extended PDN FEN, see docs/games/checkers.md); moves are whole moves in
 * numeric notation (`9x18x27`, or `9x27` when only one path matches);
 * the game ends at a result token (1-0 0-1 1/2-1/2 2-0 0-2 1-1 0-0 *) or
 * at the end of the text. The game `g` must be a `checkers(...)` game. */
#ifndef HOYLE_GAMES_CHECKERS_CHECKERS_H
#define HOYLE_GAMES_CHECKERS_CHECKERS_H

#include <stddef.h>

#include "games/game.h"

#define CHECKERS_PDN_TAGS    24
#define CHECKERS_PDN_MOVES   1024 /* whole moves in one record */
#define CHECKERS_PDN_ACTIONS 2048 /* steps in one record */

typedef struct checkers_pdn_tag {
    char key[32];
    char value[160];
} checkers_pdn_tag_t;

/* One game record (caller storage, ~25 KB: allocate it, don't put it on a
 * small stack). Move i is actions[move_end[i-1] .. move_end[i]) (from 0). */
typedef struct checkers_pdn_game {
    int num_tags;
    checkers_pdn_tag_t tags[CHECKERS_PDN_TAGS];
    char start[GAME_TEXT_MAX / 8]; /* start position as PDN FEN */
    int num_moves, num_actions;
    int move_end[CHECKERS_PDN_MOVES];
    int actions[CHECKERS_PDN_ACTIONS];
    char result[8]; /* the result token, "*" when none */
} checkers_pdn_game_t;

/* Read the first game of `text` into *out (written only on success), every
 * move checked for legality. Returns the number of characters consumed (the
 * next game starts there), or HOYLE_EINVAL with a message naming the line
 * and the token. */
int checkers_pdn_read(const game_t *g, const char *text, checkers_pdn_game_t *out);

/* Write `game` as PDN into buf[cap]; returns the length or HOYLE_EFULL /
 * HOYLE_EINVAL (a move that is not legal from the start position). */
int checkers_pdn_write(const game_t *g, const checkers_pdn_game_t *game, char *buf, size_t cap);

/* The state after all moves of `game` (state_size bytes at `state`). */
int checkers_pdn_replay(const game_t *g, const checkers_pdn_game_t *game, void *state);

#endif
