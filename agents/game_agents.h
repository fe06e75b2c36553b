/* game_agents.h — agent kinds over a game's own code (the gnubg agent,
 * agents/agent_gnubg.c, over games/backgammon/gnubg_player.h), and the one
 * call that adds them to the agent table (mcts/agent.h).
 *
 * They are the CMake library hoyle_game_agents in agents/, a layer above
 * games/ and mcts/ (docs/architecture.md), so neither depends on the other.
 * A program or test that wants these kinds links hoyle_game_agents and calls game_agents_register()
 * once at startup (apps/main.c does, before any thread uses agents). */
#ifndef HOYLE_AGENTS_GAME_AGENTS_H
#define HOYLE_AGENTS_GAME_AGENTS_H

/* Register every kind of game_agents.c's table with agent_register_kind().
 * Repeated calls are no-ops. Returns 0 or that call's status. */
int game_agents_register(void);

/* The kinds, one agent_*.c file each (agent_kind_t, mcts/agent_kind.h). */
struct agent_kind;
extern const struct agent_kind agent_gnubg_kind; /* gnubg(plies,path): backgammon */

#endif
