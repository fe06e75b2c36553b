/* agent_plan.c — the puzzle check and the plan of the one-player search
 * agents (agent_plan.h). Invariant: when pos < len, `hash` is the hash of
 * the state in which actions[pos] is to be played. */
#include "mcts/agent_plan.h"

#include <stdlib.h>
#include <string.h>

int agent_plan_check_game(const game_t *g, const char *kind)
{
    if (g->num_players != 1)
        return hoyle_error(HOYLE_EINVAL, "%s: %s has %d players; %s searches one-player games only",
                           kind, g->spec, g->num_players, kind);
    if (g->max_chance_outcomes > 0)
        return hoyle_error(HOYLE_EINVAL, "%s: %s has chance; %s searches deterministic games only",
                           kind, g->spec, kind);
    return HOYLE_OK;
}

int agent_plan_init(agent_plan_t *p, const game_t *g)
{
    memset(p, 0, sizeof *p);
    p->actions = malloc(sizeof(int) * (size_t)(g->max_game_length + 1));
    if (p->actions == NULL) return hoyle_error(HOYLE_ENOMEM, "plan: out of memory");
    return HOYLE_OK;
}

void agent_plan_done(agent_plan_t *p)
{
    free(p->actions);
    p->actions = NULL;
}

void agent_plan_clear(agent_plan_t *p) { p->len = p->pos = 0; }

void agent_plan_set(agent_plan_t *p, const game_t *g, const void *state, const int *actions, int n,
                    double value)
{
    memcpy(p->actions, actions, sizeof(int) * (size_t)n);
    p->len = n, p->pos = 0;
    p->hash = game_hash(g, state);
    p->value = value;
}

bool agent_plan_next(const agent_plan_t *p, const game_t *g, const void *state, int *action)
{
    if (p->pos >= p->len || game_hash(g, state) != p->hash) return false;
    *action = p->actions[p->pos];
    return game_is_legal(g, state, *action);
}

void agent_plan_observe(agent_plan_t *p, const game_t *g, const void *state, int action)
{
    if (p->pos < p->len && game_hash(g, state) == p->hash && p->actions[p->pos] == action) {
        /* the hash of the next state: play the action on a copy */
        char buf[1024] __attribute__((aligned(GAME_STATE_ALIGN)));
        void *t = g->state_size <= sizeof buf ? buf : malloc(g->state_size);
        if (t == NULL) {
            agent_plan_clear(p);
            return;
        }
        memcpy(t, state, g->state_size);
        game_apply(g, t, action);
        p->hash = game_hash(g, t);
        p->pos++;
        if (t != buf) free(t);
    } else {
        agent_plan_clear(p);
    }
}
