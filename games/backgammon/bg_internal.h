/* bg_internal.h — what the files of games/backgammon/ share.
 *
 * Backgammon (seed 001, "Backgammon, or Tric-Trac": set-up and notation; the
 * rules of play are the standard modern ones, docs/games/backgammon.md).
 *
 * Points: each player numbers the points from his own side, 1..24; a man
 * moves from higher to lower numbers, his home table is 1..6, and his
 * opponent's point q is his point 25 - q. Index 0 of a side's array counts
 * the men borne off, index 25 the men on the bar (BG_OFF, BG_BAR).
 *
 * Turn structure: a chance node (the roll; at the very start the opening
 * roll, one die each), then the mover's play as one action per checker step,
 * the same player acting again until the play is complete, then the other
 * player's roll. A player with no legal play for his roll passes (BG_PASS).
 *
 * Actions (fixed space, BG_NUM_ACTIONS = 151):
 *   player step    (from - 1) * 6 + (die - 1), from 1..25 (25 = the bar) in
 *                  the mover's numbering; the man lands on from - die, or is
 *                  borne off when that is <= 0
 *   pass           BG_PASS (150), the only legal action when the roll has
 *                  no legal play (an explicit decision, so that a pass is
 *                  a move for search depth, never chance after chance)
 *   roll           (hi - 1) * 6 + (lo - 1), hi >= lo (21 outcomes)
 *   opening roll   (d0 - 1) * 6 + (d1 - 1), d0 != d1: player 0's and player
 *                  1's die (30 outcomes); the higher die moves first and
 *                  plays both numbers
 * Only steps that begin one of the canonical legal plays of the roll are
 * legal: plays use both dice when possible (else the larger die when either
 * but not both can be played; doubles as many of the four as possible), and
 * plays that reach the same position are one play — the first in the order
 * bg_plays() enumerates (doubles: men moved from the highest point first;
 * other rolls: higher die first, then higher points first). */
#ifndef HOYLE_GAMES_BG_INTERNAL_H
#define HOYLE_GAMES_BG_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "games/game.h"

#define BG_MEN           15
#define BG_OFF           0
#define BG_BAR           25
#define BG_POINTS        26 /* off, points 1..24, bar */
#define BG_NUM_ACTIONS   151
#define BG_PASS          150
#define BG_MAX_STEPS     4
#define BG_MAX_PLAYS     4096 /* distinct plays of one roll: far above the known maximum */
#define BG_ID_LEN        14   /* gnubg Position ID characters */
#define BG_OPENING_ROLLS 30   /* outcomes of the opening roll (one die each, no ties) */
#define BG_ROLLS         21   /* outcomes of a later roll */

/* Game phases (bg_state_t.phase). */
enum { BG_OPENING = 0, BG_ROLL, BG_PLAY, BG_OVER };
/* How a finished game was won (bg_state_t.result: kind, winner in .winner). */
enum { BG_RESULT_NONE = 0, BG_SINGLE, BG_GAMMON, BG_BACKGAMMON, BG_DRAW };

/* The board: men of each player on each of his own points. */
typedef struct bg_board {
    int8_t men[2][BG_POINTS];
} bg_board_t;

/* The state (plain data). Invariants: each side has 15 men on board + bar +
 * off; no point holds men of both sides; `start` is the board when the
 * current play began and `steps[0..nsteps)` the steps made since (BG_PLAY
 * only); `need` is the length of every canonical play of the roll (> nsteps
 * in BG_PLAY, or 0 when the only action is BG_PASS); `hash` == bg_hash_compute(). */
typedef struct bg_state {
    uint64_t hash;
    bg_board_t board;
    bg_board_t start;
    uint16_t turns;  /* rolls made (both players, the opening included) */
    uint8_t phase;   /* BG_OPENING .. BG_OVER */
    uint8_t to_move; /* the player to play (or to roll, in BG_ROLL) */
    uint8_t dice[2]; /* hi, lo (BG_PLAY) */
    uint8_t need;    /* steps in each canonical play of this roll */
    uint8_t nsteps;  /* steps made so far in this play */
    uint8_t steps[BG_MAX_STEPS];
    uint8_t result; /* BG_RESULT_NONE while playing */
    uint8_t winner; /* when result is a win */
} bg_state_t;

/* One canonical play: its steps and the board it leads to. */
typedef struct bg_play {
    uint8_t n;
    uint8_t steps[BG_MAX_STEPS];
    bg_board_t after;
} bg_play_t;

/* Immutable per-game tables (g->impl). */
typedef struct bg_impl {
    bool points_scoring; /* gammons and backgammons count 2 and 3 (scaled to 1/3 steps) */
    int max_turns;       /* rolls after which the game is drawn (a safety net) */
    bool foster;         /* move text in the seed's numbering (25 - the modern number) */
    uint64_t zob_men[2][BG_POINTS][BG_MEN + 1];
    uint64_t zob_side[2];
    uint64_t zob_phase[4];
    uint64_t zob_roll[36];
    uint64_t zob_step[BG_MAX_STEPS][BG_NUM_ACTIONS];
    uint64_t zob_hit[BG_MAX_STEPS]; /* step k hit a blot (the steps alone don't say) */
    /* the chance outcomes, in bg_chance_outcomes() order: the opening roll
     * (X's die, O's die) and later rolls (hi, lo) */
    int opening_actions[BG_OPENING_ROLLS];
    double opening_probs[BG_OPENING_ROLLS];
    int roll_actions[BG_ROLLS];
    double roll_probs[BG_ROLLS];
} bg_impl_t;

static inline const bg_impl_t *bg_impl(const game_t *g) { return (const bg_impl_t *)g->impl; }

static inline int bg_step_from(int action) { return action / 6 + 1; }
static inline int bg_step_die(int action) { return action % 6 + 1; }
static inline int bg_step_action(int from, int die) { return (from - 1) * 6 + (die - 1); }
static inline int bg_step_to(int action)
{
    int to = bg_step_from(action) - bg_step_die(action);
    return to > 0 ? to : BG_OFF;
}

/* rules.c */
int bg_impl_create(game_t *g, bool points_scoring, int max_turns, bool foster);
void bg_board_init(bg_board_t *b);
uint64_t bg_hash_compute(const game_t *g, const bg_state_t *s);
/* True when `player` may make step `action` on board `b` (bar first, open
 * destination, bearing-off conditions); the per-roll rules are not checked. */
bool bg_step_ok(const bg_board_t *b, int player, int action);
/* Make the step on `b`; returns true when it hit a blot. */
bool bg_step_make(bg_board_t *b, int player, int action);
/* The canonical plays of `player` rolling (d1, d2) on `b`: writes up to
 * BG_MAX_PLAYS into out and returns the count (0: no legal play). */
int bg_plays(const bg_board_t *b, int player, int d1, int d2, bg_play_t *out);
/* The plays of the roll in progress in `s` (BG_PLAY), cached per thread:
 * the returned array stays valid until the thread's next call. */
const bg_play_t *bg_state_plays(const bg_state_t *s, int *n);
/* The length of the plays of (d1, d2): 0 when there is no legal play. */
int bg_play_length(const bg_board_t *b, int player, int d1, int d2);
/* The legal steps of the play in progress in `s` (BG_PLAY, need > 0): the
 * next step of every play of bg_state_plays() that continues the steps made,
 * ascending, each once; returns the count. */
int bg_state_next_steps(const bg_state_t *s, int *out);
/* Begin the play of `player` after rolling (hi, lo): compute `need` (0:
 * the player must pass). */
void bg_begin_play(const game_t *g, bg_state_t *s, int player, int hi, int lo);
/* Pip count: the steps `player` needs to bear every man off. */
int bg_pips(const bg_board_t *b, int player);
/* Result of a game where `winner` has borne off all men. */
int bg_win_kind(const bg_board_t *b, int winner);
/* Set the terminal fields when the board shows a finished game. */
void bg_settle(const game_t *g, bg_state_t *s);

void bg_init(const game_t *g, void *s);
int bg_current_player(const game_t *g, const void *s);
int bg_legal_actions(const game_t *g, const void *s, int *out);
int bg_chance_outcomes(const game_t *g, const void *s, int *actions, double *probs);
void bg_apply(const game_t *g, void *s, int action);
void bg_returns(const game_t *g, const void *s, double *out);
uint64_t bg_hash(const game_t *g, const void *s);
uint64_t bg_hash_recompute(const game_t *g, const void *s);
uint64_t bg_perft(const game_t *g, const void *s, int depth);

/* notation.c */
/* gnubg Position ID of `b` with `on_roll` the player on roll (14 chars + NUL). */
void bg_position_id(const bg_board_t *b, int on_roll, char id[BG_ID_LEN + 1]);
/* Decode a Position ID into `b` (on_roll's men in b->men[on_roll]); checks
 * 15 men a side at most and no shared points. */
int bg_position_id_parse(const char *id, int on_roll, bg_board_t *b);
int bg_state_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int bg_position_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int bg_position_from_string(const game_t *g, const char *text, void *s);
int bg_action_to_string(const game_t *g, const void *s, int action, char *buf, size_t cap);
int bg_action_from_string(const game_t *g, const void *s, const char *text, int *action);
int bg_move_from_string(const game_t *g, const void *s, const char *text, int *actions, int cap);
int bg_move_to_string(const game_t *g, const void *s, const int *actions, int n, char *buf,
                      size_t cap);

/* observe.c */
#define BG_PLANES 14
void bg_observe(const game_t *g, const void *s, int player, float *out);

/* features.c: the hand-made inputs and the outcome heads (game.h slots) */
int bg_features(const game_t *g, const void *s, int player, float *out);
void bg_outcome_heads(const game_t *g, game_outcome_heads_t *h);
void bg_outcome_targets(const game_t *g, const void *s, int player, float *out);

/* eval.c */
double bg_evaluate(const game_t *g, const void *s, int player);
bool bg_is_noisy(const game_t *g, const void *s, int action);

#endif
