/* cmd_tablebase.c — `hoyle tablebase`: build endgame tables by retrograde
 * analysis (solve/retro.h) into a folder, distance to the end or (--metric
 * dtc) to conversion, or describe what a folder holds (--info: per table
 * its class, positions by value, the longest win and the metric). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/clock.h"
#include "core/error.h"
#include "games/registry.h"
#include "solve/retro.h"

#define MAX_CLASSES 64
#define MAX_ALL     512 /* classes --all may list */

static const char help[] =
    "usage: hoyle tablebase GAME CLASS... --out DIR [--threads N] [--checkpoint S] [--graph]\n"
    "                            [--metric dtm|dtc] [--quiet]\n"
    "       hoyle tablebase GAME --all MEN --out DIR [...]\n"
    "       hoyle tablebase --info DIR [--json]\n\n"
    "Build the endgame table of each CLASS of GAME by retrograde analysis into\n"
    "DIR/CLASS.tb (docs/formats.md), first the tables of the smaller classes a\n"
    "capture leads to. Classes are named as engines name them, the stronger\n"
    "side first: chess KQvK, KBNvK, KQvKR, KPvK, KQvKP, KRPvKR (up to 5 men;\n"
    "4 men: about a minute of CPU, under 100 MB; promotions and captures\n"
    "build their classes first; checkers by kings K and men M, KMvK). Each\n"
    "position gets its value for the side to move and the distance\n"
    "to the end in plies (chess: to mate). A table already in DIR\n"
    "is checked and kept; a build that was killed resumes from DIR/CLASS.tb.part\n"
    "and writes the same file. Progress goes to stderr.\n"
    "Where the game gives un-moves (chess) no move graph is held\n"
    "(three bytes a position); --graph builds by the move graph all the same\n"
    "(same tables; more memory).\n"
    "--metric dtc: distance to conversion instead, into DIR/CLASS.dtc: the plies\n"
    "to the first capture or promotion (a move into a smaller class) or the end;\n"
    "the same values. The smaller classes are read from their ordinary (dtm)\n"
    "tables, built first when missing; a killed build resumes from CLASS.dtc.part.\n"
    "--all MEN: every class of at most MEN men (chess: kings counted), the\n"
    "smaller first.\n"
    "--info DIR: the tables in DIR (.tb and .dtc), with positions won/drawn/lost\n"
    "by the side to move, the longest win (plies; moves = (plies + 1) / 2) and\n"
    "the metric its distances count (dtm: to the end, dtc: to conversion); with\n"
    "--json also a position of the longest win.\n";

/* The position at index `idx` of class `name` of game `spec` into buf (FEN
 * for chess); "" when the game or the index cannot give it. */
static void index_position(const char *spec, const char *name, uint64_t idx, char *buf, size_t cap)
{
    const game_t *g = NULL;
    buf[0] = '\0';
    if (game_create(spec, &g) < 0) return;
    const retro_index_t *ix = retro_index_find(g);
    size_t bytes = (g->state_size + GAME_STATE_ALIGN - 1) / GAME_STATE_ALIGN * GAME_STATE_ALIGN;
    void *s = aligned_alloc(GAME_STATE_ALIGN, bytes);
    if (s && ix && ix->unindex(g, name, idx, s) && game_position_to_string(g, s, buf, cap) < 0)
        buf[0] = '\0';
    free(s);
    game_free(g);
}

/* One table's row (or JSON object when `j`), the game column `width` wide. */
static void print_info(const retro_info_t *in, json_t *j, int width)
{
    uint64_t pos = in->wins + in->draws + in->losses;
    if (j == NULL) {
        printf("%-10s %-*s %12llu %12llu %12llu %12llu %8u %8u  %s\n", in->name, width, in->game,
               (unsigned long long)pos, (unsigned long long)in->wins, (unsigned long long)in->draws,
               (unsigned long long)in->losses, in->longest_win, (in->longest_win + 1) / 2,
               retro_metric_name(in->metric));
        return;
    }
    json_open(j, NULL, '{');
    json_str(j, "class", in->name);
    json_str(j, "game", in->game);
    json_str(j, "metric", retro_metric_name(in->metric));
    json_u64(j, "indices", in->size);
    json_u64(j, "positions", pos);
    json_u64(j, "wins", in->wins);
    json_u64(j, "draws", in->draws);
    json_u64(j, "losses", in->losses);
    json_u64(j, "longest_win_plies", in->longest_win);
    json_u64(j, "longest_win_index", in->longest_win_idx);
    char fen[512];
    index_position(in->game, in->name, in->longest_win_idx, fen, sizeof fen);
    if (in->longest_win > 0 && fen[0]) json_str(j, "longest_win_position", fen);
    json_close(j);
}

static int info(const char *dir, bool json)
{
    DIR *d = opendir(dir);
    if (d == NULL) return cli_usage_error("tablebase", "--info: %s: cannot open the folder", dir);
    char names[256][256];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < 256;) {
        size_t len = strlen(e->d_name);
        bool tb = len > 3 && strcmp(e->d_name + len - 3, ".tb") == 0;
        bool dtc = len > 4 && strcmp(e->d_name + len - 4, ".dtc") == 0;
        if ((tb || dtc) && len < 256) strcpy(names[n++], e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    retro_info_t *in = calloc((size_t)(n > 0 ? n : 1), sizeof *in);
    if (in == NULL) {
        fprintf(stderr, "hoyle tablebase: --info: out of memory\n");
        return EXIT_FAILED;
    }
    int rc = EXIT_OK, width = 8; /* the game column: as wide as the longest spec */
    for (int i = 0; i < n; i++) {
        char path[4096];
        int len = snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (len < 0 || (size_t)len >= sizeof path) {
            fprintf(stderr, "hoyle tablebase: %s: path too long\n", dir);
            rc = EXIT_FAILED;
            continue;
        }
        if (retro_table_info(path, &in[i]) < 0) {
            fprintf(stderr, "hoyle tablebase: %s\n", hoyle_last_error());
            rc = EXIT_FAILED, in[i].name[0] = '\0';
            continue;
        }
        if ((int)strlen(in[i].game) > width) width = (int)strlen(in[i].game);
    }
    json_t j;
    if (json)
        json_begin(&j, stdout), json_str(&j, "dir", dir), json_open(&j, "tables", '[');
    else
        printf("%-10s %-*s %12s %12s %12s %12s %8s %8s  %s\n", "class", width, "game", "positions",
               "won", "drawn", "lost", "longest", "moves", "metric");
    for (int i = 0; i < n; i++)
        if (in[i].name[0]) print_info(&in[i], json ? &j : NULL, width);
    free(in);
    if (json) json_close(&j), json_end(&j);
    return rc;
}

int cmd_tablebase(int argc, char **argv)
{
    const char *out = NULL, *info_dir = NULL, *metric_text = NULL, *pos[MAX_CLASSES + 1];
    uint64_t threads = 0, all = 0;
    double checkpoint = 0;
    bool quiet = false, json = false, graph = false;
    int npos = 0;
    const cli_opt_t opts[] = {
        CLI_OPT("--out", &out, "DIR", "the folder of the tables (made if missing)"),
        CLI_OPT("--info", &info_dir, "DIR", "describe the tables in DIR"),
        CLI_OPT("--all", &all, "MEN", "every class of at most MEN men", .min = 1, .max = 64),
        CLI_OPT("--threads", &threads, "N", "worker threads", .def = "2", .min = 1, .max = 16),
        CLI_OPT("--checkpoint", &checkpoint, "S", "seconds between resume-file writes", .def = "30",
                .min = 0.001, .max = 1e9),
        CLI_OPT_FLAG("--quiet", &quiet, "no progress on stderr"),
        CLI_OPT_FLAG("--graph", &graph, "the move-graph generator even where un-moves exist"),
        CLI_OPT("--metric", &metric_text, "dtm|dtc", "distance to the end or to conversion",
                .def = "dtm"),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    const cli_command_t c = {"tablebase", help,  opts, "GAME CLASS...", 0, MAX_CLASSES + 1,
                             pos,         &npos, NULL};
    int rc = cli_parse(&c, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    if (info_dir) {
        if (npos > 0) return cli_usage_error("tablebase", "--info takes no GAME or CLASS");
        return info(info_dir, json);
    }
    if (npos < (all ? 1 : 2) || (all && npos > 1))
        return cli_usage_error("tablebase", all ? "--all takes GAME and no CLASS"
                                                : "expected GAME CLASS... (try --help)");
    if (out == NULL) return cli_usage_error("tablebase", "--out DIR is required");
    retro_metric_t metric = RETRO_DTM;
    if (metric_text && retro_metric_parse(metric_text, &metric) < 0)
        return cli_usage_error("tablebase", "--metric: %s", hoyle_last_error());
    const game_t *g = cli_game("tablebase", pos[0]);
    if (g == NULL) return EXIT_USAGE;
    const retro_index_t *ix = retro_index_find(g);
    rc = EXIT_OK;
    if (ix == NULL)
        rc = cli_usage_error("tablebase", "%s: no endgame tables for this game", g->spec);
    static char listed[MAX_ALL][RETRO_CLASS_MAX];
    const char *names[MAX_ALL];
    int n = 0;
    if (rc == EXIT_OK && all) { /* --all: the index lists the classes */
        if (ix->classes == NULL)
            rc = cli_usage_error("tablebase", "%s: --all is not supported", g->spec);
        else if ((n = ix->classes(g, (int)all, listed, MAX_ALL)) < 0)
            rc = cli_fail("tablebase", EXIT_USAGE);
        for (int i = 0; i < n; i++) names[i] = listed[i];
    }
    for (int i = 1; i < npos && rc == EXIT_OK; i++) names[n++] = pos[i];
    for (int i = 0; i < n && rc == EXIT_OK; i++) /* every name first: bad input changes nothing */
        if (ix->class_parse(g, names[i], NULL, NULL) < 0) rc = cli_fail("tablebase", EXIT_USAGE);
    retro_gen_opts_t o = {.threads = (int)threads,
                          .progress = quiet ? NULL : stderr,
                          .checkpoint_seconds = checkpoint,
                          .graph = graph,
                          .metric = metric};
    double t0 = clock_seconds();
    for (int i = 0; i < n && rc == EXIT_OK; i++)
        if (retro_generate(g, names[i], out, &o) < 0) rc = cli_fail("tablebase", EXIT_FAILED);
    if (rc == EXIT_OK && !quiet) fprintf(stderr, "done in %.1f s\n", clock_seconds() - t0);
    if (rc == EXIT_OK) rc = info(out, json);
    game_free(g);
    return rc;
}
