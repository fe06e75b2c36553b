/* agent_az.h — the AlphaZero agent `az(model=PATH,sims=...)`: PUCT search
 * (mcts/mcts.h) with the network evaluator (train/net_eval.h) over a net
 * file written by tch_save (the training loop's net-NNNNNN.pt). Usable
 * wherever an agent spec is (play, match, tournament, sprt) once registered.
 * Its search defaults are self-play's (batch 4, vloss 1, c 1.25, fpu 0.2);
 * time_ms limits each move by time (agent_set_limits works too). Agents of
 * one file share one loaded net (a cache keyed by path, size and mtime):
 * agent_reseed/agent_reset never reload it, and a driver that frees and
 * re-creates agents reloads only after AZ_KEEP other nets were released.
 * Built only with libtorch. */
#ifndef HOYLE_TRAIN_AGENT_AZ_H
#define HOYLE_TRAIN_AGENT_AZ_H

/* Register the agent kinds of train/ (`az`) with mcts/agent.c's table
 * (agent_register_kind). Call once at startup; repeated calls are no-ops. */
int train_register_agents(void);

/* Net files loaded by az agents so far in this process (tests: once per match). */
long long agent_az_loads(void);

/* Free the cached nets no agent uses (the next agent of a file loads it again). */
void agent_az_cache_clear(void);

#endif
