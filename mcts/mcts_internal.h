/* mcts_internal.h — the tree and searcher shared by mcts_*.c (not public).
 *
 * Arena invariants (issue 35, compact edges): one block of arena_bytes holds
 * the nodes from its front and the edges from its back. Node 0 is the root;
 * nodes are m->nodes[0, used). An expanded node owns one contiguous block of
 * edges m->edges[first_edge, first_edge + num_children), one per legal action
 * or chance outcome (its action and prior or probability), allocated downward
 * from the back, so the edges in use are m->edges[edge_low, edge_cap).
 * first_edge == 0 means "no edges" (edge 0 lies under the root node, never in
 * the edge region). A child node is allocated only when its edge is first
 * taken (descent, decisive moves, the root proof search): edge.node is its
 * index, 0 until then (the root is never a child). An edge without a node
 * reads as mcts_blank_node (no visits, no flags, player unknown), which is
 * exactly what a never-visited child node held before. The arena is full when
 * the two regions would meet. `used` and the edge region only grow during a
 * search; mcts_advance() compacts the kept subtree (nodes to the front, edges
 * to the back).
 *
 * Lazy expansion (issue 35): a decision leaf whose evaluation brought no
 * priors (rollouts, heuristic) is not expanded when its value comes back; it
 * is marked NODE_DEFERRED and gets its edge block on its second visit, in the
 * descent, just before a child is selected. Its children would all have had the
 * uniform prior, so the search makes the same choices with a tree several
 * times smaller (most nodes of a tree are leaves visited once). A leaf with
 * priors from its evaluator (networks, the fake one), the root and, with
 * decisive moves, every leaf are still expanded at once. A deferred node is an
 * unexpanded node with a flag. */
#ifndef HOYLE_MCTS_MCTS_INTERNAL_H
#define HOYLE_MCTS_MCTS_INTERNAL_H

#include "core/rng.h"
#include "mcts/mcts.h"

#define NODE_PLAYER_UNKNOWN (-3) /* child not reached yet: its state was never computed */

enum {
    NODE_EXPANDED = 1, /* children allocated (or the node is terminal) */
    NODE_PENDING = 2,  /* waiting for its evaluation in the current batch */
    NODE_PROVEN = 4,   /* proven_value is the exact game value (MCTS-Solver) */
    NODE_DEFERRED = 8  /* evaluated once, children not yet allocated (lazy expansion) */
};

typedef struct mcts_node {
    uint32_t first_edge;                  /* m->edges index of the first edge; 0 = none */
    uint16_t num_children;                /* edges in the block */
    int8_t player;                        /* to move here, or NODE_PLAYER_UNKNOWN */
    uint8_t flags;                        /* NODE_* */
    int32_t action;                       /* the action from the parent (-1 at the root) */
    int32_t visits;                       /* completed simulations through the node */
    int32_t vloss;                        /* simulations in flight through the node */
    float proven_value[GAME_MAX_PLAYERS]; /* valid with NODE_PROVEN */
    double value_sum[GAME_MAX_PLAYERS];   /* sum of returns per player */
} mcts_node_t;

/* One move (or chance outcome) of an expanded node: 12 bytes, against a
 * 48-byte node that most moves of a large tree never need. */
typedef struct mcts_edge {
    int32_t action; /* the action, or the chance outcome */
    float prior;    /* policy prior (noise mixed in at the root), or outcome probability */
    uint32_t node;  /* arena index of the child node; 0 = not taken yet */
} mcts_edge_t;

/* What an edge without a node reads as: zeroed, player NODE_PLAYER_UNKNOWN. */
extern const mcts_node_t mcts_blank_node;

/* A sort record of the Gumbel root (mcts_select.c): a root child number and its score. */
typedef struct mcts_gumbel_rec {
    double key;
    int child;
} mcts_gumbel_rec_t;

/* One set of batch slots: the leaves of one collect, their states and paths,
 * kept until their deliver. The searcher has its own (`own`); with threads
 * each worker has one, and m->cur points at the set the tree code works on. */
typedef struct mcts_slots {
    int n;           /* leaves waiting for evaluation */
    char *states;    /* batch * state_size */
    uint32_t *paths; /* batch * path_cap */
    int *len;        /* path length per slot */
    double *values;  /* batch * num_players: evaluator output */
    float *priors;   /* batch * num_actions: evaluator output */
} mcts_slots_t;

/* A thread of a tree-parallel search (mcts_thread.c). Worker 0 is the
 * caller's thread with m->own and m->eval. */
typedef struct mcts_worker {
    struct mcts *m;
    mcts_slots_t *slots; /* &m->own for worker 0 */
    mcts_slots_t own;    /* the slots of workers 1.. */
    evaluator_t *eval;   /* its own clone of m->eval, or m->eval shared (eval_shared) */
    int status;          /* the first error this worker met, or 0 */
} mcts_worker_t;

/* Why a simulation stopped where it did. */
enum { LEAF_EVAL, LEAF_TERMINAL, LEAF_PROVEN, LEAF_COLLISION };

struct mcts {
    const game_t *g;
    mcts_params_t p;
    evaluator_t *eval; /* borrowed, may be NULL (step API) */
    rng_t rng;

    mcts_node_t *nodes; /* the arena: nodes from the front (arena invariants above) */
    mcts_edge_t *edges; /* the same block seen as edges: edges from the back */
    size_t arena_bytes; /* max_nodes * sizeof(mcts_node_t): the cap in bytes */
    size_t used;        /* nodes in use */
    size_t edge_low;    /* first edge in use; edge_cap when there are none */
    size_t edge_cap;    /* arena_bytes / sizeof(mcts_edge_t) */
    bool arena_full;    /* an expansion was refused during this search */
    bool has_root;      /* root_state is valid */
    bool root_noised;   /* Dirichlet noise already mixed into the root priors */
    void *root_state;

    /* per batch slot: the state at the leaf and the path to it */
    mcts_slots_t own;  /* the slots of the one-thread search and the step API */
    mcts_slots_t *cur; /* the slots collect and deliver work on (&own, or a worker's) */
    int path_cap;      /* max_game_length + 2 */

    /* tree parallelism (params.threads > 1, mcts_thread.c): every tree
     * operation (descent, expansion, backup) runs under `lock`; the evaluations,
     * the expensive part, run outside it, each worker with its own evaluator
     * clone (or the one evaluator under eval_lock when it cannot be cloned). */
    int threads;
    mcts_worker_t *workers; /* threads entries, NULL with one thread */
    void *lock;             /* pthread_mutex_t *, NULL with one thread */
    void *eval_lock;        /* pthread_mutex_t * for a shared evaluator, else NULL */
    long long inflight;     /* leaves collected by all workers and not yet delivered */
    bool dup_leaves;        /* a leaf pending for another worker is evaluated again */

    /* scratch */
    void *state;         /* descent state when not in a slot */
    int *legal;          /* max_legal */
    int *chance_actions; /* max_chance_outcomes */
    double *chance_probs;
    double *noise; /* max_legal: Dirichlet variates, or the Gumbel g(a) per root child */

    /* Gumbel root (mcts_select.c), set up once per search when the root is expanded */
    bool g_ready;       /* g(a), candidates and schedule are valid for this search */
    int g_k;            /* candidates still in (Sequential Halving) */
    int g_m;            /* candidates considered at first */
    int g_phases;       /* ceil(log2 m), at least 1 */
    int g_target;       /* visits this search each candidate gets by the end of the phase */
    long long g_budget; /* n: simulations to spend from the expanded root */
    int *g_cand;        /* max_legal: root child numbers of the candidates, best first */
    int *g_base;        /* max_legal: child visits when the search began (tree reuse) */
    signed char *g_in;  /* max_legal: 1 considered, 2 still in */
    struct mcts_gumbel_rec *g_sort; /* max_legal sort records */
    double *g_score;                /* max_legal: logit + sigma(completed Q) scratch */
    bool root_raw_valid;            /* root_raw holds the root's own evaluation */
    bool root_proved;               /* mcts_prove_root() has run on this root */
    char *prove_states;             /* (prove + 2) * state_size: one state per proof level */
    int *prove_legal;               /* (prove + 2) * max_legal */
    double root_raw[GAME_MAX_PLAYERS];

    /* search bookkeeping */
    long long sims;
    long long collect_target; /* sims + in flight may not exceed this */
    bool collision;
    uint64_t calls;
    double t_start;
    bool stop;
    const atomic_int *stop_flag; /* mcts_set_limits: another thread's stop request, or NULL */

    struct mcts_var *var;     /* the search variants' state (mcts_var.h); NULL when all are off */
    struct mcts_roots *roots; /* parallel=root: the other trees (mcts_root.c); NULL otherwise */

    /* result storage */
    mcts_result_t result;
    int *r_actions;
    int *r_visits;
    double *r_q;
    float *r_priors;
    signed char *r_proven;
    float *r_improved;
};

/* mcts_tree.c */
uint32_t mcts_alloc_edges(mcts_t *m, int n); /* first of n zeroed edges; 0 when the arena is full */
/* The node of edge `e`, allocated (zeroed, player unknown, the edge's action)
 * when the edge has none yet; 0 when the arena is full (arena_full is set). */
uint32_t mcts_edge_child(mcts_t *m, uint32_t e);
void mcts_reset_root(mcts_t *m, const void *state);
/* Bytes of the tree in use: nodes and edges. */
size_t mcts_tree_bytes(const mcts_t *m);

/* Edge c of `node`, and the node behind it (mcts_blank_node when not taken). */
static inline mcts_edge_t *mcts_edge(const mcts_t *m, const mcts_node_t *node, int c)
{
    return &m->edges[node->first_edge + (uint32_t)c];
}
static inline const mcts_node_t *mcts_edge_node(const mcts_t *m, const mcts_edge_t *e)
{
    return e->node ? &m->nodes[e->node] : &mcts_blank_node;
}
static inline const mcts_node_t *mcts_child(const mcts_t *m, const mcts_node_t *node, int c)
{
    return mcts_edge_node(m, mcts_edge(m, node, c));
}

/* mcts_select.c: index (into m->edges) of the edge to descend along. */
uint32_t mcts_select_child(mcts_t *m, const mcts_node_t *node, int player);
void mcts_add_noise(mcts_t *m);

/* mcts_expand.c */
int mcts_expand(mcts_t *m, uint32_t index, const void *state, const float *priors);

/* mcts_backup.c */
void mcts_backup(mcts_t *m, const uint32_t *path, int len, const double *values);
void mcts_undo_virtual(mcts_t *m, const uint32_t *path, int len);
void mcts_prove_terminal(mcts_t *m, uint32_t index, const double *returns);
/* The solver's proof rules at one node (children already proven); true when proven. */
bool mcts_try_prove(mcts_t *m, uint32_t index);

/* mcts_prove.c: the root proof search (params.prove), once per root after
 * its expansion; marks root children proven won or lost, and the root. */
void mcts_prove_root(mcts_t *m);

/* mcts_select.c: Gumbel root selection (Danihelka et al. 2022) */
void mcts_gumbel_init(mcts_t *m);
/* Root edge (m->edges index) to visit next; 0 = wait for the in-flight visits
 * (the phase is complete but not yet backed up). */
uint32_t mcts_gumbel_select(mcts_t *m);
/* The remaining candidate with the best score (m->edges index), and the
 * improved policy per root child into out (num_children floats). */
uint32_t mcts_gumbel_best(mcts_t *m);
void mcts_gumbel_policy(mcts_t *m, float *out);

/* mcts_thread.c: the worker buffers and evaluator clones (create/free/reseed),
 * and the tree-parallel body of mcts_search (m->threads > 1). */
int mcts_slots_init(mcts_t *m, mcts_slots_t *s);
void mcts_slots_done(mcts_slots_t *s);
int mcts_threads_create(mcts_t *m);
void mcts_threads_free(mcts_t *m);
void mcts_threads_reseed(mcts_t *m, uint64_t seed);
size_t mcts_threads_memory_bytes(const mcts_t *m);
int mcts_search_threads(mcts_t *m);

/* mcts_result.c */
void mcts_fill_result(mcts_t *m);
/* The principal variation from the root child played by `action` into pv
 * (MCTS_PV_MAX entries): its length, 0 when that child was never visited. */
int mcts_pv_under(const mcts_t *m, int action, int *pv);

/* mcts_search.c: mcts_search() on this tree alone (tree 0 of a root-parallel search). */
int mcts_search_tree(mcts_t *m, const void *state, const mcts_result_t **out);

/* mcts_root.c: root parallelism (params.parallel = MCTS_PARALLEL_ROOT, threads > 1).
 * split: checks the params and divides max_nodes between the trees (before
 * mcts_create sizes the arena); create: the other trees and their evaluator
 * clones (m->roots); the rest reach every tree; search: the whole search. */
int mcts_root_split(mcts_params_t *p);
int mcts_root_create(mcts_t *m);
void mcts_root_free(mcts_t *m);
void mcts_root_clear(mcts_t *m);
void mcts_root_reseed(mcts_t *m, uint64_t seed);
void mcts_root_advance(mcts_t *m, const void *state_before, int action);
size_t mcts_root_memory_bytes(const mcts_t *m);
int mcts_root_search(mcts_t *m, const void *state, const mcts_result_t **out);

#endif
