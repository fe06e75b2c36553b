"""test_vector.py — hoyle.VectorEnv (api/api_vec.c) on every registered
variant: what C writes in place (observations, masks, legal lists) agrees
with the game's own state, episodes end with the game's returns and start
again at once, per-game seeds replay, bad actions are refused before any
game moves, illegal ones lose, max_moves truncates."""
import numpy as np
import pytest

import hoyle
from conftest import SLOW

STEPS = 150 if SLOW else 40


def make(spec, n=4, **kw):
    g = hoyle.Game(spec)
    return hoyle.VectorEnv(g, n, opponent="random" if g.num_players > 1 else None, **kw)


def check_rows(env):
    g = env.game
    for i in range(env.num_envs):
        s = env.game_state(i)
        assert not s.is_terminal and s.current_player == env.player  # every game waits for the learner
        legal = s.legal_actions()
        assert np.array_equal(env.obs[i], s.observation(env.player))
        assert np.flatnonzero(env.mask[i]).tolist() == legal
        assert env.legal[i][: env.num_legal[i]].tolist() == legal
        assert env.single_observation_space.contains(env.obs[i])
    assert env.obs.shape == (env.num_envs,) + g.obs_shape


def test_vector_env(spec):
    env = make(spec)
    obs, info = env.reset(seed=3)
    assert obs is env.obs and info["action_mask"] is env.mask  # the arrays C writes
    check_rows(env)
    rng = np.random.default_rng(1)
    episodes = 0
    for _ in range(STEPS):
        before = [env.game_state(i) for i in range(env.num_envs)]
        actions = env.random_actions(rng)
        obs, rew, term, trunc, info = env.step(actions)
        for i in np.flatnonzero(term | trunc):
            # the game that ended: replaying the learner's action from the state
            # before cannot be checked (the opponent and dice were inside), but
            # its last position is in final_obs and its reward is a return
            assert info["_final_obs"][i] and -1 <= rew[i] <= 1
            assert env.single_observation_space.contains(info["final_obs"][i])
            episodes += 1
        for i in np.flatnonzero(~(term | trunc)):
            assert rew[i] == 0 and before[i].hash != env.game_state(i).hash
        check_rows(env)
    assert env.actions_applied >= STEPS * env.num_envs
    env.close()


def test_vector_episode_replayed():
    """A one-player game (no opponent, no dice) replayed by hand: each step is
    the action applied, the end's reward is the return, final_obs the last
    position, and the game starts again in the same step."""
    env = hoyle.VectorEnv("solitaire", 1)
    env.reset(seed=9)
    g = env.game
    s = g.new_state()
    rng = np.random.default_rng(4)
    for _ in range(2):  # two episodes: the second starts from the auto-reset
        while True:
            a = int(rng.choice(s.legal_actions()))
            s.apply(a)
            _, rew, term, trunc, info = env.step([a])
            if s.is_terminal:
                assert term[0] and not trunc[0] and rew[0] == np.float32(s.returns()[0])
                assert np.array_equal(info["final_obs"][0], s.observation(0))
                assert env.game_state(0).hash == g.new_state().hash
                s = g.new_state()
                break
            assert not term[0] and rew[0] == 0 and env.game_state(0).hash == s.hash


def test_vector_seeds():
    def trace(seeds, n):
        env = hoyle.VectorEnv("backgammon", n, opponent="random")
        env.reset(seed=seeds)
        out = []
        for _ in range(30):
            acts = np.array([env.legal[i][0] for i in range(n)], np.int32)  # no rng: same actions for equal states
            env.step(acts)
            out.append((env.obs.copy(), env.rewards.copy(), env.terminated.copy()))
        return out, env

    a, _ = trace(5, 3)
    b, _ = trace(5, 3)
    assert all(np.array_equal(x[0], y[0]) for x, y in zip(a, b))
    # game i of reset(seed=s) is seeded with s + i, whatever n is
    c, _ = trace([6], 1)
    assert all(np.array_equal(x[0][1], y[0][0]) for x, y in zip(a, c))
    d, _ = trace([99, 100, 101], 3)
    assert not all(np.array_equal(x[0], y[0]) for x, y in zip(a, d))


def test_vector_bad_actions():
    env = make("checkers", 3, illegal="raise")
    env.reset(seed=1)
    obs, positions = env.obs.copy(), [env.game_state(i).position() for i in range(3)]
    ok = env.legal[:, 0].copy()
    illegal = ok.copy()
    illegal[2] = int(np.flatnonzero(env.mask[2] == 0)[0])
    for bad in (illegal, [ok[0], ok[1], -1], [ok[0], ok[1], env.game.num_actions]):
        with pytest.raises(hoyle.Error, match="game 2"):
            env.step(bad)
        assert np.array_equal(env.obs, obs) and [env.game_state(i).position() for i in range(3)] == positions
    for bad in ([0, 1], [[0, 1, 2]], ["a", "b", "c"], [0.5, 1, 2]):
        with pytest.raises(TypeError):
            env.step(bad)
    lose = make("checkers", 3)
    lose.reset(seed=1)
    _, rew, term, trunc, _ = lose.step(illegal)
    assert rew.tolist() == [0.0, 0.0, -1.0] and term.tolist() == [False, False, True]


def test_vector_max_moves():
    env = make("checkers", 2, max_moves=2)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    env.step(env.random_actions(rng))
    _, _, term, trunc, _ = env.step(env.random_actions(rng))
    assert trunc.all() and not term.any()


def test_vector_constructor_checks():
    for args in (("checkers", 2), ("fifteen", 2, "random"), ("checkers", 0, "random"), ("checkers", 2, "nope"),
                 ("checkers", 2, "random", 5)):
        with pytest.raises(ValueError):
            hoyle.VectorEnv(*args)
    env = make("checkers", 2)
    with pytest.raises(hoyle.Error, match="reset"):
        env.step([0, 0])
    with pytest.raises(ValueError):
        env.reset(seed=[1])
    env.reset(seed=1)
    assert "to move" in env.render()
    env.close()
    for call in (lambda: env.step([0, 0]), lambda: env.reset(seed=1), lambda: env.game_state(0)):
        with pytest.raises(hoyle.Error, match="closed"):
            call()
    env.close()  # twice is fine
