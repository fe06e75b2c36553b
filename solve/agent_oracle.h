/* agent_oracle.h — the `oracle` agent: perfect play from endgame tables
 * (solve/retro.h), and the one call that adds it to the agent table.
 *
 * oracle(tb=DIR) plays, of the whole moves of the position, one that keeps
 * its value at the shortest win (the longest loss), ties broken by its seed;
 * outside the tables' material it refuses to act with a clear error (a game
 * between agents counts that as a forfeit). A program that wants the kind
 * links hoyle_solve and calls solve_agents_register() once at startup
 * (apps/main.c does). */
#ifndef HOYLE_SOLVE_AGENT_ORACLE_H
#define HOYLE_SOLVE_AGENT_ORACLE_H

/* Register the oracle and pns kinds with agent_register_kind(), and the
 * tables as the provider of search's tb=DIR (retro_tb_register); repeated
 * calls are no-ops. Returns 0 or that call's status. */
int solve_agents_register(void);

struct agent_kind;
extern const struct agent_kind agent_oracle_kind;
/* The `pns` agent (solve/agent_pns.c): a proven win played, else alpha-beta;
 * registered by the same call. */
extern const struct agent_kind agent_pns_kind;

#endif
