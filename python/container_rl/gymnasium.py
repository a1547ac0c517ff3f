"""Gymnasium single-agent environments: one learning seat against Go bots.

``gymnasium.make("container_rl/Container-v0", players=4, opponents=["valuer"] * 3)`` (the id is
registered when ``container_rl`` is imported with gymnasium installed). The opponents are Go
bots from the registry (``container_rl.list_bots()``: "random", "valuer", "default", ...,
or a ``.bot`` file) that move inside Go: one ``step`` is one Python-to-Go call however many
opponent moves follow the learner's. The learner's legal actions are in
``info["action_mask"]`` and ``env.action_masks()`` (the masked-PPO convention).

:class:`ContainerVectorEnv` is the same over N games stepped in Go in one call, as a
``gymnasium.vector.VectorEnv`` whose arrays are NumPy views of Go's buffers.

Needs gymnasium (``pip install 'container_rl[gymnasium]'``); ``import container_rl`` does not.
"""

import ctypes
import os

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.vector_env import AutoresetMode

from . import _lib
from ._lib import ERR_CAP, lib
from .aec import ContainerEnv
from .info import _seed, game_seed, spec, spec_seen

ENV_ID = "container_rl/Container-v0"
VECTOR_ENV_ID = ENV_ID


def _opponent_list(opponents, players):
    """The opponents' bot specs and the player count they imply (players defaults to
    len(opponents) + 1, opponents to "valuer" in every other seat)."""
    if opponents is None:
        p = 4 if players is None else players
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
            raise _lib.InvalidArgumentError(f"players: want an int, got {type(p).__name__}")
        if not 1 <= int(p) <= 16:
            spec(players=int(p) if abs(int(p)) < 1 << 62 else -1)  # Go's message for a bad count
        return ["valuer"] * max(int(p) - 1, 0), int(p)
    if isinstance(opponents, str) or not hasattr(opponents, "__iter__"):
        raise _lib.InvalidArgumentError(
            f"opponents: want a list of bot names (one per other seat), got {type(opponents).__name__}")
    opponents = list(opponents)
    for o in opponents:
        if not isinstance(o, str) or not o:
            raise _lib.InvalidArgumentError(f"opponents: {o!r} is not a bot name")
        _lib.c_str(o, "opponents")
    if players is None:
        players = len(opponents) + 1
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
        raise _lib.InvalidArgumentError(f"players: want an int, got {type(players).__name__}")
    if len(opponents) != int(players) - 1:
        raise _lib.InvalidArgumentError(
            f"opponents: {len(opponents)} bots for {int(players)} players; want one per other seat ({int(players) - 1})")
    return opponents, int(players)


def _check_seat(seat, players):
    if seat is None or seat == "rotate":
        return None
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= int(seat) < players:
        raise _lib.InvalidArgumentError(
            f"seat: {seat!r}; want a seat from 0 to {players - 1} or \"rotate\" (a different seat each episode)")
    return int(seat)


def _seating(seat, opponents, players):
    """Bot specs per seat: "" for the learner, the opponents clockwise from its left."""
    specs = [""] * players
    for j, o in enumerate(opponents):
        specs[(seat + 1 + j) % players] = o
    return specs


def _obs_box(sp):
    d = sp["size"]
    low = np.zeros(d, dtype=np.float32)
    high = np.zeros(d, dtype=np.float32)
    for f in sp["features"]:
        low[f["offset"]:f["offset"] + f["size"]] = f["low"]
        high[f["offset"]:f["offset"] + f["size"]] = f["high"]
    return spaces.Box(low=low, high=high, shape=(d,), dtype=np.float32)


class MaskedDiscrete(spaces.Discrete):
    """Discrete(241) whose ``sample()`` without a mask draws a legal action of the env's
    current position (so generic tools such as gymnasium's env checker sample legal moves);
    ``sample(mask=...)`` behaves as Discrete's. Pickles and copies as a plain Discrete."""

    def __init__(self, n, mask_fn, seed=None):
        super().__init__(n, seed=seed)
        self._mask_fn = mask_fn

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None and self._mask_fn is not None:
            m = self._mask_fn()
            if m is not None and m.any():
                mask = m
        return super().sample(mask=mask, probability=probability)

    def __reduce__(self):
        return (spaces.Discrete, (self.n,))


class ContainerGymEnv(gymnasium.Env):
    """One seat of a game of Container against Go bots, as a Gymnasium environment.

    - ``opponents``: bot names for the other seats (default "valuer" in each), clockwise
      from the learner's left; ``players`` defaults to ``len(opponents) + 1``.
    - ``seat``: the learner's seat, an int, or "rotate" (default): ``reset(seed=s)`` puts the
      learner in seat s mod players and episode k of the sequence that follows (resets
      without a seed) in seat (s + k) mod players, so seeded evaluation loops over seeds
      0, 1, 2, ... and unseeded training alike visit every seat; before any seeded reset,
      episode k is in seat k mod players. ``info["seat"]`` says which.
    - ``illegal_action``: "raise" (default: an action outside the mask raises
      ``IllegalActionError`` and changes nothing) or "terminate" (as PettingZoo's
      TerminateIllegalWrapper: the episode ends with reward ``illegal_reward``, default -1,
      and ``info["illegal_action"]`` True). Gymnasium's ``check_env`` needs "terminate": its
      step-determinism check samples an action before a reset and plays it after.
    - every other keyword is a game option of :class:`container_rl.ContainerEnv` (``rules``,
      ``modules``, ``reward``, ``dense``, ``max_steps``, ...), checked in Go.

    Observations are float32[D] (the learner's redacted view, ``obs-v2``); actions are the
    241 action ids, of which ``info["action_mask"]`` (int8[241]) / ``action_masks()`` (bool)
    are legal. The reward is what the learner's seat collected since it last acted
    (sparse by default: the final reward when the game ends). ``reset(seed=s)`` replays
    exactly: the game is Go's ``env.Reset(s)`` and the bots are reseeded from s.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, opponents=None, players=None, seat="rotate", render_mode=None, copy_observations=True,
                 illegal_action="raise", illegal_reward=-1.0, **options):
        if illegal_action not in ("raise", "terminate"):
            raise _lib.InvalidArgumentError(f"illegal_action: {illegal_action!r}; want \"raise\" or \"terminate\"")
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float, np.integer, np.floating)):
            raise _lib.InvalidArgumentError(f"illegal_reward: want a number, got {type(illegal_reward).__name__}")
        self._terminate_illegal = illegal_action == "terminate"
        self._illegal_reward = float(illegal_reward)
        opponents, players = _opponent_list(opponents, players)
        self._fixed_seat = _check_seat(seat, players)
        self.opponents = opponents
        self.render_mode = render_mode
        self.num_players = players
        self.seat = None
        self._rotation = 0  # seat="rotate": the seed of the last seeded reset, mod players
        self._done = True
        if _lib.forked():
            self._init_forked(options)
            return
        self._core = ContainerEnv(copy_observations=False, render_mode=render_mode, players=players, **options)
        self._copy = bool(copy_observations)
        self.observation_space = _obs_box(self._core.spec)
        self.action_space = MaskedDiscrete(self._core.num_actions, self._live_mask)
        # Seated now so that an unknown bot, or one that cannot play these options, fails here.
        self._seating = _seating(self._seat_for(0), opponents, players)
        self._core._set_opponents(self._seating)

    def _init_forked(self, options):
        """In a process forked after the Go library was loaded (AsyncVectorEnv's default
        start method on Linux) Go cannot run. Gymnasium's worker makes the env outside its
        error handling, so an error raised here would only reach the worker's stderr (the
        parent sees BrokenPipeError): the env is made from the spec the parent already
        asked for, without Go, and its first reset or step raises ContainerError, which the
        worker sends to the parent. Without that spec it raises here."""
        sp = spec_seen(players=self.num_players, **options)
        if sp is None:
            _lib.check_not_forked()
        self._core = None
        self.observation_space = _obs_box(sp)
        self.action_space = spaces.Discrete(sp["num_actions"])

    @property
    def core(self):
        """The underlying :class:`container_rl.ContainerEnv` (game_info(), record(), ...)."""
        return self._core

    def _seat_for(self, k):
        if self._fixed_seat is not None:
            return self._fixed_seat
        return k % self.num_players

    def reset(self, *, seed=None, options=None):
        if self._core is None:
            _lib.check_not_forked()
        if seed is not None:
            _seed(seed)  # our one-line error before gymnasium's own seeding sees it
        super().reset(seed=seed)
        core = self._core
        if seed is not None:
            self._rotation = _seed(seed) % self.num_players
        for _ in range(100):
            k = 0 if seed is not None else max(core._episode, 0)
            seat = self._seat_for(self._rotation + k)
            seating = _seating(seat, self.opponents, self.num_players)
            if seating != self._seating:
                core._set_opponents(seating)
                self._seating = seating
            core.reset(seed=seed, options=options)
            seed = options = None
            self.seat = seat
            self._moves = core._play()
            if not core._ended:
                break
            # The bots finished the game (a tiny max_steps) before the learner's first
            # decision: play the next game of the sequence.
        else:
            raise _lib.EpisodeOverError(
                "gymnasium env: 100 games in a row ended before the learning seat decided; raise max_steps")
        self._done = False
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    def step(self, action):
        core = self._core
        if core is None:
            _lib.check_not_forked()
        if self._done:
            raise _lib.EpisodeOverError(
                "env: the episode is over (terminated or truncated); call reset" if self.seat is not None
                else "env: call reset before step")
        action = _lib.action_id(action)  # np.int64(k) and np.array(k) too; bools, floats, arrays raise
        if self._terminate_illegal and not self._legal(action):
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), self._illegal_reward, True, False, info
        self._moves = core._step_play(action)
        st = core._st
        terminated = bool(st[_lib.ST_TERMINATED])
        truncated = bool(st[_lib.ST_TRUNCATED])
        self._done = terminated or truncated
        reward = _lib.exact_reward(core._since_mv[self.seat]) if self._done else core._since_mv[self.seat]
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, self._info()

    def _legal(self, action):
        return 0 <= action < self._core.num_actions and self._core._mask[action] == 1

    def _obs(self):
        if self._done and self._core._ended:
            return self._core.observe(self._core.possible_agents[self.seat])["observation"]
        o = self._core._obs
        return o.copy() if self._copy else o

    def _info(self):
        st = self._core._st
        return {"action_mask": self._core._mask.copy(), "seat": self.seat,
                "phase": self._core._phases[st[_lib.ST_PHASE]], "turn": st[_lib.ST_TURN], "steps": st[_lib.ST_STEPS],
                "opponent_moves": self._moves}

    def _live_mask(self):
        return None if self._done else self._core._mask

    def action_masks(self):
        """The learner's legal actions as a bool array (all False once the episode is over)."""
        return self._core._mask.astype(bool)

    def render(self):
        """The text board: returned with ``render_mode="ansi"``, printed with ``"human"``
        (which also prints it after every reset and step, Gymnasium's convention)."""
        if self.render_mode in ("ansi", "human"):
            return self._core.render()
        return None

    def close(self):
        if self._core is not None:
            self._core.close()
        super().close()


class ContainerVectorEnv(VectorEnv):
    """N single-agent games (one learning seat each, Go bots in the others) stepped in Go in
    one call per step across goroutines, as a ``gymnasium.vector.VectorEnv``.

    ``reset`` returns ``(observations [N, D] float32, infos)`` and ``step(actions)``
    ``(observations, rewards [N], terminations [N], truncations [N], infos)``; the arrays are
    NumPy views of the buffers Go writes (no copy), overwritten by the next call. A finished
    game is reset in the same step (``metadata["autoreset_mode"]`` is SAME_STEP): its row
    already shows the next episode's first observation, its reward and termination are the
    finished episode's, ``infos["final_obs"]`` [N, D] holds the learner's view of the final
    position in the rows where ``infos["_final_obs"]`` is True (other rows are stale).
    ``infos["action_mask"]`` [N, 241] int8 and ``action_masks()`` give the legal actions,
    ``infos["seat"]`` the learner's seat per game.

    Game i's k-th episode uses seed ``game_seed(seed, i, k)`` and, with ``seat="rotate"``,
    seat (i + k) mod players. ``workers``: Go goroutines (0: one per core).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs=16, opponents=None, players=None, seat="rotate", seed=0, workers=0, **options):
        opponents, players = _opponent_list(opponents, players)
        fixed = _check_seat(seat, players)
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise _lib.InvalidArgumentError(f"num_envs: want an int, got {type(num_envs).__name__}")
        n = int(num_envs)
        if not 1 <= n <= 1 << 16:
            raise _lib.InvalidArgumentError(f"num_envs: {n} games; want 1 to {1 << 16}")
        options = dict(options, players=players)
        opts = _lib.options_json(options)
        sizes = np.zeros(3, dtype=np.int64)
        _lib.call(lib.ctr_sizes, opts, _lib.ptr(sizes))
        d, a, p = (int(x) for x in sizes)
        self.num_envs, self.obs_size, self.num_actions, self.num_players = n, d, a, p
        self.opponents = opponents
        self.base_seed = _seed(seed)
        self._spec = spec(**options)
        self.single_observation_space = _obs_box(self._spec)
        self.single_action_space = spaces.Discrete(a)
        self.observation_space = spaces.Box(
            low=np.broadcast_to(self.single_observation_space.low, (n, d)),
            high=np.broadcast_to(self.single_observation_space.high, (n, d)), shape=(n, d), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(n, a))
        self.observations = np.zeros((n, d), dtype=np.float32)
        self.masks = np.zeros((n, a), dtype=np.int8)
        self.rewards = np.zeros(n, dtype=np.float32)
        self.terminations = np.zeros(n, dtype=np.bool_)
        self.truncations = np.zeros(n, dtype=np.bool_)
        self.seats = np.zeros(n, dtype=np.int64)
        self.final_observations = np.zeros((n, d), dtype=np.float32)
        self._err = _lib.ErrBuf()
        h = ctypes.c_int64(0)
        _lib.call(lib.ctr_solo_new, n, opts, _lib.dumps(opponents, "opponents"), -1 if fixed is None else fixed,
                  self.base_seed, _lib.c_int(workers, "workers"), d, a, _lib.ptr(self.observations),
                  _lib.ptr(self.masks), _lib.ptr(self.rewards), _lib.ptr(self.terminations),
                  _lib.ptr(self.truncations), _lib.ptr(self.seats), _lib.ptr(self.final_observations),
                  ctypes.byref(h))
        self._h = h.value
        self._keepalive = (self.observations, self.masks, self.rewards, self.terminations, self.truncations,
                           self.seats, self.final_observations)
        self._actions = np.zeros(n, dtype=np.int64)
        self._ended = np.zeros(n, dtype=np.bool_)
        self._infos = {"action_mask": self.masks, "seat": self.seats}
        self._step_infos = {"action_mask": self.masks, "seat": self.seats, "final_obs": self.final_observations,
                            "_final_obs": self._ended}

    def reset(self, *, seed=None, options=None):
        """Restart every game at episode 0 of its seed sequence (``seed`` replaces the base
        seed). ``options`` is not supported (make a new env)."""
        if options:
            raise _lib.InvalidArgumentError("reset options: not supported by the vector env; make a new one")
        if seed is not None:
            if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
                raise _lib.InvalidArgumentError(f"seed: want an int, got {type(seed).__name__}")
            self.base_seed = _seed(seed)
        _lib.call(lib.ctr_solo_reset, self._h, self.base_seed)
        self.rewards[:] = 0
        return self.observations, self._infos

    def step(self, actions):
        a = actions
        if not isinstance(a, np.ndarray) or a.dtype != np.int64 or not a.flags.c_contiguous:
            a = np.asarray(actions)
            if a.dtype.kind not in "iu":
                raise _lib.InvalidArgumentError(f"actions: dtype {a.dtype}; want integer action ids")
            if a.shape != (self.num_envs,):
                raise _lib.InvalidArgumentError(
                    f"actions: shape {a.shape}; want ({self.num_envs},), one action per game")
            np.copyto(self._actions, a, casting="unsafe")
            a = self._actions
        if a.shape != (self.num_envs,):
            raise _lib.InvalidArgumentError(f"actions: shape {a.shape}; want ({self.num_envs},), one action per game")
        code = lib.ctr_solo_step(self._h, _lib.ptr(a), self.num_envs, self._err.ptr, ERR_CAP)
        if code:
            self._err.raise_for(code)
        np.logical_or(self.terminations, self.truncations, out=self._ended)
        return self.observations, self.rewards, self.terminations, self.truncations, self._step_infos

    def action_masks(self):
        """[N, 241] bool: each game's legal actions for its learner."""
        return self.masks.astype(bool)

    def game_info(self, i):
        """Game i: finished episodes, the current seed, the last finished episode's scores."""
        return _lib.call_json(lib.ctr_solo_game, self._h, _lib.c_int(i, "game"))

    def close_extras(self, **kwargs):
        h, self._h = getattr(self, "_h", 0), 0
        if h:
            _lib.free(h)

    def __del__(self):
        try:
            self.close_extras()
        except Exception:
            pass
