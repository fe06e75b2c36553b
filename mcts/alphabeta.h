/* alphabeta.h — depth-limited alpha-beta over any game of the game contract.
 *
 * Negamax form with the sign flipped only where the player to move changes:
 * a chain (same player again) keeps the value's sign, a two-player change
 * negates it, a one-player puzzle never negates. Chance nodes are
 * expectiminimax nodes (Michie 1966) with Star1 pruning (Ballard 1983):
 * outcome windows are narrowed using the value bounds [-1, 1].
 *
 * Depth counts whole moves: an action by the player to move costs one ply
 * unless the same player moves again (a chain); chance outcomes are free.
 * At depth 0 the game's evaluate() is the leaf value, or, with quiescence,
 * a stand-pat search over the game's noisy actions (captures); in a state
 * the game calls forcing (game_is_forcing: chess's check) quiescence
 * searches every move instead of standing pat. A move into a forcing state
 * costs no depth (check extension) while the ply is below twice the
 * iteration's depth; games without the slot search exactly as before.
 *
 * Iterative deepening, a transposition table keyed by the game's Zobrist
 * hash (cutoffs only from entries of the same remaining depth, so the value
 * at each depth equals plain minimax's exactly), move ordering by TT move,
 * noisy actions, two killers per ply, the counter-move of the previous
 * action (Uiterwijk 1992) and the history heuristic (Schaeffer 1989).
 * Principal variation search (Marsland and Campbell 1982, "Parallel search
 * of strongly ordered game trees"): after the first move each move is
 * searched with a null window just above alpha, and again with the whole
 * window only when it lands inside (only in games without chance nodes,
 * where Star1 turns null windows into more re-searches than they save); an
 * optional aspiration window at the root widens on failure. Both keep the
 * value at each depth equal to plain minimax's (fail-soft bounds are on the
 * correct side whatever the window). Search frames are sized by the depth
 * bound at ab_create(); only the first line deeper than that (long chains)
 * adds frames, so nothing is allocated in the steady state. The frame count
 * never changes a result.
 *
 * One ab_t per thread; seeded nothing (alpha-beta is deterministic). */
#ifndef HOYLE_MCTS_ALPHABETA_H
#define HOYLE_MCTS_ALPHABETA_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"

#define AB_PV_MAX 64

struct ab_result;

typedef struct ab_params {
    int max_depth;          /* deepest iteration, in whole moves (>= 1) */
    double time_limit_ms;   /* stop iterating (and abort) after this; 0 = depth only */
    size_t tt_entries;      /* transposition-table entries (power of two); 0 = no table */
    bool quiescence;        /* extend noisy actions at depth 0 */
    int qdepth;             /* most quiescence plies */
    bool iterative;         /* iterative deepening from depth 1 (else max_depth only) */
    bool killers;           /* killer-move ordering */
    bool history;           /* history-heuristic ordering */
    bool pvs;               /* principal variation search (games without chance nodes) */
    bool counter_moves;     /* counter-move ordering (the quiet reply that last cut after a move) */
    double aspiration;      /* root window +- this around the last iteration's value; 0 = none */
    uint64_t max_nodes;     /* stop iterating (and abort) after this many nodes; 0 = none */
    const atomic_int *stop; /* set by another thread: abort like the clock; NULL = none */
    /* called after each completed iteration with the result so far (its depth, value, PV,
     * and the nodes and seconds of the search up to then); NULL = none (ab_on_iteration) */
    void (*on_iteration)(void *ctx, const struct ab_result *r);
    void *on_iteration_ctx;
    /* the leaf value of a non-terminal state for `player`, in (-1, 1): NULL = the game's
     * heuristic (game_evaluate); the `alphabeta(eval=FILE)` weights (mcts/eval_linear.h) */
    double (*eval)(void *ctx, const void *s, int player);
    void *eval_ctx;
    /* the principal variation goes on through quiescence (the captures that decided a
     * leaf's value), so it ends at the position whose static value the search backed up:
     * TDLeaf's leaf (train/tdleaf.h); false = it ends where the full-width search did */
    bool qsearch_pv;
    /* Engine techniques (docs/search.md, "Alpha-beta as engines do it"); the defaults keep
     * the search of earlier versions bit for bit. The first three prune or reduce: the
     * value at a depth is no longer plain minimax's. */
    int null_r;       /* null-move pruning (Beal 1989; Donninger 1993): at a non-PV node of
                         depth >= 2 whose static value is >= beta, pass (the game's null_move
                         slot) and search depth - 1 - null_r with a null window at beta; a
                         value >= beta cuts. 0 = off; games without the slot never pass */
    int lmr;          /* late-move reductions: from the lmr-th move on (counting from 0), a
                         quiet move (not noisy, no killer, not into a forcing state, not out
                         of one) at depth >= 3 is searched first with a null window at
                         reduced depth, R = max(1, floor(0.75 + ln(depth) ln(i + 1) / 2.25)),
                         and again at full depth when it beats alpha. 0 = off */
    bool check_ext;   /* a move into a forcing state costs no depth (below ply 2 * depth) */
    bool capture_ext; /* a noisy move answering a noisy move costs no depth (recaptures;
                         same ply limit) */
    bool star2;       /* Star2 at chance nodes (Ballard 1983): a probing pass (the first
                         move of each outcome) bounds every outcome before Star1; exact */
    bool mtdf;        /* MTD(f) (Plaat et al. 1996) instead of one (aspiration) window per
                         iteration: null-window searches from the last value; exact;
                         games without chance nodes only (ignored in the others) */
    /* Endgame tables (mcts/tb_probe.h), borrowed; NULL = none. Every node below the root
     * whose state they cover, interior or leaf, takes their value instead of a search (as
     * engines use Syzygy): a win in d plies at ply p scores 1 - AB_TB_STEP * (p + d), a
     * loss its negation, a draw 0, so the shortest win and the longest loss are preferred;
     * with tables on, terminal states score the same way (d = 0) and heuristic values are
     * kept inside +-AB_TB_EVAL_MAX, below every table score. */
    struct tb *tb;
} ab_params_t;

#define AB_TB_STEP     1e-7 /* score per ply of distance */
#define AB_TB_EVAL_MAX 0.98 /* heuristic values with tables on: within +-this */

/* Defaults: depth 4, no time limit, 2^20 TT entries, quiescence off (qdepth
 * 8 when on), iterative deepening, killers, history, counter-moves and PVS
 * on, no aspiration window, no node limit, no stop flag; check extension on,
 * null move, LMR, capture extension, Star2 and MTD(f) off. */
void ab_params_default(ab_params_t *p);

typedef struct ab_result {
    double value; /* for the player to move at the root */
    int best_action;
    int pv[AB_PV_MAX]; /* principal variation (stops at chance nodes) */
    int pv_len;
    int depth;      /* deepest completed iteration */
    uint64_t nodes; /* nodes visited, all iterations, quiescence included */
    double seconds;
    bool timed_out; /* the last iteration was cut by the time limit */
} ab_result_t;

typedef struct ab ab_t;

/* *out is freed with ab_free(); `g` is borrowed and must outlive it. */
int ab_create(const game_t *g, const ab_params_t *params, ab_t **out);
void ab_free(ab_t *t);

/* Search `state` (a decision state). *out is owned by t, valid until the
 * next call. */
int ab_search(ab_t *t, const void *state, const ab_result_t **out);

/* Set the per-iteration callback of the next searches (NULL = none). */
void ab_on_iteration(ab_t *t, void (*fn)(void *ctx, const ab_result_t *r), void *ctx);

/* Change the limits of the next searches (a driver that sets them move by
 * move, `hoyle uci`): max_depth (0 = 64), time_limit_ms, max_nodes and stop
 * are taken from `p`, the rest of t's parameters stay. The clock, the node
 * count and the stop flag are checked every 1024 nodes and between
 * iterations; an aborted iteration is dropped as with the time limit. */
void ab_set_limits(ab_t *t, const ab_params_t *p);

/* Forget the transposition table, killers and history. */
void ab_clear(ab_t *t);

#endif
