/* cmd_selfplay.c — `hoyle selfplay GAME [PARAMS]`: self-play games with a
 * network (--model, libtorch builds) or a stand-in evaluator (fake network,
 * rollouts), samples optionally written to an HDF5 shard, and throughput
 * figures: evaluations/s inside self-play and, with --model --bench, a raw
 * forward of the same net at the same mean batch size. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/rng.h"
#include "train/selfplay.h"
#ifdef HOYLE_TORCH
#include "train/net_eval.h"
#include "train/tch/tch.h"
#endif

static const char help[] =
    "usage: hoyle selfplay GAME [PARAMS] [--model PATH | --eval fake|rollout|heuristic]\n"
    "                      [--output FILE.h5] [--seed S] [--cache N] [--threads N] [--bench]\n"
    "                      [--json]\n\n"
    "Play self-play games (train/selfplay.h) and report games, samples and\n"
    "throughput. PARAMS is 'key=value,...' over these keys:\n%s\n"
    "--model PATH   a net written by hoyle train (net-NNNNNN.pt); needs libtorch\n"
    "--eval NAME    without --model: fake (seeded fake network, default),\n"
    "               rollout or heuristic\n"
    "--output FILE  write the samples as one shard (docs/formats.md, Training samples)\n"
    "--cache N      network cache entries (default 65536, 0 = none)\n"
    "--threads N    libtorch threads\n"
    "--bench        also time a raw forward at the same batch size (--model)\n"
    "--json         one JSON object on stdout\n";

int cmd_selfplay(int argc, char **argv)
{
    const char *game_spec = NULL, *params = "", *model = NULL, *eval = "fake", *output = NULL;
    uint64_t seed = 1, cache = 65536, threads = 0;
    bool json = false, bench = false;
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            char keys[4096];
            if (params_describe(selfplay_param_defs, keys, sizeof keys) < 0) keys[0] = '\0';
            printf(help, keys);
            return EXIT_OK;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--bench") == 0) {
            bench = true;
        } else if (strcmp(a, "--model") == 0 || strcmp(a, "--eval") == 0 ||
                   strcmp(a, "--output") == 0 || strcmp(a, "--seed") == 0 ||
                   strcmp(a, "--cache") == 0 || strcmp(a, "--threads") == 0) {
            if (i + 1 >= argc) return cli_usage_error("selfplay", "%s needs a value", a);
            const char *v = argv[++i];
            if (strcmp(a, "--model") == 0)
                model = v;
            else if (strcmp(a, "--eval") == 0)
                eval = v;
            else if (strcmp(a, "--output") == 0)
                output = v;
            else if (cli_parse_u64("selfplay", a, v,
                                   a[2] == 's'   ? &seed
                                   : a[2] == 'c' ? &cache
                                                 : &threads))
                return EXIT_USAGE;
        } else if (a[0] == '-' && a[1] == '-') {
            return cli_usage_error("selfplay", "unknown option '%s' (try --help)", a);
        } else if (positional == 0) {
            game_spec = a;
            positional++;
        } else if (positional == 1) {
            params = a;
            positional++;
        } else {
            return cli_usage_error("selfplay", "unexpected argument '%s'", a);
        }
    }
    if (game_spec == NULL) return cli_usage_error("selfplay", "expected GAME (try --help)");
#ifndef HOYLE_TORCH
    if (model) return cli_usage_error("selfplay", "--model needs a build with libtorch");
    (void)bench;
    (void)threads;
#endif
    selfplay_params_t p = {.seed = seed};
    char canon[2048];
    if (selfplay_params_parse(params, &p, canon, sizeof canon))
        return cli_fail("selfplay", EXIT_USAGE);
    const game_t *g = cli_game("selfplay", game_spec);
    if (g == NULL) return EXIT_USAGE;
    evaluator_t *e = NULL;
    int status = 0;
    double raw = 0;
#ifdef HOYLE_TORCH
    tch_net_t *net = NULL;
    if (model) {
        if (threads > 0) tch_set_threads((int)threads);
        status = tch_load(model, &net, NULL);
        if (!status)
            status = net_evaluator_create(g, net, p.parallel * p.search.batch, (int)cache, &e);
        if (status) {
            tch_net_free(net);
            game_free(g);
            return cli_fail("selfplay", EXIT_USAGE);
        }
    }
#endif
    if (e == NULL && evaluator_create_named(g, eval, 1, rng_mix(seed ^ 0xe), &e)) {
        game_free(g);
        return cli_fail("selfplay", EXIT_USAGE);
    }
    if (e->max_batch < p.parallel * p.search.batch) e->max_batch = p.parallel * p.search.batch;
    sample_set_t set;
    sample_set_init(&set, g->obs_shape, g->num_actions);
    selfplay_stats_t st;
    fprintf(stderr, "selfplay %s: %s, %d games, %s evaluator\n", g->spec, canon, p.games, e->name);
    status = selfplay_run(g, e, &p, &set, &st, NULL, NULL);
    double mean_batch =
        st.evaluator_calls ? (double)st.evaluations / (double)st.evaluator_calls : 0;
#ifdef HOYLE_TORCH
    if (!status && net && bench && mean_batch >= 1)
        status = tch_bench_forward(net, (int)(mean_batch + 0.5), 50, &raw);
#endif
    if (!status && output) {
        samples_meta_t meta = {.game_spec = g->spec,
                               .params = canon,
                               .network_id = model ? model : e->name,
                               .config = "",
                               .generation = 0,
                               .games = st.games};
        status = samples_write_shard(output, &set, &meta);
    }
    char eval_name[64];
    snprintf(eval_name, sizeof eval_name, "%s", e->name);
    evaluator_free(e);
#ifdef HOYLE_TORCH
    tch_net_free(net);
#endif
    if (status) {
        sample_set_done(&set);
        game_free(g);
        return cli_fail("selfplay", EXIT_FAILED);
    }
    double secs = st.seconds > 0 ? st.seconds : 1e-9;
    double eps_wall = (double)st.evaluations / secs;
    double eps_eval = st.eval_seconds > 0 ? (double)st.evaluations / st.eval_seconds : 0;
    if (json) {
        printf("{\"game\":\"%s\",\"params\":\"%s\",\"evaluator\":\"%s\",\"games\":%" PRId64
               ",\"actions\":%" PRId64 ",\"samples\":%" PRId64 ",\"wins\":[%" PRId64 ",%" PRId64
               "],\"draws\":%" PRId64 ",\"resigned\":%" PRId64 ",\"resign_checks\":%" PRId64
               ",\"false_resigns\":%" PRId64 ",\"alpha\":%.4f,\"typical_legal\":%.2f,"
               "\"evaluations\":%" PRIu64 ",\"evaluator_calls\":%" PRIu64 ",\"mean_batch\":%.1f,"
               "\"evals_per_s\":%.1f,\"evals_per_s_in_evaluator\":%.1f,"
               "\"raw_forward_evals_per_s\":%.1f,\"samples_per_s\":%.1f,\"actions_per_s\":%.1f,"
               "\"seconds\":%.3f}\n",
               g->spec, canon, eval_name, st.games, st.actions, st.samples, st.wins[0], st.wins[1],
               st.draws, st.resigned, st.resign_checks, st.false_resigns, st.alpha,
               st.typical_legal, st.evaluations, st.evaluator_calls, mean_batch, eps_wall, eps_eval,
               raw, (double)st.samples / secs, (double)st.actions / secs, st.seconds);
    } else {
        printf("selfplay %s, %" PRId64 " games, %" PRId64 " actions, %" PRId64 " samples\n",
               g->spec, st.games, st.actions, st.samples);
        printf("  results: first %" PRId64 ", second %" PRId64 ", draws %" PRId64
               "; resigned %" PRId64 ", false resigns %" PRId64 "/%" PRId64 "\n",
               st.wins[0], st.wins[1], st.draws, st.resigned, st.false_resigns, st.resign_checks);
        printf("  noise alpha %.4f (typical legal moves %.1f)\n", st.alpha, st.typical_legal);
        printf("  evaluations %" PRIu64 " in %" PRIu64 " calls (mean batch %.1f)\n", st.evaluations,
               st.evaluator_calls, mean_batch);
        printf("  %.0f evals/s in self-play (%.0f/s inside the evaluator)", eps_wall, eps_eval);
        if (raw > 0) printf(", raw forward %.0f/s at batch %.0f", raw, mean_batch);
        printf("\n  %.1f samples/s, %.1f actions/s, %.2f s\n", (double)st.samples / secs,
               (double)st.actions / secs, st.seconds);
    }
    sample_set_done(&set);
    game_free(g);
    return EXIT_OK;
}
