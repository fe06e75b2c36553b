/* cmd_match.c — `hoyle match GAME A B`: a head-to-head match between two
 * agents, colours alternated, seeds derived per game, W/D/L from A's view
 * with a 95% interval on the score and an Elo difference estimate. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "apps/cli_record.h"
#include "core/clock.h"
#include "core/progress.h"
#include "core/rng.h"
#include "eval/score.h"
#include "mcts/agent.h"

static const char help[] =
    "usage: hoyle match GAME A B [--games N] [--seed S] [--record OUT] [--json]\n\n"
    "Play N (default 10) games between agents A and B (specs such as\n"
    "mcts(sims=1000), alphabeta(depth=6), greedy, random). A plays first in\n"
    "even-numbered games and second in odd ones. Game i uses seeds derived\n"
    "from S (default 1) with rng_mix, so a match repeats exactly when the\n"
    "agents are limited by simulations or depth (not time).\n"
    "Prints wins/draws/losses of A, A's score (draw = 1/2) with a 95% Wilson\n"
    "interval and the Elo difference 400*log10(s/(1-s)) with the interval's\n"
    "bounds mapped the same way. At a score of 1 (0) the estimate and the upper\n"
    "(lower) bound are unbounded: +inf (-inf) in the table, null in JSON; the\n"
    "other bound is still the Wilson bound's Elo (10 wins of 10: [+166, +inf]).\n"
    "An agent that fails or plays an illegal move loses that game (a forfeit,\n"
    "noted on stderr). --record OUT writes every game to OUT: OUT.h5 as HDF5 game\n"
    "records (the tournaments' file: hoyle elo, hoyle report and the page's Replay\n"
    "read it), any other name in the game's record format (PGN for chess, PDN for\n"
    "checkers). Progress goes to stderr;\n"
    "--json prints one JSON object on stdout.\n";

/* Open --record OUT (its config attribute the match's command line) and the
 * buffers a game's actions and times go to. CLI_CONTINUE, or the exit code
 * after the message (nothing left allocated). */
static int record_open(const char *path, const game_t *g, const char *const *spec, uint64_t games,
                       uint64_t seed, cli_record_t **out, int32_t **actions, float **action_ms)
{
    char what[3 * GAME_SPEC_MAX + 96];
    snprintf(what, sizeof what, "hoyle match '%s' '%s' '%s' --games %llu --seed %llu", g->spec,
             spec[1], spec[2], (unsigned long long)games, (unsigned long long)seed);
    size_t cap = (size_t)agent_game_capacity(g);
    *actions = malloc(sizeof **actions * cap);
    *action_ms = malloc(sizeof **action_ms * cap);
    int rc = *actions && *action_ms ? cli_record_open("match", path, g, false, what, out)
                                    : cli_usage_error("match", "out of memory");
    if (rc == EXIT_OK) return CLI_CONTINUE;
    free(*actions);
    free(*action_ms);
    *actions = NULL, *action_ms = NULL;
    return rc;
}

/* Game `round` (from 1) of the match, stored by --record; `seats` names the
 * agents per seat as the user typed them (a tournament stores its config's). */
static int record_game(cli_record_t *r, const char *const *seats, int round, uint64_t seed,
                       const agent_game_result_t *res, const agent_game_opts_t *play)
{
    game_record_t rec = {.agent_spec = {(char *)seats[0], (char *)seats[1]},
                         .returns = {res->returns[0], res->returns[1]},
                         .end = res->end == AGENT_GAME_FORFEIT      ? RECORD_END_ERROR
                                : res->end == AGENT_GAME_MOVE_LIMIT ? RECORD_END_MOVE_LIMIT
                                                                    : RECORD_END_RULES,
                         .num_actions = res->num_actions,
                         .actions = play->actions,
                         .action_ms = play->action_ms,
                         .seed = seed,
                         .round = round,
                         .game_index = round - 1};
    return cli_record_add(r, &rec, NULL);
}

/* Exit codes: 0 the match was played (forfeits are results, not failures);
 * 2 bad usage, a bad game or agent spec, or a game with other than two
 * players; 1 a game could not be played (out of memory, an engine error). */
/* What a match adds up to, for its report. */
typedef struct match_tally {
    int wins, draws, losses; /* A's */
    double sum;              /* A's scores */
    long long total_length;  /* actions over all games */
} match_tally_t;

/* The match's result: A's W/D/L, mean score with its Wilson interval, the
 * Elo difference, as text or JSON. */
static void report_match(const game_t *g, const char *a_spec, const char *b_spec, int n,
                         uint64_t seed, const match_tally_t *m, double seconds, bool json)
{
    int wins = m->wins, draws = m->draws, losses = m->losses;
    long long total_length = m->total_length;
    /* Wilson interval on the mean score; treating a draw as half a win
     * overstates the variance slightly (conservative). */
    double mean = m->sum / n, lo, hi;
    wilson_interval(mean, n, 1.96, &lo, &hi);
    /* the Elo of the score and of the bounds, unbounded (inf, null in JSON)
     * at a score of 0 or 1: no finite number of games proves an upper
     * (lower) limit then, and the Wilson bound there is 1 (0) up to rounding */
    double elo = score_to_elo(mean);
    double elo_lo = mean <= 0 ? -INFINITY : score_to_elo(lo);
    double elo_hi = mean >= 1 ? INFINITY : score_to_elo(hi);
    if (json) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", g->spec);
        json_str(&j, "a", a_spec);
        json_str(&j, "b", b_spec);
        json_int(&j, "games", n);
        json_u64(&j, "seed", seed);
        json_int(&j, "wins", wins);
        json_int(&j, "draws", draws);
        json_int(&j, "losses", losses);
        json_num(&j, "score", "%.4f", mean);
        json_num(&j, "score_low", "%.4f", lo);
        json_num(&j, "score_high", "%.4f", hi);
        json_num(&j, "elo", "%.1f", elo);
        json_num(&j, "elo_low", "%.1f", elo_lo);
        json_num(&j, "elo_high", "%.1f", elo_hi);
        json_num(&j, "mean_length", "%.1f", (double)total_length / n);
        json_num(&j, "seconds", "%.3f", seconds);
        json_end(&j);
    } else {
        printf("match %s, %d games, seed %llu\n", g->spec, n, (unsigned long long)seed);
        printf("  A: %s\n  B: %s\n", a_spec, b_spec);
        printf("  A wins/draws/losses: %d/%d/%d\n", wins, draws, losses);
        printf("  A score: %.3f  95%% interval [%.3f, %.3f]\n", mean, lo, hi);
        printf("  Elo(A - B): %+.0f  95%% interval [%+.0f, %+.0f]\n", elo, elo_lo, elo_hi);
        printf("  mean game length: %.1f actions; %.2f s\n", (double)total_length / n, seconds);
    }
}

/* The games worth playing: when neither agent's moves depend on its seed
 * and the game has no dice, game i repeats game i - 2 (the same agents in
 * the same seats from the same start), so only the first two (one per
 * seating) are distinct, and counting repeats would narrow the interval
 * with no new evidence. */
static uint64_t distinct_games(const game_t *g, agent_t *const agent[2], uint64_t games)
{
    if (games <= 2 || g->max_chance_outcomes > 0 || agent_is_seeded(agent[0]) ||
        agent_is_seeded(agent[1]))
        return games;
    fprintf(stderr,
            "match: both agents play %s the same whatever their seeds (no dice, no randomness): "
            "playing the 2 distinct games, not %llu\n",
            g->spec, (unsigned long long)games);
    return 2;
}

int cmd_match(int argc, char **argv)
{
    const char *spec[3] = {NULL, NULL, NULL};
    uint64_t games = 0, seed = 0; /* their rows give the defaults */
    bool json = false;
    const char *record_path = NULL;
    const cli_opt_t opts[] = {
        CLI_OPT("--games", &games, "N", "games to play", .def = "10", .min = 1, .max = 1000000),
        CLI_OPT("--seed", &seed, "S", "seed the games are derived from", .def = "1"),
        CLI_OPT("--record", &record_path, "OUT",
                "write the games: OUT.h5 as HDF5 records, else PGN/PDN"),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    const cli_command_t command = {.name = "match",
                                   .help = help,
                                   .opts = opts,
                                   .positional = "GAME A B",
                                   .min_pos = 3,
                                   .max_pos = 3,
                                   .pos = spec,
                                   .more_help = cli_print_agent_kinds};
    int rc = cli_parse(&command, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    const game_t *g = cli_game("match", spec[0]);
    if (g == NULL) return EXIT_USAGE;
    if (g->num_players != 2) {
        rc = cli_usage_error("match", "%s is not a two-player game", g->spec);
        game_free(g);
        return rc;
    }
    /* the agents, created once (this validates both specs before playing)
     * and reseeded per game: game i's agents are those agent_create() would
     * make with its seeds */
    agent_t *agent[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++)
        if (agent_create(g, spec[1 + k], 0, &agent[k])) {
            agent_free(agent[0]);
            game_free(g);
            return cli_fail("match", EXIT_USAGE);
        }
    games = distinct_games(g, agent, games);
    cli_record_t *record = NULL;
    int32_t *actions = NULL;
    float *action_ms = NULL;
    if (record_path)
        rc = record_open(record_path, g, spec, games, seed, &record, &actions, &action_ms);
    if (rc != CLI_CONTINUE) {
        agent_free(agent[0]);
        agent_free(agent[1]);
        game_free(g);
        return rc;
    }
    int wins = 0, draws = 0, losses = 0, status = 0;
    double sum = 0, t0 = clock_seconds();
    long long total_length = 0;
    progress_t pg;
    progress_start(&pg, stderr, "[match]", "games", 0);
    for (uint64_t i = 0; i < games && status == 0; i++) {
        /* Per-game seeds: game i depends on (S, i) only, so any one game can be
         * replayed alone. The salts 0xa and 0xb keep A's and B's streams apart
         * even when both are the same spec, and chance uses game_seed itself. */
        uint64_t game_seed = rng_mix(seed + i);
        status = agent_reseed(agent[0], rng_mix(game_seed ^ 0xa));
        if (!status) status = agent_reseed(agent[1], rng_mix(game_seed ^ 0xb));
        if (status) break;
        /* Colours alternate: A moves first in even games, cancelling the
         * first-move advantage over an even number of games. */
        int a_seat = (int)(i % 2);
        agent_t *seats[2] = {agent[a_seat], agent[1 - a_seat]};
        agent_game_opts_t play = {
            .chance_seed = game_seed, .actions = actions, .action_ms = action_ms};
        agent_game_result_t res;
        status = agent_play(g, seats, &play, &res);
        if (status) break;
        const char *names[2] = {spec[1 + a_seat], spec[2 - a_seat]}; /* as typed, as tournaments */
        if (record && (status = record_game(record, names, (int)i + 1, game_seed, &res, &play)))
            break;
        if (res.end == AGENT_GAME_FORFEIT)
            progress_note(&pg, "game %llu/%llu: forfeit: %s", (unsigned long long)i + 1,
                          (unsigned long long)games, res.error);
        /* Returns are for the seat; the score maps a return in [-1, 1] to
         * [0, 1] (a draw is 1/2). */
        double ra = res.returns[a_seat], score = (ra + 1.0) / 2.0;
        wins += ra > 0;
        draws += ra == 0;
        losses += ra < 0;
        sum += score;
        total_length += res.num_actions;
        char extra[96];
        snprintf(extra, sizeof extra, "A played %s, scored %.1f (%d actions); A W/D/L %d/%d/%d",
                 a_seat == 0 ? "first" : "second", score, res.num_actions, wins, draws, losses);
        progress_update(&pg, (int64_t)i + 1, (int64_t)games, extra, i + 1 == games);
    }
    char a_spec[GAME_SPEC_MAX], b_spec[GAME_SPEC_MAX];
    snprintf(a_spec, sizeof a_spec, "%s", agent_spec(agent[0]));
    snprintf(b_spec, sizeof b_spec, "%s", agent_spec(agent[1]));
    agent_free(agent[0]);
    agent_free(agent[1]);
    free(actions);
    free(action_ms);
    int closed = cli_record_close(record);
    if (status == 0) status = closed;
    if (status) {
        rc = cli_fail("match", EXIT_FAILED);
        game_free(g);
        return rc;
    }
    match_tally_t tally = {wins, draws, losses, sum, total_length};
    /* the table names the agents as typed; JSON gives their full specs */
    report_match(g, json ? a_spec : spec[1], json ? b_spec : spec[2], (int)games, seed, &tally,
                 clock_seconds() - t0, json);
    game_free(g);
    return EXIT_OK;
}
