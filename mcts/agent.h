/* agent.h — the agent contract: something that picks actions for the player
 * to move. Self-play, matches, tournaments and the CLI use agents only
 * through this header.
 *
 * Agents are made from specs in the shared `name(key=value,...)` syntax
 * (core/spec.h), e.g. "mcts(sims=800,c=1.25)", "alphabeta(depth=6)",
 * "random"; the kinds are one explicit table (agent_registry[], agent.c).
 * Unknown keys are errors that name the key.
 *
 * Lifecycle: agent_create → { agent_act / agent_observe }* → agent_reset
 * (new game) … → agent_free. With chains (same player several times in a
 * row) agent_act is called once per action. The driver calls agent_observe
 * for *every* action played (the agent's own, the opponent's, chance
 * outcomes) so that searches can reuse their trees.
 *
 * Threads: an agent owns all its state (no globals); different agents may
 * be used concurrently from different threads, one agent by one thread at a
 * time. Seeded: same spec, same seed, same observed game → same actions
 * (with search limited by depth or simulations, not time). */
#ifndef HOYLE_MCTS_AGENT_H
#define HOYLE_MCTS_AGENT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"

#define AGENT_PV_MAX 64

typedef struct agent agent_t;

/* What the last agent_act() thought (for `hoyle analyze`, logs). Arrays have
 * num_moves entries and are owned by the agent, valid until its next call.
 * Fields a kind does not compute are 0 / NULL (visits for alpha-beta, …). */
typedef struct agent_info {
    const char *kind; /* "mcts", "alphabeta", … */
    int num_moves;    /* root actions described below */
    const int *actions;
    const int *visits;              /* MCTS visits, or NULL */
    const double *q;                /* value per action for the player to move, or NULL */
    const float *priors;            /* MCTS priors, or NULL */
    const signed char *move_proven; /* MCTS: 1 where the action's value is proven, or NULL */
    double value;                   /* the search's value of the position for the mover */
    int pv[AGENT_PV_MAX];           /* principal variation (actions) */
    int pv_len;
    int depth;             /* alpha-beta: deepest completed iteration */
    long long sims;        /* MCTS simulations of this search */
    long long root_visits; /* MCTS root visits after it, a reused subtree's included */
    uint64_t nodes;        /* nodes searched (alpha-beta) or tree nodes (MCTS) */
    double seconds;        /* time spent in the last act */
    int proven;            /* 1 when the value is proven exact (MCTS-Solver) */
    int arena_full;        /* MCTS reached its node cap: the tree stopped growing this search */
    uint64_t node_cap;     /* MCTS tree capacity in nodes (nodes= / memory_mb=), else 0 */
    int threads;           /* MCTS threads of the search (1 = one), else 0 */
} agent_info_t;

/* Create the agent `spec` for game `g` (borrowed; must outlive the agent).
 * Returns 0 and a new agent in *out (free with agent_free), or HOYLE_EINVAL
 * with a message naming the bad kind, key or value. */
int agent_create(const game_t *g, const char *spec, uint64_t seed, agent_t **out);

/* Choose an action for the player to move in `state` (a decision state).
 * Returns 0 with *action legal in `state`, or a negative status + message
 * (HOYLE_ESTATE with message "quit" / "end of input" when a human stops). */
int agent_act(agent_t *a, const void *state, int *action);

/* `action` was played in `state_before` (by anyone, chance included). */
void agent_observe(agent_t *a, const void *state_before, int action);

/* Forget the game in progress (trees, queued moves); keep the seed stream. */
void agent_reset(agent_t *a);

/* x_free(NULL) is a no-op. */
void agent_free(agent_t *a);

/* Bytes the agent holds for its search (the MCTS tree arena and its
 * scratch, sized at create and kept for tree reuse), for servers that keep
 * a budget of them (hoyle serve, docs/serve.md "Memory"); 0 for kinds that
 * hold little (random, greedy, human) or do not say. */
size_t agent_memory_bytes(const agent_t *a);

/* The canonical spec, every parameter spelled out. */
const char *agent_spec(const agent_t *a);
/* Whether a's moves depend on its seed (the kind's `seeded` test, or its
 * AGENT_CAP_SEEDED flag): false means two seeds give the same moves from
 * the same position, so its games against another such agent, on a game
 * without chance, repeat (hoyle match plays the distinct ones only). */
bool agent_is_seeded(const agent_t *a);

/* The last act's search information (never NULL; zeroed for kinds that
 * don't search). */
const agent_info_t *agent_info(const agent_t *a);

/* True for kinds that read from the terminal (the CLI prints prompts). */
int agent_is_human(const agent_t *a);

/* Let the person at human seat `a` type `undo`, `hint` and `resign`: its
 * agent_act then fails with HOYLE_ESTATE and that word as the message, for a
 * driver that handles them (`hoyle play`). Off by default, since agent_play()
 * forfeits a seat whose act fails. A no-op for other kinds. */
void agent_human_allow_commands(agent_t *a, bool on);

/* Add an agent kind defined outside mcts/ (the network agent `az`, train/)
 * to the kinds agent_create() knows. Call at startup, before any thread uses
 * agents (the table is not locked). Registering the same kind twice is a
 * no-op; another kind with a taken name is HOYLE_EINVAL; more than
 * AGENT_MAX_EXTRA_KINDS is HOYLE_EFULL. `kind` is borrowed for the life of
 * the process (a static object). agent_kind_t is in mcts/agent_kind.h. */
#define AGENT_MAX_EXTRA_KINDS 8
struct agent_kind;
int agent_register_kind(const struct agent_kind *kind);

/* One line per agent kind with its parameters, for --help texts. */
int agent_describe_kinds(char *buf, size_t cap);

/* Restart `a` as if agent_create() had made it with `seed`: the game in
 * progress, trees, tables and the seed stream are all replaced, so a match
 * can create its agents once and reseed them per game with the results of
 * creating them per game. Kinds without a cheaper way are rebuilt in place
 * (same pointer, spec and parameters). Returns 0, or a negative status (out
 * of memory) with the agent unusable except for agent_free. */
int agent_reseed(agent_t *a, uint64_t seed);

/* Search limits set per move by a driver that decides them move by move
 * (`hoyle uci`: go movetime / depth / nodes / infinite, and stop). Zero
 * means "no limit" for each; all three zero is a search that runs until
 * `stop` is set (or the search ends by itself: a solved root, alpha-beta's
 * deepest iteration, 64). `stop` is set from another thread to end the act
 * early with the best move found so far (NULL = none); it must stay valid
 * until the limits are replaced. */
typedef struct agent_limits {
    double time_ms;         /* wall-clock limit of one act */
    int depth;              /* alpha-beta: deepest iteration, in whole moves */
    long long nodes;        /* alpha-beta: nodes searched; MCTS: simulations */
    const atomic_int *stop; /* nonzero = stop now */
} agent_limits_t;

/* Replace the limits of `a`'s next acts with `limits`, or with its spec's
 * own when `limits` is NULL. Limits a kind does not have are ignored (MCTS
 * has no depth). HOYLE_EUNSUP for kinds whose acts cannot be limited (random,
 * greedy and human need none; the uci agent takes movetime/depth/nodes). */
int agent_set_limits(agent_t *a, const agent_limits_t *limits);

/* Called by searches that deepen (alpha-beta, expectimax) after each completed iteration of
 * an act, from the thread that acts, with that iteration's info: depth, value, PV, and the
 * nodes and seconds of the act so far (a UCI engine's "info depth ..." lines). */
typedef void (*agent_iteration_fn)(void *ctx, const agent_info_t *info);

/* Set (or, with fn NULL, clear) `a`'s iteration callback for its next acts. Kinds that do
 * not deepen never call it. */
void agent_on_iteration(agent_t *a, agent_iteration_fn fn, void *ctx);

/* Called before each action is applied (display, records); may be NULL. */
typedef void (*agent_move_fn)(void *ctx, const void *state_before, int player, int action);

/* ---- the game driver (agent_game.c): the one loop matches, sprt,
 * tournaments, `hoyle play` and the training evaluation use ----
 *
 * Rule for a failing agent: a seat whose agent_act() fails (a human's
 * "quit" included) or that returns an illegal action FORFEITS: it scores -1,
 * every other seat +1/(n-1) (+1 in a two-player game), the game ends with
 * end AGENT_GAME_FORFEIT and `error` says why. The exception is
 * HOYLE_ENOMEM from agent_act: running out of memory is the job's failure,
 * not a move, so agent_play() returns it and the game is not scored.
 * Failures that are not an agent's (a bad opening, a game longer than
 * max_game_length, chance sampling) are also returned as errors. */
typedef enum agent_game_end {
    AGENT_GAME_RULES = 0,      /* the rules ended it: returns are the game's */
    AGENT_GAME_MOVE_LIMIT = 1, /* max_moves whole moves played: a draw (all 0) */
    AGENT_GAME_FORFEIT = 2     /* forfeit_player failed or played illegally and lost */
} agent_game_end_t;

typedef struct agent_game_opts {
    const void *start;        /* first position; NULL = the initial one */
    const int *opening;       /* actions played first (observed, untimed); may be NULL */
    int opening_len;          /* entries in opening */
    const char *opening_name; /* names the opening in its error message; may be NULL */
    int max_moves;            /* whole moves before a draw is adjudicated; 0 = rules only */
    uint64_t chance_seed;     /* seeds the chance outcomes (dice) */
    const char *const *names; /* per seat, for the forfeit message; NULL = agent_spec() */
    agent_move_fn on_move;    /* called before each action is applied; may be NULL */
    void *ctx;                /* passed to on_move */
    int32_t *actions;         /* if not NULL: every action played, agent_game_capacity() */
    float *action_ms;         /* if not NULL: thinking time per action (0: opening, chance) */
} agent_game_opts_t;

typedef struct agent_game_result {
    double returns[GAME_MAX_PLAYERS]; /* per seat: the rules', 0 at the move limit, forfeit */
    agent_game_end_t end;
    int forfeit_player;          /* the seat that forfeited, or -1 */
    int num_actions;             /* actions played, opening included */
    char error[HOYLE_ERROR_MAX]; /* end == AGENT_GAME_FORFEIT: "NAME: reason" / "NAME played illegal
                                    ..." */
} agent_game_result_t;

/* The most actions agent_play() can play in `g` (the size of opts->actions). */
int agent_game_capacity(const game_t *g);

/* Play one game: agents[p] acts for seat p (one agent may play several
 * seats), every agent observes every action in order, opening included. A
 * whole move is a maximal run of actions by one player; chance outcomes are
 * not moves. Returns 0 with *out filled (a forfeit included, see the rule
 * above; after a forfeit by a failed act hoyle_last_error() still holds the
 * agent's message), or a negative status with the game unscored. */
int agent_play(const game_t *g, agent_t *const *agents, const agent_game_opts_t *opts,
               agent_game_result_t *out);

/* agent_play() from `start` with chance seeded by `seed`, for callers that
 * need a game played to its end (tests): a forfeit is reported as an error
 * (HOYLE_ESTATE with the forfeit message). Writes the returns
 * (num_players values) and the number of actions played. */
int agent_play_game(const game_t *g, agent_t *const *agents, const void *start, uint64_t seed,
                    agent_move_fn on_move, void *ctx, double *returns, int *length);

#endif
