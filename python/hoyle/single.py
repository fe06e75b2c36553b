"""single.py — the single-agent environment over a Game in the shape of
Gymnasium's Env API, without importing Gymnasium (hoyle.gymnasium makes it
a gymnasium.Env when that package is installed).

reset(seed) -> (obs, info); step(a) -> (obs, reward, terminated, truncated,
info). A one-player game (a puzzle) is played as it is; a two-player game
needs `opponent`, an agent spec that plays the other seat inside step().
The rules' own ends (a win, a draw by the rules' move limits) terminate;
the environment's `max_moves` (the learner's whole moves, 0 = none)
truncates. Seeding follows Gymnasium:
reset(seed) makes np_random from the seed (reset() keeps drawing from it),
and the dice and the opponent's seed come from np_random, so the same seed
and actions give the same episode.
"""
import numpy as np

from . import spaces as hoyle_spaces
from ._lib import Error
from .agent import Agent
from .env import check_action, check_illegal, check_render_mode, make_game, obs_high, render
from .env import resolve_chance
from .game import _int


class SingleAgentEnv:
    """Gymnasium-style environment. info["action_mask"] (int8) marks the
    legal actions; the reward is the learner's return, given at the end.
    `illegal`: "lose" (default: an illegal action in the action space ends
    the episode with reward -1 and info["illegal_action"] True, so any
    action the action space samples is part of the contract) or "raise"
    (hoyle.Error, nothing changes). An action outside the space raises."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 1}
    spaces = hoyle_spaces
    spec = None  # gymnasium.make sets its EnvSpec here

    def __init__(self, game, opponent=None, player=0, max_moves=0, render_mode=None, illegal="lose"):
        self.game = make_game(game)
        if self.game.num_players > 1 and opponent is None:
            raise Error(f"SingleAgentEnv: {self.game.spec} has two players: give an opponent agent spec")
        if self.game.num_players == 1 and opponent is not None:
            raise Error(f"SingleAgentEnv: {self.game.spec} is a one-player game: it takes no opponent")
        self.player = _int(player, "player")
        if not 0 <= self.player < self.game.num_players:
            raise Error(f"SingleAgentEnv: player {self.player} is not 0..{self.game.num_players - 1}")
        self.opponent_spec = opponent
        if opponent is not None:
            Agent(self.game, opponent, 0)  # a bad spec fails here, not at reset()
        self.max_moves = _int(max_moves, "max_moves")
        if self.max_moves < 0:
            raise Error(f"SingleAgentEnv: max_moves {self.max_moves} < 0")
        self.render_mode = check_render_mode(type(self), render_mode)
        self.illegal = check_illegal(illegal)
        g = self.game
        self.observation_space = self.spaces.Box(0.0, obs_high(g), g.obs_shape, np.float32)
        self.action_space = self.spaces.Discrete(g.num_actions)
        self.opponent = None
        self.game_state = None
        self._np_random = None
        self._over = True

    @property
    def np_random(self):
        if self._np_random is None:
            self._np_random = np.random.default_rng()
        return self._np_random

    @np_random.setter
    def np_random(self, rng):
        self._np_random = rng

    @property
    def unwrapped(self):
        return self

    def _seed(self, seed):
        """np_random from `seed` (kept when None); the action space too."""
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
            self.action_space.seed(seed)

    def _advance(self):
        """Chance and the opponent until the learner is to move or the game ends."""
        s = self.game_state
        while not s.is_terminal:
            if s.is_chance:
                resolve_chance(s, self.np_random, self.opponent)
                continue
            if s.current_player == self.player:
                break
            a = self.opponent.act(s)
            self.opponent.observe(a, s)
            s.apply(a)

    def _obs(self):
        obs, mask = self.game_state.observation_and_mask(self.player)
        return obs, {"action_mask": mask}

    def reset(self, seed=None, options=None):
        self._seed(seed)
        self.game_state = self.game.new_state()
        if self.opponent_spec is not None:
            s = int(self.np_random.integers(0, 2**63))
            self.opponent = Agent(self.game, self.opponent_spec, s)
        self.moves, self._over = 0, False
        self._advance()
        return self._obs()

    def step(self, action):
        if self.game_state is None:
            raise Error("step: call reset() first")
        if self._over:
            raise Error("step: the episode is over; call reset()")
        action = check_action(self.game, action)
        before = self.game_state.clone() if self.opponent is not None else None
        try:
            self.game_state.advance(action)
        except Error:
            if self.illegal == "raise":
                raise
            self._over = True
            obs = self.game_state.observation(self.player)
            info = {"action_mask": np.zeros(self.game.num_actions, np.int8), "illegal_action": True}
            return obs, -1.0, True, False, info
        if self.opponent is not None:
            self.opponent.observe(action, before)
        if self.game_state.current_player != self.player:
            self.moves += 1
        self._advance()
        terminated = self.game_state.is_terminal
        reward = float(self.game_state.returns()[self.player]) if terminated else 0.0
        truncated = bool(self.max_moves and self.moves >= self.max_moves and not terminated)
        self._over = terminated or truncated
        obs, info = self._obs()
        return obs, reward, terminated, truncated, info

    def render(self):
        return render(self)

    def close(self):
        pass
