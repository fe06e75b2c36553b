/* solve_thirtyfour.c — `hoyle solve thirtyfour(...)`: every magic square of
 * the Thirty-four Game counted, with the board's 8 symmetries folded (one
 * square per class) and unfolded, from the empty board or a --position;
 * --list prints them; the first one found is replayed through the game. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "solve/thirtyfour.h"

static const char help[] =
    "usage: hoyle solve thirtyfour[(size=N)] [--list [--unfolded]] [--position P] [--json]\n\n"
    "Count every arrangement of the blocks 1..N*N whose rows, columns and both\n"
    "diagonals add up to N(N*N+1)/2 (34 on the seed's 4 x 4 board): all of them,\n"
    "and one per class under the board's 8 rotations and reflections (the one\n"
    "whose cells, row by row, read smallest). With --position, only those that\n"
    "complete the blocks already placed. --list prints one square per class\n"
    "(--unfolded: every square), as position texts. Known: 7040 squares of\n"
    "order 4, 880 up to symmetry (Frenicle 1693); 8 of order 3, 1 up to symmetry.\n";

typedef struct listing {
    const game_t *g;
    bool list, unfolded, json, have_first;
    json_t *j;
    uint8_t first[THIRTYFOUR_MAX_CELLS];
} listing_t;

static int visit(const uint8_t *cell, bool canonical, void *ctx)
{
    listing_t *L = ctx;
    int cells = thirtyfour_size(L->g) * thirtyfour_size(L->g);
    if (!L->have_first) memcpy(L->first, cell, (size_t)cells), L->have_first = true;
    if (!L->list || (!canonical && !L->unfolded)) return 0;
    char text[THIRTYFOUR_MAX_CELLS * 4 + 1];
    size_t used = 0;
    for (int c = 0; c < cells; c++)
        used += (size_t)snprintf(text + used, sizeof text - used, c ? " %d" : "%d", cell[c]);
    if (L->json)
        json_str(L->j, NULL, text);
    else
        printf("%s\n", text);
    return 0;
}

/* Replay the square `cell` from `start`: block by block, each block after
 * those already placed on its cell; true when every move is legal and the
 * end is a win (+1). */
static bool replays(const game_t *g, const void *start, const uint8_t *cell)
{
    int cells = thirtyfour_size(g) * thirtyfour_size(g);
    uint8_t board[THIRTYFOUR_MAX_CELLS];
    void *s = malloc(g->state_size);
    memcpy(s, start, g->state_size);
    thirtyfour_board(g, start, board);
    bool ok = true;
    for (int b = 1; b <= cells && ok; b++)
        for (int c = 0; c < cells && ok; c++)
            if (cell[c] == b && board[c] == 0) ok = game_apply_checked(g, s, c) == 0;
    double r = 0;
    if (ok && game_is_terminal(g, s)) game_returns(g, s, &r);
    free(s);
    return ok && r == 1.0;
}

static int report(const game_t *g, const void *start, listing_t *L)
{
    json_t j;
    L->j = &j;
    if (L->json) {
        json_begin(&j, stdout);
        json_str(&j, "game", g->spec);
        if (L->list) json_open(&j, "squares", '[');
    }
    uint8_t given[THIRTYFOUR_MAX_CELLS];
    thirtyfour_board(g, start, given);
    thirtyfour_result_t r;
    if (thirtyfour_solve(thirtyfour_size(g), given, visit, L, &r))
        return cli_fail("solve", EXIT_FAILED);
    bool replayed = L->have_first && replays(g, start, L->first);
    int n = thirtyfour_size(g), magic = n * (n * n + 1) / 2;
    if (L->json) {
        if (L->list) json_close(&j);
        json_int(&j, "magic_sum", magic);
        json_u64(&j, "solutions", r.solutions);
        json_u64(&j, "folded", r.folded);
        json_bool(&j, "replayed", replayed);
        json_u64(&j, "nodes", r.nodes);
        json_num(&j, "seconds", "%.3f", r.seconds);
        json_end(&j);
    } else {
        printf("%s: %llu magic squares (lines of %d), %llu up to rotation and reflection\n",
               g->spec, (unsigned long long)r.solutions, magic, (unsigned long long)r.folded);
        if (L->have_first)
            printf("first found replayed through the game: %s\n", replayed ? "ok" : "FAILED");
        printf("%llu nodes, %.3f s\n", (unsigned long long)r.nodes, r.seconds);
    }
    return L->have_first && !replayed ? EXIT_FAILED : EXIT_OK;
}

int solve_thirtyfour(int argc, char **argv)
{
    const char *spec = NULL, *position = NULL;
    listing_t L = {0};
    const cli_opt_t opts[] = {
        CLI_OPT_FLAG("--list", &L.list, "print the squares (one per symmetry class)"),
        CLI_OPT_FLAG("--unfolded", &L.unfolded, "--list: every square, not one per class"),
        CLI_OPT_POSITION(&position),
        CLI_OPT_JSON(&L.json),
        CLI_OPT_END,
    };
    int rc = cli_parse_one("solve", help, opts, "GAME", NULL, &spec, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    if (L.unfolded && !L.list) return cli_usage_error("solve", "--unfolded goes with --list");
    const game_t *g = cli_game("solve", spec);
    if (g == NULL) return EXIT_USAGE;
    L.g = g;
    void *s = malloc(g->state_size);
    game_init(g, s);
    if (position && game_position_from_string(g, position, s))
        rc = cli_fail("solve", EXIT_USAGE);
    else
        rc = report(g, s, &L);
    free(s);
    game_free(g);
    return rc;
}
