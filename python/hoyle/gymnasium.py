"""gymnasium.py — hoyle's single-agent environment as a gymnasium.Env, and
every registered game variant registered with Gymnasium. Importing it needs
Gymnasium; `import hoyle` never imports it.

    import gymnasium
    env = gymnasium.make("hoyle.gymnasium:hoyle/checkers-v0", render_mode="ansi")

Ids: "hoyle/NAME-v0" for each game's default spec and one for each named
variant, its spec with every run of other characters than letters, digits
and dots made "_" ("checkers(variant=polish)": "hoyle/checkers_variant_polish-v0",
as Gymnasium's ids allow no brackets); two-player games
are played against `opponent` (default "random"), as seat `player` (0).
Any spec works through hoyle.gymnasium.HoyleEnv(spec, ...) too.
"""
import re

try:
    import gymnasium
except ImportError as e:  # say what is missing and what works without it
    raise ImportError(f"hoyle.gymnasium needs Gymnasium ({e}); hoyle.SingleAgentEnv works without") from e

from .env import make_game
from .game import games
from .single import SingleAgentEnv
from .vector import VectorEnv


class HoyleEnv(SingleAgentEnv, gymnasium.Env):
    """hoyle.SingleAgentEnv with gymnasium.spaces spaces, gymnasium.Env as a
    base class and Gymnasium's seeding (super().reset(seed=seed) makes
    np_random). Illegal actions in the action space lose (reward -1,
    info["illegal_action"]), so sampled actions are always accepted."""

    spaces = gymnasium.spaces
    metadata = dict(SingleAgentEnv.metadata)

    def __init__(self, game, opponent=None, player=0, max_moves=0, render_mode=None, illegal="lose"):
        SingleAgentEnv.__init__(self, game, opponent, player, max_moves, render_mode, illegal)

    def _seed(self, seed):
        gymnasium.Env.reset(self, seed=seed)
        if seed is not None:
            self.action_space.seed(seed)

    def __str__(self):
        return f"<HoyleEnv {self.game.spec}>"


class HoyleVectorEnv(VectorEnv, gymnasium.vector.VectorEnv):
    """hoyle.VectorEnv (n games stepped in one C call) as a
    gymnasium.vector.VectorEnv: batched spaces from gymnasium.spaces
    (observation_space a Box of [n, C, H, W], action_space MultiDiscrete)
    and the same-step auto-reset declared in metadata. The arrays returned
    are the environment's own, rewritten by the next step."""

    spaces = gymnasium.spaces

    def __init__(self, game, n, opponent=None, player=0, max_moves=0, illegal="lose", render_mode=None):
        VectorEnv.__init__(self, game, n, opponent, player, max_moves, illegal, render_mode)
        self.metadata = dict(VectorEnv.metadata, autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, n)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, n)

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.action_space.seed(seed if isinstance(seed, int) else int(seed[0]))
        return VectorEnv.reset(self, seed, options)


def make_vec(game, n, opponent="random", **kw):
    """HoyleVectorEnv for `game` (a spec or a registered id's spec), with
    the opponent only for a two-player game."""
    g = make_game(game)
    return HoyleVectorEnv(g, n, opponent if g.num_players > 1 else None, **kw)


def _make(spec, opponent="random", **kw):
    """Entry point of the registered ids: the opponent only for two-player games."""
    g = make_game(spec)
    return HoyleEnv(g, opponent if g.num_players > 1 else None, **kw)


def env_name(spec):
    """The id's name part for a spec: "gobang(board=15,men=0)" -> "gobang_board_15_men_0"."""
    return re.sub(r"[^\w.]+", "_", spec).strip("_")


def env_ids():
    """The ids this module registers, each with the spec it plays."""
    out = {}
    for entry in games():
        out[f"hoyle/{entry['name']}-v0"] = entry["name"]
        for v in entry["variants"]:
            out[f"hoyle/{env_name(v)}-v0"] = v
    return out


def register():
    for env_id, spec in env_ids().items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=_make, kwargs={"spec": spec}, disable_env_checker=False)


register()
