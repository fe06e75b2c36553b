/* cmd_random.c — `hoyle random GAME`: uniformly random games, for rules
 * sanity (results, lengths) and raw contract speed (games/s). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/clock.h"
#include "games/playout.h"

static const char help[] =
    "usage: hoyle random GAME [--games N] [--seed S] [--position P] [--json]\n\n"
    "Play N (default 1000) uniformly random games from the start (or P) with\n"
    "seed S (default 1). Prints wins per player and draws, the first player's\n"
    "score (draw = 1/2) with a 95% interval, game length in actions and in\n"
    "whole moves (mean, sd, min, max), and games/s.\n";

/* Exit codes: 0 played; 2 bad usage, game or position, or a terminal
 * position; 1 a game failed (a rules bug the contract caught). */
int cmd_random(int argc, char **argv)
{
    const char *spec = NULL, *position = NULL;
    uint64_t games = 0, seed = 0; /* their rows give the defaults */
    bool json = false;
    const cli_opt_t opts[] = {
        CLI_OPT("--games", &games, "N", "games to play", .def = "1000", .min = 1,
                .max = CLI_NO_MAX),
        CLI_OPT("--seed", &seed, "S", "seed", .def = "1"),
        CLI_OPT_POSITION(&position),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    int rc = cli_parse_one("random", help, opts, "GAME", NULL, &spec, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    const game_t *g = cli_game("random", spec);
    if (g == NULL) return EXIT_USAGE;
    void *start = malloc(g->state_size);
    game_init(g, start);
    if (position && game_position_from_string(g, position, start)) {
        free(start), game_free(g);
        return cli_fail("random", EXIT_USAGE);
    }
    if (game_is_terminal(g, start)) {
        free(start), game_free(g);
        return cli_usage_error("random", "the position is already terminal");
    }
    game_random_stats_t st;
    double t0 = clock_seconds();
    int status = game_random_games(g, start, games, seed, &st);
    double seconds = clock_seconds() - t0;
    free(start);
    if (status) {
        game_free(g);
        return cli_fail("random", EXIT_FAILED);
    }
    double n = (double)st.games, mean = st.score_first / n;
    /* Normal-approximation interval on the first player's mean score, from
     * the running sums (sample variance, n - 1). */
    double var = n > 1 ? (st.score_first_sq - n * mean * mean) / (n - 1) : 0.0;
    double half = 1.96 * sqrt(var > 0 ? var / n : 0.0);
    double len_mean = st.len_sum / n;
    /* fmax: the running-sum formula can go slightly negative by rounding
     * when every game has the same length. */
    double len_sd = n > 1 ? sqrt(fmax(0.0, (st.len_sq - n * len_mean * len_mean) / (n - 1))) : 0.0;
    double rate = seconds > 0 ? n / seconds : 0.0;
    if (json) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", g->spec);
        json_u64(&j, "games", st.games);
        json_u64(&j, "seed", seed);
        json_open(&j, "wins", '[');
        for (int p = 0; p < g->num_players; p++) json_u64(&j, NULL, st.wins[p]);
        json_close(&j);
        json_u64(&j, "draws", st.draws);
        json_num(&j, "first_player_score", "%.6f", mean);
        json_open(&j, "first_player_score_ci95", '[');
        json_num(&j, NULL, "%.6f", mean - half);
        json_num(&j, NULL, "%.6f", mean + half);
        json_close(&j);
        json_num(&j, "length_mean", "%.3f", len_mean);
        json_num(&j, "length_sd", "%.3f", len_sd);
        json_int(&j, "length_min", st.len_min);
        json_int(&j, "length_max", st.len_max);
        json_num(&j, "moves_mean", "%.3f", (double)st.moves / n);
        json_num(&j, "seconds", "%.6f", seconds);
        json_num(&j, "games_per_second", "%.1f", rate);
        json_end(&j);
    } else {
        printf("%s: %llu random games, seed %llu\n", g->spec, (unsigned long long)st.games,
               (unsigned long long)seed);
        for (int p = 0; p < g->num_players; p++)
            printf("  player %d wins  %llu (%.1f%%)\n", p + 1, (unsigned long long)st.wins[p],
                   100.0 * (double)st.wins[p] / n);
        if (g->num_players == 2)
            printf("  draws          %llu (%.1f%%)\n", (unsigned long long)st.draws,
                   100.0 * (double)st.draws / n);
        printf("  first player score %.1f%% (95%% CI %.1f..%.1f, draws count 1/2)\n", 100 * mean,
               100 * (mean - half), 100 * (mean + half));
        printf("  length: %.1f actions (sd %.1f, min %d, max %d), %.1f whole moves\n", len_mean,
               len_sd, st.len_min, st.len_max, (double)st.moves / n);
        printf("  %.3f s, %.0f games/s\n", seconds, rate);
    }
    game_free(g);
    return EXIT_OK;
}
