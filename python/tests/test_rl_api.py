"""test_rl_api.py — the rules PettingZoo's api_test/seed_test/max_cycles_test
and Gymnasium's check_env hold environments to, written out here from their
documentation so CI guards them without either package (neither is in
Debian), on every registered variant, against hoyle.AECEnv and
hoyle.SingleAgentEnv (hoyle.pettingzoo / hoyle.gymnasium are those classes
over gymnasium.spaces: test_adapters.py runs them when the packages exist).

AEC: last() is the selected agent's observation and its reward accumulated
since it last acted; the dict keys follow `agents`; a done agent is stepped
with None, which removes it, hands out no reward and never brings it back;
spaces are the same object on every call and hold every observation;
seeded resets replay exactly; limits truncate, the rules terminate.
Gymnasium: reset(seed) seeds np_random (same seed, same generator state and
observation; another seed, another state), a step after a seeded reset is
deterministic, every action the action space samples is accepted."""
import io
import contextlib

import numpy as np
import pytest

import hoyle
from conftest import SLOW

GAMES = 3 if SLOW else 1


def aec_episode(env, check=True, seed=None):
    """Random legal play of one episode through agent_iter, checking each
    step against the AEC rules; returns (agents in order of acting, the
    rewards each was handed in total)."""
    env.reset(seed=seed)
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    order, finished, counted = [], set(), {a: 0.0 for a in env.agents}
    total = dict(counted)
    for agent in env.agent_iter():
        assert agent not in finished, "an agent came back after it was removed"
        obs, reward, term, trunc, info = env.last()
        assert isinstance(term, bool) and isinstance(trunc, bool) and isinstance(info, dict)
        assert term == env.terminations[agent] and trunc == env.truncations[agent] and info == env.infos[agent]
        assert reward == counted[agent], "last()'s reward is not the sum of rewards since the agent acted"
        if check:
            space = env.observation_space(agent)
            assert space.contains(obs), f"observation out of its space: max {obs['observation'].max()}"
            assert obs["observation"].dtype == space["observation"].dtype
            assert obs["action_mask"].dtype == space["action_mask"].dtype
        counted[agent] = 0.0
        if term or trunc:
            action = None
            finished.add(agent)
            assert not obs["action_mask"].any()
        else:
            assert obs["action_mask"].any()
            action = env.action_space(agent).sample(obs["action_mask"])
        order.append(agent)
        assert env.step(action) is None
        for a, r in env.rewards.items():
            counted[a] += r
            total[a] += r
        assert env.num_agents == len(env.agents)
        for d in (env.rewards, env.terminations, env.truncations, env.infos):
            assert set(d) == set(env.agents)
        assert len(order) <= 2 * env.game.max_game_length + env.max_num_agents
    assert finished == set(env.possible_agents), "not every agent was stepped out"
    return order, total


def test_aec_rules(spec):
    env = hoyle.AECEnv(spec)
    assert env.max_num_agents == env.game.num_players
    env.reset(seed=0, options={"any": 1})
    assert env.num_agents == env.game.num_players > 0
    obs, *_ = env.last(observe=False)
    assert obs is None
    for a in env.agents:
        assert env.observation_space(a) is env.observation_space(a)
        assert env.action_space(a) is env.action_space(a)
        assert env.unwrapped is env
    for i in range(GAMES):
        _, total = aec_episode(env, seed=i)
        # the rewards handed out, each counted once, are the game's returns
        assert [total[a] for a in env.possible_agents] == env.game_state.returns()


def test_aec_seeding(spec):
    """seed_test's rule: two environments reset with one seed (and their
    spaces seeded alike) play the same episode, dice included."""
    runs = []
    for _ in range(2):
        env = hoyle.AECEnv(spec)
        env.reset(seed=42)
        for i, a in enumerate(env.agents):
            env.action_space(a).seed(42 + i)
        trace = []
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            action = None if term or trunc else env.action_space(agent).sample(obs["action_mask"])
            trace.append((agent, obs["observation"].tobytes(), reward, term, trunc, action))
            env.step(action)
        runs.append(trace)
    assert runs[0] == runs[1]


def test_aec_reset_seeds_action_spaces():
    a, b = hoyle.AECEnv("checkers"), hoyle.AECEnv("checkers")
    a.reset(seed=7)
    b.reset(seed=7)
    assert [a.action_space("player_0").sample() for _ in range(20)] == [
        b.action_space("player_0").sample() for _ in range(20)
    ]


def test_aec_dice_follow_the_seed():
    def first_roll(seed):
        env = hoyle.AECEnv("backgammon")
        env.reset(seed=seed)
        return env.game_state.position()

    assert first_roll(3) == first_roll(3)
    assert len({first_roll(s) for s in range(8)}) > 1


def test_dead_steps_hand_out_no_reward():
    env = hoyle.AECEnv("gobang(board=5,men=6)")
    env.reset(seed=1)
    while not any(env.terminations.values()):
        env.step(env.action_space(env.agent_selection).sample(env.observe(env.agent_selection)["action_mask"]))
    given = dict(env.rewards)
    first = env.agent_selection
    env.step(None)
    assert first not in env.agents and all(r == 0 for r in env.rewards.values())
    other = env.agent_selection
    assert env.last()[1] == given[other]  # its reward waits in last() until it is stepped
    env.step(None)
    assert env.agents == []
    with pytest.raises(hoyle.Error, match="episode is over"):
        env.step(None)
    with pytest.raises(hoyle.Error):
        env.last()
    assert list(env.agent_iter()) == []


def test_aec_needs_reset_first():
    env = hoyle.AECEnv("checkers")
    for call in (lambda: env.step(0), lambda: env.last(), lambda: env.observe("player_0"), env.render):
        with pytest.raises(hoyle.Error, match="reset"):
            call()
    env.reset()
    env.step(env.game_state.legal_actions()[0])


def test_aec_step_none_for_a_live_agent():
    env = hoyle.AECEnv("checkers")
    env.reset()
    with pytest.raises(hoyle.Error, match="None"):
        env.step(None)


def test_max_moves_truncates_not_terminates():
    env = hoyle.AECEnv("checkers", max_moves=3)
    env.reset()
    while not any(env.truncations.values()):
        env.step(env.game_state.legal_actions()[0])
    assert env.moves == 3 and not env.game_state.is_terminal
    assert not any(env.terminations.values()) and all(env.truncations.values())
    while env.agents:
        assert env.last()[3] is True
        env.step(None)


def test_max_cycles():
    """max_cycles_test's rule: each agent acts max_cycles times, then is
    stepped once more (with None) when the episode is truncated."""
    env = hoyle.AECEnv("gobang(board=8,men=12)", max_cycles=4)  # one action per move: no chains
    env.reset(seed=0)
    counts = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter():
        counts[agent] += 1
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))
    assert list(counts.values()) == [5, 5]
    assert not env.game_state.is_terminal


def test_agent_iter_max_iter():
    env = hoyle.AECEnv("checkers")
    env.reset()
    assert len(list(env.agent_iter(5))) == 5  # nothing stepped: the same agent, five times


def test_illegal_lose_and_raise():
    env = hoyle.AECEnv("checkers", illegal="lose")
    env.reset()
    mask = env.observe("player_0")["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    env.step(bad)
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert all(env.terminations.values())
    assert env.infos["player_0"]["illegal_action"] is True and env.last()[1] == -1.0
    raw = hoyle.AECEnv("checkers")  # illegal="raise": an error, and nothing changed
    raw.reset()
    before = raw.game_state.position()
    with pytest.raises(hoyle.Error):
        raw.step(bad)
    assert raw.game_state.position() == before and raw.agent_selection == "player_0"
    for bad_action in (-1, raw.game.num_actions, 2.5, "3"):  # outside the space: always an error
        with pytest.raises(ValueError):
            env.reset()
            env.step(bad_action)
    with pytest.raises(ValueError):
        hoyle.AECEnv("checkers", illegal="ignore")


def test_state_is_a_method():
    env = hoyle.AECEnv("checkers")
    env.reset()
    s = env.state()
    assert s.shape == env.game.obs_shape and env.state_space.contains(s)


def test_render_modes(capsys):
    for cls, args in ((hoyle.AECEnv, ()), (hoyle.SingleAgentEnv, ("random",))):
        env = cls("checkers", *args, render_mode="ansi")
        env.reset(seed=0)
        assert env.render() == env.game_state.to_string()
        env = cls("checkers", *args, render_mode="rgb_array")
        env.reset(seed=0)
        img = env.render()
        _, h, w = env.game.obs_shape
        assert img.dtype == np.uint8 and img.shape == (h * 24, w * 24, 3) and img.std() > 0
        env = cls("checkers", *args, render_mode="human")
        env.reset(seed=0)
        assert env.render() is None and env.game_state.to_string() in capsys.readouterr().out
        with pytest.raises(ValueError):
            cls("checkers", *args, render_mode="video")


def test_backgammon_planes_within_declared_bounds():
    """Planes 3 and 7 are (count - 3) / 2: above 1 with five men or more on a
    point. The declared Box says so, and holds every observation."""
    env = hoyle.SingleAgentEnv("backgammon", opponent="random")
    space, high = env.observation_space, 0.0
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            assert space.contains(obs)
            high = max(high, float(obs[[3, 7]].max()))
            obs, _, term, trunc, info = env.step(env.action_space.sample(info["action_mask"]))
            done = term or trunc
    assert high > 1.0 and space.high[3].max() == 6.0 and space.high[0].max() == 1.0


# ---- the single-agent environment: Gymnasium's check_env rules ----


def single_env(spec, **kw):
    g = hoyle.Game(spec)
    return hoyle.SingleAgentEnv(g, opponent="random" if g.num_players > 1 else None, **kw)


def test_gym_seeding(spec):
    env = single_env(spec)
    obs1, _ = env.reset(seed=123)
    state1 = env.np_random.bit_generator.state
    obs2, _ = env.reset()
    obs3, _ = env.reset(seed=123)
    assert env.np_random.bit_generator.state == state1
    obs4, _ = env.reset()
    assert np.array_equal(obs1, obs3) and np.array_equal(obs2, obs4)
    env.reset(seed=456)
    assert env.np_random.bit_generator.state != state1
    # a step after a seeded reset is deterministic, opponent and dice included
    env.action_space.seed(123)
    a = env.action_space.sample()
    outs = []
    for _ in range(2):
        env.reset(seed=123)
        obs, r, term, trunc, info = env.step(a)
        outs.append((obs.tobytes(), r, term, trunc, info["action_mask"].tobytes(), env.game_state.position()))
        assert trunc is False
    assert outs[0] == outs[1]


def test_gym_episode_with_sampled_actions(spec):
    """Actions drawn from the whole action space, not the mask: each is
    accepted, an illegal one ends the episode as a loss."""
    env = single_env(spec)
    env.action_space.seed(5)
    illegal_seen = 0
    for seed in range(GAMES):
        obs, info = env.reset(seed=seed)
        assert env.observation_space.contains(obs) and isinstance(info, dict)
        done, steps = False, 0
        while not done:
            a = env.action_space.sample() if steps % 2 else env.action_space.sample(info["action_mask"])
            legal = bool(info["action_mask"][a])
            obs, reward, term, trunc, info = env.step(a)
            assert env.observation_space.contains(obs)
            assert isinstance(reward, float) and isinstance(term, bool) and isinstance(trunc, bool)
            if not legal:
                assert term and reward == -1.0 and info["illegal_action"] is True
                illegal_seen += 1
            done = term or trunc
            steps += 1
        with pytest.raises(hoyle.Error, match="reset"):
            env.step(a)
    g = env.game
    if g.num_actions > 2 * g.max_legal:  # most actions are illegal: a sample hits one
        assert illegal_seen > 0


def test_gym_illegal_raise_policy():
    env = hoyle.SingleAgentEnv("checkers", opponent="random", illegal="raise")
    _, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(hoyle.Error):
        env.step(bad)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # nothing changed: play goes on


def test_gym_max_moves_truncates():
    """max_moves counts the learner's whole moves."""
    env = hoyle.SingleAgentEnv("checkers", opponent="random", max_moves=2)
    _, info = env.reset(seed=0)
    outcomes = []
    for _ in range(2):
        _, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        outcomes.append((term, trunc))
    assert outcomes == [(False, False), (False, True)] and not env.game_state.is_terminal


def test_gym_constructor_checks():
    with pytest.raises(hoyle.Error, match="one-player"):
        hoyle.SingleAgentEnv("fifteen", opponent="random")
    with pytest.raises(hoyle.Error):
        hoyle.SingleAgentEnv("checkers", opponent="no-such-agent")
    env = hoyle.SingleAgentEnv("checkers", opponent="random")
    with pytest.raises(hoyle.Error, match="reset"):
        env.step(0)
    assert env.unwrapped is env and env.spec is None and "ansi" in env.metadata["render_modes"]


def test_spaces():
    d = hoyle.Discrete(5, seed=1)
    assert d.contains(4) and not d.contains(5) and not d.contains(1.0) and d.contains(np.int64(2))
    assert d.sample(np.array([0, 0, 1, 0, 0], np.int8)) == 2
    assert d == hoyle.Discrete(5) and d != hoyle.Discrete(4)
    b = hoyle.Box(0.0, np.array([1.0, 6.0], np.float32), (2,), np.float32, seed=1)
    assert b.contains(np.array([1.0, 5.5], np.float32)) and not b.contains(np.array([1.5, 0], np.float32))
    assert not b.contains(np.array([0.0, 0.0])) and b.contains(b.sample())  # float64 does not fit float32
    dd = hoyle.Dict({"observation": b, "action_mask": hoyle.Box(0, 1, (5,), np.int8)})
    dd.seed(3)
    x = dd.sample()
    assert dd.contains(x) and not dd.contains({"observation": x["observation"]})
    with contextlib.redirect_stdout(io.StringIO()):
        print(d, b, dd)
