/* mcts.h — Monte-Carlo tree search over any game of the game contract.
 *
 * One search tree lives in one arena sized at creation (params max_nodes
 * nodes' worth of bytes): an expanded node owns a block of 12-byte edges (action,
 * prior, child) and a 48-byte child node is made only when its edge is first
 * visited. Simulations never call malloc, and a full arena is a reported
 * condition (result->arena_full): search keeps evaluating leaves without
 * expanding them. Nodes do not store states: each simulation replays the
 * actions from the root state (memcpy + game_apply), which costs one apply
 * per tree level.
 *
 * Values are kept per player (value_sum[p] = sum of player p's returns seen
 * through the node), so one-player puzzles, two-player games and chains where
 * the same player moves again need no sign flips anywhere. Chance nodes
 * (PLAYER_CHANCE) are expanded with all outcomes; simulations descend by
 * sampling an outcome by its probability and the chance node's value is the
 * visit average of what came back (an unbiased estimate of the
 * probability-weighted value).
 *
 * Algorithms (see docs/search.md):
 *   UCT  (Kocsis & Szepesvári 2006): Q + c * sqrt(ln N / n)
 *   PUCT (Silver et al. 2018, AlphaZero): Q + c(s) * P * sqrt(N) / (1 + n),
 *        c(s) = log((1 + N + c_base) / c_base) + c_init
 *   MCTS-Solver (Winands, Björnsson & Saito 2008): proven values backed up;
 *   leaf batching with virtual loss (Chaslot et al. 2008); root Dirichlet
 *   noise (1 - eps) P + eps Dir(alpha) (Silver et al. 2017);
 *   Gumbel root selection with Sequential Halving and the improved policy
 *   softmax(logit + sigma(completed Q)) (Danihelka et al. 2022), params.gumbel.
 *
 * Thread safety: an mcts_t is used by one thread at a time; any number of
 * them may run in parallel (no globals). With params.threads > 1 one
 * mcts_search() runs on that many threads over one tree (mcts_thread.c: tree
 * operations under one lock, evaluations outside it on evaluator clones);
 * the step API always runs on the caller's thread. With params.parallel =
 * MCTS_PARALLEL_ROOT the threads grow one tree each instead, without locks,
 * and their root statistics are merged (mcts_root.c: root parallelism; the
 * step API and Gumbel are refused, and the node cap is split between the
 * trees). Seeded: same params, same seed, same evaluator → same tree, when
 * limited by simulations (not time) and with one thread or root parallelism. */
#ifndef HOYLE_MCTS_MCTS_H
#define HOYLE_MCTS_MCTS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"
#include "mcts/evaluator.h"

#define MCTS_PV_MAX      64
#define MCTS_MAX_THREADS 64 /* threads of one search (params.threads) */

/* The tree's cap: its arena's edges (12 bytes, four per node's worth of bytes) are numbered
 * by uint32_t, so params.max_nodes must be under MCTS_MAX_NODES, and memory_mb= under the
 * same cap in megabytes (49152). The agents' schemas and check_params both use these. */
#define MCTS_MAX_NODES     ((size_t)1 << 30)
#define MCTS_NODE_BYTES    48 /* mcts_node_bytes(), checked where the node is defined */
#define MCTS_MAX_MEMORY_MB (MCTS_MAX_NODES / 1048576 * MCTS_NODE_BYTES)

typedef enum mcts_select { MCTS_UCT = 0, MCTS_PUCT = 1 } mcts_select_t;

/* How threads > 1 share one search (params.parallel; with threads = 1 neither changes anything). */
typedef enum mcts_parallel {
    MCTS_PARALLEL_TREE = 0, /* one tree, virtual loss (mcts_thread.c) */
    MCTS_PARALLEL_ROOT = 1  /* one tree per thread, merged at the root (mcts_root.c) */
} mcts_parallel_t;

/* First-play urgency: the Q an unvisited child is given during selection. */
typedef enum mcts_fpu {
    MCTS_FPU_INF = 0,   /* +infinity: every child once before any twice (classic UCT) */
    MCTS_FPU_VALUE = 1, /* the constant fpu_value */
    MCTS_FPU_PARENT = 2 /* the parent's Q for the chooser minus fpu_value (Leela-style reduction) */
} mcts_fpu_t;

/* The knobs whose spec key is their field's name and whose default is the
 * same wherever a search is configured (the mcts and az agents, self-play):
 * X(C type, name, param_type_t, default, min, max, help). This one list makes
 * the mcts_params_t field, its default (mcts_params_default), its entry in
 * MCTS_PARAM_DEFS (every search schema, mcts/mcts_params.h) and its binding
 * (mcts_params_bind): a new knob of this sort is one line here plus its use.
 *   gumbel   Gumbel root selection with Sequential Halving (needs max_sims > 0)
 *   gumbel_m actions considered at the root: min(gumbel_m, legal) (paper: 16)
 *   c_visit  sigma(q) = (c_visit + max_b N(b)) * c_scale * q (paper: 50)
 *   c_scale  see c_visit (paper: 1.0)
 *   prove    plies of the root proof search (mcts_prove.c): root moves that
 *            win or lose within them are handed to the solver as proven
 *   threats  plies of the threat-space root proof search (mcts_prove.c), at most
 *            MCTS_PROVE_MAX: the same with the attacker restricted to threats
 * The search variants researchers compare (mcts_var.h; all off by default, and
 * off they change nothing):
 *   rave, grave, rave_bias  AMAF statistics mixed into Q (mcts_amaf.c)
 *   mast, nst               playout policies learnt during the search (mcts_playout.c)
 *   phist                   progressive history bonus in selection (mcts_playout.c tables)
 *   implicit                implicit minimax backups of heuristic values (mcts_implicit.c)
 *   pw, pw_alpha            progressive widening of children and outcomes (mcts_widen.c) */
#define MCTS_PROVE_MAX 15
#define MCTS_KNOBS(X)                                                                              \
    X(bool, gumbel, PARAM_BOOL, false, 0, 0,                                                       \
      "Gumbel root selection with Sequential Halving (Danihelka et al. 2022)")                     \
    X(int, gumbel_m, PARAM_INT, 16, 1, 1024, "gumbel: root actions considered")                    \
    X(double, c_visit, PARAM_DOUBLE, 50, 0, 1e6,                                                   \
      "gumbel: sigma(q) = (c_visit + max N) * c_scale * q")                                        \
    X(double, c_scale, PARAM_DOUBLE, 1, 0, 1e3, "gumbel: sigma(q) scale")                          \
    X(bool, decisive, PARAM_BOOL, false, 0, 0,                                                     \
      "decisive moves: a move that ends the game is proven when its parent is expanded (solver)")  \
    X(int, prove, PARAM_INT, 0, 0, 9,                                                              \
      "plies of an exact win/loss search at each new root (two players, solver); 0 = off")         \
    X(int, threats, PARAM_INT, 0, 0, MCTS_PROVE_MAX,                                               \
      "plies of a threat-space win/loss search at each new root (the attacker tries the game's "   \
      "threats only); 0 = off")                                                                    \
    X(bool, rave, PARAM_BOOL, false, 0, 0,                                                         \
      "RAVE: Q mixed with the node's all-moves-as-first value (Gelly & Silver 2007)")              \
    X(int, grave, PARAM_INT, 0, 0, 1000000000,                                                     \
      "GRAVE: AMAF of the closest ancestor with more playouts than this (Cazenave 2015); 0 = off") \
    X(double, rave_bias, PARAM_DOUBLE, 1e-5, 0, 1,                                                 \
      "rave/grave: beta = na / (na + n + bias * na * n)")                                          \
    X(double, mast, PARAM_DOUBLE, 0, 0, 100,                                                       \
      "MAST playouts: Gibbs temperature over each action's mean return (Finnsson & Bjornsson "     \
      "2008); 0 = off")                                                                            \
    X(double, nst, PARAM_DOUBLE, 0, 0, 100,                                                        \
      "NST playouts: Gibbs temperature over 1- and 2-gram mean returns (Tak, Winands & "           \
      "Bjornsson 2012); 0 = off")                                                                  \
    X(double, phist, PARAM_DOUBLE, 0, 0, 100,                                                      \
      "progressive history weight W (Nijssen & Winands 2011); 0 = off")                            \
    X(double, implicit, PARAM_DOUBLE, 0, 0, 1,                                                     \
      "implicit minimax backups: weight of the minimax of leaf heuristic values in Q (Lanctot et " \
      "al. 2014); 0 = off")                                                                        \
    X(double, pw, PARAM_DOUBLE, 0, 0, 1000000,                                                     \
      "progressive widening: a node with N visits considers ceil(pw * N^pw_alpha) children or "    \
      "outcomes; 0 = off")                                                                         \
    X(double, pw_alpha, PARAM_DOUBLE, 0.5, 0, 1, "progressive widening exponent")

/* Every tunable, one line each (KataGo searchparams.h habit). */
typedef struct mcts_params {
    mcts_select_t select;   /* UCT or PUCT */
    double c_uct;           /* UCT exploration constant c (sqrt(2) is the textbook value) */
    double c_init;          /* PUCT c_init (AlphaZero: 1.25) */
    double c_base;          /* PUCT c_base (AlphaZero: 19652) */
    mcts_fpu_t fpu;         /* first-play urgency mode */
    double fpu_value;       /* FPU constant, or the reduction for MCTS_FPU_PARENT */
    long long max_sims;     /* simulations per search; 0 = limited by time only */
    double time_limit_ms;   /* wall-clock limit per search; 0 = limited by simulations only */
    int batch;              /* leaves gathered per evaluator call (>= 1) */
    double virtual_loss;    /* value counted against a node per pending visit (batching) */
    bool solver;            /* MCTS-Solver: back up proven wins/losses/draws */
    double dirichlet_alpha; /* root noise concentration; noise off when dirichlet_eps == 0 */
    double dirichlet_eps;   /* weight of the noise in the root prior */
    size_t max_nodes; /* cap: nodes' worth of bytes, for nodes and edges; 0 = mcts_nodes_for() */
    int threads;      /* threads of one mcts_search() (tree parallelism); 1 = this thread */
    mcts_parallel_t parallel; /* threads > 1: one shared tree, or one tree per thread */
    bool reuse;               /* keep the subtree of the played move (mcts_advance) */
    uint64_t seed;            /* seeds chance sampling, noise and temperature choice */
    int playouts; /* > 0: the searcher plays this many playouts per leaf itself (mcts_playout.c,
                   * uniform or MAST/NST) instead of asking the evaluator, so that rave, grave,
                   * mast, nst and phist see the playouts' moves; 0 = the evaluator's values */
    /* endgame tables (mcts/tb_probe.h), borrowed, NULL = none: a leaf below the root whose
     * state they cover is valued by them exactly (+1/0/-1 for its mover, no evaluator call)
     * and, with the solver, proven with that value, like a terminal node; a root proven won
     * or lost plays the tables' fastest win (slowest loss) among its moves (mcts_result.c) */
    struct tb *tb;
#define MCTS_KNOB_FIELD_(ctype, name, type, dflt, lo, hi, help) ctype name;
    MCTS_KNOBS(MCTS_KNOB_FIELD_) /* gumbel ... prove, threats: MCTS_KNOBS */
#undef MCTS_KNOB_FIELD_
} mcts_params_t;

/* The defaults: UCT c=1.4, FPU inf, 1000 sims, batch 1, solver on, 1M-node cap
 * (0 = sized by mcts_nodes_for, mcts/mcts_params.h), reuse on, no noise, and
 * the MCTS_KNOBS defaults (Gumbel off, gumbel_m 16, c_visit 50, c_scale 1, decisive off, prove 0).
 */
void mcts_params_default(mcts_params_t *p);

/* What a search found, valid until the next call on the same mcts_t. Arrays
 * have num_children entries, in the game's legal-action order. Q is from the
 * view of `player`, the player to move at the root. */
typedef struct mcts_result {
    int player;                /* player to move at the root */
    int num_children;          /* legal actions at the root (0 if unexpanded) */
    const int *actions;        /* the root's actions */
    const int *visits;         /* visits per action */
    const double *q;           /* mean value for `player` per action (proven value if proven) */
    const float *priors;       /* prior per action (after noise) */
    const signed char *proven; /* 1 when the child's value is proven */
    double value[GAME_MAX_PLAYERS]; /* root value per player (mean of all simulations) */
    const float *improved_policy;   /* Gumbel: softmax(logit + sigma(completed Q)); else NULL */
    const signed char *considered;  /* Gumbel: 1 = among the top m, 2 = still in at the end */
    int best_action; /* most visited, or the Gumbel choice (proven-best when the root is proven) */
    int pv[MCTS_PV_MAX]; /* principal variation: most visited line */
    int pv_len;
    long long sims;                        /* simulations run by this search */
    long long root_visits;                 /* visits of the root, reused ones included */
    size_t nodes_used;                     /* arena nodes in use (visited positions) */
    size_t edges_used;                     /* arena edges in use (moves of expanded nodes) */
    size_t tree_bytes;                     /* bytes of those nodes and edges */
    size_t max_nodes;                      /* arena cap: max_nodes * mcts_node_bytes() bytes */
    bool arena_full;                       /* some expansion was refused for lack of room */
    int threads;                           /* threads the search ran on (params.threads) */
    bool root_proven;                      /* the root's value is proven (MCTS-Solver) */
    double proven_value[GAME_MAX_PLAYERS]; /* the proven value when root_proven */
    uint64_t evaluator_calls;              /* evaluator calls made by this search */
    double seconds;                        /* wall time of this search */
} mcts_result_t;

typedef struct mcts mcts_t;

/* Create a searcher for `g` with an evaluator (borrowed: both must outlive
 * the searcher; `eval` may be NULL when only the step API below is used).
 * *out is freed with mcts_free(). */
int mcts_create(const game_t *g, const mcts_params_t *params, evaluator_t *eval, mcts_t **out);
void mcts_free(mcts_t *m);
/* Bytes of one tree node, the arena's unit: nodes= and memory_mb= convert
 * through it (the cap is nodes * this bytes, shared by nodes and edges);
 * bytes per simulation = result->tree_bytes / sims. */
size_t mcts_node_bytes(void);

/* Bytes allocated by mcts_create for this searcher: the arena (max_nodes
 * nodes' worth, allocated whole, filled by nodes and edges as the search
 * grows) and its scratch. */
size_t mcts_memory_bytes(const mcts_t *m);

/* Search from `state` (a decision state: not terminal, not chance). The tree
 * is reused when `state` is the current root (after mcts_advance()).
 * *out is owned by m, valid until the next call. */
int mcts_search(mcts_t *m, const void *state, const mcts_result_t **out);

/* Pick an action from the last search: temperature 0 = best_action, else
 * sampled with probability proportional to visits^(1/temperature). */
int mcts_choose(mcts_t *m, double temperature, int *action);

/* `action` was played in `state_before` (any player's action or a chance
 * outcome). When state_before is the root, keep the action's subtree (with
 * params.reuse); otherwise, or when that subtree is empty, the next search
 * starts a fresh tree. Allocates one temporary block per call. */
void mcts_advance(mcts_t *m, const void *state_before, int action);

/* Forget the tree (the next search starts from scratch). */
void mcts_clear(mcts_t *m);

/* Forget the tree and restart the random stream with params.seed = `seed`:
 * from here m searches exactly as a searcher just created with that seed
 * (the arena and buffers are kept, so a new game costs no allocation). */
void mcts_reseed(mcts_t *m, uint64_t seed);

/* Change the limits of the next searches (a driver that sets them move by
 * move, `hoyle uci`): max_sims and time_limit_ms as in mcts_params_t (both 0:
 * until `stop`, a solved root, or forever), and `stop`, a flag another
 * thread sets to end the search before its next simulation, the first one
 * excepted (so that there is a move to report; NULL = none).
 * The arena keeps its size. HOYLE_EINVAL (nothing changed) for a Gumbel
 * search without max_sims, which its schedule needs, and for no limit at all
 * without a stop flag (a search that could never end). */
int mcts_set_limits(mcts_t *m, long long max_sims, double time_limit_ms, const atomic_int *stop);

/* Switch root Dirichlet noise for the next searches: eps = its weight (0 = off). A root
 * already noised keeps its priors. HOYLE_EINVAL (nothing changed) for eps outside [0, 1]
 * or eps > 0 without a positive dirichlet_alpha. */
int mcts_set_noise(mcts_t *m, double eps);

/* ---- step API: batching across many searches with one evaluator ----
 * begin(); then while !finished(): collect() leaves, evaluate them (layouts
 * of evaluator.h) and deliver() the results; end() returns the result.
 * mcts_search() is exactly this loop with m's own evaluator. */
int mcts_search_begin(mcts_t *m, const void *state);
/* Gather up to params.batch leaves; *states points at n states (owned by m,
 * valid until deliver). n may be 0 (all simulations ended in terminal or
 * proven nodes); deliver() is still called. */
int mcts_search_collect(mcts_t *m, const void **states, int *n);
/* values: n * num_players; priors: n * num_actions, or NULL for uniform. */
int mcts_search_deliver(mcts_t *m, const double *values, const float *priors);
bool mcts_search_finished(const mcts_t *m);
const mcts_result_t *mcts_search_end(mcts_t *m);

#endif
