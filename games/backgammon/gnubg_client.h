/* gnubg_client.h — GNU Backgammon (gnubg) as a child process: a rules reference
 * (every legal play of a roll) and an opponent (the play gnubg picks).
 *
 * The client starts `gnubg -t -q -r -p SCRIPT`, where SCRIPT is gnubg_bridge.py,
 * embedded in the library at build time and written to a temporary file in
 * $TMPDIR (or /tmp) that is deleted as soon as gnubg has read it. The two talk a
 * line protocol over a socket pair (documented at the top of gnubg_bridge.py).
 *
 * Positions are gnubg position IDs (14 characters, e.g. the start is
 * "4HPwATDgc/ABMA"), always from the point of view of the player ON ROLL: the
 * second half of the ID (gnubg's board[1]) is the mover, the first half the
 * opponent, each counted from its own 1-point, bar last. A resulting ID keeps that
 * perspective: the mover is still board[1] after his play (no side swap).
 *
 * Every call waits at most GNUBG_CLIENT_TIMEOUT_MS for gnubg. A dead child, end of
 * input or a timeout returns HOYLE_EIO and leaves the client unusable (every later
 * call fails at once; close it). SIGPIPE is never raised. A client is not
 * thread-safe: use one per thread (each is its own gnubg process, ~0.3 s to start).
 * Cost: about 10 ms a call at 0 and 1 plies (gnubg polls its worker thread every
 * 10 ms), about 50 ms at 2 plies. */
#ifndef HOYLE_GAMES_BACKGAMMON_GNUBG_CLIENT_H
#define HOYLE_GAMES_BACKGAMMON_GNUBG_CLIENT_H

#define GNUBG_ID_LEN            16 /* bytes of a position ID buffer: 14 characters + NUL, padded */
#define GNUBG_CLIENT_TIMEOUT_MS 60000 /* longest wait for one reply (or for gnubg to start) */
#define GNUBG_CLIENT_MAX_PLIES  3     /* deepest search gnubg_client_best() accepts */
#define GNUBG_DEFAULT_PATH      "/usr/games/gnubg" /* Debian's gnubg package */

typedef struct gnubg_client gnubg_client_t;

/* Start gnubg and wait until the bridge reports ready. gnubg_path NULL means
 * $HOYLE_GNUBG when set and non-empty, else GNUBG_DEFAULT_PATH. On success *out
 * owns the process; free it with gnubg_client_close(). Errors: HOYLE_EUNSUP when
 * the program is missing or not executable (callers may skip), HOYLE_EIO when it
 * starts but the bridge does not come up, HOYLE_ENOMEM. *out is untouched on error. */
int gnubg_client_open(const char *gnubg_path, gnubg_client_t **out);

/* The legal plays of dice d1 d2 (1..6 each, either order) in position `id`: each
 * as the ID of the position after the play, mover still second. Written to
 * ids[0..*n), sorted ascending by strcmp, no two equal; *n = 0 when no play is
 * legal. Plays that reach the same position count once. Errors: HOYLE_EINVAL (bad
 * id or dice, or gnubg rejected the position; the message says why), HOYLE_EFULL
 * (more than cap plays; ids and *n untouched), HOYLE_EIO (see above). */
int gnubg_client_plays(gnubg_client_t *c, const char *id, int d1, int d2, char (*ids)[GNUBG_ID_LEN],
                       int cap, int *n);

/* The play gnubg chooses for dice d1 d2 in `id`, searching `plies` deep
 * (0..GNUBG_CLIENT_MAX_PLIES) with its standard move filters: money game,
 * cubeless, gammons and backgammons count (Jacoby off), deterministic. out_id
 * gets the resulting ID (mover still second), or "" when no play is legal.
 * Errors as gnubg_client_plays(); out_id is untouched on error. */
int gnubg_client_best(gnubg_client_t *c, const char *id, int d1, int d2, int plies,
                      char out_id[GNUBG_ID_LEN]);

/* Stop gnubg (asks it to quit, kills it after a short grace period) and free the
 * client. NULL is a no-op. */
void gnubg_client_close(gnubg_client_t *c);

#endif
