/* cmd_selfplay.c — `hoyle selfplay GAME [PARAMS]`: self-play games with a
 * network (--model, libtorch builds) or a stand-in evaluator (fake network,
 * rollouts), samples optionally written to an HDF5 shard, and throughput
 * figures: evaluations/s inside self-play and, with --model --bench, a raw
 * forward of the same net replaying the batch sizes self-play produced. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apps/cli.h"
#include "apps/cli_record.h"
#include "core/rng.h"
#include "train/selfplay.h"
#include "train/tch/tch.h" /* plain C: tch_net_t is opaque; only libtorch builds call it */
#ifdef HOYLE_TORCH
#include "train/actors_dir.h"
#include "train/net_eval.h"
#endif

static const char help[] =
    "usage: hoyle selfplay GAME [PARAMS] [--model PATH | --eval fake|rollout|heuristic]\n"
    "                      [--output FILE.h5 [--force]] [--seed S] [--cache N] [--threads N]\n"
    "                      [--bench [--bench-seconds S]] [--record OUT] [--json]\n"
    "       hoyle selfplay --model-dir RUN [--output-dir RUN] [--actor N] [--threads N]\n"
    "                      [--quiet]\n\n"
    "Play self-play games (train/selfplay.h) and report games, samples and\n"
    "throughput. PARAMS is 'key=value,...' over the keys listed below.\n"
    "With --model-dir, be an actor of the training run in folder RUN (started by\n"
    "`hoyle train CONFIG --external-actors`): play batches with its newest net,\n"
    "leave them in RUN/incoming/ and their game records in RUN/games/, stop when\n"
    "the run ends (docs/scaling.md). --threads there replaces the run's train.threads.\n"
    "--record OUT stores the games: OUT.h5 as HDF5 game records (the page's Replay\n"
    "reads them; both seats are the same player, so they are not rated), any other\n"
    "name as PGN/PDN.\n";

/* --record: the finished games, both seats "selfplay(EVALUATOR)". */
static int record_games(cli_record_t *r, const selfplay_games_t *gs, const game_t *g,
                        const char *evaluator)
{
    char who[300];
    snprintf(who, sizeof who, "selfplay(%s)", evaluator);
    int status = HOYLE_OK;
    for (int64_t i = 0; i < gs->n && status == HOYLE_OK; i++) {
        const selfplay_game_t *sg = &gs->game[i];
        game_record_t rec = {.agent_spec = {who, g->num_players == 2 ? who : NULL},
                             .returns = {sg->returns[0], g->num_players == 2 ? sg->returns[1] : 0},
                             .end = (record_end_t)sg->end,
                             .num_actions = sg->num_actions,
                             .actions = sg->actions,
                             .seed = sg->seed,
                             .round = (int32_t)i + 1,
                             .game_index = (int32_t)(sg->game_id & INT32_MAX)};
        status = cli_record_add(r, &rec, NULL);
    }
    return status;
}

/* The PARAMS keys, after the option list. */
static void print_params(void)
{
    char keys[4096];
    if (params_describe(selfplay_param_defs, keys, sizeof keys) < 0) keys[0] = '\0';
    printf("\nPARAMS keys:\n%s", keys);
}

/* Whether `path` can take a new shard, checked before any game is played: its folder exists
 * and is writable, it is not a folder, and it does not exist yet unless `force` (then it is
 * replaced). Prints one line and returns EXIT_USAGE when not; EXIT_OK when it can. */
static int check_output(const char *path, bool force)
{
    struct stat st;
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (path[0] == '\0') return cli_usage_error("selfplay", "--output: empty file name");
    if (snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1,
                 slash ? path : ".") >= (int)sizeof dir)
        return cli_usage_error("selfplay", "--output '%s': path too long", path);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return cli_usage_error("selfplay", "--output '%s': no folder '%s'", path, dir);
    if (access(dir, W_OK | X_OK) != 0)
        return cli_usage_error("selfplay", "--output '%s': folder '%s' is not writable: %s", path,
                               dir, strerror(errno));
    if (stat(path, &st) != 0) return EXIT_OK;
    if (S_ISDIR(st.st_mode)) return cli_usage_error("selfplay", "--output '%s': is a folder", path);
    if (!force)
        return cli_usage_error("selfplay", "--output '%s': the file exists (--force replaces it)",
                               path);
    if (!S_ISREG(st.st_mode))
        return cli_usage_error("selfplay", "--output '%s': not a regular file", path);
    return EXIT_OK;
}

#ifdef HOYLE_TORCH
/* One side of the --bench comparison: wall and CPU time, context switches, positions. */
typedef struct phase {
    double wall, user, sys;
    long switches;
    uint64_t positions;
} phase_t;

static void usage_now(double *user, double *sys, long *switches)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
    *sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    *switches = ru.ru_nvcsw + ru.ru_nivcsw;
}

/* Mark the start (sign -1) or the end (sign +1) of a phase: adds the CPU time and switches
 * between the two calls to *ph. */
static void phase_mark(phase_t *ph, int sign)
{
    double u, s;
    long c;
    usage_now(&u, &s, &c);
    ph->user += sign * u;
    ph->sys += sign * s;
    ph->switches += sign * c;
}

static double rate(const phase_t *ph)
{
    return ph->wall > 0 ? (double)ph->positions / ph->wall : 0;
}

static void phase_json(json_t *j, const char *key, const phase_t *ph)
{
    json_open(j, key, '{');
    json_num(j, "seconds", "%.3f", ph->wall);
    json_num(j, "user_seconds", "%.3f", ph->user);
    json_num(j, "system_seconds", "%.3f", ph->sys);
    json_int(j, "context_switches", ph->switches);
    json_u64(j, "positions", ph->positions);
    json_num(j, "positions_per_s", "%.1f", rate(ph));
    json_close(j);
}

enum { BENCH_ROUNDS = 5 };

/* The bench's rounds: each one's ratio, and both sides added up over all of them. */
typedef struct bench {
    phase_t sp_all, raw_all;
    double ratio[BENCH_ROUNDS]; /* per round: self-play positions/s over raw positions/s */
    double median, pooled;
} bench_t;

static void phase_add(phase_t *to, const phase_t *ph)
{
    to->wall += ph->wall;
    to->user += ph->user;
    to->sys += ph->sys;
    to->switches += ph->switches;
    to->positions += ph->positions;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The raw side of one round: the round's forward calls (sizes[b] of batch b) replayed alone,
 * once, or again until `seconds` have passed. */
static int bench_raw(evaluator_t *e, const uint64_t *sizes, double seconds, uint64_t seed,
                     phase_t *raw)
{
    uint64_t pos;
    double secs;
    phase_mark(raw, -1);
    int status = net_evaluator_replay_sizes(e, sizes, seconds, seed, &pos, &secs);
    phase_mark(raw, +1);
    raw->wall += secs;
    raw->positions += pos;
    return status;
}

/* After the main games (which warm the net, the allocator and the cache up, and are not
 * timed here): BENCH_ROUNDS rounds, each the same games again (another seed, an empty cache,
 * samples not kept) and right after them a raw replay of that round's forward calls: the
 * same batch sizes in a random order, once (so the same positions), or again until
 * `seconds` have passed when given. A round's two sides run back to back, so a change in
 * the machine's load between rounds moves both; the median of the rounds' ratios is the
 * figure, the pooled rates beside it. */
static int bench_rounds(const game_t *g, evaluator_t *e, const selfplay_params_t *p, double seconds,
                        bench_t *b)
{
    int max_batch;
    const uint64_t *counts = net_evaluator_batch_sizes(e, &max_batch);
    uint64_t *sizes = malloc(sizeof *sizes * ((size_t)max_batch + 1));
    if (sizes == NULL) return hoyle_error(HOYLE_ENOMEM, "selfplay --bench: out of memory");
    int status = HOYLE_OK;
    for (int r = 0; r < BENCH_ROUNDS && status == HOYLE_OK; r++) {
        memcpy(sizes, counts, sizeof *sizes * ((size_t)max_batch + 1));
        selfplay_params_t q = *p;
        q.seed = rng_mix(p->seed + (uint64_t)r + 1);
        sample_set_t scratch;
        sample_set_init(&scratch, g->obs_shape, g->num_actions);
        selfplay_stats_t st;
        uint64_t before, after;
        net_evaluator_forwards(e, &before);
        net_evaluator_clear_cache(e);
        phase_t sp = {0}, raw = {0};
        phase_mark(&sp, -1);
        status = selfplay_run(g, e, &q, &scratch, &st, NULL, NULL);
        phase_mark(&sp, +1);
        sample_set_done(&scratch);
        net_evaluator_forwards(e, &after);
        sp.wall = st.seconds;
        sp.positions = after - before;
        for (int k = 0; k <= max_batch; k++) sizes[k] = counts[k] - sizes[k]; /* this round's */
        if (status == HOYLE_OK)
            status = bench_raw(e, sizes, seconds, rng_mix(p->seed ^ (0x52415752ULL + (uint64_t)r)),
                               &raw);
        if (status == HOYLE_OK) {
            b->ratio[r] = rate(&sp) / rate(&raw);
            phase_add(&b->sp_all, &sp);
            phase_add(&b->raw_all, &raw);
            fprintf(stderr, "[bench] round %d of %d: ratio %.3f\n", r + 1, BENCH_ROUNDS,
                    b->ratio[r]);
        }
    }
    free(sizes);
    if (status) return status;
    double sorted[BENCH_ROUNDS];
    memcpy(sorted, b->ratio, sizeof sorted);
    qsort(sorted, BENCH_ROUNDS, sizeof sorted[0], cmp_double);
    b->median = sorted[BENCH_ROUNDS / 2];
    b->pooled = rate(&b->sp_all) / rate(&b->raw_all);
    return HOYLE_OK;
}
#endif

/* Exit codes: 0 the games were played (and the shard written); 2 bad
 * usage, PARAMS, game, evaluator, output path or a model that will not load; 1 a
 * failure during self-play, the benchmark or the shard write. */
/* --model-dir: this process is an actor of the training run in model_dir (its game, net and
 * parameters come from the run, hence none of the options that set them). */
static int actor_mode(const char *model_dir, const char *output_dir, uint64_t actor,
                      uint64_t threads, bool quiet, bool other_options)
{
    if (!model_dir)
        return cli_usage_error("selfplay", "--output-dir, --actor and --quiet need --model-dir");
    if (other_options)
        return cli_usage_error("selfplay",
                               "--model-dir takes its game, net and parameters from "
                               "the run: no GAME, --model, --output, --bench, --record or --json");
#ifdef HOYLE_TORCH
    int id = actor ? (int)actor : (int)getpid();
    /* --threads: libtorch threads in place of the run's train.threads */
    if (train_run_dir_actor(model_dir, output_dir ? output_dir : model_dir, id, (int)threads,
                            quiet ? NULL : stderr))
        return cli_fail("selfplay", EXIT_FAILED);
    return EXIT_OK;
#else
    (void)output_dir;
    (void)actor;
    (void)threads;
    (void)quiet;
    return cli_usage_error("selfplay", "--model-dir needs a build with libtorch");
#endif
}

/* What a run measured, for the report. */
typedef struct outcome {
    const char *game, *canon;
    char eval_name[64];
    selfplay_stats_t st;
    double raw; /* --bench: the raw forward's positions/s (0: not measured) */
#ifdef HOYLE_TORCH
    bench_t bench; /* --bench: the paired rounds */
#endif
    double mean_batch, secs, eps_wall, eps_eval;
} outcome_t;

static void report_json(const outcome_t *o)
{
    const selfplay_stats_t *st = &o->st;
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "game", o->game);
    json_str(&j, "params", o->canon);
    json_str(&j, "evaluator", o->eval_name);
    json_int(&j, "games", st->games);
    json_int(&j, "actions", st->actions);
    json_int(&j, "samples", st->samples);
    json_open(&j, "wins", '[');
    json_int(&j, NULL, st->wins[0]);
    json_int(&j, NULL, st->wins[1]);
    json_close(&j);
    json_int(&j, "draws", st->draws);
    json_int(&j, "resigned", st->resigned);
    json_int(&j, "resign_checks", st->resign_checks);
    json_int(&j, "false_resigns", st->false_resigns);
    json_num(&j, "alpha", "%.4f", st->alpha);
    json_num(&j, "typical_legal", "%.2f", st->typical_legal);
    json_u64(&j, "evaluations", st->evaluations);
    json_u64(&j, "evaluator_calls", st->evaluator_calls);
    json_num(&j, "mean_batch", "%.1f", o->mean_batch);
    json_num(&j, "evals_per_s", "%.1f", o->eps_wall);
    json_num(&j, "evals_per_s_in_evaluator", "%.1f", o->eps_eval);
    json_num(&j, "raw_forward_evals_per_s", "%.1f", o->raw);
#ifdef HOYLE_TORCH
    if (o->raw > 0) {
        const bench_t *b = &o->bench;
        json_open(&j, "bench", '{');
        json_int(&j, "rounds", BENCH_ROUNDS);
        json_num(&j, "ratio", "%.4f", b->median);
        json_num(&j, "pooled_ratio", "%.4f", b->pooled);
        json_open(&j, "round_ratios", '[');
        for (int r = 0; r < BENCH_ROUNDS; r++) json_num(&j, NULL, "%.4f", b->ratio[r]);
        json_close(&j);
        phase_json(&j, "selfplay", &b->sp_all);
        phase_json(&j, "raw_forward", &b->raw_all);
        json_close(&j);
    }
#endif
    json_num(&j, "samples_per_s", "%.1f", (double)st->samples / o->secs);
    json_num(&j, "actions_per_s", "%.1f", (double)st->actions / o->secs);
    json_num(&j, "seconds", "%.3f", st->seconds);
    json_end(&j);
}

static void report_text(const outcome_t *o)
{
    const selfplay_stats_t *st = &o->st;
    printf("selfplay %s, %" PRId64 " games, %" PRId64 " actions, %" PRId64 " samples\n", o->game,
           st->games, st->actions, st->samples);
    printf("  results: first %" PRId64 ", second %" PRId64 ", draws %" PRId64 "; resigned %" PRId64
           ", false resigns %" PRId64 "/%" PRId64 "\n",
           st->wins[0], st->wins[1], st->draws, st->resigned, st->false_resigns, st->resign_checks);
    printf("  noise alpha %.4f (typical legal moves %.1f)\n", st->alpha, st->typical_legal);
    printf("  evaluations %" PRIu64 " in %" PRIu64 " calls (mean batch %.1f)\n", st->evaluations,
           st->evaluator_calls, o->mean_batch);
    printf("  %.0f evals/s in self-play (%.0f/s inside the evaluator)\n", o->eps_wall, o->eps_eval);
    printf("  %.1f samples/s, %.1f actions/s, %.2f s\n", (double)st->samples / o->secs,
           (double)st->actions / o->secs, st->seconds);
#ifdef HOYLE_TORCH
    if (o->raw > 0) {
        const bench_t *b = &o->bench;
        printf("  bench, %d paired rounds: network positions/s in self-play %.0f, raw forward "
               "of the same batch sizes %.0f (pooled %.3fx); per round",
               BENCH_ROUNDS, rate(&b->sp_all), o->raw, b->pooled);
        for (int r = 0; r < BENCH_ROUNDS; r++) printf(" %.3f", b->ratio[r]);
        printf("\n");
        const phase_t *ph[2] = {&b->sp_all, &b->raw_all};
        const char *name[2] = {"self-play", "raw forward"};
        for (int k = 0; k < 2; k++)
            printf("    %-11s %8.2f s wall, %8.2f s user, %6.2f s system, %ld context "
                   "switches, %" PRIu64 " positions\n",
                   name[k], ph[k]->wall, ph[k]->user, ph[k]->sys, ph[k]->switches,
                   ph[k]->positions);
        /* the figure to quote (issue 32): one number, its quotient spelled out */
        printf("  evaluator ratio %.3f = network positions/s inside self-play / raw forward "
               "of the same net and batch sizes, the median of %d paired rounds (cache hits "
               "on neither side; docs/training.md, \"Throughput: what to measure\")\n",
               b->median, BENCH_ROUNDS);
    }
#endif
}

/* The evaluator of the games: the net at `model` (libtorch; *net owns it) or the stand-in
 * named `eval`, able to take the pooled leaves of all p->parallel games in one call. */
static int open_evaluator(const game_t *g, const selfplay_params_t *p, const char *model,
                          const char *eval, uint64_t threads, uint64_t cache, uint64_t seed,
                          tch_net_t **net, evaluator_t **e)
{
    *net = NULL;
    *e = NULL;
#ifdef HOYLE_TORCH
    if (model) {
        if (threads > 0) tch_set_threads((int)threads);
        tch_net_t *n = NULL;
        int status = tch_load(model, &n, NULL);
        if (!status)
            /* The net evaluator batches the leaves of all p->parallel games at once,
             * hence its batch capacity. */
            status = net_evaluator_create(g, n, p->parallel * p->search.batch, (int)cache, e);
        if (status) {
            tch_net_free(n);
            return status;
        }
        *net = n;
    }
#else
    (void)model;
    (void)threads;
    (void)cache;
#endif
    /* The stand-in evaluator's own salted seed, apart from the games' streams. */
    if (*e == NULL && evaluator_create_named(g, eval, 1, rng_mix(seed ^ 0xe), e))
        return HOYLE_EINVAL;
    /* Pooled leaves of p->parallel games arrive in one call: a stand-in built
     * with a smaller max_batch would reject them. */
    if ((*e)->max_batch < p->parallel * p->search.batch)
        (*e)->max_batch = p->parallel * p->search.batch;
    return HOYLE_OK;
}

#ifdef HOYLE_TORCH
/* --bench, after the games: the paired rounds (bench_rounds); the raw forward replays the
 * forward calls self-play made (the same batch sizes, the cache's hits left out), so the two
 * rates compare the same network work with and without the search around it. */
static int bench_finish(const game_t *g, evaluator_t *e, const selfplay_params_t *p, double seconds,
                        outcome_t *o)
{
    int status = bench_rounds(g, e, p, seconds, &o->bench);
    o->raw = status ? 0 : rate(&o->bench.raw_all);
    return status;
}
#endif

/* --output: the samples as one shard; without --force, created (a file that appeared while
 * playing is kept). */
static int write_output(const char *output, bool force, const game_t *g, const char *canon,
                        const char *network_id, const sample_set_t *set, int64_t games)
{
    samples_meta_t meta = {.game_spec = g->spec,
                           .params = canon,
                           .network_id = network_id,
                           .config = "",
                           .generation = 0,
                           .games = games};
    return force ? samples_write_shard(output, set, &meta)
                 : samples_create_shard(output, set, &meta);
}

/* --bench-seconds: only with --bench; -1 (not given) becomes 0 (each round's calls replayed
 * once). CLI_CONTINUE or the exit code of a usage error. */
static int bench_seconds_check(bool bench, double *seconds)
{
    if (*seconds != -1 && !bench)
        return cli_usage_error("selfplay", "--bench-seconds needs --bench");
    if (*seconds == -1)
        *seconds = 0;
    else if (!(*seconds > 0 && *seconds <= 3600))
        return cli_usage_error("selfplay", "--bench-seconds %g: need 0 < S <= 3600", *seconds);
    return CLI_CONTINUE;
}

/* The rates of a finished run, then its report on stdout (--json: one object). */
static void report(outcome_t *o, bool json)
{
    const selfplay_stats_t *st = &o->st;
    /* Guards the rates against a zero-time run (tiny --games). */
    o->secs = st->seconds > 0 ? st->seconds : 1e-9;
    o->eps_wall = (double)st->evaluations / o->secs;
    o->eps_eval = st->eval_seconds > 0 ? (double)st->evaluations / st->eval_seconds : 0;
    if (json)
        report_json(o);
    else
        report_text(o);
}

int cmd_selfplay(int argc, char **argv)
{
    /* PARAMS is optional: pos[1] defaults to "", the selfplay defaults. */
    const char *pos[2] = {NULL, ""}, *model = NULL, *eval = "fake", *output = NULL,
               *record_path = NULL;
    const char *model_dir = NULL, *output_dir = NULL;
    uint64_t seed = 0, cache = 0, threads = 0, actor = 0; /* the rows give the defaults */
    bool json = false, bench = false, force = false, quiet = false;
    double bench_seconds = -1; /* -1: not given (one replay of each round's calls) */
    const cli_opt_t opts[] = {
        CLI_OPT("--model", &model, "PATH",
                "a net written by hoyle train (net-NNNNNN.pt); needs libtorch"),
        CLI_OPT("--eval", &eval, "NAME",
                "without --model: fake (seeded fake network, default), rollout or heuristic"),
        CLI_OPT("--output", &output, "FILE",
                "write the samples as one shard (docs/formats.md, Training samples); a new file"),
        CLI_OPT_FLAG("--force", &force, "with --output: replace an existing file"),
        CLI_OPT("--record", &record_path, "OUT", "store the games: OUT.h5 as HDF5, else PGN/PDN"),
        CLI_OPT("--seed", &seed, "S", "seed", .def = "1"),
        CLI_OPT("--cache", &cache, "N", "network cache entries (0 = none)", .def = "65536"),
        CLI_OPT("--threads", &threads, "N", "libtorch threads (default: libtorch's own)"),
        CLI_OPT_FLAG("--bench", &bench,
                     "with --model: then 5 rounds of the games, each followed by a raw forward "
                     "replaying its forward calls; rates, CPU time, context switches"),
        CLI_OPT("--bench-seconds", &bench_seconds, "S",
                "with --bench: replay each round's calls for S seconds (default: once; "
                "up to 3600)"),
        CLI_OPT("--model-dir", &model_dir, "RUN",
                "be an actor of the training run in RUN (its config, newest net, stop file)"),
        CLI_OPT("--output-dir", &output_dir, "DIR",
                "with --model-dir: shards go to DIR/incoming/ (default RUN)"),
        CLI_OPT("--actor", &actor, "N",
                "with --model-dir: this actor's number, for its seeds and shard names "
                "(default: the process id)"),
        CLI_OPT_FLAG("--quiet", &quiet,
                     "with --model-dir: no progress lines (errors still go to stderr)"),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    const cli_command_t command = {.name = "selfplay",
                                   .help = help,
                                   .opts = opts,
                                   .positional = "GAME",
                                   .min_pos = 0,
                                   .max_pos = 2,
                                   .pos = pos,
                                   .more_help = print_params};
    int rc = cli_parse(&command, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    if (model_dir || output_dir || actor || quiet)
        return actor_mode(model_dir, output_dir, actor, threads, quiet,
                          pos[0] || model || output || bench || bench_seconds != -1 || json ||
                              record_path);
    if (pos[0] == NULL) return cli_usage_error("selfplay", "missing GAME (try --help)");
    if ((rc = bench_seconds_check(bench, &bench_seconds)) != CLI_CONTINUE) return rc;
    const char *game_spec = pos[0], *params = pos[1];
#ifndef HOYLE_TORCH
    if (model) return cli_usage_error("selfplay", "--model needs a build with libtorch");
    (void)bench;
#endif
    /* The seed comes from --seed (PARAMS has no seed key), so the one
     * seed on the command line reproduces the run. */
    selfplay_params_t p = {.seed = seed};
    char canon[2048];
    if (selfplay_params_parse(params, &p, canon, sizeof canon))
        return cli_fail("selfplay", EXIT_USAGE);
    if (force && !output) return cli_usage_error("selfplay", "--force needs --output");
    if (output && check_output(output, force) != EXIT_OK) return EXIT_USAGE;
    const game_t *g = cli_game("selfplay", game_spec);
    if (g == NULL) return EXIT_USAGE;
    cli_record_t *record = NULL;
    if (record_path && (rc = cli_record_open("selfplay", record_path, g, false, canon, &record))) {
        game_free(g);
        return rc;
    }
    evaluator_t *e = NULL;
    tch_net_t *net = NULL; /* --model, libtorch builds */
    if (open_evaluator(g, &p, model, eval, threads, cache, seed, &net, &e)) {
        cli_record_close(record);
        game_free(g);
        return cli_fail("selfplay", EXIT_USAGE);
    }
    sample_set_t set;
    sample_set_init(&set, g->obs_shape, g->num_actions);
    outcome_t o = {.game = g->spec, .canon = canon};
    selfplay_stats_t *st = &o.st;
    fprintf(stderr, "selfplay %s: %s, %d games, %s evaluator\n", g->spec, canon, p.games, e->name);
    selfplay_progress_t gp = {.total = p.games, .final_line = 1};
    progress_start(&gp.pg, stderr, "[selfplay]", "games", 0);
    selfplay_games_t games = {0, 0, NULL};
    int status =
        selfplay_run_games(g, e, &p, &set, record ? &games : NULL, st, selfplay_progress_line, &gp);
    if (!status && record) status = record_games(record, &games, g, model ? model : e->name);
    selfplay_games_done(&games);
    int closed = cli_record_close(record);
    if (!status) status = closed;
    o.mean_batch = st->evaluator_calls ? (double)st->evaluations / (double)st->evaluator_calls : 0;
#ifdef HOYLE_TORCH
    if (net && bench && !status) status = bench_finish(g, e, &p, bench_seconds, &o);
#endif
    if (!status && output)
        status = write_output(output, force, g, canon, model ? model : e->name, &set, st->games);
    snprintf(o.eval_name, sizeof o.eval_name, "%s", e->name);
    evaluator_free(e);
#ifdef HOYLE_TORCH
    tch_net_free(net);
#endif
    sample_set_done(&set);
    if (status) {
        game_free(g);
        return cli_fail("selfplay", EXIT_FAILED);
    }
    report(&o, json);
    game_free(g);
    return EXIT_OK;
}
