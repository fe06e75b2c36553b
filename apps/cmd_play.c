/* cmd_play.c — `hoyle play GAME`: play in the terminal, humans and agents
 * in any mix; the board is shown before each move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/rng.h"
#include "mcts/agent.h"

static const char help[] =
    "usage: hoyle play GAME [--p1 SPEC] [--p2 SPEC] [--position P] [--seed S] [--quiet]\n\n"
    "Play one game. Each player is an agent spec; the default is human (type\n"
    "moves in the game's notation; 'moves' lists them, 'help', 'quit').\n"
    "Examples: hoyle play checkers --p2 'mcts(sims=2000)'\n"
    "          hoyle play gobang --p1 random --p2 'alphabeta(depth=3)'\n"
    "The board is printed before every move (--quiet: only moves and result).\n"
    "Chance outcomes (dice) and agents are seeded from S (default 1).\n"
    "Exit 0 when the game ends or a human quits, 1 when input ends early.\n";

typedef struct play_ctx {
    const game_t *g;
    agent_t *const *seats;
    bool quiet;
    void *last; /* the state after the latest move */
    bool shown; /* `last` has been drawn already (after a chance outcome) */
} play_ctx_t;

static void show_move(void *ctx, const void *before, int player, int action)
{
    play_ctx_t *p = ctx;
    char text[GAME_TEXT_MAX], move[GAME_MOVE_MAX];
    if (!p->quiet && !p->shown && game_state_to_string(p->g, before, text, sizeof text) >= 0)
        printf("\n%s", text);
    p->shown = false;
    if (game_action_to_string(p->g, before, action, move, sizeof move) < 0)
        snprintf(move, sizeof move, "#%d", action);
    if (player == PLAYER_CHANCE)
        printf("chance: %s\n", move);
    else
        printf("player %d (%s) plays %s\n", player + 1, agent_spec(p->seats[player]), move);
    fflush(stdout);
    if (p->last) {
        memcpy(p->last, before, p->g->state_size);
        game_apply(p->g, p->last, action);
        /* after the dice, show what was rolled before anyone decides */
        if (player == PLAYER_CHANCE && !p->quiet &&
            game_state_to_string(p->g, p->last, text, sizeof text) >= 0) {
            printf("\n%s", text);
            p->shown = true;
        }
    }
}

int cmd_play(int argc, char **argv)
{
    const char *game_spec = NULL, *position = NULL,
               *seat_spec[GAME_MAX_PLAYERS] = {"human", "human"};
    uint64_t seed = 1;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(help, stdout);
            cli_print_agent_kinds();
            return EXIT_OK;
        } else if (strcmp(argv[i], "--p1") == 0 || strcmp(argv[i], "--p2") == 0 ||
                   strcmp(argv[i], "--position") == 0 || strcmp(argv[i], "--seed") == 0) {
            if (i + 1 >= argc) return cli_usage_error("play", "%s needs a value", argv[i]);
            if (strcmp(argv[i], "--seed") == 0) {
                if (cli_parse_u64("play", "--seed", argv[i + 1], &seed)) return EXIT_USAGE;
            } else if (strcmp(argv[i], "--position") == 0) {
                position = argv[i + 1];
            } else {
                seat_spec[argv[i][3] - '1'] = argv[i + 1];
            }
            i++;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = true;
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            return cli_usage_error("play", "unknown option '%s' (try --help)", argv[i]);
        } else if (game_spec == NULL) {
            game_spec = argv[i];
        } else {
            return cli_usage_error("play", "unexpected argument '%s'", argv[i]);
        }
    }
    if (game_spec == NULL) return cli_usage_error("play", "expected GAME (try --help)");
    const game_t *g = cli_game("play", game_spec);
    if (g == NULL) return EXIT_USAGE;
    int code = EXIT_OK;
    agent_t *seats[GAME_MAX_PLAYERS] = {NULL, NULL};
    void *start = malloc(g->state_size);
    if (start == NULL) {
        game_free(g);
        return cli_usage_error("play", "out of memory");
    }
    if (position) {
        if (game_position_from_string(g, position, start)) code = cli_fail("play", EXIT_USAGE);
    } else {
        game_init(g, start);
    }
    for (int p = 0; p < g->num_players && code == EXIT_OK; p++)
        if (agent_create(g, seat_spec[p],
                         rng_mix(seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(p + 1))), &seats[p]))
            code = cli_fail("play", EXIT_USAGE);
    if (code == EXIT_OK) {
        play_ctx_t ctx = {.g = g, .seats = seats, .quiet = quiet, .last = malloc(g->state_size)};
        if (ctx.last) memcpy(ctx.last, start, g->state_size);
        double r[GAME_MAX_PLAYERS];
        int length = 0;
        int status = agent_play_game(g, seats, start, seed, show_move, &ctx, r, &length);
        if (status == 0) {
            char text[GAME_TEXT_MAX];
            if (!quiet && ctx.last && game_state_to_string(g, ctx.last, text, sizeof text) >= 0)
                printf("\n%s", text);
            printf("\nresult after %d actions:", length);
            for (int p = 0; p < g->num_players; p++) printf(" player %d %+g", p + 1, r[p]);
            printf("\n");
        } else if (strcmp(hoyle_last_error(), "quit") == 0) {
            fprintf(stderr, "hoyle play: game abandoned\n");
        } else if (strcmp(hoyle_last_error(), "end of input") == 0) {
            fprintf(stderr, "hoyle play: input ended before the game did\n");
            code = EXIT_FAILED;
        } else {
            code = cli_fail("play", EXIT_FAILED);
        }
        free(ctx.last);
    }
    for (int p = 0; p < GAME_MAX_PLAYERS; p++) agent_free(seats[p]);
    free(start);
    game_free(g);
    return code;
}
