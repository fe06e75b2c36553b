/* agent_game.c — one game between agents (agent_play_game, agent.h).
 * Invariant: every agent observes every action, its own, the opponent's
 * and chance outcomes, in order, with the state before it. */
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "games/playout.h"
#include "mcts/agent_kind.h"

int agent_play_game(const game_t *g, agent_t *const *agents, const void *start, uint64_t seed,
                    agent_move_fn on_move, void *ctx, double *returns, int *length)
{
    size_t nc = g->max_chance_outcomes > 0 ? (size_t)g->max_chance_outcomes : 1;
    void *s = malloc(g->state_size);
    int *chance_actions = malloc(sizeof(int) * nc);
    double *chance_probs = malloc(sizeof(double) * nc);
    int status = HOYLE_OK, plies = 0;
    if (!s || !chance_actions || !chance_probs) {
        status = hoyle_error(HOYLE_ENOMEM, "play: out of memory");
        goto done;
    }
    rng_t rng;
    rng_init(&rng, seed);
    if (start)
        memcpy(s, start, g->state_size);
    else
        game_init(g, s);
    for (int p = 0; p < g->num_players; p++) agent_reset(agents[p]);
    while (!game_is_terminal(g, s)) {
        int player = game_current_player(g, s), action;
        if (player == PLAYER_CHANCE) {
            action = game_chance_sample(g, s, &rng, chance_actions, chance_probs);
            if (action < 0) {
                status = action;
                goto done;
            }
        } else if ((status = agent_act(agents[player], s, &action))) {
            goto done;
        } else if (!game_is_legal(g, s, action)) {
            status = hoyle_error(HOYLE_ESTATE, "agent %s played illegal action %d",
                                 agent_spec(agents[player]), action);
            goto done;
        }
        if (on_move) on_move(ctx, s, player, action);
        for (int p = 0; p < g->num_players; p++) {
            bool seen = false; /* one agent may play several seats */
            for (int q = 0; q < p; q++) seen |= agents[q] == agents[p];
            if (!seen) agent_observe(agents[p], s, action);
        }
        game_apply(g, s, action);
        if (++plies > g->max_game_length + 1) {
            status = hoyle_error(HOYLE_ESTATE, "%s: game exceeded max_game_length", g->spec);
            goto done;
        }
    }
    game_returns(g, s, returns);
done:
    if (length) *length = plies;
    free(s);
    free(chance_actions);
    free(chance_probs);
    return status;
}
