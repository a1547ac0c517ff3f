"""MaskablePPO (sb3-contrib) learns through the Gymnasium env, and the evaluation reports
seat-rotated win rates with the same 95% Wilson intervals as `container eval`."""
import os
import sys

import numpy as np
import pytest

from conftest import ROOT, require


def test_wilson_matches_go_known_values():
    from container_rl.evaluation import Z95, wilson
    # The cases of env/eval's TestWilson_KnownValues (Go), same tolerance.
    cases = [(50, 100, 0.403832, 0.596168), (0, 10, 0, 0.277533), (10, 10, 0.722467, 1),
             (1, 2, 0.094531, 0.905469), (25, 100, 0.175452, 0.343045)]
    for wins, n, lo, hi in cases:
        got = wilson(wins, n, Z95)
        assert abs(got[0] - lo) < 1e-5 and abs(got[1] - hi) < 1e-5, (wins, n, got)
    assert wilson(0, 0) == (0.0, 1.0)
    assert Z95 == 1.959963984540054  # eval.Z95


def test_evaluate_rotates_the_seat_and_counts_every_game():
    require("gymnasium")
    from container_rl.evaluation import evaluate
    rng = np.random.default_rng(3)
    s = evaluate(lambda obs, mask: int(rng.choice(np.flatnonzero(mask))), ["random"] * 3, games=8, seed=5)
    r = s["learner"]
    assert s["games"] == 8 and r["games"] == 8 and s["steps"] > 8
    assert [x["games"] for x in r["per_seat"]] == [2, 2, 2, 2]
    assert abs(sum(x["wins"] for x in r["per_seat"]) - r["wins"]) < 1e-9
    assert r["ci_lo"] <= r["rate"] <= r["ci_hi"]
    assert 1 <= r["mean_rank"] <= 4


def test_evaluate_refuses_unbalanced_seats():
    require("gymnasium")
    import container_rl as crl
    from container_rl.evaluation import evaluate
    for games in (0, 6, -4, 2.0, True):
        with pytest.raises(crl.InvalidArgumentError, match="multiple of the 4 players"):
            evaluate(lambda o, m: 0, ["random"] * 3, games=games)


def test_maskable_ppo_beats_the_random_policy_against_random_bots():
    """8192 learner decisions of MaskablePPO (seed 1, one torch thread: about 25 CPU-seconds),
    then 40 seat-rotated games each for the trained policy and a uniformly random legal
    policy against three random bots. Measured on 2026-12-05 (torch 1.13, sb3 2.9.2): 70.6%
    [55.2, 82.4] against 30.6% [18.6, 46.1]; an untrained policy is near parity (25%) plus
    its share of the random bots' frequent shared wins."""
    require("sb3_contrib")
    require("torch")
    sys.path.insert(0, os.path.join(ROOT, "python", "examples"))
    try:
        import train_maskable_ppo
    finally:
        sys.path.pop(0)
    res = train_maskable_ppo.main(["--timesteps", "8192", "--eval", "random,random,random", "--eval-games", "40",
                                   "--baseline", "--seed", "1", "-q"])
    assert res["timesteps"] >= 8192
    assert len(res["curve"]) >= 3
    trained = next(e for e in res["eval"] if "policy" not in e)["learner"]
    baseline = next(e for e in res["eval"] if e.get("policy") == "random")["learner"]
    assert trained["rate"] >= 0.5, trained
    assert trained["ci_lo"] > baseline["rate"], (trained, baseline)
    assert trained["rate"] - baseline["rate"] >= 0.2, (trained, baseline)
