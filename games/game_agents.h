/* game_agents.h — agent kinds that live beside their game, because they read
 * its internal state (the gnubg agent, games/backgammon/agent_gnubg.c), and
 * the one call that adds them to the agent table (mcts/agent.h).
 *
 * They are the CMake library hoyle_game_agents, which links mcts/ and
 * games/; games/ itself never depends on mcts/. A program or test that wants
 * these kinds links hoyle_game_agents and calls game_agents_register() once
 * at startup (apps/main.c does, before any thread uses agents). */
#ifndef HOYLE_GAMES_GAME_AGENTS_H
#define HOYLE_GAMES_GAME_AGENTS_H

/* Register every kind of game_agents.c's table with agent_register_kind().
 * Repeated calls are no-ops. Returns 0 or that call's status. */
int game_agents_register(void);

/* The kinds, one per file in its game's folder (agent_kind_t, mcts/agent_kind.h). */
struct agent_kind;
extern const struct agent_kind agent_gnubg_kind; /* gnubg(plies,path): backgammon */

#endif
