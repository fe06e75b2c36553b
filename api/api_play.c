/* api_play.c — the flat agent, game-between-agents and random-batch entry
 * points of api.h, each checking the state before the agent or the rules see
 * it. */
#include "api/api.h"

#include <stdlib.h>

#include "agents/game_agents.h"
#include "games/playout.h"
#include "train/agent_td.h"
#ifdef HOYLE_TORCH
#include "train/agent_az.h"
#endif

int api_init(void)
{
    int rc = game_agents_register();        /* gnubg */
    if (rc == 0) rc = td_register_agents(); /* td */
#ifdef HOYLE_TORCH
    if (rc == 0) rc = train_register_agents(); /* az */
#endif
    return rc;
}

int api_agent_create(const game_t *g, const char *spec, uint64_t seed, agent_t **out)
{
    int rc = api_init();
    return rc ? rc : agent_create(g, spec, seed, out);
}

int api_agent_observe(agent_t *a, const game_t *g, const void *s, int action)
{
    if (game_is_terminal(g, s)) return hoyle_error(HOYLE_ESTATE, "%s: the game is over", g->spec);
    if (!game_is_legal(g, s, action))
        return hoyle_error(HOYLE_EINVAL, "%s: action %d is not legal here", g->spec, action);
    agent_observe(a, s, action);
    return HOYLE_OK;
}

int api_play(const game_t *g, agent_t *const *agents, const void *start, uint64_t chance_seed,
             int max_moves, int32_t *actions, agent_game_result_t *out)
{
    if (max_moves < 0) return hoyle_error(HOYLE_EINVAL, "play: max_moves %d < 0", max_moves);
    if (start && game_is_terminal(g, start))
        return hoyle_error(HOYLE_ESTATE, "%s: the start position is terminal", g->spec);
    for (int p = 0; p < g->num_players; p++)
        if (agents[p] == NULL) return hoyle_error(HOYLE_EINVAL, "play: no agent for seat %d", p);
    agent_game_opts_t opts = {
        .start = start, .max_moves = max_moves, .chance_seed = chance_seed, .actions = actions};
    return agent_play(g, agents, &opts, out);
}

/* The loop of game_random_games() game by game: one rng stream, the same
 * draws per action (game_random_playout), hence the same games. */
int api_random_playouts(const game_t *g, const void *start, int64_t n, uint64_t seed,
                        double *returns, int32_t *lengths)
{
    if (n < 0) return hoyle_error(HOYLE_EINVAL, "random_playouts: %lld games", (long long)n);
    if (game_is_terminal(g, start))
        return hoyle_error(HOYLE_ESTATE, "%s: the start position is terminal", g->spec);
    int scratch = game_scratch_actions(g);
    int *legal = malloc(sizeof *legal * (size_t)scratch);
    double *probs = malloc(sizeof *probs * (size_t)scratch);
    void *s = malloc(g->state_size);
    int rc = HOYLE_OK;
    if (!legal || !probs || !s) rc = hoyle_error(HOYLE_ENOMEM, "random_playouts: out of memory");
    rng_t rng;
    rng_init(&rng, seed);
    for (int64_t i = 0; i < n && rc == HOYLE_OK; i++) {
        api_state_copy(g, s, start);
        int length = game_random_playout(g, s, &rng, g->max_game_length + 1, legal, probs);
        if (length > g->max_game_length || !game_is_terminal(g, s)) {
            rc = hoyle_error(HOYLE_ESTATE, "%s: a game ran past max_game_length %d", g->spec,
                             g->max_game_length);
            break;
        }
        if (returns) game_returns(g, s, returns + i * g->num_players);
        if (lengths) lengths[i] = length;
    }
    free(legal), free(probs), free(s);
    return rc;
}
