/* tournament_export.h — stored games written out as game records in their
 * family's file format (PDN for checkers; PGN for chess once it has a
 * writer), through the game contract's record writer (game_record_to_string
 * in games/game.h), for other tools. */
#ifndef HOYLE_EVAL_TOURNAMENT_EXPORT_H
#define HOYLE_EVAL_TOURNAMENT_EXPORT_H

#include <stdio.h>

/* Write every game of the record file `h5path` (journal included) whose
 * game's record format is `format` (game_record_format(), compared without
 * case: "PDN") to `out`, one record after another, each followed by a blank
 * line. Tags: Event (the config path, else `h5path`), Round (the game index
 * + 1), the two seats' agents, Result, Opening, Termination. Games of other
 * formats, or of none, are skipped. *written and *skipped count the games
 * (either may be NULL). Returns 0 or a negative status with a message
 * (foreign file, an illegal stored action, write error). */
int tournament_export_records(const char *h5path, const char *format, FILE *out, int *written,
                              int *skipped);

#endif
