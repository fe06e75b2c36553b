/* cmd_perft.c — `hoyle perft GAME DEPTH`: whole-move path counts, the rules
 * check against published tables (see game_perft() in games/game.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/clock.h"

static const char help[] =
    "usage: hoyle perft GAME DEPTH [--position P] [--divide] [--generic] [--json]\n\n"
    "Count the whole-move paths of length DEPTH from the start (or from P, in\n"
    "the game's position format). A whole move is a maximal run of actions by\n"
    "one player (a multi-jump is one move). --divide prints the count below\n"
    "each first move; --generic uses the contract-level reference perft\n"
    "instead of the game's fast one. Prints nodes, seconds and nodes/s; with\n"
    "--json one object, the divide in it as \"divide\":[{\"move\":M,\"nodes\":N},...].\n";

typedef struct divide_ctx {
    const game_t *g;
    const void *root;
    int depth;
    uint64_t total;
    bool generic;
    json_t *json; /* the divide goes into the JSON object, or NULL: lines */
} divide_ctx_t;

/* game_whole_moves callback: counts the subtree below one first move.
 * Returns -1 (stop) when the move cannot be named, so a divide listing is
 * never silently incomplete. */
static int divide_visit(const int *actions, int n, const void *after, void *ctx)
{
    divide_ctx_t *d = ctx;
    char move[GAME_MOVE_MAX * 2];
    if (game_move_to_string(d->g, d->root, actions, n, move, sizeof move) < 0) return -1;
    uint64_t count = d->generic ? game_perft_generic(d->g, after, d->depth - 1)
                                : game_perft(d->g, after, d->depth - 1);
    if (d->json) {
        json_open(d->json, NULL, '{');
        json_str(d->json, "move", move);
        json_u64(d->json, "nodes", count);
        json_close(d->json);
    } else {
        printf("%s: %llu\n", move, (unsigned long long)count);
    }
    d->total += count;
    return 0;
}

/* Exit codes: 0 counted; 2 bad usage, game, DEPTH or position. Perft
 * itself cannot fail: a rules bug shows as a wrong count, not an error. */
int cmd_perft(int argc, char **argv)
{
    const char *pos[2] = {NULL, NULL}, *position = NULL;
    bool divide = false, json = false, generic = false;
    const cli_opt_t opts[] = {
        CLI_OPT_POSITION(&position),
        CLI_OPT_FLAG("--divide", &divide, "the count below each first move"),
        CLI_OPT_FLAG("--generic", &generic, "the contract-level reference perft"),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    const cli_command_t command = {.name = "perft",
                                   .help = help,
                                   .opts = opts,
                                   .positional = "GAME and DEPTH",
                                   .min_pos = 2,
                                   .max_pos = 2,
                                   .pos = pos};
    int rc = cli_parse(&command, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    const char *spec = pos[0], *depth_text = pos[1];
    uint64_t depth;
    if (cli_parse_u64("perft", "DEPTH", depth_text, &depth)) return EXIT_USAGE;
    /* 64 is far past any feasible count and keeps the int depth sane. */
    if (depth > 64)
        return cli_usage_error("perft", "DEPTH: %llu is too deep (at most 64)",
                               (unsigned long long)depth);
    const game_t *g = cli_game("perft", spec);
    if (g == NULL) return EXIT_USAGE;
    void *s = malloc(g->state_size);
    game_init(g, s);
    if (position && game_position_from_string(g, position, s)) {
        free(s);
        game_free(g);
        return cli_fail("perft", EXIT_USAGE);
    }
    json_t j;
    if (json) {
        json_begin(&j, stdout);
        json_str(&j, "game", g->spec);
        json_u64(&j, "depth", depth);
    }
    double start = clock_seconds();
    uint64_t nodes;
    /* --divide at depth 0 has no first moves to list: plain perft (1). */
    if (divide && depth > 0) {
        divide_ctx_t d = {g, s, (int)depth, 0, generic, json ? &j : NULL};
        if (json) json_open(&j, "divide", '[');
        game_whole_moves(g, s, divide_visit, &d);
        if (json) json_close(&j);
        nodes = d.total;
    } else {
        nodes = generic ? game_perft_generic(g, s, (int)depth) : game_perft(g, s, (int)depth);
    }
    double seconds = clock_seconds() - start;
    double rate = seconds > 0 ? (double)nodes / seconds : 0.0;
    if (json) {
        json_u64(&j, "nodes", nodes);
        json_num(&j, "seconds", "%.6f", seconds);
        json_num(&j, "nodes_per_second", "%.0f", rate);
        json_end(&j);
    } else
        printf("perft(%llu) = %llu  (%.3f s, %.2f M nodes/s)\n", (unsigned long long)depth,
               (unsigned long long)nodes, seconds, rate / 1e6);
    free(s);
    game_free(g);
    return EXIT_OK;
}
