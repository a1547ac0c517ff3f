"""Spec, action names, bots list, position scoring: one-off calls into the Go library."""

import ctypes
import json

import numpy as np

from . import _lib
from ._lib import lib


_SPECS = {}  # sorted options JSON -> spec JSON text, for spec_seen


def spec(**options):
    """The observation spec of the options as a dict (Go's encoding.Spec): ``version``,
    ``size``, ``num_actions``, ``features`` (name, offset, size, labels, low, high, doc),
    ``action_names``, plus ``phases`` (names indexed by the status phase) and
    ``env_options`` (every option with its value)."""
    text = _lib.call_text(lib.ctr_spec, _lib.options_json(options))
    if len(_SPECS) < 64:
        _SPECS[_lib.dumps(dict(sorted(options.items())), "options")] = text
    return json.loads(text)


def spec_seen(**options):
    """spec(**options) if this process (or the one it was forked from) has asked Go for it
    already, else None; never calls Go (for a forked child, which cannot)."""
    try:
        text = _SPECS.get(_lib.dumps(dict(sorted(options.items())), "options"))
    except _lib.InvalidArgumentError:
        return None
    return None if text is None else json.loads(text)


def action_names(**options):
    """The generic name of every action id (the same for every option set)."""
    return spec(**options)["action_names"]


def feature_columns(**options):
    """One column name per observation entry (feature name + '.' + label)."""
    out = []
    for f in spec(**options)["features"]:
        out.extend(f["name"] + "." + label for label in f["labels"])
    return out


def game_seed(base, game, episode):
    """Go's env.GameSeed: the seed of game ``game``'s episode ``episode`` in a vector env."""
    return int(lib.ctr_game_seed(_seed(base), _lib.c_int(game, "game"), _lib.c_int(episode, "episode")))


def _seed(seed):
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise _lib.InvalidArgumentError(f"seed: want an int from 0 to 2**64-1, got {type(seed).__name__}")
    seed = int(seed)
    if not 0 <= seed < 1 << 64:
        raise _lib.InvalidArgumentError(f"seed: {seed} is outside 0 to 2**64-1")
    return seed


def _text(position):
    if isinstance(position, dict):
        return _lib.dumps(position, "position")
    if isinstance(position, (bytes, str)):
        return _lib.c_str(position, "position")
    raise _lib.InvalidArgumentError(f"position: want a JSON string, bytes or dict, got {type(position).__name__}")


def score_position(position):
    """Score a position (container-position/1 JSON: str, bytes or dict) or a game record
    (container-game/1) as if the game ended now: one breakdown dict per seat (cash, island,
    leftover, loans, total, rank, winner, ...)."""
    return _lib.call_json(lib.ctr_score, _text(position))


def observe_position(position, seat, hide_opponent_cash=False):
    """Encode a position from ``seat``'s view: (observation float32 array, decider seat or -1)."""
    data = _text(position)
    try:
        head = json.loads(data)
    except ValueError as e:
        raise _lib.InvalidArgumentError(f"position: not JSON: {e}") from None
    opts = head.get("options", {}) if isinstance(head, dict) else {}
    if not isinstance(opts, dict):
        raise _lib.InvalidArgumentError("position: options is not a JSON object")
    size = spec(players=opts.get("players", 4), modules=opts.get("modules", ""),
                rules=opts.get("variant", "base"))["size"]
    obs = np.zeros(size, dtype=np.float32)
    dec = ctypes.c_int64(0)
    _lib.call(lib.ctr_observe_position, data, _lib.c_int(seat, "seat"), int(bool(hide_opponent_cash)), _lib.ptr(obs), size,
              ctypes.byref(dec))
    return obs, dec.value
