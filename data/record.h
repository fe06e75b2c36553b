/* record.h — one finished game, as tournaments and self-play store it.
 *
 * A game_record_t is plain data: who played which seat, how the game opened,
 * every action with its thinking time, how and why it ended. data/h5rec.h
 * stores records in an HDF5 file (schema in docs/formats.md).
 *
 * Ownership: the struct owns nothing by itself. A writer (h5rec_append)
 * only reads the pointed-to strings and arrays, which stay the caller's. A
 * reader (h5rec_read) fills every pointer field with new allocations that
 * the caller releases with game_record_free(). */
#ifndef HOYLE_DATA_RECORD_H
#define HOYLE_DATA_RECORD_H

#include <stdint.h>

#define RECORD_MAX_PLAYERS 2 /* seats per game (GAME_MAX_PLAYERS in games/game.h) */

/* Why a game ended. Stored as an HDF5 enum with these names (minus the
 * RECORD_END_ prefix, lower case: "rules", "move_limit", "resign", "error"). */
typedef enum record_end {
    RECORD_END_RULES = 0,      /* the rules ended it (win, loss, draw by rule) */
    RECORD_END_MOVE_LIMIT = 1, /* adjudicated at the match's move limit */
    RECORD_END_RESIGN = 2,     /* a player resigned */
    RECORD_END_ERROR = 3,      /* an agent failed (bad action, crash, timeout) */
    RECORD_END_COUNT
} record_end_t;

typedef struct game_record {
    char *game_spec;                      /* canonical game spec, "checkers(variant=english)" */
    char *agent_spec[RECORD_MAX_PLAYERS]; /* agent spec per seat; NULL or "" = seat unused */
    char *opening_name;                   /* NULL or "" = no opening */
    int32_t opening_len;                  /* actions in opening_actions */
    int32_t *opening_actions;             /* the opening's actions from the initial position */
    double returns[RECORD_MAX_PLAYERS];   /* game_returns() per player, in [-1, 1] */
    double result;                        /* score of player 0: 1 win, 0.5 draw, 0 loss */
    record_end_t end;                     /* why the game ended */
    int32_t num_actions;                  /* length of the game in actions (chance included) */
    int32_t *actions;                     /* num_actions actions from the initial position */
    float *action_ms;                     /* thinking time per action in ms; NULL = not measured
                                             (stored as 0) */
    uint64_t seed;                        /* the game's seed (derived from the match seed) */
    int32_t pairing;                      /* index of the pairing (agent pair) in the tournament */
    int32_t round;                        /* round of the tournament */
    int32_t game_index;                   /* game number within the pairing and round */
} game_record_t;

/* Name of an end reason ("rules", "move_limit", "resign", "error"), or "?"
 * for values out of range. */
const char *record_end_name(record_end_t end);

/* Parse a name from record_end_name(). HOYLE_EINVAL for unknown names. */
int record_end_from_name(const char *name, record_end_t *out);

/* Check a record before it is stored: lengths non-negative, arrays present
 * when lengths are positive, result in [0, 1], returns finite and in
 * [-1, 1], end in range, game spec non-empty. HOYLE_EINVAL names the field. */
int record_validate(const game_record_t *r);

/* Free every pointer field filled by a reader and zero the struct.
 * game_record_free(NULL) is a no-op. Never call it on a record whose
 * pointers belong to someone else. */
void game_record_free(game_record_t *r);

#endif
