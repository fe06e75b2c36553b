/* mcts_var.h — the MCTS variants researchers compare, kept beside the tree
 * (not public; mcts_*.c and tests/test_mcts_var.c).
 *
 * Each variant is a knob of MCTS_KNOBS (mcts/mcts.h), off by default:
 *   rave, grave, rave_bias  all-moves-as-first statistics mixed into Q (mcts_amaf.c)
 *   mast, nst               playout policies learnt during the search (mcts_playout.c)
 *   phist                   progressive history bonus (mcts_playout.c's tables)
 *   implicit                implicit minimax backups (mcts_implicit.c)
 *   pw, pw_alpha            progressive widening (mcts_widen.c)
 * With every knob off, m->var is NULL and no search step calls into these files:
 * the search is bit for bit the plain one.
 *
 * What the variants keep, and why it survives tree reuse: the AMAF and n-gram
 * statistics live in hash tables keyed by (state hash, action) and (player,
 * previous action, action), the MAST/history means in a (player, action) array,
 * so none of them is tied to an arena index; only the implicit minimax values
 * are per node (a side array indexed like the arena, moved by mcts_var_compact
 * when the tree is compacted, valid where the node has NODE_IMPLICIT).
 *
 * The search steps call, in order, per simulation in batch slot `slot`:
 * mcts_var_descend at every node of the descent (the leaf included),
 * mcts_var_select / mcts_var_outcome instead of the plain choice,
 * mcts_var_playouts for the leaves (params.playouts > 0), mcts_var_backup
 * before the plain backup. */
#ifndef HOYLE_MCTS_MCTS_VAR_H
#define HOYLE_MCTS_MCTS_VAR_H

#include "mcts/mcts_internal.h"

/* A count and a sum of returns under a 64-bit key (0 = empty slot). */
typedef struct mcts_stat {
    uint64_t key;
    uint32_t n;
    float sum; /* returns are in [-1, 1]: exact for whole returns up to 2^24 visits */
} mcts_stat_t;

/* Open addressing, linear probing, power-of-two capacity. New keys stop being
 * inserted at 7/8 load (`full` is set); existing keys still count. */
typedef struct mcts_stat_table {
    mcts_stat_t *e;
    size_t mask;
    size_t used;
    bool full;
} mcts_stat_table_t;

int mcts_stat_init(mcts_stat_table_t *t, size_t capacity); /* capacity: a power of two */
void mcts_stat_done(mcts_stat_table_t *t);
void mcts_stat_clear(mcts_stat_table_t *t);
/* The entry of `key`, or NULL when absent. */
const mcts_stat_t *mcts_stat_find(const mcts_stat_table_t *t, uint64_t key);
/* Add one count of `value` to `key` (inserted when absent and there is room). */
void mcts_stat_add(mcts_stat_table_t *t, uint64_t key, double value);

/* The AMAF key of `action` at the state with hash `hash`, and the n-gram key of
 * `action` played by `player` after `prev` (-1: nothing before it). Never 0. */
uint64_t mcts_amaf_key(uint64_t hash, int action);
uint64_t mcts_ngram_key(int player, int prev, int action);

/* NST: a 2-gram counts in a playout's choice once it has this many samples
 * (Tak, Winands & Bjornsson 2012 use 7). */
#define MCTS_NST_MIN 7

typedef struct mcts_var {
    bool amaf;               /* rave or grave */
    bool history;            /* mast, nst or phist: the (player, action) table */
    bool ngrams;             /* nst: the 2-gram table */
    bool implicit;           /* implicit > 0 */
    bool implicit_heuristic; /* leaf values from game_evaluate (rollout values are too noisy) */
    int np, na;              /* players, actions */

    mcts_stat_table_t amaf_table;
    mcts_stat_table_t ngram_table;
    double *hist_sum; /* np * na: MAST / progressive history sums */
    uint32_t *hist_n; /* np * na */

    /* descent: per slot, the state hash of every path node */
    uint64_t *path_hash; /* batch * path_cap */
    uint64_t cur_hash;   /* the node being selected from */
    uint64_t ref_hash;   /* GRAVE's reference (the closest ancestor with > grave playouts) */
    signed char *played; /* batch: the slot's leaf was played out (its stats are counted) */

    /* one simulation as a sequence: tree actions then playout actions */
    int *seq;           /* seq_cap */
    int8_t *seq_player; /* mover of each, PLAYER_CHANCE for outcomes */
    int seq_len, seq_cap;
    int seq_tree; /* the first seq_tree actions are the tree part (the path's) */

    /* scratch */
    void *state;     /* playout state */
    int *legal;      /* max_legal (or outcomes) */
    double *weight;  /* max_legal: Gibbs weights */
    uint64_t *keys;  /* max_legal: widening order */
    uint64_t *sel;   /* max_legal: quickselect scratch */
    uint32_t *stamp; /* np * na: AMAF "already in the set" marks */
    uint32_t stamp_now;
    int *distinct;   /* np * (seq_cap): each player's actions from a position on */
    int *distinct_n; /* np */

    float *imp; /* max_nodes * np: implicit minimax values (NODE_IMPLICIT) */
} mcts_var_t;

/* A node flag of the implicit minimax value (mcts_internal.h has 1, 2, 4). */
#define NODE_IMPLICIT 8

/* mcts_var.c: lifecycle (from mcts_create / mcts_free / mcts_clear) */
bool mcts_var_any(const mcts_params_t *p);  /* some variant (or own playouts) is on */
int mcts_var_check(const mcts_params_t *p); /* HOYLE_EINVAL with a message for bad combinations */
int mcts_var_create(mcts_t *m);             /* m->var stays NULL when every variant is off */
size_t mcts_var_memory_bytes(const mcts_t *m);
void mcts_var_free(mcts_t *m);
void mcts_var_clear(mcts_t *m); /* a new game: tables emptied */
void mcts_var_begin(mcts_t *m); /* a search begins: a crowded AMAF table is emptied */
/* Tree reuse: new node i was old node from[i], for i < count. */
void mcts_var_compact(mcts_t *m, const uint32_t *from, size_t count);

/* Steps of one simulation (mcts_search.c). */
void mcts_var_descend(mcts_t *m, int slot, int depth, const mcts_node_t *node, const void *state);
/* Both choices return an m->edges index, as mcts_select_child does. */
uint32_t mcts_var_select(mcts_t *m, const mcts_node_t *node, int player, double fpu,
                         double explore);
int mcts_var_playouts(mcts_t *m, double *values); /* slots 0..m->cur->n-1: values per slot */
void mcts_var_backup(mcts_t *m, int slot, const uint32_t *path, int len, const double *values);

/* mcts_amaf.c */
void mcts_amaf_update(mcts_t *m, int slot, const uint32_t *path, int len, const double *values);
/* The AMAF count and sum of `action` at the state with hash `hash`, for its mover. */
bool mcts_amaf_stats(const mcts_t *m, uint64_t hash, int action, uint32_t *n, double *sum);

/* mcts_playout.c */
int mcts_playout(mcts_t *m, const void *state, int prev, double *returns); /* appends to seq */
void mcts_history_update(mcts_t *m, const double *returns);                /* from seq */
/* The history mean of `action` for `player` in [-1, 1], or `unseen` without samples. */
double mcts_history_mean(const mcts_t *m, int player, int action, double unseen);

/* mcts_implicit.c */
void mcts_implicit_backup(mcts_t *m, int slot, const uint32_t *path, int len, const double *values);

/* mcts_widen.c */
uint32_t mcts_widen_outcome(mcts_t *m, const mcts_node_t *node); /* chance node */
/* The number of children a decision node may choose among, and whether child c is
 * among them (keys computed by mcts_widen_prepare into var->keys). */
int mcts_widen_count(const mcts_t *m, const mcts_node_t *node);
uint64_t mcts_widen_threshold(mcts_t *m, const mcts_node_t *node, int k);

/* The simulation sequence's tree part: the actions along path[0..len). */
void mcts_var_record_path(mcts_t *m, const uint32_t *path, int len);

#endif
