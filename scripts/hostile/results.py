"""Forged results files: a field changed, the checksum recomputed (or not)."""

import hashlib
import json
import os


def _canon(v):
    if isinstance(v, dict):
        return "{" + ",".join(_canon_str(k) + ":" + _canon(v[k]) for k in sorted(v)) + "}"
    if isinstance(v, list):
        return "[" + ",".join(_canon(x) for x in v) + "]"
    if isinstance(v, str):
        return _canon_str(v)
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, _Num):
        return v.text
    return str(v)


def _canon_str(s):
    # Go's encoding/json: HTML-safe escapes, \u2028/\u2029, other controls as \u00XX.
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif o < 0x20 or ch in "<>&" or o in (0x2028, 0x2029):
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


class _Num:
    def __init__(self, text):
        self.text = text


def results_sum(obj):
    m = {k: v for k, v in obj.items() if k != "checksum"}
    return hashlib.sha256(_canon(m).encode()).hexdigest()


def forge(path, fn, fix_sum=True):
    """Edit a results file's JSON with fn(obj) and write it back, with its checksum
    recomputed (fix_sum) or left as it was."""
    def f(d):
        p = os.path.join(d, path)
        with open(p) as fh:
            obj = json.load(fh)
        fn(obj)
        if fix_sum:
            obj["checksum"] = results_sum(obj)
        with open(p, "w") as fh:
            json.dump(obj, fh, separators=(",", ":"))
    return f


def first_scores(o):
    return o["results"][0]["scores"]


def bump(o, key):
    first_scores(o)[0][key] += 1


def set_score(o, key, v):
    first_scores(o)[0][key] = v


def move_winner(o):
    for g in o["results"]:
        w = [i for i, s in enumerate(g["scores"]) if s["winner"]]
        if len(w) == 1:
            i = w[0]
            j = (i + 1) % len(g["scores"])
            g["scores"][i]["winner"], g["scores"][j]["winner"] = False, True
            return
    g = o["results"][0]
    g["scores"][0]["winner"] = not g["scores"][0]["winner"]


def as_v1(o):
    o.pop("checksum", None)
    o["format"] = "container-eval-results/1"
