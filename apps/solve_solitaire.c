/* solve_solitaire.c — `hoyle solve solitaire(...)`: one start/target pair
 * solved (or proven impossible), the fewest moves (--moves), or every
 * single-hole start and target at once (--all), with the solver of
 * solve/solitaire.h; every solution found is replayed through the game. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/clock.h"
#include "solve/solitaire.h"

static const char help[] =
    "usage: hoyle solve solitaire[(start=S,target=T)] [--moves [--max-moves N]] [--all]\n"
    "                 [--no-classes] [--nodes N] [--position P] [--json]\n\n"
    "Solve English Solitaire exactly (docs/games/solitaire.md). By default:\n"
    "a jump sequence from the start (or P) to one marble in the target hole\n"
    "(target=0: any hole), by depth-first search with a transposition table\n"
    "under the symmetries that fix the target, or a proof that there is none.\n"
    "--moves: the fewest moves (a move is one marble's run of jumps), by\n"
    "iterative deepening; each bound proven is printed with its nodes and time.\n"
    "--all: every start with one hole empty against every target hole: which\n"
    "pairs are solvable (each solved and replayed) and which are impossible by\n"
    "the position classes (the rule of three). --no-classes: no class pruning,\n"
    "so impossible pairs are proven by exhaustive search (slow: minutes).\n"
    "--nodes: give up after N positions (exit 1 when that leaves it open).\n";

/* Replay `jumps` from `start` through the game: true when every jump is
 * legal and one marble is left in the target (any hole when none). */
static bool replays(const game_t *g, const void *start, const int *jumps, int n)
{
    void *s = malloc(g->state_size);
    memcpy(s, start, g->state_size);
    bool ok = true;
    for (int i = 0; i < n && ok; i++) ok = game_apply_checked(g, s, jumps[i]) == 0;
    uint64_t pegs = solitaire_state_pegs(s);
    int target = solitaire_target(g);
    ok = ok && game_is_terminal(g, s) && __builtin_popcountll(pegs) == 1 &&
         (target < 0 || pegs == 1ULL << target);
    free(s);
    return ok;
}

static const char *verdict_name(const solitaire_result_t *r)
{
    if (r->verdict == SOLITAIRE_SOLVED) return "solved";
    if (r->verdict == SOLITAIRE_LIMIT) return "node limit";
    return r->by_class ? "impossible (position classes differ)" : "impossible (search)";
}

static void print_progress(int moves, bool found, uint64_t nodes, double seconds, void *ctx)
{
    json_t *j = ctx;
    if (j) {
        json_open(j, NULL, '{');
        json_int(j, "moves", moves);
        json_bool(j, "found", found);
        json_u64(j, "nodes", nodes);
        json_num(j, "seconds", "%.3f", seconds);
        json_close(j);
    } else {
        printf("%2d moves: %-11s %14llu nodes %9.2f s\n", moves, found ? "solution" : "none",
               (unsigned long long)nodes, seconds);
        fflush(stdout);
    }
}

/* One pair (or --moves): the verdict, the solution and the counts. */
static int solve_one(const game_t *g, const void *start, bool moves, int max_moves,
                     const solitaire_options_t *opt, bool json)
{
    uint64_t pegs = solitaire_state_pegs(start);
    int target = solitaire_target(g), last = solitaire_state_last(start);
    solitaire_result_t r;
    json_t j;
    if (json) {
        json_begin(&j, stdout);
        json_str(&j, "game", g->spec);
    }
    int status;
    if (moves) {
        if (json) json_open(&j, "bounds", '[');
        status = solitaire_min_moves(pegs, last, target, max_moves, opt, print_progress,
                                     json ? &j : NULL, &r);
        if (json) json_close(&j);
    } else {
        status = solitaire_solve(pegs, target, opt, &r);
    }
    if (status) return cli_fail("solve", EXIT_USAGE);
    char text[GAME_TEXT_MAX] = "";
    bool replayed = false;
    if (r.verdict == SOLITAIRE_SOLVED) {
        if (game_move_to_string(g, start, r.jumps, r.num_jumps, text, sizeof text) < 0)
            return cli_fail("solve", EXIT_FAILED);
        replayed = replays(g, start, r.jumps, r.num_jumps);
    }
    double rate = r.seconds > 0 ? (double)r.nodes / r.seconds : 0;
    if (json) {
        json_str(&j, "verdict", verdict_name(&r));
        if (r.verdict == SOLITAIRE_SOLVED) {
            json_str(&j, "solution", text);
            json_int(&j, "jumps", r.num_jumps);
            json_int(&j, "moves", r.moves);
            json_bool(&j, "replayed", replayed);
        }
        if (moves) json_int(&j, "min_moves_at_least", r.bound);
        json_u64(&j, "nodes", r.nodes);
        json_num(&j, "seconds", "%.3f", r.seconds);
        json_num(&j, "nodes_per_second", "%.0f", rate);
        json_end(&j);
    } else {
        printf("%s: %s\n", g->spec, verdict_name(&r));
        if (r.verdict == SOLITAIRE_SOLVED)
            printf("solution (%d jumps, %d moves, replayed: %s):\n%s\n", r.num_jumps, r.moves,
                   replayed ? "ok" : "FAILED", text);
        else if (moves && r.verdict == SOLITAIRE_UNSOLVABLE)
            printf("no solution in %d moves or fewer\n", max_moves);
        printf("%llu nodes, %.3f s, %.2f M nodes/s\n", (unsigned long long)r.nodes, r.seconds,
               rate / 1e6);
    }
    if (r.verdict == SOLITAIRE_LIMIT || (r.verdict == SOLITAIRE_SOLVED && !replayed))
        return EXIT_FAILED;
    return EXIT_OK;
}

/* --all: pairs are solved once per symmetry orbit (the smallest image of
 * (start, target) under the 8 maps stands for the orbit). */
static int solve_all(const solitaire_options_t *opt, bool json)
{
    sol_geometry_t *geo = malloc(sizeof *geo);
    sol_geometry_init(geo);
    static int8_t verdict[SOL_HOLES][SOL_HOLES]; /* -1 not done, else solitaire_verdict_t */
    memset(verdict, -1, sizeof verdict);
    int solvable = 0, by_class = 0, by_search = 0, limit = 0, replay_fail = 0;
    uint64_t nodes = 0;
    double start_time = clock_seconds();
    json_t j;
    if (json) {
        json_begin(&j, stdout);
        json_open(&j, "starts", '[');
    }
    for (int s = 0; s < SOL_HOLES; s++) {
        char solvable_list[256] = "";
        size_t used = 0;
        for (int t = 0; t < SOL_HOLES; t++) {
            int cs = s, ct = t;
            for (int k = 1; k < SYM_COUNT; k++) {
                int s2 = geo->sym_hole[k][s], t2 = geo->sym_hole[k][t];
                if (s2 * SOL_HOLES + t2 < cs * SOL_HOLES + ct) cs = s2, ct = t2;
            }
            if (verdict[cs][ct] < 0) {
                char spec[64];
                snprintf(spec, sizeof spec, "solitaire(start=%d,target=%d)", cs + 1, ct + 1);
                const game_t *g = NULL;
                if (game_create(spec, &g)) {
                    free(geo);
                    return cli_fail("solve", EXIT_FAILED);
                }
                void *st = malloc(g->state_size);
                game_init(g, st);
                solitaire_result_t r;
                int status = solitaire_solve(solitaire_state_pegs(st), ct, opt, &r);
                if (status == 0 && r.verdict == SOLITAIRE_SOLVED &&
                    !replays(g, st, r.jumps, r.num_jumps))
                    replay_fail++;
                free(st);
                game_free(g);
                if (status) {
                    free(geo);
                    return cli_fail("solve", EXIT_FAILED);
                }
                nodes += r.nodes;
                verdict[cs][ct] =
                    (int8_t)(r.verdict == SOLITAIRE_UNSOLVABLE && r.by_class ? 3 : r.verdict);
            }
            int v = verdict[cs][ct];
            solvable += v == SOLITAIRE_SOLVED;
            by_class += v == 3;
            by_search += v == SOLITAIRE_UNSOLVABLE;
            limit += v == SOLITAIRE_LIMIT;
            if (v == SOLITAIRE_SOLVED && used + 4 < sizeof solvable_list)
                used += (size_t)snprintf(solvable_list + used, sizeof solvable_list - used, "%s%d",
                                         used ? " " : "", t + 1);
        }
        if (json) {
            json_open(&j, NULL, '{');
            json_int(&j, "start", s + 1);
            json_str(&j, "solvable_targets", solvable_list);
            json_close(&j);
        } else {
            printf("start %2d: targets %s\n", s + 1, solvable_list);
        }
    }
    double seconds = clock_seconds() - start_time;
    if (json) {
        json_close(&j);
        json_int(&j, "solvable", solvable);
        json_int(&j, "impossible_by_class", by_class);
        json_int(&j, "impossible_by_search", by_search);
        json_int(&j, "node_limit", limit);
        json_int(&j, "replay_failures", replay_fail);
        json_u64(&j, "nodes", nodes);
        json_num(&j, "seconds", "%.3f", seconds);
        json_end(&j);
    } else {
        printf("%d pairs solvable, %d impossible by the position classes, %d impossible by "
               "search, %d left at the node limit; %d replay failures\n",
               solvable, by_class, by_search, limit, replay_fail);
        printf("%llu nodes, %.3f s\n", (unsigned long long)nodes, seconds);
    }
    free(geo);
    return limit || replay_fail ? EXIT_FAILED : EXIT_OK;
}

int solve_solitaire(int argc, char **argv)
{
    const char *spec = NULL, *position = NULL;
    bool moves = false, all = false, no_classes = false, json = false;
    int max_moves = SOL_HOLES - 2;
    uint64_t node_limit = 0;
    const cli_opt_t opts[] = {
        CLI_OPT_FLAG("--moves", &moves, "the fewest moves (marble runs)"),
        CLI_OPT("--max-moves", &max_moves, "N", "--moves: give up past N moves (default 31)",
                .min = 0, .max = 31),
        CLI_OPT_FLAG("--all", &all, "every single-hole start and target"),
        CLI_OPT_FLAG("--no-classes", &no_classes, "no position-class pruning (cross-check)"),
        CLI_OPT("--nodes", &node_limit, "N", "node limit (default none)"),
        CLI_OPT_POSITION(&position),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    int rc = cli_parse_one("solve", help, opts, "GAME", NULL, &spec, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    solitaire_options_t opt;
    solitaire_options_default(&opt);
    opt.use_classes = !no_classes;
    opt.node_limit = node_limit;
    if (all) return solve_all(&opt, json);
    const game_t *g = cli_game("solve", spec);
    if (g == NULL) return EXIT_USAGE;
    if (g->num_players != 1) {
        rc = cli_usage_error("solve", "%s has two players: use --prover dfpn", g->spec);
        game_free(g);
        return rc;
    }
    void *s = malloc(g->state_size);
    game_init(g, s);
    if (position && game_position_from_string(g, position, s))
        rc = cli_fail("solve", EXIT_USAGE);
    else
        rc = solve_one(g, s, moves, max_moves, &opt, json);
    free(s);
    game_free(g);
    return rc;
}
