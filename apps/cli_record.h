/* cli_record.h — `--record OUT` of the commands that play games (match,
 * play, sprt, selfplay): one writer whose format is chosen by OUT's extension.
 *
 *   - `.h5`: the HDF5 game records tournaments write (data/h5rec.h, the
 *     schema of docs/formats.md), so `hoyle elo`, `hoyle report` and the
 *     page's Replay and Results views read a match like a tournament.
 *   - anything else: the game family's text record format (PGN for chess,
 *     PDN for checkers; game_record_to_string in games/game.h), one record
 *     per game.
 *
 * Ownership: the writer copies nothing it is given per game; strings and
 * arrays stay the caller's. cli_record_close frees it and reports a late
 * write error. */
#ifndef HOYLE_APPS_CLI_RECORD_H
#define HOYLE_APPS_CLI_RECORD_H

#include <stdbool.h>

#include "data/record.h"
#include "games/game.h"

typedef struct cli_record cli_record_t;

/* Whether `path` names an HDF5 record file (ends in ".h5"). */
bool cli_record_is_h5(const char *path);

/* Open `path` for the games of `g` played by command `cmd`, before any game
 * is played. `from_position`: the games start from a position other than
 * the game's start (the HDF5 schema stores games from the start only, so
 * .h5 is refused then). `what` describes the run for the file's `config`
 * attribute (the command line, say). An existing .h5 file is refused (a
 * record file is never overwritten); a text file is replaced. On failure
 * prints one line "hoyle CMD: --record ..." and returns EXIT_USAGE; else
 * EXIT_OK with *out. */
int cli_record_open(const char *cmd, const char *path, const game_t *g, bool from_position,
                    const char *what, cli_record_t **out);

/* Store one finished game: `rec` as data/record.h describes it (its
 * game_spec and result are not read: the file's game is used, and seat 0's
 * score comes from the returns, as tournaments store it); `start` is the state its
 * actions start from (NULL = the game's start; text formats only). Returns
 * 0 or a negative status with hoyle_last_error() set. */
int cli_record_add(cli_record_t *r, const game_record_t *rec, const void *start);

/* Finish the file (an HDF5 checkpoint, or the text file's close) and free
 * the writer; cli_record_close(NULL) returns 0. */
int cli_record_close(cli_record_t *r);

#endif
