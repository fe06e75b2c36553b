/* agent_game.c — the game driver (agent_play, agent.h): one game between
 * agents, used by `hoyle match`, `hoyle play`, sprt, tournaments and the
 * training evaluation.
 * Invariant: every agent observes every action, its own, the opponent's
 * and chance outcomes, in order, with the state before it; a game is
 * either scored (rules, move limit or forfeit) or returned as an error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "core/clock.h"
#include "games/playout.h"
#include "mcts/agent_kind.h"

static double now_ms(void) { return 1e3 * clock_seconds(); }

/* Room for every action of the longest game, with a margin: the opening and
 * the game share the actions[] and action_ms[] arrays the caller sizes by it. */
int agent_game_capacity(const game_t *g) { return g->max_game_length + 2; }

/* Every distinct agent observes `action` (one agent may play several seats). */
static void observe_all(const game_t *g, agent_t *const *agents, const void *s, int action)
{
    for (int p = 0; p < g->num_players; p++) {
        bool seen = false;
        for (int q = 0; q < p; q++) seen |= agents[q] == agents[p];
        if (!seen) agent_observe(agents[p], s, action);
    }
}

/* Score a forfeit by `player`: it loses, the others share the win. */
static void forfeit(const game_t *g, int player, agent_game_result_t *out)
{
    for (int p = 0; p < g->num_players; p++)
        /* A forfeit is scored as a decisive game, never a draw: an agent that
         * errors or plays an illegal move must not profit from it. */
        out->returns[p] = p == player ? -1.0 : 1.0 / (g->num_players - 1);
    out->end = AGENT_GAME_FORFEIT;
    out->forfeit_player = player;
}

int agent_play(const game_t *g, agent_t *const *agents, const agent_game_opts_t *opts,
               agent_game_result_t *out)
{
    memset(out, 0, sizeof *out);
    out->forfeit_player = -1;
    int cap = agent_game_capacity(g);
    size_t nc = g->max_chance_outcomes > 0 ? (size_t)g->max_chance_outcomes : 1;
    void *s = malloc(g->state_size);
    int *chance_actions = malloc(sizeof(int) * nc);
    double *chance_probs = malloc(sizeof(double) * nc);
    int status = HOYLE_OK, n = 0, moves = 0;
    if (!s || !chance_actions || !chance_probs) {
        status = hoyle_error(HOYLE_ENOMEM, "play: out of memory");
        goto done;
    }
    /* Chance outcomes come from their own stream (chance_seed), not from the
     * agents', so the dice do not depend on how the agents draw theirs. */
    rng_t rng;
    rng_init(&rng, opts->chance_seed);
    if (opts->start)
        memcpy(s, opts->start, g->state_size);
    else
        game_init(g, s);
    /* Agents are reset before the opening so a tree or TT from the previous
     * game never leaks into this one. */
    for (int p = 0; p < g->num_players; p++) agent_reset(agents[p]);
    /* 1. the opening, observed by every agent; it counts its whole moves */
    for (int i = 0; opts->opening && i < opts->opening_len; i++) {
        int before = game_current_player(g, s), a = opts->opening[i];
        if (game_is_terminal(g, s) || !game_is_legal(g, s, a)) {
            status = hoyle_error(HOYLE_EINVAL, "opening '%s': action %d is not legal",
                                 opts->opening_name ? opts->opening_name : "?", i + 1);
            goto done;
        }
        if (opts->on_move) opts->on_move(opts->ctx, s, before, a);
        observe_all(g, agents, s, a);
        game_apply(g, s, a);
        if (opts->actions) opts->actions[n] = a;
        if (opts->action_ms) opts->action_ms[n] = 0;
        n++;
        /* Moves count only when the turn passes: a chain of actions by one
         * player (or a chance outcome) is one whole move for max_moves. */
        if (before >= 0 && game_current_player(g, s) != before) moves++;
    }
    /* 2. the game: act, check, observe, apply; count whole moves */
    out->end = AGENT_GAME_RULES;
    while (!game_is_terminal(g, s)) {
        if (opts->max_moves > 0 && moves >= opts->max_moves) {
            out->end = AGENT_GAME_MOVE_LIMIT;
            break;
        }
        /* Checked against the declared length rather than trusted: a game that
         * never ends would otherwise overrun actions[]. */
        if (n >= cap) {
            status = hoyle_error(HOYLE_ESTATE, "%s: game exceeded max_game_length", g->spec);
            goto done;
        }
        int player = game_current_player(g, s), action;
        double ms = 0;
        if (player == PLAYER_CHANCE) {
            action = game_chance_sample(g, s, &rng, chance_actions, chance_probs);
            if (action < 0) {
                status = action;
                goto done;
            }
        } else {
            const char *name = opts->names ? opts->names[player] : agent_spec(agents[player]);
            double t0 = opts->action_ms ? now_ms() : 0;
            int r = agent_act(agents[player], s, &action);
            if (opts->action_ms) ms = now_ms() - t0;
            if (r == HOYLE_ENOMEM) { /* the job's failure, not a move */
                status = r;
                goto done;
            }
            /* Any other failure forfeits the mover but lets the match continue. */
            if (r || !game_is_legal(g, s, action)) {
                if (r)
                    snprintf(out->error, sizeof out->error, "%s: %s", name, hoyle_last_error());
                else
                    snprintf(out->error, sizeof out->error, "%s played illegal action %d", name,
                             action);
                forfeit(g, player, out);
                break;
            }
        }
        if (opts->on_move) opts->on_move(opts->ctx, s, player, action);
        observe_all(g, agents, s, action);
        game_apply(g, s, action);
        if (opts->actions) opts->actions[n] = action;
        if (opts->action_ms) opts->action_ms[n] = (float)ms;
        n++;
        if (player >= 0 && game_current_player(g, s) != player) moves++;
    }
    if (out->end == AGENT_GAME_RULES) game_returns(g, s, out->returns);
    /* AGENT_GAME_MOVE_LIMIT keeps the zeroed returns: a draw */
done:
    out->num_actions = n;
    free(s);
    free(chance_actions);
    free(chance_probs);
    return status;
}

int agent_play_game(const game_t *g, agent_t *const *agents, const void *start, uint64_t seed,
                    agent_move_fn on_move, void *ctx, double *returns, int *length)
{
    agent_game_opts_t opts = {.start = start, .chance_seed = seed, .on_move = on_move, .ctx = ctx};
    agent_game_result_t res;
    int status = agent_play(g, agents, &opts, &res);
    if (length) *length = res.num_actions;
    if (status) return status;
    if (res.end == AGENT_GAME_FORFEIT) return hoyle_error(HOYLE_ESTATE, "%s", res.error);
    memcpy(returns, res.returns, sizeof(double) * (size_t)g->num_players);
    return HOYLE_OK;
}
