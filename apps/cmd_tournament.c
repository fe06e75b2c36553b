/* cmd_tournament.c — `hoyle tournament CONFIG.yaml`: run (or resume) a
 * tournament from a YAML config, then print the Elo table from the file. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "apps/cli.h"
#include "core/file.h"
#include "dist/dist.h"
#include "eval/tournament.h"
#include "eval/tournament_results.h"

static const char help[] =
    "usage: hoyle tournament CONFIG.yaml [--set key=value ...] [--json] [--quiet]\n\n"
    "Play a round-robin or gauntlet tournament described by a YAML config\n"
    "(configs/tournament/*.yaml; keys in docs/formats.md, \"Tournament config\").\n"
    "Every finished game is appended at once to the config's `output` HDF5 file;\n"
    "running the same command again resumes where it stopped (a killed run\n"
    "loses only the games in flight). Ctrl-C stops after the games in flight.\n"
    "--set key=value overrides a config key (repeatable), e.g. --set workers=2.\n"
    "At the end the Elo table of each game (from the file) and the first\n"
    "player's score by opening are printed; --json prints them as one JSON\n"
    "object. Progress goes to stderr; --quiet turns it off.\n"
    "Under MPI (`mpirun -np N hoyle tournament CONFIG.yaml`, builds with MPI)\n"
    "rank 0 writes the file and the other ranks play `workers` games each at a\n"
    "time; the file holds the same games as a one-process run (docs/scaling.md).\n"
    "`hoyle tournament --keys` prints every config key (docs/formats.md's table).\n"
    "See also: hoyle elo FILE.h5, hoyle report FILE.h5.\n";

/* Signal handler: only sets the stop flag (async-signal-safe); the
 * workers finish the games in flight and the file stays consistent. */
static void on_signal(int sig)
{
    (void)sig;
    tournament_request_stop();
}

/* Exit codes: 0 every scheduled game is in the file and the table was
 * printed; 2 a bad config or --set, or a file that could not be created
 * or resumed; 1 interrupted (resumable) or a failure while playing or
 * reporting. */
static int run_tournament(int argc, char **argv, int rank)
{
    if (argc == 2 && strcmp(argv[1], "--keys") == 0)
        return cli_print_keys(tournament_config_schema());
    cli_config_args_t args;
    int rc = cli_config_args("tournament", help, argc, argv, &args);
    if (rc != CLI_CONTINUE) return rc;
    const char *path = args.path;
    char **sets = args.sets;
    int num_sets = args.num_sets;
    bool json = args.json, quiet = args.quiet || rank != 0;
    tour_config_t c;
    if (tournament_config_load(path, sets, num_sets, &c)) return cli_fail("tournament", EXIT_USAGE);
    tour_job_t *jobs;
    int num_jobs;
    /* The schedule is built here only to count the games for the banner;
     * tournament_run builds its own and skips the games already stored. */
    if (tournament_schedule(&c, &jobs, &num_jobs)) {
        tournament_config_done(&c);
        return cli_fail("tournament", EXIT_USAGE);
    }
    free(jobs);
    if (!quiet) {
        fprintf(stderr, "[%s] %d games on", c.name, num_jobs);
        for (int i = 0; i < c.num_games; i++)
            fprintf(stderr, " %s (%d openings, %s)", c.games[i]->spec, c.openings[i].n,
                    c.opening_source[i]);
        fprintf(stderr, "; %d agents, %s, %d worker%s -> %s\n", c.num_agents,
                c.schedule == TOUR_GAUNTLET ? "gauntlet" : "round-robin", c.workers,
                c.workers == 1 ? "" : "s", c.output);
    }
    /* the output's folder (runs/ in the examples) is made when missing */
    char folder[sizeof c.output];
    snprintf(folder, sizeof folder, "%s", c.output);
    char *slash = strrchr(folder, '/');
    if (slash && slash != folder) {
        *slash = '\0';
        if (file_make_folders(folder)) { /* a file in the way: bad input, nothing played */
            tournament_config_done(&c);
            return cli_fail("tournament", EXIT_USAGE);
        }
    }
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C kills at once */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    tour_run_stats_t st;
    int status = dist_tournament_run(&c, quiet ? NULL : stderr, &st);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (status) {
        /* nothing was played: the file could not be created or resumed (bad input) */
        int code = st.total == 0 ? EXIT_USAGE : EXIT_FAILED;
        tournament_config_done(&c);
        return cli_fail("tournament", code);
    }
    /* The other ranks only played: rank 0 reports (their errors still print). */
    if (rank != 0) {
        tournament_config_done(&c);
        return EXIT_OK;
    }
    if (!quiet)
        fprintf(stderr, "[%s] %d games played in %.1f s (%d were already in %s)\n", c.name,
                st.played, st.seconds, st.already, c.output);
    if (!quiet && st.ranks > 1 && st.played > 0)
        fprintf(stderr, "[%s] %d ranks; rank 0 busy %.3f s of %.1f s (%.3f ms per game)\n", c.name,
                st.ranks, st.busy_s, st.seconds, 1e3 * st.busy_s / st.played);
    /* An interrupted run is not a success (1) even though the file is
     * valid: scripts must not take a partial tournament as finished. */
    if (st.interrupted) {
        fprintf(stderr,
                "hoyle tournament: interrupted; %d of %d games are in %s; run the same "
                "command again to resume\n",
                st.already + st.played, st.total, c.output);
        tournament_config_done(&c);
        return EXIT_FAILED;
    }
    tres_t t;
    memset(&t, 0, sizeof t);
    tres_opts_t o = {.anchor = c.anchor[0] ? c.anchor : NULL,
                     .format = json ? TRES_JSON : TRES_TABLE,
                     .first_player = json ? 1 : 2};
    status = tres_add_file(&t, c.output);
    if (status == 0) {
        if (!json)
            printf("tournament %s: %lld games in %s\n", c.name, (long long)t.records, c.output);
        status = tres_report(stdout, &t, &o);
    }
    tres_done(&t);
    tournament_config_done(&c);
    return status ? cli_fail("tournament", EXIT_FAILED) : EXIT_OK;
}

int cmd_tournament(int argc, char **argv)
{
    int rank, size;
    if (dist_init(&rank, &size)) return cli_fail("tournament", EXIT_USAGE);
    int rc = run_tournament(argc, argv, rank);
    /* A rank that failed alone (its config or file differs) would leave the others waiting:
     * MPI_Abort ends them. Rank 0's failures after the start end every rank's loop first. */
    dist_finalize(rc != EXIT_OK && rc != EXIT_FAILED);
    return rc;
}
