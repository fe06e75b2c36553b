/* cmd_analyze.c — `hoyle analyze GAME`: what an agent's search thinks of a
 * position: best move, value, principal variation, per-move visits / Q /
 * priors (MCTS), depth (alpha-beta), nodes and time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "mcts/agent.h"

static const char help[] =
    "usage: hoyle analyze GAME [--position P] [--agent SPEC] [--seed S] [--json]\n\n"
    "Search position P (default: the start) with agent SPEC (default\n"
    "mcts(sims=10000)) and print what it found: the move, the value for the\n"
    "player to move, the principal variation, per-move statistics (MCTS:\n"
    "visits, Q, prior, proven; greedy and az(search=ply): Q), depth,\n"
    "simulations/nodes and time.\n"
    "--json prints one JSON object on stdout.\n";

/* The moves of the actions pv[0..n) from `s`, in notation: each one to
 * json (an array element) when `j` is set, else space-separated into buf. */
static void pv_moves(const game_t *g, const void *s, const int *pv, int n, json_t *j, char *buf,
                     size_t cap)
{
    char *t = malloc(g->state_size);
    size_t used = 0;
    buf[0] = '\0';
    if (t == NULL) return;
    memcpy(t, s, g->state_size);
    /* The PV is replayed on a copy and cut at the first action that is not
     * legal there: an alpha-beta PV can carry a TT move from a hash
     * collision, and printing must stop there rather than apply it. */
    for (int i = 0; i < n && !game_is_terminal(g, t) && game_is_legal(g, t, pv[i]); i++) {
        char move[GAME_MOVE_MAX];
        if (game_action_to_string(g, t, pv[i], move, sizeof move) < 0) break;
        if (j) {
            json_str(j, NULL, move);
        } else {
            int k = snprintf(buf + used, cap - used, "%s%s", i ? " " : "", move);
            if (k < 0 || (size_t)k >= cap - used) break;
            used += (size_t)k;
        }
        game_apply(g, t, pv[i]);
    }
    free(t);
}

/* The best whole move: the agent's action, then the PV's actions while the
 * same player keeps moving (a checkers jump chain, a backgammon play), as
 * far as the PV goes. Writes its text into buf; falls back to the action. */
static void best_move(const game_t *g, const void *s, int action, const agent_info_t *info,
                      char *buf, size_t cap)
{
    int run[AGENT_PV_MAX], n = 0;
    run[n++] = action;
    char *t = malloc(g->state_size);
    if (t && info->pv_len > 0 && info->pv[0] == action) {
        memcpy(t, s, g->state_size);
        int player = game_current_player(g, t);
        game_apply(g, t, action);
        /* Follow the PV while it stays the mover's own legal actions. */
        for (int i = 1; i < info->pv_len && n < AGENT_PV_MAX; i++) {
            if (game_current_player(g, t) != player || !game_is_legal(g, t, info->pv[i])) break;
            run[n++] = info->pv[i];
            game_apply(g, t, info->pv[i]);
        }
    }
    free(t);
    if (game_move_to_string(g, s, run, n, buf, cap) < 0 &&
        game_action_to_string(g, s, action, buf, cap) < 0)
        snprintf(buf, cap, "#%d", action);
}

/* At a chance node (the dice not yet rolled) there is nobody to analyze for:
 * say how to give the outcome, with the position text after the first one
 * as an example the user can copy. */
static int chance_hint(const game_t *g, const void *s)
{
    int n = g->max_chance_outcomes > 0 ? g->max_chance_outcomes : 1;
    int *actions = malloc(sizeof *actions * (size_t)n);
    double *probs = malloc(sizeof *probs * (size_t)n);
    void *t = malloc(g->state_size);
    char example[GAME_TEXT_MAX] = "";
    if (actions && probs && t && game_chance_outcomes(g, s, actions, probs) > 0) {
        memcpy(t, s, g->state_size);
        game_apply(g, t, actions[0]);
        if (game_position_to_string(g, t, example, sizeof example) < 0) example[0] = '\0';
    }
    free(actions);
    free(probs);
    free(t);
    if (example[0])
        return cli_usage_error("analyze",
                               "the position is a chance node (dice to roll): give one with the "
                               "outcome decided, e.g. --position '%s'",
                               example);
    return cli_usage_error("analyze", "the position is a chance node: give one with the outcome "
                                      "decided through --position");
}

/* The value printed beside the best move: that move's Q when the search
 * lists it (the root's mean over all simulations, info->value, also counts
 * the moves not chosen, so it disagreed with the table), else the agent's
 * own value (alpha-beta's score, a proven result). */
static double move_value(const agent_info_t *info, int action)
{
    if (info->proven || info->q == NULL) return info->value;
    for (int i = 0; i < info->num_moves; i++)
        if (info->actions[i] == action) return info->q[i];
    return info->value;
}

/* Exit codes: 0 the search ran; 2 bad usage, a bad game, position or agent
 * spec, or a position with nobody to move; 1 the search itself failed. */
/* The analysis of one position: what both reports print. */
typedef struct analysis {
    const game_t *g;
    const void *s;
    const char *agent;        /* the agent's spec */
    const agent_info_t *info; /* the search's report */
    int action, player;       /* the move chosen; the player to move (0-based) */
    double value;             /* the chosen move's value for the player to move */
    char best[GAME_MOVE_MAX]; /* the chosen move as text */
    char pos[GAME_TEXT_MAX];  /* the position as text ("" when the game has none) */
} analysis_t;

static void report_json(const analysis_t *an)
{
    const game_t *g = an->g;
    const void *s = an->s;
    const agent_info_t *info = an->info;
    char pv[4096];
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "game", g->spec);
    json_str(&j, "position", an->pos);
    json_str(&j, "agent", an->agent);
    /* Players are 1-based in everything printed, JSON included. */
    json_int(&j, "player", an->player + 1);
    json_str(&j, "best", an->best);
    json_num(&j, "value", "%.4f", an->value);
    json_num(&j, "root_value", "%.4f", info->value);
    json_bool(&j, "proven", info->proven);
    json_open(&j, "pv", '[');
    pv_moves(g, s, info->pv, info->pv_len, &j, pv, sizeof pv);
    json_close(&j);
    json_int(&j, "depth", info->depth);
    json_int(&j, "sims", info->sims);
    json_u64(&j, "nodes", info->nodes);
    if (info->node_cap) {
        json_u64(&j, "node_cap", info->node_cap);
        json_bool(&j, "node_cap_reached", info->arena_full);
    }
    if (info->threads) json_int(&j, "threads", info->threads);
    json_num(&j, "seconds", "%.4f", info->seconds);
    json_open(&j, "moves", '[');
    for (int i = 0; i < info->num_moves; i++) {
        char move[GAME_MOVE_MAX];
        if (game_action_to_string(g, s, info->actions[i], move, sizeof move) < 0) move[0] = '\0';
        json_open(&j, NULL, '{');
        json_str(&j, "move", move);
        json_int(&j, "visits", info->visits ? info->visits[i] : 0);
        json_num(&j, "q", "%.4f", info->q ? info->q[i] : 0.0);
        json_num(&j, "prior", "%.4f", info->priors ? (double)info->priors[i] : 0.0);
        if (info->move_proven) json_bool(&j, "proven", info->move_proven[i]);
        json_close(&j);
    }
    json_end(&j);
}

/* The root's moves, most visited first (a search without visits: best Q first). */
static void print_moves(const game_t *g, const void *s, const agent_info_t *info)
{
    if (info->visits)
        printf("%-12s %8s %8s %8s%s\n", "move", "visits", "Q", "prior",
               info->move_proven ? "  proven" : "");
    else
        printf("%-12s %8s\n", "move", "Q");
    int *order = malloc(sizeof(int) * (size_t)info->num_moves);
    for (int i = 0; order && i < info->num_moves; i++) order[i] = i;
    for (int i = 1; order && i < info->num_moves; i++)
        for (int j = i; j > 0; j--) {
            int x = order[j], y = order[j - 1];
            if (info->visits ? info->visits[x] <= info->visits[y] : info->q[x] <= info->q[y]) break;
            order[j] = y;
            order[j - 1] = x;
        }
    for (int k = 0; order && k < info->num_moves; k++) {
        int i = order[k];
        char move[GAME_MOVE_MAX];
        if (game_action_to_string(g, s, info->actions[i], move, sizeof move) < 0) move[0] = '\0';
        if (info->visits)
            printf("%-12s %8d %+8.4f %8.4f%s\n", move, info->visits[i], info->q[i],
                   (double)info->priors[i],
                   info->move_proven && info->move_proven[i] ? "  yes" : "");
        else
            printf("%-12s %+8.4f\n", move, info->q[i]);
    }
    free(order);
}

static void report_text(const analysis_t *an)
{
    const agent_info_t *info = an->info;
    char board[GAME_TEXT_MAX], pv[4096];
    pv_moves(an->g, an->s, info->pv, info->pv_len, NULL, pv, sizeof pv);
    if (game_state_to_string(an->g, an->s, board, sizeof board) >= 0) printf("%s", board);
    printf("agent: %s\nplayer to move: %d\n", an->agent, an->player + 1);
    printf("best move: %s   value %+.4f%s\n", an->best, an->value, info->proven ? " (proven)" : "");
    printf("pv: %s\n", pv);
    if (info->depth) printf("depth: %d\n", info->depth);
    if (info->sims) printf("simulations: %lld\n", info->sims);
    printf("nodes: %llu   time: %.3f s\n", (unsigned long long)info->nodes, info->seconds);
    if (info->arena_full)
        printf("node cap reached: %llu nodes (the tree stopped growing)\n",
               (unsigned long long)info->node_cap);
    if (info->num_moves > 0 && (info->visits || info->q)) print_moves(an->g, an->s, info);
}

int cmd_analyze(int argc, char **argv)
{
    const char *game_spec = NULL, *position = NULL, *agent_spec_text = NULL;
    /* A fixed default seed: the same command prints the same analysis. */
    uint64_t seed = 0;
    bool json = false;
    const cli_opt_t opts[] = {
        CLI_OPT_POSITION(&position),
        CLI_OPT("--agent", &agent_spec_text, "SPEC", "the agent", .def = "mcts(sims=10000)"),
        CLI_OPT("--seed", &seed, "S", "the agent's seed", .def = "1"),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    int rc =
        cli_parse_one("analyze", help, opts, "GAME", cli_print_agent_kinds, &game_spec, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    const game_t *g = cli_game("analyze", game_spec);
    if (g == NULL) return EXIT_USAGE;
    int code = EXIT_OK;
    agent_t *a = NULL;
    void *s = malloc(g->state_size);
    if (s == NULL)
        code = cli_usage_error("analyze", "out of memory");
    else if (position && game_position_from_string(g, position, s))
        code = cli_fail("analyze", EXIT_USAGE);
    else if (!position)
        game_init(g, s);
    if (code == EXIT_OK && game_is_terminal(g, s))
        code = cli_usage_error("analyze", "the position has no player to move (game over)");
    else if (code == EXIT_OK && game_current_player(g, s) < 0)
        code = chance_hint(g, s);
    if (code == EXIT_OK && agent_create(g, agent_spec_text, seed, &a))
        code = cli_fail("analyze", EXIT_USAGE);
    /* A human agent would read stdin and has no search to report. */
    if (code == EXIT_OK && agent_is_human(a))
        code = cli_usage_error("analyze", "a human cannot analyze");
    int action = -1;
    if (code == EXIT_OK && agent_act(a, s, &action)) code = cli_fail("analyze", EXIT_FAILED);
    if (code == EXIT_OK) {
        analysis_t an = {.g = g,
                         .s = s,
                         .agent = agent_spec(a),
                         .info = agent_info(a),
                         .action = action,
                         .player = game_current_player(g, s)};
        an.value = move_value(an.info, action);
        best_move(g, s, action, an.info, an.best, sizeof an.best);
        if (game_position_to_string(g, s, an.pos, sizeof an.pos) < 0) an.pos[0] = '\0';
        if (json)
            report_json(&an);
        else
            report_text(&an);
    }
    agent_free(a);
    free(s);
    game_free(g);
    return code;
}
