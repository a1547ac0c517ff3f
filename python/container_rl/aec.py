"""An agent-by-agent environment with PettingZoo's AEC surface, stepping the Go engine."""

import ctypes
import os

import numpy as np

from . import _lib
from ._lib import (ERR_CAP, ST_AGENT, ST_LAST_AGENT, ST_NUM_LEGAL, ST_PHASE, ST_STEPS,
                   ST_TERMINATED, ST_TRUNCATED, ST_TURN, STATUS_LEN, lib)
from .info import _seed, game_seed, spec
from .spaces import Box, Dict, Discrete


class ContainerEnv(_lib.Handle):
    """One game of Container as a PettingZoo AEC environment.

    Keyword options (all optional; Go validates them and names a bad one): ``players`` (3-5,
    default 4), ``rules`` ("base" or "classic"), ``length`` ("short", "standard",
    "extended"), ``modules`` ("trucks,player-loans,luxury", "all" or ""), ``reward``
    ("win-loss", "rank", "cash-margin"), ``dense``, ``max_steps``, ``margin_scale``,
    ``hide_opponent_cash``, ``turn_limit`` and the supply overrides.

    ``copy_observations`` (default True) makes ``last()``/``observe()`` return fresh arrays.
    With False they return the env's own buffers, which the next ``step``/``reset``
    overwrites in place (faster; copy what you keep).

    Agents are "player_0".."player_{P-1}" (seat order). The decider need not be the active
    player: sealed bids, loan offers and the like are decided by other seats, and
    ``agent_selection`` says who. Rewards are sparse by default (every seat's final reward
    on the step that ends the game). When the game ends every agent is terminated (or
    truncated at ``max_steps``) and, as in PettingZoo, each must then be stepped with
    ``None`` before ``agent_iter`` stops.
    """

    metadata = {"name": "container_v1", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, copy_observations=True, render_mode=None, **options):
        if render_mode not in (None, "ansi", "human"):
            raise _lib.InvalidArgumentError(f"render_mode: {render_mode!r}; want None, 'ansi' or 'human'")
        self.render_mode = render_mode
        self._opts = _lib.options_json(options)
        sizes = np.zeros(3, dtype=np.int64)
        _lib.call(lib.ctr_sizes, self._opts, _lib.ptr(sizes))
        d, a, p = (int(x) for x in sizes)
        self.obs_size, self.num_actions, self.num_players = d, a, p
        self._obs = np.zeros(d, dtype=np.float32)
        self._mask = np.zeros(a, dtype=np.int8)
        self._legal = np.zeros(a, dtype=np.int32)
        self._rewards = np.zeros(p, dtype=np.float32)
        self._since = np.zeros(p, dtype=np.float32)
        self._total = np.zeros(p, dtype=np.float32)
        self._status = np.zeros(STATUS_LEN, dtype=np.int64)
        self._err = _lib.ErrBuf()
        h = ctypes.c_int64(0)
        _lib.call(lib.ctr_env_new, self._opts, d, a, p, _lib.ptr(self._obs), _lib.ptr(self._mask),
                  _lib.ptr(self._legal), _lib.ptr(self._rewards), _lib.ptr(self._since),
                  _lib.ptr(self._total), _lib.ptr(self._status), ctypes.byref(h))
        self._h = h.value
        self._keepalive = (self._obs, self._mask, self._legal, self._rewards, self._since, self._total, self._status)
        # Python ints/floats read from the buffers without NumPy scalar overhead.
        self._st = memoryview(self._status)
        self._since_mv = memoryview(self._since)
        self._step_fn = lib.ctr_env_step
        self._errp = self._err.ptr
        self._copy = bool(copy_observations)
        self._moves = ctypes.c_int64(0)
        self._moves_p = ctypes.addressof(self._moves)
        self._obs_dict = {"observation": self._obs, "action_mask": self._mask}
        self._spec = spec(**options)
        self._phases = self._spec["phases"]
        self.possible_agents = [f"player_{i}" for i in range(p)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents = []
        self.agent_selection = None
        self._ended = True
        self._dead = []  # agents still to be stepped with None after the end
        self._base = None
        self._episode = 0
        low = np.zeros(d, dtype=np.float32)
        high = np.zeros(d, dtype=np.float32)
        for f in self._spec["features"]:
            low[f["offset"]:f["offset"] + f["size"]] = f["low"]
            high[f["offset"]:f["offset"] + f["size"]] = f["high"]
        self._obs_space = Dict({"observation": Box(low, high, (d,), np.float32),
                                "action_mask": Box(0, 1, (a,), np.int8)})
        self._act_space = Discrete(a)

    # --- PettingZoo surface -----------------------------------------------------------------

    def reset(self, seed=None, options=None):
        """Start a new game. ``seed`` (0..2**64-1) gives exactly Go's ``env.Reset(seed)``; later
        resets without a seed continue with ``game_seed(seed, 0, k)`` for k = 1, 2, ...;
        the first reset without any seed draws one from os.urandom. ``options`` takes the
        constructor's keys for this and later games (not ``players`` or ones that change
        the observation size)."""
        if seed is not None:
            s = _seed(seed)
            self._base, self._episode = s, 1
        else:
            if self._base is None:
                self._base, self._episode = int.from_bytes(os.urandom(8), "little"), 0
            s = game_seed(self._base, 0, self._episode)
            self._episode += 1
        opts = _lib.options_json(options) if options else b""
        _lib.call(lib.ctr_env_reset, self._h, s, opts)
        if opts:
            merged = dict(self._spec["env_options"])
            merged.update(options)
            self._spec = spec(**merged)
        self.agents = list(self.possible_agents)
        self._ended = False
        self._dead = []
        self.agent_selection = self.possible_agents[self._st[ST_AGENT]]

    def step(self, action):
        """Apply the selected agent's action (an int id whose mask entry is 1), or ``None``
        for a terminated/truncated agent after the game's end."""
        if self._ended:
            return self._dead_step(action)
        if type(action) is not int:
            action = self._coerce_action(action)
        if not -0x80000000 <= action <= 0x7fffffff:
            raise _lib.IllegalActionError(
                f"action {action} for {self.agent_selection}: outside the action ids 0 to "
                f"{self.num_actions - 1}: illegal action")
        code = self._step_fn(self._h, action, self._errp, ERR_CAP)
        if code:
            self._err.raise_for(code)
        self._moved()

    def _moved(self):
        a = self._st[ST_AGENT]
        if a >= 0:
            self.agent_selection = self.possible_agents[a]
        else:
            self._ended = True
            self._dead = list(self.possible_agents)
            self.agent_selection = self._dead[0]

    # --- Go bots in some seats (the single-agent Gymnasium env uses these) ----------------

    def _set_opponents(self, specs):
        """Seat Go bots: ``specs[s]`` a bot spec, or "" for the seats the caller plays."""
        _lib.call(lib.ctr_env_opponents, self._h, _lib.dumps(list(specs), "opponents"))

    def _play(self):
        """Let the Go bots move until a caller's seat decides or the game ends (after reset)."""
        _lib.call(lib.ctr_env_play, self._h, self._moves_p)
        if self._ended:
            return self._moves.value
        self._moved()
        return self._moves.value

    def _step_play(self, action):
        """step(action) for the caller's seat, then the bots' moves, in one Go call."""
        if self._ended:
            return self._dead_step(action)
        if type(action) is not int:
            action = self._coerce_action(action)
        if not -0x80000000 <= action <= 0x7fffffff:
            raise _lib.IllegalActionError(
                f"action {action} for {self.agent_selection}: outside the action ids 0 to "
                f"{self.num_actions - 1}: illegal action")
        code = lib.ctr_env_step_play(self._h, action, self._moves_p, self._errp, ERR_CAP)
        if code:
            self._err.raise_for(code)
        self._moved()
        return self._moves.value

    def _coerce_action(self, action):
        if action is None:
            raise _lib.InvalidArgumentError(
                f"action None for {self.agent_selection}: None is only for a terminated or truncated agent "
                "after the game ends")
        return _lib.action_id(action, f"for {self.agent_selection}")

    def _dead_step(self, action):
        if not self._dead:
            # Go's own message: the episode is over.
            code = self._step_fn(self._h, 0, self._errp, ERR_CAP)
            self._err.raise_for(code or 3)
        if action is not None:
            raise _lib.InvalidArgumentError(
                f"action {action!r} for {self.agent_selection}: the game is over; the only valid "
                "action of a terminated or truncated agent is None")
        self._dead.pop(0)
        self.agents.remove(self.agent_selection)
        self.agent_selection = self._dead[0] if self._dead else None

    def last(self, observe=True):
        """(observation, reward since the agent last acted, terminated, truncated, info) of
        ``agent_selection``, as PettingZoo's ``last``."""
        if not self._h:
            raise _lib.HandleError("env: closed already (close() was called)")
        agent = self.agent_selection
        if agent is None:
            raise _lib.EpisodeOverError("env: no agent is selected; call reset")
        if not self._ended:
            seat = self._st[ST_AGENT]
            obs = None
            if observe:
                obs = {"observation": self._obs.copy(), "action_mask": self._mask.copy()} if self._copy \
                    else self._obs_dict
            return obs, self._since_mv[seat], False, False, self._info()
        seat = self.agent_name_mapping[agent]
        st = self._st
        return (self.observe(agent) if observe else None, _lib.exact_reward(self._since_mv[seat]),
                bool(st[ST_TERMINATED]), bool(st[ST_TRUNCATED]), self._info())

    def _info(self):
        st = self._st
        return {"phase": self._phases[st[ST_PHASE]], "num_legal": st[ST_NUM_LEGAL], "turn": st[ST_TURN],
                "steps": st[ST_STEPS]}

    def agent_iter(self, max_iter=2 ** 63):
        """Yield ``agent_selection`` until every agent is done (or max_iter steps)."""
        for _ in range(max_iter):
            if not self.agents or self.agent_selection is None:
                return
            yield self.agent_selection

    def observe(self, agent):
        """``agent``'s observation of the current position; its mask is all zero unless it
        decides now."""
        seat = self._seat(agent)
        if not self._ended and seat == self._st[ST_AGENT]:
            if self._copy:
                return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
            return self._obs_dict
        obs = np.empty(self.obs_size, dtype=np.float32)
        mask = np.empty(self.num_actions, dtype=np.int8)
        _lib.call(lib.ctr_env_observe, self._h, seat, _lib.ptr(obs), self.obs_size, _lib.ptr(mask),
                  self.num_actions)
        return {"observation": obs, "action_mask": mask}

    def oracle(self, agent):
        """The all-information encoding rotated for ``agent`` (for centralised critics; a
        policy must not see it)."""
        obs = np.empty(self.obs_size, dtype=np.float32)
        _lib.call(lib.ctr_env_oracle, self._h, self._seat(agent), _lib.ptr(obs), self.obs_size)
        return obs

    def state(self):
        """PettingZoo's global state: the oracle encoding from seat 0."""
        return self.oracle(self.possible_agents[0])

    def _seat(self, agent):
        try:
            return self.agent_name_mapping[agent]
        except (KeyError, TypeError):
            raise _lib.InvalidArgumentError(
                f"agent {agent!r}: want one of {', '.join(self.possible_agents)}") from None

    def observation_space(self, agent):
        self._seat(agent)
        return self._obs_space

    def action_space(self, agent):
        self._seat(agent)
        return self._act_space

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    @property
    def rewards(self):
        """The last step's reward of each live agent."""
        return self._reward_dict(self._rewards, self.agents)

    def _reward_dict(self, buf, agents):
        # Python floats; once the game has ended, the final rewards exactly (_lib.exact_reward).
        values = buf.tolist()
        if self._ended:
            values = [_lib.exact_reward(v) for v in values]
        m = self.agent_name_mapping
        return {a: values[m[a]] for a in agents}

    @property
    def _cumulative_rewards(self):
        """Each live agent's reward since it last acted (what ``last`` reports)."""
        return self._reward_dict(self._since, self.agents)

    @property
    def episode_returns(self):
        """Every seat's total reward in this episode."""
        return self._reward_dict(self._total, self.possible_agents)

    @property
    def terminations(self):
        t = bool(self._st[ST_TERMINATED])
        return {a: t for a in self.agents}

    @property
    def truncations(self):
        t = bool(self._st[ST_TRUNCATED])
        return {a: t for a in self.agents}

    @property
    def infos(self):
        info = self._info()
        return {a: dict(info) for a in self.agents}

    # --- beyond PettingZoo ------------------------------------------------------------------

    def legal_actions(self):
        """The selected agent's legal action ids (ascending; empty after the end)."""
        if not self._h:
            raise _lib.HandleError("env: closed already (close() was called)")
        if self._ended:
            return np.zeros(0, dtype=np.int32)
        return self._legal[:self._st[ST_NUM_LEGAL]].copy()

    @property
    def last_agent(self):
        """The agent that acted last (None before the first step)."""
        s = self._st[ST_LAST_AGENT]
        return self.possible_agents[s] if s >= 0 else None

    def game_info(self):
        """Options, sizes, seed, encoding version, the position (container-position/1) and,
        once the game is over, every seat's final score breakdown."""
        return _lib.call_json(lib.ctr_env_info, self._h)

    def record(self):
        """The episode so far as a game record (container-game/1 JSON text) that
        ``container replay`` reads."""
        return _lib.call_text(lib.ctr_env_record, self._h)

    @property
    def spec(self):
        """The observation spec (see :func:`container_rl.spec`)."""
        return self._spec

    def render(self):
        """The text board: every player's districts, ship, island, cash and loans, the
        supplies and the pending decision, drawn by Go's ``rules.State.Render`` with nothing
        hidden. ``render_mode="ansi"`` returns it, ``"human"`` prints it (and returns None),
        no render mode returns None."""
        if self.render_mode is None:
            return None
        if self.render_mode == "human":
            print(self.board(), flush=True)
            return None
        return self.board()

    def board(self, agent=None):
        """The text board as ``agent`` may see it (None: everything)."""
        viewer = -1 if agent is None else self._seat(agent)
        return _lib.call_text(lib.ctr_env_render, self._h, viewer)

    def close(self):
        """Free the Go environment (also done when the object is collected)."""
        super().close()


