"""container_rl: the Container board-game engine, encodings and bots from Python.

A thin ctypes layer over the Go library built from ``capi/`` (``pip install ./python`` builds
it); needs only the standard library and NumPy. ``container_rl.pettingzoo`` (PettingZoo AEC)
and ``container_rl.gymnasium`` (single-agent envs against Go bots, registered as
``container_rl/Container-v0``) need their frameworks. See python/README.md.
"""

from ._lib import (ContainerError, EpisodeOverError, HandleError, IllegalActionError, InternalError,
                   InvalidArgumentError, UnknownBotError, open_handles)
from .aec import ContainerEnv
from .bots import BotPolicy, BotTable, list_bots
from .info import action_names, feature_columns, game_seed, observe_position, score_position, spec
from .spaces import Box, Dict, Discrete
from .vector import VectorEnv

__all__ = ["ContainerEnv", "VectorEnv", "BotPolicy", "BotTable", "list_bots", "spec", "action_names",
           "feature_columns", "game_seed", "score_position", "observe_position", "Box", "Dict", "Discrete",
           "ContainerError", "InvalidArgumentError", "IllegalActionError", "EpisodeOverError",
           "UnknownBotError", "HandleError", "InternalError", "open_handles", "env"]


def _register_gymnasium():
    # gymnasium.make("container_rl/Container-v0") works after `import container_rl` when
    # gymnasium is installed; the env module itself is imported only by make().
    import importlib.util
    if importlib.util.find_spec("gymnasium") is None:
        return
    from gymnasium.envs.registration import register, registry
    if "container_rl/Container-v0" not in registry:
        register(id="container_rl/Container-v0", entry_point="container_rl.gymnasium:ContainerGymEnv",
                 vector_entry_point="container_rl.gymnasium:ContainerVectorEnv")


_register_gymnasium()


def env(**options):
    """PettingZoo-style constructor: ``container_rl.env(players=4)``."""
    return ContainerEnv(**options)
