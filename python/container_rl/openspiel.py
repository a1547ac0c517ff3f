"""Container as an OpenSpiel game: ``pyspiel.load_game("python_container")``.

Importing this module registers the game ``python_container`` with OpenSpiel (needs the
``open_spiel`` package). Every rule, every chance outcome, every observation and every
resampled world comes from the Go engine through the C ABI; this module only forwards.

The game tree:

* Chance nodes first: the setup's random choices (rulebook steps 5-14) drawn one at a time,
  each uniform over what is left: the Off-Shore Bank's three containers (not in Classic), each
  seat's first factory colour, each seat's scoring card, the first player. An outcome is the
  colour, card or seat number (0-4). A seeded game of the ``container`` commands is the
  sequence :func:`setup_draws` returns.
* Then the game proper: sequential decisions, actions 0-240 (the project's action ids, named
  in its move notation), imperfect information (scoring cards, sealed bids), terminal returns
  from the reward scheme (``win-loss``: 1 to the winner, split between tied winners).

Parameters: ``players`` (3-5, default 4), ``rules`` (``base`` or ``classic``), ``length``
(``short``, ``standard``, ``extended``), ``modules`` (``none``, ``all`` or a list joined by
``+``: ``trucks+luxury``), ``reward`` (``win-loss`` or ``rank``). OpenSpiel's game string
separates parameters with commas, so a module list is kept in the game's parameters (and its
string) joined by ``+``; the comma form of the rest of the project (``{"modules":
"trucks,luxury"}``) is accepted and rewritten, so ``pyspiel.load_game(str(game))``,
serialisation and pickling read back the same game.

Strings and tensors per player: the information state string is the player's redacted view of
the position (position JSON: everything it may see, nothing it may not; during the setup, the
draws it saw), the observation string is the text board from its view, the observation
tensor the project's observation encoding (obs-v2; zeros during the setup).
``resample_from_infostate`` uses the ismcts bot's determinization (search.Determinize).
States serialise as their full position (or the setup draws made so far).
"""

import ctypes
import json
import threading
import types

import numpy as np
import pyspiel

from . import _lib
from ._lib import lib

SHORT_NAME = "python_container"

_DEFAULTS = {"players": 4, "rules": "base", "length": "standard", "modules": "none", "reward": "win-loss"}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Container (Go engine of the Container RL toolkit)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)

# SpielText kinds (capi/bridge/spiel.go).
_TEXT_INFO_STATE, _TEXT_OBSERVATION, _TEXT_FULL, _TEXT_POSITION = range(4)
_NUM_ACTIONS = 241


_MODULE_SEPARATORS = str.maketrans({",": "+", ";": "+"})


def _modules_param(value):
    """A ``modules`` parameter with its list joined by ``+`` (OpenSpiel's game string cannot
    hold a comma inside a value): ``"trucks, luxury"`` and ``"trucks;luxury"`` become
    ``"trucks+luxury"``. Names are checked in Go."""
    if not isinstance(value, str):
        raise ValueError(f"container: parameter modules: want a string such as \"trucks+luxury\", "
                         f"got {type(value).__name__}")
    parts = [p.strip() for p in value.translate(_MODULE_SEPARATORS).split("+")]
    return "+".join(p for p in parts if p) or "none"


class _Facts:
    """The immutable facts of one game (its options JSON and sizes), shared by its states."""

    def __init__(self, params):
        opts = {k: params[k] for k in _DEFAULTS}
        opts["modules"] = _modules_param(opts["modules"]).replace("+", ",")  # Go's list form
        self.opts_json = _lib.dumps(opts, "game parameters")
        self.info = _lib.call_json(lib.ctr_spiel_game, self.opts_json)
        self.players = self.info["players"]

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_Facts._from_json, (self.opts_json,))

    @staticmethod
    def _from_json(opts_json):
        return _Facts(json.loads(opts_json))


_local = threading.local()


def _scratch():
    """This thread's buffers for a node's status (Go fills them, refresh copies them out)."""
    sc = getattr(_local, "sc", None)
    if sc is None:
        sc = _local.sc = types.SimpleNamespace(legal=np.zeros(_NUM_ACTIONS, dtype=np.int32),
                                               probs=np.zeros(_NUM_ACTIONS, dtype=np.float64),
                                               out=np.zeros(2, dtype=np.int64))
    return sc


class _Engine:
    """One Go state (a handle) and its node's cached status. Deep copies clone the Go state
    (OpenSpiel clones a Python state by deep-copying its attributes); pickling writes the full
    position, or the setup draws while they are being made (OpenSpiel's serialisation)."""

    __slots__ = ("facts", "h", "player", "legal", "probs", "draws", "texts", "_err", "__weakref__")


    def __init__(self, facts, h):
        self.facts, self.h, self.draws = facts, h, []
        self._err = _lib.ErrBuf()
        self.refresh()

    @classmethod
    def new(cls, facts):
        h = ctypes.c_int64(0)
        _lib.call(lib.ctr_spiel_new, facts.opts_json, ctypes.byref(h))
        return cls(facts, h.value)

    @classmethod
    def from_position(cls, facts, position):
        h = ctypes.c_int64(0)
        _lib.call(lib.ctr_spiel_position, facts.opts_json, _lib.c_str(position, "position"), ctypes.byref(h))
        return cls(facts, h.value)

    def refresh(self):
        self.texts = {}  # (seat, kind) -> text, for this node
        sc = _scratch()
        legal, probs, out = sc.legal, sc.probs, sc.out
        _lib.check(lib.ctr_spiel_status(self.h, _lib.ptr(legal), _lib.ptr(probs), _NUM_ACTIONS, _lib.ptr(out),
                                        self._err.ptr, _lib.ERR_CAP), self._err)
        n = int(out[1])
        self.player = int(out[0])
        self.legal = legal[:n].tolist()
        self.probs = probs[:n].tolist() if self.player == pyspiel.PlayerId.CHANCE else None

    def apply(self, action):
        a = _lib.c_int(action, "action")
        _lib.check(lib.ctr_spiel_apply(self.h, a, self._err.ptr, _lib.ERR_CAP), self._err)
        if self.player == pyspiel.PlayerId.CHANCE:
            self.draws.append(a)
        self.refresh()

    def text(self, seat, kind):
        key = (seat, kind)
        t = self.texts.get(key)
        if t is None:
            t = self.texts[key] = _lib.call_text(lib.ctr_spiel_text, self.h, seat, kind)
        return t

    def __deepcopy__(self, memo):
        h = ctypes.c_int64(0)
        _lib.call(lib.ctr_spiel_clone, self.h, ctypes.byref(h))
        c = _Engine.__new__(_Engine)
        c.facts, c.h, c._err = self.facts, h.value, _lib.ErrBuf()
        c.player, c.legal, c.probs, c.draws = self.player, self.legal, self.probs, list(self.draws)
        c.texts = dict(self.texts)
        return c

    def __reduce__(self):
        if self.player == pyspiel.PlayerId.CHANCE:
            return (_Engine._from_draws, (self.facts, list(self.draws)))
        return (_Engine.from_position, (self.facts, self.text(0, _TEXT_POSITION)))

    @classmethod
    def _from_draws(cls, facts, draws):
        e = cls.new(facts)
        for a in draws:
            e.apply(a)
        return e

    def __del__(self):
        h, self.h = getattr(self, "h", 0), 0
        if h:
            try:
                _lib.free(h)
            except Exception:
                pass


class ContainerState(pyspiel.State):
    """A Container game state backed by a Go state."""

    def __init__(self, game, engine=None):
        super().__init__(game)
        self._e = engine or _Engine.new(game._facts)

    # --- the tree ---

    def current_player(self):
        p = self._e.player
        if p == -4:
            return pyspiel.PlayerId.TERMINAL
        if p == -1:
            return pyspiel.PlayerId.CHANCE
        return p

    def _legal_actions(self, player):
        return list(self._e.legal)

    def chance_outcomes(self):
        e = self._e
        if e.player != pyspiel.PlayerId.CHANCE:
            raise ValueError("container: chance_outcomes at a node that is not a chance node")
        return list(zip(e.legal, e.probs))

    def _apply_action(self, action):
        self._e.apply(action)

    def _action_to_string(self, player, action):
        return _lib.call_text(lib.ctr_spiel_action_text, self._e.h, _lib.c_int(action, "action"))

    def is_terminal(self):
        return self._e.player == -4

    def returns(self):
        out = np.zeros(self._e.facts.players, dtype=np.float64)
        _lib.call(lib.ctr_spiel_returns, self._e.h, _lib.ptr(out), len(out))
        return out.tolist()

    def __str__(self):
        return self._e.text(0, _TEXT_FULL)

    # --- imperfect information ---

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state drawn from those consistent with player_id's information (the ismcts bot's
        determinization in Go), seeded from one draw of probability_sampler."""
        seat = _seat(player_id, self._e.facts.players)
        if self._e.player == pyspiel.PlayerId.CHANCE:
            raise ValueError("container: resample_from_infostate during the setup draws (no seat has decided yet)")
        u = probability_sampler() if callable(probability_sampler) else probability_sampler.sample()
        seed = int(float(u) * (1 << 53)) & ((1 << 64) - 1)
        h = ctypes.c_int64(0)
        _lib.call(lib.ctr_spiel_resample, self._e.h, seat, ctypes.c_uint64(seed), ctypes.byref(h))
        return ContainerState(self.get_game(), _Engine(self._e.facts, h.value))

    def position_json(self):
        """The full position (hidden information included) as container-position/1 JSON."""
        return self._e.text(0, _TEXT_POSITION)


def _seat(player, n):
    p = _lib.c_int(player, "player")
    if not 0 <= p < n:
        raise ValueError(f"container: player {p}; the game has players 0 to {n - 1}")
    return p


class ContainerObserver:
    """Strings and tensors for one player: ``perfect_recall`` gives the information state
    (string only), otherwise the observation (string and obs-v2 tensor)."""

    def __init__(self, facts, info_state):
        self._facts = facts
        self._kind = _TEXT_INFO_STATE if info_state else _TEXT_OBSERVATION
        if info_state:
            self.tensor, self.dict = None, {}
        else:
            self.tensor = np.zeros(facts.info["observation_size"], dtype=np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if self.tensor is None:
            return
        seat = _seat(player, self._facts.players)
        _lib.call(lib.ctr_spiel_observe, state._e.h, seat, _lib.ptr(self.tensor), len(self.tensor))

    def string_from(self, state, player):
        return state._e.text(_seat(player, self._facts.players), self._kind)


class ContainerGame(pyspiel.Game):
    """The game ``python_container`` with its parameters."""

    def __init__(self, params=None):
        p = dict(_DEFAULTS)
        p.update(params or {})
        p["modules"] = _modules_param(p["modules"])
        facts = _Facts(p)
        info = facts.info
        game_info = pyspiel.GameInfo(
            num_distinct_actions=info["num_distinct_actions"],
            max_chance_outcomes=info["max_chance_outcomes"],
            num_players=info["players"],
            min_utility=info["min_utility"],
            max_utility=info["max_utility"],
            utility_sum=None,  # general-sum (win-loss returns do add up to 1, rank ones to 0)
            max_game_length=info["max_game_length"])
        super().__init__(_GAME_TYPE, game_info, p)
        self._facts = facts

    def new_initial_state(self):
        return ContainerState(self)

    def max_chance_nodes_in_history(self):
        return self._facts.info["setup_draws"]

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"container: observation parameters {sorted(params)} are not supported")
        info_state = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ContainerObserver(self._facts, info_state)


pyspiel.register_game(_GAME_TYPE, ContainerGame)


def setup_draws(seed, **params):
    """The chance outcomes that set up the game the ``container`` commands play with --seed."""
    p = dict(_DEFAULTS)
    p.update(params)
    facts = _Facts(p)
    return _lib.call_json(lib.ctr_spiel_setup_draws, facts.opts_json, ctypes.c_uint64(_lib.c_int(seed, "seed") & ((1 << 64) - 1)))


def wilson(wins, games, z=0.0):
    """The Wilson score interval of wins (shared wins count 1/k) out of games, at normal
    quantile z (0: 95%): the Go statistics every project table uses (env/eval.Wilson)."""
    from .evaluation import Z95, wilson as _wilson
    return _wilson(wins, games, z or Z95)


# --- bots ---------------------------------------------------------------------------------


class GoBot(pyspiel.Bot):
    """A bot of the project (``valuer``, ``default``, ``ismcts:...``, a ``.bot`` file; see
    :func:`container_rl.list_bots`) as an OpenSpiel bot for ``game``: it decides in Go from the
    deciding seat's redacted view of the state. ``sims`` and ``search_seconds`` add up the
    search figures of its decisions (zero for a bot that does not search)."""

    def __init__(self, game, spec, seed=0):
        pyspiel.Bot.__init__(self)
        from .bots import BotPolicy
        self.spec = spec
        self._policy = BotPolicy(spec, seed, **json.loads(game._facts.opts_json))
        self._out = ctypes.c_int64(0)
        self._stats = np.zeros(3, dtype=np.int64)
        self.decisions = self.searches = self.sims = 0
        self.search_seconds = 0.0

    def step(self, state):
        _lib.call(lib.ctr_bot_act_spiel, self._policy._h, state._e.h, ctypes.byref(self._out))
        _lib.call(lib.ctr_bot_stats, self._policy._h, _lib.ptr(self._stats))
        self.decisions += 1
        if self._stats[0] > 0 and len(state._e.legal) > 1:
            self.searches += 1
            self.sims += int(self._stats[0])
            self.search_seconds += self._stats[1] / 1e9
        return self._out.value

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def provides_policy(self):
        return False

    def close(self):
        self._policy.close()


_ROLLOUT_KINDS = {"returns": 0, "search": 1}


def rollout(state, seed, value="returns"):
    """One uniformly random playout of state to the end, played in Go (state is unchanged):
    the game's returns (``value="returns"``) or the outcomes our ismcts backs up
    (``"search"``: half the win share, half the score margin over the best other seat,
    squashed to 0..1; search.Outcomes)."""
    if value not in _ROLLOUT_KINDS:
        raise ValueError(f"container: rollout value {value!r}; want returns or search")
    out = np.zeros(state._e.facts.players, dtype=np.float64)
    _lib.call(lib.ctr_spiel_rollout, state._e.h, ctypes.c_uint64(_lib.c_int(seed, "seed") & ((1 << 64) - 1)),
              _ROLLOUT_KINDS[value], _lib.ptr(out), len(out))
    return out
