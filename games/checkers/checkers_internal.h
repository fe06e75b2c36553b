/* checkers_internal.h — what the files of games/checkers/ share.
 *
 * Board: the 32 playable squares, bit k = square k+1 of the standard
 * numbering. Row r = k / 4 (row 0 holds squares 1-4, Black's back rank);
 * on even rows the squares sit in columns 1,3,5,7, on odd rows in 0,2,4,6,
 * so squares 1 and 5 form Black's double corner and 4 is a single corner.
 * Black (player 0) starts on 1-12 and moves "down" (towards row 7); White
 * (player 1) starts on 21-32 and moves "up".
 *
 * Directions: 0 down-left, 1 down-right, 2 up-left, 3 up-right (row +-1,
 * column -+1). ck_shift() moves a whole bitboard one step; squares that
 * would leave the board drop out.
 *
 * State invariants (ck_state_t): bb[0] & bb[1] == 0; kings within bb[0] |
 * bb[1]; `captured` holds opponent pieces already taken by the chain in
 * progress, still on the board (they block, and cannot be taken twice) and
 * removed when the move ends; chain == 0 iff no chain is in progress, and
 * then captured == 0 and chain_prev == 0; quiet == 0 during a chain; the
 * rev[] entries past `quiet` are zero (so equal positions are equal bytes);
 * `result` is decided whenever a whole move ends and is never changed after.
 * `hash` covers bb, kings, side, chain, chain_prev and captured (not the
 * draw history: see docs/games/checkers.md). */
#ifndef HOYLE_GAMES_CHECKERS_INTERNAL_H
#define HOYLE_GAMES_CHECKERS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"

enum { CK_ENGLISH = 0, CK_LOSING, CK_POLISH, CK_DEVIL };
enum { CK_ONGOING = 0, CK_WIN0, CK_WIN1, CK_DRAW };

#define CK_QUIET_MAX 80          /* 40 moves each without a capture or a man move: draw */
#define CK_MAX_LEGAL 156         /* 12 pieces x 13 squares on their two diagonals */
#define CK_ROW0      0x0000000Fu /* White's king row */
#define CK_ROW7      0xF0000000u /* Black's king row */

typedef struct ck_state {
    uint64_t hash;
    uint32_t bb[2];     /* pieces of Black (0) and White (1) */
    uint32_t kings;     /* which of them are kings (the devil is a black king) */
    uint32_t captured;  /* opponent pieces taken in the chain in progress */
    uint8_t side;       /* player to move */
    uint8_t chain;      /* 1 + square of the capturing piece mid-chain, 0 if none */
    uint8_t chain_prev; /* 1 + square its last step started from, 0 if none */
    uint8_t result;     /* CK_ONGOING / CK_WIN0 / CK_WIN1 / CK_DRAW */
    uint8_t quiet;      /* reversible whole moves (king non-captures) in a row */
    uint8_t huff;       /* capture=huff: CK_HUFF_* phase | CK_HUFF_CROWNED, 0 if none */
    uint8_t neg_from;   /* the neglecting move's squares while huff != 0, else 0 */
    uint8_t neg_to;
    uint16_t rev[CK_QUIET_MAX]; /* those moves, oldest first: from | to << 5 */
} ck_state_t;

/* The immutable game tables (g->impl). */
typedef struct ck_game {
    int variant;
    bool flying;                /* Polish: kings fly, men take backwards, majority capture */
    bool draws;                 /* 40-move rule and threefold repetition */
    bool huff;                  /* capture=huff: a missed capture is the opponent's to punish */
    uint64_t z_piece[2][2][32]; /* [color][king][square] */
    uint64_t z_side, z_chain[32], z_prev[32], z_cap[32];
    uint64_t z_huff[8], z_neg[2][32]; /* capture=huff: phase byte, neglect from / to */
} ck_game_t;

/* A capture step of one piece: where it lands, which pieces it takes. */
typedef struct ck_step {
    int to, dir;
    uint32_t cap;
} ck_step_t;

static inline uint32_t ck_shift(int d, uint32_t x)
{
    switch (d) {
    case 0: return ((x & 0x0F0F0F0Fu) << 4) | ((x & 0x00E0E0E0u) << 3);
    case 1: return ((x & 0x07070707u) << 5) | ((x & 0x00F0F0F0u) << 4);
    case 2: return ((x & 0x0F0F0F00u) >> 4) | ((x & 0xE0E0E0E0u) >> 5);
    default: return ((x & 0x07070700u) >> 3) | ((x & 0xF0F0F0F0u) >> 4);
    }
}

static inline int ck_popcount(uint32_t x) { return __builtin_popcount(x); }
static inline int ck_lsb(uint32_t x) { return __builtin_ctz(x); }
static inline uint32_t ck_bit(int sq) { return 1u << sq; }
static inline int ck_row(int sq) { return sq >> 2; }
static inline int ck_col(int sq) { return 2 * (sq & 3) + (((sq >> 2) & 1) ? 0 : 1); }
/* Forward directions of a man of `color`: d0 and d0 + 1. */
static inline int ck_fwd0(int color) { return color == 0 ? 0 : 2; }
static inline uint32_t ck_king_row(int color) { return color == 0 ? CK_ROW7 : CK_ROW0; }

static inline const ck_game_t *ck_game(const game_t *g) { return (const ck_game_t *)g->impl; }

/* ---- board.c ---- */
void ck_zobrist_init(ck_game_t *cg);
uint64_t ck_hash_compute(const ck_game_t *cg, const ck_state_t *s);
void ck_start_position(const ck_game_t *cg, ck_state_t *s);
/* Direction from `from` to `to` if they share a diagonal (else -1); the
 * squares strictly between go to *between. */
int ck_line(int from, int to, uint32_t *between);

/* ---- movegen.c ---- */
/* Capture steps of the piece on `sq` (own color `color`, `king`) with the
 * given own/opp occupancy; `forbid` is a direction a flying king may not
 * continue in (-1: none). Returns the count written to out (<= 24). */
int ck_capture_steps(const ck_game_t *cg, uint32_t own, uint32_t opp, uint32_t captured, int sq,
                     bool king, int color, int forbid, ck_step_t *out);
/* Most pieces the piece on `sq` can still take (Polish majority rule). */
int ck_max_capture(const ck_game_t *cg, uint32_t own, uint32_t opp, uint32_t captured, int sq,
                   bool king, int color, int forbid);
/* Destinations of a non-capturing move of the piece on `sq`. */
uint32_t ck_quiet_targets(const ck_game_t *cg, uint32_t own, uint32_t opp, int sq, bool king,
                          int color);
/* Whether `color` has any capture / any move at all (no chain in progress). */
bool ck_has_capture(const ck_game_t *cg, uint32_t own, uint32_t opp, uint32_t kings, int color);
bool ck_has_move(const ck_game_t *cg, uint32_t own, uint32_t opp, uint32_t kings, int color);
int ck_legal_actions(const ck_game_t *cg, const ck_state_t *s, int *out);
void ck_apply(const ck_game_t *cg, ck_state_t *s, int action);
/* Whether `action` (legal or not) would take a piece in `s`. */
bool ck_is_capture(const ck_state_t *s, int action);

/* ---- huff.c: capture=huff (Checker Laws 14-15) ---- */
/* Phases of ck_state_t.huff: the side to move may punish the neglect of
 * the move just played (compel, huff, or play on = let it stand); or the
 * side to move was compelled and must capture. CROWNED: the neglecting move
 * crowned a man (compelling takes the crown back). */
enum { CK_HUFF_NONE = 0, CK_HUFF_CHOICE = 1, CK_HUFF_COMPELLED = 2, CK_HUFF_CROWNED = 4 };
#define CK_HUFF_ACTION      1024 /* + square: huff the offender's man there */
#define CK_COMPEL           1056 /* take the move back and make him capture */
#define CK_HUFF_NUM_ACTIONS 1057
static inline int ck_huff_phase(const ck_state_t *s) { return s->huff & 3; }
/* The offender's pieces (squares now) that could have captured before the
 * neglecting move: the ones that may be huffed. 0 outside CK_HUFF_CHOICE. */
uint32_t ck_huffable(const ck_game_t *cg, const ck_state_t *s);
/* Append the huff actions and compel (CK_HUFF_CHOICE only): the count. */
int ck_huff_actions(const ck_game_t *cg, const ck_state_t *s, int *out);
/* ck_apply for capture=huff: huff and compel actions, the neglect of a
 * capture noted, the phase ended by the next move. */
void ck_huff_apply(const ck_game_t *cg, ck_state_t *s, int action);
/* The hash term of the huff fields. */
uint64_t ck_huff_key(const ck_game_t *cg, const ck_state_t *s);
/* Position text: the :N<a>-<b>[K] (a choice pending after the neglect a-b,
 * K: it crowned) or :M (compelled) field, written last. */
int ck_huff_position_suffix(const ck_state_t *s, char *buf, size_t cap);
int ck_huff_position_from_string(const game_t *g, const char *text, void *out);
/* "huff 14" / "compel" for those actions (0 < length), or 0 for another. */
int ck_huff_action_text(int action, char *buf, size_t cap);
/* Read "huff N" or "compel" at the start of text: the action and where
 * the text goes on, or 0 when the text starts with neither. */
int ck_huff_action_parse(const game_t *g, const ck_state_t *s, const char *text, int *action,
                         const char **rest);

/* ---- rules.c ---- */
/* Decide s->result once a whole move has ended (side already switched). */
void ck_finish(const ck_game_t *cg, ck_state_t *s);
/* How many earlier positions in the reversible history rev[0..quiet) equal
 * the current one (same side to move). Only kings move within that history,
 * so undoing its moves on the king bitboards k0/k1 (Black/White) is exact. */
int ck_count_reps(uint32_t k0, uint32_t k1, int side, const uint16_t *rev, int quiet);
static inline int ck_repetitions(const ck_state_t *s)
{
    return ck_count_reps(s->bb[0] & s->kings, s->bb[1] & s->kings, s->side, s->rev, s->quiet);
}
/* Devil among the Tailors: the devil stands on a row behind every tailor. */
bool ck_devil_free(uint32_t devil, uint32_t tailors);
uint64_t ck_perft(const game_t *g, const void *s, int depth);

/* ---- notation.c ---- */
int ck_position_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int ck_position_from_string(const game_t *g, const char *text, void *s);
int ck_action_to_string(const game_t *g, const void *s, int action, char *buf, size_t cap);
int ck_action_from_string(const game_t *g, const void *s, const char *text, int *action);
int ck_move_from_string(const game_t *g, const void *s, const char *text, int *actions, int cap);
int ck_move_to_string(const game_t *g, const void *s, const int *actions, int n, char *buf,
                      size_t cap);
/* The game_vt_t record_to_string slot: a PDN record (pdn.c). */
int ck_record_to_string(const game_t *g, const game_record_tags_t *tags, const void *start,
                        const int *actions, int n, char *buf, size_t cap);

/* ---- observe.c ---- */
#define CK_PLANES 7
void ck_observe(const game_t *g, const void *s, int player, float *out);
int ck_state_to_string(const game_t *g, const void *s, char *buf, size_t cap);

/* ---- eval.c ---- */
double ck_evaluate(const game_t *g, const void *s, int player);
/* The heuristic as a linear model (the eval_terms slot of games/game.h). */
int ck_eval_terms(const game_t *g, const void *s, int player, double *out, const char **names,
                  double *weights);
bool ck_is_noisy(const game_t *g, const void *s, int action);

#endif
