/* cmd_show.c — `hoyle show GAME`: a position drawn, its one-line form, the
 * player to move and the legal whole moves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"

static const char help[] =
    "usage: hoyle show GAME [--position P] [--moves \"M1;M2;...\"]\n\n"
    "Draw the start position of GAME (or P, in the game's position format),\n"
    "optionally after playing whole moves given in the game's notation,\n"
    "separated by ';'. Prints the board, the position string (once), the\n"
    "player to move and the legal whole moves.\n";

typedef struct show_ctx {
    const game_t *g;
    const void *s;
    int count;
} show_ctx_t;

/* game_whole_moves callback: prints one whole move; -1 stops the listing
 * when a move has no notation (a game bug, better visible than skipped). */
static int print_move(const int *actions, int n, const void *after, void *ctx)
{
    (void)after;
    show_ctx_t *c = ctx;
    char move[GAME_MOVE_MAX * 2];
    if (game_move_to_string(c->g, c->s, actions, n, move, sizeof move) < 0) return -1;
    printf("%s%s", c->count++ ? ", " : "", move); /* moves may contain spaces (24/18 13/11) */
    return 0;
}

/* The drawing, less a line that repeats the position string (some games'
 * drawings end with it; the "position:" line below gives it once). */
static void print_drawing(const char *text, const char *pos)
{
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        size_t k = pos ? strlen(pos) : 0;
        int repeats = 0;
        for (size_t i = 0; k > 0 && i + k <= n && !repeats; i++)
            repeats = memcmp(line + i, pos, k) == 0;
        if (!repeats) printf("%.*s\n", (int)n, line);
        line += n + (end != NULL);
    }
    printf("\n");
}

/* Exit codes: 0 shown; 2 bad usage, game, position or a move in --moves
 * that is not legal where it is played. */
int cmd_show(int argc, char **argv)
{
    const char *spec = NULL, *position = NULL, *moves = NULL;
    const cli_opt_t opts[] = {
        CLI_OPT_POSITION(&position),
        CLI_OPT("--moves", &moves, "\"M1;M2\"", "then play these whole moves"),
        CLI_OPT_END,
    };
    int parsed = cli_parse_one("show", help, opts, "GAME", NULL, &spec, argc, argv);
    if (parsed != CLI_CONTINUE) return parsed;
    const game_t *g = cli_game("show", spec);
    if (g == NULL) return EXIT_USAGE;
    int rc = EXIT_OK;
    char *s = malloc(g->state_size), *text = malloc(GAME_TEXT_MAX);
    game_init(g, s);
    if (position && game_position_from_string(g, position, s)) {
        rc = cli_fail("show", EXIT_USAGE);
        goto done;
    }
    if (moves) {
        /* Moves are applied one by one and the first illegal one stops: the
         * error names it, and the later ones would be played from a wrong state. */
        char *copy = strdup(moves), *save = NULL;
        for (char *m = strtok_r(copy, ";", &save); m && rc == EXIT_OK;
             m = strtok_r(NULL, ";", &save))
            if (game_apply_move_string(g, s, m) < 0) rc = cli_fail("show", EXIT_USAGE);
        free(copy);
        if (rc) goto done;
    }
    char *pos = malloc(GAME_TEXT_MAX);
    if (pos && game_position_to_string(g, s, pos, GAME_TEXT_MAX) < 0) pos[0] = '\0';
    if (game_state_to_string(g, s, text, GAME_TEXT_MAX) >= 0) print_drawing(text, pos);
    if (pos && pos[0]) printf("position: %s\n", pos);
    free(pos);
    int player = game_current_player(g, s);
    if (player == PLAYER_TERMINAL) {
        double r[GAME_MAX_PLAYERS];
        game_returns(g, s, r);
        printf("game over: returns");
        for (int p = 0; p < g->num_players; p++) printf(" %+.3g", r[p]);
        printf("\n");
    } else {
        printf("to move: %s\n", player == PLAYER_CHANCE
                                    ? "chance"
                                    : (player == 0 ? "first player" : "second player"));
        show_ctx_t ctx = {g, s, 0};
        printf("moves: ");
        game_whole_moves(g, s, print_move, &ctx);
        printf("\n(%d moves)\n", ctx.count);
    }
done:
    free(s);
    free(text);
    game_free(g);
    return rc;
}
