"""game.py — Game and State over the game contract (games/game.h) through api/api.h.

A Game owns one `const game_t *` (freed with it); a State owns one state
buffer and keeps its Game alive.

Threads: cffi lets other threads run while C works, so a State holds a lock
that every call into C on it takes: one State used from several threads is
serialised, never torn. A Game is read-only after it is made and is shared
freely (each State has its own legal-action buffer). Every call goes to the C side, which
validates: an illegal action, bad text or a wrong player raises hoyle.Error
(a ValueError) with the library's one-line message and leaves the state as
it was.
"""
import collections
import operator
import threading

import numpy as np

from . import _lib
from ._lib import Error, WrongType, check, ffi, lib, text


INT_MIN, INT_MAX = -(2**31), 2**31 - 1

Playouts = collections.namedtuple("Playouts", "returns lengths")
Playouts.__doc__ = """random_playouts()' result: returns[n][num_players] (float64) and
lengths[n] (actions per game, int32)."""


def _int(x, what="action"):
    """x as a C int, or Error (never cffi's TypeError or OverflowError)."""
    try:
        v = operator.index(x)
    except TypeError:
        raise WrongType(f"{what}: expected an int, got {type(x).__name__}") from None
    if not INT_MIN <= v <= INT_MAX:
        raise Error(f"{what}: {v} is out of range")
    return v


_speed = _lib.speed  # the C fast paths (hoyle/_speed.c), or None: cffi does the same
if _speed is not None:
    _speed.bind(*[int(ffi.cast("uintptr_t", f)) for f in (lib.api_state_step, lib.api_state_legal_actions,
                                                         lib.api_state_observe_mask, lib.api_state_advance,
                                                         lib.api_state_settle)], check, _int)


def _u64(x, what="seed"):
    """x as a C uint64_t (taken modulo 2**64, as C would), or Error."""
    try:
        return operator.index(x) % 2**64
    except TypeError:
        raise WrongType(f"{what}: expected an int, got {type(x).__name__}") from None


def games():
    """The registered games: a list of dicts with name, description and
    variants (specs), in registration order."""
    out = []
    for i in range(lib.api_registry_size()):
        variants, j = [], 0
        while True:
            v = lib.api_registry_variant(i, j)
            if v == ffi.NULL:
                break
            variants.append(_lib.string(v))
            j += 1
        out.append(
            {
                "name": _lib.string(lib.api_registry_name(i)),
                "description": _lib.string(lib.api_registry_description(i)),
                "variants": variants,
            }
        )
    return out


class Game:
    """A game made from a spec: Game("checkers(variant=polish)")."""

    def __init__(self, spec):
        out = ffi.new("const game_t **")
        check(lib.game_create(text(spec, "spec"), out))
        self._g = ffi.gc(out[0], lib.game_free)
        info = ffi.new("api_game_info_t *")
        lib.api_game_info(self._g, info)
        self.name = _lib.string(info.name)
        self.spec = _lib.string(info.spec)  # canonical, every parameter spelled out
        self.num_players = info.num_players
        # seats at the table: num_players, or 4 in a partnership game, where a
        # player (the partnership) plays two seats (docs/games/gobang.md)
        self.num_seats = info.num_seats
        self.num_actions = info.num_actions
        self.max_legal = info.max_legal
        self.max_chance_outcomes = info.max_chance_outcomes
        self.max_game_length = info.max_game_length
        self.obs_shape = tuple(info.obs_shape)
        self.state_size = info.state_size
        self._scratch = max(self.max_legal, self.max_chance_outcomes, 1)
        self._addr = int(ffi.cast("uintptr_t", self._g))  # for hoyle._speed

    def __repr__(self):
        return f"hoyle.Game({self.spec!r})"

    def new_state(self):
        """The initial position."""
        p = lib.api_state_new(self._g)
        if p == ffi.NULL:
            check(-2)
        return State(self, ffi.gc(p, lib.api_state_free))

    def position(self, position_text):
        """A state from the game's one-line position format (FEN, PDN FEN, ...)."""
        s = self.new_state()
        check(lib.game_position_from_string(self._g, text(position_text, "position"), s._s))
        return s

    def random_playouts(self, n, seed=1, state=None):
        """Play n uniformly random games in C from `state` (default: the
        start) with one stream seeded by `seed`, the stream of `hoyle random
        GAME --games n --seed seed`. Returns Playouts(returns, lengths)."""
        n = _int(n, "n")
        if n < 0:
            raise Error(f"random_playouts: n = {n} < 0")
        seed = _u64(seed)
        start = state if state is not None else self.new_state()
        if start.game is not self:
            raise Error("random_playouts: the state is of another game")
        returns = np.zeros((n, self.num_players), dtype=np.float64)
        lengths = np.zeros(n, dtype=np.int32)
        with start._lock:
            rc = lib.api_random_playouts(
                self._g,
                start._s,
                n,
                seed,
                ffi.cast("double *", returns.ctypes.data),
                ffi.cast("int32_t *", lengths.ctypes.data),
            )
        check(rc)
        return Playouts(returns, lengths)


class _CffiCursor:
    """A State's per-step calls through cffi: the twin of hoyle._speed's
    Cursor (python/hoyle/_speed.c), used when that module is absent. It
    owns the legal-action buffer; buf[0:known] is the legal list of the
    state as it is now (0: not known), so step() checks its action against
    it in C instead of generating the list twice. Every other change of the
    state sets known = 0."""

    __slots__ = ("g", "s", "lock", "buf", "known")

    def __init__(self, g, s, scratch, lock):
        self.g, self.s, self.lock, self.known = g, s, lock, 0
        self.buf = ffi.new("int[]", scratch)

    def step(self, action):
        if type(action) is not int or not INT_MIN <= action <= INT_MAX:
            action = _int(action)
        with self.lock:
            n = lib.api_state_step(self.g, self.s, action, self.buf, self.known)
            self.known = max(n, 0)
            check(n)
            return ffi.unpack(self.buf, n)

    def legal(self):
        with self.lock:
            n = self.known = lib.api_state_legal_actions(self.g, self.s, self.buf)
            return ffi.unpack(self.buf, n)

    def advance(self, action, dice, probs):
        if type(action) is not int or not INT_MIN <= action <= INT_MAX:
            action = _int(action)
        player = ffi.new("int *")
        with self.lock:
            n = lib.api_state_advance(self.g, self.s, action, self.buf, self.known, ffi.cast("rng_t *", dice),
                                      ffi.cast("double *", probs), player)
            self.known = max(n, 0)
            check(n)
        return player[0]

    def settle(self, dice, probs):
        player = ffi.new("int *")
        with self.lock:
            n = lib.api_state_settle(self.g, self.s, self.buf, ffi.cast("rng_t *", dice), ffi.cast("double *", probs),
                                     player)
            self.known = max(n, 0)
            check(n)
        return player[0]

    def observe_mask(self, player, obs, mask):
        with self.lock:
            n = lib.api_state_observe_mask(self.g, self.s, player, ffi.from_buffer("float[]", obs),
                                           ffi.from_buffer("int8_t[]", mask), self.buf, self.known)
            check(n)
            self.known = n
        return n


def _cursor(game, ptr, lock):
    """The State's per-step calls: hoyle._speed's Cursor, else the cffi twin."""
    if _speed is not None:
        return _speed.Cursor(game._addr, int(ffi.cast("uintptr_t", ptr)), game._scratch, lock, (game._g, ptr))
    return _CffiCursor(game._g, ptr, game._scratch, lock)


class State:
    """One position of a Game. Made by Game.new_state(), Game.position() or
    State.clone(); apply() changes it in place.

    step(action): apply(action), then legal_actions(), in one call to C
    (the attribute is the cursor's own method, hoyle._speed's when it is
    built: no Python frame per step)."""

    __slots__ = ("game", "_s", "_g", "_lock", "_c", "step")

    def __init__(self, game, ptr):
        self.game = game
        self._g = game._g
        self._s = ptr
        # hoyle._speed's Lock (the Cursor reads its state without a call) or threading's
        self._lock = _speed.Lock() if _speed is not None else threading.Lock()
        self._c = _cursor(game, ptr, self._lock)  # keeps the legal list C last wrote (_c.known)
        self.step = self._c.step

    def clone(self):
        with self._lock:
            p = lib.api_state_clone(self._g, self._s)
        if p == ffi.NULL:
            check(-2)
        return State(self.game, ffi.gc(p, lib.api_state_free))

    @property
    def current_player(self):
        """0..num_players-1, hoyle.CHANCE (-1) or hoyle.TERMINAL (-2)."""
        with self._lock:
            return lib.api_state_current_player(self._g, self._s)

    @property
    def current_seat(self):
        """The seat at the board, 0..num_seats-1 (seat % num_players is the
        player to move), or hoyle.CHANCE / hoyle.TERMINAL."""
        with self._lock:
            return lib.api_state_current_seat(self._g, self._s)

    @property
    def is_terminal(self):
        return self.current_player == _lib.PLAYER_TERMINAL

    @property
    def is_chance(self):
        return self.current_player == _lib.PLAYER_CHANCE

    def legal_actions(self):
        """Legal actions, ascending (chance outcomes at a chance node; [] at the end)."""
        return self._c.legal()

    def apply(self, action):
        """Apply a legal action or chance outcome (checked in C: game_apply_checked)."""
        if type(action) is not int or not INT_MIN <= action <= INT_MAX:
            action = _int(action)
        with self._lock:
            self._c.known = 0
            rc = lib.game_apply_checked(self._g, self._s, action)
        if rc < 0:
            check(rc)
        return self

    def apply_move(self, move_text):
        """Apply a whole move given as text ("9x18x27"); returns its actions."""
        s = self.game
        out = ffi.new("int[]", _lib.GAME_MAX_CHAIN)
        move = text(move_text, "move")
        with self._lock:
            n = check(lib.game_move_from_string(s._g, self._s, move, out, _lib.GAME_MAX_CHAIN))
        actions = ffi.unpack(out, n)
        t = self.clone()
        for a in actions:
            t.apply(a)
        with self._lock:
            self._c.known = 0
            lib.api_state_copy(self._g, self._s, t._s)
        return actions

    def returns(self):
        """One value per player in [-1, 1] (zeros before the end)."""
        out = ffi.new("double[]", self.game.num_players)
        with self._lock:
            lib.api_state_returns(self._g, self._s, out)
        return list(out)

    def chance_outcomes(self):
        """[(action, probability)] at a chance node, [] elsewhere."""
        m = max(self.game.max_chance_outcomes, 1)
        acts, probs = ffi.new("int[]", m), ffi.new("double[]", m)
        with self._lock:
            n = check(lib.api_state_chance_outcomes(self._g, self._s, acts, probs))
        return [(acts[i], probs[i]) for i in range(n)]

    def observation(self, player=None):
        """The observation tensor from `player`'s view (default: the player
        to move, else 0) as a float32 array of game.obs_shape."""
        if player is None:
            player = max(self.current_player, 0)
        elif type(player) is not int:
            player = _int(player, "player")
        out = np.empty(self.game.obs_shape, dtype=np.float32)
        with self._lock:
            rc = lib.api_state_observe(self._g, self._s, player, ffi.from_buffer("float[]", out))
        if rc < 0:
            check(rc)
        return out

    def observation_and_mask(self, player):
        """(observation(player), mask): the mask an int8 array of
        game.num_actions, 1 for each legal action; one call to C."""
        if type(player) is not int:
            player = _int(player, "player")
        g = self.game
        obs = np.empty(g.obs_shape, dtype=np.float32)
        mask = np.empty(g.num_actions, dtype=np.int8)
        self._c.observe_mask(player, obs, mask)
        return obs, mask

    def advance(self, action, dice=0, probs=0):
        """The environments' move: apply `action`, then play the chance
        nodes that follow from `dice` (the address of an rng_t, as an int;
        `probs` the address of a double[max_chance_outcomes] scratch; 0:
        stop at a chance node), keeping the new legal list in C for the
        next mask. Returns the player to move, hoyle.CHANCE or
        hoyle.TERMINAL."""
        return self._c.advance(action, dice, probs)

    def settle(self, dice, probs):
        """advance()'s chance half alone, from the state as it is."""
        return self._c.settle(dice, probs)

    @property
    def hash(self):
        """The 64-bit Zobrist hash."""
        with self._lock:
            return lib.api_state_hash(self._g, self._s)

    def _text(self, fn, *args):
        buf = ffi.new("char[]", _lib.TEXT_MAX)
        with self._lock:
            check(fn(self._g, self._s, *args, buf, _lib.TEXT_MAX))
        return ffi.string(buf).decode("utf-8", "replace")

    def to_string(self):
        """The board, for people."""
        return self._text(lib.game_state_to_string)

    def __str__(self):
        return self.to_string()

    def position(self):
        """The one-line position (Game.position() reads it back)."""
        return self._text(lib.game_position_to_string)

    def action_to_string(self, action):
        return self._text(lib.game_action_to_string, _int(action))

    def action_from_string(self, action_text):
        """The action called `action_text`; it must be legal here."""
        out = ffi.new("int *")
        action = text(action_text, "action")
        with self._lock:
            check(lib.game_action_from_string(self._g, self._s, action, out))
        return out[0]

    def move_to_string(self, actions):
        """The whole move made of `actions` (consecutive, by the player to move)."""
        actions = [_int(a) for a in actions]
        if not 1 <= len(actions) <= _lib.GAME_MAX_CHAIN:
            raise Error(f"move_to_string: a whole move has 1..{_lib.GAME_MAX_CHAIN} actions, not {len(actions)}")
        arr = ffi.new("int[]", actions)
        return self._text(lib.api_move_to_string, arr, len(actions))

    def move_from_string(self, move_text):
        """The actions of the whole move `move_text` (state unchanged)."""
        out = ffi.new("int[]", _lib.GAME_MAX_CHAIN)
        move = text(move_text, "move")
        with self._lock:
            n = check(lib.game_move_from_string(self._g, self._s, move, out, _lib.GAME_MAX_CHAIN))
        return ffi.unpack(out, n)

    def __repr__(self):
        return f"<hoyle.State {self.game.spec} {self.position()!r}>"


def perft(game, depth, state=None):
    """Whole-move perft of `state` (default: the start) to `depth` (game_perft)."""
    if isinstance(game, str):
        game = Game(game)
    depth = _int(depth, "depth")
    if depth < 0:
        raise Error(f"perft: depth {depth} < 0")
    s = state if state is not None else game.new_state()
    with s._lock:
        return int(lib.game_perft(game._g, s._s, depth))
