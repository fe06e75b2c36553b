"""test_speed.py — the per-step fast paths: State.step checking its action
against the legal list it already has (api_state_step's `known`), the
observation and mask in one call, and hoyle._speed (the C extension) doing
the same as the cffi paths on every registered game."""
import os
import random

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
