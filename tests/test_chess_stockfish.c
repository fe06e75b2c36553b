/* test_chess_stockfish.c — hoyle's chess perft against Debian's stockfish.
 *
 * Random games from a fixed seed give a few thousand positions; for each,
 * hoyle's perft and stockfish's `go perft N` (over a pipe, `position fen`)
 * must agree at depth 2 (every tenth position also at depth 3). On a
 * mismatch both divides are printed move by move. Perft tables count through
 * dead material and ignore the fifty-move rule and history, so the game is
 * chess(insufficient=play) and each FEN's halfmove clock is set to 0 for
 * both programs. Needs stockfish (/usr/games/stockfish, or HOYLE_STOCKFISH):
 * without it the test is skipped (exit 77) unless HOYLE_REQUIRE_STOCKFISH=1
 * (scripts/run-tests sets it), when it fails. HOYLE_SLOW_TESTS=0: fewer
 * positions. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/rng.h"
#include "games/chess/chess_internal.h"
#include "games/game.h"
#include "tests/harness.h"

static FILE *sf_in, *sf_out;
static pid_t sf_pid;
static const game_t *game;

static int sf_open(const char *path)
{
    int to[2], from[2];
    if (access(path, X_OK) != 0 || pipe(to) || pipe(from)) return -1;
    sf_pid = fork();
    if (sf_pid < 0) return -1;
    if (sf_pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[1]);
        close(from[0]);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    sf_in = fdopen(to[1], "w");
    sf_out = fdopen(from[0], "r");
    fprintf(sf_in, "uci\n");
    fflush(sf_in);
    char line[512];
    while (fgets(line, sizeof line, sf_out))
        if (strncmp(line, "uciok", 5) == 0) return 0;
    return -1;
}

static void sf_close(void)
{
    fprintf(sf_in, "quit\n");
    fclose(sf_in);
    fclose(sf_out);
    waitpid(sf_pid, NULL, 0);
}

/* stockfish's perft of `fen`; the divide lines are kept in `divide`. */
static long long sf_perft(const char *fen, int depth, char *divide, size_t cap)
{
    fprintf(sf_in, "position fen %s\ngo perft %d\n", fen, depth);
    fflush(sf_in);
    char line[512];
    size_t used = 0;
    divide[0] = '\0';
    while (fgets(line, sizeof line, sf_out)) {
        long long n;
        if (sscanf(line, "Nodes searched: %lld", &n) == 1) return n;
        if (strchr(line, ':') && used + strlen(line) + 1 < cap) {
            strcpy(divide + used, line);
            used += strlen(line);
        }
    }
    return -1;
}

typedef struct div_ctx {
    const void *root;
    int depth;
} div_ctx_t;

static int print_divide(const int *actions, int n, const void *after, void *ctx)
{
    div_ctx_t *d = ctx;
    char move[GAME_MOVE_MAX];
    game_move_to_string(game, d->root, actions, n, move, sizeof move);
    fprintf(stderr, "    hoyle %s: %llu\n", move,
            (unsigned long long)game_perft(game, after, d->depth - 1));
    return 0;
}

/* The FEN of `s` with its halfmove clock set to 0. */
static void fen_clock0(const ch_state_t *s, char *buf, size_t cap)
{
    ch_pos_t p = s->pos;
    p.halfmove = 0;
    ch_fen_write(&p, s->fullmove, buf, cap);
}

static void test_random_positions(void)
{
    const char *slow = getenv("HOYLE_SLOW_TESTS");
    int want = slow && strcmp(slow, "0") == 0 ? 300 : 3000;
    rng_t rng;
    rng_init(&rng, 20261201);
    int positions = 0, mismatches = 0;
    static char divide[1 << 16];
    while (positions < want && mismatches < 5) {
        ch_state_t s;
        game_init(game, &s);
        int legal[CH_MAX_MOVES];
        for (int ply = 0; ply < 400 && positions < want && !game_is_terminal(game, &s); ply++) {
            if (rng_below(&rng, 3) == 0) {
                char fen[128];
                ch_state_t t;
                fen_clock0(&s, fen, sizeof fen);
                HARNESS_OK(game_position_from_string(game, fen, &t));
                int depth = positions % 10 == 0 ? 3 : 2;
                long long theirs = sf_perft(fen, depth, divide, sizeof divide);
                unsigned long long ours = game_perft(game, &t, depth);
                if (theirs != (long long)ours) {
                    fprintf(stderr, "  %s perft %d: hoyle %llu stockfish %lld\n%s", fen, depth,
                            ours, theirs, divide);
                    div_ctx_t d = {&t, depth};
                    game_whole_moves(game, &t, print_divide, &d);
                    mismatches++;
                }
                CU_ASSERT_EQUAL(theirs, (long long)ours);
                positions++;
            }
            int n = game_legal_actions(game, &s, legal);
            game_apply(game, &s, legal[rng_below(&rng, (uint32_t)n)]);
        }
    }
    fprintf(stderr, "  %d positions compared with stockfish\n", positions);
    CU_ASSERT(positions >= want || mismatches > 0);
}

int main(void)
{
    const char *path = getenv("HOYLE_STOCKFISH");
    if (!path) path = "/usr/games/stockfish";
    signal(SIGPIPE, SIG_IGN);
    if (sf_open(path)) {
        const char *require = getenv("HOYLE_REQUIRE_STOCKFISH");
        fprintf(stderr, "test_chess_stockfish: cannot run %s\n", path);
        if (require && strcmp(require, "1") == 0) return 1;
        fprintf(stderr, "test_chess_stockfish: skipped (install stockfish to run it)\n");
        return 77;
    }
    if (game_create("chess(insufficient=play)", &game)) return 1;
    static const harness_test_t tests[] = {
        {"perft equals stockfish's on random positions", test_random_positions},
        {NULL, NULL},
    };
    int rc = harness_run("chess_stockfish", tests);
    game_free(game);
    sf_close();
    return rc;
}
