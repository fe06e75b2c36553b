/* game_agents.c — the table of agent kinds over a game's own code
 * (game_agents.h) and their registration. Adding one: its agent_*.c file
 * here, one line in game_agent_kinds[]. */
#include "agents/game_agents.h"

#include "mcts/agent_kind.h"

static const agent_kind_t *const game_agent_kinds[] = {
    &agent_gnubg_kind,
    NULL,
};

int game_agents_register(void)
{
    for (int i = 0; game_agent_kinds[i]; i++) {
        int status = agent_register_kind(game_agent_kinds[i]);
        if (status) return status;
    }
    return HOYLE_OK;
}
