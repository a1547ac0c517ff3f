"""N games stepped in Go, read through zero-copy NumPy views."""

import contextlib
import ctypes
import json
import threading

import numpy as np

from . import _lib
from ._lib import ERR_CAP, lib
from .info import _seed, spec


class VectorEnv(_lib.Handle):
    """``num_envs`` games of Container in lockstep (Go's ``env.VecEnv``) on ``workers``
    goroutines (0: one per core).

    The arrays below are NumPy views of the buffers Go writes into (no copy): ``step``
    overwrites them in place, so read them between steps and copy what you keep.

    - ``observations`` [N, D] float32: each game's next decider's observation;
    - ``action_masks`` [N, A] int8 (and ``action_masks_f32`` float32, Go's own mask);
    - ``legal`` [N, A] int32: each game's legal ids, ascending, padded with -1, and
      ``num_legal`` [N] int32 their count;
    - ``agents`` [N] int64: the deciding seat of each game;
    - ``rewards`` [N, P] float32: the last step's reward of every seat;
    - ``terminated`` / ``truncated`` [N] bool: the last step ended the game. It has already
      been reset (auto-reset), so the rows above describe the next episode; game i's k-th
      episode uses seed ``game_seed(seed, i, k)``, exactly as Go's VecEnv.

    Keyword options are the ones of :class:`ContainerEnv`.

    One thread at a time: a call made while another thread is inside one (``step``,
    ``sample_legal``, ``reset``, ``game_info``, ``observe``) raises HandleError before it
    touches anything, so it neither reads half-written arrays nor hands the other call its
    actions.
    """

    def __init__(self, num_envs=256, seed=0, workers=0, **options):
        self._opts = _lib.options_json(options)
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise _lib.InvalidArgumentError(f"num_envs: want an int, got {type(num_envs).__name__}")
        sizes = np.zeros(3, dtype=np.int64)
        _lib.call(lib.ctr_sizes, self._opts, _lib.ptr(sizes))
        d, a, p = (int(x) for x in sizes)
        n = int(num_envs)
        if not 1 <= n <= 1 << 16:
            raise _lib.InvalidArgumentError(f"num_envs: {n} games; want 1 to {1 << 16}")
        self.num_envs, self.obs_size, self.num_actions, self.num_players = n, d, a, p
        self.seed = _seed(seed)
        self.observations = np.zeros((n, d), dtype=np.float32)
        self.action_masks_f32 = np.zeros((n, a), dtype=np.float32)
        self.action_masks = np.zeros((n, a), dtype=np.int8)
        self.rewards = np.zeros((n, p), dtype=np.float32)
        self.agents = np.zeros(n, dtype=np.int64)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self.legal = np.zeros((n, a), dtype=np.int32)
        self.num_legal = np.zeros(n, dtype=np.int32)
        self._err = _lib.ErrBuf()
        h = ctypes.c_int64(0)
        _lib.call(lib.ctr_vec_new, n, self._opts, self.seed, _lib.c_int(workers, "workers"), d, a, p,
                  _lib.ptr(self.observations), _lib.ptr(self.action_masks_f32), _lib.ptr(self.rewards),
                  _lib.ptr(self.agents), _lib.ptr(self.terminated), _lib.ptr(self.truncated),
                  _lib.ptr(self.legal), _lib.ptr(self.num_legal), _lib.ptr(self.action_masks), ctypes.byref(h))
        self._h = h.value
        # Go writes into these arrays until close(): keep them alive here even if the public
        # attributes are rebound.
        self._keepalive = (self.observations, self.action_masks_f32, self.rewards, self.agents, self.terminated,
                           self.truncated, self.legal, self.num_legal, self.action_masks)
        self._actions = np.zeros(n, dtype=np.int64)
        self._actions_p = _lib.ptr(self._actions)
        self._rows = np.arange(n)
        self._row_starts = (np.arange(n) * a).astype(np.float64)
        self._u = np.empty(n, dtype=np.float64)
        self._spec = spec(**options)
        self.possible_agents = [f"player_{i}" for i in range(p)]
        self._busy = threading.Lock()

    @contextlib.contextmanager
    def _use(self):
        """Hold the env for one call; another thread inside one gets HandleError (as Go's
        own check would answer, but before the shared buffers are touched)."""
        if not self._busy.acquire(blocking=False):
            raise _lib.HandleError(f"vector env {self._h} is in use by another thread")
        try:
            yield
        finally:
            self._busy.release()

    @property
    def spec(self):
        return self._spec

    def step(self, actions):
        """Apply ``actions[i]`` (int array of shape [N]) in game i. Every action is checked
        first; an illegal one raises IllegalActionError and no game moves. Returns
        (observations, action_masks, rewards, terminated, truncated): the views above."""
        with self._use():
            if not isinstance(actions, np.ndarray) or actions.dtype != np.int64 or not actions.flags.c_contiguous:
                actions = self._coerce(actions)
            if actions.shape != (self.num_envs,):
                raise _lib.InvalidArgumentError(
                    f"actions: shape {actions.shape}; want ({self.num_envs},), one action per game")
            code = lib.ctr_vec_step(self._h, _lib.ptr(actions), self.num_envs, self._err.ptr, ERR_CAP)
            if code:
                self._err.raise_for(code)
        return self.observations, self.action_masks, self.rewards, self.terminated, self.truncated

    def _coerce(self, actions):
        a = np.asarray(actions)
        if a.dtype.kind not in "iu":
            raise _lib.InvalidArgumentError(f"actions: dtype {a.dtype}; want integer action ids")
        if a.shape != (self.num_envs,):
            raise _lib.InvalidArgumentError(
                f"actions: shape {a.shape}; want ({self.num_envs},), one action per game")
        np.copyto(self._actions, a, casting="unsafe")
        return self._actions

    def sample_legal(self, rng):
        """A uniformly random legal action per game (NumPy, from ``legal``/``num_legal``)."""
        with self._use():
            u = rng.random(self.num_envs, out=self._u)
            np.multiply(u, self.num_legal, out=u)
            np.add(self._row_starts, u, out=u)
            flat = u.astype(np.int64)
            return np.take(self.legal.reshape(-1), flat).astype(np.int64)

    def reset(self):
        """Restart every game at episode 0 of its seed sequence."""
        with self._use():
            _lib.call(lib.ctr_vec_reset, self._h)
        return self.observations, self.action_masks

    def game_info(self, i):
        """Game i: finished episodes, the current seed, the last finished episode's scores."""
        with self._use():
            return _lib.call_json(lib.ctr_vec_game, self._h, _lib.c_int(i, "game"))

    def observe(self, i, seat):
        """Seat ``seat``'s observation of game i (a copy)."""
        obs = np.empty(self.obs_size, dtype=np.float32)
        with self._use():
            _lib.call(lib.ctr_vec_observe, self._h, _lib.c_int(i, "game"), _lib.c_int(seat, "seat"), _lib.ptr(obs), self.obs_size)
        return obs

    def close(self):
        """Stop the Go workers and free the games (the arrays stay readable). Close any BotTable over this env first
        (or let it fail with HandleError)."""
        super().close()


