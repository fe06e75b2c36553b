/* solve_fifteen.c — `hoyle solve fifteen(...)`: optimal solutions of the
 * Fifteen puzzle by IDA* (solve/fifteen.h), for the game's start, one
 * --position, or every instance of a --korf file (Korf's 100 by default in
 * tests/data/fifteen/korf100.txt), each replayed through the game and
 * checked against its published length where the file gives one. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/clock.h"
#include "core/progress.h"
#include "games/registry.h"
#include "solve/fifteen.h"

static const char help[] =
    "usage: hoyle solve fifteen[(size=N,blank=last|first,...)] [--position P] [--korf FILE]\n"
    "                 [--heuristic pdb|lc|md] [--pdb-555] [--pdb-dir DIR] [--first K]\n"
    "                 [--nodes N] [--quiet] [--json]\n\n"
    "Optimal solutions by IDA* (docs/games/fifteen.md): the game's start, the\n"
    "position P (the tiles row by row, 0 = the blank), or every instance of\n"
    "FILE, one a line, `ID LENGTH T0 ... T15` (LENGTH: the published optimum,\n"
    "checked), '#' comments; Korf's instances put the blank first, so --korf\n"
    "solves fifteen(blank=first) of the game's size.\n"
    "Heuristics: pdb (default for 3x3 and 4x4) additive pattern databases,\n"
    "6-6-3 (4x4) or 4-4 (3x3), with the diagonal reflection, built once (about\n"
    "15 s for 4x4) and cached in DIR (default $XDG_CACHE_HOME/hoyle, else\n"
    "~/.cache/hoyle; '' = no cache); --pdb-555: the 4x4 tables split 5-5-5\n"
    "(built in about 1 s, more nodes); lc Manhattan distance plus linear\n"
    "conflicts (default for larger boards); md Manhattan distance alone.\n"
    "Per instance: its length, moves (u d l r: where the blank goes), nodes\n"
    "(positions generated, every iteration) and time; then the totals.\n"
    "--first K: only the first K instances of FILE. --nodes N: give up on an\n"
    "instance after N nodes. Exit 1 when an instance is left unsolved, its\n"
    "solution does not replay, or its length is not the published one.\n";

/* One instance to solve: the start, its name and the published length (0:
 * none). */
typedef struct instance {
    char name[16];
    int published;
    char tiles[256];
} instance_t;

/* Parse one line of a Korf-style file: `ID LENGTH T...` (N*N + 2 numbers),
 * `ID T...` (N*N + 1) or `T...` (N*N). Returns 1 for an instance, 0 for a
 * blank or comment line, or HOYLE_EINVAL. */
static int parse_line(const char *line, int cells, instance_t *out, int lineno)
{
    const char *p = line;
    while (isspace((unsigned char)*p)) p++;
    if (*p == '\0' || *p == '#') return 0;
    long v[FIFTEEN_MAX_CELLS + 2];
    int count = 0;
    while (*p) {
        char *end;
        long x = strtol(p, &end, 10);
        if (end == p || (*end && !isspace((unsigned char)*end)) || x < 0 || x > 100000)
            return hoyle_error(HOYLE_EINVAL, "line %d: '%.20s' is not a number", lineno, p);
        if (count == cells + 2)
            return hoyle_error(HOYLE_EINVAL, "line %d: more than %d numbers", lineno, cells + 2);
        v[count++] = x;
        p = end;
        while (isspace((unsigned char)*p)) p++;
    }
    if (count < cells)
        return hoyle_error(HOYLE_EINVAL, "line %d: %d numbers, want %d tiles", lineno, count,
                           cells);
    int skip = count - cells;
    snprintf(out->name, sizeof out->name, "%ld", skip ? v[0] : (long)lineno);
    out->published = skip == 2 ? (int)v[1] : 0;
    size_t used = 0;
    out->tiles[0] = '\0';
    for (int i = skip; i < count; i++)
        used += (size_t)snprintf(out->tiles + used, sizeof out->tiles - used, "%s%ld",
                                 i > skip ? " " : "", v[i]);
    return 1;
}

static int read_instances(const char *path, int cells, instance_t **out, int *count)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) return hoyle_error(HOYLE_EIO, "%s: cannot open", path);
    instance_t *a = NULL, one;
    int n = 0, cap = 0, lineno = 0, status = HOYLE_OK;
    char line[1024];
    while (status == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        int r = parse_line(line, cells, &one, lineno);
        if (r < 0) {
            status = hoyle_error_prefix(HOYLE_EINVAL, "%s", path);
        } else if (r == 1) {
            if (n == cap) {
                cap = cap ? 2 * cap : 128;
                instance_t *b = realloc(a, sizeof *a * (size_t)cap);
                if (b == NULL) {
                    status = hoyle_error(HOYLE_ENOMEM, "out of memory");
                    break;
                }
                a = b;
            }
            a[n++] = one;
        }
    }
    fclose(f);
    if (status == 0 && n == 0) status = hoyle_error(HOYLE_EINVAL, "%s: no instances", path);
    if (status) {
        free(a);
        return status;
    }
    *out = a, *count = n;
    return HOYLE_OK;
}

typedef struct run_ctx {
    progress_t *pg;
    int done, total;
    const char *name;
} run_ctx_t;

static void on_progress(uint64_t nodes, int bound, void *ctx)
{
    run_ctx_t *r = ctx;
    char extra[96];
    snprintf(extra, sizeof extra, "#%s: bound %d, %llu nodes", r->name, bound,
             (unsigned long long)nodes);
    progress_update(r->pg, r->done, r->total, extra, 0);
}

/* The moves as one word of direction letters ("rdlu..."). */
static void moves_text(const game_t *g, const void *start, const fifteen_solve_result_t *r,
                       char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->length && used + 2 < cap; i++) {
        char a[GAME_MOVE_MAX];
        if (game_action_to_string(g, start, r->moves[i], a, sizeof a) > 0) buf[used++] = a[0];
    }
    buf[used] = '\0';
}

/* Replay the solution: every move legal, the puzzle solved at the end. */
static bool replays(const game_t *g, const void *start, const fifteen_solve_result_t *r)
{
    void *s = malloc(g->state_size);
    memcpy(s, start, g->state_size);
    bool ok = true;
    for (int i = 0; i < r->length && ok; i++) ok = game_apply_checked(g, s, r->moves[i]) == 0;
    double ret = 0;
    if (ok && game_is_terminal(g, s)) game_returns(g, s, &ret);
    free(s);
    return ok && ret == 1.0;
}

/* By fifteen_heuristic_t; the --heuristic row's choices. */
static const char *const heuristic_names[] = {"md", "lc", "pdb"};

/* The game the instances are solved in: the spec's, or for --korf the same
 * size with the blank first. */
static const game_t *solve_game(const char *spec, bool korf)
{
    const game_t *g = cli_game("solve", spec);
    if (g == NULL || !korf || params_choice(&g->params, "blank") == 1) return g;
    char korf_spec[64];
    snprintf(korf_spec, sizeof korf_spec, "fifteen(size=%lld,blank=first)",
             params_int(&g->params, "size"));
    game_free(g);
    return cli_game("solve", korf_spec);
}

/* Step 1: the instances, of --korf FILE (its first `first` with --first) or the one
 * --position (else the start); every start checked before any search. CLI_CONTINUE, or the
 * exit code after a message. *inst (count entries) is the caller's to free. */
static int load_instances(const game_t *g, const char *korf, const char *position, uint64_t first,
                          void *start, instance_t **inst, int *count)
{
    int n = (int)params_int(&g->params, "size"), rc = CLI_CONTINUE;
    if (korf) {
        if (read_instances(korf, n * n, inst, count)) rc = cli_fail("solve", EXIT_USAGE);
        if (first && (uint64_t)*count > first) *count = (int)first;
    } else {
        *inst = calloc(1, sizeof **inst);
        *count = 1;
        snprintf((*inst)->name, sizeof(*inst)->name, "%s", position ? "position" : "start");
        game_init(g, start);
        if (position)
            snprintf((*inst)->tiles, sizeof(*inst)->tiles, "%s", position);
        else
            game_position_to_string(g, start, (*inst)->tiles, sizeof(*inst)->tiles);
    }
    for (int i = 0; rc == CLI_CONTINUE && i < *count; i++)
        if (game_position_from_string(g, (*inst)[i].tiles, start)) {
            hoyle_error_prefix(HOYLE_EINVAL, "instance %s", (*inst)[i].name);
            rc = cli_fail("solve", EXIT_USAGE);
        }
    return rc;
}

/* What the instances add up to (the last line, or the JSON's totals). */
typedef struct totals {
    uint64_t nodes;
    long length, published;
    int unsolved, wrong;
    double seconds;
} totals_t;

static void report_head(json_t *j, bool json, const game_t *g, fifteen_heuristic_t h,
                        const fifteen_pdb_t *pdb, double pdb_seconds)
{
    if (json) {
        json_begin(j, stdout);
        json_str(j, "game", g->spec);
        json_str(j, "heuristic", heuristic_names[h]);
        if (pdb) {
            json_str(j, "pdb_file", fifteen_pdb_path(pdb));
            json_bool(j, "pdb_from_cache", fifteen_pdb_from_cache(pdb));
            json_num(j, "pdb_seconds", "%.3f", pdb_seconds);
        }
        json_open(j, "instances", '[');
        return;
    }
    printf("%s, IDA* with %s", g->spec, heuristic_names[h]);
    if (pdb)
        printf(" (%s %.2f s)", fifteen_pdb_from_cache(pdb) ? "tables loaded in" : "tables built in",
               pdb_seconds);
    printf("\n");
}

/* One instance's line (or object): `ok` the solution replays, `matches` its length is the
 * published one (or none is). */
static void report_instance(json_t *j, bool json, const instance_t *in,
                            const fifteen_solve_result_t *r, bool ok, bool matches,
                            const char *text)
{
    if (json) {
        json_open(j, NULL, '{');
        json_str(j, "id", in->name);
        json_str(j, "position", in->tiles);
        json_bool(j, "solved", r->solved);
        json_int(j, "length", r->length);
        if (in->published) json_int(j, "published", in->published);
        json_bool(j, "replayed", ok);
        json_str(j, "moves", text);
        json_int(j, "h0", r->h0);
        json_u64(j, "nodes", r->nodes);
        json_num(j, "seconds", "%.4f", r->seconds);
        json_close(j);
        return;
    }
    char status[48] = "";
    if (!r->solved)
        snprintf(status, sizeof status, "  UNSOLVED (bound %d)", r->bound);
    else if (!ok)
        snprintf(status, sizeof status, "  REPLAY FAILED");
    else if (!matches)
        snprintf(status, sizeof status, "  WRONG (published %d)", in->published);
    printf("#%-4s length %3d  h0 %3d  nodes %12llu  %8.3f s  %s%s\n", in->name, r->length, r->h0,
           (unsigned long long)r->nodes, r->seconds, text, status);
}

static void report_totals(json_t *j, bool json, int count, const totals_t *t)
{
    double rate = t->seconds > 0 ? (double)t->nodes / t->seconds : 0;
    if (json) {
        json_close(j);
        json_int(j, "count", count);
        json_int(j, "total_length", t->length);
        if (t->published) json_int(j, "total_published", t->published);
        json_int(j, "unsolved", t->unsolved);
        json_int(j, "wrong", t->wrong);
        json_u64(j, "total_nodes", t->nodes);
        json_num(j, "total_seconds", "%.3f", t->seconds);
        json_num(j, "nodes_per_second", "%.0f", rate);
        json_end(j);
        return;
    }
    printf("%d instance%s: total length %ld", count, count == 1 ? "" : "s", t->length);
    if (t->published) printf(" (published %ld)", t->published);
    printf(", %llu nodes, %.3f s, %.2f M nodes/s", (unsigned long long)t->nodes, t->seconds,
           rate / 1e6);
    if (t->unsolved || t->wrong) printf("; %d unsolved, %d wrong", t->unsolved, t->wrong);
    printf("\n");
}

int solve_fifteen(int argc, char **argv)
{
    const char *spec = NULL, *position = NULL, *korf = NULL, *pdb_dir = NULL, *heur = NULL;
    uint64_t max_nodes = 0, first = 0;
    bool json = false, quiet = false, p555 = false;
    const cli_opt_t opts[] = {
        CLI_OPT_POSITION(&position),
        CLI_OPT("--korf", &korf, "FILE", "solve every instance of FILE"),
        CLI_OPT_CHOICE("--heuristic", &heur, "H", "md|lc|pdb",
                       "the lower bound (default pdb up to 4x4, else lc)"),
        CLI_OPT_FLAG("--pdb-555", &p555, "4x4: the 5-5-5 tables (weaker, built faster)"),
        CLI_OPT("--pdb-dir", &pdb_dir, "DIR", "pattern-database cache ('' = none)"),
        CLI_OPT("--first", &first, "K", "only the first K instances of FILE"),
        CLI_OPT("--nodes", &max_nodes, "N", "node limit per instance (default none)"),
        CLI_OPT_FLAG("--quiet", &quiet, "no progress lines"),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    int rc = cli_parse_one("solve", help, opts, "GAME", NULL, &spec, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    if (position && korf)
        return cli_usage_error("solve", "--position and --korf exclude each other");
    const game_t *g = solve_game(spec, korf != NULL);
    if (g == NULL) return EXIT_USAGE;
    int n = (int)params_int(&g->params, "size");
    fifteen_heuristic_t h = n <= 4 ? FIFTEEN_H_PDB : FIFTEEN_H_LC;
    for (int i = 0; heur && i < (int)(sizeof heuristic_names / sizeof *heuristic_names); i++)
        if (strcmp(heur, heuristic_names[i]) == 0) h = (fifteen_heuristic_t)i; /* checked */
    /* 1. the instances */
    instance_t *inst = NULL;
    int count = 0;
    void *start = malloc(g->state_size);
    rc = load_instances(g, korf, position, first, start, &inst, &count);
    /* 2. the pattern databases */
    fifteen_pdb_t *pdb = NULL;
    double pdb_seconds = 0;
    if (rc == CLI_CONTINUE && h == FIFTEEN_H_PDB) {
        double t0 = clock_seconds();
        fifteen_board_t b;
        game_init(g, start);
        fifteen_board(g, start, &b);
        if (fifteen_pdb_open(n, b.goal_cell[0], p555 ? FIFTEEN_PDB_555 : FIFTEEN_PDB_663, pdb_dir,
                             quiet ? NULL : stderr, &pdb))
            rc = cli_fail("solve", EXIT_USAGE);
        pdb_seconds = clock_seconds() - t0;
    }
    /* 3. solve, replay, check, report */
    progress_t pg;
    progress_start(&pg, quiet ? NULL : stderr, "[solve]", "instances", 0);
    progress_defer(&pg); /* a short run adds no progress line to a log */
    json_t j;
    if (rc == CLI_CONTINUE) report_head(&j, json, g, h, pdb, pdb_seconds);
    totals_t t = {0};
    char *text = malloc(FIFTEEN_SOLVE_MAX_LEN + 8);
    for (int i = 0; rc == CLI_CONTINUE && i < count; i++) {
        game_position_from_string(g, inst[i].tiles, start);
        fifteen_board_t b;
        fifteen_board(g, start, &b);
        run_ctx_t ctx = {.pg = &pg, .done = i, .total = count, .name = inst[i].name};
        fifteen_solve_params_t sp = {.heuristic = h,
                                     .pdb = pdb,
                                     .max_nodes = max_nodes,
                                     .progress = on_progress,
                                     .ctx = &ctx};
        fifteen_solve_result_t r;
        if (fifteen_solve(&b, &sp, &r)) {
            rc = cli_fail("solve", EXIT_FAILED);
            break;
        }
        bool ok = r.solved && replays(g, start, &r);
        bool matches = !r.solved || inst[i].published == 0 || inst[i].published == r.length;
        t.unsolved += !r.solved;
        t.wrong += r.solved && (!ok || !matches);
        t.nodes += r.nodes;
        t.length += r.length;
        t.published += inst[i].published;
        t.seconds += r.seconds;
        moves_text(g, start, &r, text, FIFTEEN_SOLVE_MAX_LEN + 8);
        progress_clear(&pg);
        report_instance(&j, json, &inst[i], &r, ok, matches, text);
        fflush(stdout);
        if (count > 1) progress_update(&pg, i + 1, count, NULL, i + 1 == count);
    }
    if (rc == CLI_CONTINUE) {
        report_totals(&j, json, count, &t);
        rc = t.unsolved || t.wrong ? EXIT_FAILED : EXIT_OK;
    }
    free(text);
    fifteen_pdb_free(pdb);
    free(inst);
    free(start);
    game_free(g);
    return rc;
}
