/* cmd_sprt.c — `hoyle sprt GAME A B --elo0 0 --elo1 10`: a sequential
 * probability ratio test (eval/sprt.h) on colour-swapped game pairs: each
 * pair plays one opening twice, A first then B first (each game its own seed),
 * the two games in parallel threads. Stops when the LLR crosses a bound or
 * after --max-pairs pairs. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/rng.h"
#include "eval/openings.h"
#include "eval/sprt.h"
#include "eval/tournament.h"
#include "mcts/agent.h"

static const char help[] =
    "usage: hoyle sprt GAME A B [--elo0 E0] [--elo1 E1] [--alpha A] [--beta B]\n"
    "                  [--max-pairs N] [--seed S] [--openings SRC] [--max-moves M] [--json]\n\n"
    "Test H0: Elo(A - B) = E0 (default 0) against H1: Elo(A - B) = E1 (default 10)\n"
    "with Wald's SPRT on pairs of games (pentanomial GSPRT, eval/sprt.h). Each pair\n"
    "plays one opening twice, A moving first, then B. Openings\n"
    "SRC: random:K (default random:2, K random whole moves, a new one per pair),\n"
    "book:PATH (cycled), or none. --max-moves M adjudicates a draw after M whole\n"
    "moves. Stops when the log-likelihood ratio leaves [log(B/(1-A)),\n"
    "log((1-B)/A)] (alpha, beta default 0.05) or after N pairs (default 1000).\n"
    "Progress (one line per pair) goes to stderr. Exit 0 with the decision.\n";

typedef struct pair_game {
    const game_t *g;
    const char *spec[2];
    const opening_t *opening;
    uint64_t seed;
    int max_moves, status;
    tour_game_result_t res;
    char error[256];
} pair_game_t;

static void *play_thread(void *arg)
{
    pair_game_t *p = arg;
    p->status = tournament_play(p->g, p->spec, p->opening, p->seed, p->max_moves, &p->res);
    if (p->status) snprintf(p->error, sizeof p->error, "%s", hoyle_last_error());
    return NULL;
}

static int parse_double(const char *opt, const char *text, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end) return cli_usage_error("sprt", "%s: '%s' is not a number", opt, text);
    *out = v;
    return 0;
}

int cmd_sprt(int argc, char **argv)
{
    const char *pos[3] = {NULL, NULL, NULL}, *src = "random:2";
    int npos = 0;
    bool json = false;
    uint64_t max_pairs = 1000, seed = 1, max_moves = 0;
    sprt_params_t sp;
    sprt_params_default(&sp);
    sp.elo1 = 10;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(help, stdout);
            return EXIT_OK;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (a[0] == '-' && a[1] == '-' && i + 1 >= argc) {
            return cli_usage_error("sprt", "%s needs a value", a);
        } else if (strcmp(a, "--elo0") == 0 || strcmp(a, "--elo1") == 0 ||
                   strcmp(a, "--alpha") == 0 || strcmp(a, "--beta") == 0) {
            double *dst = a[2] == 'a'   ? &sp.alpha
                          : a[2] == 'b' ? &sp.beta
                          : a[5] == '0' ? &sp.elo0
                                        : &sp.elo1;
            if (parse_double(a, argv[++i], dst)) return EXIT_USAGE;
        } else if (strcmp(a, "--max-pairs") == 0 || strcmp(a, "--seed") == 0 ||
                   strcmp(a, "--max-moves") == 0) {
            uint64_t *dst = a[2] == 's' ? &seed : a[6] == 'p' ? &max_pairs : &max_moves;
            if (cli_parse_u64("sprt", a, argv[++i], dst)) return EXIT_USAGE;
        } else if (strcmp(a, "--openings") == 0) {
            src = argv[++i];
        } else if (a[0] == '-' && a[1] == '-') {
            return cli_usage_error("sprt", "unknown option '%s' (try --help)", a);
        } else if (npos < 3) {
            pos[npos++] = a;
        } else {
            return cli_usage_error("sprt", "unexpected argument '%s'", a);
        }
    }
    if (npos < 3) return cli_usage_error("sprt", "expected GAME A B (try --help)");
    if (max_pairs < 1 || max_pairs > 10000000)
        return cli_usage_error("sprt", "--max-pairs must be in [1, 1e7]");
    if (max_moves > 1000000) return cli_usage_error("sprt", "--max-moves must be at most 1000000");
    sprt_t test;
    if (sprt_init(&test, &sp)) return cli_fail("sprt", EXIT_USAGE);
    const game_t *g = cli_game("sprt", pos[0]);
    if (g == NULL) return EXIT_USAGE;
    if (g->num_players != 2) {
        game_free(g);
        return cli_usage_error("sprt", "%s is not a two-player game", pos[0]);
    }
    opening_list_t book = {0, NULL};
    int random_k = -1, status = 0;
    if (strncmp(src, "book:", 5) == 0)
        status = openings_load_book(g, src + 5, &book);
    else if (strcmp(src, "none") == 0)
        random_k = 0;
    else if (strncmp(src, "random:", 7) == 0)
        random_k = atoi(src + 7);
    else
        status =
            hoyle_error(HOYLE_EINVAL, "--openings: '%s' is not random:K, book:PATH or none", src);
    if (random_k < 0 && book.n == 0 && status == 0)
        status = hoyle_error(HOYLE_EINVAL, "--openings: bad K");
    for (int k = 1; k <= 2 && status == 0; k++) {
        agent_t *probe = NULL;
        status = agent_create(g, pos[k], 0, &probe);
        agent_free(probe);
    }
    if (status) {
        opening_list_done(&book);
        game_free(g);
        return cli_fail("sprt", EXIT_USAGE);
    }
    double t0 = cli_now();
    uint64_t pairs = 0;
    sprt_decision_t d = SPRT_CONTINUE;
    for (; pairs < max_pairs && d == SPRT_CONTINUE && status == 0; pairs++) {
        uint64_t ps = rng_mix(seed + pairs);
        opening_list_t one = {0, NULL};
        const opening_t *o;
        if (book.n > 0)
            o = &book.items[pairs % (uint64_t)book.n];
        else if ((status = openings_random(g, random_k, 1, rng_mix(ps ^ 0x0be1), &one)))
            break;
        else
            o = &one.items[0];
        pair_game_t pg[2];
        memset(pg, 0, sizeof pg);
        for (int k = 0; k < 2; k++) {
            pg[k].g = g;
            pg[k].spec[0] = pos[1 + k];
            pg[k].spec[1] = pos[2 - k];
            pg[k].opening = o;
            /* own seed per game: with one seed, two copies of a stochastic agent
             * would replay the same game mirrored and every pair would score 1 */
            pg[k].seed = k == 0 ? ps : rng_mix(ps ^ 0x5eedULL);
            pg[k].max_moves = (int)max_moves;
        }
        pthread_t th;
        int threaded = pthread_create(&th, NULL, play_thread, &pg[1]) == 0;
        play_thread(&pg[0]);
        if (threaded)
            pthread_join(th, NULL);
        else
            play_thread(&pg[1]);
        for (int k = 0; k < 2 && status == 0; k++)
            if (pg[k].status) status = hoyle_error(pg[k].status, "%s", pg[k].error);
        if (status == 0) {
            double a_first = (pg[0].res.returns[0] > pg[0].res.returns[1]) ? 1
                             : pg[0].res.returns[0] < pg[0].res.returns[1] ? 0
                                                                           : 0.5;
            double a_second = (pg[1].res.returns[1] > pg[1].res.returns[0]) ? 1
                              : pg[1].res.returns[1] < pg[1].res.returns[0] ? 0
                                                                            : 0.5;
            status = sprt_add_pair(&test, a_first + a_second);
            d = sprt_decision(&test);
            double units, mean, se;
            sprt_score(&test, &units, &mean, &se);
            fprintf(stderr,
                    "pair %llu (%s): A %.1f/2, A score %.3f +- %.3f, LLR %.3f [%.3f, %.3f]\n",
                    (unsigned long long)pairs + 1, o->name, a_first + a_second, mean, 1.96 * se,
                    sprt_llr(&test), test.lower, test.upper);
        }
        for (int k = 0; k < 2; k++) tour_game_result_done(&pg[k].res);
        opening_list_done(&one);
    }
    opening_list_done(&book);
    if (status) {
        game_free(g);
        return cli_fail("sprt", EXIT_FAILED);
    }
    double units, mean, se;
    sprt_score(&test, &units, &mean, &se);
    const char *verdict = d == SPRT_ACCEPT_H1 ? "H1" : d == SPRT_ACCEPT_H0 ? "H0" : "none";
    /* Elo of the mean score; +-inf for a perfect score (JSON: null) */
    double elo = mean <= 0 ? -INFINITY : mean >= 1 ? INFINITY : sprt_score_to_elo(mean);
    char elo_text[32];
    if (isfinite(elo))
        snprintf(elo_text, sizeof elo_text, "%.1f", elo);
    else
        snprintf(elo_text, sizeof elo_text, "null");
    if (json) {
        printf("{\"game\":");
        cli_json_string(stdout, g->spec);
        printf(",\"a\":");
        cli_json_string(stdout, pos[1]);
        printf(",\"b\":");
        cli_json_string(stdout, pos[2]);
        printf(",\"elo0\":%g,\"elo1\":%g,\"alpha\":%g,\"beta\":%g,\"pairs\":%llu,\"penta\":[%g,%g,%"
               "g,%g,%g],"
               "\"score\":%.4f,\"score_se\":%.4f,\"elo\":%s,\"llr\":%.4f,\"lower\":%.4f,\"upper\":%"
               ".4f,"
               "\"accepted\":\"%s\",\"seconds\":%.2f}\n",
               sp.elo0, sp.elo1, sp.alpha, sp.beta, (unsigned long long)pairs, test.penta[0],
               test.penta[1], test.penta[2], test.penta[3], test.penta[4], mean, se, elo_text,
               sprt_llr(&test), test.lower, test.upper, verdict, cli_now() - t0);
    } else {
        printf("sprt %s: A = %s, B = %s\n", g->spec, pos[1], pos[2]);
        printf("  H0: Elo(A-B) = %g   H1: Elo(A-B) = %g   alpha %g beta %g\n", sp.elo0, sp.elo1,
               sp.alpha, sp.beta);
        printf("  pairs %llu, pair scores 0/0.5/1/1.5/2: %g/%g/%g/%g/%g\n",
               (unsigned long long)pairs, test.penta[0], test.penta[1], test.penta[2],
               test.penta[3], test.penta[4]);
        printf("  A score %.3f +- %.3f (Elo %+.0f)\n", mean, 1.96 * se, elo);
        if (se == 0 && units > 0)
            printf(
                "  every pair scored the same: the LLR stays 0 until results vary (eval/sprt.h)\n");
        printf("  LLR %.3f, bounds [%.3f, %.3f]: %s\n", sprt_llr(&test), test.lower, test.upper,
               d == SPRT_ACCEPT_H1   ? "H1 accepted (A is stronger by about elo1)"
               : d == SPRT_ACCEPT_H0 ? "H0 accepted"
                                     : "no decision (max pairs reached)");
        printf("  %.1f s\n", cli_now() - t0);
    }
    game_free(g);
    return EXIT_OK;
}
