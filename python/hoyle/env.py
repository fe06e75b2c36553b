"""env.py — the turn-based multi-agent environment over a Game in the shape of
PettingZoo's AEC API, without importing PettingZoo (hoyle.pettingzoo makes
it a pettingzoo.AECEnv when that package is installed), and what it shares
with the single-agent environment (single.py): chance resolution, masks,
observation bounds, rendering.

The AEC cycle it keeps (PettingZoo's documented rules): last() gives the
selected agent's observation, its reward accumulated since it last acted,
its termination, truncation and info; step(action) plays that agent's
action; when the game ends every agent is terminated (truncated at the
max_moves / max_cycles limits) and each must then be stepped with None,
which removes it and zeroes `rewards` (they were already handed out).
Chance nodes (dice) are resolved inside the environment by their
probabilities, from np_random (seeded by reset(seed)); agents only ever see
decision states.
"""
import functools

import numpy as np

from . import _lib
from . import spaces as hoyle_spaces
from ._lib import PLAYER_CHANCE, Error, ffi, lib
from .game import INT_MAX, Game, _int

RENDER_CELL = 24  # pixels per board cell in render_mode="rgb_array"


def make_game(game):
    """A Game from a Game or a spec."""
    return Game(game) if isinstance(game, str) else game


def obs_high(game):
    """The largest value each observation entry can take: 1 everywhere
    except Backgammon's men-beyond-three planes (3 and 7), (count - 3) / 2
    with at most 15 men: 6 (games/backgammon/observe.c). The conformance
    suite checks every game's observations against these bounds."""
    high = np.ones(game.obs_shape, dtype=np.float32)
    if game.name == "backgammon":
        high[3] = high[7] = 6.0
    return high


def resolve_chance(state, rng, observer=None):
    """Sample chance outcomes until a player is to move (or the end);
    `observer` (an Agent) observes each."""
    while state.current_player == PLAYER_CHANCE:
        outcomes = state.chance_outcomes()
        p = np.array([q for _, q in outcomes], dtype=np.float64)
        a = outcomes[rng.choice(len(outcomes), p=p / p.sum())][0]
        if observer is not None:
            observer.observe(a, state)
        state.apply(a)


def legal_mask(game, state):
    m = np.zeros(game.num_actions, dtype=np.int8)
    m[state.legal_actions()] = 1  # none at the end
    return m


def new_observation(obs_shape, num_actions):
    """(obs dict, its observation array, its mask array), to be filled."""
    o, m = np.empty(obs_shape, np.float32), np.empty(num_actions, np.int8)
    return {"observation": o, "action_mask": m}, o, m


def check_action(game, action):
    """`action` as an int in the action space, or Error (outside the space:
    a caller's mistake, whatever the illegal-action policy)."""
    a = action if type(action) is int and 0 <= action <= INT_MAX else _int(action)
    if not 0 <= a < game.num_actions:
        raise Error(f"step: action {a} is outside the action space 0..{game.num_actions - 1}")
    return a


def check_render_mode(cls, mode):
    if mode is not None and mode not in cls.metadata["render_modes"]:
        raise Error(f"render_mode {mode!r} is not one of {cls.metadata['render_modes']}")
    return mode


def check_illegal(policy):
    if policy not in ("raise", "lose"):
        raise Error(f"illegal: {policy!r} is not 'raise' or 'lose'")
    return policy


def rgb_array(game, state):
    """A simple drawing of the position: one RENDER_CELL square per board
    cell, light/dark squares, seat 0's men (observation plane 0, from seat
    0's view) red and the other side's (plane 1) black, shaded by value."""
    obs = state.observation(0)
    _, h, w = game.obs_shape
    rows, cols = np.indices((h, w))
    img = np.where(((rows + cols) % 2 == 0)[..., None], [238, 232, 213], [181, 136, 99]).astype(np.float32)
    for plane, colour in ((0, (200, 30, 30)), (1, (20, 20, 20))):
        if plane < game.obs_shape[0]:
            v = np.clip(obs[plane], 0, 1)[..., None]
            img = img * (1 - v) + np.array(colour, np.float32) * v
    img = np.repeat(np.repeat(img, RENDER_CELL, axis=0), RENDER_CELL, axis=1)
    return img.astype(np.uint8)


def render(env):
    """env.render() for both environments: the board text ("ansi"; also
    with no render_mode), printed ("human") or drawn ("rgb_array")."""
    if env.game_state is None:
        raise Error("render: call reset() first")
    if env.render_mode == "rgb_array":
        return rgb_array(env.game, env.game_state)
    text = env.game_state.to_string()
    if env.render_mode == "human":
        print(text)
        return None
    return text


class AECEnv:
    """PettingZoo-style AEC environment for a game: agents "player_0",
    "player_1"; observe(agent) gives {"observation", "action_mask"}; step()
    plays agent_selection's action; rewards are the returns, given at the
    end. Limits (0 = none), both truncations: `max_moves` whole moves in
    all; `max_cycles` steps per agent (PettingZoo's max_cycles: no agent
    steps more). `illegal`: "raise" (hoyle.Error, nothing changes) or "lose"
    (the mover gets -1, the others 0, every agent is terminated and the
    mover's info has "illegal_action": True, as PettingZoo's classic games
    do). An action outside 0..num_actions-1 always raises."""

    metadata = {"name": "hoyle", "is_parallelizable": False, "render_modes": ["human", "ansi", "rgb_array"],
                "render_fps": 1}
    spaces = hoyle_spaces  # where Box, Discrete and Dict come from (the adapter: gymnasium.spaces)

    def __init__(self, game, max_moves=0, max_cycles=0, render_mode=None, illegal="raise"):
        self.game = make_game(game)
        self.max_moves = _int(max_moves, "max_moves")
        self.max_cycles = _int(max_cycles, "max_cycles")
        if self.max_moves < 0 or self.max_cycles < 0:
            raise Error("AECEnv: max_moves and max_cycles must be >= 0")
        self.render_mode = check_render_mode(type(self), render_mode)
        self.illegal = check_illegal(illegal)
        self.possible_agents = [f"player_{p}" for p in range(self.game.num_players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        sp, g = self.spaces, self.game
        # one space object per agent, made once: seeding one is seeding what
        # action_space(agent) returns on every later call
        self.observation_spaces = {
            a: sp.Dict(
                {
                    "observation": sp.Box(0.0, obs_high(g), g.obs_shape, np.float32),
                    "action_mask": sp.Box(0, 1, (g.num_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: sp.Discrete(g.num_actions) for a in self.possible_agents}
        self.state_space = sp.Box(0.0, obs_high(g), g.obs_shape, np.float32)
        self.agents = []
        self.game_state = None
        self._np_random = None
        self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos = {}, {}, {}, {}, {}
        self.agent_selection = None
        # the dice, played in C by State.advance (seeded from np_random at reset) and its scratch
        self._dice = ffi.new("rng_t *")
        self._probs = ffi.new("double[]", max(g.max_chance_outcomes, 1))
        self._dice_at = int(ffi.cast("uintptr_t", self._dice))
        self._probs_at = int(ffi.cast("uintptr_t", self._probs))
        self._num_actions, self._obs_shape = g.num_actions, g.obs_shape
        self._zero_rewards = None  # self.rewards when step() made it all zeros (then it need not make it again)
        self._observer = self._observe_fast = None
        self._new_observation = functools.partial(new_observation, g.obs_shape, g.num_actions)
        if _lib.speed is not None:  # last()'s observations, their memory used again once nobody holds them
            # (made from a partial, not a bound method: an Observer is not tracked by the garbage
            # collector, so it must not hold the environment)
            self._observer = _lib.speed.Observer(self._new_observation, 4 * int(np.prod(g.obs_shape)),
                                                 g.num_actions)

    # ---- spaces and the attributes PettingZoo code reads ----
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    @property
    def unwrapped(self):
        return self

    @property
    def np_random(self):
        if self._np_random is None:
            self._np_random = np.random.default_rng()
        return self._np_random

    def agent_iter(self, max_iter=2**63):
        """The agent to act, until every agent is removed or max_iter steps."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def __str__(self):
        return f"hoyle:{self.game.spec}"

    # ---- the AEC cycle ----
    def reset(self, seed=None, options=None):
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(seed + i)
        self.game_state = self.game.new_state()
        if self.game.max_chance_outcomes:  # the dice's stream, from np_random (deterministic games draw nothing)
            lib.rng_init(self._dice, int(self.np_random.integers(0, 2**63)))
        self.game_state.settle(self._dice_at, self._probs_at)
        # the Observer takes hoyle._speed's cursors only (a State made while it was turned off has the cffi one)
        self._observe_fast = self._observer if type(self.game_state._c) is getattr(_lib.speed, "Cursor", None) else None
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._zero_rewards = None
        self.moves, self._last_player = 0, None
        self.steps = {a: 0 for a in self.agents}
        self.agent_selection = self.possible_agents[max(self.game_state.current_player, 0)]
        self._install_core()

    def _install_core(self):
        """step(), last(), action_space() and agent_iter() as hoyle._speed.Aec's
        C methods on this environment (instance attributes over the class's
        Python ones) when the extension, the state's Cursor and the Observer
        are all there and no subclass overrides them. The core does the hot
        case (an agent to move, an int action the rules accept) and updates
        the per-agent dicts in place; every other case runs the Python method
        (hoyle/_speed_aec.c). The environment and its core refer to each
        other, so a dropped environment is freed by the garbage collector."""
        names = ("step", "last", "action_space", "agent_iter")
        methods = tuple(getattr(AECEnv, name) for name in names)
        for name in names:
            self.__dict__.pop(name, None)
        if self._observe_fast is None or tuple(getattr(type(self), name) for name in names) != methods:
            return
        core = _lib.speed.Aec(self, methods, self._observer, self._dice_at, self._probs_at, self._num_actions)
        for name in names:
            setattr(self, name, getattr(core, name))

    def _require_reset(self, what):
        if self.game_state is None:
            raise Error(f"{what}: call reset() first")

    def observe(self, agent):
        self._require_reset("observe")
        seat = self._seat[agent]
        if self._to_act(agent):
            obs, mask = self.game_state.observation_and_mask(seat)
            return {"observation": obs, "action_mask": mask}
        return {"observation": self.game_state.observation(seat), "action_mask": np.zeros(self.game.num_actions, np.int8)}

    def _to_act(self, agent):
        return self.agent_selection == agent and not self.terminations.get(agent, True) and not self.truncations.get(agent)

    def state(self):
        """A global view: the position seen from player_0's seat (every
        hoyle game is of perfect information)."""
        self._require_reset("state")
        return self.game_state.observation(0)

    def action_mask(self, agent):
        """1 for the legal actions when `agent` is to move, else all 0."""
        if not self._to_act(agent):
            return np.zeros(self.game.num_actions, dtype=np.int8)
        return legal_mask(self.game, self.game_state)

    def last(self, observe=True):
        if self.game_state is None:
            self._require_reset("last")
        a = self.agent_selection
        if a not in self.agents:
            raise Error("last: the episode is over (every agent was removed); call reset()")
        term, trunc = self.terminations[a], self.truncations[a]
        if not observe:
            obs = None
        elif term or trunc:
            obs = self.observe(a)
        elif self._observe_fast is not None:  # the hot path of every AEC loop
            obs = self._observe_fast.observe(self.game_state._c, self._seat[a])
        else:  # observe(a) of the agent to move, inlined
            obs, o, m = self._new_observation()
            self.game_state._c.observe_mask(self._seat[a], o, m)
        return obs, self._cumulative_rewards[a], term, trunc, self.infos[a]

    def step(self, action):
        if self.game_state is None:
            self._require_reset("step")
        if not self.agents:
            raise Error("step: the episode is over (every agent was removed); call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise Error(f"step: {agent} is done; step(None) removes it")
            self._remove(agent)
            return
        if type(action) is not int or not 0 <= action < self._num_actions:
            if action is None:
                raise Error(f"step: {agent} is to move; None is only for an agent that is done")
            action = check_action(self.game, action)
        p = self._seat[agent]  # the player to move (current_player costs a move generation in some games)
        self._cumulative_rewards[agent] = 0.0
        self.steps[agent] += 1
        try:  # the action, then the dice from self._dice: one call to C
            cp = self.game_state._c.advance(action, self._dice_at, self._probs_at)
        except Error:
            if self.illegal == "raise":
                self.steps[agent] -= 1
                raise  # nothing changed
            return self._lose_illegal(agent, action)
        if p != self._last_player:
            self.moves += 1
            self._last_player = p
        if self.rewards is not self._zero_rewards:
            self.rewards = self._zero_rewards = dict.fromkeys(self.agents, 0.0)
        if cp < 0:
            return self._end()
        self.agent_selection = self.possible_agents[cp]
        if self.max_moves or self.max_cycles:
            self._limits(p, cp)

    def _limits(self, p, cp):
        """step()'s end when a limit is set: every agent truncated once
        max_moves whole moves are played (p moved, cp is to move) or the
        agent to move has stepped max_cycles times."""
        moves_up = self.max_moves and self.moves >= self.max_moves and cp != p
        if moves_up or (self.max_cycles and self.steps[self.agent_selection] >= self.max_cycles):
            for a in self.agents:
                self.truncations[a] = True

    def _end(self):
        """Rewards and terminations when the rules end the game."""
        self.rewards = {}
        for a, r in zip(self.possible_agents, self.game_state.returns()):
            self.rewards[a] = r
            self.terminations[a] = True
            self._cumulative_rewards[a] += r
        self.agent_selection = self.agents[0]

    def _lose_illegal(self, agent, action):
        self.rewards = {a: 0.0 for a in self.agents}
        self.rewards[agent] = -1.0
        for a in self.agents:
            self.terminations[a] = True
            self._cumulative_rewards[a] += self.rewards[a]
        self.infos[agent] = dict(self.infos[agent], illegal_action=True, action=action)

    def _remove(self, agent):
        self.agents.remove(agent)
        for d in (self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos):
            del d[agent]
        # the rewards were counted when they were given: a dead step hands out none
        self.rewards = {a: 0.0 for a in self.agents}
        if self.agents:
            self.agent_selection = self.agents[0]

    def render(self):
        return render(self)

    def close(self):
        pass
