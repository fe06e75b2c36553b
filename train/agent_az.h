/* agent_az.h — the AlphaZero agent `az(model=PATH,sims=...)`: PUCT search
 * (mcts/mcts.h) with the network evaluator (train/net_eval.h) over a net
 * file written by tch_save (the training loop's net-NNNNNN.pt). Usable
 * wherever an agent spec is (play, match, tournament, sprt) once registered.
 * Built only with libtorch. */
#ifndef HOYLE_TRAIN_AGENT_AZ_H
#define HOYLE_TRAIN_AGENT_AZ_H

/* Register the agent kinds of train/ (`az`) with mcts/agent.c's table
 * (agent_register_kind). Call once at startup; repeated calls are no-ops. */
int train_register_agents(void);

#endif
