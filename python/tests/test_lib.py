"""python/container_rl/_lib.py restates the C ABI of capi/ for ctypes: every exported
function's argument and result types, the status entries, the error codes, the ABI version
and the OpenSpiel constants. These tests read the Go side (capi/main.go's //export functions
and their C types, capi/bridge's constants) and fail on any difference, so the two cannot
drift apart: a change to capi/ must be made in _lib.py (and the ABI version bumped) too.
"""

import ctypes
import os
import re

import pytest

from conftest import ROOT

from container_rl import _lib

CAPI = os.path.join(ROOT, "capi")

# The C types capi/main.go uses, as ctypes sees them.
_SCALARS = {"C.int64_t": ctypes.c_int64, "C.uint64_t": ctypes.c_uint64, "C.double": ctypes.c_double,
            "C.int": ctypes.c_int}

# Go's error codes (capi/bridge/errors.go) and what Python raises for each.
_CODE_CLASSES = {"CodeInvalid": _lib.InvalidArgumentError, "CodeIllegal": _lib.IllegalActionError,
                 "CodeEpisodeOver": _lib.EpisodeOverError, "CodeUnknownBot": _lib.UnknownBotError,
                 "CodeHandle": _lib.HandleError, "CodeInternal": _lib.InternalError}


def read(*path):
    with open(os.path.join(CAPI, *path), encoding="utf-8") as f:
        return f.read()


def go_exports():
    """name -> ([(param name, Go type)], result type, body) of every //export in capi/."""
    out = {}
    for name in sorted(os.listdir(CAPI)):
        if not name.endswith(".go") or name.endswith("_test.go"):
            continue
        src = read(name)
        for m in re.finditer(r"^//export (\w+)\nfunc (\w+)\(([^)]*)\)\s*([\w.*]*)\s*\{", src, re.M):
            exported, fn, params, result = m.groups()
            assert exported == fn, f"{name}: //export {exported} above func {fn}"
            end = src.find("\n}\n", m.end())
            body = src[m.end():end]
            names, typed = [], []
            for part in (p.strip() for p in params.replace("\n", " ").split(",")):
                if not part:
                    continue
                bits = part.split()
                names.append(bits[0])
                if len(bits) == 2:  # "a, b, c C.int64_t": the type belongs to every name before it
                    typed.extend((n, bits[1]) for n in names)
                    names = []
            assert not names, f"{fn}: parameters {names} without a type"
            out[fn] = (typed, result, body)
    return out


def const_block(src, first):
    """The names of the iota const block whose first entry is `first`, in order."""
    m = re.search(r"const \(\n\s*" + first + r"\s*=\s*iota[^\n]*\n(.*?)\n\)", src, re.S)
    assert m, f"no iota block starting with {first}"
    names = [first]
    for line in m.group(1).splitlines():
        word = line.split("//")[0].strip()
        if word:
            names.append(word)
    return names


def snake(camel):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", camel).upper()


EXPORTS = go_exports()


def test_every_export_is_declared_and_nothing_else():
    assert len(EXPORTS) > 40, f"parsed only {len(EXPORTS)} //export functions from capi/: the parser is out of date"
    missing = sorted(set(EXPORTS) - set(_lib._SIGS))
    extra = sorted(set(_lib._SIGS) - set(EXPORTS))
    assert not missing, f"capi exports {missing}, which _lib._SIGS does not declare"
    assert not extra, f"_lib._SIGS declares {extra}, which capi does not export"


@pytest.mark.parametrize("name", sorted(EXPORTS))
def test_argument_and_result_types_match_the_go_signature(name):
    params, result, body = EXPORTS[name]
    declared = _lib._SIGS[name]
    assert len(declared) == len(params), (
        f"{name}: Go takes {len(params)} arguments {[p for p, _ in params]}, _lib declares {len(declared)}")
    for i, ((pname, gotype), ctype) in enumerate(zip(params, declared)):
        if gotype.startswith("*"):
            # A C string the Go side reads with str() is c_char_p (Python passes bytes); every
            # other pointer (output buffers, arrays, the error buffer) is c_void_p.
            want = ctypes.c_char_p if gotype == "*C.char" and re.search(rf"\bstr\({pname}\)", body) else ctypes.c_void_p
        else:
            assert gotype in _SCALARS, f"{name}: argument {pname} has C type {gotype}, unknown to this test"
            want = _SCALARS[gotype]
        assert ctype is want, f"{name}: argument {i} ({pname} {gotype}) is declared {ctype.__name__}, want {want.__name__}"
    want_res = _SCALARS[result]
    got_res = _lib._RESTYPES.get(name, ctypes.c_int)
    assert got_res is want_res, f"{name}: result {result} is declared {got_res.__name__}, want {want_res.__name__}"


def test_status_entries_are_bridges():
    names = const_block(read("bridge", "env.go"), "StAgent")
    assert names[-1] == "StatusLen"
    assert _lib.STATUS_LEN == len(names) - 1
    for i, n in enumerate(names[:-1]):
        py = snake(n)  # StNumLegal -> ST_NUM_LEGAL
        assert getattr(_lib, py, None) == i, f"bridge.{n} is status entry {i}; _lib.{py} is {getattr(_lib, py, None)}"


def test_error_codes_are_bridges():
    codes = {n: int(v) for n, v in re.findall(r"^\s*(Code\w+)\s*=\s*(\d+)", read("bridge", "errors.go"), re.M)}
    assert codes.pop("CodeBufferSmall") == _lib.CODE_BUFFER_SMALL
    assert sorted(codes) == sorted(_CODE_CLASSES), f"bridge's codes {sorted(codes)}; this test knows {sorted(_CODE_CLASSES)}"
    assert {codes[n]: cls for n, cls in _CODE_CLASSES.items()} == _lib._ERRORS


def test_abi_version_is_bridges_and_the_librarys():
    m = re.search(r"^const ABIVersion = (\d+)", read("bridge", "info.go"), re.M)
    assert m and int(m.group(1)) == _lib.ABI_VERSION
    assert _lib.lib.ctr_abi_version() == _lib.ABI_VERSION


def test_openspiel_constants_are_bridges():
    spiel = read("bridge", "spiel.go")
    texts = const_block(spiel, "TextInfoState")
    rollouts = const_block(spiel, "RolloutReturns")
    consts = {n: int(v) for n, v in re.findall(r"^\s*(Spiel\w+)\s*=\s*(-?\d+)", spiel, re.M)}
    src = open(os.path.join(ROOT, "python", "container_rl", "openspiel.py"), encoding="utf-8").read()
    # openspiel.py imports pyspiel, which may be absent here: read its constants from the source.
    m = re.search(r"^(_TEXT_\w+(?:, _TEXT_\w+)*) = range\((\d+)\)", src, re.M)
    assert m, "openspiel.py: the _TEXT_* kinds are not a range() line any more"
    assert [snake(n).replace("TEXT_", "_TEXT_", 1) for n in texts] == m.group(1).split(", ")
    assert int(m.group(2)) == len(texts)
    assert re.search(r'_ROLLOUT_KINDS = \{"returns": %d, "search": %d\}' % (
        rollouts.index("RolloutReturns"), rollouts.index("RolloutOutcomes")), src)
    assert consts == {"SpielChance": -1, "SpielTerminal": -4}
    assert "p == -4" in src and "p == -1" in src
