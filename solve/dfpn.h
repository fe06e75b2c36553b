/* dfpn.h — proof-number search over any two-player game: whether a given
 * player (the attacker) wins by force.
 *
 * The question is one-sided, as in Allis's proof-number search (Allis, van
 * der Meulen & van den Herik 1994, "Proof-number search", AIJ 66): a state
 * is PROVEN when the attacker can force a terminal state whose return for
 * him is positive (a win), DISPROVEN when he cannot: a draw is the
 * attacker's failure, so "the mover does not win" covers draws and losses.
 * Asking twice (the mover, then his opponent) gives win / draw / loss
 * (pn_solve). Nodes where the attacker moves are OR nodes, the others AND
 * nodes; a chain (the same player again) keeps the node's kind. Games with
 * chance nodes or one player are refused.
 *
 * Two searches answer the same question:
 * - df-pn (Nagai 2002, "Df-pn algorithm for searching AND/OR trees and its
 *   applications", PhD thesis, Tokyo): depth-first with thresholds, every
 *   result in a transposition table keyed by the game's hash; with the 1+ε
 *   trick (Pawlewicz & Lew 2007, "Improving depth-first PN-search: 1+ε
 *   trick"): a child's threshold is max(pn2 + 1, ceil(pn2 (1 + ε))), pn2 the
 *   second-best sibling's number, so that the search switches between
 *   siblings less often (ε = 0: Nagai's pn2 + 1).
 * - PNS: Allis's best-first search over an explicit tree in an arena (no
 *   transpositions), from the root to the most-proving node and back.
 *
 * Repetition: a state whose hash is already on the path from the root is a
 * failure for the attacker (infinite play is no win). That disproof depends
 * on the path (graph-history interaction, Kishimoto & Müller 2004), so a
 * disproof that used one is flagged (`loops`) and reported as "not proven"
 * rather than as a disproof. A proof never uses a repetition, so proofs are
 * sound: every line of a proof ends in a win. The table is keyed by the
 * game's hash, which leaves out draw counters in some games (checkers' and
 * chess's repetition and move-count rules): a proof then holds in the game
 * of positions (a win of the endgame tables, solve/retro.h), and a draw met
 * on the path counts as a failure there too. */
#ifndef HOYLE_SOLVE_DFPN_H
#define HOYLE_SOLVE_DFPN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"

enum { PN_UNKNOWN = 0, PN_PROVEN = 1, PN_DISPROVEN = 2 };
enum { PN_DFPN = 0, PN_PNS = 1 };

typedef struct pn_params {
    int algorithm;        /* PN_DFPN or PN_PNS */
    uint64_t max_nodes;   /* budget of expanded nodes; 0 = none (memory and time only) */
    double time_limit_ms; /* 0 = none */
    size_t tt_entries;    /* df-pn's table (rounded down to a power of two); PNS: arena nodes */
    double epsilon;       /* df-pn's 1+ε trick; 0 = Nagai's pn2 + 1 */
} pn_params_t;

/* Defaults: df-pn, no node or time limit, 2^20 table entries (PNS: as many
 * arena nodes), ε = 0.25. */
void pn_params_default(pn_params_t *p);

typedef struct pn_result {
    int status;      /* PN_PROVEN / PN_DISPROVEN / PN_UNKNOWN (budget, memory, or loops) */
    int best_action; /* PROVEN at an attacker's node: a winning move; else -1 */
    bool loops;      /* a repetition counted as a failure (a disproof is then UNKNOWN) */
    bool exhausted;  /* stopped by the node, time or memory limit */
    uint64_t pn, dn; /* the root's proof and disproof numbers at the end */
    uint64_t nodes;  /* nodes expanded */
    double seconds;
} pn_result_t;

typedef struct pn pn_t;

/* *out is freed with pn_free(); `g` is borrowed and must outlive it. Fails
 * (HOYLE_EINVAL) for games with chance nodes or other than two players. */
int pn_create(const game_t *g, const pn_params_t *params, pn_t **out);
void pn_free(pn_t *t);

/* Does `attacker` win from `state` (a decision or terminal state)? *out is
 * filled; the table is kept between calls (pn_clear forgets it) and holds
 * results for one attacker only, so a call for the other one clears it. */
int pn_prove(pn_t *t, const void *state, int attacker, pn_result_t *out);
void pn_clear(pn_t *t);

/* The value for the player to move in decision state `state`: +1 win, 0
 * draw, -1 loss, by two proofs (the mover wins? else the opponent wins?);
 * *known is false when a question stayed open. `mover` and `opponent`
 * receive both results (opponent's status stays UNKNOWN when not asked). */
int pn_solve(pn_t *t, const void *state, int *value, bool *known, pn_result_t *mover,
             pn_result_t *opponent);

#endif
