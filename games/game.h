/* game.h — the contract between a game and everything that plays it.
 *
 * A game is a `const game_t *`: an immutable description made by the registry
 * from a spec (`game_create("gobang(board=8,men=12)", &g)`). It points at a
 * vtable of plain functions over a *state*.
 *
 * State: `g->state_size` bytes of plain old data (no pointers, no heap),
 *   copied with memcpy. Search copies states instead of undoing moves. Every
 *   state carries a 64-bit Zobrist hash kept up to date incrementally; the
 *   hash covers everything that decides the legal actions and the future
 *   (side to move, chain in progress, draw counters where they matter).
 * Players: game_current_player() is 0..num_players-1, PLAYER_CHANCE at a
 *   chance node, PLAYER_TERMINAL at the end. Players need not alternate: a
 *   capture chain gives the same player several actions in a row.
 * Seats: a player may be a partnership of several seats that take turns
 *   (gobang(players=4): four seats, two partnerships, whist order). The
 *   player is who chooses and is scored; game_current_seat() says which of
 *   its seats is at the board. Seat k belongs to player k % num_players
 *   (partners sit num_players apart). Most games have one seat per player.
 * Actions: ints in [0, num_actions), a fixed space per game so a policy head
 *   has a fixed size. legal_actions() fills a caller buffer of max_legal.
 * Chance: chance_outcomes() lists outcome actions with probabilities;
 *   applying an outcome is an ordinary game_apply().
 * Outcome: game_returns() gives one value per player in [-1, 1]; two-player
 *   games are zero-sum (win +1, loss -1, draw 0). Draw rules are rules.
 * Text: a board for people, a one-line position format (FEN, PDN FEN, or the
 *   game's documented format), action notation, and whole-move notation for
 *   sequences of actions by one player. Parsing errors return HOYLE_EINVAL
 *   with a message and never change the state.
 * Records: optionally, whole games written in the family's file format
 *   (checkers: PDN) from the tags a tournament keeps (game_record_to_string).
 *
 * Callers use the game_*() wrappers below, never g->vt directly: the
 * wrappers supply defaults for optional slots (STYLE.md point 2). */
#ifndef HOYLE_GAMES_GAME_H
#define HOYLE_GAMES_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/spec.h"

#define PLAYER_CHANCE    (-1)
#define PLAYER_TERMINAL  (-2)
#define GAME_MAX_PLAYERS 2
#define GAME_NAME_MAX    32
#define GAME_SPEC_MAX    512  /* game or agent spec (an az spec holds a model path) */
#define GAME_TEXT_MAX    4096 /* enough for any board drawing or position text */
#define GAME_MOVE_MAX    64   /* longest action or whole-move string */
#define GAME_MAX_CHAIN   32   /* most actions one player makes in a row (one whole move) */
#define GAME_STATE_ALIGN 8    /* alignment every state buffer must have */

/* The eight symmetries of a square board, as applied to (row, col) of an
 * N x N board: see games/symmetry.h for the exact maps. A game lists the
 * subset it is invariant under in g->symmetries (always starting with
 * SYM_IDENTITY). */
typedef enum sym {
    SYM_IDENTITY = 0,
    SYM_ROT90,
    SYM_ROT180,
    SYM_ROT270,
    SYM_FLIP_ROWS, /* row r -> N-1-r */
    SYM_FLIP_COLS, /* col c -> N-1-c */
    SYM_TRANSPOSE, /* (r, c) -> (c, r) */
    SYM_ANTI_TRANSPOSE,
    SYM_COUNT
} sym_t;

typedef struct game game_t;
struct rng; /* core/rng.h */

/* What a stored game's record carries besides its moves: the tags a
 * tournament keeps. A record writer (record_to_string below) spells them in
 * its format's own way (PDN names seat 0 Black, PGN names it White).
 * Strings are borrowed for the call; NULL means absent. */
typedef struct game_record_tags {
    const char *event;                     /* what the game was played for (a tournament) */
    int round;                             /* the game's number, from 1; 0 = none */
    const char *players[GAME_MAX_PLAYERS]; /* seat 0 (moves first), seat 1; NULL = "?" */
    double score;                          /* seat 0's score: 1 win, 0 loss, between = draw;
                                              outside [0, 1] = no result ("*") */
    const char *opening;                   /* the opening's name; NULL or "" = none */
    const char *termination;               /* why it ended ("rules", "move_limit", ...) */
    const char *date;                      /* "YYYY.MM.DD" it was played (UTC); NULL = unknown */
} game_record_tags_t;

/* What a value net learns of a two-player game's outcome: n probabilities
 * ("heads"), each of an event seen from one player's view (backgammon: win,
 * win a gammon, win a backgammon, lose a gammon, lose a backgammon; the
 * default: win, loss, a draw being neither). The same heads from the other
 * player's view: head k of the other player is head other[k] of this one,
 * complemented (1 - p) when complement[k]. The expected return of the player
 * is bias + sum over k of weight[k] * p[k]. */
#define GAME_MAX_HEADS 8
#define GAME_MAX_TERMS 512 /* eval_terms below */
typedef struct game_outcome_heads {
    int n;
    const char *names[GAME_MAX_HEADS];
    int other[GAME_MAX_HEADS];
    bool complement[GAME_MAX_HEADS];
    double weight[GAME_MAX_HEADS], bias;
} game_outcome_heads_t;

typedef struct game_vt {
    /* ---- required ---- */

    /* Write the initial position into `s` (state_size bytes). */
    void (*init)(const game_t *g, void *s);
    /* 0..num_players-1, PLAYER_CHANCE or PLAYER_TERMINAL. */
    int (*current_player)(const game_t *g, const void *s);
    /* Fill out[0..n) with the legal actions (ascending order), return n. At
     * chance nodes, the outcome actions; at terminal states, 0. */
    int (*legal_actions)(const game_t *g, const void *s, int *out);
    /* Apply a legal action (or chance outcome) in place. Illegal actions are
     * a programmer error here; use game_apply_checked() for untrusted input. */
    void (*apply)(const game_t *g, void *s, int action);
    /* Terminal payoffs, one per player, each in [-1, 1]. */
    void (*returns)(const game_t *g, const void *s, double *out);
    /* The incrementally maintained Zobrist hash. */
    uint64_t (*hash)(const game_t *g, const void *s);
    /* The same hash recomputed from scratch (the conformance suite compares). */
    uint64_t (*hash_recompute)(const game_t *g, const void *s);
    /* Observation tensor [C][H][W] (g->obs_shape) from `player`'s view. */
    void (*observe)(const game_t *g, const void *s, int player, float *out);
    /* A board a person can read, NUL-terminated in buf[cap]; returns length
     * or HOYLE_EFULL. */
    int (*state_to_string)(const game_t *g, const void *s, char *buf, size_t cap);
    /* One-line position export/import. Import validates fully and writes `s`
     * only on success. */
    int (*position_to_string)(const game_t *g, const void *s, char *buf, size_t cap);
    int (*position_from_string)(const game_t *g, const char *text, void *s);
    /* One action in the game's notation, and back. action_from_string
     * accepts only actions legal in `s` (HOYLE_EINVAL with a reason). */
    int (*action_to_string)(const game_t *g, const void *s, int action, char *buf, size_t cap);
    int (*action_from_string)(const game_t *g, const void *s, const char *text, int *action);

    /* ---- optional (NULL = default given at the wrapper) ---- */

    /* Chance outcomes and their probabilities at a PLAYER_CHANCE state;
     * returns the count. Default: none (deterministic game). */
    int (*chance_outcomes)(const game_t *g, const void *s, int *actions, double *probs);
    /* Parse a whole move of the player to move (`9x18x27`) into its actions,
     * at most `cap`; returns the count or HOYLE_EINVAL. Default: one action. */
    int (*move_from_string)(const game_t *g, const void *s, const char *text, int *actions,
                            int cap);
    /* Write the whole move made of `n` consecutive actions of one player,
     * starting in `s`. Default: the action strings joined by spaces. */
    int (*move_to_string)(const game_t *g, const void *s, const int *actions, int n, char *buf,
                          size_t cap);
    /* The same whole move as players of the game write it, for people to
     * read (`hoyle play`): chess's SAN `Nf3` where move_to_string writes
     * UCI `g1f3`. Need not be what move_from_string reads back, though it
     * should be. Default: move_to_string. */
    int (*move_to_display)(const game_t *g, const void *s, const int *actions, int n, char *buf,
                           size_t cap);
    /* Heuristic value of `s` for `player` in [-1, 1] (alpha-beta, greedy).
     * Default: 0 at non-terminal states, the return at terminal ones. */
    double (*evaluate)(const game_t *g, const void *s, int player);
    /* True for actions that quiescence search should extend (captures).
     * Default: none. */
    bool (*is_noisy)(const game_t *g, const void *s, int action);
    /* The legal actions is_noisy accepts, ascending, into out (max_legal
     * room); returns the count (quiescence search). Default: legal_actions
     * filtered by is_noisy; a game gives the slot to generate them faster. */
    int (*noisy_actions)(const game_t *g, const void *s, int *out);
    /* True when the player to move in `s` (a decision state) is under a
     * threat a search must not stop at (chess: in check): alpha-beta
     * searches a move into such a state one ply deeper (check extension)
     * and quiescence does not stand pat in it. Default: never. */
    bool (*is_forcing)(const game_t *g, const void *s);
    /* Pass the turn in decision state `s`: the same position with the
     * opponent to move (hash updated), for alpha-beta's null-move pruning
     * only; the result need not be reachable by legal play. Return false and
     * leave `s` unchanged where passing is no sound guess of the position's
     * worth: in a forcing state, or where zugzwang is common (chess: the
     * mover has only king and pawns). Default: never (no null moves). */
    bool (*null_move)(const game_t *g, void *s);
    /* How early alpha-beta should try the noisy `action` (legal in `s`),
     * in [0, 2^20), larger first (chess: the most valuable victim by the
     * least valuable attacker); noisy actions with equal hints keep their
     * legal order. Default: 0 for every action. */
    int (*noisy_order)(const game_t *g, const void *s, int action);
    /* Tactical hints for the threat-space proof search (mcts `threats`),
     * one per legal action of `s` in actions[0..n) into out[]:
     * GAME_THREAT_MAKES when the action makes a threat the opponent must
     * answer (Go-Bang: a four or an open three), so an attacker tries it;
     * GAME_THREAT_BLOCKS when it takes a square where the opponent would
     * make one, so a defender tries it early. Hints only: what the search
     * proves stays exact whatever they say. Default: every action MAKES
     * (the attacker searches full width). */
    void (*threat_hints)(const game_t *g, const void *s, const int *actions, int n, int *out);
    /* The game's hand-made input features for value learning (the `expert`
     * feature set of TD(λ), train/td.h): with out == NULL, return how many
     * there are; else write them for `s` from `player`'s view into out and
     * return the count. Default: none (0). */
    int (*features)(const game_t *g, const void *s, int player, float *out);
    /* The heuristic as a linear model whose weights can be learned (TDLeaf(λ),
     * train/tdleaf.h): with s == NULL, write the term names (static strings)
     * and their hand-set weights into names[] and weights[] (GAME_MAX_TERMS
     * room) and return the count; else write the terms of `s` for `player`
     * into out[] and return the count. evaluate(s, player) is
     * tanh(sum of weights[i] * out[i]) up to rounding, with the hand-set
     * weights (a term the hand-set heuristic lacks has weight 0). 0 = the
     * game (or this variant) has no such model. Default: none. */
    int (*eval_terms)(const game_t *g, const void *s, int player, double *out, const char **names,
                      double *weights);
    /* The weighted sum of the terms of `s` for `player`, sum of w[i] * out[i]
     * over the n terms eval_terms writes (not terminal), up to rounding: a fast
     * path for games with many terms of which few are non-zero (chess's
     * squares). Default: eval_terms into a buffer, then the sum. */
    double (*eval_dot)(const game_t *g, const void *s, int player, const double *w, int n);
    /* The outcome distribution a value net learns (game_outcome_heads_t
     * below): describe the heads into *h. Default: win and loss. */
    void (*outcome_heads)(const game_t *g, game_outcome_heads_t *h);
    /* The heads' targets (0 or 1 each, 1/2 where the outcome is split) at
     * the terminal state `s` from `player`'s view. Required with
     * outcome_heads; the default's come from the returns' signs. */
    void (*outcome_targets)(const game_t *g, const void *s, int player, float *out);
    /* The state seen through symmetry `sym` (one of g->symmetries), and the
     * image of an action under it. Required when g->num_symmetries > 1. */
    void (*symmetry_state)(const game_t *g, sym_t sym, const void *s, void *out);
    int (*symmetry_action)(const game_t *g, sym_t sym, int action);
    /* A fast whole-move perft (bulk counting, bitboards), same count as the
     * generic game_perft_generic(). Default: the generic one. */
    uint64_t (*perft)(const game_t *g, const void *s, int depth);
    /* One game as a record in the family's usual file format, named by
     * record_format ("PDN"): `tags`, then the `n` actions (chance outcomes
     * included) played from `start`, NUL-terminated in buf[cap]. Returns the
     * length, HOYLE_EFULL, or HOYLE_EINVAL for an action that is not legal.
     * Default (both NULL): no record format, HOYLE_EUNSUP. */
    const char *record_format;
    int (*record_to_string)(const game_t *g, const game_record_tags_t *tags, const void *start,
                            const int *actions, int n, char *buf, size_t cap);
    /* How many actions legal_actions() lists in `s`, without listing them
     * (the generic perft's bulk counting at the last ply; a game counts from
     * its move generator). Must equal legal_actions()'s count, which the
     * conformance suite checks. Default: legal_actions() into scratch. */
    int (*legal_count)(const game_t *g, const void *s);
    /* A uniformly random legal action for random playouts: exactly what
     * legal_actions()[rng_below(rng, n)] is (n their count, > 0: not at a
     * terminal or chance state), with that one draw from rng, without
     * listing the actions in order. The conformance suite checks it against
     * the default. Default: legal_actions() into scratch, then the draw. */
    int (*legal_random)(const game_t *g, const void *s, struct rng *rng);
    /* The seat at the board in decision state `s`, 0..num_seats-1, with
     * seat % num_players == current_player(s) (see "Seats" above). Required
     * when num_seats > num_players. Default: current_player(s). */
    int (*current_seat)(const game_t *g, const void *s);
} game_vt_t;

/* An immutable game description. Made by game_create(), freed by game_free(). */
struct game {
    const game_vt_t *vt;
    const struct game_entry *entry; /* the registry entry that made it */
    char spec[GAME_SPEC_MAX];       /* canonical spec, every parameter spelled out */
    params_t params;                /* bound parameters */
    int num_players;                /* 1 (puzzles) or 2: who chooses and is scored */
    int num_seats;                  /* seats at the table, a multiple of num_players (more
                                       when players are partnerships); 0 from create means
                                       num_players, which the registry fills in */
    size_t state_size;              /* bytes of one state; buffers holding states must be
                                       aligned for uint64_t (malloc's alignment; arenas round
                                       slots up to GAME_STATE_ALIGN) */
    int num_actions;                /* size of the action space */
    int max_legal;                  /* bound on legal_actions() count */
    int max_chance_outcomes;        /* 0 for deterministic games */
    int max_game_length;            /* bound on actions in one game (rules end it by then) */
    int obs_shape[3];               /* C, H, W */
    int policy_planes;              /* 0, or P when every action names (plane, square of the
                                       H x W observation): num_actions == P * H * W, the first
                                       policy_lead planes plane-major (a = p * HW + sq), the
                                       rest square-major (a = lead * HW + sq * (P - lead) +
                                       p - lead); lets a net use a convolutional policy head */
    int policy_lead;                /* see policy_planes */
    int num_symmetries;             /* entries in symmetries[] (>= 1) */
    sym_t symmetries[SYM_COUNT];    /* symmetries[0] == SYM_IDENTITY */
    void *impl;                     /* game-private immutable tables, owned by the game */
    bool one_action_moves;          /* every action is a whole move: no action leaves its
                                       player to move again (chess, no chains), so generic code
                                       skips the chain walk (perft counts legal actions at the
                                       last ply); false = the game may chain or does not say.
                                       The conformance suite checks it on every action. */
};

/* ---- lifecycle (registry.c) ---- */

/* Make a game from a spec such as "checkers(variant=losing)". On success *out
 * owns a new game that the caller frees with game_free(). Unknown games or
 * parameters: HOYLE_EINVAL, message names the key. */
int game_create(const char *spec, const game_t **out);
void game_free(const game_t *g);

/* ---- wrappers (game.c) ---- */

static inline void game_init(const game_t *g, void *s) { g->vt->init(g, s); }
static inline int game_current_player(const game_t *g, const void *s)
{
    return g->vt->current_player(g, s);
}
static inline bool game_is_terminal(const game_t *g, const void *s)
{
    return g->vt->current_player(g, s) == PLAYER_TERMINAL;
}
static inline bool game_is_chance(const game_t *g, const void *s)
{
    return g->vt->current_player(g, s) == PLAYER_CHANCE;
}
static inline int game_legal_actions(const game_t *g, const void *s, int *out)
{
    return g->vt->legal_actions(g, s, out);
}
static inline void game_apply(const game_t *g, void *s, int action) { g->vt->apply(g, s, action); }
static inline void game_returns(const game_t *g, const void *s, double *out)
{
    g->vt->returns(g, s, out);
}
static inline uint64_t game_hash(const game_t *g, const void *s) { return g->vt->hash(g, s); }
/* The hash recomputed from scratch: equal to game_hash() in every reachable
 * state (the conformance suite and the rules tests compare the two). */
static inline uint64_t game_hash_recompute(const game_t *g, const void *s)
{
    return g->vt->hash_recompute(g, s);
}
static inline void game_observe(const game_t *g, const void *s, int player, float *out)
{
    g->vt->observe(g, s, player, out);
}
/* The seat at the board in decision state `s` (game_vt_t.current_seat). */
int game_current_seat(const game_t *g, const void *s);
static inline int game_obs_size(const game_t *g)
{
    return g->obs_shape[0] * g->obs_shape[1] * g->obs_shape[2];
}

int game_chance_outcomes(const game_t *g, const void *s, int *actions, double *probs);
double game_evaluate(const game_t *g, const void *s, int player);
bool game_is_noisy(const game_t *g, const void *s, int action);
int game_noisy_actions(const game_t *g, const void *s, int *out);
bool game_is_forcing(const game_t *g, const void *s);
bool game_null_move(const game_t *g, void *s);
int game_noisy_order(const game_t *g, const void *s, int action);
enum { GAME_THREAT_MAKES = 1, GAME_THREAT_BLOCKS = 2 };
void game_threat_hints(const game_t *g, const void *s, const int *actions, int n, int *out);
bool game_is_legal(const game_t *g, const void *s, int action);
/* The number of legal actions in `s` (0 at terminal states): the game's
 * legal_count slot, or legal_actions() into `scratch` (g->max_legal ints;
 * may be NULL when the game has the slot, see game_has_legal_count()). */
int game_legal_count(const game_t *g, const void *s, int *scratch);
bool game_has_legal_count(const game_t *g);
/* The `features` slot: how many hand-made features the game has (0 =
 * none), and those of `s` from `player`'s view into out. */
int game_features_size(const game_t *g);
void game_features(const game_t *g, const void *s, int player, float *out);
/* The outcome heads of a two-player game (the slot's, or win/loss), and
 * their targets at a terminal state from `player`'s view. */
void game_outcome_heads(const game_t *g, game_outcome_heads_t *h);
void game_outcome_targets(const game_t *g, const void *s, int player, float *out);
/* The `eval_terms` slot: the count of terms (0 = none) with their names and
 * hand-set weights (s == NULL), or the terms of `s` for `player`. */
int game_eval_terms(const game_t *g, const void *s, int player, double *out, const char **names,
                    double *weights);
/* The `eval_dot` slot: w . terms(s, player) over n terms (the slot's, or eval_terms'). */
double game_eval_dot(const game_t *g, const void *s, int player, const double *w, int n);

/* `s` seen through symmetry `sym` (one of g->symmetries) written to `out`
 * (state_size bytes, not overlapping `s`), and the image of an action under it.
 * SYM_IDENTITY, and every call on a game without the slots, is the identity. */
void game_symmetry_state(const game_t *g, sym_t sym, const void *s, void *out);
int game_symmetry_action(const game_t *g, sym_t sym, int action);

/* Apply `action` if it is legal (or a valid chance outcome), else
 * HOYLE_EINVAL with a message and `s` unchanged. */
int game_apply_checked(const game_t *g, void *s, int action);

int game_state_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int game_position_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int game_position_from_string(const game_t *g, const char *text, void *s);
int game_action_to_string(const game_t *g, const void *s, int action, char *buf, size_t cap);
int game_action_from_string(const game_t *g, const void *s, const char *text, int *action);
int game_move_from_string(const game_t *g, const void *s, const char *text, int *actions, int cap);
int game_move_to_string(const game_t *g, const void *s, const int *actions, int n, char *buf,
                        size_t cap);
int game_move_to_display(const game_t *g, const void *s, const int *actions, int n, char *buf,
                         size_t cap);

/* The defaults of the optional move-text slots (one action; the action
 * strings joined by spaces), for games whose own slot falls back to them. */
int game_move_from_string_default(const game_t *g, const void *s, const char *text, int *actions,
                                  int cap);
int game_move_to_string_default(const game_t *g, const void *s, const int *actions, int n,
                                char *buf, size_t cap);

/* The name of the game's record format ("PDN"), or NULL when it has none. */
const char *game_record_format(const game_t *g);
/* Write one stored game with the game's record writer (the record_to_string
 * slot above); HOYLE_EUNSUP with a message when the game has none. */
int game_record_to_string(const game_t *g, const game_record_tags_t *tags, const void *start,
                          const int *actions, int n, char *buf, size_t cap);

/* Apply a whole move given as text; `s` is unchanged on error. Returns the
 * number of actions applied. */
int game_apply_move_string(const game_t *g, void *s, const char *text);

/* Perft counts *whole moves*: a whole move is a maximal run of actions by
 * one player (a multi-jump is one move; two jump paths are two moves); a
 * chance outcome is one move; in a one-player game (puzzles) each action is
 * one move. perft(s, 0) = 1; a terminal state before the
 * last level contributes 0 leaves. game_perft() uses the game's fast perft
 * when it has one; game_perft_generic() is the reference it must equal (the
 * conformance suite compares them). */
uint64_t game_perft(const game_t *g, const void *s, int depth);
uint64_t game_perft_generic(const game_t *g, const void *s, int depth);
/* True when the game has its own fast perft (so game_perft() is not simply
 * game_perft_generic() and the two are worth comparing). */
bool game_has_fast_perft(const game_t *g);

/* Enumerate the whole moves from `s` (perft --divide, move pickers): calls
 * visit(actions, n, after, ctx) for each, where `after` is the state once the
 * move is made. Returns the number of moves, or the first nonzero value
 * visit() returned, negated to stop early is the visitor's choice. */
typedef int (*game_move_visit_fn)(const int *actions, int n, const void *after, void *ctx);
int game_whole_moves(const game_t *g, const void *s, game_move_visit_fn visit, void *ctx);

#endif
