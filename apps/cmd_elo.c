/* cmd_elo.c — `hoyle elo FILE.h5 ...`: Elo ratings recomputed from stored
 * game records (several files merge), and the option parsing shared with
 * `hoyle report` (cmd_report.c), which adds the cross table, the scores by
 * seat, the LOS matrix, the first player's score by opening and PDN / PGN
 * export. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "eval/opening_table.h"
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
    "that agent at 0 (default: mean 0) in every pool it plays in; a NAME that\n"
    "is no pool's player is an error. Intervals are 95% from the likelihood's\n"
    "curvature; --bootstrap N adds bootstrap percentile intervals (seed S).\n"
    "A file given twice (the same file_id: another name or a copy) is refused.\n"
    "Table: Rank Name Elo + - games score oppo draws; --csv or --json instead.\n";

static const char report_help[] =
    "usage: hoyle report FILE.h5 [FILE2.h5 ...] [--anchor NAME] [--bootstrap N] [--seed S]\n"
    "                    [--game SPEC] [--pool] [--json] [--pdn OUT.pdn] [--pgn OUT.pgn]\n"
    "                    [--seed-table FILE]\n\n"
    "Print everything about stored games: per game spec the Elo table, the\n"
    "cross table, the likelihood-of-superiority matrix and the first player's\n"
    "score by opening with 95% intervals (draw = 1/2). --pdn OUT.pdn also\n"
    "writes the games that have a PDN record writer (checkers) as PDN, --pgn\n"
    "OUT.pgn those with a PGN writer (chess) as PGN; the others are skipped\n"
    "and counted. --seed-table FILE also prints a published table of\n"
    "first-player results by opening (configs/books/chess_seed_results.txt: the\n"
    "seed's 1,500 chess games) in its own form beside the stored games'\n"
    "figures. Options as in `hoyle elo`.\n";

/* Exit codes (elo and report): 0 the tables were printed; 2 bad usage, an
 * unreadable record file or no rated games in it (the input is at fault);
 * 1 the fit, the output or the PDN export failed. */
int cli_ratings(int argc, char **argv, int report)
{
    const char *cmd = report ? "report" : "elo";
    /* 256 files is max_pos below: more are refused by the parser, not cut. */
    const char *files[256], *pdn = NULL, *pgn = NULL, *seed_table = NULL;
    int num_files = 0;
    tres_t t;
    memset(&t, 0, sizeof t);
    /* Bootstrap seed 1 by default: the intervals repeat from run to run. */
    tres_opts_t o = {.seed = 1, .crosstable = report, .los = report, .first_player = report};
    uint64_t bootstrap = 0;
    bool pool = false, csv = false, json = false;
    /* the tables of the two commands differ in --csv (elo) and --pdn (report) */
    const cli_opt_t common[] = {
        CLI_OPT("--anchor", &o.anchor, "NAME", "hold NAME at 0 (default: mean 0)"),
        CLI_OPT("--bootstrap", &bootstrap, "N", "bootstrap intervals from N fits", .min = 0,
                .max = 100000),
        CLI_OPT("--seed", &o.seed, "S", "bootstrap seed", .def = "1"),
        CLI_OPT("--game", &t.game_filter, "SPEC", "only games whose spec starts with SPEC"),
        CLI_OPT_FLAG("--pool", &pool, "rate all games together"),
        CLI_OPT_FLAG("--json", &json, "one JSON object on stdout"),
        CLI_OPT_FLAG("--csv", &csv, "CSV table"),
        CLI_OPT_END,
    };
    /* Room for the common options, two more and the END marker; report swaps
     * its --pdn in over --csv (the last common entry) and adds --pgn and --seed-table. */
    cli_opt_t opts[10];
    int k = 0;
    for (; common[k].row.key; k++) opts[k] = common[k];
    if (report) {
        opts[k - 1] =
            (cli_opt_t)CLI_OPT("--pdn", &pdn, "OUT.pdn", "also write the checkers games as PDN");
        opts[k++] =
            (cli_opt_t)CLI_OPT("--pgn", &pgn, "OUT.pgn", "also write the chess games as PGN");
        opts[k++] = (cli_opt_t)CLI_OPT("--seed-table", &seed_table, "FILE",
                                       "also print this published table by opening");
    }
    opts[k] = (cli_opt_t)CLI_OPT_END;
    const cli_command_t command = {.name = cmd,
                                   .help = report ? report_help : elo_help,
                                   .opts = opts,
                                   .positional = "FILE.h5",
                                   .min_pos = 1,
                                   .max_pos = 256,
                                   .pos = files,
                                   .num_pos = &num_files};
    int rc = cli_parse(&command, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    if (csv && json) return cli_usage_error(cmd, "--csv and --json cannot be used together");
    o.bootstrap = (int)bootstrap;
    t.pooled = pool;
    if (csv) o.format = TRES_CSV;
    if (json) o.format = TRES_JSON;
    for (int i = 0; i < num_files; i++)
        if (tres_add_file(&t, files[i])) {
            tres_done(&t);
            return cli_fail(cmd, EXIT_USAGE);
        }
    /* self-play games (one agent in both seats, hoyle train's RUN/games) are not rated, but
     * report still exports them */
    bool rated = t.n_sets > 0;
    if (!rated && (!report || (!pdn && !pgn))) {
        tres_done(&t);
        return cli_usage_error(
            cmd,
            "no rated games in the file%s: %lld games, none between two different agents "
            "(self-play games are not rated: the same spec in both seats is one agent playing "
            "itself; give the two sides different specs%s)",
            num_files > 1 ? "s" : "", (long long)t.records,
            !report ? "" : "; --pdn and --pgn export them");
    }
    if (rated && o.anchor && tres_check_anchor(&t, o.anchor)) {
        tres_done(&t);
        return cli_fail(cmd, EXIT_USAGE);
    }
    otable_t table;
    if (seed_table) {
        if (otable_load(seed_table, &table)) {
            tres_done(&t);
            return cli_fail(cmd, EXIT_USAGE);
        }
        o.seed_table = &table;
    }
    if (o.format == TRES_TABLE) {
        printf("%lld games from", (long long)t.records);
        for (int i = 0; i < num_files; i++) printf(" %s", files[i]);
        printf("\n");
    }
    int status = rated ? tres_report(stdout, &t, &o) : HOYLE_OK;
    tres_done(&t);
    if (seed_table) otable_done(&table);
    if (status) return cli_fail(cmd, EXIT_FAILED);
    const char *paths[2] = {pdn, pgn}, *formats[2] = {"PDN", "PGN"};
    for (int e = 0; e < 2; e++) {
        if (!paths[e]) continue;
        FILE *f = fopen(paths[e], "w");
        if (f == NULL)
            return cli_usage_error(cmd, "cannot write %s: %s", paths[e], strerror(errno));
        int total = 0, skipped = 0;
        for (int i = 0; i < num_files && status == 0; i++) {
            int n = 0, s = 0;
            status = tournament_export_records(files[i], formats[e], f, &n, &s);
            total += n, skipped += s;
        }
        /* fclose reports a late write error (a full disk) that fprintf could
         * have buffered away: the export is only a success once it is closed. */
        if (fclose(f) && status == 0) status = HOYLE_EIO;
        if (status) return cli_fail(cmd, EXIT_FAILED);
        fprintf(stderr, "hoyle report: %d games written to %s as %s", total, paths[e], formats[e]);
        fprintf(stderr, skipped ? " (%d skipped: no %s writer)\n" : "\n", skipped, formats[e]);
    }
    return EXIT_OK;
}

int cmd_elo(int argc, char **argv) { return cli_ratings(argc, argv, 0); }
