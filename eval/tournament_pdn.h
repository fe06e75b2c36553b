/* tournament_pdn.h — PDN export of stored checkers games, for other tools. */
#ifndef HOYLE_EVAL_TOURNAMENT_PDN_H
#define HOYLE_EVAL_TOURNAMENT_PDN_H

#include <stdio.h>

/* Write every checkers game of the record file `h5path` (journal included)
 * to `out` as PDN, one game after another separated by a blank line; games
 * of other families are skipped. *written counts the games written. Returns
 * 0 or a negative status with a message (foreign file, write error). */
int tournament_export_pdn(const char *h5path, FILE *out, int *written);

#endif
