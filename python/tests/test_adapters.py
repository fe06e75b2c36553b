"""test_adapters.py — hoyle.pettingzoo and hoyle.gymnasium: `import hoyle`
never imports PettingZoo or Gymnasium, the adapters say what is missing
when those are not installed, and where they are (not in CI: neither is a
Debian package) the packages' own checkers pass on every registered game:
PettingZoo's api_test and seed_test on the two-player games, Gymnasium's
check_env on every registered id. docs/python.md says how to run these
with the packages on PYTHONPATH."""
import subprocess
import sys
import warnings

import pytest

import hoyle
from conftest import SLOW, variant_specs


def python(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def test_import_hoyle_imports_neither_package():
    r = python("import sys, hoyle; print(sorted(m for m in ('pettingzoo', 'gymnasium') if m in sys.modules))")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


@pytest.mark.parametrize("module,missing", [("pettingzoo", "pettingzoo"), ("gymnasium", "gymnasium")])
def test_adapter_without_its_package(module, missing):
    r = python(f"import sys; sys.modules[{missing!r}] = None\nimport hoyle.{module}")
    assert r.returncode != 0
    assert f"hoyle.{module} needs" in r.stderr and "works without" in r.stderr


def two_player_specs():
    return [s for s in variant_specs() if hoyle.Game(s).num_players == 2]


@pytest.mark.parametrize("pz_spec", two_player_specs())
def test_pettingzoo_checkers(pz_spec):
    spec = pz_spec
    pytest.importorskip("pettingzoo")
    import hoyle.pettingzoo as hp
    from pettingzoo.test import api_test, seed_test

    cycles = 300 if SLOW else 60
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice about dict observations, as for its classic games
        api_test(hp.env(spec), num_cycles=cycles)
        seed_test(lambda: hp.env(spec), num_cycles=cycles)
        api_test(hp.raw_env(spec, max_cycles=3), num_cycles=cycles)


def test_gymnasium_check_env():
    gymnasium = pytest.importorskip("gymnasium")
    import hoyle.gymnasium as hg
    from gymnasium.utils.env_checker import check_env

    for env_id in hg.env_ids():
        env = gymnasium.make(env_id)
        check_env(env.unwrapped)
        for mode in env.metadata["render_modes"]:
            e = gymnasium.make(env_id, render_mode=mode)
            e.reset(seed=1)
            e.render()
            e.close()
    assert isinstance(gymnasium.make("hoyle.gymnasium:hoyle/checkers-v0").unwrapped, gymnasium.Env)


def test_gymnasium_vector_env():
    gymnasium = pytest.importorskip("gymnasium")
    import numpy as np

    import hoyle.gymnasium as hg

    env = hg.make_vec("backgammon", 8)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=1)
    assert obs in env.observation_space and env.observation_space.shape == (8,) + env.game.obs_shape
    for _ in range(50):
        actions = env.action_space.sample()  # any actions: the illegal ones lose
        assert actions in env.action_space
        obs, rew, term, trunc, info = env.step(actions)
        assert obs in env.observation_space and rew.shape == (8,)
    assert env.action_space.sample().shape == (8,)
    env.close()
    assert np.array_equal(hg.make_vec("fifteen", 2).reset(seed=3)[0], hoyle.VectorEnv("fifteen", 2).reset(seed=3)[0])
