/* cmd_study.c — `hoyle study CONFIG.yaml` (or `hoyle study GAME --agent SPEC ...`): agents
 * compared across search budgets (eval/study.h), played as a tournament (resumable, workers,
 * MPI), then Elo and score with 95% intervals per point, written as CSV, JSON and an SVG plot
 * (eval/study_results.h; docs/study.md). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "apps/cli.h"
#include "core/file.h"
#include "core/error.h"
#include "dist/dist.h"
#include "eval/study.h"
#include "eval/study_results.h"

static const char help[] =
    "usage: hoyle study CONFIG.yaml [--set key=value ...] [--report] [--json] [--quiet]\n"
    "       hoyle study GAME --agent SPEC [--agent SPEC ...] [--reference SPEC]\n"
    "                   [--games N] [--output DIR] [--set key=value ...] [...]\n"
    "       hoyle study --keys\n\n"
    "Compare agents across budgets: each agent spec may give one key a list of\n"
    "values, its budget axis (`mcts(sims={50,200,800})`, `alphabeta(depth={2,4,6})`);\n"
    "each value is a point, and every point plays a gauntlet against the\n"
    "reference (or a round robin with every other point). The games go to\n"
    "OUTPUT/games.h5 as a tournament's do: running the same command again\n"
    "resumes without replaying a finished game. At the end (or after Ctrl-C)\n"
    "the Elo (reference = 0) and score with 95% intervals and the mean time\n"
    "per move of every point are printed and written to OUTPUT/study.csv,\n"
    "study.json and study.svg (strength against budget and against time per\n"
    "move). Keys: docs/study.md; `hoyle study --keys` prints them. The flags\n"
    "form sets the same keys (--games is games_per_pairing, default 20).\n"
    "--report reads the file and writes the outputs without playing.\n"
    "Under MPI (`mpirun -np N hoyle study ...`) rank 0 writes the file and the\n"
    "other ranks play, as in `hoyle tournament`.\n";

static void on_signal(int sig)
{
    (void)sig;
    tournament_request_stop();
}

/* A YAML double-quoted scalar into f. */
static void quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* The flags form as the YAML text of a study config (malloc'd). */
static char *flags_text(const char *game, const char *const *agents, int na, const char *ref,
                        const char *output, int games)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL) return NULL;
    fputs("name: study\ngame: ", f);
    quoted(f, game);
    fputs("\nagents:\n", f);
    for (int i = 0; i < na; i++) {
        fputs("  - ", f);
        quoted(f, agents[i]);
        fputc('\n', f);
    }
    if (ref) {
        fputs("reference: ", f);
        quoted(f, ref);
        fputc('\n', f);
    } else {
        fputs("schedule: round-robin\n", f);
    }
    if (output) {
        fputs("output: ", f);
        quoted(f, output);
        fputc('\n', f);
    }
    if (games > 0) fprintf(f, "games_per_pairing: %d\n", games);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* Read the file, add accuracy, write the outputs and print. EXIT_OK or EXIT_FAILED. */
static int report(const study_t *s, bool json, bool quiet)
{
    study_results_t *r = calloc(1, sizeof *r);
    if (r == NULL) return hoyle_error(HOYLE_ENOMEM, "out of memory"), EXIT_FAILED;
    int status = study_results_read(s, r);
    if (status == 0) status = study_results_accuracy(s, r, quiet ? NULL : stderr);
    if (status == 0) status = study_write_outputs(s, r);
    if (status == 0)
        status = json ? study_write_json(stdout, s, r) : study_write_table(stdout, s, r);
    if (status == 0 && !quiet)
        fprintf(stderr, "[%s] wrote %s/study.csv, study.json, study.svg\n", s->name, s->output);
    free(r);
    return status ? EXIT_FAILED : EXIT_OK;
}

static int run_study(int argc, char **argv, int rank)
{
    if (argc == 2 && strcmp(argv[1], "--keys") == 0) return cli_print_keys(study_schema());
    const char *pos = NULL, *agents[STUDY_MAX_SERIES], *ref = NULL, *output = NULL;
    const char *sets[CLI_MAX_SETS];
    int na = 0, nsets = 0, games = 0;
    bool json = false, quiet = false, only_report = false;
    const cli_opt_t opts[] = {
        CLI_OPT_LIST("--set", sets, &nsets, CLI_MAX_SETS, "key=value",
                     "override a config key (repeatable)"),
        CLI_OPT_LIST("--agent", agents, &na, STUDY_MAX_SERIES, "SPEC",
                     "flags form: an agent spec, with at most one axis key={a,b,...}"),
        CLI_OPT("--reference", &ref, "SPEC",
                "flags form: the fixed opponent (none: a round robin)"),
        CLI_OPT("--games", &games, "N", "flags form: games per pairing (even)", .min = 2,
                .max = 200000),
        CLI_OPT("--output", &output, "DIR", "flags form: the study's folder"),
        CLI_OPT_FLAG("--report", &only_report, "play nothing: read the file, write the outputs"),
        CLI_OPT_JSON(&json),
        CLI_OPT_FLAG("--quiet", &quiet, "no progress lines on stderr"),
        CLI_OPT_END,
    };
    int rc = cli_parse_one("study", help, opts, "CONFIG.yaml|GAME", cli_print_agent_kinds, &pos,
                           argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    if (na == 0 && (ref || output || games))
        return cli_usage_error("study", "--reference, --games and --output need --agent");
    quiet = quiet || rank != 0;
    study_t s;
    char *text = na ? flags_text(pos, agents, na, ref, output, games) : NULL;
    if (na && text == NULL) return cli_usage_error("study", "out of memory");
    int status =
        study_load(na ? NULL : pos, text, "(command line)", (char *const *)sets, nsets, &s);
    free(text);
    if (status) return cli_fail("study", EXIT_USAGE);
    if (only_report) {
        rc = report(&s, json, quiet);
        study_done(&s);
        return rc == EXIT_OK ? rc : cli_fail("study", rc);
    }
    if (!quiet)
        fprintf(stderr,
                "[%s] %d points on %s, %s, %d games per pairing (openings %s), %d worker%s -> %s\n",
                s.name, s.num_points, s.tour.games[0]->spec,
                s.schedule == STUDY_GAUNTLET ? "gauntlet against the reference" : "round-robin",
                s.games_per_pairing, s.openings, s.tour.workers, s.tour.workers == 1 ? "" : "s",
                s.output);
    if (rank == 0 && file_make_folders(s.output)) {
        study_done(&s);
        return cli_fail("study", EXIT_USAGE);
    }
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C kills at once */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    tour_run_stats_t st;
    status = dist_tournament_run(&s.tour, quiet ? NULL : stderr, &st);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (status) {
        /* nothing played: the file could not be created or resumed (another study's file) */
        rc = st.total == 0 ? EXIT_USAGE : EXIT_FAILED;
        study_done(&s);
        return cli_fail("study", rc);
    }
    if (rank != 0) {
        study_done(&s);
        return EXIT_OK;
    }
    if (!quiet)
        fprintf(stderr, "[%s] %d games played in %.1f s (%d were already in %s)\n", s.name,
                st.played, st.seconds, st.already, s.tour.output);
    /* An interrupted study still writes what its file holds so far, then fails (1). */
    rc = report(&s, json, quiet);
    if (rc != EXIT_OK) rc = cli_fail("study", rc);
    if (st.interrupted) {
        fprintf(stderr,
                "hoyle study: interrupted; %d of %d games are in %s; run the same command "
                "again to resume\n",
                st.already + st.played, st.total, s.tour.output);
        rc = EXIT_FAILED;
    }
    study_done(&s);
    return rc;
}

int cmd_study(int argc, char **argv)
{
    int rank, size;
    if (dist_init(&rank, &size)) return cli_fail("study", EXIT_USAGE);
    int rc = run_study(argc, argv, rank);
    dist_finalize(rc != EXIT_OK && rc != EXIT_FAILED);
    return rc;
}
