/* cmd_report.c — `hoyle report FILE.h5`: every table about stored games
 * (Elo, cross table, scores by seat, LOS, first player by opening) and PDN
 * export. The
 * work is shared with `hoyle elo` (cli_ratings in cmd_elo.c). */
#include "apps/cli.h"

int cmd_report(int argc, char **argv) { return cli_ratings(argc, argv, 1); }
