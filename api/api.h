/* api.h — the flat entry points of libhoyle.so for foreign callers.
 *
 * C programs use the module headers (games/game.h, mcts/agent.h, ...) whose
 * inline wrappers read `game_t` directly. A caller that only sees symbols
 * (Python's cffi in ABI mode, ctypes, another language's FFI) needs plain
 * functions with plain arguments instead: these are they. Every function
 * here checks its arguments against the game (player and action ranges,
 * legality, terminal and chance states), so untrusted input gets a negative
 * status and a one-line message (hoyle_last_error()), never a crash.
 *
 * Handles: a game is the `const game_t *` of game_create()/game_free(); a
 * state is an opaque buffer made by api_state_new()/api_state_clone() and
 * freed with api_state_free(); an agent is the `agent_t *` of
 * api_agent_create()/agent_free(). Output arrays are caller buffers sized
 * by the api_game_info_t fields named at each function.
 *
 * Threads: as for the module headers (one game may be shared read-only; a
 * state or an agent is used by one thread at a time). */
#ifndef HOYLE_API_API_H
#define HOYLE_API_API_H

#include <stddef.h>
#include <stdint.h>

#include "core/rng.h"
#include "games/game.h"
#include "mcts/agent.h"

/* A game's sizes, copied out of `game_t` (whose layout FFIs need not know). */
typedef struct api_game_info {
    const char *name;        /* registry name, "checkers"; valid while the game lives */
    const char *spec;        /* canonical spec; valid while the game lives */
    int num_players;         /* 1 or 2 */
    int num_actions;         /* action space: actions are 0 .. num_actions-1 */
    int max_legal;           /* size of a legal_actions buffer */
    int max_chance_outcomes; /* size of a chance_outcomes buffer (0: deterministic) */
    int max_game_length;     /* bound on actions in one game */
    int obs_shape[3];        /* C, H, W: an observation has C*H*W floats */
    int num_symmetries;
    size_t state_size; /* bytes of one state */
    int num_seats;     /* seats at the table: num_players, or 4 in a partnership game
                          (gobang(players=4): two partnerships of two seats) */
} api_game_info_t;

/* Register the agent kinds that live outside mcts/ (gnubg, and `az` when the
 * build has libtorch), as the CLI does at startup. Call once before
 * api_agent_create() from a single thread; repeated calls are no-ops. */
int api_init(void);

/* The build's version string (HOYLE_VERSION). */
const char *api_version(void);

/* sizeof of a struct FFIs declare by hand ("api_game_info_t", "api_vec_out_t",
 * "game_record_t", "sample_set_t", "game_random_stats_t",
 * "agent_game_result_t", "rng_t"), so a binding can check its copy of the layout at
 * load time; 0 for other names. */
size_t api_sizeof(const char *type);

/* ---- the registry ---- */

/* Number of registered games; entry i's name, description and j-th named
 * variant spec (NULL past the end, or for i out of range). */
int api_registry_size(void);
const char *api_registry_name(int i);
const char *api_registry_description(int i);
const char *api_registry_variant(int i, int j);

/* ---- games and states ---- */

void api_game_info(const game_t *g, api_game_info_t *out);

/* A new state holding the initial position (or a copy of `s`), aligned for
 * any state; NULL with HOYLE_ENOMEM's message when allocation fails. Free
 * with api_state_free() (NULL is a no-op). */
void *api_state_new(const game_t *g);
void *api_state_clone(const game_t *g, const void *s);
void api_state_copy(const game_t *g, void *dst, const void *src);
void api_state_free(void *s);

/* Player to move: 0..num_players-1, PLAYER_CHANCE or PLAYER_TERMINAL. */
int api_state_current_player(const game_t *g, const void *s);
/* The seat at the board (0..num_seats-1, seat % num_players == the player to
 * move; games/game.h "Seats"), or PLAYER_CHANCE / PLAYER_TERMINAL. */
int api_state_current_seat(const game_t *g, const void *s);
/* Legal actions (ascending) into out[max_legal]; chance outcomes at a chance
 * node; 0 at a terminal state. */
int api_state_legal_actions(const game_t *g, const void *s, int *out);
/* game_apply_checked() then api_state_legal_actions(): one call per step of
 * a random game. `known` > 0 says that legal[0..known) already holds the
 * legal actions of `s` (the list the previous step or legal_actions call
 * wrote there, nothing applied since): the action is checked against that
 * list instead of generating it again. Returns the new count, or a negative
 * status with `s` unchanged. */
int api_state_step(const game_t *g, void *s, int action, int *legal, int known);
/* Returns per player into out[num_players] (0 at non-terminal states, as
 * the rules give them there). */
void api_state_returns(const game_t *g, const void *s, double *out);
uint64_t api_state_hash(const game_t *g, const void *s);
/* Observation of `player` (0..num_players-1) into out[C*H*W]; HOYLE_EINVAL
 * for another player. */
int api_state_observe(const game_t *g, const void *s, int player, float *out);
/* api_state_observe() and the legal-action mask in one call, for the
 * environments' per-step observation: obs[C*H*W], mask[num_actions] (1 for
 * each legal action, else 0) and the legal list into legal[max_legal]; as in
 * api_state_step, `known` > 0 says legal[0..known) already holds the list.
 * Returns the legal count, or HOYLE_EINVAL for a bad player. */
int api_state_observe_mask(const game_t *g, const void *s, int player, float *obs, int8_t *mask,
                           int *legal, int known);
/* The environments' move in one call (python/hoyle: AECEnv.step): as
 * api_state_step(), then every chance node that follows is sampled from
 * `dice` (game_chance_sample: legal[] doubles as the outcome buffer, so it
 * holds max(max_legal, max_chance_outcomes); probs[max_chance_outcomes] is
 * scratch) until a player is to move or the game ends; with `dice` NULL it
 * stops at a chance node (legal[] then lists the outcomes). Writes the
 * player to move (or PLAYER_CHANCE, PLAYER_TERMINAL) to *player and
 * returns the count in legal[] (0 at the end), or a negative status: a
 * refused action (HOYLE_EINVAL) leaves `s` and `dice` unchanged. */
int api_state_advance(const game_t *g, void *s, int action, int *legal, int known, rng_t *dice,
                      double *probs, int *player);
/* The chance half of api_state_advance() alone, from `s` as it is (an
 * environment's reset): same buffers, same result. */
int api_state_settle(const game_t *g, void *s, int *legal, rng_t *dice, double *probs, int *player);
/* Chance outcomes into actions[] and probs[] (max_chance_outcomes each);
 * 0 when `s` is not a chance node. */
int api_state_chance_outcomes(const game_t *g, const void *s, int *actions, double *probs);
/* The whole move of `n` actions (1..GAME_MAX_CHAIN, legal in turn, all by
 * the player to move in `s`) as text: HOYLE_EINVAL when they are not. */
int api_move_to_string(const game_t *g, const void *s, const int *actions, int n, char *buf,
                       size_t cap);

/* ---- agents, games between agents ---- */

/* agent_create() after api_init() (so every kind is known). */
int api_agent_create(const game_t *g, const char *spec, uint64_t seed, agent_t **out);
/* agent_observe() of an action legal in `s` (HOYLE_EINVAL otherwise). */
int api_agent_observe(agent_t *a, const game_t *g, const void *s, int action);
/* One game between agents[0] (seat 0) and agents[1] (unused in one-player
 * games) from `start` (NULL = the initial position), chance seeded by
 * `chance_seed`, adjudicated a draw after `max_moves` whole moves (0 =
 * rules only): agent_play() with its forfeit rule. `actions`, when not NULL,
 * receives every action (agent_game_capacity() entries). */
int api_play(const game_t *g, agent_t *const *agents, const void *start, uint64_t chance_seed,
             int max_moves, int32_t *actions, agent_game_result_t *out);

/* ---- batches in C ---- */

/* Play `n` uniformly random games from `start` with one stream seeded by
 * `seed` (the stream of game_random_games(), so the totals equal `hoyle
 * random`'s), writing each game's returns to returns[n][num_players] and its
 * length in actions to lengths[n] (either may be NULL). HOYLE_ESTATE at a
 * terminal `start` or a game past max_game_length, HOYLE_ENOMEM. */
int api_random_playouts(const game_t *g, const void *start, int64_t n, uint64_t seed,
                        double *returns, int32_t *lengths);

/* ---- vector environments ---- */

/* n games of `g` for a learner at seat `player`, stepped together
 * (api_vec.c). The other seat is an agent made from `opponent` per game (a
 * two-player game needs one; a one-player game takes NULL), the dice come
 * from each game's own rng. Between calls every game waits for the learner
 * (chance and the opponent are played inside the calls); a game that ends
 * starts again in the same call (auto-reset). `max_moves` truncates a game
 * after that many learner whole moves (0 = rules only). With `illegal_lose`
 * an illegal action in the action space ends its game with reward -1
 * (otherwise it refuses the call). Free with api_vec_free() (NULL is a
 * no-op). One thread at a time per api_vec_t. */
typedef struct api_vec api_vec_t;
int api_vec_create(const game_t *g, int n, const char *opponent, int player, int max_moves,
                   int illegal_lose, api_vec_t **out);
void api_vec_free(api_vec_t *v);

/* Where the calls below write, game i at row i of each array; any may be
 * NULL (not written). The arrays are the caller's and must stay valid until
 * rebound or freed (api_vec_bind copies the pointers, not the data). */
typedef struct api_vec_out {
    float *obs;         /* [n][C*H*W]: the learner's view */
    int8_t *mask;       /* [n][num_actions]: 1 = legal */
    int32_t *legal;     /* [n][max_legal]: the legal actions, ascending */
    int32_t *num_legal; /* [n]: how many of legal[i] are set */
    float *rewards;     /* [n] (step only) */
    int8_t *terminated; /* [n] (step only) */
    int8_t *truncated;  /* [n] (step only) */
    float *final_obs;   /* [n][C*H*W] (step only): written for games that ended */
} api_vec_out_t;
void api_vec_bind(api_vec_t *v, const api_vec_out_t *out);

/* Start every game, game i's rng seeded by seeds[i] (its dice and the seeds
 * of its opponent, game after game); writes obs, mask and the legal lists. */
int api_vec_reset(api_vec_t *v, const uint64_t *seeds);
/* Play actions[i] in game i, then chance and the opponent until the learner
 * is to move again. rewards[i] is the learner's return when game i ended in
 * this step (-1 for an illegal action), else 0; terminated[i] = 1 when the
 * rules (or an illegal action) ended it, truncated[i] = 1 when max_moves
 * did. A game that ended is started again at once: obs, mask and legal are
 * then its new start's, and final_obs[i] its last position's. Returns the
 * number of actions applied in all (the learner's, the opponents' and the
 * dice), or a negative status: HOYLE_EINVAL for an action outside the space
 * (or illegal, without illegal_lose), checked for every game before any
 * moves, so nothing changed; an opponent's failure (rare: out of memory)
 * leaves the games before it stepped. */
int api_vec_step(api_vec_t *v, const int32_t *actions);
/* A copy of game i's state into out (state_size bytes): rendering, checks. */
int api_vec_state(const api_vec_t *v, int i, void *out);

/* ---- files ---- */

/* The game spec a sample shard (train/samples.h) was written for, its root
 * attribute "game", into buf[cap]. Returns its length, HOYLE_EIO for a file
 * that is not a shard, HOYLE_EFULL when it does not fit. Read the rows with
 * samples_read_shard() into a set made for that game. */
int api_samples_game_spec(const char *path, char *buf, size_t cap);

#endif
