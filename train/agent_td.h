/* agent_td.h — the TD agent `td(model=FILE,plies=0|1|2)`: a net trained by
 * TD(λ) (train/td.h) plays the whole move whose afterstate it values most;
 * with plies > 0 it looks further: every chance outcome after a candidate
 * (backgammon's 21 rolls), each answered by the best reply of the player to
 * move, to the depth given, the `candidates` best moves of the level below
 * searched at each level (gnubg's n-ply with move filters). Plain C, no
 * libtorch: it plays in every build. */
#ifndef HOYLE_TRAIN_AGENT_TD_H
#define HOYLE_TRAIN_AGENT_TD_H

/* Add the `td` kind to the agent kinds (agent_register_kind); call once at
 * startup. */
int td_register_agents(void);

#endif
