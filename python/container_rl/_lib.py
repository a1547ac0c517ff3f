"""Loading the Go library (libcontainer.so, built from capi/) and calling it through ctypes.

Every C function returns 0 or an error code and writes a one-line message into an error
buffer; :func:`check` turns a non-zero code into the matching exception carrying Go's
message. Nothing here knows the game: it only moves bytes across the boundary.
"""

import ctypes
import json
from fractions import Fraction
import operator
import os

import numpy as np

ABI_VERSION = 3
STATUS_LEN = 8  # bridge.StatusLen
ST_AGENT, ST_TERMINATED, ST_TRUNCATED, ST_PHASE, ST_NUM_LEGAL, ST_TURN, ST_STEPS, ST_LAST_AGENT = range(8)


class ContainerError(Exception):
    """Base class of every error the Go engine reports."""


class InvalidArgumentError(ContainerError, ValueError):
    """Bad options, sizes, dtypes, seats or positions."""


class IllegalActionError(ContainerError, ValueError):
    """An action id that is not legal for the decider."""


class EpisodeOverError(ContainerError, RuntimeError):
    """Stepping a finished episode, or before the first reset."""


class UnknownBotError(ContainerError, ValueError):
    """A bot name that is not registered (or a bot file that does not load)."""


class HandleError(ContainerError, RuntimeError):
    """A closed object, or one used from two threads at once."""


class InternalError(ContainerError, RuntimeError):
    """A Go panic recovered at the boundary: a bug, please report it with the message."""


_ERRORS = {1: InvalidArgumentError, 2: IllegalActionError, 3: EpisodeOverError,
           4: UnknownBotError, 5: HandleError, 7: InternalError}
CODE_BUFFER_SMALL = 6
ERR_CAP = 2048

_c_i64 = ctypes.c_int64
_c_u64 = ctypes.c_uint64
_p = ctypes.c_void_p
_s = ctypes.c_char_p
_pi64 = ctypes.POINTER(ctypes.c_int64)

# name -> argument types (every function returns int unless listed in _RESTYPES).
_SIGS = {
    "ctr_abi_version": [],
    "ctr_game_seed": [_c_u64, _c_i64, _c_i64],
    "ctr_open_handles": [],
    "ctr_sizes": [_s, _p, _p, _c_i64],
    "ctr_free": [_c_i64, _p, _c_i64],
    "ctr_env_new": [_s, _c_i64, _c_i64, _c_i64, _p, _p, _p, _p, _p, _p, _p, _p, _p, _c_i64],
    "ctr_env_reset": [_c_i64, _c_u64, _s, _p, _c_i64],
    "ctr_env_step": [_c_i64, _c_i64, _p, _c_i64],
    "ctr_env_observe": [_c_i64, _c_i64, _p, _c_i64, _p, _c_i64, _p, _c_i64],
    "ctr_env_oracle": [_c_i64, _c_i64, _p, _c_i64, _p, _c_i64],
    "ctr_env_info": [_c_i64, _p, _c_i64, _p, _p, _c_i64],
    "ctr_env_record": [_c_i64, _p, _c_i64, _p, _p, _c_i64],
    "ctr_vec_new": [_c_i64, _s, _c_u64, _c_i64, _c_i64, _c_i64, _c_i64,
                    _p, _p, _p, _p, _p, _p, _p, _p, _p, _p, _p, _c_i64],
    "ctr_vec_step": [_c_i64, _p, _c_i64, _p, _c_i64],
    "ctr_vec_reset": [_c_i64, _p, _c_i64],
    "ctr_vec_game": [_c_i64, _c_i64, _p, _c_i64, _p, _p, _c_i64],
    "ctr_vec_observe": [_c_i64, _c_i64, _c_i64, _p, _c_i64, _p, _c_i64],
    "ctr_bots": [_p, _c_i64, _p, _p, _c_i64],
    "ctr_bot_new": [_s, _s, _c_u64, _p, _p, _c_i64],
    "ctr_bot_act_env": [_c_i64, _c_i64, _p, _p, _c_i64],
    "ctr_bot_act_vec": [_c_i64, _c_i64, _c_i64, _p, _p, _c_i64],
    "ctr_table_new": [_c_i64, _s, _c_u64, _p, _p, _c_i64],
    "ctr_table_act": [_c_i64, _p, _p, _c_i64, _p, _c_i64],
    "ctr_spec": [_s, _p, _c_i64, _p, _p, _c_i64],
    "ctr_score": [_s, _p, _c_i64, _p, _p, _c_i64],
    "ctr_observe_position": [_s, _c_i64, _c_i64, _p, _c_i64, _p, _p, _c_i64],
    "ctr_bench_vec": [_c_i64, _c_i64, _c_i64, _c_u64, _p, _p, _c_i64],
    "ctr_spiel_game": [_s, _p, _c_i64, _p, _p, _c_i64],
    "ctr_spiel_new": [_s, _p, _p, _c_i64],
    "ctr_spiel_position": [_s, _s, _p, _p, _c_i64],
    "ctr_spiel_clone": [_c_i64, _p, _p, _c_i64],
    "ctr_spiel_status": [_c_i64, _p, _p, _c_i64, _p, _p, _c_i64],
    "ctr_spiel_apply": [_c_i64, _c_i64, _p, _c_i64],
    "ctr_spiel_returns": [_c_i64, _p, _c_i64, _p, _c_i64],
    "ctr_spiel_observe": [_c_i64, _c_i64, _p, _c_i64, _p, _c_i64],
    "ctr_spiel_text": [_c_i64, _c_i64, _c_i64, _p, _c_i64, _p, _p, _c_i64],
    "ctr_spiel_action_text": [_c_i64, _c_i64, _p, _c_i64, _p, _p, _c_i64],
    "ctr_spiel_resample": [_c_i64, _c_i64, _c_u64, _p, _p, _c_i64],
    "ctr_spiel_setup_draws": [_s, _c_u64, _p, _c_i64, _p, _p, _c_i64],
    "ctr_bot_act_spiel": [_c_i64, _c_i64, _p, _p, _c_i64],
    "ctr_wilson": [ctypes.c_double, _c_i64, ctypes.c_double, _p, _p, _c_i64],
    "ctr_spiel_rollout": [_c_i64, _c_u64, _c_i64, _p, _c_i64, _p, _c_i64],
    "ctr_bot_stats": [_c_i64, _p, _p, _c_i64],
    "ctr_env_opponents": [_c_i64, _s, _p, _c_i64],
    "ctr_env_play": [_c_i64, _p, _p, _c_i64],
    "ctr_env_step_play": [_c_i64, _c_i64, _p, _p, _c_i64],
    "ctr_env_render": [_c_i64, _c_i64, _p, _c_i64, _p, _p, _c_i64],
    "ctr_solo_new": [_c_i64, _s, _s, _c_i64, _c_u64, _c_i64, _c_i64, _c_i64, _p, _p, _p, _p, _p, _p, _p, _p,
                     _p, _c_i64],
    "ctr_solo_reset": [_c_i64, _c_u64, _p, _c_i64],
    "ctr_solo_step": [_c_i64, _p, _c_i64, _p, _c_i64],
    "ctr_solo_game": [_c_i64, _c_i64, _p, _c_i64, _p, _p, _c_i64],
}
_RESTYPES = {"ctr_abi_version": _c_i64, "ctr_game_seed": _c_u64, "ctr_open_handles": _c_i64}


def _find_library():
    env = os.environ.get("CONTAINER_RL_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "libcontainer.so")


def _load():
    path = _find_library()
    if not os.path.exists(path):
        raise ImportError(
            f"container_rl: the Go library {path} is missing; reinstall the package "
            "(pip install ./python, which builds it) or set CONTAINER_RL_LIB")
    lib = ctypes.CDLL(path)
    for name, args in _SIGS.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = _RESTYPES.get(name, ctypes.c_int)
    got = lib.ctr_abi_version()
    if got != ABI_VERSION:
        raise ImportError(f"container_rl: {path} has C ABI version {got}, this package needs "
                          f"{ABI_VERSION}; reinstall the package (pip install ./python) to rebuild it")
    return lib


lib = _load()
_LOADED_PID = os.getpid()


def forked():
    """True in a process forked from one that had already loaded the Go library."""
    return os.getpid() != _LOADED_PID


def check_not_forked():
    """Refuse to make Go objects in a process forked after the library was loaded: the Go
    runtime's threads do not survive fork(), and calling into it there can hang."""
    if os.getpid() != _LOADED_PID:
        raise ContainerError(
            "container_rl: this process was forked from one that had already loaded the Go library, "
            "which cannot run after fork(); use the 'spawn' or 'forkserver' start method "
            "(multiprocessing.get_context('spawn'), AsyncVectorEnv(..., context='spawn'))")


class ErrBuf:
    """A reusable error-message buffer (one per object, so hot calls allocate nothing)."""

    __slots__ = ("buf", "ptr")

    def __init__(self):
        self.buf = ctypes.create_string_buffer(ERR_CAP)
        self.ptr = ctypes.cast(self.buf, ctypes.c_void_p).value

    def raise_for(self, code):
        msg = self.buf.value.decode("utf-8", "replace")
        raise _ERRORS.get(code, ContainerError)(msg)


_shared_err = ErrBuf()


def check(code, err=None):
    """Raise the exception for a non-zero code with the message in err."""
    if code:
        (err or _shared_err).raise_for(code)


def call(fn, *args):
    """Call fn(*args, errbuf, errcap) and raise on error (for calls off the hot path)."""
    if os.getpid() != _LOADED_PID:
        check_not_forked()
    err = ErrBuf()
    code = fn(*args, err.ptr, ERR_CAP)
    if code:
        err.raise_for(code)


def call_text(fn, *args):
    """Call a function that writes text into a caller buffer; grow the buffer if needed."""
    cap = 1 << 16
    for _ in range(3):
        out = ctypes.create_string_buffer(cap)
        need = ctypes.c_int64(0)
        err = ErrBuf()
        code = fn(*args, ctypes.cast(out, _p), cap, ctypes.byref(need), err.ptr, ERR_CAP)
        if code == CODE_BUFFER_SMALL:
            cap = need.value + 1
            continue
        if code:
            err.raise_for(code)
        return out.value.decode("utf-8")
    raise InternalError("container_rl: text output kept growing")


def call_json(fn, *args):
    return json.loads(call_text(fn, *args))


def options_json(options):
    """Serialise keyword options for Go (which validates them and names bad keys)."""
    if options is None:
        return b""
    if not isinstance(options, dict):
        raise InvalidArgumentError(f"options: want a dict, got {type(options).__name__}")
    return dumps(options, "options")


def _scalar(o):
    # NumPy scalars (np.int64(4), np.float32(0.5), np.bool_) serialise as their Python value.
    if getattr(o, "shape", None) == () and hasattr(o, "item"):
        return o.item()
    raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")


def dumps(value, what):
    """JSON for Go: NumPy scalars become numbers; NaN, infinities and other objects raise
    InvalidArgumentError naming what."""
    try:
        return json.dumps(value, allow_nan=False, default=_scalar).encode()
    except (TypeError, ValueError) as e:
        raise InvalidArgumentError(f"{what}: not JSON-serialisable: {e}") from None


def c_int(x, what):
    """x as a 64-bit C integer: ints and NumPy integers only, never silently truncated or
    wrapped (ctypes would wrap 2**64 to 0)."""
    if isinstance(x, bool):
        raise InvalidArgumentError(f"{what}: want an int, got bool")
    try:
        v = operator.index(x)
    except TypeError:
        raise InvalidArgumentError(f"{what}: want an int, got {type(x).__name__}") from None
    if not -(1 << 63) <= v < 1 << 63:
        raise InvalidArgumentError(f"{what}: {v} does not fit in a 64-bit integer")
    return v


def action_id(action, where=""):
    """An action id from an int, a NumPy integer or a 0-d NumPy integer array (``np.array(k)``,
    which ``Discrete.contains`` accepts and many RL libraries hand back). Bools, floats and
    other arrays raise InvalidArgumentError (``where`` says whose action, e.g. "for
    player_0"): an id is never guessed from them."""
    t = type(action)
    if t is int:
        return action
    at = f" {where}" if where else ""
    if isinstance(action, np.ndarray):
        if action.ndim != 0:
            raise InvalidArgumentError(f"action{at}: an array of shape {action.shape}; want one int action id "
                                       "(an int, a NumPy integer or a 0-d integer array)")
        if action.dtype.kind not in "iu":
            raise InvalidArgumentError(f"action{at}: a 0-d array of dtype {action.dtype}; want an integer action id")
        return int(action)
    if isinstance(action, np.integer):
        return int(action)
    if isinstance(action, int) and not isinstance(action, bool):  # IntEnum and the like
        return int(action)
    shown = repr(action) if isinstance(action, (bool, float, complex, str, np.generic)) else t.__name__
    raise InvalidArgumentError(f"action {shown[:40]}{at}: want an int action id, got {t.__name__}")


def exact_reward(x):
    """A final reward read from Go's float32 buffers, as a Python float: a value that is the
    float32 of a fraction with a denominator up to 60 (every win-loss and rank reward, such as
    1/3 for each of three tied winners) is that fraction in float64, so the three add up to
    exactly 1; any other value (shaped rewards, cash margins) is the float32 value."""
    if x == 0.0 or x == 1.0 or x == -1.0:
        return float(x)
    f = Fraction(x).limit_denominator(60)
    v = f.numerator / f.denominator
    return v if float(np.float32(v)) == x else float(x)


def c_str(s, what):
    """s as UTF-8 bytes for a C string: a NUL inside would silently cut it short."""
    if isinstance(s, str):
        try:
            s = s.encode()
        except UnicodeEncodeError as e:
            raise InvalidArgumentError(f"{what}: not encodable as UTF-8: {e}") from None
    if not isinstance(s, bytes):
        raise InvalidArgumentError(f"{what}: want a str, got {type(s).__name__}")
    if b"\0" in s:
        raise InvalidArgumentError(f"{what}: contains a NUL character")
    return s


def ptr(a):
    """The data pointer of a NumPy array."""
    return a.ctypes.data


def free(handle):
    call(lib.ctr_free, c_int(handle, "handle"))


def open_handles():
    """Open Go objects (envs, vector envs, bots, tables): tests use it to find leaks."""
    return lib.ctr_open_handles()


class Handle:
    """Owns one Go handle (self._h): close() frees it once; also freed when collected, and on
    leaving a with block."""

    _h = 0

    def close(self):
        h, self._h = self._h, 0
        if h:
            free(h)

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
