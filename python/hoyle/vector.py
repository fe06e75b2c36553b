"""vector.py — n games stepped in one call to C (api/api_vec.c): the
single-agent environment of single.py, batched, in the shape of Gymnasium's
vector API (hoyle.gymnasium.HoyleVectorEnv is a gymnasium.vector.VectorEnv).

    env = hoyle.VectorEnv("checkers", 256, opponent="random")
    obs, info = env.reset(seed=1)          # obs [n][C][H][W], info["action_mask"] [n][A]
    obs, rew, term, trunc, info = env.step(actions)   # actions: n ints

The arrays are the environment's own, written in place by C on every call
(no copies): copy what you keep across steps. Besides the mask, each game's
legal actions are listed: env.legal[i][:env.num_legal[i]]. A game that ends starts again
in the same step (Gymnasium's "same-step" auto-reset): its reward and
terminated/truncated describe the episode that ended, obs and mask the new
one's start, info["final_obs"][i] (valid where info["_final_obs"][i]) the
position it ended in. reset(seed) seeds game i with seed + i (Gymnasium's
convention), or with seed[i] given a list; each game's dice and opponent
draw from its own stream from then on.
"""
import threading

import numpy as np

from . import spaces as hoyle_spaces
from ._lib import Error, WrongType, check, ffi, lib, text
from .env import make_game, obs_high
from .game import _int, _u64


class VectorEnv:
    """`n` games of `game` for a learner at seat `player` against `opponent`
    (an agent spec, one agent per game; none for a one-player game).
    `max_moves` truncates after that many learner whole moves; `illegal`
    "lose" (default: an illegal action ends that game with reward -1) or
    "raise" (hoyle.Error, no game moved)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "autoreset_mode": "same-step"}
    spaces = hoyle_spaces

    def __init__(self, game, n, opponent=None, player=0, max_moves=0, illegal="lose", render_mode=None):
        self.game = g = make_game(game)
        self.num_envs = n = _int(n, "n")
        if illegal not in ("raise", "lose"):
            raise Error(f"illegal: {illegal!r} is not 'raise' or 'lose'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise Error(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.player, self.opponent = _int(player, "player"), opponent
        opp = text(opponent, "opponent") if opponent is not None else ffi.NULL
        out = ffi.new("api_vec_t **")
        check(lib.api_vec_create(g._g, n, opp, self.player, _int(max_moves, "max_moves"), illegal == "lose", out))
        self._v = ffi.gc(out[0], lib.api_vec_free)
        self._lock = threading.Lock()  # one C call at a time on this batch
        high = obs_high(g)
        self.single_observation_space = self.spaces.Box(0.0, high, g.obs_shape, np.float32)
        self.single_action_space = self.spaces.Discrete(g.num_actions)
        self.obs = np.zeros((n,) + g.obs_shape, np.float32)
        self.mask = np.zeros((n, g.num_actions), np.int8)
        self.legal = np.zeros((n, max(g.max_legal, 1)), np.int32)  # row i: num_legal[i] actions
        self.num_legal = np.zeros(n, np.int32)
        self.rewards = np.zeros(n, np.float32)
        self.terminated = np.zeros(n, np.bool_)
        self.truncated = np.zeros(n, np.bool_)
        self.final_obs = np.zeros_like(self.obs)
        self._actions = np.zeros(n, np.int32)
        out = ffi.new("api_vec_out_t *")
        for field, ctype, arr in (
            ("obs", "float *", self.obs), ("mask", "int8_t *", self.mask), ("legal", "int32_t *", self.legal),
            ("num_legal", "int32_t *", self.num_legal), ("rewards", "float *", self.rewards),
            ("terminated", "int8_t *", self.terminated), ("truncated", "int8_t *", self.truncated),
            ("final_obs", "float *", self.final_obs),
        ):
            setattr(out, field, ffi.cast(ctype, arr.ctypes.data))
        lib.api_vec_bind(self._v, out)  # C writes these arrays from now on (they live as long as self)
        self._actions_p = ffi.cast("int32_t *", self._actions.ctypes.data)
        self._rows = np.arange(n)
        self.actions_applied = 0  # every action played in all games (learner, opponents, dice)
        self._started = False

    def _info(self, done=None):
        info = {"action_mask": self.mask}
        if done is not None:
            info["final_obs"], info["_final_obs"] = self.final_obs, done
        return info

    def reset(self, seed=None, options=None):
        n = self.num_envs
        if self._v is None:
            raise Error("reset: the environment is closed")
        if seed is None:
            seeds = np.random.SeedSequence().generate_state(n, np.uint64)
        elif isinstance(seed, (list, tuple, np.ndarray)):
            if len(seed) != n:
                raise Error(f"reset: {len(seed)} seeds for {n} games")
            seeds = np.array([_u64(s) for s in seed], np.uint64)
        else:
            seeds = (np.uint64(_u64(seed)) + np.arange(n, dtype=np.uint64)).astype(np.uint64)
        seeds = np.ascontiguousarray(seeds, np.uint64)
        with self._lock:
            rc = lib.api_vec_reset(self._v, ffi.cast("uint64_t *", seeds.ctypes.data))
        check(rc)
        self._started = True
        return self.obs, self._info()

    def step(self, actions):
        """Play actions[i] in game i; returns (obs, rewards, terminated,
        truncated, info), the environment's arrays, written in place."""
        if self._v is None:
            raise Error("step: the environment is closed")
        if not self._started:
            raise Error("step: call reset() first")
        try:
            a = np.asarray(actions)
        except Exception:
            raise WrongType(f"step: expected {self.num_envs} actions") from None
        if a.shape != (self.num_envs,) or not (np.issubdtype(a.dtype, np.integer) or a.size == 0):
            raise WrongType(f"step: expected {self.num_envs} integer actions, got shape {a.shape} of {a.dtype}")
        with self._lock:
            self._actions[:] = a
            rc = lib.api_vec_step(self._v, self._actions_p)
        check(rc)
        self.actions_applied += rc
        return self.obs, self.rewards, self.terminated, self.truncated, self._info(self.terminated | self.truncated)

    def random_actions(self, rng):
        """One uniformly random legal action per game (from the legal lists),
        for baselines and benchmarks."""
        k = (rng.random(self.num_envs) * self.num_legal).astype(np.int32)
        return self.legal[self._rows, k]

    def game_state(self, i=0):
        """A copy of game i's position, as a hoyle.State."""
        s = self.game.new_state()
        if self._v is None:
            raise Error("game_state: the environment is closed")
        with self._lock, s._lock:
            check(lib.api_vec_state(self._v, _int(i, "game"), s._s))
        return s

    def render(self):
        from .env import rgb_array

        s = self.game_state(0)
        return rgb_array(self.game, s) if self.render_mode == "rgb_array" else s.to_string()

    def close(self):
        with self._lock:
            if self._v is not None:
                ffi.release(self._v)
                self._v = None
