/* uci.h — what both directions of the Universal Chess Interface share: the
 * uci agent (an external engine playing inside hoyle, mcts/agent_uci.c) and
 * `hoyle uci` (a hoyle agent serving as an engine, apps/cmd_uci.c).
 *
 * Scores: hoyle's values are in [-1, 1] for the player to move, UCI's are
 * centipawns. The two are related as an expected score and an Elo-style
 * logistic, E = (1 + v) / 2 = 1 / (1 + 10^(-cp/400)), i.e.
 *   cp = 400 * log10((1 + v) / (1 - v)),   v = tanh(cp * ln(10) / 800),
 * so v = 0.5 is about 191 cp and v = 0.9 about 511 cp. A value of +-1 is a
 * proven result (mate, when the game is chess). The mapping is a protocol
 * convention, not a claim about any evaluation's calibration. */
#ifndef HOYLE_MCTS_UCI_H
#define HOYLE_MCTS_UCI_H

#include <stddef.h>

#define UCI_CP_MAX   10000 /* centipawn scores are clamped to +-UCI_CP_MAX */
#define UCI_MAX_ARGS 32    /* most words in an engine command line */

/* v in [-1, 1] -> centipawns in [-UCI_CP_MAX, UCI_CP_MAX] (see above). */
int uci_cp_from_value(double v);

/* Centipawns -> v in (-1, 1); clamped like uci_cp_from_value. */
double uci_value_from_cp(double cp);

/* Split an engine command line into words: words are separated by blanks;
 * '...' and "..." group (quotes removed), a backslash outside single quotes
 * takes the next character as is. The words are written NUL-separated into
 * buf[cap] and pointed at by argv[0..n), argv[n] = NULL. Returns n (>= 1),
 * or HOYLE_EINVAL (empty command, unclosed quote, more than max - 1 words,
 * longer than cap) with a message naming the command. */
int uci_split_command(const char *cmd, char *buf, size_t cap, char **argv, int max);

#endif
