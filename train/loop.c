/* loop.c — `hoyle train`: config, resume and the generation loop (loop.h).
 * Order of writes in a generation (each one atomic): shard G, net G+1, the
 * evaluation logs, then state.txt. A kill before state.txt is written loses
 * that generation only; the rerun rewrites the same files. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/check.h"
#include "core/clock.h"
#include "core/progress.h"
#include "core/rng.h"
#include "data/config.h"
#include "data/lockfile.h"
#include "mcts/agent.h"
#include "train/actors_local.h"
#include "train/agent_az.h"
#include "train/loop_internal.h"
#include "train/net_eval.h"
#include "train/replay.h"
#include "train/selfplay.h"

/* The words of net.policy_head, value_head, trunk, optim.kind and schedule, in the order
 * of their enums (tch.h) and of their rows' choices, for effective_lines(). */
static const char *const words[][4] = {{"dense", "conv", "auto", NULL},
                                       {"dense", "pool", NULL},
                                       {"conv", "fc", "auto", NULL},
                                       {"sgd", "adam", "adamw", NULL},
                                       {"constant", "step", "cosine", NULL}};

/* One run of the loop: what it read from its config (the config key in backquotes) and
 * the objects it owns. Every default lives in run_defaults() and nowhere else: load_config()
 * reads each key with the field's current value as its fallback, so a key left out of the
 * YAML keeps the value set there (docs/training.md, "Config keys", lists the same values). */
typedef struct run {
    config_t *cfg;            /* the config after --set overrides (owned) */
    char *config_text;        /* cfg as YAML: config.yaml and every shard's metadata (owned) */
    const game_t *g;          /* `game` (owned) */
    char dir[1024];           /* `output`: the run folder */
    uint64_t seed;            /* `seed`: everything random derives from it and the generation */
    tch_net_config_t net_cfg; /* `net.*`: the tower; C, H, W, A from the game, 1 value */
    tch_opt_config_t opt_cfg; /* `optim.*`: kind, lr, schedule...; betas and eps as
                                 tch_opt_config_default */
    int heads[3];             /* `net.policy_head, value_head, trunk` as chosen (LOOP_AUTO) */
    int keep_every;           /* `train.keep_every`: retention (loop_keep_net) */
    int keep_last;            /* `train.keep_last`: the newest nets always kept */
    char init_from[1024];     /* `train.init_from`: the warm start ("" = none) */
    int batch;                /* `optim.batch`: positions per optimiser step */
    selfplay_params_t sp;     /* `selfplay.*` (defaults: train/selfplay.h) */
    char sp_canon[2048];      /* sp as canonical text, recorded in every shard */
    int64_t window_samples;   /* `replay.window_samples`: newest samples drawn from (0 = all) */
    int64_t window_games;     /* `replay.window_games`: newest games kept (0 = all) */
    int64_t min_samples;      /* `replay.min_samples`: no optimiser step below this many */
    bool augment;             /* `replay.augment`: a random board symmetry per drawn sample */
    bool growing;             /* `replay.window`: growing (true) or fixed */
    int64_t window_min;       /* `replay.window_min`, `_alpha`, `_beta`: the growing window */
    double window_alpha, window_beta;
    int heldout_games;           /* `train.heldout_games`: games of the held-out set */
    sample_set_t heldout;        /* the held-out samples (RUN/heldout.h5) */
    selfplay_session_t *session; /* self-play workers and their games (selfplay.carry) */
    int64_t generations;         /* `train.generations`: stop after this many */
    double minutes;              /* `train.minutes`: stop after this much wall time (0 = none) */
    double sample_reuse;         /* `train.sample_reuse`: samples trained on per new sample */
    int threads;                 /* `train.threads`: libtorch intra-op threads */
    int cache;                   /* `train.cache`: network cache entries during self-play */
    int stale;            /* `train.stale`: distributed runs take samples of nets G-stale.. */
    int actor_games;      /* `train.actor_games`: games per batch an actor sends */
    int processes;        /* `selfplay.processes`: actor processes of the learner (0 = none) */
    loop_eval_cfg_t eval; /* `eval.*` (loop_internal.h) */
    int lock_fd;          /* the locked DIR/lock while the run holds the folder, else -1 */
} run_t;

/* The schema of a training config: one row per key, with its default, range, help and the
 * run_t field it lands in (docs/training.md's "Config keys" table is printed from these rows
 * by `hoyle train --keys`, and tests/cli/docs_tables.sh checks it). A row without a default
 * keeps what run_defaults() derived from the game or the self-play parameters. Adding a key
 * is one row; code that needs no field reads it by name (config_int). */
#define ROW_INT(k, d, lo, hi, field, text)                                                         \
    {                                                                                              \
        .key = k, .type = PARAM_INT, .def = d, .min = lo, .max = hi, .help = text,                 \
        PARAM_AT(run_t, field)                                                                     \
    }
#define ROW_NUM(k, d, lo, hi, field, text)                                                         \
    {                                                                                              \
        .key = k, .type = PARAM_DOUBLE, .def = d, .min = lo, .max = hi, .help = text,              \
        PARAM_AT(run_t, field)                                                                     \
    }
#define ROW_BOOL(k, d, field, text)                                                                \
    {                                                                                              \
        .key = k, .type = PARAM_BOOL, .def = d, .help = text, PARAM_AT(run_t, field)               \
    }
#define ROW_WORD(k, d, words, field, text)                                                         \
    {                                                                                              \
        .key = k, .type = PARAM_CHOICE, .def = d, .choices = words, .help = text,                  \
        PARAM_AT(run_t, field)                                                                     \
    }
#define ROW_TEXT(k, d, field, text)                                                                \
    {                                                                                              \
        .key = k, .type = PARAM_STRING, .def = d, .help = text, PARAM_AT(run_t, field)             \
    }

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
    ROW_NUM("lr", "0.001", 1e-8, 10, opt_cfg.lr, "learning rate"),
    ROW_NUM("momentum", "0.9", 0, 0.999, opt_cfg.momentum, "SGD momentum"),
    ROW_BOOL("nesterov", "false", opt_cfg.nesterov, "SGD: Nesterov momentum (needs momentum > 0)"),
    ROW_NUM("weight_decay", "0", 0, 1, opt_cfg.weight_decay,
            "AdamW: decoupled weight decay (must stay 0 for sgd and adam)"),
    ROW_WORD("schedule", "constant", "constant|step|cosine", opt_cfg.schedule,
             "learning rate by step: step = lr * step_gamma^(t / step_every), cosine = lr down "
             "to min_lr over cosine_steps"),
    ROW_INT("warmup_steps", "0", 0, 1e9, opt_cfg.warmup_steps, "linear warm-up steps"),
    ROW_INT("step_every", "1000", 1, 1e9, opt_cfg.step_size, "step: steps between decays"),
    ROW_NUM("step_gamma", "0.1", 1e-6, 1, opt_cfg.gamma, "step: decay factor"),
    ROW_INT("cosine_steps", "100000", 1, 1e9, opt_cfg.total_steps, "cosine: its length in steps"),
    ROW_NUM("min_lr", "0", 0, 10, opt_cfg.lr_min, "cosine: final learning rate"),
    ROW_NUM("l2", "0.0001", 0, 1, opt_cfg.l2, "L2 coefficient"),
    ROW_NUM("value_weight", "1", 0, 100, opt_cfg.value_weight, "weight of the value loss"),
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
    ROW_INT("generations", "1000000", 1, 1e9, generations, "stop after this many generations"),
    ROW_NUM("minutes", "0", 0, 1e7, minutes,
            "stop after this much wall time, summed over resumes (0 = none)"),
    ROW_NUM("sample_reuse", "4", 0, 1e4, sample_reuse, "samples trained on per new sample"),
    ROW_INT("threads", "2", 1, 256, threads, "libtorch threads"),
    ROW_INT("cache", "65536", 0, 1 << 24, cache,
            "network cache entries in self-play (split between the workers)"),
    ROW_INT("heldout_games", "8", 0, 1e6, heldout_games,
            "games of net 0 kept out of training for the held-out loss (0 = none)"),
    ROW_INT("stale", "1", 0, 1e6, stale,
            "distributed: generations an actor's net may lag behind (older samples are dropped)"),
    ROW_INT("actor_games", NULL, 1, 1e6, actor_games,
            "distributed: games an actor plays per batch it sends (default: selfplay.parallel)"),
    ROW_INT("keep_every", "10", 0, 1e9, keep_every, "nets kept besides the newest (0 = all)"),
    ROW_INT("keep_last", "3", 1, 1e9, keep_last, "newest nets always kept"),
    ROW_TEXT("init_from", "", init_from, "warm start: a net or run folder (\"\" = none)"),
    {NULL},
};
static const param_def_t train_schema[] = {
    {.key = "algorithm",
     .type = PARAM_CHOICE,
     .def = "az",
     .choices = "az|td|tdleaf",
     .help = "az: this loop; td, tdleaf: train/td_loop.h (docs/td.md)"},
    {.key = "name", .type = PARAM_STRING, .help = "run name"},
    {.key = "game", .type = PARAM_STRING, .required = true, .help = "game spec"},
    {.key = "output", .type = PARAM_STRING, .required = true, .help = "run folder"},
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

static int load_config(run_t *r, const char *path, char *const *sets, int num_sets)
{
    char at[1400];
    int status = config_load(path, &r->cfg);
    for (int i = 0; !status && i < num_sets; i++) status = config_set(r->cfg, sets[i]);
    if (!status) status = config_bind(r->cfg, train_schema, NULL); /* check only */
    if (status) return HOYLE_EINVAL;
    const config_t *c = r->cfg;
    snprintf(r->dir, sizeof r->dir, "%s", config_string(c, "output", ""));
    loop_key_at(c, "output", at, sizeof at);
    if (r->dir[0] == '\0') return hoyle_error(HOYLE_EINVAL, "%s: empty folder name", at);
    loop_key_at(c, "game", at, sizeof at);
    if (game_create(config_string(c, "game", ""), &r->g))
        return hoyle_error_prefix(HOYLE_EINVAL, "%s", at);
    /* selfplay: a map of key: value, bound against selfplay_param_defs */
    char text[2048] = "";
    size_t used = 0;
    const config_node_t *sp = config_find(c, "selfplay");
    for (int i = 0; sp && i < sp->num_children && used < sizeof text; i++)
        if (strcmp(sp->children[i]->key, "processes") != 0) /* the loop's, not self-play's */
            used += (size_t)snprintf(text + used, sizeof text - used, "%s%s=%s", used ? "," : "",
                                     sp->children[i]->key, sp->children[i]->value);
    loop_key_at(c, "selfplay.processes", at, sizeof at);
    static const param_def_t processes = {.key = "processes", .type = PARAM_INT, .max = 64};
    double np = 0;
    if (param_value(&processes, NULL, config_string(c, "selfplay.processes", "0"), at, &np))
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
 * as one (its parent exists). Agent kinds must be registered (train_register_agents). */
static int check_run(const run_t *r)
{
    char at[1400], parent[1024];
    agent_t *probe = NULL;
    loop_key_at(r->cfg, "eval.baseline", at, sizeof at);
    if (r->eval.baseline[0] && agent_create(r->g, r->eval.baseline, 0, &probe))
        return hoyle_error_prefix(HOYLE_EINVAL, "%s", at);
    int human = probe && agent_is_human(probe);
    agent_free(probe);
    if (human) return hoyle_error(HOYLE_EINVAL, "%s: a human cannot be the baseline", at);
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
    const char *slash = strrchr(r->dir, '/');
    snprintf(parent, sizeof parent, "%.*s", slash ? (int)(slash - r->dir) + 1 : 1,
             slash ? r->dir : ".");
    if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode))
        return hoyle_error(HOYLE_EINVAL, "%s: '%s': no folder '%s'", at, r->dir, parent);
    return HOYLE_OK;
}

/* The effective value of every key (defaults included) as "key=value" lines, in schema
 * order: two configs are the same run when these lines are, whatever was left out or
 * written differently (1e-3 vs 0.001). The self-play parameters give one line each. */
static int effective_lines(const run_t *r, char **out)
{
    const tch_opt_config_t *o = &r->opt_cfg;
    char sp[2600] = "";
    size_t k = 0;
    const char *open = strchr(r->sp_canon, '('), *p = open ? open + 1 : r->sp_canon;
    for (; *p && *p != ')' && k + 16 < sizeof sp; p++) { /* selfplay(a=1,b=2) -> lines */
        if (k == 0 || sp[k - 1] == '\n') k += (size_t)snprintf(sp + k, sizeof sp - k, "selfplay.");
        sp[k++] = *p == ',' ? '\n' : *p;
    }
    sp[k] = '\0';
    char anchors[LOOP_EVAL_MAX_ANCHORS * GAME_SPEC_MAX] = "", sprt[128] = "off";
    for (int i = 0, u = 0; i < r->eval.num_anchors; i++)
        u += snprintf(anchors + u, sizeof anchors - (size_t)u, "%s%s", i ? ";" : "",
                      r->eval.anchors[i]);
    const sprt_params_t *t = &r->eval.sprt_params;
    if (r->eval.sprt)
        snprintf(sprt, sizeof sprt, "%.17g,%.17g,%.17g,%.17g", t->elo0, t->elo1, t->alpha, t->beta);
    char buf[16384];
    int n = snprintf(
        buf, sizeof buf,
        "name=%s\ngame=%s\noutput=%s\nseed=%" PRIu64 "\nnet.blocks=%d\nnet.filters=%d\n"
        "net.value_hidden=%d\noptim.kind=%s\noptim.lr=%.17g\noptim.momentum=%.17g\n"
        "optim.l2=%.17g\noptim.value_weight=%.17g\noptim.batch=%d\n%s\n"
        "replay.window_samples=%" PRId64 "\nreplay.window_games=%" PRId64
        "\nreplay.min_samples=%" PRId64 "\nreplay.augment=%s\nreplay.window=%s\n"
        "replay.window_min=%" PRId64 "\nreplay.window_alpha=%.17g\nreplay.window_beta=%.17g\n"
        "train.heldout_games=%d\ntrain.generations=%" PRId64
        "\ntrain.minutes=%.17g\ntrain.sample_reuse=%.17g\ntrain.threads=%d\ntrain.cache=%d\n"
        "train.stale=%d\ntrain.actor_games=%d\n"
        "eval.every=%d\neval.games=%d\neval.sims=%d\neval.max_moves=%d\neval.baseline=%s\n"
        "eval.openings=%s\neval.anchors=%s\neval.previous=%s\neval.sprt=%s\n",
        config_string(r->cfg, "name", ""), r->g->spec, r->dir, r->seed, r->net_cfg.blocks,
        r->net_cfg.filters, r->net_cfg.value_hidden, words[3][o->kind], o->lr, o->momentum, o->l2,
        o->value_weight, r->batch, sp, r->window_samples, r->window_games, r->min_samples,
        r->augment ? "true" : "false", r->growing ? "growing" : "fixed", r->window_min,
        r->window_alpha, r->window_beta, r->heldout_games, r->generations, r->minutes,
        r->sample_reuse, r->threads, r->cache, r->stale, r->actor_games, r->eval.every,
        r->eval.games, r->eval.sims, r->eval.max_moves, r->eval.baseline, r->eval.openings, anchors,
        r->eval.previous ? "true" : "false", sprt);
    if (n > 0 && (size_t)n < sizeof buf) /* the learning options (loop_learn.c) */
        n += snprintf(buf + n, sizeof buf - (size_t)n,
                      "net.policy_head=%s\nnet.value_head=%s\nnet.trunk=%s\noptim.nesterov=%d\n"
                      "optim.weight_decay=%.17g\noptim.schedule=%s\noptim.warmup_steps=%d\n"
                      "optim.step_every=%d\noptim.step_gamma=%.17g\noptim.cosine_steps=%d\n"
                      "optim.min_lr=%.17g\ntrain.keep_every=%d\ntrain.keep_last=%d\n"
                      "train.init_from=%s\nselfplay.processes=%d\n",
                      words[0][r->heads[0]], words[1][r->heads[1]], words[2][r->heads[2]],
                      o->nesterov, o->weight_decay, words[4][o->schedule], o->warmup_steps,
                      o->step_size, o->gamma, o->total_steps, o->lr_min, r->keep_every,
                      r->keep_last, r->init_from, r->processes);
    if (n < 0 || (size_t)n >= sizeof buf) return hoyle_error(HOYLE_EFULL, "train: config too long");
    *out = strdup(buf);
    return *out ? HOYLE_OK : hoyle_error(HOYLE_ENOMEM, "train: out of memory");
}

static void run_free(run_t *r)
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

/* A resumed run (state.txt present) against the config.yaml it was made with: the keys of
 * loop_resume_keys may change (config.yaml is rewritten, resume.csv keeps the change), any
 * other change is refused before anything is written. */
static int check_resume(const run_t *r, int64_t generation)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/config.yaml", r->dir);
    run_t old;
    memset(&old, 0, sizeof old);
    char *was = NULL, *now = NULL;
    int status = access(path, R_OK) == 0
                     ? load_config(&old, path, NULL, 0)
                     : hoyle_error(HOYLE_EIO, "'%s': %s", path, strerror(errno));
    if (status) status = hoyle_error_prefix(HOYLE_EINVAL, "resuming '%s'", r->dir);
    if (!status) status = effective_lines(&old, &was);
    if (!status) status = effective_lines(r, &now);
    if (!status) status = loop_resume_check(r->dir, generation, was, now, r->config_text);
    free(was);
    free(now);
    run_free(&old);
    return status;
}

static void net_path(const run_t *r, int64_t gen, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/net-%06" PRId64 ".pt", r->dir, gen);
}

static void fmt_time(double s, char *buf, size_t cap)
{
    long t = (long)(s + 0.5);
    snprintf(buf, cap, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

/* Step 2: optimiser steps on the replay window. The number of steps keeps the sample:step
 * ratio (sample_reuse samples trained on per new sample); the fraction left over is carried
 * in st->step_carry, so small generations still train at the configured ratio on average. */
static int optimise(run_t *r, tch_net_t *net, tch_opt_t *opt, replay_t *rb, int64_t new_samples,
                    loop_state_t *st)
{
    if (replay_size(rb) < r->min_samples || replay_size(rb) == 0) {
        st->step_carry = 0;
        return HOYLE_OK;
    }
    double want = (double)new_samples * r->sample_reuse / r->batch + st->step_carry;
    int64_t steps = (int64_t)floor(want);
    st->step_carry = want - (double)steps;
    size_t B = (size_t)r->batch, A = (size_t)r->g->num_actions;
    float *obs = malloc(sizeof(float) * B * (size_t)game_obs_size(r->g));
    float *pi = malloc(sizeof(float) * B * A), *z = malloc(sizeof(float) * B);
    uint8_t *legal = malloc(B * A);
    int status =
        obs && pi && z && legal ? HOYLE_OK : hoyle_error(HOYLE_ENOMEM, "train: out of memory");
    /* minibatches from (seed, generation) alone: a resumed run draws the same ones */
    rng_t rng;
    rng_init(&rng, rng_mix(r->seed ^ rng_mix(0x7472ULL + (uint64_t)st->generation)));
    double sp = 0, sv = 0, stot = 0;
    int64_t done = 0;
    for (int64_t k = 0; k < steps && status == HOYLE_OK; k++) {
        tch_losses_t loss;
        status = replay_sample(rb, &rng, r->batch, obs, pi, legal, z);
        if (!status) status = tch_train_step(net, opt, obs, pi, legal, z, r->batch, &loss);
        if (!status) {
            sp += loss.policy;
            sv += loss.value;
            stot += loss.total;
            done++;
        }
    }
    if (done > 0) { /* a generation without steps keeps the previous losses */
        st->loss_policy = sp / (double)done;
        st->loss_value = sv / (double)done;
        st->loss_total = stot / (double)done;
    }
    st->steps += done;
    free(obs);
    free(pi);
    free(z);
    free(legal);
    return status;
}

/* Number the games of a collected set st->games, st->games + 1, ... in the order of their
 * first sample (actors number theirs apart from each other, and a batch interleaves the
 * samples of its parallel games; a run's shards number its games in sequence, as one process
 * does). */
typedef struct id_pair {
    int64_t id, first;
} id_pair_t;

static int by_id(const void *a, const void *b)
{
    const id_pair_t *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id ? 1 : (x->first > y->first) - (x->first < y->first);
}

static int by_first(const void *a, const void *b)
{
    const id_pair_t *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

static int renumber_games(sample_set_t *set, int64_t first)
{
    if (set->n == 0) return HOYLE_OK;
    id_pair_t *p = malloc(sizeof *p * (size_t)set->n);
    if (p == NULL) return hoyle_error(HOYLE_ENOMEM, "train: out of memory");
    for (int64_t i = 0; i < set->n; i++) p[i] = (id_pair_t){set->game_id[i], i};
    qsort(p, (size_t)set->n, sizeof *p, by_id);
    int64_t u = 0; /* the distinct ids, each with its first sample */
    for (int64_t i = 0; i < set->n; i++)
        if (i == 0 || p[i].id != p[u - 1].id) p[u++] = p[i];
    qsort(p, (size_t)u, sizeof *p, by_first);
    /* p[k].id gets number first + k; `first` (the sample index) is reused for the number */
    for (int64_t k = 0; k < u; k++) p[k].first = first + k;
    qsort(p, (size_t)u, sizeof *p, by_id);
    for (int64_t i = 0; i < set->n; i++) {
        id_pair_t key = {set->game_id[i], 0}, *hit = NULL;
        int64_t lo = 0, hi = u - 1;
        while (lo <= hi && hit == NULL) {
            int64_t mid = lo + (hi - lo) / 2;
            if (p[mid].id == key.id)
                hit = &p[mid];
            else if (p[mid].id < key.id)
                lo = mid + 1;
            else
                hi = mid - 1;
        }
        CHECK(hit != NULL); /* every id of the set is in p */
        set->game_id[i] = hit->first;
    }
    free(p);
    return HOYLE_OK;
}

/* Carried games (selfplay.carry) finish in another order than they started: number the
 * generation's games first, first + 1, ... in the order they finished (the order of
 * `games`, whose samples are contiguous and in the same order in `set`). */
static void renumber_carried(sample_set_t *set, selfplay_games_t *games, int64_t first)
{
    int64_t j = 0;
    for (int64_t i = 0; i < set->n; i++) {
        while (j < games->n && games->game[j].game_id != set->game_id[i]) j++;
        CHECK(j < games->n); /* every sample's game finished in this run */
        set->game_id[i] = first + j;
    }
    for (int64_t k = 0; k < games->n; k++) games->game[k].game_id = first + k;
}

/* What a generation measured besides the losses (train.csv's later columns). */
typedef struct gen_log {
    double selfplay_seconds, optimise_seconds, eval_seconds;
    uint64_t forwards, forwarded, cache_hits; /* over the workers' evaluators */
    double entropy, kl;                       /* mean over the new samples (policy_stats) */
    tch_losses_t heldout;                     /* the held-out set with the new net */
} gen_log_t;

/* The new samples' targets against the net that played them: the mean entropy of the
 * policy targets and the mean KL(target || net policy over the legal actions). */
static int policy_stats(const run_t *r, tch_net_t *net, const sample_set_t *set, gen_log_t *gl)
{
    enum { CHUNK = 256 };
    size_t A = (size_t)r->g->num_actions, O = (size_t)set->obs_size;
    float *logits = malloc(sizeof(float) * CHUNK * A);
    if (logits == NULL) return hoyle_error(HOYLE_ENOMEM, "train: out of memory");
    double h = 0, kl = 0;
    int status = HOYLE_OK;
    for (int64_t at = 0; at < set->n && !status; at += CHUNK) {
        int n = set->n - at < CHUNK ? (int)(set->n - at) : CHUNK;
        status = tch_forward(net, set->obs + (size_t)at * O, n, logits, NULL);
        for (int b = 0; b < n && !status; b++) {
            const float *lg = logits + (size_t)b * A, *pi = set->policy + (size_t)(at + b) * A;
            const uint8_t *legal = set->legal + (size_t)(at + b) * A;
            double top = -INFINITY, z = 0;
            for (size_t a = 0; a < A; a++)
                if (legal[a]) top = fmax(top, lg[a]);
            for (size_t a = 0; a < A; a++)
                if (legal[a]) z += exp(lg[a] - top);
            for (size_t a = 0; a < A; a++) {
                if (!legal[a] || pi[a] <= 0) continue;
                double logq = lg[a] - top - log(z);
                h -= pi[a] * log(pi[a]);
                kl += pi[a] * (log(pi[a]) - logq);
            }
        }
    }
    free(logits);
    gl->entropy = set->n > 0 ? h / (double)set->n : 0;
    gl->kl = set->n > 0 ? kl / (double)set->n : 0;
    return status;
}

/* The columns of train.csv after the first twelve (docs/training.md, "Files of a run"). */
#define TRAIN_CSV_MORE                                                                             \
    "wins_first,wins_second,draws,resigned,truncated,mean_game_length,cache_hit_rate,"             \
    "mean_forward_batch,selfplay_seconds,optimise_seconds,eval_seconds,lr,policy_entropy,"         \
    "policy_kl_prior,heldout_loss_policy,heldout_loss_value"

static int log_more(loop_log_t *log, const selfplay_stats_t *ss, const gen_log_t *gl, double lr,
                    bool heldout)
{
    double hit = ss->evaluations ? (double)gl->cache_hits / (double)ss->evaluations : 0;
    double fb = gl->forwards ? (double)gl->forwarded / (double)gl->forwards : 0;
    double len = ss->games ? (double)ss->game_actions / (double)ss->games : 0;
    char hp[32] = "", hv[32] = ""; /* empty without a held-out set */
    if (heldout) {
        snprintf(hp, sizeof hp, "%.5f", gl->heldout.policy);
        snprintf(hv, sizeof hv, "%.5f", gl->heldout.value);
    }
    return loop_log_add(log,
                        "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
                        ",%.2f,%.4f,%.1f,%.2f,%.2f,%.2f,%.3g,%.4f,%.4f,%s,%s\n",
                        ss->wins[0], ss->wins[1], ss->draws, ss->resigned, ss->truncated, len, hit,
                        fb, gl->selfplay_seconds, gl->optimise_seconds, gl->eval_seconds, lr,
                        gl->entropy, gl->kl, hp, hv);
}

/* Before the first generation: the self-play session when `session` (its workers and, with
 * selfplay.carry, the games they carry between generations; a resumed run starts with none in
 * flight; actor runs have none) and the held-out set RUN/heldout.h5, played once by net 0 with a
 * seed of its own and never trained on. */
static int selfplay_start(run_t *r, tch_net_t *net, bool session)
{
    selfplay_params_t sp = r->sp;
    sp.seed = rng_mix(r->seed ^ 0x53455353ULL);
    sp.first_game_id = 0;
    int status =
        session ? selfplay_session_create(r->g, &sp, r->sp.threads, &r->session) : HOYLE_OK;
    sample_set_init(&r->heldout, r->g->obs_shape, r->g->num_actions);
    char path[1200];
    snprintf(path, sizeof path, "%s/games", r->dir);
    if (!status) status = loop_make_dir(path);
    if (status || r->heldout_games == 0) return status;
    snprintf(path, sizeof path, "%s/heldout.h5", r->dir);
    if (access(path, F_OK) == 0) return samples_read_shard(path, &r->heldout, NULL);
    /* net-000000.pt as saved (the caller's net has not trained yet on a fresh run) */
    char net0[1200];
    net_path(r, 0, net0, sizeof net0);
    tch_net_t *first = NULL;
    evaluator_t *e = NULL;
    status = tch_load(net0, &first, NULL);
    if (!status) status = net_evaluator_create(r->g, first, sp.parallel * sp.search.batch, 0, &e);
    sp.games = r->heldout_games;
    sp.seed = rng_mix(r->seed ^ 0x484f4c44ULL);
    sp.first_game_id = -(int64_t)r->heldout_games; /* apart from the run's game ids */
    selfplay_stats_t ss;
    if (!status) status = selfplay_run(r->g, e, &sp, &r->heldout, &ss, NULL, NULL);
    samples_meta_t meta = {.game_spec = r->g->spec,
                           .params = r->sp_canon,
                           .network_id = "net-000000.pt",
                           .config = r->config_text,
                           .games = ss.games};
    if (!status) status = samples_write_shard(path, &r->heldout, &meta);
    evaluator_free(e);
    tch_net_free(first);
    (void)net;
    return status;
}

static int generation(run_t *r, tch_net_t *net, tch_opt_t *opt, replay_t *rb, loop_state_t *st,
                      const train_actors_t *actors, loop_log_t *logs, FILE *progress,
                      train_summary_t *out)
{
    double t0 = clock_seconds();
    int64_t gen = st->generation;
    char path[1200], shard[1200], netid[64];
    /* 1. self-play with net-G (here, or by the actors with nets G - stale .. G): one evaluator
     * per worker over the same net, libtorch on one thread per worker */
    int T = r->sp.threads, status = HOYLE_OK;
    evaluator_t *evals[64] = {NULL};
    for (int i = 0; !actors && !status && i < T; i++)
        status = net_evaluator_create(r->g, net, r->sp.parallel * r->sp.search.batch,
                                      T > 1 ? r->cache / T : r->cache, &evals[i]);
    if (!status && !actors && T > 1) status = tch_set_threads(1);
    selfplay_games_t games = {0};
    sample_set_t set;
    sample_set_init(&set, r->g->obs_shape, r->g->num_actions);
    selfplay_params_t sp = r->sp;
    sp.seed = rng_mix(r->seed ^ rng_mix(0x5350ULL + (uint64_t)gen));
    sp.first_game_id = st->games;
    selfplay_stats_t ss = {0};
    selfplay_progress_t spp = {.total = sp.games};
    char label[64];
    snprintf(label, sizeof label, "[selfplay] gen %" PRId64, gen + 1);
    progress_start(&spp.pg, progress, label, "games", 0);
    progress_defer(&spp.pg); /* a short generation adds only its summary line to a log */
    int64_t stale = 0;
    if (!status && actors) {
        memset(&ss, 0, sizeof ss);
        double c0 = clock_seconds();
        status = actors->collect(actors->ctx, gen - r->stale, sp.games, &set, &ss, &stale);
        if (!status) status = renumber_games(&set, st->games);
        if (progress && !status)
            progress_note(&spp.pg,
                          "[selfplay] gen %" PRId64 ": %" PRId64 " games, %" PRId64
                          " samples from the actors, waited %.1f s (%" PRId64
                          " stale samples dropped)",
                          gen + 1, ss.games, set.n, clock_seconds() - c0, stale);
    } else if (!status) {
        status = selfplay_session_run(r->session, evals, &sp, &set, &games, &ss,
                                      progress ? selfplay_progress_line : NULL, &spp);
        if (!status && r->sp.carry) renumber_carried(&set, &games, st->games);
        if (T > 1) { /* the optimiser's threads again */
            int s2 = tch_set_threads(r->threads);
            if (!status) status = s2;
        }
    }
    /* actor runs: the counts the actors sent with their samples (0 in-process) */
    gen_log_t gl = {.selfplay_seconds = clock_seconds() - t0,
                    .forwards = ss.forwards,
                    .forwarded = ss.forwarded,
                    .cache_hits = ss.cache_hits};
    for (int i = 0; i < T; i++) {
        if (evals[i] == NULL) continue;
        uint64_t positions = 0;
        gl.forwards += net_evaluator_forwards(evals[i], &positions);
        gl.forwarded += positions;
        gl.cache_hits += net_evaluator_cache_hits(evals[i]);
        evaluator_free(evals[i]);
    }
    if (!status) status = policy_stats(r, net, &set, &gl);
    snprintf(path, sizeof path, "%s/samples", r->dir);
    snprintf(netid, sizeof netid, "net-%06" PRId64 ".pt", gen);
    samples_meta_t meta = {.game_spec = r->g->spec,
                           .params = r->sp_canon,
                           .network_id = netid,
                           .config = r->config_text,
                           .generation = gen,
                           .games = ss.games};
    if (!status) status = replay_shard_path(path, (int)gen, shard, sizeof shard);
    if (!status) status = samples_write_shard(shard, &set, &meta);
    if (!status && !actors) { /* the games themselves, for hoyle show / report */
        char agent[96];
        snprintf(path, sizeof path, "%s/games/gen-%06" PRId64 ".h5", r->dir, gen);
        snprintf(agent, sizeof agent, "selfplay(net=%s)", netid);
        status = selfplay_games_write(path, r->g, &games, agent, (int32_t)gen, r->config_text);
    }
    selfplay_games_done(&games);
    int64_t new_samples = set.n;
    sample_set_done(&set);
    /* 2. train on the window */
    double t_opt = clock_seconds();
    if (!status) status = replay_add_shard(rb, shard);
    if (!status) status = optimise(r, net, opt, rb, new_samples, st);
    gl.optimise_seconds = clock_seconds() - t_opt;
    if (!status && r->heldout.n > 0)
        status =
            tch_eval_losses(net, &r->opt_cfg, r->heldout.obs, r->heldout.policy, r->heldout.legal,
                            r->heldout.value, (int)r->heldout.n, &gl.heldout);
    /* 3. the new net */
    st->generation = gen + 1;
    st->games += ss.games;
    st->samples += new_samples;
    net_path(r, gen + 1, path, sizeof path);
    if (!status) status = tch_save(net, opt, path);
    if (!status && actors) status = actors->publish(actors->ctx, gen + 1, path);
    /* 4. evaluation */
    loop_eval_out_t ev = {.score_prev = -1, .score_base = -1};
    bool evaluated = false;
    double t_eval = clock_seconds();
    if (!status && r->eval.every > 0 && st->generation % r->eval.every == 0) {
        /* the previous evaluated net (generation 0 is always evaluated, see train_run) */
        int64_t prev = st->generation - r->eval.every;
        status = loop_evaluate(r->g, r->dir, &r->eval, st->generation, prev,
                               st->seconds + clock_seconds() - t0, rng_mix(r->seed + (uint64_t)gen),
                               &logs[1], &logs[2], progress, &ev);
        evaluated = true;
    }
    gl.eval_seconds = clock_seconds() - t_eval;
    st->seconds += clock_seconds() - t0;
    if (!status)
        status = loop_log_add(
            &logs[0],
            "%" PRId64 ",%.1f,%" PRId64 ",%" PRId64 ",%" PRId64 ",%.5f,%.5f,%.5f,"
            "%.1f,%.1f,%" PRId64 ",%" PRId64 ",",
            st->generation, st->seconds, st->games, st->samples, st->steps, st->loss_policy,
            st->loss_value, st->loss_total, (double)ss.evaluations / fmax(ss.seconds, 1e-9),
            (double)new_samples / fmax(ss.seconds, 1e-9), ss.resign_checks, ss.false_resigns);
    if (!status) status = log_more(&logs[0], &ss, &gl, tch_opt_lr(opt), r->heldout.n > 0);
    if (!status) status = loop_log_save(&logs[0]);
    /* 5. the generation is done */
    snprintf(path, sizeof path, "%s/state.txt", r->dir);
    if (!status) status = loop_state_save(path, st);
    /* retention, once state.txt no longer needs the older nets (actors may lag train.stale) */
    if (!status)
        status = loop_prune_nets(r->dir, st->generation, r->keep_every,
                                 r->keep_last > r->stale ? r->keep_last : r->stale + 1, &r->eval);
    if (status) return status;
    if (evaluated) {
        out->elo = ev.elo;
        out->elo_generation = st->generation;
    }
    if (progress) {
        char el[32], eta[32];
        /* ETA: the mean time per generation so far, capped by train.minutes */
        double left =
            (double)(r->generations - st->generation) * st->seconds / (double)st->generation;
        if (r->minutes > 0) left = fmin(left, r->minutes * 60 - st->seconds);
        fmt_time(st->seconds, el, sizeof el);
        fmt_time(fmax(left, 0), eta, sizeof eta);
        char line[512];
        int n = snprintf(
            line, sizeof line,
            "gen %" PRId64 " | games %" PRId64 " | samples %" PRId64 " | steps %" PRId64
            " | loss %.3f (policy %.3f value %.3f) | %.0f evals/s %.0f pos/s",
            st->generation, st->games, st->samples, st->steps, st->loss_total, st->loss_policy,
            st->loss_value, (double)ss.evaluations / fmax(ss.seconds, 1e-9),
            (double)ss.full_searches / fmax(ss.seconds, 1e-9));
        if (out->elo_generation >= 0 && n < (int)sizeof line)
            n += snprintf(line + n, sizeof line - (size_t)n, " | elo %+.0f (net %" PRId64 ")",
                          out->elo, out->elo_generation);
        if (evaluated && n < (int)sizeof line)
            n += snprintf(line + n, sizeof line - (size_t)n, " | vs prev %.2f vs baseline %.2f",
                          ev.score_prev, ev.score_base);
        if (n < (int)sizeof line)
            snprintf(line + n, sizeof line - (size_t)n, " | %s elapsed, ETA %s", el, eta);
        progress_note(&spp.pg, "%s", line);
    }
    return HOYLE_OK;
}

static int start(run_t *r, loop_state_t *st, tch_net_t **net, tch_opt_t **opt, int *resumed)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/samples", r->dir);
    int status = loop_make_dir(path);
    snprintf(path, sizeof path, "%s/state.txt", r->dir);
    if (!status) status = loop_state_load(path, st);
    if (status < 0) return status;
    *resumed = status == 0;
    if (*resumed && (status = check_resume(r, st->generation))) return status;
    if (status == 1) { /* fresh run: net 0 and the config */
        memset(st, 0, sizeof *st);
        char at[1400];
        loop_key_at(r->cfg, "train.init_from", at, sizeof at);
        status = r->init_from[0] ? loop_warm_start(at, r->init_from, &r->net_cfg, net)
                                 : tch_net_create(&r->net_cfg, r->seed, net);
        if (status) return status;
        if ((status = tch_opt_create(*net, &r->opt_cfg, opt))) return status;
        net_path(r, 0, path, sizeof path);
        if ((status = tch_save(*net, *opt, path))) return status;
        snprintf(path, sizeof path, "%s/config.yaml", r->dir);
        return loop_write_atomic(path, r->config_text, strlen(r->config_text));
    }
    /* resume: the newest finished net, with its optimiser state (momenta, step count) */
    net_path(r, st->generation, path, sizeof path);
    if ((status = tch_load(path, net, opt))) return status;
    tch_net_config_t have;
    tch_net_get_config(*net, &have);
    if ((status = net_config_check(r->g, &have))) return status;
    if (*opt == NULL) return tch_opt_create(*net, &r->opt_cfg, opt); /* saved without one */
    /* the config's hyper-parameters (--set optim.lr=... included), the checkpoint's state */
    if (tch_opt_set_config(*opt, &r->opt_cfg)) return hoyle_error_prefix(HOYLE_EINVAL, "%s", path);
    return HOYLE_OK;
}

int train_run(const char *path, char *const *sets, int num_sets, FILE *progress,
              train_summary_t *out)
{
    return train_run_learner(path, sets, num_sets, progress, NULL, out);
}

int train_run_learner(const char *path, char *const *sets, int num_sets, FILE *progress,
                      const train_actors_t *actors, train_summary_t *out)
{
    run_t r;
    memset(&r, 0, sizeof r);
    memset(out, 0, sizeof *out);
    out->elo_generation = -1;
    r.lock_fd = -1;
    int status = load_config(&r, path, sets, num_sets);
    if (!status) status = train_register_agents(); /* evaluation plays `az` agents */
    if (!status) status = check_run(&r);           /* every error so far: nothing written */
    train_actors_t local = {0}; /* selfplay.processes: the learner's own actor processes */
    if (!status && r.processes > 0) {
        char at[1400];
        loop_key_at(r.cfg, "selfplay.processes", at, sizeof at);
        if (actors)
            status = hoyle_error(HOYLE_EINVAL,
                                 "%s: %d, but the games are played by actors already "
                                 "(--external-actors or mpirun): use one of them",
                                 at, r.processes);
        else if (!(status = train_local_actors(r.processes, &local)))
            actors = &local;
    }
    if (!status) status = tch_set_threads(r.threads);
    if (!status) status = loop_lock_dir(r.dir, &r.lock_fd);
    loop_state_t st;
    tch_net_t *net = NULL;
    tch_opt_t *opt = NULL;
    replay_t rb;
    memset(&rb, 0, sizeof rb);
    loop_log_t logs[3];
    memset(logs, 0, sizeof logs);
    int resumed = 0;
    if (!status) status = start(&r, &st, &net, &opt, &resumed);
    char p[1200];
    /* the actors start from the newest finished net */
    net_path(&r, st.generation, p, sizeof p);
    if (!status && actors) status = actors->publish(actors->ctx, st.generation, p);
    if (!status) status = replay_init(&rb, r.g, r.window_samples, r.window_games, r.augment);
    if (!status && r.growing)
        status = replay_set_growing(&rb, r.window_min, r.window_alpha, r.window_beta);
    if (!status) status = selfplay_start(&r, net, actors == NULL);
    snprintf(p, sizeof p, "%s/samples", r.dir);
    if (!status) status = replay_load_dir(&rb, p, (int)st.generation);
    const char *names[3] = {"train.csv", "eval_games.csv", "eval.csv"};
    const char *headers[3] = {
        "generation,seconds,games,samples,steps,loss_policy,loss_value,loss_total,"
        "selfplay_evals_per_s,selfplay_samples_per_s,resign_checks,false_resigns," TRAIN_CSV_MORE
        "\n",
        "generation,opponent,seat,score,opening\n",
        "generation,seconds,opponent,games,score,elo_diff,elo_diff_low,elo_diff_high,sprt,llr\n"};
    for (int k = 0; k < 3 && !status; k++) {
        snprintf(p, sizeof p, "%s/%s", r.dir, names[k]);
        status = loop_log_open(&logs[k], p, headers[k], st.generation);
    }
    /* a run made before the later columns: its header gets them (its old rows stay short) */
    size_t h0 = strlen(headers[0]);
    if (!status && (logs[0].len < h0 || memcmp(logs[0].text, headers[0], h0) != 0)) {
        const char *nl = memchr(logs[0].text, '\n', logs[0].len);
        size_t old = nl ? (size_t)(nl - logs[0].text) + 1 : logs[0].len;
        loop_log_t fixed = {.text = NULL};
        snprintf(fixed.path, sizeof fixed.path, "%s", logs[0].path);
        status = loop_log_add(&fixed, "%s", headers[0]);
        if (!status && logs[0].len > old)
            status = loop_log_add(&fixed, "%.*s", (int)(logs[0].len - old), logs[0].text + old);
        loop_log_done(&logs[0]);
        logs[0] = fixed;
    }
    /* the header first: net 0's games against the baseline below can take minutes */
    if (progress && !status) {
        fprintf(progress, "train %s: %s, net %d blocks x %d filters, %s, generation %" PRId64 "\n",
                r.dir, r.g->spec, r.net_cfg.blocks, r.net_cfg.filters,
                resumed ? "resumed" : "new run", st.generation);
        fflush(progress);
    }
    /* net 0 against the baseline, so that the Elo scale starts at the untrained net; its time
     * counts in the run's elapsed time (st.seconds) */
    if (!status && st.generation == 0 && r.eval.every > 0) {
        loop_eval_out_t ev;
        double t0 = clock_seconds();
        if (progress) {
            fprintf(progress, "gen 0 | net 0 plays the baseline %s: %d games\n", r.eval.baseline,
                    r.eval.games);
            fflush(progress);
        }
        status = loop_evaluate(r.g, r.dir, &r.eval, 0, -1, 0, rng_mix(r.seed ^ 0xe0), &logs[1],
                               &logs[2], progress, &ev);
        if (!status) out->elo_generation = 0;
        st.seconds += clock_seconds() - t0;
        if (progress && !status) {
            char el[32];
            fmt_time(st.seconds, el, sizeof el);
            fprintf(progress, "gen 0 | elo +0 (net 0) | vs baseline %.2f | %s elapsed\n",
                    ev.score_base, el);
            fflush(progress);
        }
    }
    while (!status && st.generation < r.generations &&
           (r.minutes <= 0 || st.seconds < r.minutes * 60))
        status = generation(&r, net, opt, &rb, &st, actors, logs, progress, out);
    if (actors) actors->stop(actors->ctx);
    train_local_actors_free(&local);
    if (!status) {
        snprintf(out->output, sizeof out->output, "%s", r.dir);
        out->generation = st.generation;
        out->steps = st.steps;
        out->games = st.games;
        out->samples = st.samples;
        out->loss_policy = st.loss_policy;
        out->loss_value = st.loss_value;
        out->loss_total = st.loss_total;
        out->seconds = st.seconds;
        out->resumed = resumed;
    }
    for (int k = 0; k < 3; k++) loop_log_done(&logs[k]);
    replay_done(&rb);
    tch_opt_free(opt);
    tch_net_free(net);
    run_free(&r);
    if (r.lock_fd >= 0) close(r.lock_fd); /* last: releases the folder */
    return status;
}

int train_run_actor(const char *path, char *const *sets, int num_sets, int actor,
                    const train_actor_io_t *io, FILE *progress)
{
    run_t r;
    memset(&r, 0, sizeof r);
    r.lock_fd = -1;
    /* The learner checks the config and owns the folder; an actor only reads the keys. */
    int status = load_config(&r, path, sets, num_sets);
    if (!status) status = tch_set_threads(r.threads);
    tch_net_t *net = NULL;
    evaluator_t *e = NULL;
    sample_set_t set;
    bool have_set = status == 0;
    if (have_set) sample_set_init(&set, r.g->obs_shape, r.g->num_actions);
    /* one worker's session: with selfplay.carry the games unfinished at the end of a batch
     * continue in the next one; game ids are numbered apart from every other actor's
     * (actor << 40) */
    selfplay_session_t *session = NULL;
    if (!status) {
        selfplay_params_t sp = r.sp;
        sp.seed = rng_mix(r.seed ^ rng_mix(0x4153ULL + ((uint64_t)actor << 32)));
        sp.first_game_id = (int64_t)actor << 40;
        status = selfplay_session_create(r.g, &sp, 1, &session);
    }
    selfplay_games_t games = {0};
    int64_t have = -1, batches = 0;
    char file[1200], agent[96];
    while (!status) {
        /* the newest net: wait for the first one, then take a newer one between batches */
        int64_t gen;
        int got = io->fetch(io->ctx, have < 0, have, &gen, file, sizeof file);
        if (got == 1 || got < 0) {
            status = got < 0 ? got : HOYLE_OK;
            break;
        }
        if (got == 0) {
            tch_net_t *next = NULL;
            status = tch_load(file, &next, NULL);
            if (status) break;
            tch_net_config_t have_cfg;
            tch_net_get_config(next, &have_cfg);
            if ((status = net_config_check(r.g, &have_cfg))) {
                tch_net_free(next);
                break;
            }
            evaluator_free(e);
            e = NULL;
            tch_net_free(net);
            net = next;
            have = gen;
            status = net_evaluator_create(r.g, net, r.sp.parallel * r.sp.search.batch, r.cache, &e);
            if (status) break;
        }
        /* one batch of finished games, the games started in it seeded by (seed, actor, batch) */
        selfplay_params_t sp = r.sp;
        sp.games = r.actor_games;
        sp.seed =
            rng_mix(r.seed ^ rng_mix(0x4143ULL + ((uint64_t)actor << 32) + (uint64_t)batches));
        selfplay_stats_t ss;
        sample_set_clear(&set);
        selfplay_games_done(&games);
        uint64_t hits0 = net_evaluator_cache_hits(e), pos0 = 0, pos1 = 0;
        uint64_t calls0 = net_evaluator_forwards(e, &pos0);
        status = selfplay_session_run(session, &e, &sp, &set, io->record ? &games : NULL, &ss, NULL,
                                      NULL);
        /* this batch's share of the evaluator's counts, for the learner's train.csv */
        ss.forwards = net_evaluator_forwards(e, &pos1) - calls0;
        ss.forwarded = pos1 - pos0;
        ss.cache_hits = net_evaluator_cache_hits(e) - hits0;
        snprintf(agent, sizeof agent, "selfplay(net=net-%06" PRId64 ".pt)", have);
        if (!status && io->record)
            status = io->record(io->ctx, have, r.g, &games, agent, r.config_text);
        if (!status) status = io->send(io->ctx, have, &set, &ss);
        batches++;
        if (progress && !status) {
            fprintf(progress,
                    "[actor %d] batch %" PRId64 ": %" PRId64 " games, %" PRId64
                    " samples with net %" PRId64 " (%.0f pos/s)\n",
                    actor, batches, ss.games, set.n, have,
                    (double)ss.full_searches / fmax(ss.seconds, 1e-9));
            fflush(progress);
        }
    }
    if (have_set) sample_set_done(&set);
    selfplay_games_done(&games);
    selfplay_session_free(session);
    evaluator_free(e);
    tch_net_free(net);
    run_free(&r);
    return status;
}
