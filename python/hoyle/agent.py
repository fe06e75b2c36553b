"""agent.py — agents (mcts/agent.h) and matches between them, through api/api.h.

Threads: an agent (its tree, its rng, its copy of the game) is not safe to
use from two threads at once, and cffi lets threads run while C searches, so
every Agent holds a lock that each call into C takes (a second thread waits
for the first's search to end). play() takes the locks of its agents."""
import contextlib
import threading

import numpy as np

from . import _lib
from ._lib import Error, WrongType, check, ffi, lib, text
from .game import Game, State, _int, _u64

U64 = 2**64


class Agent:
    """An agent made from a spec ("mcts(sims=800)", "alphabeta(depth=6)",
    "random", "az(model=...)" when the build has libtorch) for `game`.

    It keeps the game it has observed: act() with no state asks about that
    position, observe(action) advances it. Pass a state to act() or
    observe() to drive it from a game you keep yourself (observe then takes
    the state *before* the action). Every action played, chance outcomes and
    the agent's own included, should be observed, in order."""

    def __init__(self, game, spec, seed=0):
        game = _game(game, "Agent")
        self.game = game
        self._lock = threading.Lock()
        out = ffi.new("agent_t **")
        check(lib.api_agent_create(game._g, text(spec, "agent spec"), _u64(seed), out))
        self._a = ffi.gc(out[0], lib.agent_free)
        self.spec = _lib.string(lib.agent_spec(self._a))  # canonical
        self.state = game.new_state()

    def __repr__(self):
        return f"hoyle.Agent({self.game.spec!r}, {self.spec!r})"

    def _own(self, state):
        if state is None:
            return self.state
        if not isinstance(state, State):
            raise WrongType(f"agent: expected a hoyle.State, got {type(state).__name__}")
        if state.game._g != self.game._g:
            raise Error("agent: the state is of another game")
        return state

    def act(self, state=None):
        """The action the agent chooses for the player to move."""
        out = ffi.new("int *")
        s = self._own(state)
        with self._lock, s._lock:
            rc = lib.agent_act(self._a, s._s, out)  # refuses terminal and chance states
        check(rc)
        return out[0]

    def observe(self, action, state=None):
        """`action` was played in `state` (default: the agent's own position,
        which then advances)."""
        s = self._own(state)
        action = _int(action)
        with self._lock, s._lock:
            rc = lib.api_agent_observe(self._a, self.game._g, s._s, action)
        check(rc)
        if state is None:
            self.state.apply(action)
        else:
            self.state = state.clone().apply(action)

    def reset(self, seed=None):
        """A new game (and, with `seed`, the seed stream agent_create would give)."""
        with self._lock:
            if seed is not None:
                check(lib.agent_reseed(self._a, _u64(seed)))
            else:
                lib.agent_reset(self._a)
        self.state = self.game.new_state()


def _game(game, what):
    """A Game from a Game or a spec; TypeError (WrongType) for anything else."""
    if isinstance(game, Game):
        return game
    if isinstance(game, str):
        return Game(game)
    raise WrongType(f"{what}: expected a hoyle.Game or a game spec, got {type(game).__name__}")


def play(game, agents, state=None, seed=0, max_moves=0):
    """One game between agents (one per seat; the same one may sit twice)
    from `state` (default: the start), dice seeded by `seed`. A seat whose
    agent fails or plays illegally forfeits. Returns a dict: returns, end
    ("rules", "move_limit", "forfeit"), forfeit_player, actions, error."""
    game = _game(game, "play")
    agents = list(agents)
    if any(not isinstance(a, Agent) for a in agents):
        raise WrongType("play: agents must be hoyle.Agent objects")
    if len(agents) != game.num_players or any(a.game._g != game._g for a in agents):
        raise Error(f"play: {game.spec} needs {game.num_players} agents of this game")
    seats = ffi.new("agent_t *[2]", [a._a for a in agents] + [ffi.NULL] * (2 - len(agents)))
    actions = np.zeros(lib.agent_game_capacity(game._g), dtype=np.int32)
    res = ffi.new("agent_game_result_t *")
    if state is not None and not isinstance(state, State):
        raise WrongType(f"play: expected a hoyle.State, got {type(state).__name__}")
    start = state._s if state is not None else ffi.NULL
    seed, max_moves = _u64(seed), _int(max_moves, "max_moves")
    with contextlib.ExitStack() as held:
        # each agent's lock once (one may sit twice), in one global order
        # (by id) so two threads playing the same agents cannot deadlock
        for _, a in sorted({id(a): a for a in agents}.items()):
            held.enter_context(a._lock)
        if state is not None:
            held.enter_context(state._lock)
        rc = lib.api_play(game._g, seats, start, seed, max_moves, ffi.cast("int32_t *", actions.ctypes.data), res)
    check(rc)
    return {
        "returns": list(res.returns)[: game.num_players],
        "end": ("rules", "move_limit", "forfeit")[res.end],
        "forfeit_player": res.forfeit_player,
        "actions": actions[: res.num_actions].copy(),
        "error": ffi.string(res.error).decode("utf-8", "replace"),
    }


def match(game, a, b, games=10, seed=1, max_moves=0):
    """`hoyle match GAME A B --games N --seed S` from Python: N games, A
    first in even games, seeds derived as the CLI derives them, so the
    results are the CLI's. Returns a dict with wins, draws, losses (A's
    view), score (A's mean, draw = 1/2), mean_length and the games (each as
    play() returns it, with a_seat)."""
    game = _game(game, "match")
    if game.num_players != 2:
        raise Error(f"match: {game.spec} is not a two-player game")
    games = _int(games, "games")
    if games < 1:
        raise Error(f"match: games = {games} < 1")
    agent = [Agent(game, a, 0), Agent(game, b, 0)]
    wins = draws = losses = 0
    total, length, played = 0.0, 0, []
    seed = _u64(seed)
    for i in range(games):
        # apps/cmd_match.c: game i depends on (S, i) only; salts 0xa, 0xb
        game_seed = lib.rng_mix((seed + i) % U64)
        agent[0].reset(lib.rng_mix(game_seed ^ 0xA))
        agent[1].reset(lib.rng_mix(game_seed ^ 0xB))
        a_seat = i % 2
        r = play(game, [agent[a_seat], agent[1 - a_seat]], seed=game_seed, max_moves=max_moves)
        ra = r["returns"][a_seat]
        wins += ra > 0
        draws += ra == 0
        losses += ra < 0
        total += (ra + 1.0) / 2.0
        length += len(r["actions"])
        r["a_seat"] = a_seat
        played.append(r)
    return {
        "game": game.spec,
        "a": agent[0].spec,
        "b": agent[1].spec,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": total / games,
        "mean_length": length / games,
        "results": played,
    }
