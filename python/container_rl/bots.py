"""The Go bot registry as Python policies."""

import ctypes
import json

import numpy as np

from . import _lib
from ._lib import lib
from .info import _seed


def list_bots():
    """Every registered bot: [{"name", "description"}] (scripted bots, ``default`` and any
    bot registered later, e.g. search bots). A path to a ``.bot`` file also works as a name."""
    return _lib.call_json(lib.ctr_bots)


class BotPolicy(_lib.Handle):
    """A Go bot (``name``: a registered bot, ``path/to/x.bot``, optionally ``@T`` to sample
    at temperature T) playing games with the given options.

    Bots decide from the game's position, redacted to the decider's view in Go, not from an
    observation vector: call ``policy(env)`` with a :class:`ContainerEnv` (the action for
    its selected agent) or ``policy.act_vec(vec, i)`` for game i of a :class:`VectorEnv`.
    """

    def __init__(self, name, seed=0, **options):
        self.name = name
        h = ctypes.c_int64(0)
        if not isinstance(name, str):
            raise _lib.InvalidArgumentError(f"bot name: want a str, got {type(name).__name__}")
        _lib.call(lib.ctr_bot_new, _lib.c_str(name, "bot name"), _lib.options_json(options), _seed(seed), ctypes.byref(h))
        self._h = h.value
        self._out = ctypes.c_int64(0)
        self._outp = ctypes.addressof(self._out)

    def __call__(self, env):
        _lib.call(lib.ctr_bot_act_env, self._h, env._h, self._outp)
        return self._out.value

    def act_vec(self, vec, i):
        _lib.call(lib.ctr_bot_act_vec, self._h, vec._h, _lib.c_int(i, "game"), self._outp)
        return self._out.value



    def __repr__(self):
        return f"BotPolicy({self.name!r})"


class BotTable(_lib.Handle):
    """Bots seated in every game of a :class:`VectorEnv`: ``seats[s]`` is a bot name for
    seat s, or None for the seats you play. ``act(actions)`` writes the bots' actions into
    ``actions`` (int64 [N]) in place for the games where a bot decides and returns the bool
    array of those games; all games' bots decide in Go, across goroutines."""

    def __init__(self, vec, seats, seed=0):
        seats = list(seats)
        for s in seats:
            if s is not None and not isinstance(s, str):
                raise _lib.InvalidArgumentError(f"seats: {s!r} is neither a bot name nor None")
        if len(seats) != vec.num_players:
            raise _lib.InvalidArgumentError(
                f"seats: {len(seats)} entries for {vec.num_players} seats (None for the seats you play)")
        specs = ["" if s is None else s for s in seats]
        h = ctypes.c_int64(0)
        _lib.call(lib.ctr_table_new, vec._h, _lib.dumps(specs, "seats"), _seed(seed), ctypes.byref(h))
        self._h = h.value
        self.vec = vec
        self.seats = list(seats)
        self._is_bot = np.zeros(vec.num_envs, dtype=np.int8)

    def act(self, actions):
        if not (isinstance(actions, np.ndarray) and actions.dtype == np.int64 and actions.shape == (self.vec.num_envs,)
                and actions.flags.c_contiguous):
            raise _lib.InvalidArgumentError(
                f"actions: want a contiguous int64 array of shape ({self.vec.num_envs},)")
        _lib.call(lib.ctr_table_act, self._h, _lib.ptr(actions), _lib.ptr(self._is_bot), self.vec.num_envs)
        return self._is_bot.view(np.bool_)


