/* cmd_random.c — `hoyle random GAME`: uniformly random games, for rules
 * sanity (results, lengths) and raw contract speed (games/s). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "games/playout.h"

static const char help[] =
    "usage: hoyle random GAME [--games N] [--seed S] [--position P] [--json]\n\n"
    "Play N (default 1000) uniformly random games from the start (or P) with\n"
    "seed S (default 1). Prints wins per player and draws, the first player's\n"
    "score (draw = 1/2) with a 95% interval, game length in actions and in\n"
    "whole moves (mean, sd, min, max), and games/s.\n";

int cmd_random(int argc, char **argv)
{
    const char *spec = NULL, *position = NULL;
    uint64_t games = 1000, seed = 1;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) return fputs(help, stdout), EXIT_OK;
        if (strcmp(argv[i], "--games") == 0 && i + 1 < argc) {
            if (cli_parse_u64("random", "--games", argv[++i], &games)) return EXIT_USAGE;
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            if (cli_parse_u64("random", "--seed", argv[++i], &seed)) return EXIT_USAGE;
        } else if (strcmp(argv[i], "--position") == 0 && i + 1 < argc) {
            position = argv[++i];
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (argv[i][0] == '-') {
            return cli_usage_error("random", "unknown or incomplete option '%s' (see --help)",
                                   argv[i]);
        } else if (spec == NULL) {
            spec = argv[i];
        } else {
            return cli_usage_error("random", "unexpected argument '%s'", argv[i]);
        }
    }
    if (spec == NULL) return cli_usage_error("random", "missing GAME (see --help)");
    if (games == 0) return cli_usage_error("random", "--games: must be at least 1");
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
    double t0 = cli_now();
    int status = game_random_games(g, start, games, seed, &st);
    double seconds = cli_now() - t0;
    free(start);
    if (status) {
        game_free(g);
        return cli_fail("random", EXIT_FAILED);
    }
    double n = (double)st.games, mean = st.score_first / n;
    double var = n > 1 ? (st.score_first_sq - n * mean * mean) / (n - 1) : 0.0;
    double half = 1.96 * sqrt(var > 0 ? var / n : 0.0);
    double len_mean = st.len_sum / n;
    double len_sd = n > 1 ? sqrt(fmax(0.0, (st.len_sq - n * len_mean * len_mean) / (n - 1))) : 0.0;
    double rate = seconds > 0 ? n / seconds : 0.0;
    if (json) {
        printf("{\"game\":");
        cli_json_string(stdout, g->spec);
        printf(",\"games\":%llu,\"seed\":%llu,\"wins\":[", (unsigned long long)st.games,
               (unsigned long long)seed);
        for (int p = 0; p < g->num_players; p++)
            printf("%s%llu", p ? "," : "", (unsigned long long)st.wins[p]);
        printf(
            "],\"draws\":%llu,\"first_player_score\":%.6f,\"first_player_score_ci95\":[%.6f,%.6f],"
            "\"length_mean\":%.3f,\"length_sd\":%.3f,\"length_min\":%d,\"length_max\":%d,"
            "\"moves_mean\":%.3f,\"seconds\":%.6f,\"games_per_second\":%.1f}\n",
            (unsigned long long)st.draws, mean, mean - half, mean + half, len_mean, len_sd,
            st.len_min, st.len_max, (double)st.moves / n, seconds, rate);
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
