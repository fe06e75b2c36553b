/* cmd_elo.c — `hoyle elo FILE.h5 ...`: Elo ratings recomputed from stored
 * game records (several files merge), and the option parsing shared with
 * `hoyle report` (cmd_report.c), which adds the cross table, the LOS matrix,
 * the first player's score by opening and PDN export. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "eval/tournament_export.h"
#include "eval/tournament_results.h"

static const char elo_help[] =
    "usage: hoyle elo FILE.h5 [FILE2.h5 ...] [--anchor NAME] [--bootstrap N] [--seed S]\n"
    "                 [--game SPEC] [--pool] [--csv | --json]\n\n"
    "Fit Elo ratings (BayesElo's model: draws, first-move advantage, weak prior)\n"
    "to the games stored in record files written by `hoyle tournament`; several\n"
    "files are merged. One rating list per game spec (an agent's strength and the\n"
    "first-move advantage depend on the game); --pool rates all games together.\n"
    "--game SPEC keeps games whose spec starts with SPEC. --anchor NAME holds\n"
    "that agent at 0 (default: mean 0). Intervals are 95% from the likelihood's\n"
    "curvature; --bootstrap N adds bootstrap percentile intervals (seed S).\n"
    "Table: Rank Name Elo + - games score oppo draws.\n";

static const char report_help[] =
    "usage: hoyle report FILE.h5 [FILE2.h5 ...] [--anchor NAME] [--bootstrap N] [--seed S]\n"
    "                    [--game SPEC] [--pool] [--json] [--pdn OUT.pdn]\n\n"
    "Print everything about stored games: per game spec the Elo table, the\n"
    "cross table, the likelihood-of-superiority matrix and the first player's\n"
    "score by opening with 95% intervals (draw = 1/2). --pdn OUT.pdn also\n"
    "writes the games that have a PDN record writer (checkers) as PDN; the\n"
    "others are skipped and counted. Options as in `hoyle elo`.\n";

int cli_ratings(int argc, char **argv, int report)
{
    const char *cmd = report ? "report" : "elo";
    const char *files[256], *pdn = NULL;
    int num_files = 0;
    tres_t t;
    memset(&t, 0, sizeof t);
    tres_opts_t o = {.seed = 1, .crosstable = report, .los = report, .first_player = report};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (cli_is_help(a)) {
            fputs(report ? report_help : elo_help, stdout);
            return EXIT_OK;
        } else if (strcmp(a, "--anchor") == 0 || strcmp(a, "--game") == 0 ||
                   strcmp(a, "--pdn") == 0) {
            if (!has_value) return cli_usage_error(cmd, "%s needs a value", a);
            if (a[2] == 'a')
                o.anchor = argv[++i];
            else if (a[2] == 'g')
                t.game_filter = argv[++i];
            else if (report)
                pdn = argv[++i];
            else
                return cli_usage_error(cmd, "--pdn belongs to hoyle report");
        } else if (strcmp(a, "--bootstrap") == 0 || strcmp(a, "--seed") == 0) {
            uint64_t v;
            if (!has_value) return cli_usage_error(cmd, "%s needs a value", a);
            if (cli_parse_u64(cmd, a, argv[++i], &v)) return EXIT_USAGE;
            if (a[2] == 'b') {
                if (v > 100000) return cli_usage_error(cmd, "--bootstrap must be at most 100000");
                o.bootstrap = (int)v;
            } else {
                o.seed = v;
            }
        } else if (strcmp(a, "--pool") == 0) {
            t.pooled = 1;
        } else if (strcmp(a, "--csv") == 0 && !report) {
            o.format = TRES_CSV;
        } else if (strcmp(a, "--json") == 0) {
            o.format = TRES_JSON;
        } else if (a[0] == '-') {
            return cli_usage_error(cmd, "unknown option '%s' (try --help)", a);
        } else if (num_files < 256) {
            files[num_files++] = a;
        } else {
            return cli_usage_error(cmd, "too many files");
        }
    }
    if (num_files == 0) return cli_usage_error(cmd, "expected FILE.h5 (try --help)");
    for (int i = 0; i < num_files; i++)
        if (tres_add_file(&t, files[i])) {
            tres_done(&t);
            return cli_fail(cmd, EXIT_USAGE);
        }
    if (t.n_sets == 0) {
        tres_done(&t);
        return cli_usage_error(cmd, "no rated games in the file%s", num_files > 1 ? "s" : "");
    }
    if (o.format == TRES_TABLE) {
        printf("%lld games from", (long long)t.records);
        for (int i = 0; i < num_files; i++) printf(" %s", files[i]);
        printf("\n");
    }
    int status = tres_report(stdout, &t, &o);
    tres_done(&t);
    if (status) return cli_fail(cmd, EXIT_FAILED);
    if (pdn) {
        FILE *f = fopen(pdn, "w");
        if (f == NULL) return cli_usage_error(cmd, "cannot write %s", pdn);
        int total = 0, skipped = 0;
        for (int i = 0; i < num_files && status == 0; i++) {
            int n = 0, s = 0;
            status = tournament_export_records(files[i], "PDN", f, &n, &s);
            total += n, skipped += s;
        }
        if (fclose(f) && status == 0) status = HOYLE_EIO;
        if (status) return cli_fail(cmd, EXIT_FAILED);
        fprintf(stderr, "hoyle report: %d games written to %s as PDN", total, pdn);
        fprintf(stderr, skipped ? " (%d skipped: no PDN writer)\n" : "\n", skipped);
    }
    return EXIT_OK;
}

int cmd_elo(int argc, char **argv) { return cli_ratings(argc, argv, 0); }
