/* cmd_sprt.c — `hoyle sprt GAME A B --elo0 0 --elo1 10`: a sequential
 * probability ratio test (eval/sprt.h) on colour-swapped game pairs played
 * by the pair runner (eval/sprt_run.h). Stops when the LLR crosses a bound
 * or after --max-pairs pairs. */
#include <math.h>
#include <stdio.h>

#include "apps/cli.h"
#include "apps/cli_record.h"
#include "core/clock.h"
#include "core/progress.h"
#include "eval/score.h"
#include "eval/sprt_run.h"

static const char help[] =
    "usage: hoyle sprt GAME A B [--elo0 E0] [--elo1 E1] [--alpha A] [--beta B]\n"
    "                  [--max-pairs N] [--seed S] [--openings SRC] [--max-moves M]\n"
    "                  [--record OUT] [--json]\n\n"
    "Test H0: Elo(A - B) = E0 (default 0) against H1: Elo(A - B) = E1 (default 10)\n"
    "with Wald's SPRT on pairs of games (pentanomial GSPRT, eval/sprt.h). Each pair\n"
    "plays one opening twice, A moving first, then B. Openings\n"
    "SRC: random:K (default random:2, K random whole moves, a new one per pair),\n"
    "book:PATH (cycled), or none. --max-moves M adjudicates a draw after M whole\n"
    "moves. Stops when the log-likelihood ratio leaves [log(B/(1-A)),\n"
    "log((1-B)/A)] (alpha, beta default 0.05) or after N pairs (default 1000).\n"
    "--record OUT stores every game: OUT.h5 as HDF5 game records (hoyle elo,\n"
    "hoyle report, the page's Replay), any other name as PGN/PDN.\n"
    "Progress (pairs done, ETA to the expected decision) goes to stderr. Exit 0 with the "
    "decision.\n";

/* --record: each game of the test into the record file. */
static int record_game(void *ctx, const game_record_t *rec)
{
    return cli_record_add(ctx, rec, NULL);
}

/* The progress line after each pair (stderr); its ETA is to the expected decision. */
typedef struct pair_progress {
    progress_t pg;
    uint64_t max_pairs;
    char extra[GAME_SPEC_MAX + 160]; /* the last pair, for the final line */
} pair_progress_t;

/* The pairs the test is expected to take, for the ETA: at the LLR's mean
 * drift per pair so far, the pairs until it reaches the bound it heads for,
 * capped by --max-pairs (an ETA to max_pairs alone overstated by far: a
 * clear test stops at a bound long before). */
static int64_t expected_pairs(const sprt_t *test, uint64_t done, uint64_t max_pairs)
{
    double llr = sprt_llr(test), drift = llr / (double)done;
    double left = (double)(max_pairs - done);
    if (drift > 0) left = fmin(left, (test->upper - llr) / drift);
    if (drift < 0) left = fmin(left, (test->lower - llr) / drift);
    if (!(left > 0)) left = 0;
    return (int64_t)done + (int64_t)ceil(left);
}

static void on_pair(void *ctx, uint64_t pair, const char *opening, double score, const sprt_t *test)
{
    pair_progress_t *c = ctx;
    double units, mean, se;
    sprt_score(test, &units, &mean, &se);
    snprintf(c->extra, sizeof c->extra,
             "last (%s) A %.1f/2, A score %.3f +- %.3f, LLR %.3f [%.3f, %.3f]", opening, score,
             mean, 1.96 * se, sprt_llr(test), test->lower, test->upper);
    progress_update(&c->pg, (int64_t)pair + 1, expected_pairs(test, pair + 1, c->max_pairs),
                    c->extra, 0);
}

/* The test's result: the pair counts, A's score and Elo, the LLR and the
 * verdict, as text or JSON. */
static void report_sprt(const game_t *g, const char *const *pos, const sprt_params_t *spp,
                        const sprt_t *tp, uint64_t pairs, sprt_decision_t d, double seconds,
                        bool json)
{
    sprt_params_t sp = *spp;
    sprt_t test = *tp;
    double units, mean, se;
    sprt_score(&test, &units, &mean, &se);
    const char *verdict = d == SPRT_ACCEPT_H1 ? "H1" : d == SPRT_ACCEPT_H0 ? "H0" : "none";
    double elo = score_to_elo(mean); /* +-inf for a perfect score (JSON: null) */
    if (json) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", g->spec);
        json_str(&j, "a", pos[1]);
        json_str(&j, "b", pos[2]);
        json_num(&j, "elo0", "%g", sp.elo0);
        json_num(&j, "elo1", "%g", sp.elo1);
        json_num(&j, "alpha", "%g", sp.alpha);
        json_num(&j, "beta", "%g", sp.beta);
        json_u64(&j, "pairs", pairs);
        json_open(&j, "penta", '[');
        for (int k = 0; k < 5; k++) json_num(&j, NULL, "%g", test.penta[k]);
        json_close(&j);
        json_num(&j, "score", "%.4f", mean);
        json_num(&j, "score_se", "%.4f", se);
        json_num(&j, "elo", "%.1f", elo);
        json_num(&j, "llr", "%.4f", sprt_llr(&test));
        json_num(&j, "lower", "%.4f", test.lower);
        json_num(&j, "upper", "%.4f", test.upper);
        json_str(&j, "accepted", verdict);
        json_num(&j, "seconds", "%.2f", seconds);
        json_end(&j);
    } else {
        printf("sprt %s: A = %s, B = %s\n", g->spec, pos[1], pos[2]);
        printf("  H0: Elo(A-B) = %g   H1: Elo(A-B) = %g   alpha %g beta %g\n", sp.elo0, sp.elo1,
               sp.alpha, sp.beta);
        printf("  pairs %llu, pair scores 0/0.5/1/1.5/2: %g/%g/%g/%g/%g\n",
               (unsigned long long)pairs, test.penta[0], test.penta[1], test.penta[2],
               test.penta[3], test.penta[4]);
        printf("  A score %.3f +- %.3f (Elo %+.0f)\n", mean, 1.96 * se, elo);
        char why[96];
        if (d == SPRT_ACCEPT_H1)
            snprintf(why, sizeof why, "H1 accepted (A is stronger, by about %g Elo or more)",
                     sp.elo1);
        else if (d == SPRT_ACCEPT_H0)
            snprintf(why, sizeof why, "H0 accepted (Elo(A-B) nearer %g than %g)", sp.elo0, sp.elo1);
        else
            snprintf(why, sizeof why, "no decision (max pairs reached)");
        printf("  LLR %.3f, bounds [%.3f, %.3f]: %s\n", sprt_llr(&test), test.lower, test.upper,
               why);
        printf("  %.1f s\n", seconds);
    }
}

/* Exit codes: 0 the test ran, whatever it decided (the verdict is in the
 * output, so a script reads "accepted", not the status); 2 bad usage,
 * SPRT parameters, game or agent specs; 1 a pair could not be played. */
int cmd_sprt(int argc, char **argv)
{
    const char *pos[3] = {NULL, NULL, NULL}, *src = NULL, *record_path = NULL;
    bool json = false;
    uint64_t max_pairs = 0, seed = 0, max_moves = 0;
    sprt_params_t sp;
    sprt_params_default(&sp);
    /* The library's default alternative is +5 Elo (eval/sprt.c); this
     * command's default (its --elo1 row) is +10. */
    const cli_opt_t opts[] = {
        CLI_OPT("--elo0", &sp.elo0, "E0", "H0: Elo(A - B) = E0", .def = "0"),
        CLI_OPT("--elo1", &sp.elo1, "E1", "H1: Elo(A - B) = E1", .def = "10"),
        CLI_OPT("--alpha", &sp.alpha, "A", "false positive rate", .def = "0.05"),
        CLI_OPT("--beta", &sp.beta, "B", "false negative rate", .def = "0.05"),
        CLI_OPT("--max-pairs", &max_pairs, "N", "most pairs", .def = "1000", .min = 1, .max = 1e7),
        CLI_OPT("--seed", &seed, "S", "seed of the pairs", .def = "1"),
        CLI_OPT("--openings", &src, "SRC", "random:K, book:PATH or none", .def = "random:2"),
        CLI_OPT("--max-moves", &max_moves, "M", "adjudicate a draw after M whole moves", .min = 0,
                .max = 1e6),
        CLI_OPT("--record", &record_path, "OUT", "store the games: OUT.h5 as HDF5, else PGN/PDN"),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    const cli_command_t command = {.name = "sprt",
                                   .help = help,
                                   .opts = opts,
                                   .positional = "GAME A B",
                                   .min_pos = 3,
                                   .max_pos = 3,
                                   .pos = pos};
    int rc = cli_parse(&command, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    sprt_t test;
    /* Validated before anything is built: bad bounds (alpha + beta >= 1, elo0
     * >= elo1) are usage errors, not a wasted run. */
    if (sprt_init(&test, &sp)) return cli_fail("sprt", EXIT_USAGE);
    const game_t *g = cli_game("sprt", pos[0]);
    if (g == NULL) return EXIT_USAGE;
    if (g->num_players != 2) {
        game_free(g);
        return cli_usage_error("sprt", "%s is not a two-player game", pos[0]);
    }
    sprt_run_params_t rp = {.spec = {pos[1], pos[2]},
                            .openings = src,
                            .max_pairs = max_pairs,
                            .seed = seed,
                            .max_moves = (int)max_moves};
    sprt_runner_t *runner;
    cli_record_t *record = NULL;
    if (record_path &&
        (rc = cli_record_open("sprt", record_path, g, false, "hoyle sprt", &record)) != EXIT_OK) {
        game_free(g);
        return rc;
    }
    rp.on_game = record ? record_game : NULL;
    rp.game_ctx = record;
    /* Creates both agents and the opening source up front, so a bad spec
     * fails before the first pair. */
    if (sprt_runner_create(g, &rp, &runner)) {
        cli_record_close(record);
        game_free(g);
        return cli_fail("sprt", EXIT_USAGE);
    }
    double t0 = clock_seconds();
    uint64_t pairs = 0;
    sprt_decision_t d = SPRT_CONTINUE;
    pair_progress_t pp = {.max_pairs = max_pairs};
    progress_start(&pp.pg, stderr, "[sprt]", "pairs", 0);
    int status = sprt_runner_run(runner, &test, on_pair, &pp, &pairs, &d);
    if (status == 0 && pairs > 0)
        /* the test has ended (a decision or max pairs): done of done, ETA 0 */
        progress_update(&pp.pg, (int64_t)pairs, (int64_t)pairs, pp.extra, 1);
    progress_clear(&pp.pg); /* a failed run leaves no half line */
    sprt_runner_free(runner);
    int closed = cli_record_close(record);
    if (status == 0) status = closed;
    if (status) {
        game_free(g);
        return cli_fail("sprt", EXIT_FAILED);
    }
    report_sprt(g, pos, &sp, &test, pairs, d, clock_seconds() - t0, json);
    game_free(g);
    return EXIT_OK;
}
