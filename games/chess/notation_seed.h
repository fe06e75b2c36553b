/* notation_seed.h — the seed's two chess notations beside SAN and UCI:
 * English descriptive (P-K4, Kt-KB3, QPxKt, B-Kt5 ch, Q-Q sq, Castles) and
 * German (e2-e4, Sg1-f3, Sf3ne5, De8-c6+), read against the legal moves of
 * a position and written back; and the chain `hoyle play chess` reads with.
 *
 * Readers return 0 with *out set; HOYLE_EINVAL with a one-line message
 * (ambiguous: the candidates are listed; impossible: the named piece's
 * legal moves are listed); or CH_NOTATION_FOREIGN (> 0, no message) when
 * the text is not written in that notation at all, so a caller can try the
 * next one. Nothing is changed on any failure.
 * Writers put the move's text into buf[cap] and return its length, or
 * HOYLE_EFULL; the text reads back to the same move in the same position.
 * docs/games/chess.md, "Descriptive and German notation", lists the forms. */
#ifndef HOYLE_GAMES_CHESS_NOTATION_SEED_H
#define HOYLE_GAMES_CHESS_NOTATION_SEED_H

#include "games/chess/chess_internal.h"

#define CH_NOTATION_FOREIGN 1 /* not this notation: try another */

/* English descriptive, squares counted from the mover's own side; spaces,
 * commas and full stops are ignored ("K B x Q P", "Q-B 6, ch"), "'s" is
 * "sq" (the seed's "Q-Kt's"). Check and mate marks (ch, +, mate, #) and
 * e.p. are accepted and not required. */
int ch_descriptive_parse(const ch_pos_t *p, const char *text, ch_move_t *out);
/* The shortest unambiguous form in the seed's spelling: P-K4, Kt-KB3,
 * KtxP, QPxKt, BxKBP ch, Q-Q sq, O-O, P-K8=Q, PxP e.p., Kt-Q5 mate. */
int ch_move_to_descriptive(const ch_pos_t *p, ch_move_t m, char *buf, size_t cap);

/* German: piece letter (K D T L S, none for a pawn), from-square, '-' or
 * 'n' (captures; ':' and 'x' also read), to-square, a promotion letter,
 * then '+' (check) or '#' (mate); 0-0 and 0-0-0. Spaces are ignored
 * ("S g 1-f 3"). */
int ch_german_parse(const ch_pos_t *p, const char *text, ch_move_t *out);
int ch_move_to_german(const ch_pos_t *p, ch_move_t m, char *buf, size_t cap);

/* SAN or UCI (ch_move_parse) first, then German, then descriptive: the
 * first notation the text is written in decides; when none claims it, the
 * SAN reader's message is returned. */
int ch_move_parse_any(const ch_pos_t *p, const char *text, ch_move_t *out);

/* Notation names for ch_move_to_notation: "san", "uci", "descriptive",
 * "german"; -1 for another name. */
enum { CH_NOTE_SAN = 0, CH_NOTE_UCI, CH_NOTE_DESCRIPTIVE, CH_NOTE_GERMAN };
int ch_notation_from_name(const char *name);
int ch_move_to_notation(const ch_pos_t *p, ch_move_t m, int notation, char *buf, size_t cap);

/* The whole game `actions[0..n)` from state `start` (a ch_state_t) as
 * numbered text in `notation` ("1. P-K4 P-K4 2. Kt-KB3 ..."): length,
 * HOYLE_EFULL, or HOYLE_EINVAL for an action that is not legal. */
int ch_game_to_notation(const game_t *g, const void *start, const int *actions, int n, int notation,
                        char *buf, size_t cap);

#endif
