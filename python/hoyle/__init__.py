"""hoyle — Python over libhoyle.so: games, agents, matches, records, RL environments.

    import hoyle
    g = hoyle.Game("checkers")
    s = g.new_state()
    s.apply(s.legal_actions()[0])

See docs/python.md. The library is found through $HOYLE_LIB, next to this
package, or in the checkout's build tree (hoyle/_lib.py). Every failure of
the library raises hoyle.Error, a ValueError carrying its one-line message
(hoyle.WrongType, also a TypeError, for an argument of the wrong type).

hoyle.pettingzoo and hoyle.gymnasium (the environments as those packages'
own classes) are imported on demand, only where the packages are installed.
"""
from ._lib import Error, WrongType, PLAYER_CHANCE as CHANCE, PLAYER_TERMINAL as TERMINAL
from ._lib import lib as _clib, ffi as _ffi, path as library_path
from .game import Game, State, Playouts, games, perft
from .agent import Agent, play, match
from .data import Record, Samples, records, samples
from .env import AECEnv
from .single import SingleAgentEnv
from .vector import VectorEnv
from .spaces import Box, Discrete, Dict
from . import spaces

__version__ = _ffi.string(_clib.api_version()).decode()

__all__ = [
    "Error", "WrongType", "CHANCE", "TERMINAL", "Game", "State", "Playouts", "games", "perft", "Agent",
    "play", "match", "Record", "Samples", "records", "samples", "AECEnv", "SingleAgentEnv", "VectorEnv",
    "Box", "Discrete", "Dict", "spaces", "library_path",
]
