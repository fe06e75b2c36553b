/* gnubg_player.h — GNU Backgammon's own play of a backgammon game, one step
 * at a time: what the `gnubg` agent kind (agents/agent_gnubg.c) plays.
 *
 * At the first step of each of its plays the player asks gnubg (a child
 * process, gnubg_client.h) for its play of the roll at the given plies, finds
 * the canonical play that reaches the same position, and then returns that
 * play's steps one per call. Money game, cubeless, gammons counting (see
 * gnubg_client_best). It reads bg_state_t, so it lives beside the rules; its
 * interface takes states as `const void *` and needs nothing from mcts/. */
#ifndef HOYLE_GAMES_BACKGAMMON_GNUBG_PLAYER_H
#define HOYLE_GAMES_BACKGAMMON_GNUBG_PLAYER_H

#include "games/backgammon/gnubg_client.h"

typedef struct gnubg_player gnubg_player_t;

/* Start gnubg (`path` NULL or "": gnubg_client_open's default) to play at
 * `plies` (0..GNUBG_CLIENT_MAX_PLIES). On success *out owns the process; free
 * it with gnubg_player_close(). Errors as gnubg_client_open(); *out untouched. */
int gnubg_player_open(const char *path, int plies, gnubg_player_t **out);

/* gnubg_player_close(NULL) is a no-op. */
void gnubg_player_close(gnubg_player_t *p);

/* The next step of gnubg's play at `state` (a backgammon state, bg_state_t,
 * at a decision: HOYLE_ESTATE otherwise). HOYLE_ESTATE as well when gnubg's
 * play is not one of hoyle's or when another player began this play and
 * gnubg's does not continue it; HOYLE_EIO when gnubg fails. */
int gnubg_player_step(gnubg_player_t *p, const void *state, int *action);

/* Forget the plan (a new game). */
void gnubg_player_reset(gnubg_player_t *p);

#endif
