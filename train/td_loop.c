/* td_loop.c — the TD(λ) training loop (td_loop.h): config, generations of
 * parallel workers with weight averaging, and the files the AZ loop keeps
 * (loop_internal.h: state.txt, CSV logs, resume checks, evaluation). Order of
 * writes in a generation (each atomic): net G+1, train.csv, the evaluation
 * logs, state.txt. */
#include "train/td_loop.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/progress.h"
#include "core/rng.h"
#include "data/config.h"
#include "mcts/agent.h"
#include "train/agent_td.h"
#include "train/loop_internal.h"
#include "train/td.h"
#include "train/tdleaf.h"

#define TD_MAX_WORKERS 64

typedef struct td_run {
    config_t *cfg;
    char *config_text;
    const game_t *g;
    char dir[1024];
    uint64_t seed;
    char features[TDNET_FEATURES_MAX];
    int hidden, workers, sync_games, eval_plies;
    double alpha, alpha_end, lambda, explore, init;
    int64_t alpha_games, games_per_gen, generations;
    double minutes;
    char init_from[1024]; /* train.init_from: net 0 of a fresh run ("" = none) */
    bool leaf;            /* algorithm tdleaf: the model is the heuristic's weights */
    tdleaf_params_t lp;   /* tdleaf.*: the self-play search (alpha, lambda from td.*) */
    loop_eval_cfg_t eval;
    int lock_fd;
} td_run_t;

/* The schema of a TD config: one row per key, with its range, help and the td_run_t field
 * it lands in (`hoyle train --keys td` prints them: docs/td.md's table). A row without a
 * default keeps what td_defaults() derived from the game and the algorithm. Every row is
 * part of the run's effective config (the resume check, loop_resume.c); a resumed run may
 * change the rows marked LOOP_MAY_CHANGE. */
#define ROW(...) LOOP_ROW(td_run_t, __VA_ARGS__)
static const param_def_t td_rows[] = {
    ROW("features", PARAM_STRING, NULL, 0, 0, features,
        "input set: raw (observation planes) or expert (default: expert where the game has "
        "hand-made inputs, else raw)"),
    ROW("hidden", PARAM_INT, "128", 1, 4096, hidden, "hidden units"),
    ROW("alpha", PARAM_DOUBLE, NULL, 0, 10, alpha,
        "learning rate at the start (default: 0.1; tdleaf: 0.001)"),
    ROW("alpha_end", PARAM_DOUBLE, NULL, 0, 10, alpha_end,
        "learning rate reached after alpha_games games, linearly (default: alpha)"),
    ROW("alpha_games", PARAM_INT, "1000000", 1, 1e12, alpha_games,
        "games over which alpha moves to alpha_end"),
    ROW("lambda", PARAM_DOUBLE, "0.7", 0, 1, lambda, "trace decay"),
    ROW("explore", PARAM_DOUBLE, NULL, 0, 1, explore,
        "share of uniformly random moves (default: 0 with dice, else 0.05)"),
    ROW("init", PARAM_DOUBLE, "0.1", 0, 10, init, "initial weights uniform in [-init, init]"),
    ROW("workers", PARAM_INT, "2", 1, TD_MAX_WORKERS, workers, "threads playing and learning"),
    ROW("sync_games", PARAM_INT, "50", 1, 1e9, sync_games, "games per worker between averagings"),
    ROW("eval_plies", PARAM_INT, "0", 0, 3, eval_plies,
        "the plies of the td agent in the evaluation"),
    {NULL},
};
static const param_def_t tdleaf_rows[] = {
    ROW("depth", PARAM_INT, "2", 1, 64, lp.depth, "search depth in whole moves"),
    ROW("quiescence", PARAM_BOOL, "true", 0, 0, lp.quiescence, "search captures past the depth"),
    ROW("opening_plies", PARAM_INT, "4", 0, 1000, lp.opening_plies,
        "random actions that start a game"),
    ROW("max_moves", PARAM_INT, "200", 1, 100000, lp.max_moves, "moves before a game is stopped"),
    /* quiet: left out of the effective config at 0, as in the runs made before it */
    ROW("scale_rate", PARAM_DOUBLE, "0", 0, 1e6, lp.scale_rate,
        "extra rate of the update along the weights (the overall scale; train/tdleaf.h)",
        .quiet = true),
    ROW("new_rate", PARAM_DOUBLE, "1", 0, 1e6, lp.new_rate,
        "rate of the terms at hand-set weight 0, relative to the rest (train/tdleaf.h)",
        .quiet = true),
    {NULL},
};
static const param_def_t td_train_rows[] = {
    ROW("games", PARAM_INT, "5000", 1, 1e12, games_per_gen,
        "games per generation (one net file each)"),
    ROW("generations", PARAM_INT, "1000000", 1, 1e9, generations,
        "stop after this many generations", LOOP_MAY_CHANGE),
    ROW("minutes", PARAM_DOUBLE, "0", 0, 1e7, minutes,
        "stop after this much wall time, all runs together (0 = none)", LOOP_MAY_CHANGE),
    /* quiet: left out of the effective config when empty, as in the runs made before it */
    ROW("init_from", PARAM_STRING, "", 0, 0, init_from,
        "warm start: net 0 is this file (td: a net; tdleaf: a weights file) (\"\" = none)",
        .quiet = true, LOOP_MAY_CHANGE),
    {NULL},
};
static const param_def_t td_schema[] = {
    {.key = "algorithm",
     .type = PARAM_CHOICE,
     .choices = "td|tdleaf",
     .required = true,
     .help = "td: TD(lambda) on a net; tdleaf: TDLeaf(lambda) on the heuristic's weights",
     PARAM_AT(td_run_t, leaf)},
    {.key = "name", .type = PARAM_STRING, .help = "run name", LOOP_MAY_CHANGE},
    {.key = "game", .type = PARAM_STRING, .required = true, .help = "game spec"},
    {.key = "output",
     .type = PARAM_STRING,
     .required = true,
     .help = "run folder",
     LOOP_MAY_CHANGE},
    ROW("seed", PARAM_INT, "1", 0, 9e15, seed, "seed of everything random"),
    {.key = "td", .type = PARAM_SECTION, .fields = td_rows, .help = "TD(lambda)"},
    {.key = "tdleaf",
     .type = PARAM_SECTION,
     .fields = tdleaf_rows,
     .help = "TDLeaf(lambda)'s self-play search"},
    {.key = "train", .type = PARAM_SECTION, .fields = td_train_rows, .help = "loop"},
    {.key = "eval",
     .type = PARAM_SECTION,
     .fields = loop_eval_rows,
     .help = "evaluation (as the AZ loop; default baseline expectimax(depth=1) with dice, else "
             "alphabeta(depth=2); openings none with dice, else random:2; tdleaf: both follow "
             "tdleaf.*)",
     PARAM_AT(td_run_t, eval)},
    {NULL},
};
#undef ROW

const param_def_t *td_config_schema(void) { return td_schema; }

int train_config_algorithm(const char *path, char *const *sets, int num_sets, int *algorithm)
{
    config_t *c = NULL;
    int status = config_load(path, &c);
    for (int i = 0; !status && i < num_sets; i++) status = config_set(c, sets[i]);
    const char *a = status ? "" : config_string(c, "algorithm", "az");
    char at[1400];
    if (!status) loop_key_at(c, "algorithm", at, sizeof at);
    static const char *const names[] = {"az", "td", "tdleaf"};
    int found = -1;
    for (int i = 0; !status && i < 3; i++)
        if (strcmp(a, names[i]) == 0) found = i;
    if (!status && found < 0)
        status = hoyle_error(HOYLE_EINVAL, "%s: '%s' is not one of az, td, tdleaf", at, a);
    if (!status) *algorithm = found;
    config_free(c);
    return status ? HOYLE_EINVAL : HOYLE_OK;
}

/* What a config's rows do not set (r->g and r->leaf must be set): the defaults that follow
 * the game or the algorithm. Every other default is in its row. */
static void td_defaults(td_run_t *r)
{
    snprintf(r->features, sizeof r->features, "%s",
             game_features_size(r->g) > 0 ? "expert" : "raw");
    r->alpha = r->leaf ? 0.001 : 0.1; /* tdleaf: the terms are counts (men, squares), not 0..1 */
    r->explore = r->g->max_chance_outcomes > 0 ? 0 : 0.05;
    r->eval = (loop_eval_cfg_t){.sims = 1, .kind = LOOP_NET_TD};
    snprintf(r->eval.baseline, sizeof r->eval.baseline, "%s",
             r->g->max_chance_outcomes > 0 ? "expectimax(depth=1)" : "alphabeta(depth=2)");
    snprintf(r->eval.openings, sizeof r->eval.openings, "%s",
             r->g->max_chance_outcomes > 0 ? "none" : "random:2");
    r->eval.num_anchors = 1;
    snprintf(r->eval.anchors[0], sizeof r->eval.anchors[0], "%s", "net:0");
    sprt_params_default(&r->eval.sprt_params);
}

static int load_config(td_run_t *r, const char *path, char *const *sets, int num_sets)
{
    char at[1400];
    if (loop_config_open(path, sets, num_sets, td_schema, &r->cfg, r->dir, sizeof r->dir, &r->g))
        return HOYLE_EINVAL;
    const config_t *c = r->cfg;
    loop_key_at(c, "game", at, sizeof at);
    if (r->g->num_players != 2)
        return hoyle_error(HOYLE_EINVAL, "%s: %s has %d players; TD(lambda) needs two", at,
                           r->g->spec, r->g->num_players);
    r->leaf = strcmp(config_string(c, "algorithm", "td"), "tdleaf") == 0;
    td_defaults(r);
    if (config_bind(c, td_schema, r)) return HOYLE_EINVAL; /* every row lands */
    if (!config_find(c, "td.alpha_end")) r->alpha_end = r->alpha;
    loop_key_at(c, "td.features", at, sizeof at);
    if (!r->leaf && td_features_size(r->g, r->features) < 0)
        return hoyle_error_prefix(HOYLE_EINVAL, "%s", at);
    if (r->leaf) { /* the learned weights against the hand-set ones, in the same search */
        eval_linear_t probe;
        loop_key_at(c, "game", at, sizeof at);
        if (eval_linear_default(r->g, &probe)) return hoyle_error_prefix(HOYLE_EINVAL, "%s", at);
        r->eval.kind = LOOP_NET_EVAL;
        snprintf(r->eval.search, sizeof r->eval.search, ",depth=%d,quiescence=%s", r->lp.depth,
                 r->lp.quiescence ? "true" : "false");
        if (!config_find(c, "eval.baseline")) /* the default follows tdleaf.* */
            snprintf(r->eval.baseline, sizeof r->eval.baseline, "alphabeta(depth=%d,quiescence=%s)",
                     r->lp.depth, r->lp.quiescence ? "true" : "false");
        if (!config_find(c, "eval.openings"))
            snprintf(r->eval.openings, sizeof r->eval.openings, "random:%d",
                     r->lp.opening_plies > 0 ? r->lp.opening_plies : 2);
    }
    loop_eval_read(c, &r->eval);
    if (!r->leaf) snprintf(r->eval.search, sizeof r->eval.search, ",plies=%d", r->eval_plies);
    r->eval.seed = r->seed;
    return config_dump(c, &r->config_text) ? HOYLE_ENOMEM : HOYLE_OK;
}

/* Before anything is written: the evaluation's agents and openings, and `output`. */
static int check_run(const td_run_t *r)
{
    char at[1400];
    const char *key = NULL;
    if (loop_eval_check(r->g, &r->eval, &key)) {
        loop_key_at(r->cfg, key, at, sizeof at);
        return hoyle_error_prefix(HOYLE_EINVAL, "%s", at);
    }
    struct stat st;
    loop_key_at(r->cfg, "output", at, sizeof at);
    if (stat(r->dir, &st) == 0 && !S_ISDIR(st.st_mode))
        return hoyle_error(HOYLE_EINVAL, "%s: '%s' is not a folder", at, r->dir);
    return HOYLE_OK;
}

/* This loop's own line of the effective config: none for eval.sims (the td agent has no
 * simulations). */
static int special_lines(const void *run, const char *key, loop_log_t *out)
{
    (void)run;
    (void)out;
    return strcmp(key, "eval.sims") == 0;
}

/* Every value that makes the run (loop_resume.c compares them). */
static loop_effective_t effective(const td_run_t *r)
{
    return (loop_effective_t){.schema = td_schema,
                              .run = r,
                              .cfg = r->cfg,
                              .game = r->g->spec,
                              .eval = &r->eval,
                              .special = special_lines};
}

static void run_free(td_run_t *r)
{
    game_free(r->g);
    free(r->config_text);
    config_free(r->cfg);
    r->g = NULL;
    r->config_text = NULL;
    r->cfg = NULL;
}

static int check_resume(const td_run_t *r, int64_t generation)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/config.yaml", r->dir);
    td_run_t old;
    memset(&old, 0, sizeof old);
    int status = load_config(&old, path, NULL, 0);
    if (status) status = hoyle_error_prefix(HOYLE_EINVAL, "resuming '%s'", r->dir);
    if (!status) { /* old.g is set only now */
        loop_effective_t was = effective(&old), now = effective(r);
        status = loop_resume_check(&was, &now, r->dir, generation, r->config_text);
    }
    run_free(&old);
    return status;
}

static void net_path(const td_run_t *r, int64_t gen, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/net-%06" PRId64 ".%s", r->dir, gen, r->leaf ? "eval" : "td");
}

/* The model a run learns: a TD net, or with tdleaf the heuristic's weights. */
typedef struct model {
    tdnet_t *net;
    eval_linear_t weights;
} model_t;

/* One worker of a round: its copy of the model with what learning it needs (a TD net's
 * traces and scratch, or a TDLeaf learner, whose search points into it: workers never
 * move), and its stream. */
typedef struct worker {
    const td_run_t *r;
    tdnet_t *net;
    tdnet_trace_t trace;
    td_scratch_t t;
    td_learn_params_t lp;
    tdleaf_t leaf;
    tdleaf_stats_t leaf_stats;
    rng_t rng;
    int64_t games; /* this round's */
    td_learn_stats_t stats;
    int status;
    char error[HOYLE_ERROR_MAX];
} worker_t;

static void *worker_run(void *arg)
{
    worker_t *w = arg;
    w->status = HOYLE_OK;
    for (int64_t i = 0; i < w->games && !w->status; i++)
        w->status = w->r->leaf ? tdleaf_learn_game(&w->leaf, &w->rng, &w->leaf_stats)
                               : td_learn_game(w->r->g, w->net, &w->lp, &w->rng, &w->t, &w->trace,
                                               &w->stats);
    if (w->status) snprintf(w->error, sizeof w->error, "%s", hoyle_last_error());
    return NULL;
}

static void workers_free(worker_t *w, int n)
{
    for (int i = 0; w && i < n; i++) {
        tdnet_trace_done(&w[i].trace);
        td_scratch_done(&w[i].t);
        tdnet_free(w[i].net);
        tdleaf_done(&w[i].leaf);
    }
    free(w);
}

static int workers_make(const td_run_t *r, const model_t *m, worker_t **out)
{
    worker_t *w = calloc((size_t)r->workers, sizeof *w);
    if (w == NULL) return hoyle_error(HOYLE_ENOMEM, "train: out of memory");
    int status = HOYLE_OK;
    for (int i = 0; i < r->workers && !status; i++) {
        w[i].r = r;
        if (r->leaf) {
            status = tdleaf_init(&w[i].leaf, r->g, &m->weights, &r->lp);
            continue;
        }
        rng_t none;
        rng_init(&none, 0);
        const tdnet_t *n = m->net;
        status = tdnet_create(n->inputs, n->hidden, n->heads, 0, &none, &w[i].net);
        if (!status) tdnet_copy(w[i].net, n);
        if (!status) status = tdnet_trace_init(&w[i].trace, n);
        if (!status) status = td_scratch_init(&w[i].t, r->g, w[i].net);
    }
    if (status) {
        workers_free(w, r->workers);
        return status;
    }
    *out = w;
    return HOYLE_OK;
}

/* The model's parameters into a worker's copy, and back as the mean of the copies that
 * played (a worker with no game this round kept the master's). */
static void model_copy_in(const model_t *m, worker_t *w)
{
    if (w->r->leaf)
        memcpy(w->leaf.w.w, m->weights.w, sizeof m->weights.w);
    else
        tdnet_copy(w->net, m->net);
}

static void model_average(const td_run_t *r, model_t *m, const worker_t *w)
{
    int n = 0;
    for (int i = 0; i < r->workers; i++) n += w[i].games > 0;
    size_t P = r->leaf ? (size_t)m->weights.n : m->net->num_params;
    for (size_t p = 0; p < P; p++) {
        double s = 0;
        for (int i = 0; i < r->workers; i++)
            if (w[i].games > 0) s += r->leaf ? w[i].leaf.w.w[p] : w[i].net->params[p];
        if (r->leaf)
            m->weights.w[p] = s / n;
        else
            m->net->params[p] = (float)(s / n);
    }
}

/* One generation: rounds of parallel games, each round's copies averaged into the model. */
static int generation(const td_run_t *r, model_t *m, worker_t *w, int64_t gen, int64_t games_before,
                      progress_t *pg, td_learn_stats_t *total)
{
    double frac = fmin(1.0, (double)games_before / (double)r->alpha_games);
    double alpha = r->alpha + (r->alpha_end - r->alpha) * frac;
    for (int i = 0; i < r->workers; i++) {
        rng_init(&w[i].rng, rng_mix(r->seed ^ rng_mix((uint64_t)gen * 1000003ULL + (uint64_t)i)));
        w[i].lp = (td_learn_params_t){.alpha = alpha, .lambda = r->lambda, .explore = r->explore};
        w[i].leaf.p.alpha = alpha;
        w[i].leaf.p.lambda = r->lambda;
        memset(&w[i].stats, 0, sizeof w[i].stats);
        memset(&w[i].leaf_stats, 0, sizeof w[i].leaf_stats);
    }
    int64_t left = r->games_per_gen;
    while (left > 0) {
        int64_t round =
            left < (int64_t)r->sync_games * r->workers ? left : (int64_t)r->sync_games * r->workers;
        pthread_t th[TD_MAX_WORKERS];
        bool started[TD_MAX_WORKERS] = {false};
        for (int i = 0; i < r->workers; i++) {
            w[i].games = round / r->workers + (i < round % r->workers);
            model_copy_in(m, &w[i]);
        }
        for (int i = 1; i < r->workers; i++)
            started[i] = pthread_create(&th[i], NULL, worker_run, &w[i]) == 0;
        worker_run(&w[0]);
        for (int i = 1; i < r->workers; i++) {
            if (started[i])
                pthread_join(th[i], NULL);
            else
                worker_run(&w[i]);
        }
        for (int i = 0; i < r->workers; i++)
            if (w[i].status) return hoyle_error(w[i].status, "%s", w[i].error);
        model_average(r, m, w);
        left -= round;
        char extra[64];
        snprintf(extra, sizeof extra, "gen %" PRId64, gen);
        progress_update(pg, games_before + r->games_per_gen - left, games_before + r->games_per_gen,
                        extra, 0);
    }
    memset(total, 0, sizeof *total);
    for (int i = 0; i < r->workers; i++) {
        const tdleaf_stats_t *ls = &w[i].leaf_stats;
        const td_learn_stats_t *s = &w[i].stats;
        total->games += r->leaf ? ls->games : s->games;
        total->moves += r->leaf ? ls->moves : s->moves;
        total->abs_delta += r->leaf ? ls->abs_delta : s->abs_delta;
        total->first_wins += r->leaf ? ls->first_wins : s->first_wins;
        total->draws += r->leaf ? ls->draws : s->draws;
        /* tdleaf: the column counts the games stopped at the move limit */
        total->gammons += r->leaf ? ls->stopped : s->gammons;
    }
    return HOYLE_OK;
}

static int model_save(const td_run_t *r, const model_t *m, const char *path)
{
    return r->leaf ? eval_linear_save(&m->weights, path) : tdnet_save(m->net, path);
}

/* The model stored at `path`: TDLeaf weights, or a TD net checked against the game. */
static int model_load(const td_run_t *r, const char *path, model_t *m)
{
    if (r->leaf) return eval_linear_load(path, r->g, &m->weights);
    int status = tdnet_load(path, r->g, &m->net);
    return status ? status : td_net_check(r->g, m->net, path);
}

/* Generation `gen`'s model: the stored one of a resumed run, or for a fresh run
 * `train.init_from`'s file or else a net with weights from the seed (TD) or the game's
 * hand-set weights (TDLeaf), written as net 0. */
static int model_first(const td_run_t *r, int64_t gen, model_t *m)
{
    char path[1200];
    net_path(r, gen, path, sizeof path);
    bool stored = gen > 0 || access(path, R_OK) == 0;
    if (!stored && r->init_from[0]) {
        /* the warm start: net 0 is the file, checked as a stored net is */
        char at[1400];
        loop_key_at(r->cfg, "train.init_from", at, sizeof at);
        if (model_load(r, r->init_from, m)) return hoyle_error_prefix(HOYLE_EINVAL, "%s", at);
        return model_save(r, m, path);
    }
    if (stored) return model_load(r, path, m);
    if (r->leaf) {
        int status = eval_linear_default(r->g, &m->weights);
        return status ? status : eval_linear_save(&m->weights, path);
    }
    rng_t rng;
    rng_init(&rng, rng_mix(r->seed ^ 0x7464ULL));
    int inputs = td_features_size(r->g, r->features);
    game_outcome_heads_t h;
    game_outcome_heads(r->g, &h);
    int status = tdnet_create(inputs, r->hidden, h.n, r->init, &rng, &m->net);
    if (status) return status;
    snprintf(m->net->game, sizeof m->net->game, "%s", r->g->spec);
    snprintf(m->net->features, sizeof m->net->features, "%s", r->features);
    m->net->signature = td_features_signature(r->g, strcmp(r->features, "expert") == 0);
    return tdnet_save(m->net, path);
}

static int start(td_run_t *r, loop_state_t *st, bool *resumed)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/state.txt", r->dir);
    int status = loop_state_load(path, st);
    if (status < 0) return status;
    *resumed = status == 0;
    if (*resumed) return check_resume(r, st->generation);
    memset(st, 0, sizeof *st);
    snprintf(path, sizeof path, "%s/config.yaml", r->dir);
    return loop_write_atomic(path, r->config_text, strlen(r->config_text));
}

#define TRAIN_CSV_HEADER                                                                           \
    "generation,seconds,games,moves,games_per_s,alpha,mean_abs_delta,first_player_wins,draws,"     \
    "gammons,moves_per_game\n"

static int log_generation(loop_log_t *log, const loop_state_t *st, const td_learn_stats_t *s,
                          double secs, double alpha)
{
    double g = s->games > 0 ? (double)s->games : 1;
    return loop_log_add(log,
                        "%" PRId64 ",%.1f,%" PRId64 ",%" PRId64 ",%.1f,%.6g,%.5f,%.4f,%.4f,%.4f,"
                        "%.2f\n",
                        st->generation, st->seconds, st->games, st->samples,
                        secs > 0 ? s->games / secs : 0, alpha,
                        s->moves ? s->abs_delta / (double)s->moves : 0, s->first_wins / g,
                        s->draws / g, s->gammons / g, s->moves / g);
}

static int loop(td_run_t *r, loop_state_t *st, FILE *progress, train_summary_t *out)
{
    char path[1200];
    model_t m = {0};
    worker_t *w = NULL;
    loop_log_t train_log = {0}, games_log = {0}, eval_log = {0};
    int status = model_first(r, st->generation, &m);
    if (!status) status = workers_make(r, &m, &w);
    snprintf(path, sizeof path, "%s/train.csv", r->dir);
    if (!status) status = loop_log_open(&train_log, path, TRAIN_CSV_HEADER, st->generation);
    snprintf(path, sizeof path, "%s/eval_games.csv", r->dir);
    if (!status)
        status = loop_log_open(&games_log, path, "generation,opponent,seat,score,opening\n",
                               st->generation);
    snprintf(path, sizeof path, "%s/eval.csv", r->dir);
    if (!status)
        status = loop_log_open(&eval_log, path,
                               "generation,seconds,opponent,games,score,elo,elo_lo,elo_hi,sprt,"
                               "llr\n",
                               st->generation);
    progress_t pg;
    progress_start(&pg, progress, r->leaf ? "[tdleaf]" : "[td]", "games", st->games);
    double t_run = clock_seconds(), seconds0 = st->seconds;
    int64_t last_eval = -1;
    for (int64_t ge = 0; ge <= st->generation && r->eval.every > 0; ge += r->eval.every)
        last_eval = ge;
    while (!status && st->generation < r->generations &&
           (r->minutes <= 0 || st->seconds < r->minutes * 60)) {
        double t0 = clock_seconds();
        td_learn_stats_t s = {0};
        int64_t gen = st->generation;
        double frac = fmin(1.0, (double)st->games / (double)r->alpha_games);
        double alpha = r->alpha + (r->alpha_end - r->alpha) * frac;
        status = generation(r, &m, w, gen, st->games, &pg, &s);
        net_path(r, gen + 1, path, sizeof path);
        if (!status) status = model_save(r, &m, path);
        double secs = clock_seconds() - t0;
        st->generation = gen + 1;
        st->games += s.games;
        st->samples += s.moves;
        st->steps += s.moves;
        st->loss_value = s.moves ? s.abs_delta / (double)s.moves : 0;
        st->seconds = seconds0 + (clock_seconds() - t_run);
        if (!status) status = log_generation(&train_log, st, &s, secs, alpha);
        if (!status) status = loop_log_save(&train_log);
        if (!status && r->eval.every > 0 && st->generation % r->eval.every == 0) {
            loop_eval_out_t eo;
            status = loop_evaluate(r->g, r->dir, &r->eval, st->generation, last_eval, st->seconds,
                                   rng_mix(r->seed ^ (uint64_t)st->generation), &games_log,
                                   &eval_log, progress, &eo);
            if (!status) {
                progress_note(&pg, "gen %" PRId64 ": baseline %.3f, previous %.3f, Elo %.0f",
                              st->generation, eo.score_base, eo.score_prev, eo.elo);
                last_eval = st->generation;
                out->elo = eo.elo;
                out->elo_generation = st->generation;
            }
        }
        st->seconds = seconds0 + (clock_seconds() - t_run);
        snprintf(path, sizeof path, "%s/state.txt", r->dir);
        if (!status) status = loop_state_save(path, st);
        if (!status)
            progress_note(&pg,
                          "gen %" PRId64 ": %" PRId64 " games, %.0f games/s, |delta| %.4f, "
                          "first player %.3f",
                          st->generation, st->games, secs > 0 ? s.games / secs : 0, st->loss_value,
                          s.games ? (double)s.first_wins / s.games : 0);
    }
    progress_clear(&pg);
    workers_free(w, r->workers);
    tdnet_free(m.net);
    loop_log_done(&train_log);
    loop_log_done(&games_log);
    loop_log_done(&eval_log);
    return status;
}

int td_train_run(const char *path, char *const *sets, int num_sets, FILE *progress,
                 train_summary_t *out)
{
    td_run_t r;
    memset(&r, 0, sizeof r);
    r.lock_fd = -1;
    memset(out, 0, sizeof *out);
    out->elo_generation = -1;
    int status = td_register_agents();
    if (!status) status = load_config(&r, path, sets, num_sets);
    if (!status) status = check_run(&r);
    if (!status) status = loop_lock_dir(r.dir, &r.lock_fd);
    loop_state_t st;
    bool resumed = false;
    memset(&st, 0, sizeof st);
    if (!status) status = start(&r, &st, &resumed);
    if (!status) status = loop(&r, &st, progress, out);
    if (!status) {
        snprintf(out->output, sizeof out->output, "%s", r.dir);
        out->generation = st.generation;
        out->steps = st.steps;
        out->games = st.games;
        out->samples = st.samples;
        out->loss_value = out->loss_total = st.loss_value;
        out->seconds = st.seconds;
        out->resumed = resumed;
    }
    if (r.lock_fd >= 0) close(r.lock_fd);
    run_free(&r);
    return status;
}
