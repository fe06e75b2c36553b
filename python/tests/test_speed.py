"""test_speed.py — the per-step fast paths: State.step checking its action
against the legal list it already has (api_state_step's `known`), the
observation and mask in one call, the environments' move with its dice in
one call (api_state_advance), AECEnv's observations reusing memory nobody
holds, the masked sample in C, and hoyle._speed (the C extension) doing the
same as the cffi paths on every registered game."""
import gc
import os
import random
import threading
import weakref

import numpy as np
import pytest

import hoyle
from hoyle import _lib
from hoyle import game as game_module


def random_states(spec, n, seed=1):
    """Up to n states of random games of `spec` (decision, chance and terminal)."""
    g, rng = hoyle.Game(spec), random.Random(seed)
    out = []
    while len(out) < n:
        s = g.new_state()
        legal = s.legal_actions()
        while legal and len(out) < n:
            out.append(s.clone())
            legal = s.step(rng.choice(legal))
        out.append(s.clone())
    return g, out[:n]


@pytest.fixture(params=["speed", "cffi"])
def path(request, monkeypatch):
    """Each test once through hoyle._speed and once through cffi."""
    if request.param == "speed":
        if game_module._speed is None:
            pytest.skip("hoyle._speed was not built (no Python headers)")
    else:
        monkeypatch.setattr(game_module, "_speed", None)
    return request.param


def test_speed_is_loaded_when_required():
    # CI builds it (scripts/install-deps installs python3-dev): a missing module is a slow package
    if os.environ.get("HOYLE_REQUIRE_PYTHON") == "1":
        assert _lib.speed is not None, "hoyle._speed was not built or not found beside libhoyle.so"


def test_observation_and_mask_match_the_separate_calls(spec, path):
    g, states = random_states(spec, 40)
    for s in states:
        if s.is_chance:
            continue
        p = max(s.current_player, 0)
        legal = s.clone().legal_actions()
        obs, mask = s.observation_and_mask(p)
        assert obs.dtype == np.float32 and obs.shape == g.obs_shape
        assert mask.dtype == np.int8 and mask.shape == (g.num_actions,)
        np.testing.assert_array_equal(obs, s.observation(p))
        assert sorted(np.flatnonzero(mask).tolist()) == legal
        # a second call reuses the list C kept (known): the same answer
        obs2, mask2 = s.observation_and_mask(p)
        np.testing.assert_array_equal(mask, mask2)


def test_step_checks_against_the_list_it_has(path):
    g = hoyle.Game("checkers")
    s = g.new_state()
    legal = s.legal_actions()
    illegal = next(a for a in range(g.num_actions) if a not in legal)
    before = s.position()
    with pytest.raises(hoyle.Error, match="not legal"):
        s.step(illegal)
    assert s.position() == before  # nothing changed
    # apply() changes the state behind the kept list: step must not trust it
    s.apply(legal[0])
    stale = [a for a in legal if a not in s.clone().legal_actions()]
    assert stale, "the first move of checkers changes the legal list"
    with pytest.raises(hoyle.Error, match="not legal"):
        s.step(stale[0])
    # the same after apply_move and advance
    t = g.new_state()
    first = t.legal_actions()
    t.advance(first[0])
    with pytest.raises(hoyle.Error, match="not legal"):
        t.step(next(a for a in first if a not in t.clone().legal_actions()))


def test_step_sequences_equal_apply_sequences(spec, path):
    g, rng = hoyle.Game(spec), random.Random(7)
    a, b = g.new_state(), g.new_state()
    legal = a.legal_actions()
    while legal:
        x = rng.choice(legal)
        legal = a.step(x)
        b.apply(x)
        assert a.position() == b.position()
        assert legal == b.legal_actions()
    with pytest.raises(hoyle.Error, match="over"):
        a.step(0)


def test_speed_refuses_bad_arguments():
    if _lib.speed is None:
        pytest.skip("hoyle._speed was not built")
    s = hoyle.Game("checkers").new_state()
    with pytest.raises(TypeError):
        s._c.advance(1, 2)
    with pytest.raises(TypeError):
        _lib.speed.Cursor(1, 2)
    with pytest.raises(hoyle.WrongType):
        s.step(1.5)
    with pytest.raises(hoyle.Error, match="out of range"):
        s.step(2**40)


def test_step_takes_the_state_lock(path):
    """State.step (the cursor's own method, C's or cffi's) waits for the lock
    that every other call into C on the state takes."""
    s = hoyle.Game("checkers").new_state()
    a = s.legal_actions()[0]
    done = threading.Event()
    with s._lock:
        t = threading.Thread(target=lambda: (s.step(a), done.set()))
        t.start()
        assert not done.wait(0.2), "step() ran while another call held the state's lock"
    t.join()
    assert done.is_set()


def test_bound_step_keeps_its_state_alive(path):
    step = hoyle.Game("gobang(board=8,men=12)").new_state().step  # the State and its Game are gone
    gc.collect()
    legal = step(27)
    for _ in range(5):
        legal = step(legal[0])
    assert len(legal) == 64 - 6


def test_advance_plays_the_dice_from_its_rng(path):
    """api_state_advance: the action, then the chance nodes sampled from the
    rng given, the same rolls for the same seed; a refused action changes
    neither the state nor the rng."""
    g = hoyle.Game("backgammon")

    def game(seed, refuse=False):
        dice, probs = _lib.ffi.new("rng_t *"), _lib.ffi.new("double[]", g.max_chance_outcomes)
        at = [int(_lib.ffi.cast("uintptr_t", x)) for x in (dice, probs)]
        _lib.lib.rng_init(dice, seed)
        s, trace = g.new_state(), []
        player = s.settle(*at)
        while player >= 0:
            legal = s.legal_actions()
            assert s.current_player == player >= 0  # never left at a chance node
            if refuse:
                with pytest.raises(hoyle.Error, match="not legal"):
                    s.advance(next(a for a in range(g.num_actions) if a not in legal), *at)
            player = s.advance(legal[len(trace) % len(legal)], *at)
            trace.append(s.position())
        assert player == hoyle.TERMINAL and s.is_terminal
        return trace

    assert game(5) == game(5) == game(5, refuse=True)
    assert game(5) != game(6)


def test_advance_without_dice_stops_at_chance(path):
    s = hoyle.Game("backgammon").new_state()
    assert s.is_chance
    roll = s.legal_actions()[0]
    assert s.advance(roll) >= 0
    a = s.legal_actions()[0]
    assert s.advance(a) in (hoyle.CHANCE, s.current_player)
    while s.current_player >= 0:
        s.advance(s.legal_actions()[0])
    assert s.current_player == hoyle.CHANCE
    assert s.legal_actions() == [o for o, _ in s.chance_outcomes()]


def test_aec_observations_held_never_change():
    """AECEnv.last() uses an observation's memory again only once nobody
    holds it: every observation kept (the dict, an array, a view of one)
    still shows the position it was made for."""
    env = hoyle.AECEnv("checkers")
    env.reset(seed=3)
    kept, views, arrays, copies = [], [], [], []
    for i, agent in enumerate(env.agent_iter(60)):
        obs, _, term, trunc, _ = env.last()
        copies.append((obs["observation"].copy(), obs["action_mask"].copy()))
        kept.append(obs if i % 3 == 0 else None)
        views.append(obs["observation"][1:] if i % 3 == 1 else None)
        arrays.append(obs["action_mask"] if i % 3 == 2 else None)
        env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))
        del obs
    for i, (o, m) in enumerate(copies):
        if kept[i] is not None:
            np.testing.assert_array_equal(kept[i]["observation"], o)
            np.testing.assert_array_equal(kept[i]["action_mask"], m)
        if views[i] is not None:
            np.testing.assert_array_equal(views[i], o[1:])
        if arrays[i] is not None:
            np.testing.assert_array_equal(arrays[i], m)


def test_aec_observations_dropped_are_used_again():
    if _lib.speed is None:
        pytest.skip("hoyle._speed was not built")
    env = hoyle.AECEnv("checkers")
    env.reset(seed=3)
    seen = set()
    for agent in env.agent_iter(40):
        obs, _, term, trunc, _ = env.last()
        seen.add(obs["observation"].ctypes.data)
        env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))
    assert len(seen) <= 3  # two in turn (the one the loop holds, the one it dropped)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.bool_, np.int64, "list"])
def test_masked_sample_is_uniform_over_the_mask(dtype):
    """Discrete.sample(mask): hoyle._speed's pick for one-byte masks, numpy
    for others; both give an action the mask marks, the same one for the same
    seed, and every marked action over many draws."""
    rng = np.random.default_rng(1)
    for n in (1, 7, 8, 9, 17, 1024):
        m = (rng.random(n) < rng.random()).astype(np.int8)
        mask = m.tolist() if dtype == "list" else m.astype(dtype)
        a, b = hoyle.spaces.Discrete(n, seed=4), hoyle.spaces.Discrete(n, seed=4)
        draws = [a.sample(mask) for _ in range(40 * n)]
        assert draws == [b.sample(mask) for _ in range(40 * n)]
        marked = set(np.flatnonzero(m).tolist())
        if marked:
            assert set(draws) == marked if n < 64 else set(draws) <= marked
        else:
            assert set(draws) == {0}
    wide = np.zeros(40, np.uint8)  # any nonzero byte marks an action, in and after the 16-byte blocks
    wide[[1, 17, 33, 38]] = [2, 255, 128, 1]
    d = hoyle.spaces.Discrete(40, seed=1)
    assert {d.sample(wide) for _ in range(400)} == {1, 17, 33, 38}


def test_aec_env_is_freed():
    """An environment dropped is freed (its Observer holds no reference back to it)."""
    env = hoyle.AECEnv("checkers")
    env.reset(seed=1)
    env.last()
    ref = weakref.ref(env)
    del env
    gc.collect()
    assert ref() is None


class _PythonAEC(hoyle.AECEnv):
    """AECEnv with its own Python step() and last(): overriding them keeps
    hoyle._speed.Aec's C ones off (AECEnv._install_core)."""

    def step(self, action):
        return hoyle.AECEnv.step(self, action)

    def last(self, observe=True):
        return hoyle.AECEnv.last(self, observe)


def aec_trace(env, seed, rng):
    """Random play to the end of two episodes, now and then an illegal action
    or a last(observe=False): every step's last() and the per-agent dicts."""
    trace = []
    for episode in range(2):
        env.reset(seed=seed + episode)
        for agent in env.agent_iter(400):
            obs, cum, term, trunc, info = env.last()
            done = term or trunc
            trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), cum, term, trunc,
                          dict(info), env.last(observe=False)[1:], env.action_space(agent) is env.action_spaces[agent]))
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            action = None if done else legal[rng.randrange(len(legal))]
            if not done and rng.random() < 0.02:  # an illegal action: refused ("raise") or a loss ("lose")
                action = next(a for a in range(env.game.num_actions) if a not in legal)
            before = env.rewards  # a rewards dict handed out is never changed, only replaced
            try:
                env.step(action)
            except hoyle.Error as e:
                trace.append(("refused", str(e)))
                env.step(legal[0])
            trace.append((dict(env.rewards), dict(env._cumulative_rewards), dict(env.terminations),
                          dict(env.truncations), {a: dict(i) for a, i in env.infos.items()}, list(env.agents),
                          env.agent_selection if env.agents else None, env.moves, dict(env.steps),
                          env.rewards is before))
    return trace


@pytest.mark.parametrize("game_spec", ["checkers", "backgammon", "gobang(board=8,men=12)"])
@pytest.mark.parametrize("kw", [{}, {"illegal": "lose"}, {"max_moves": 9}, {"max_cycles": 7}])
def test_aec_core_keeps_the_python_bookkeeping(game_spec, kw):
    """hoyle._speed.Aec's step() and last() (the per-agent dicts updated in
    C) give, step by step, what AECEnv's Python methods give: observations,
    rewards, cumulative rewards, terminations, truncations, infos, agents,
    moves and steps, through the end, illegal actions and the limits."""
    fast, slow = hoyle.AECEnv(game_spec, **kw), _PythonAEC(game_spec, **kw)
    fast.reset(seed=1)
    slow.reset(seed=1)
    if _lib.speed is not None:
        assert type(fast.step).__name__ == "builtin_function_or_method", "the C core was not installed"
    assert "step" not in vars(slow) and "last" not in vars(slow)
    a, b = aec_trace(fast, 11, random.Random(5)), aec_trace(slow, 11, random.Random(5))
    assert len(a) == len(b)
    for i, (x, y) in enumerate(zip(a, b)):
        assert x == y, f"step {i}: {x!r} != {y!r}"
    paid = [x for x in a if len(x) == 10 and any(r != 0.0 for r in x[1].values())]  # cumulative rewards
    assert paid or "max_" in str(kw), "no game ended with a reward: the trace checks no payout"


def test_state_lock_acts_as_threading_lock():
    """hoyle._speed.Lock, a State's lock when the extension is there, does
    what threading.Lock does for the package's uses: `with`, acquire with
    blocking and timeout, release, locked, and waiting across threads."""
    if _lib.speed is None:
        pytest.skip("hoyle._speed was not built")
    lock = hoyle.Game("checkers").new_state()._lock
    assert type(lock) is _lib.speed.Lock
    assert not lock.locked() and lock.acquire() and lock.locked()
    assert lock.acquire(blocking=False) is False and lock.acquire(timeout=0.01) is False
    lock.release()
    with pytest.raises(RuntimeError, match="unlocked"):
        lock.release()
    got = []
    with lock:
        t = threading.Thread(target=lambda: got.append(lock.acquire(timeout=5)))
        t.start()
        t.join(0.2)
        assert not got  # waiting, with the GIL released
    t.join()
    assert got == [True] and lock.locked()
    lock.release()
    with pytest.raises(ValueError):
        lock.acquire(False, 1.0)


def test_step_lists_held_never_change(path):
    """State.step fills a legal list it handed out before only once nobody
    holds it: every list kept still shows the legal actions of its turn."""
    g, rng = hoyle.Game("checkers"), random.Random(3)
    s, kept, copies = g.new_state(), [], []
    legal = s.legal_actions()
    while legal:
        legal = s.step(rng.choice(legal))
        kept.append(legal if len(kept) % 2 == 0 else None)
        copies.append(list(legal))
    assert all(k is None or k == c for k, c in zip(kept, copies))
    ids = set()
    s = g.new_state()
    legal = s.legal_actions()
    for _ in range(20):
        legal = s.step(legal[0])
        ids.add(id(legal))
    if path == "speed":
        assert len(ids) <= 3  # two in turn, the lists dropped filled again


def test_discrete_sample_falls_back_and_copies():
    """Discrete.sample in C (hoyle._speed.Sampler) for a one-byte mask; the
    Python method for the rest (no mask, probabilities, a list), the same
    draws from the same seed either way; a copy or a pickle samples too."""
    import copy
    import pickle

    sp = hoyle.spaces
    mask = np.array([0, 1, 0, 1, 1, 0], np.int8)

    class PlainDiscrete(sp.Discrete):
        def sample(self, mask=None, probability=None):
            return sp.Discrete.sample(self, mask, probability)

    a, b = sp.Discrete(6, seed=2, start=3), PlainDiscrete(6, seed=2, start=3)
    assert "sample" not in vars(b)
    calls = [(mask,), (), (None, np.full(6, 1 / 6)), (mask.tolist(),), (mask.astype(np.int64),), (mask,)] * 30
    assert [a.sample(*c) for c in calls] == [b.sample(*c) for c in calls]
    for c in (copy.deepcopy(a), pickle.loads(pickle.dumps(a))):
        assert c == a and set(c.sample(mask) for _ in range(60)) == {4, 6, 7}


def test_aec_core_agent_iter_counts_as_python():
    """agent_iter(max_iter) through the C core stops where the Python
    generator does: max_iter steps (0, negative, past 2**63), or no agents."""
    fast, slow = hoyle.AECEnv("checkers"), _PythonAEC("checkers")
    for env in (fast, slow):
        env.reset(seed=2)
    for n in (0, -3, 1, 5, 2**70):
        got = [list(env.agent_iter(n)) if n < 10 else list(zip(range(7), env.agent_iter(n))) for env in (fast, slow)]
        assert got[0] == got[1]
    with pytest.raises(TypeError):
        list(fast.agent_iter("3"))
    for env in (fast, slow):
        for agent in env.agent_iter():
            env.step(None if env.terminations[agent] or env.truncations[agent] else env.last()[0]["action_mask"].argmax())
    assert list(fast.agent_iter()) == list(slow.agent_iter()) == []
