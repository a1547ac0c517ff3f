"""Category "python": bad calls into the Python package, each in a fresh interpreter."""

import os
import shutil
import subprocess
import time

from .cases import Case, G, OPENING, REPO, add
from .checks import base_env


PY_PRELUDE = r'''
import os, sys, threading
import numpy as np
import container_rl as c
from container_rl import _lib
def expect(fn):
    try:
        fn()
    except c.InternalError as e:
        print("INTERNAL", str(e)[:300]); sys.exit(5)
    except Exception as e:
        print("RAISED", type(e).__name__, (str(e).splitlines() or [""])[0][:200]); sys.exit(0)
    print("NORAISE"); sys.exit(3)
def started(**kw):
    e = c.ContainerEnv(**kw); e.reset(seed=1); return e
POS = %r
''' % OPENING

PY_CASES = [
    ("env-players-2", "c.ContainerEnv(players=2)"),
    ("env-players-str", "c.ContainerEnv(players='4')"),
    ("env-players-float", "c.ContainerEnv(players=4.5)"),
    ("env-players-huge", "c.ContainerEnv(players=10**30)"),
    ("env-players-list", "c.ContainerEnv(players=[4])"),
    ("env-unknown-option", "c.ContainerEnv(nosuch=1)"),
    ("env-bad-modules", "c.ContainerEnv(modules='nosuch')"),
    ("env-bad-rules", "c.ContainerEnv(rules='modern')"),
    ("env-bad-length", "c.ContainerEnv(length=3)"),
    ("env-bad-reward", "c.ContainerEnv(reward='money')"),
    ("env-turn-limit-negative", "c.ContainerEnv(turn_limit=-1)"),
    ("env-max-steps-negative", "c.ContainerEnv(max_steps=-5)"),
    ("env-margin-scale-nan", "c.ContainerEnv(margin_scale=float('nan'))"),
    ("env-render-mode", "c.ContainerEnv(render_mode='rgb_array')"),
    ("env-option-object", "c.ContainerEnv(players=object())"),
    ("env-option-nul", "c.ContainerEnv(modules='trucks\\x00luxury')"),
    ("env-option-surrogate", "c.ContainerEnv(modules='\\udcff')"),
    ("step-before-reset", "c.ContainerEnv().step(0)"),
    ("step-negative", "started().step(-1)"),
    ("step-past-last-id", "started().step(241)"),
    ("step-huge-int", "started().step(2**40)"),
    ("step-huger-int", "started().step(10**30)"),
    ("step-float", "started().step(1.5)"),
    ("step-str", "started().step('0')"),
    ("step-none-mid-game", "started().step(None)"),
    ("step-bool", "started().step(True)"),
    ("step-np-float", "started().step(np.float32(1))"),
    ("step-np-int8-negative", "started().step(np.int8(-1))"),
    ("step-np-uint64-huge", "started().step(np.uint64(2**63 + 5))"),
    ("step-array", "started().step(np.array([0, 1]))"),
    ("step-illegal-id", "e = started(); m = e.last()[0]['action_mask']; e.step(int(np.flatnonzero(m == 0)[0]))"),
    ("reset-seed-negative", "c.ContainerEnv().reset(seed=-1)"),
    ("reset-seed-too-big", "c.ContainerEnv().reset(seed=2**64)"),
    ("reset-seed-float", "c.ContainerEnv().reset(seed=1.5)"),
    ("reset-seed-str", "c.ContainerEnv().reset(seed='1')"),
    ("reset-options-players", "c.ContainerEnv().reset(seed=1, options={'players': 5})"),
    ("reset-options-unknown", "c.ContainerEnv().reset(seed=1, options={'nosuch': 1})"),
    ("reset-options-not-dict", "c.ContainerEnv().reset(seed=1, options=[1, 2])"),
    ("observe-unknown-agent", "started().observe('player_9')"),
    ("observe-int-agent", "started().observe(3)"),
    ("observe-none", "started().observe(None)"),
    ("last-after-close", "e = started(); e.close(); e.last()"),
    ("step-after-close", "e = started(); e.close(); e.step(0)"),
    ("close-twice-then-observe", "e = started(); e.close(); e.close(); e.observe('player_0')"),
    ("vec-zero", "c.VectorEnv(num_envs=0)"),
    ("vec-negative", "c.VectorEnv(num_envs=-1)"),
    ("vec-huge", "c.VectorEnv(num_envs=1 << 20)"),
    ("vec-float", "c.VectorEnv(num_envs=2.5)"),
    ("vec-workers-negative", "c.VectorEnv(num_envs=2, workers=-1)"),
    ("vec-workers-huge", "c.VectorEnv(num_envs=2, workers=10**9)"),
    ("vec-workers-overflow", "c.VectorEnv(num_envs=2, workers=2**70)"),
    ("vec-seed-negative", "c.VectorEnv(num_envs=2, seed=-3)"),
    ("vec-step-wrong-shape", "v = c.VectorEnv(num_envs=2); v.step(np.zeros(3, dtype=np.int64))"),
    ("vec-step-float-dtype", "v = c.VectorEnv(num_envs=2); v.step(np.zeros(2, dtype=np.float64))"),
    ("vec-step-object-dtype", "v = c.VectorEnv(num_envs=2); v.step(np.array([None, None]))"),
    ("vec-step-illegal", "v = c.VectorEnv(num_envs=2); v.step(np.full(2, 240, dtype=np.int64))"),
    ("vec-step-negative", "v = c.VectorEnv(num_envs=2); v.step(np.full(2, -7, dtype=np.int64))"),
    ("vec-step-uint64-huge", "v = c.VectorEnv(num_envs=2); v.step(np.full(2, 2**64 - 1, dtype=np.uint64))"),
    ("vec-step-noncontiguous", "v = c.VectorEnv(num_envs=2); v.step(np.zeros((2, 2), dtype=np.int64)[:, 0] + 10**6)"),
    ("vec-step-list-str", "v = c.VectorEnv(num_envs=2); v.step(['a', 'b'])"),
    ("vec-observe-bad-game", "v = c.VectorEnv(num_envs=2); v.observe(99, 0)"),
    ("vec-observe-bad-seat", "v = c.VectorEnv(num_envs=2); v.observe(0, -1)"),
    ("vec-game-info-huge", "v = c.VectorEnv(num_envs=2); v.game_info(10**20)"),
    ("vec-after-close", "v = c.VectorEnv(num_envs=2); v.close(); v.step(np.zeros(2, dtype=np.int64))"),
    ("vec-rebound-arrays", "v = c.VectorEnv(num_envs=2); v.observations = None; import gc; gc.collect(); "
                           "v.step(np.zeros(2, dtype=np.int64) + 10**6)"),
    ("bot-unknown", "c.BotPolicy('nosuch')"),
    ("bot-garbage-file", "open('g.bot', 'wb').write(b'garbage' * 10); c.BotPolicy('g.bot')"),
    ("bot-truncated-file", "open('t.bot', 'wb').write(b'CNTRBOT1\\xff\\xff\\xff\\x7f{'); c.BotPolicy('t.bot')"),
    ("bot-bad-sims", "c.BotPolicy('ismcts:sims=-1')"),
    ("bot-seed-negative", "c.BotPolicy('random', seed=-1)"),
    ("bot-name-not-str", "c.BotPolicy(12)"),
    ("bot-closed-env", "b = c.BotPolicy('random'); e = started(); e.close(); b(e)"),
    ("bot-unstarted-env", "b = c.BotPolicy('random'); b(c.ContainerEnv())"),
    ("bot-table-unknown-bot", "v = c.VectorEnv(num_envs=2); c.BotTable(v, seats=[None, 'nosuch', None, None])"),
    ("bot-table-short-seats", "v = c.VectorEnv(num_envs=2); c.BotTable(v, seats=[None])"),
    ("bot-table-closed-vec", "v = c.VectorEnv(num_envs=2); t = c.BotTable(v, seats=[None, 'random', 'random', "
                             "'random']); v.close(); t.act(np.zeros(2, dtype=np.int64))"),
    ("score-truncated", "c.score_position(POS[:30])"),
    ("score-capital-key", "c.score_position(POS.replace('\"options\"', '\"Options\"'))"),
    ("score-dup-key", "c.score_position(POS.replace('{\"options\"', '{\"options\":{},\"options\"', 1))"),
    ("score-non-utf8", "c.score_position(b'\\xff\\xfe{}')"),
    ("score-int", "c.score_position(123)"),
    ("score-null", "c.score_position('null')"),
    ("score-deep-nesting", "c.score_position('[' * 200000 + ']' * 200000)"),
    ("score-nul-byte", "c.score_position(POS[:10] + '\\x00' + POS[10:])"),
    ("observe-position-bad-seat", "c.observe_position(POS, seat=9)"),
    ("observe-position-negative-seat", "c.observe_position(POS, seat=-1)"),
    ("observe-position-options-list", "c.observe_position('{\"options\": []}', seat=0)"),
    ("observe-position-players-99", "c.observe_position(POS.replace('\"players\":4', '\"players\":99'), seat=0)"),
    ("spec-players-9", "c.spec(players=9)"),
    ("game-seed-negative", "c.game_seed(-1, 0, 0)"),
    ("game-seed-huge-game", "c.game_seed(0, 2**70, 0)"),
    ("forked-child", "r = os.fork()\nif r == 0:\n    try:\n        c.ContainerEnv().reset(seed=1)\n"
                     "    except c.InternalError:\n        os._exit(5)\n    except Exception:\n        os._exit(0)\n"
                     "    os._exit(3)\n_, st = os.waitpid(r, 0)\nif os.WIFSIGNALED(st):\n"
                     "    print('child killed by signal', os.WTERMSIG(st)); sys.exit(6)\n"
                     "print('RAISED in the forked child' if os.WEXITSTATUS(st) == 0 else 'child exit %d' % "
                     "os.WEXITSTATUS(st))\nsys.exit(os.WEXITSTATUS(st))"),
    ("two-threads-vec", "v = c.VectorEnv(num_envs=64)\nerrs = []\ndef w():\n    for _ in range(200):\n        "
                        "try:\n            v.step(v.sample_legal(np.random.default_rng(0)))\n        except c.HandleError:\n"
                        "            errs.append(1)\nts = [threading.Thread(target=w) for _ in range(2)]\n"
                        "[t.start() for t in ts]; [t.join() for t in ts]\nexpect(lambda: (_ for _ in ()).throw("
                        "RuntimeError('done')))"),
]


def find_python(arg):
    cands = [arg] if arg else [os.path.join(REPO, ".venv", "bin", "python")]
    for py in cands:
        if not py or not (os.path.exists(py) or shutil.which(py)):
            continue
        r = subprocess.run([py, "-c", "import container_rl, numpy"], capture_output=True, cwd=G["root"])
        if r.returncode == 0:
            return py, None
        if arg:
            # the working tree's package (python/container_rl with its built library), copied
            # into the scratch directory so that a rebuild meanwhile cannot change it
            src = os.path.join(REPO, "python", "container_rl")
            if os.path.exists(os.path.join(src, "libcontainer.so")):
                dst = os.path.join(G["root"], "py", "container_rl")
                shutil.copytree(src, dst, ignore=shutil.ignore_patterns("bin", "__pycache__"), dirs_exist_ok=True)
                env = dict(os.environ, PYTHONPATH=os.path.join(G["root"], "py"))
                r = subprocess.run([py, "-c", "import container_rl, numpy"], capture_output=True, env=env)
                if r.returncode == 0:
                    return py, os.path.join(G["root"], "py")
    return None, None


def cases_python():
    for name, code in PY_CASES:
        def fn(d, code=code):
            body = code if "\n" in code else f"expect(lambda: exec({code!r}, globals()))"
            src = PY_PRELUDE + "\n" + body + "\n"
            env = base_env()
            if G.get("pypath"):
                env["PYTHONPATH"] = G["pypath"]
            t0 = time.monotonic()
            try:
                r = subprocess.run([G["python"], "-c", src], cwd=d, env=env, capture_output=True, timeout=60)
                rc, out, err, hung = r.returncode, r.stdout, r.stderr, False
            except subprocess.TimeoutExpired as e:
                rc, out, err, hung = None, e.stdout or b"", e.stderr or b"", True
            probs = []
            o, et = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
            if hung:
                probs.append("hang: no exit within 60s")
            elif rc < 0:
                probs.append(f"the interpreter was killed by signal {-rc}")
            elif rc == 5:
                probs.append(f"InternalError (a Go panic caught at the boundary): {o.strip()[:200]}")
            elif rc == 3:
                probs.append("no exception raised")
            elif rc == 6:
                probs.append(o.strip()[:200])
            elif rc != 0:
                probs.append(f"exit status {rc}: {et.strip().splitlines()[-1:]!r}")
            for m in ("panic", "goroutine ", "fatal error", "SIGSEGV"):
                if m in et:
                    probs.append(f"standard error holds {m!r}: {et[:200]!r}")
                    break
            return probs, o.strip().splitlines()[-1][:150] if o.strip() else f"exit {rc}"
        add(Case("python", name, kind="fn", fn=fn))
