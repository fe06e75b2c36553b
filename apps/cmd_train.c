/* cmd_train.c — `hoyle train CONFIG.yaml [--set key=value]...`: the
 * AlphaZero training loop (train/loop.h; docs/training.md). Rerunning the
 * same command resumes a killed or finished run. Needs libtorch. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "apps/cli.h"
#include "dist/dist.h"
#ifdef HOYLE_TORCH
#include "train/actors_dir.h"
#include "train/loop.h"
#include "train/td_loop.h"
#endif

static const char help[] =
    "usage: hoyle train CONFIG.yaml [--set key=value]... [--json] [--quiet]\n\n"
    "Run the self-play + optimisation loop of a YAML config (configs/train/,\n"
    "keys in docs/training.md) in the config's output folder. Rerunning the\n"
    "same command resumes it: after kill -9 only the generation in flight is\n"
    "redone. --set overrides a key (dotted: --set selfplay.sims=32). Progress\n"
    "lines (games, samples, loss, Elo, ETA) go to stderr; --json prints a\n"
    "summary object on stdout. Needs a build with libtorch.\n"
    "Under MPI (`mpirun -np N hoyle train CONFIG.yaml`) rank 0 is the learner\n"
    "and the other ranks play self-play games with the newest net (docs/scaling.md).\n"
    "--external-actors: no self-play here; `hoyle selfplay --model-dir RUN`\n"
    "processes (any number, on machines sharing the run folder) play the games.\n"
    "selfplay.processes: P > 0 starts P such actor processes here (one libtorch\n"
    "thread each; both cores busy), ended with the run; not with the two above.\n"
    "Learning options: optim.kind (adam, adamw, sgd + optim.nesterov),\n"
    "optim.schedule (constant, step, cosine; optim.warmup_steps), net.policy_head /\n"
    "net.value_head / net.trunk, train.keep_every + train.keep_last (retention, on by\n"
    "default), train.init_from (warm start from a net or run). A resume may change the\n"
    "optimiser's settings (--set optim.lr=...): its state is kept. `hoyle export RUN\n"
    "--torchscript OUT.pt` writes the newest net for Python or libtorch.\n"
    "`hoyle train --keys` prints every config key with its type, default and meaning\n"
    "(the table of docs/training.md); `hoyle train --keys td` those of algorithms td\n"
    "and tdleaf (docs/td.md).\n";

/* Exit codes: 0 when the loop finished (or was already finished), 2 for a
 * bad config or --set (HOYLE_EINVAL), 1 for any failure while running. */
int cmd_train(int argc, char **argv)
{
#ifdef HOYLE_TORCH
    if (argc == 2 && strcmp(argv[1], "--keys") == 0) return cli_print_keys(train_config_schema());
    if (argc == 3 && strcmp(argv[1], "--keys") == 0 && strcmp(argv[2], "td") == 0)
        return cli_print_keys(td_config_schema());
#endif
    cli_config_args_t args;
    int rc = cli_config_args("train", help, argc, argv, &args);
    if (rc != CLI_CONTINUE) return rc;
#ifdef HOYLE_TORCH
    int rank, size;
    if (dist_init(&rank, &size)) return cli_fail("train", EXIT_USAGE);
    train_summary_t s;
    FILE *progress = args.quiet ? NULL : stderr;
    int status;
    int algorithm = 0; /* az, td, tdleaf */
    status = train_config_algorithm(args.path, args.sets, args.num_sets, &algorithm);
    bool td = algorithm > 0;
    if (status) {
        dist_finalize(false);
        return cli_fail("train", EXIT_USAGE);
    }
    if (td && (size > 1 || args.external_actors)) {
        dist_finalize(false);
        return cli_usage_error("train",
                               "algorithms td and tdleaf run in one process (td.workers threads): "
                               "not under mpirun or with --external-actors");
    }
    if (td) {
        status = td_train_run(args.path, args.sets, args.num_sets, progress, &s);
    } else if (args.external_actors) {
        if (size > 1) {
            dist_finalize(false);
            return cli_usage_error("train", "--external-actors is for runs without mpirun");
        }
        train_actors_t actors = {0};
        status = train_dir_actors(&actors);
        if (!status)
            status = train_run_learner(args.path, args.sets, args.num_sets, progress, &actors, &s);
        train_dir_actors_free(&actors);
    } else {
        status = dist_train_run(args.path, args.sets, args.num_sets, progress, &s, &rank);
    }
    rc = status ? cli_fail("train", status == HOYLE_EINVAL ? EXIT_USAGE : EXIT_FAILED) : EXIT_OK;
    /* The learner releases the actors however it ends; an actor that fails would leave the
     * learner waiting for its samples, so it ends the job (after its message). */
    dist_finalize(rank != 0 && status != 0);
    if (status || rank != 0) return rc;
    if (args.json) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "output", s.output);
        json_int(&j, "generations", (long long)s.generation);
        json_int(&j, "steps", (long long)s.steps);
        json_int(&j, "games", (long long)s.games);
        json_int(&j, "samples", (long long)s.samples);
        json_num(&j, "loss_policy", "%.5f", s.loss_policy);
        json_num(&j, "loss_value", "%.5f", s.loss_value);
        json_num(&j, "loss_total", "%.5f", s.loss_total);
        json_num(&j, "elo", "%.1f", s.elo);
        json_int(&j, "elo_generation", (long long)s.elo_generation);
        json_num(&j, "seconds", "%.1f", s.seconds);
        json_bool(&j, "resumed", s.resumed);
        json_end(&j);
    } else {
        printf("train %s: %lld generations, %lld games, %lld samples, %lld steps, loss %.4f, "
               "%.1f s\n",
               s.output, (long long)s.generation, (long long)s.games, (long long)s.samples,
               (long long)s.steps, s.loss_total, s.seconds);
    }
    return EXIT_OK;
#else
    /* 1, not 2: the command line was fine, the build lacks the feature. */
    fprintf(stderr, "hoyle train: this build has no libtorch (HOYLE_WITH_TORCH=OFF)\n");
    return EXIT_FAILED;
#endif
}
