/* solve_prover.c — `hoyle solve GAME --prover dfpn|pns --position P`: a
 * position of any two-player game without chance proven won, drawn or lost
 * for the side to move by proof-number search (solve/dfpn.h), within a node
 * budget. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/error.h"
#include "games/registry.h"
#include "solve/dfpn.h"

static const char help[] =
    "usage: hoyle solve GAME --prover dfpn|pns [--position P] [--nodes N] [--tt-mb M]\n"
    "                        [--epsilon E] [--time-ms T] [--json]\n\n"
    "Prove the value of position P (default: the game's start) for the side to\n"
    "move by proof-number search: df-pn (depth-first, a transposition table keyed\n"
    "by the game's hash, the 1+epsilon trick) or PNS (best-first over a tree in\n"
    "memory). Two questions are asked: does the side to move win? If not, does\n"
    "the opponent win? A draw is the failure of both. A repetition on the path\n"
    "counts as a failure for the side trying to win; a disproof that used one\n"
    "is reported as not proven. Two players, no chance. Exit 0 with the answer\n"
    "(\"unknown\" when the budget ran out), 2 bad usage or input.\n";

static const char *status_text(int s)
{
    return s == PN_PROVEN ? "proven" : s == PN_DISPROVEN ? "disproven" : "unknown";
}

int solve_prover(int argc, char **argv)
{
    const char *spec = NULL, *prover = NULL, *position = NULL;
    uint64_t nodes = 0, tt_mb = 0; /* the rows give the defaults */
    double epsilon = 0, time_ms = 0;
    bool json = false;
    const cli_opt_t opts[] = {
        CLI_OPT_CHOICE("--prover", &prover, "P", "dfpn|pns", "the search (required)"),
        CLI_OPT_POSITION(&position),
        CLI_OPT("--nodes", &nodes, "N", "most nodes expanded per question (0 = none)",
                .def = "10000000", .min = 0, .max = CLI_NO_MAX),
        CLI_OPT("--tt-mb", &tt_mb, "M", "df-pn table / PNS tree in MiB", .def = "64", .min = 1,
                .max = 65536),
        CLI_OPT("--epsilon", &epsilon, "E", "df-pn's 1+epsilon", .def = "0.25", .min = 0,
                .max = 100),
        CLI_OPT("--time-ms", &time_ms, "T", "time per question (0 = none)", .min = 0,
                .max = CLI_NO_MAX),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    int rc = cli_parse_one("solve", help, opts, "GAME", NULL, &spec, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    pn_params_t p;
    pn_params_default(&p);
    if (prover == NULL) return cli_usage_error("solve", "--prover must be dfpn or pns");
    p.algorithm = strcmp(prover, "pns") == 0 ? PN_PNS : PN_DFPN;
    p.max_nodes = nodes;
    p.time_limit_ms = time_ms;
    p.epsilon = epsilon;
    p.tt_entries = (size_t)(tt_mb << 20) / 40; /* both entry kinds are about 40 bytes */
    const game_t *g = cli_game("solve", spec);
    if (g == NULL) return EXIT_USAGE;
    void *s = aligned_alloc(GAME_STATE_ALIGN, (g->state_size + GAME_STATE_ALIGN - 1) /
                                                  GAME_STATE_ALIGN * GAME_STATE_ALIGN);
    pn_t *t = NULL;
    rc = EXIT_OK;
    if (s == NULL) rc = EXIT_FAILED, hoyle_error(HOYLE_ENOMEM, "out of memory");
    if (rc == EXIT_OK) game_init(g, s);
    if (rc == EXIT_OK && position && game_position_from_string(g, position, s) < 0) rc = EXIT_USAGE;
    if (rc == EXIT_OK) {
        int st = pn_create(g, &p, &t); /* first: it refuses games with chance */
        if (st) rc = st == HOYLE_ENOMEM ? EXIT_FAILED : EXIT_USAGE;
    }
    if (rc == EXIT_OK && game_current_player(g, s) < 0)
        rc = EXIT_USAGE,
        hoyle_error(HOYLE_EINVAL, "%s: the position is not a decision state", g->spec);
    int value = 0;
    bool known = false;
    pn_result_t me, opp;
    if (rc == EXIT_OK && pn_solve(t, s, &value, &known, &me, &opp)) rc = EXIT_FAILED;
    if (rc != EXIT_OK) {
        cli_fail("solve", rc);
    } else {
        char pos[1024] = "", move[64] = "";
        game_position_to_string(g, s, pos, sizeof pos);
        if (me.best_action >= 0) game_action_to_string(g, s, me.best_action, move, sizeof move);
        const char *v = !known ? "unknown" : value > 0 ? "win" : value < 0 ? "loss" : "draw";
        uint64_t total = me.nodes + opp.nodes;
        double secs = me.seconds + opp.seconds;
        if (json) {
            json_t j;
            json_begin(&j, stdout);
            json_str(&j, "game", g->spec);
            json_str(&j, "position", pos);
            json_str(&j, "prover", prover);
            json_str(&j, "value", v);
            json_str(&j, "mover_wins", status_text(me.status));
            if (me.status != PN_PROVEN) json_str(&j, "opponent_wins", status_text(opp.status));
            if (move[0]) json_str(&j, "winning_move", move);
            json_bool(&j, "loops", me.loops || opp.loops);
            json_u64(&j, "nodes", total);
            json_num(&j, "seconds", "%.3f", secs);
            json_end(&j);
        } else {
            printf("%s\n%s: %s for the side to move (%s)\n", pos, g->spec, v, prover);
            printf("the mover wins:    %s (%llu nodes%s%s)\n", status_text(me.status),
                   (unsigned long long)me.nodes, me.exhausted ? ", budget spent" : "",
                   me.loops ? ", a repetition counted as failure" : "");
            if (me.status != PN_PROVEN)
                printf("the opponent wins: %s (%llu nodes%s%s)\n", status_text(opp.status),
                       (unsigned long long)opp.nodes, opp.exhausted ? ", budget spent" : "",
                       opp.loops ? ", a repetition counted as failure" : "");
            if (move[0]) printf("winning move: %s\n", move);
            printf("%llu nodes, %.3f s\n", (unsigned long long)total, secs);
        }
    }
    pn_free(t);
    free(s);
    game_free(g);
    return rc;
}
