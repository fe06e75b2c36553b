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
    "The board is printed before every move (--quiet: only moves and the\n"
    "result, except that a human is always shown the position, the player to\n"
    "move, the dice and the last move before the prompt; 'board' redraws it).\n"
    "Chance outcomes (dice) and agents are seeded from S (default 1).\n"
    "Exit 0 when the game ends or a human quits, 1 when input ends early.\n";

typedef struct play_ctx {
    const game_t *g;
    agent_t *const *seats;
    bool quiet;
    void *last; /* the state after the latest move */
    bool shown; /* `last` is the latest board drawn */
} play_ctx_t;

/* Draw `last` unless quiet, or unless a human moves next: the human agent
 * draws the position itself before its prompt (mcts/agent_human.c), so it
 * is on the screen before every prompt and never twice. */
static void show_board(play_ctx_t *p)
{
    char text[GAME_TEXT_MAX];
    int next = game_current_player(p->g, p->last);
    if (p->quiet || (next >= 0 && agent_is_human(p->seats[next]))) return;
    if (game_state_to_string(p->g, p->last, text, sizeof text) >= 0) printf("\n%s", text);
    p->shown = true;
}

/* Each action: say who played what, then draw the position it leads to. */
static void show_move(void *ctx, const void *before, int player, int action)
{
    play_ctx_t *p = ctx;
    char move[GAME_MOVE_MAX];
    if (game_action_to_string(p->g, before, action, move, sizeof move) < 0)
        snprintf(move, sizeof move, "#%d", action);
    if (player == PLAYER_CHANCE)
        printf("chance: %s\n", move);
    else
        printf("player %d (%s) plays %s\n", player + 1, agent_spec(p->seats[player]), move);
    memcpy(p->last, before, p->g->state_size);
    game_apply(p->g, p->last, action);
    p->shown = false;
    show_board(p);
    fflush(stdout);
}

/* Exit codes as the help says: 0 the game ended or a human quit; 1 input
 * ended early, an agent forfeited, or the game failed; 2 bad usage, game,
 * position or agent spec. */
int cmd_play(int argc, char **argv)
{
    const char *game_spec = NULL, *position = NULL,
               *seat_spec[GAME_MAX_PLAYERS] = {"human", "human"};
    uint64_t seed = 1;
    bool quiet = false;
    const cli_opt_t opts[] = {
        CLI_OPT("--p1", CLI_STRING, &seat_spec[0], "SPEC", "the first player (default human)"),
        CLI_OPT("--p2", CLI_STRING, &seat_spec[1], "SPEC", "the second player (default human)"),
        CLI_OPT_POSITION(&position),
        CLI_OPT("--seed", CLI_U64, &seed, "S", "seeds dice and agents (default 1)"),
        CLI_OPT_FLAG("--quiet", &quiet, "only moves and the result, no boards"),
        CLI_OPT_END,
    };
    int rc =
        cli_parse_one("play", help, opts, "GAME", cli_print_agent_kinds, &game_spec, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    const game_t *g = cli_game("play", game_spec);
    if (g == NULL) return EXIT_USAGE;
    int code = EXIT_OK;
    agent_t *seats[GAME_MAX_PLAYERS] = {NULL, NULL};
    void *start = malloc(g->state_size), *last = malloc(g->state_size);
    if (start == NULL || last == NULL) {
        free(start);
        free(last);
        game_free(g);
        return cli_usage_error("play", "out of memory");
    }
    if (position) {
        if (game_position_from_string(g, position, start)) code = cli_fail("play", EXIT_USAGE);
    } else {
        game_init(g, start);
    }
    /* Each seat's seed is S mixed with a per-seat multiple of the golden
     * ratio constant, so two identical agent specs do not mirror each other's
     * randomness; the dice use S itself (chance_seed). */
    for (int p = 0; p < g->num_players && code == EXIT_OK; p++)
        if (agent_create(g, seat_spec[p],
                         rng_mix(seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(p + 1))), &seats[p]))
            code = cli_fail("play", EXIT_USAGE);
    if (code == EXIT_OK) {
        play_ctx_t ctx = {.g = g, .seats = seats, .quiet = quiet, .last = last};
        memcpy(last, start, g->state_size);
        show_board(&ctx); /* the start, unless a human moves first */
        fflush(stdout);
        agent_game_opts_t opts_play = {
            .start = start, .chance_seed = seed, .on_move = show_move, .ctx = &ctx};
        agent_game_result_t res;
        int status = agent_play(g, seats, &opts_play, &res);
        /* a human's "quit" or end of input is a forfeit with the agent's
         * message still in hoyle_last_error() */
        const char *why = status == 0 && res.end == AGENT_GAME_FORFEIT ? hoyle_last_error() : "";
        bool human = res.forfeit_player >= 0 && agent_is_human(seats[res.forfeit_player]);
        if (status) {
            code = cli_fail("play", EXIT_FAILED);
        } else if (res.end != AGENT_GAME_FORFEIT) {
            char text[GAME_TEXT_MAX]; /* the final position, if not drawn (move limit) */
            if (!quiet && !ctx.shown && game_state_to_string(g, ctx.last, text, sizeof text) >= 0)
                printf("\n%s", text);
            printf("\nresult after %d actions:", res.num_actions);
            for (int p = 0; p < g->num_players; p++)
                printf(" player %d %+g", p + 1, res.returns[p]);
            printf("\n");
        } else if (human && strcmp(why, "quit") == 0) {
            fprintf(stderr, "hoyle play: game abandoned\n");
        } else if (human && strcmp(why, "end of input") == 0) {
            fprintf(stderr, "hoyle play: input ended before the game did\n");
            code = EXIT_FAILED;
        } else {
            fprintf(stderr, "hoyle play: %s\n", res.error);
            code = EXIT_FAILED;
        }
    }
    for (int p = 0; p < GAME_MAX_PLAYERS; p++) agent_free(seats[p]);
    free(start);
    free(last);
    game_free(g);
    return code;
}
