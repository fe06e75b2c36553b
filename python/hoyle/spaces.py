"""spaces.py — the three spaces hoyle's environments declare (Box, Discrete,
Dict) for use without Gymnasium, with Gymnasium's constructor signatures
and the methods code reaches for (seed, sample, contains, ==), so the
environments build either these or gymnasium.spaces from the same calls.

Each space owns a numpy Generator (np_random), unseeded until seed() is
called; sample() draws from it. Masks are int8 arrays of 0/1, as
Gymnasium's Discrete.sample(mask) takes them.
"""
import numpy as np

from . import _lib

_pick = _lib.speed.pick if _lib.speed is not None else None  # hoyle/_speed.c: a masked choice in C
UNIFORMS = 64  # Discrete.sample(mask) draws its uniforms from np_random this many at a time


class Space:
    """What the three spaces share: a Generator for sample() and seed()."""

    def __init__(self, shape, dtype, seed=None):
        self.shape, self.dtype = shape, dtype
        self._np_random = None
        if seed is not None:
            self.seed(seed)

    @property
    def np_random(self):
        if self._np_random is None:
            self._np_random = np.random.default_rng()
        return self._np_random

    def seed(self, seed=None):
        self._np_random = np.random.default_rng(seed)
        return [seed]

    def __contains__(self, x):
        return self.contains(x)


class Box(Space):
    """A float or int array of `shape` with bounds low <= x <= high
    (scalars or arrays of that shape)."""

    def __init__(self, low, high, shape=None, dtype=np.float32, seed=None):
        dtype = np.dtype(dtype)
        if shape is None:
            shape = np.shape(low) if np.ndim(low) else np.shape(high)
        shape = tuple(int(n) for n in shape)
        self.low = np.broadcast_to(np.asarray(low, dtype), shape).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype), shape).copy()
        super().__init__(shape, dtype, seed)

    def contains(self, x):
        if not isinstance(x, np.ndarray) or x.shape != self.shape:
            return False
        if not np.can_cast(x.dtype, self.dtype):
            return False
        return bool(np.all(x >= self.low) and np.all(x <= self.high))

    def sample(self):
        if np.issubdtype(self.dtype, np.integer):
            return self.np_random.integers(self.low, self.high, endpoint=True).astype(self.dtype)
        return self.np_random.uniform(self.low, self.high).astype(self.dtype)

    def __eq__(self, other):
        return (
            isinstance(other, Box)
            and self.shape == other.shape
            and self.dtype == other.dtype
            and np.array_equal(self.low, other.low)
            and np.array_equal(self.high, other.high)
        )

    __hash__ = None

    def __repr__(self):
        lo, hi = self.low.min(), self.high.max()
        return f"Box({lo}, {hi}, {self.shape}, {self.dtype})"


class Discrete(Space):
    """Actions start .. start+n-1 (hoyle's: 0 .. num_actions-1)."""

    def __init__(self, n, seed=None, start=0):
        self.n, self.start = int(n), int(start)
        self._uniforms = []  # drawn from np_random, UNIFORMS at a time, for sample(mask)
        super().__init__((), np.dtype(np.int64), seed)
        self._install_sample()

    def _install_sample(self):
        """sample() as hoyle._speed.Sampler's C method on this space (an
        instance attribute over the Python one below, which it calls for
        every case but sample(mask) with a one-byte mask), unless a subclass
        overrides sample()."""
        if _lib.speed is not None and type(self).sample is Discrete.sample:
            self.sample = _lib.speed.Sampler(self, Discrete.sample).sample

    def __getstate__(self):  # copy and pickle without the C method, made again on the other side
        state = dict(self.__dict__)
        state.pop("sample", None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._install_sample()

    def seed(self, seed=None):
        self._uniforms = []
        return super().seed(seed)

    def contains(self, x):
        if isinstance(x, np.ndarray) and x.shape == () and np.issubdtype(x.dtype, np.integer):
            x = int(x)
        if not isinstance(x, (int, np.integer)) or isinstance(x, bool):
            return False
        return self.start <= int(x) < self.start + self.n

    def sample(self, mask=None, probability=None):
        """A uniform action, or one of those `mask` (int8, n entries) marks;
        an all-zero mask gives `start`, as Gymnasium's does."""
        if probability is not None:
            p = np.asarray(probability, dtype=np.float64)
            return self.start + int(self.np_random.choice(self.n, p=p / p.sum()))
        if mask is None:
            return self.start + int(self.np_random.integers(self.n))
        # one uniform draw scaled to the count (Generator.choice costs ~10x more per call), the
        # uniforms drawn in batches (one Generator call per sample costs as much as the rest)
        u = self._uniforms.pop() if self._uniforms else self._refill()
        k = _pick(mask, u) if _pick is not None else -2  # -2: not a byte mask, numpy does it
        if k >= -1:
            return self.start + max(k, 0)  # -1: none set, start as below
        choices = np.asarray(mask).nonzero()[0]
        if choices.size == 0:
            return self.start
        return self.start + int(choices[int(u * choices.size)])

    def _refill(self):
        self._uniforms = self.np_random.random(UNIFORMS).tolist()
        return self._uniforms.pop()

    def __eq__(self, other):
        return isinstance(other, Discrete) and (self.n, self.start) == (other.n, other.start)

    __hash__ = None

    def __repr__(self):
        return f"Discrete({self.n})"


class Dict(Space):
    """A dict of named spaces (PettingZoo's {"observation", "action_mask"})."""

    def __init__(self, spaces=None, seed=None, **kw):
        self.spaces = dict(spaces or {}, **kw)
        super().__init__(None, None, seed)

    def seed(self, seed=None):
        super().seed(seed)
        seeds = self._np_random.integers(0, 2**32, size=len(self.spaces))
        for space, s in zip(self.spaces.values(), seeds):
            space.seed(int(s))
        return [seed]

    def contains(self, x):
        return (
            isinstance(x, dict)
            and x.keys() == self.spaces.keys()
            and all(space.contains(x[k]) for k, space in self.spaces.items())
        )

    def sample(self):
        return {k: space.sample() for k, space in self.spaces.items()}

    def __getitem__(self, key):
        return self.spaces[key]

    def __iter__(self):
        return iter(self.spaces)

    def keys(self):
        return self.spaces.keys()

    def __eq__(self, other):
        return isinstance(other, Dict) and self.spaces == other.spaces

    __hash__ = None

    def __repr__(self):
        return "Dict(" + ", ".join(f"{k!r}: {v}" for k, v in self.spaces.items()) + ")"
