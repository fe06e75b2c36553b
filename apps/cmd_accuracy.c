/* cmd_accuracy.c — `hoyle accuracy`: agents measured against perfect play.
 * Positions are drawn from endgame tables (solve/retro_accuracy.h), each
 * agent moves in every one of them, and the tables say whether the move kept
 * the position's value: the share kept (with a 95% Wilson interval), the
 * share of best moves, blunders, and the mean extra distance of kept wins
 * and losses (with a normal 95% interval), as a table, --json or --csv. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/error.h"
#include "eval/score.h"
#include "games/registry.h"
#include "solve/retro_accuracy.h"

#define MAX_AGENTS  16
#define MAX_CLASSES 64

static const char help[] =
    "usage: hoyle accuracy GAME --agent SPEC [--agent SPEC...] --tables DIR\n"
    "                      [--positions N] [--seed S] [--class C...] [--json | --csv]\n\n"
    "Measure agents against perfect play: N positions (default 200) are drawn\n"
    "from the endgame tables in DIR (each class equally likely, then a position\n"
    "uniformly among its legal, unfinished ones; classes: every --class, else\n"
    "every table of GAME in DIR), the same positions for every agent (seed S,\n"
    "default 1). Each agent makes its move, and the tables value it:\n"
    "  kept      the move keeps the position's value (win, draw, loss)\n"
    "  best      the move is one of the best (same value and distance)\n"
    "  blunder   a win thrown to a draw or loss, or a draw to a loss (a failed\n"
    "            move counts as a blunder)\n"
    "  extra     in won and lost positions whose value the move kept, the plies\n"
    "            it adds to a win or takes from a loss (0 = perfect)\n"
    "Shares come with 95% Wilson intervals, the mean extra with a normal 95%\n"
    "interval. Agents are reseeded per position from S.\n";

typedef struct row {
    double kept, kept_lo, kept_hi, best, blunder, blunder_lo, blunder_hi;
    double extra, extra_ci, seconds;
} row_t;

static row_t row_of(const retro_acc_t *a)
{
    row_t r = {0};
    double n = (double)a->n;
    r.kept = a->kept / n, r.best = a->optimal / n, r.blunder = a->blunders / n;
    wilson_interval(r.kept, n, 1.96, &r.kept_lo, &r.kept_hi);
    wilson_interval(r.blunder, n, 1.96, &r.blunder_lo, &r.blunder_hi);
    if (a->extra_n > 0) {
        double m = a->extra_sum / (double)a->extra_n;
        double var =
            a->extra_n > 1 ? (a->extra_sq - a->extra_sum * m) / (double)(a->extra_n - 1) : 0;
        r.extra = m, r.extra_ci = 1.96 * sqrt(var > 0 ? var : 0) / sqrt((double)a->extra_n);
    }
    r.seconds = a->seconds / n;
    return r;
}

static void print_rows(const char *const *specs, const retro_acc_t *acc, int na, bool json,
                       bool csv, const game_t *g, const char *dir, uint64_t n, uint64_t seed,
                       char names[][RETRO_CLASS_MAX], int nc)
{
    if (json) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", g->spec);
        json_str(&j, "tables", dir);
        json_u64(&j, "positions", n);
        json_u64(&j, "seed", seed);
        json_open(&j, "classes", '[');
        for (int i = 0; i < nc; i++) json_str(&j, NULL, names[i]);
        json_close(&j);
        json_open(&j, "agents", '[');
        for (int i = 0; i < na; i++) {
            row_t r = row_of(&acc[i]);
            json_open(&j, NULL, '{');
            json_str(&j, "agent", specs[i]);
            json_num(&j, "kept", "%.4f", r.kept);
            json_num(&j, "kept_lo", "%.4f", r.kept_lo);
            json_num(&j, "kept_hi", "%.4f", r.kept_hi);
            json_num(&j, "best", "%.4f", r.best);
            json_num(&j, "blunders", "%.4f", r.blunder);
            json_num(&j, "blunders_lo", "%.4f", r.blunder_lo);
            json_num(&j, "blunders_hi", "%.4f", r.blunder_hi);
            json_num(&j, "extra_plies", "%.3f", r.extra);
            json_num(&j, "extra_plies_ci", "%.3f", r.extra_ci);
            json_u64(&j, "failed", acc[i].failed);
            json_u64(&j, "won", acc[i].by_value[2]);
            json_u64(&j, "won_kept", acc[i].kept_by_value[2]);
            json_u64(&j, "drawn", acc[i].by_value[1]);
            json_u64(&j, "drawn_kept", acc[i].kept_by_value[1]);
            json_u64(&j, "lost", acc[i].by_value[0]);
            json_num(&j, "seconds_per_move", "%.5f", r.seconds);
            json_close(&j);
        }
        json_close(&j);
        json_end(&j);
        return;
    }
    if (csv) {
        printf("agent,positions,kept,kept_lo,kept_hi,best,blunders,blunders_lo,blunders_hi,"
               "extra_plies,extra_plies_ci,won,won_kept,drawn,drawn_kept,lost,seconds_per_move\n");
        for (int i = 0; i < na; i++) {
            row_t r = row_of(&acc[i]);
            printf(
                "\"%s\",%llu,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.3f,%.3f,%llu,%llu,%llu,%llu,"
                "%llu,%.5f\n",
                specs[i], (unsigned long long)acc[i].n, r.kept, r.kept_lo, r.kept_hi, r.best,
                r.blunder, r.blunder_lo, r.blunder_hi, r.extra, r.extra_ci,
                (unsigned long long)acc[i].by_value[2], (unsigned long long)acc[i].kept_by_value[2],
                (unsigned long long)acc[i].by_value[1], (unsigned long long)acc[i].kept_by_value[1],
                (unsigned long long)acc[i].by_value[0], r.seconds);
        }
        return;
    }
    printf("accuracy on %s: %llu positions (seed %llu) from", g->spec, (unsigned long long)n,
           (unsigned long long)seed);
    for (int i = 0; i < nc; i++) printf(" %s", names[i]);
    printf("\n%-28s %-22s %6s %-22s %-16s %9s\n", "agent", "kept [95%]", "best", "blunders [95%]",
           "extra plies", "s/move");
    for (int i = 0; i < na; i++) {
        row_t r = row_of(&acc[i]);
        char k[32], b[32], e[32];
        snprintf(k, sizeof k, "%.1f%% [%.1f, %.1f]", 100 * r.kept, 100 * r.kept_lo,
                 100 * r.kept_hi);
        snprintf(b, sizeof b, "%.1f%% [%.1f, %.1f]", 100 * r.blunder, 100 * r.blunder_lo,
                 100 * r.blunder_hi);
        snprintf(e, sizeof e, "%+.2f +- %.2f", r.extra, r.extra_ci);
        char w[16] = "-";
        if (acc[i].by_value[2])
            snprintf(w, sizeof w, "%.1f%%",
                     100.0 * (double)acc[i].kept_by_value[2] / (double)acc[i].by_value[2]);
        printf("%-28s %-22s %5.1f%% %-22s %-16s %8s %9.4f\n", specs[i], k, 100 * r.best, b, e, w,
               r.seconds);
    }
}

/* Each agent moves in every position; 0, or EXIT_* after printing. */
static int measure(const game_t *g, retro_tables_t *t, const char *const *specs, int na,
                   const uint8_t *states, size_t stride, uint64_t n, uint64_t seed,
                   retro_acc_t *acc)
{
    for (int i = 0; i < na; i++) {
        agent_t *a = NULL;
        if (agent_create(g, specs[i], seed, &a) < 0) return cli_fail("accuracy", EXIT_USAGE);
        fprintf(stderr, "[accuracy] %s\n", specs[i]);
        for (uint64_t k = 0; k < n; k++) {
            if (agent_reseed(a, rng_mix(seed + k)) < 0 ||
                retro_accuracy_one(t, a, states + k * stride, &acc[i]) < 0) {
                agent_free(a);
                return cli_fail("accuracy", EXIT_FAILED);
            }
        }
        agent_free(a);
    }
    return 0;
}

int cmd_accuracy(int argc, char **argv)
{
    const char *spec = NULL, *dir = NULL, *agents[MAX_AGENTS], *classes[MAX_CLASSES];
    int na = 0, ncl = 0;
    uint64_t n = 0, seed = 0; /* their rows give the defaults */
    bool json = false, csv = false;
    const cli_opt_t opts[] = {
        CLI_OPT_LIST("--agent", agents, &na, MAX_AGENTS, "SPEC", "an agent to measure"),
        CLI_OPT("--tables", &dir, "DIR", "the folder of endgame tables"),
        CLI_OPT("--positions", &n, "N", "positions", .def = "200", .min = 1, .max = 10000000),
        CLI_OPT("--seed", &seed, "S", "seed of the positions and agents", .def = "1"),
        CLI_OPT_LIST("--class", classes, &ncl, MAX_CLASSES, "C", "draw from class C"),
        CLI_OPT_JSON(&json),
        CLI_OPT_FLAG("--csv", &csv, "CSV on stdout"),
        CLI_OPT_END,
    };
    int rc =
        cli_parse_one("accuracy", help, opts, "GAME", cli_print_agent_kinds, &spec, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    if (na == 0) return cli_usage_error("accuracy", "--agent SPEC is required");
    if (dir == NULL) return cli_usage_error("accuracy", "--tables DIR is required");
    if (json && csv) return cli_usage_error("accuracy", "--json or --csv, not both");
    const game_t *g = cli_game("accuracy", spec);
    if (g == NULL) return EXIT_USAGE;
    char names[MAX_CLASSES][RETRO_CLASS_MAX];
    const char *use[MAX_CLASSES];
    int nc = ncl;
    const retro_index_t *ix = retro_index_find(g);
    rc = EXIT_OK;
    if (ix == NULL)
        rc = cli_usage_error("accuracy", "%s: no endgame tables for this game", g->spec);
    for (int i = 0; i < ncl && rc == EXIT_OK; i++)
        if (ix->class_parse(g, classes[i], names[i], NULL) < 0)
            rc = cli_fail("accuracy", EXIT_USAGE);
    if (rc == EXIT_OK && ncl == 0 && (nc = retro_tables_list(g, dir, names, MAX_CLASSES)) <= 0)
        rc = cli_usage_error("accuracy", "%s: no tables of %s", dir, g->spec);
    for (int i = 0; i < nc; i++) use[i] = names[i];
    size_t stride = (g->state_size + GAME_STATE_ALIGN - 1) / GAME_STATE_ALIGN * GAME_STATE_ALIGN;
    uint8_t *states = rc == EXIT_OK ? aligned_alloc(GAME_STATE_ALIGN, stride * n) : NULL;
    retro_acc_t *acc = calloc(MAX_AGENTS, sizeof *acc);
    retro_tables_t *t = NULL;
    if (rc == EXIT_OK && (states == NULL || acc == NULL))
        hoyle_error(HOYLE_ENOMEM, "out of memory"), rc = cli_fail("accuracy", EXIT_FAILED);
    if (rc == EXIT_OK && retro_tables_open(g, dir, &t) < 0) rc = cli_fail("accuracy", EXIT_USAGE);
    rng_t rng;
    rng_init(&rng, seed);
    for (uint64_t k = 0; k < n && rc == EXIT_OK; k++) {
        retro_code_t v;
        if (retro_sample(g, use, nc, &rng, states + k * stride) < 0 ||
            retro_probe(t, states + k * stride, &v) < 0)
            rc = cli_fail("accuracy", EXIT_USAGE); /* a class without its table */
    }
    if (rc == EXIT_OK) rc = measure(g, t, agents, na, states, stride, n, seed, acc);
    if (rc == EXIT_OK) print_rows(agents, acc, na, json, csv, g, dir, n, seed, names, nc);
    retro_tables_close(t);
    free(acc);
    free(states);
    game_free(g);
    return rc;
}
