"""pettingzoo.py — hoyle's AEC environment as a pettingzoo.AECEnv, for code
that checks types (PettingZoo's api_test, seed_test, its wrappers,
training libraries). Importing it needs PettingZoo and Gymnasium; `import
hoyle` never imports it.

    import hoyle.pettingzoo
    env = hoyle.pettingzoo.env("checkers", render_mode="ansi")

raw_env is the environment itself (an illegal action raises); env() is what
PettingZoo's classic games hand out: raw_env with an illegal action a loss
for the mover (-1, the game over, info["illegal_action"]) and PettingZoo's
OrderEnforcingWrapper (reset() before anything else). There is no
ParallelEnv: every hoyle game is turn-based, one agent acts at a time.
"""
try:
    import gymnasium
    import pettingzoo
    from pettingzoo.utils import wrappers
except ImportError as e:  # say what is missing and what works without it
    raise ImportError(f"hoyle.pettingzoo needs PettingZoo and Gymnasium ({e}); hoyle.AECEnv works without") from e

from .env import AECEnv


class raw_env(AECEnv, pettingzoo.AECEnv):  # noqa: N801 (PettingZoo's own name)
    """hoyle.AECEnv (all its behaviour) with gymnasium.spaces spaces and
    pettingzoo.AECEnv as a base class. hoyle.AECEnv comes first in the
    method order, so its reset/step/observe/... are the ones called, not
    pettingzoo.AECEnv's NotImplementedError stubs."""

    spaces = gymnasium.spaces
    metadata = dict(AECEnv.metadata)

    def __init__(self, game, max_moves=0, max_cycles=0, render_mode=None, illegal="raise"):
        pettingzoo.AECEnv.__init__(self)
        AECEnv.__init__(self, game, max_moves, max_cycles, render_mode, illegal)
        self.metadata = dict(self.metadata, name=f"hoyle_{self.game.name}_v0")

    def __str__(self):
        return self.metadata["name"]


def env(game, max_moves=0, max_cycles=0, render_mode=None):
    """raw_env(..., illegal="lose") behind OrderEnforcingWrapper, as
    PettingZoo's classic games are made."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, max_moves, max_cycles, render_mode, illegal="lose"))
