"""test_env.py — the PettingZoo-style AEC environment on every registered
variant, and the Gymnasium-style single-agent one (one-player games alone,
two-player games against an opponent agent)."""
import numpy as np
import pytest

import hoyle


def test_aec_random_game(spec):
    env = hoyle.AECEnv(spec)
    g = env.game
    env.reset(seed=1)
    total = {a: 0.0 for a in env.possible_agents}
    steps = 0
    while env.agents:
        agent = env.agent_selection
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        assert obs["observation"].shape == g.obs_shape
        if term or trunc:
            assert not obs["action_mask"].any()
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.shape == (g.num_actions,) and mask.any()
        assert (np.flatnonzero(mask) == env.game_state.legal_actions()).all()
        for other in env.agents:
            if other != agent:
                assert not env.action_mask(other).any()
        with pytest.raises(ValueError):
            env.step(int(np.flatnonzero(mask == 0)[0]) if (mask == 0).any() else -1)
        env.step(env.action_space(agent).sample(mask))
        steps += 1
        assert steps <= g.max_game_length
    assert env.game_state.is_terminal
    assert [total[a] for a in env.possible_agents] == env.game_state.returns()


def test_aec_truncation():
    env = hoyle.AECEnv("checkers", max_moves=3)
    env.reset()
    while not any(env.truncations.values()):
        env.step(env.game_state.legal_actions()[0])
    assert env.moves == 3 and not env.game_state.is_terminal
    while env.agents:
        env.step(None)


def test_single_agent_env(spec):
    g = hoyle.Game(spec)
    if g.num_players > 1:
        with pytest.raises(ValueError):
            hoyle.SingleAgentEnv(g)
        env = hoyle.SingleAgentEnv(g, opponent="random", player=1)
    else:
        env = hoyle.SingleAgentEnv(g)
    assert env.observation_space.shape == g.obs_shape and env.action_space.n == g.num_actions
    obs, info = env.reset(seed=2)
    done, steps, reward = False, 0, 0.0
    while not done:
        assert obs.shape == g.obs_shape
        assert env.game_state.current_player == env.player
        a = env.action_space.sample(info["action_mask"])
        obs, reward, term, trunc, info = env.step(a)
        done = term or trunc
        steps += 1
        assert steps <= g.max_game_length
    assert reward == env.game_state.returns()[env.player]
    with pytest.raises(ValueError):
        env.step(0)
