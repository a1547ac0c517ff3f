"""Container as a PettingZoo AEC environment, wrapped like PettingZoo's classic games.

    from container_rl.pettingzoo import env
    e = env(players=4, render_mode="ansi")

``env(**options)`` is ``raw_env(**options)`` inside TerminateIllegalWrapper (an illegal
move ends the game with reward -1 for the mover), AssertOutOfBoundsWrapper and
OrderEnforcingWrapper; ``raw_env`` is the bare :class:`pettingzoo.AECEnv` subclass, for
which an illegal action raises ``IllegalActionError`` as :class:`container_rl.ContainerEnv`
does. The game itself is a ``ContainerEnv`` (``raw_env.core``): every step, observation,
mask and reward comes from Go; this class only presents them as PettingZoo's dicts.

Needs pettingzoo (``pip install 'container_rl[pettingzoo]'``); ``import container_rl`` does not.
"""

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import _lib
from ._lib import ST_TERMINATED, ST_TRUNCATED
from .aec import ContainerEnv

ILLEGAL_REWARD = -1.0


def env(illegal_reward=ILLEGAL_REWARD, **options):
    """The wrapped environment (PettingZoo's classic-game wrapper stack)."""
    e = raw_env(**options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class _Lazy:
    """A PettingZoo dict attribute (rewards, terminations, ...) built from the core's buffers
    when read and cached until the env moves; a wrapper that assigns one (as
    TerminateIllegalWrapper does) switches the env to plain stored dicts until the next
    reset."""

    def __init__(self, build):
        self.build = build

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        if obj._stored is not None:
            return obj._stored[self.name]
        c = obj._cache.get(self.name)
        if c is None or c[0] != obj._version:
            c = (obj._version, self.build(obj))
            obj._cache[self.name] = c
        return c[1]

    def __set__(self, obj, value):
        obj._store()
        obj._stored[self.name] = value


class raw_env(AECEnv):
    """Container for PettingZoo: agents "player_0".."player_{P-1}" (seat order), observations
    ``{"observation": float32[D], "action_mask": int8[241]}`` from the deciding seat's view,
    ``Discrete(241)`` actions, rewards as configured (sparse win/loss by default).

    Keyword options are :class:`container_rl.ContainerEnv`'s (``players``, ``rules``,
    ``modules``, ``reward``, ``dense``, ``max_steps``, ...), plus ``render_mode`` ("ansi":
    ``render()`` returns the text board; "human": it is printed after every reset and step,
    as PettingZoo's classic games do, and ``render()`` prints it) and ``max_cycles`` (PettingZoo's name: the episode is
    truncated after that many cycles, a cycle being ``players`` decisions).
    """

    metadata = {"name": "container_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False, "render_fps": 1}

    def __init__(self, render_mode=None, max_cycles=None, **options):
        super().__init__()
        if max_cycles is not None:
            if isinstance(max_cycles, bool) or not isinstance(max_cycles, (int, np.integer)) or max_cycles < 1:
                raise _lib.InvalidArgumentError(f"max_cycles: {max_cycles!r}; want a positive int")
            if "max_steps" in options:
                raise _lib.InvalidArgumentError("max_cycles and max_steps: give one of them")
            p = options.get("players", 4)
            if isinstance(p, (int, np.integer)) and not isinstance(p, bool):
                options["max_steps"] = int(max_cycles) * int(p)
        self._core = ContainerEnv(copy_observations=True, render_mode=render_mode, **options)
        self.render_mode = render_mode
        self.possible_agents = list(self._core.possible_agents)
        self.agent_name_mapping = dict(self._core.agent_name_mapping)
        core_obs = self._core.observation_space(self.possible_agents[0])
        obs = core_obs["observation"]
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(low=obs.low, high=obs.high, shape=obs.shape, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self._core.num_actions,), dtype=np.int8),
        })
        self._action_space = spaces.Discrete(self._core.num_actions)
        self._observation_spaces = {a: self._observation_space for a in self.possible_agents}
        self._action_spaces = {a: self._action_space for a in self.possible_agents}
        self.state_space = spaces.Box(low=obs.low, high=obs.high, shape=obs.shape, dtype=np.float32)
        self.agents = []
        self.agent_selection = None
        self._version = 0
        self._cache = {}
        self._stored = None

    @property
    def core(self):
        """The :class:`container_rl.ContainerEnv` playing the game (game_info(), record(), ...)."""
        return self._core

    # --- the dicts PettingZoo reads, from the core's buffers ---------------------------------

    def _flags(self, entry):
        if self._stored is None and not self._core._ended:
            return dict.fromkeys(self.agents, False)
        return dict.fromkeys(self.agents, bool(self._core._st[entry]))

    def _per_agent(self, buf):
        return self._core._reward_dict(buf, self.agents)

    def _infos(self):
        info = self._core._info()
        return {a: dict(info) for a in self.agents}

    def _rewards(self):
        core = self._core
        if core._ended and len(core._dead) < len(self.possible_agents):
            # PettingZoo clears rewards on each dead agent's step after the end.
            return dict.fromkeys(self.agents, 0.0)
        return self._per_agent(core._rewards)

    rewards = _Lazy(_rewards)
    _cumulative_rewards = _Lazy(lambda self: self._per_agent(self._core._since))
    terminations = _Lazy(lambda self: self._flags(ST_TERMINATED))
    truncations = _Lazy(lambda self: self._flags(ST_TRUNCATED))
    infos = _Lazy(_infos)

    def _store(self):
        if self._stored is None:
            stored = {}
            for name in ("rewards", "_cumulative_rewards", "terminations", "truncations", "infos"):
                stored[name] = getattr(self, name)
            self._stored = stored

    # --- AEC API -------------------------------------------------------------------------------

    def reset(self, seed=None, options=None):
        """A new game: ``seed`` gives exactly Go's ``env.Reset(seed)``. ``options`` may change
        game options as in :meth:`container_rl.ContainerEnv.reset`; PettingZoo's api_test
        passes a dummy ``{"options": 1}``, which is ignored as it names no game option."""
        if options is not None and not (isinstance(options, dict) and set(options) <= {"options"}):
            game_options = options
        else:
            game_options = None
        core = self._core
        core.reset(seed=seed, options=game_options)
        self.agents = core.agents
        self.agent_selection = core.agent_selection
        self._stored = None
        self._skip_agent_selection = None
        self._version += 1
        if self.render_mode == "human":
            self.render()

    def step(self, action):
        if self._stored is not None:
            # A wrapper ended the game (an illegal move): dead agents leave PettingZoo's way.
            if self.terminations.get(self.agent_selection) or self.truncations.get(self.agent_selection):
                return self._was_dead_step(action)
            raise _lib.EpisodeOverError("env: the game was ended by a wrapper; call reset")
        core = self._core
        core.step(action)
        self.agents = core.agents
        self.agent_selection = core.agent_selection
        self._version += 1
        if self.render_mode == "human" and action is not None:
            self.render()

    def last(self, observe=True):
        if self._stored is not None:
            return super().last(observe)
        return self._core.last(observe)

    def observe(self, agent):
        return self._core.observe(agent)

    def observation_space(self, agent):
        try:
            return self._observation_spaces[agent]
        except (KeyError, TypeError):
            raise _lib.InvalidArgumentError(
                f"agent {agent!r}: want one of {', '.join(self.possible_agents)}") from None

    def action_space(self, agent):
        try:
            return self._action_spaces[agent]
        except (KeyError, TypeError):
            raise _lib.InvalidArgumentError(
                f"agent {agent!r}: want one of {', '.join(self.possible_agents)}") from None

    def state(self):
        """The all-information encoding from seat 0 (for centralised critics only)."""
        return self._core.state()

    def render(self):
        if self.render_mode is None:
            logger.warn("You are calling render method without specifying any render mode.")
            return None
        return self._core.render()

    def close(self):
        self._core.close()

    def __str__(self):
        return self.metadata["name"]
