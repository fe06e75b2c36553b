"""data.py — game records (data/h5rec.h) and training samples (train/samples.h)
read through the library's own readers, with move text decoded by the game.

Threads: the HDF5 library Debian ships is not built thread-safe, and cffi
lets threads run while C reads, so every read of a file here holds one
module-wide lock (_H5_LOCK): files are read one at a time, whole."""
import dataclasses
import functools
import threading

import numpy as np

from . import _lib
from ._lib import check, ffi, lib, text
from .game import Game


@dataclasses.dataclass
class Record:
    """One stored game (data/record.h): agent specs per seat, the actions
    from the initial position (the opening's included), how it ended."""

    game_spec: str
    agents: list
    opening_name: str
    opening_actions: np.ndarray
    actions: np.ndarray
    action_ms: np.ndarray
    returns: list
    result: float
    end: str
    seed: int
    pairing: int
    round: int
    game_index: int
    game: Game = dataclasses.field(repr=False, default=None)

    def states(self):
        """The positions of the game, the initial one first, the final one last."""
        s = self.game.new_state()
        out = [s.clone()]
        for a in self.actions:
            s.apply(int(a))
            out.append(s.clone())
        return out

    def final_state(self):
        return self.states()[-1]

    def moves(self):
        """The actions as text, each written in the position it was played in."""
        s, out = self.game.new_state(), []
        for a in self.actions:
            out.append(s.action_to_string(int(a)))
            s.apply(int(a))
        return out


def _array(ptr, n, ctype, dtype):
    if ptr == ffi.NULL or n == 0:
        return np.zeros(0, dtype=dtype)
    return np.frombuffer(ffi.buffer(ptr, n * ffi.sizeof(ctype)), dtype=dtype).copy()


_H5_LOCK = threading.Lock()


def _h5_locked(fn):
    @functools.wraps(fn)
    def locked(*args, **kw):
        with _H5_LOCK:
            return fn(*args, **kw)

    return locked


@_h5_locked
def records(path):
    """Every game of a tournament or match record file (x.h5, with its
    journal: games not yet checkpointed are included) as Record objects."""
    h = ffi.new("h5rec_t **")
    check(lib.h5rec_open_read(text(path, "path"), h))
    handle = ffi.gc(h[0], lib.h5rec_close)
    games, out = {}, []
    try:
        n = lib.h5rec_count(handle)
        for i in range(n):
            r = ffi.new("game_record_t *")
            check(lib.h5rec_read(handle, i, r))
            try:
                spec = _lib.string(r.game_spec)
                if spec not in games:
                    games[spec] = Game(spec)
                out.append(
                    Record(
                        game_spec=spec,
                        agents=[_lib.string(r.agent_spec[p]) or "" for p in range(2)],
                        opening_name=_lib.string(r.opening_name) or "",
                        opening_actions=_array(r.opening_actions, r.opening_len, "int32_t", np.int32),
                        actions=_array(r.actions, r.num_actions, "int32_t", np.int32),
                        action_ms=_array(r.action_ms, r.num_actions, "float", np.float32),
                        returns=list(r.returns),
                        result=r.result,
                        end=_lib.string(lib.record_end_name(r.end)),
                        seed=r.seed,
                        pairing=r.pairing,
                        round=r.round,
                        game_index=r.game_index,
                        game=games[spec],
                    )
                )
            finally:
                lib.game_record_free(r)
    finally:
        ffi.release(handle)  # h5rec_close now, not at garbage collection
    return out


@dataclasses.dataclass
class Samples:
    """The rows of a sample shard (docs/formats.md, "Training samples")."""

    game_spec: str
    games: int
    obs: np.ndarray  # float32 [n][C][H][W]
    policy: np.ndarray  # float32 [n][A]
    legal: np.ndarray  # bool [n][A]
    value: np.ndarray  # float32 [n]
    game_id: np.ndarray  # int64 [n]
    move: np.ndarray  # int32 [n]
    flags: np.ndarray  # uint8 [n]: bit 0 = the game was truncated at the move cap

    def __len__(self):
        return len(self.value)


@_h5_locked
def samples(path):
    """A training sample shard read by samples_read_shard() (train/samples.h)."""
    p = text(path, "path")
    buf = ffi.new("char[]", _lib.TEXT_MAX)
    check(lib.api_samples_game_spec(p, buf, _lib.TEXT_MAX))
    g = Game(ffi.string(buf).decode())
    ss = ffi.new("sample_set_t *")
    lib.sample_set_init(ss, list(g.obs_shape), g.num_actions)
    games = ffi.new("int64_t *")
    try:
        check(lib.samples_read_shard(p, ss, games))
        n, a = ss.n, g.num_actions
        return Samples(
            game_spec=g.spec,
            games=games[0],
            obs=_array(ss.obs, n * ss.obs_size, "float", np.float32).reshape((n,) + g.obs_shape),
            policy=_array(ss.policy, n * a, "float", np.float32).reshape(n, a),
            legal=_array(ss.legal, n * a, "uint8_t", np.uint8).reshape(n, a).astype(bool),
            value=_array(ss.value, n, "float", np.float32),
            game_id=_array(ss.game_id, n, "int64_t", np.int64),
            move=_array(ss.move, n, "int32_t", np.int32),
            flags=_array(ss.flags, n, "uint8_t", np.uint8),
        )
    finally:
        lib.sample_set_done(ss)
