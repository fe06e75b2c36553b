/* loop_internal.h — what the training loop's files share (not public). */
#ifndef HOYLE_TRAIN_LOOP_INTERNAL_H
#define HOYLE_TRAIN_LOOP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/config.h"
#include "eval/sprt.h"
#include "games/game.h"
#include "mcts/mcts.h"
#include "train/loop.h"
#include "train/tch/tch.h"

/* The checkpointed progress (state.txt, written last in a generation): all a resumed run
 * needs besides the config and the files of the finished generations. */
typedef struct loop_state {
    int64_t generation; /* generations finished (net-<generation>.pt is the newest net) */
    int64_t steps;      /* optimiser steps taken, all generations */
    int64_t games;      /* self-play games played (also the next game's id) */
    int64_t samples;    /* training positions written to the shards */
    double seconds;     /* wall time spent, all runs together (train.minutes counts it) */
    double step_carry;  /* the fraction of an optimiser step owed to the next generation */
    double loss_policy; /* mean policy loss over the last generation's steps */
    double loss_value;  /* mean value loss over the last generation's steps */
    double loss_total;  /* mean total loss over the last generation's steps */
} loop_state_t;

/* "FILE:LINE: key 'KEY'" for messages about a key (FILE (--set) for an override, FILE
 * alone for an absent key that took its default), as config_bind() words its own. */
void loop_key_at(const config_t *c, const char *key, char *buf, size_t cap);
/* The start of both loops' config reading: load `path`, apply the --set overrides, check
 * the tree against `schema` (nothing lands), then `output` (not empty: into dir) and `game`
 * (*g, which the caller frees). *cfg is the caller's to free, also after an error.
 * HOYLE_EINVAL with the file, line and key. */
int loop_config_open(const char *path, char *const *sets, int num_sets, const param_def_t *schema,
                     config_t **cfg, char *dir, size_t cap, const game_t **g);
/* mkdir -p: the folder and any missing folder above it (core/file.h). */
int loop_make_dir(const char *path);
/* Make the run folder `dir` and lock it (DIR/lock, data/lockfile.h) for as long as
 * *lock_fd is open: a second `hoyle train` on the same folder is refused, and a killed
 * run's lock goes with its process. */
int loop_lock_dir(const char *dir, int *lock_fd);

/* Write `len` bytes to path atomically (PATH.tmp, fsync, rename). */
int loop_write_atomic(const char *path, const char *data, size_t len);

/* state.txt: 1 = absent (fresh run), 0 = loaded, negative = damaged. */
int loop_state_load(const char *path, loop_state_t *st);
int loop_state_save(const char *path, const loop_state_t *st);

/* A CSV log kept in memory and rewritten atomically: a header line and rows
 * whose first field is the generation they belong to. */
typedef struct loop_log {
    char path[1300];
    char *text;
    size_t len, cap;
} loop_log_t;

/* Load path (or start with `header`), keeping only rows of generations <= max_gen. */
int loop_log_open(loop_log_t *log, const char *path, const char *header, int64_t max_gen);
int loop_log_add(loop_log_t *log, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int loop_log_save(const loop_log_t *log);
void loop_log_done(loop_log_t *log);

/* One row of a loop's config schema (core/spec.h), landing in member `field` of struct S;
 * after the help, more designators (LOOP_MAY_CHANGE). */
#define LOOP_ROW(S, k, t, d, lo, hi, field, text, ...)                                             \
    {                                                                                              \
        .key = k, .type = t, .def = d, .min = lo, .max = hi, .help = text, PARAM_AT(S, field),     \
        __VA_ARGS__                                                                                \
    }

/* Evaluation settings (config section `eval`, docs/training.md "Evaluation"). */
#define LOOP_EVAL_MAX_ANCHORS 8
typedef struct loop_eval_cfg {
    int every;                    /* generations between evaluations (0 = never) */
    int games;                    /* games per opponent, even (colour-swapped pairs); the most
                                     with sprt */
    int sims;                     /* az simulations */
    int max_moves;                /* whole moves before a draw (0 = rules) */
    char baseline[GAME_SPEC_MAX]; /* fixed opponent spec ("" = none) */
    char openings[256];           /* random:K, book:PATH or none: games / 2 openings, the same
                                     set at every evaluation, each played with both colours */
    bool previous;                /* also play the previous evaluated net */
    int num_anchors;              /* fixed opponents besides the baseline: */
    char anchors[LOOP_EVAL_MAX_ANCHORS][GAME_SPEC_MAX]; /* agent specs, or net:G (net G) */
    bool sprt;                 /* eval.sprt given: each match stops at the SPRT's decision */
    sprt_params_t sprt_params; /* eval.sprt.elo0, elo1, alpha, beta */
    char search[256];          /* az keys of self-play's search (loop_eval_search_keys); td:
                                  the td agent's keys (",plies=1") */
    int kind;                  /* what net-G is: LOOP_NET_AZ (net-G.pt, the az agent), LOOP_NET_TD
                                  (net-G.td, the td agent), LOOP_NET_EVAL (net-G.eval, the
                                  alphabeta agent's eval=: TDLeaf's weights) */
    uint64_t seed;             /* the run's seed: the openings */
} loop_eval_cfg_t;

typedef struct loop_eval_out {
    double score_prev, score_base; /* the new net's scores (-1 = not played) */
    double elo, elo_lo, elo_hi;    /* the new net's Elo (gen 0 = 0) */
} loop_eval_out_t;

enum { LOOP_NET_AZ = 0, LOOP_NET_TD, LOOP_NET_EVAL };

/* The rows of a config's `eval` section (core/spec.h), landing in a loop_eval_cfg_t: a
 * loop's schema embeds them as {.type = PARAM_SECTION, .fields = loop_eval_rows,
 * PARAM_AT(its struct, eval)}. Rows without a default (sims, baseline, openings) keep what
 * the loop set before binding. loop_eval_read() reads what the rows do not land: the list
 * eval.anchors (absent: ev keeps its anchors) and whether eval.sprt is given. */
extern const param_def_t loop_eval_rows[];
void loop_eval_read(const config_t *c, loop_eval_cfg_t *ev);

/* eval.anchors and eval.sprt as both loops' effective lines (the resume check) give them:
 * the anchors joined by ';' into anchors[acap], the SPRT's four numbers or "off" into sprt. */
void loop_eval_effective(const loop_eval_cfg_t *ev, char *anchors, size_t acap, char *sprt,
                         size_t scap);

/* The az spec keys (",batch=4,...") that give an az agent self-play's search `sp`: the
 * keys whose value differs from az's default, noise and temperature left out. */
void loop_eval_search_keys(const mcts_params_t *sp, char *buf, size_t cap);

/* Check the evaluation settings against `g` before a run writes anything: the baseline (an
 * agent of this game that needs no person), the opening source, each anchor (a spec of this game
 * that needs no person, or net:G), the games count (even), the SPRT bounds. HOYLE_EINVAL with a
 * one-line message, *key the config key at fault ("eval.anchors") for the caller to prefix with its
 * place. */
int loop_eval_check(const game_t *g, const loop_eval_cfg_t *cfg, const char **key);

/* Evaluate net-`gen` (file in dir) against its opponents: the baseline, the anchors
 * and net-`prev` (prev < 0 or cfg->previous false: none), each over the same
 * cfg->games / 2 openings with colours swapped (an SPRT may stop a match early); append
 * per-game rows to games_log and one row per opponent to eval_log, refit Elo over all
 * evaluation games and rewrite elo.csv, elo.h5 and elo.svg in dir. Progress lines
 * (core/progress.h) go to `progress` (may be NULL). */
int loop_evaluate(const game_t *g, const char *dir, const loop_eval_cfg_t *cfg, int64_t gen,
                  int64_t prev, double seconds, uint64_t seed, loop_log_t *games_log,
                  loop_log_t *eval_log, FILE *progress, loop_eval_out_t *out);

/* ---- loop_resume.c: the effective config and the resume check ---- */

/* What a loop's effective config is printed from: one "key=value" line per row of its
 * schema, depth first in schema order, with the value the run uses (param_text of the
 * landing; a row without one: its text in the config, else its default). A `quiet` row is
 * left out while at its default (a key added after runs were made). Two configs are the
 * same run when their lines are, whatever was left out or written differently (1e-3 vs
 * 0.001). */
typedef struct loop_effective {
    const param_def_t *schema;   /* the loop's config schema */
    const param_def_t *extra;    /* rows of lines `special` writes that the schema has not, by
                                    full key ("selfplay.processes"); NULL: none */
    const void *run;             /* where the schema's rows land */
    const config_t *cfg;         /* the config: rows read by name */
    const char *game;            /* `game=`: the canonical spec */
    const loop_eval_cfg_t *eval; /* `eval.anchors=` and `eval.sprt=` (loop_eval_effective) */
    /* The loop's own lines for the row of `key` (full dotted key): add them to out and
     * return 1 (a row it takes with no line is left out), or return 0 for the row's one
     * line; negative: an error. A PARAM_LIST or PARAM_TABLE row must be taken here or by
     * the common lines (game, eval.anchors, eval.sprt). NULL: none. */
    int (*special)(const void *run, const char *key, loop_log_t *out);
} loop_effective_t;
/* The lines of `e` into a new string *out (the caller frees). */
int loop_effective_lines(const loop_effective_t *e, char **out);

/* Resuming: `was` and `now` describe the effective configs of the stored config.yaml and
 * of this run (the same schema). Keys whose rows say `may_change` (in now->schema or
 * now->extra) may differ: each change is added to DIR/resume.csv (generation,key,old,new)
 * and config.yaml is rewritten with `config_text`, both atomically. Any other difference is
 * refused with HOYLE_EINVAL naming each key with its old and new value, and nothing is
 * written. */
int loop_resume_check(const loop_effective_t *was, const loop_effective_t *now, const char *dir,
                      int64_t generation, const char *config_text);
/* A row that a resumed run may change: LOOP_ROW(..., "help", LOOP_MAY_CHANGE). */
#define LOOP_MAY_CHANGE .may_change = true

/* ---- loop_learn.c: learning options ---- */

#define LOOP_AUTO 2 /* net.policy_head and net.trunk: the word after the two kinds */
/* Set c's head and trunk fields (its shapes and sizes already set) from the config's choice:
 * a tch_policy_head_t / tch_value_head_t / tch_trunk_t, or LOOP_AUTO (policy, trunk). A conv
 * policy head needs the game's plane layout (g->policy_planes) and the conv trunk, else the
 * dense head is used; auto picks the fc trunk for one-row observations and the conv policy
 * head where they cost no more multiply-accumulates per forward (loop_net_macs). */
void loop_resolve_net(const game_t *g, int policy_head, int value_head, int trunk,
                      tch_net_config_t *c);
/* Multiply-accumulates of one position's forward pass through a net of config c. */
int64_t loop_net_macs(const tch_net_config_t *c);
/* The warm start (`train.init_from`, `at` names the key): the net at `from` (a checkpoint,
 * or a run folder: its newest finished net), which must be exactly `want` (shapes, sizes,
 * heads), else HOYLE_EINVAL with one line naming both. *out: a new net (caller frees). */
int loop_warm_start(const char *at, const char *from, const tch_net_config_t *want,
                    tch_net_t **out);
/* An eval anchor's net: net:G -> G (>= 0); -1 for an agent spec, -2 for a bad net:G. */
int64_t loop_eval_anchor_net(const char *spec);
/* Retention: whether net `gen` stays once net `newest` is saved: always with keep_every 0
 * (retention off); else net 0, the newest keep_last nets, multiples of keep_every, the
 * newest multiple of ev->every (the next evaluation's opponent) and every net:G anchor of
 * `ev` (NULL: no evaluation). */
bool loop_keep_net(int64_t gen, int64_t newest, int keep_every, int keep_last,
                   const loop_eval_cfg_t *ev);
/* Remove dir/net-G.pt for every G that loop_keep_net does not keep (absent files are fine). */
int loop_prune_nets(const char *dir, int64_t newest, int keep_every, int keep_last,
                    const loop_eval_cfg_t *ev);

#endif
