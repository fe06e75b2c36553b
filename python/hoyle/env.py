"""env.py — reinforcement-learning environments over a Game, in the shapes of
PettingZoo's AEC API (turn-based multi-agent) and Gymnasium's Env API
(single agent), without importing either package (neither is in Debian).

Chance nodes (dice) are resolved inside the environment by their
probabilities, from a numpy Generator seeded at reset(); agents only ever see
decision states.

Wrapping them when the packages are installed (docs/python.md):
  * PettingZoo: subclass pettingzoo.AECEnv and delegate to AECEnv below; the
    attributes have the names and types PettingZoo expects; replace
    observation_space()/action_space() by gymnasium.spaces.Dict(observation=Box(0, 1, obs_shape),
    action_mask=Box(0, 1, (num_actions,), int8)) and Discrete(num_actions).
  * Gymnasium: subclass gymnasium.Env, set observation_space = Box(0, 1, obs_shape, float32)
    and action_space = Discrete(num_actions), and delegate reset()/step().
"""
import numpy as np

from ._lib import Error
from .agent import Agent
from .game import Game, _int


class Box:
    """What gymnasium.spaces.Box says about an observation: shape, dtype, bounds."""

    def __init__(self, shape, dtype=np.float32, low=0.0, high=1.0):
        self.shape, self.dtype, self.low, self.high = tuple(shape), np.dtype(dtype), low, high

    def __repr__(self):
        return f"Box({self.low}, {self.high}, {self.shape}, {self.dtype})"


class Discrete:
    """What gymnasium.spaces.Discrete says: n actions, 0..n-1."""

    def __init__(self, n):
        self.n = n
        self.shape = ()

    def sample(self, mask=None, rng=None):
        rng = rng or np.random.default_rng()
        choices = np.flatnonzero(mask) if mask is not None else np.arange(self.n)
        return int(rng.choice(choices))

    def __repr__(self):
        return f"Discrete({self.n})"


def _resolve_chance(state, rng, observer=None):
    """Sample chance outcomes until a player is to move (or the end);
    `observer` (an Agent) observes each."""
    while state.is_chance:
        outcomes = state.chance_outcomes()
        p = np.array([q for _, q in outcomes], dtype=np.float64)
        a = outcomes[rng.choice(len(outcomes), p=p / p.sum())][0]
        if observer is not None:
            observer.observe(a, state)
        state.apply(a)


def _mask(game, state):
    m = np.zeros(game.num_actions, dtype=np.int8)
    if not state.is_terminal:
        m[state.legal_actions()] = 1
    return m


class AECEnv:
    """PettingZoo-style AEC environment for a game: agents "player_0",
    "player_1"; observe(agent) gives {"observation", "action_mask"}; step()
    plays agent_selection's action; rewards are the returns, given at the end;
    `max_moves` (whole moves, 0 = rules only) truncates."""

    metadata = {"name": "hoyle", "is_parallelizable": False}

    def __init__(self, game, max_moves=0):
        self.game = Game(game) if isinstance(game, str) else game
        self.max_moves = _int(max_moves, "max_moves")
        self.possible_agents = [f"player_{p}" for p in range(self.game.num_players)]
        self.reset()

    # ---- spaces ----
    def observation_space(self, agent):
        return {
            "observation": Box(self.game.obs_shape),
            "action_mask": Box((self.game.num_actions,), np.int8, 0, 1),
        }

    def action_space(self, agent):
        return Discrete(self.game.num_actions)

    # ---- the AEC cycle ----
    def reset(self, seed=None, options=None):
        self.rng = np.random.default_rng(seed)
        self.state = self.game.new_state()
        _resolve_chance(self.state, self.rng)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.moves, self._last_player = 0, None
        self.agent_selection = self.possible_agents[max(self.state.current_player, 0)]

    def observe(self, agent):
        p = self.possible_agents.index(agent)
        return {"observation": self.state.observation(p), "action_mask": self.action_mask(agent)}

    def action_mask(self, agent):
        """1 for the legal actions when `agent` is to move, else all 0."""
        if self.agent_selection != agent or self.terminations.get(agent) or self.truncations.get(agent):
            return np.zeros(self.game.num_actions, dtype=np.int8)
        return _mask(self.game, self.state)

    def last(self, observe=True):
        a = self.agent_selection
        return (
            self.observe(a) if observe else None,
            self._cumulative_rewards[a],
            self.terminations[a],
            self.truncations[a],
            self.infos[a],
        )

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise Error(f"step: {agent} is done; step(None) removes it")
            self._remove(agent)
            return
        p = self.state.current_player
        if p != self.possible_agents.index(agent):
            raise Error(f"step: {agent} is not to move")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(action)  # illegal: hoyle.Error, nothing changed
        if p != self._last_player:
            self.moves += 1
        self._last_player = p
        _resolve_chance(self.state, self.rng)
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state.is_terminal:
            for a, r in zip(self.possible_agents, self.state.returns()):
                if a in self.agents:
                    self.rewards[a] = r
                    self.terminations[a] = True
        elif self.max_moves and self.moves >= self.max_moves and self.state.current_player != p:
            for a in self.agents:
                self.truncations[a] = True
        for a in self.agents:
            self._cumulative_rewards[a] += self.rewards[a]
        if not self.state.is_terminal:
            self.agent_selection = self.possible_agents[self.state.current_player]
        else:
            self.agent_selection = self.agents[0]

    def _remove(self, agent):
        self.agents.remove(agent)
        for d in (self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos):
            d.pop(agent, None)
        if self.agents:
            self.agent_selection = self.agents[0]

    def render(self):
        return self.state.to_string()

    def close(self):
        pass


class SingleAgentEnv:
    """Gymnasium-style environment: reset() -> (obs, info), step(a) -> (obs,
    reward, terminated, truncated, info). One-player games (puzzles) as they
    are; a two-player game needs `opponent`, an agent spec that plays the
    other seat inside step(). info["action_mask"] marks the legal actions;
    the reward is the learner's return, given at the end."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game, opponent=None, player=0, max_moves=0):
        self.game = Game(game) if isinstance(game, str) else game
        if self.game.num_players > 1 and opponent is None:
            raise Error(f"SingleAgentEnv: {self.game.spec} has two players: give an opponent agent spec")
        self.player = _int(player, "player")
        if not 0 <= self.player < self.game.num_players:
            raise Error(f"SingleAgentEnv: player {self.player} is not 0..{self.game.num_players - 1}")
        self.opponent_spec = opponent
        self.max_moves = _int(max_moves, "max_moves")
        self.observation_space = Box(self.game.obs_shape)
        self.action_space = Discrete(self.game.num_actions)
        self.opponent = None

    def _advance(self):
        """Chance and the opponent until the learner is to move or the game ends."""
        while not self.state.is_terminal:
            if self.state.is_chance:
                _resolve_chance(self.state, self.rng, self.opponent)
                continue
            if self.state.current_player == self.player:
                break
            a = self.opponent.act(self.state)
            self.opponent.observe(a, self.state)
            self.state.apply(a)

    def _obs(self):
        info = {"action_mask": _mask(self.game, self.state)}
        return self.state.observation(self.player), info

    def reset(self, seed=None, options=None):
        self.rng = np.random.default_rng(seed)
        self.state = self.game.new_state()
        if self.opponent_spec is not None and self.game.num_players > 1:
            s = int(self.rng.integers(0, 2**63))
            self.opponent = Agent(self.game, self.opponent_spec, s)
        self.moves = 0
        self._advance()
        return self._obs()

    def step(self, action):
        if self.state.is_terminal:
            raise Error("step: the episode is over; call reset()")
        before = self.state.clone()
        self.state.apply(action)
        if self.opponent is not None:
            self.opponent.observe(action, before)
        if self.state.current_player != self.player:
            self.moves += 1
        self._advance()
        terminated = self.state.is_terminal
        reward = self.state.returns()[self.player] if terminated else 0.0
        truncated = bool(self.max_moves and self.moves >= self.max_moves and not terminated)
        obs, info = self._obs()
        return obs, reward, terminated, truncated, info

    def render(self):
        return self.state.to_string()

    def close(self):
        pass
