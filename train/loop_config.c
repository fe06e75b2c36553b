/* loop_config.c — the AlphaZero loop's config (loop_run.h): the schema's rows, their
 * landing in run_t, the checks before a run writes anything and the resume check (the
 * effective config of config.yaml against this run's). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "train/loop_run.h"

/* The schema of a training config: one row per key, with its default, range, help and the
 * run_t field it lands in (docs/training.md's "Config keys" table is printed from these rows
 * by `hoyle train --keys`, and tests/cli/docs_tables.sh checks it). A row without a default
 * keeps what run_defaults() derived from the game or the self-play parameters. Adding a key
 * is one row; code that needs no field reads it by name (config_int). Every row is part of
 * the run's effective config (the resume check, loop_resume.c); a resumed run may change
 * the rows marked LOOP_MAY_CHANGE. */
#define ROW_INT(k, d, lo, hi, field, ...)                                                          \
    LOOP_ROW(run_t, k, PARAM_INT, d, lo, hi, field, __VA_ARGS__)
#define ROW_NUM(k, d, lo, hi, field, ...)                                                          \
    LOOP_ROW(run_t, k, PARAM_DOUBLE, d, lo, hi, field, __VA_ARGS__)
#define ROW_BOOL(k, d, field, ...) LOOP_ROW(run_t, k, PARAM_BOOL, d, 0, 0, field, __VA_ARGS__)
#define ROW_TEXT(k, d, field, ...) LOOP_ROW(run_t, k, PARAM_STRING, d, 0, 0, field, __VA_ARGS__)
#define ROW_WORD(k, d, words, field, text, ...)                                                    \
    {                                                                                              \
        .key = k, .type = PARAM_CHOICE, .def = d, .choices = words, .help = text,                  \
        PARAM_AT(run_t, field), __VA_ARGS__                                                        \
    }
#define CHANGE LOOP_MAY_CHANGE

static const param_def_t net_keys[] = {
    ROW_INT("blocks", "2", 0, 64, net_cfg.blocks, "residual blocks (docs/tch.md)"),
    ROW_INT("filters", "32", 1, 1024, net_cfg.filters, "channels of the tower (fc: its width)"),
    ROW_INT("value_hidden", "64", 1, 4096, net_cfg.value_hidden, "value head hidden width"),
    ROW_WORD("policy_head", "auto", "dense|conv|auto", heads[0],
             "conv: P logits per square for plane-shaped actions; auto: conv where it costs no "
             "more per forward"),
    ROW_WORD("value_head", "dense", "dense|pool", heads[1],
             "pool: the mean of each channel over the board"),
    ROW_WORD("trunk", "auto", "conv|fc|auto", heads[2],
             "fc: a linear tower on the flattened observation; auto: fc for one-row "
             "observations when it costs no more"),
    {NULL},
};
static const param_def_t optim_keys[] = {
    ROW_WORD("kind", "adam", "sgd|adam|adamw", opt_cfg.kind, "the optimiser"),
    ROW_NUM("lr", "0.001", 1e-8, 10, opt_cfg.lr, "learning rate", CHANGE),
    ROW_NUM("momentum", "0.9", 0, 0.999, opt_cfg.momentum, "SGD momentum", CHANGE),
    ROW_BOOL("nesterov", "false", opt_cfg.nesterov, "SGD: Nesterov momentum (needs momentum > 0)",
             CHANGE),
    ROW_NUM("weight_decay", "0", 0, 1, opt_cfg.weight_decay,
            "AdamW: decoupled weight decay (must stay 0 for sgd and adam)", CHANGE),
    ROW_WORD("schedule", "constant", "constant|step|cosine", opt_cfg.schedule,
             "learning rate by step: step = lr * step_gamma^(t / step_every), cosine = lr down "
             "to min_lr over cosine_steps",
             CHANGE),
    ROW_INT("warmup_steps", "0", 0, 1e9, opt_cfg.warmup_steps, "linear warm-up steps", CHANGE),
    ROW_INT("step_every", "1000", 1, 1e9, opt_cfg.step_size, "step: steps between decays", CHANGE),
    ROW_NUM("step_gamma", "0.1", 1e-6, 1, opt_cfg.gamma, "step: decay factor", CHANGE),
    ROW_INT("cosine_steps", "100000", 1, 1e9, opt_cfg.total_steps, "cosine: its length in steps",
            CHANGE),
    ROW_NUM("min_lr", "0", 0, 10, opt_cfg.lr_min, "cosine: final learning rate", CHANGE),
    ROW_NUM("l2", "0.0001", 0, 1, opt_cfg.l2, "L2 coefficient", CHANGE),
    ROW_NUM("value_weight", "1", 0, 100, opt_cfg.value_weight, "weight of the value loss", CHANGE),
    ROW_INT("batch", "128", 2, 65536, batch, "minibatch size"),
    {NULL},
};
static const param_def_t replay_keys[] = {
    ROW_INT("window_samples", "100000", 0, 1e12, window_samples,
            "newest samples drawn from (0 = all)"),
    ROW_INT("window_games", "0", 0, 1e12, window_games, "newest games kept (0 = all)"),
    ROW_INT("min_samples", "256", 0, 1e12, min_samples, "no training below this many"),
    ROW_BOOL("augment", NULL, augment,
             "random board symmetry per drawn sample (default: when the game has symmetries)"),
    ROW_WORD("window", "fixed", "fixed|growing", growing, "the window's shape (growing: KataGo's)"),
    ROW_INT("window_min", "250000", 1, 1e12, window_min, "growing: N0, the window's start"),
    ROW_NUM("window_alpha", "0.75", 1e-6, 1, window_alpha, "growing: exponent alpha"),
    ROW_NUM("window_beta", "0.4", 1e-6, 1, window_beta, "growing: slope beta"),
    {NULL},
};
static const param_def_t train_keys[] = {
    ROW_INT("generations", "1000000", 1, 1e9, generations, "stop after this many generations",
            CHANGE),
    ROW_NUM("minutes", "0", 0, 1e7, minutes,
            "stop after this much wall time, summed over resumes (0 = none)", CHANGE),
    ROW_NUM("sample_reuse", "4", 0, 1e4, sample_reuse, "samples trained on per new sample"),
    ROW_INT("threads", "2", 1, 256, threads, "libtorch threads", CHANGE),
    ROW_INT("cache", "65536", 0, 1 << 24, cache,
            "network cache entries in self-play (split between the workers)"),
    ROW_INT("heldout_games", "8", 0, 1e6, heldout_games,
            "games of net 0 kept out of training for the held-out loss (0 = none)"),
    ROW_INT("stale", "1", 0, 1e6, stale,
            "distributed: generations an actor's net may lag behind (older samples are dropped)",
            CHANGE),
    ROW_INT("actor_games", NULL, 1, 1e6, actor_games,
            "distributed: games an actor plays per batch it sends (default: selfplay.parallel)",
            CHANGE),
    ROW_INT("keep_every", "10", 0, 1e9, keep_every, "nets kept besides the newest (0 = all)",
            CHANGE),
    ROW_INT("keep_last", "3", 1, 1e9, keep_last, "newest nets always kept", CHANGE),
    ROW_TEXT("init_from", "", init_from, "warm start: a net or run folder (\"\" = none)", CHANGE),
    {NULL},
};
static const param_def_t train_schema[] = {
    {.key = "algorithm",
     .type = PARAM_CHOICE,
     .def = "az",
     .choices = "az|td|tdleaf",
     .help = "az: this loop; td, tdleaf: train/td_loop.h (docs/td.md)"},
    {.key = "name", .type = PARAM_STRING, .help = "run name", CHANGE},
    {.key = "game", .type = PARAM_STRING, .required = true, .help = "game spec"},
    {.key = "output", .type = PARAM_STRING, .required = true, .help = "run folder", CHANGE},
    {.key = "seed",
     .type = PARAM_INT,
     .def = "1",
     .min = 0,
     .max = 9e15,
     .help = "seed of everything random",
     PARAM_AT(run_t, seed)},
    {.key = "net", .type = PARAM_SECTION, .fields = net_keys, .help = "network shape"},
    {.key = "optim", .type = PARAM_SECTION, .fields = optim_keys, .help = "optimiser"},
    {.key = "selfplay",
     .type = PARAM_TABLE,
     .fields = selfplay_param_defs,
     .help = "self-play parameters (`hoyle selfplay --help`), and `processes`: actor processes "
             "the learner starts (0-64; 0 = in-process workers)"},
    {.key = "replay", .type = PARAM_SECTION, .fields = replay_keys, .help = "replay buffer"},
    {.key = "train", .type = PARAM_SECTION, .fields = train_keys, .help = "loop"},
    {.key = "eval",
     .type = PARAM_SECTION,
     .fields = loop_eval_rows,
     .help = "evaluation",
     PARAM_AT(run_t, eval)},
    {NULL},
};

#undef CHANGE

/* `selfplay.processes`, the loop's key among the self-play parameters: the learner's own
 * actor processes (loop_run_load reads it; the effective config's `extra` row). */
static const param_def_t processes_row[] = {
    {.key = "selfplay.processes", .type = PARAM_INT, .max = 64, LOOP_MAY_CHANGE},
    {NULL},
};

const param_def_t *train_config_schema(void) { return train_schema; }

/* What a config's rows do not set (r->g and r->sp must be set): the net's shapes, the
 * optimiser's other settings (Adam's betas and eps, tch_opt_config_default), the defaults
 * that follow the game or the self-play parameters, and the evaluation's defaults that the
 * TD loop sets otherwise (loop_eval_rows). Every other default is in its row. */
static void run_defaults(run_t *r)
{
    r->net_cfg = (tch_net_config_t){.in_channels = r->g->obs_shape[0],
                                    .height = r->g->obs_shape[1],
                                    .width = r->g->obs_shape[2],
                                    .num_actions = r->g->num_actions,
                                    .num_values = 1}; /* the value for the player to move */
    tch_opt_config_default(&r->opt_cfg);
    r->augment = r->g->num_symmetries > 1;
    r->actor_games = r->sp.parallel;
    r->eval.sims = (int)r->sp.search.max_sims;
    snprintf(r->eval.baseline, sizeof r->eval.baseline, "%s", "mcts(sims=256)");
    snprintf(r->eval.openings, sizeof r->eval.openings, "%s", "random:2");
    r->eval.num_anchors = 1;
    snprintf(r->eval.anchors[0], sizeof r->eval.anchors[0], "%s", "net:0");
    sprt_params_default(&r->eval.sprt_params);
    loop_eval_search_keys(&r->sp.search, r->eval.search, sizeof r->eval.search);
}

int loop_run_load(run_t *r, const char *path, char *const *sets, int num_sets)
{
    char at[1400];
    if (loop_config_open(path, sets, num_sets, train_schema, &r->cfg, r->dir, sizeof r->dir, &r->g))
        return HOYLE_EINVAL;
    const config_t *c = r->cfg;
    /* selfplay: a map of key: value, bound against selfplay_param_defs */
    char text[2048] = "";
    size_t used = 0;
    const config_node_t *sp = config_find(c, "selfplay");
    for (int i = 0; sp && i < sp->num_children && used < sizeof text; i++)
        if (strcmp(sp->children[i]->key, "processes") != 0) /* the loop's, not self-play's */
            used += (size_t)snprintf(text + used, sizeof text - used, "%s%s=%s", used ? "," : "",
                                     sp->children[i]->key, sp->children[i]->value);
    loop_key_at(c, "selfplay.processes", at, sizeof at);
    double np = 0;
    if (param_value(processes_row, NULL, config_string(c, "selfplay.processes", "0"), at, &np))
        return HOYLE_EINVAL;
    r->processes = (int)np;
    loop_key_at(c, "selfplay", at, sizeof at);
    if (used >= sizeof text) return hoyle_error(HOYLE_EINVAL, "%s: too long", at);
    if (selfplay_params_parse(text, &r->sp, r->sp_canon, sizeof r->sp_canon))
        return hoyle_error_prefix(HOYLE_EINVAL, "%s", at);
    run_defaults(r);
    if (config_bind(c, train_schema, r)) return HOYLE_EINVAL; /* every row lands */
    loop_resolve_net(r->g, r->heads[0], r->heads[1], r->heads[2], &r->net_cfg);
    loop_key_at(c, "optim", at, sizeof at); /* the combination: nesterov, weight decay, cosine */
    tch_opt_config_t probe = r->opt_cfg;
    if (probe.schedule == TCH_LR_COSINE && probe.lr_min > probe.lr)
        return hoyle_error(HOYLE_EINVAL, "%s: min_lr %g is above lr %g", at, probe.lr_min,
                           probe.lr);
    if (probe.nesterov && (probe.kind != TCH_OPT_SGD || probe.momentum <= 0))
        return hoyle_error(HOYLE_EINVAL, "%s: nesterov needs kind sgd and momentum > 0", at);
    if (probe.weight_decay > 0 && probe.kind != TCH_OPT_ADAMW)
        return hoyle_error(HOYLE_EINVAL, "%s: weight_decay needs kind adamw (sgd and adam: l2)",
                           at);
    loop_eval_read(c, &r->eval);
    r->eval.seed = r->seed;
    /* config.yaml and the shards record the effective config, overrides included */
    return config_dump(c, &r->config_text) ? HOYLE_ENOMEM : HOYLE_OK;
}

/* The checks that need more than the schema, run before anything is written: the baseline
 * is an agent of this game that needs no person, and `output` is a folder or can be made
 * as one with the folders above it (no file is in the way). Agent kinds must be registered
 * (train_register_agents). */
int loop_run_check(const run_t *r)
{
    char at[1400], parent[1024];
    const char *key = NULL;
    if (loop_eval_check(r->g, &r->eval, &key)) {
        loop_key_at(r->cfg, key, at, sizeof at);
        return hoyle_error_prefix(HOYLE_EINVAL, "%s", at);
    }
    loop_key_at(r->cfg, "output", at, sizeof at);
    struct stat st;
    if (stat(r->dir, &st) == 0)
        return S_ISDIR(st.st_mode)
                   ? HOYLE_OK
                   : hoyle_error(HOYLE_EINVAL, "%s: '%s' is not a folder", at, r->dir);
    /* missing folders are made (mkdir -p, as tournaments do); the nearest one
     * that exists must be a folder */
    snprintf(parent, sizeof parent, "%s", r->dir);
    for (char *slash; (slash = strrchr(parent, '/')) != NULL && slash != parent;) {
        *slash = '\0';
        if (stat(parent, &st) == 0)
            return S_ISDIR(st.st_mode) ? HOYLE_OK
                                       : hoyle_error(HOYLE_EINVAL, "%s: '%s': '%s' is not a folder",
                                                     at, r->dir, parent);
    }
    return HOYLE_OK;
}

/* This loop's own lines of the effective config (loop_effective_t): no `algorithm` (the
 * loop is az's), the self-play parameters one line each, from their canonical spec, and
 * selfplay.processes. */
static int special_lines(const void *run, const char *key, loop_log_t *out)
{
    const run_t *r = run;
    if (strcmp(key, "algorithm") == 0) return 1;
    if (strcmp(key, "selfplay") != 0) return 0;
    char sp[2600] = "";
    size_t k = 0;
    const char *open = strchr(r->sp_canon, '('), *p = open ? open + 1 : r->sp_canon;
    for (; *p && *p != ')' && k + 16 < sizeof sp; p++) { /* selfplay(a=1,b=2) -> lines */
        if (k == 0 || sp[k - 1] == '\n') k += (size_t)snprintf(sp + k, sizeof sp - k, "selfplay.");
        sp[k++] = *p == ',' ? '\n' : *p;
    }
    sp[k] = '\0';
    int status = loop_log_add(out, "%s\n", sp);
    if (!status) status = loop_log_add(out, "selfplay.processes=%d\n", r->processes);
    return status ? status : 1;
}

/* The effective value of every key (defaults included): two configs are the same run when
 * these lines are (loop_resume.c). */
static loop_effective_t effective(const run_t *r)
{
    return (loop_effective_t){.schema = train_schema,
                              .extra = processes_row,
                              .run = r,
                              .cfg = r->cfg,
                              .game = r->g->spec,
                              .eval = &r->eval,
                              .special = special_lines};
}

void loop_run_free(run_t *r)
{
    selfplay_session_free(r->session);
    r->session = NULL;
    sample_set_done(&r->heldout);
    game_free(r->g);
    free(r->config_text);
    config_free(r->cfg);
    r->g = NULL;
    r->config_text = NULL;
    r->cfg = NULL;
}

/* A resumed run (state.txt present) against the config.yaml it was made with: the keys
 * whose rows say LOOP_MAY_CHANGE may change (config.yaml is rewritten, resume.csv keeps the
 * change), any other change is refused before anything is written. */
int loop_run_resume_check(const run_t *r, int64_t generation)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/config.yaml", r->dir);
    run_t old;
    memset(&old, 0, sizeof old);
    int status = access(path, R_OK) == 0
                     ? loop_run_load(&old, path, NULL, 0)
                     : hoyle_error(HOYLE_EIO, "'%s': %s", path, strerror(errno));
    if (status) status = hoyle_error_prefix(HOYLE_EINVAL, "resuming '%s'", r->dir);
    if (!status) { /* old.g is set only now */
        loop_effective_t was = effective(&old), now = effective(r);
        status = loop_resume_check(&was, &now, r->dir, generation, r->config_text);
    }
    loop_run_free(&old);
    return status;
}

void loop_run_net_path(const run_t *r, int64_t gen, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/net-%06" PRId64 ".pt", r->dir, gen);
}

void loop_fmt_time(double s, char *buf, size_t cap)
{
    long t = (long)(s + 0.5);
    snprintf(buf, cap, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}
