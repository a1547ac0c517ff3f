"""RLlib's PPO (new API stack) trains on the PettingZoo env through the example, and the
trained policy is evaluated against valuers with Wilson intervals.

Needs ``ray[rllib]`` and torch, which pin another Gymnasium than Stable-Baselines3 does, so
they live in a venv of their own (docs/SCALE.md, "Multi-agent training with RLlib"). Without
them the module is skipped, unless ``CONTAINER_RL_REQUIRE_RLLIB=1`` (the CI step that builds
that venv sets it), which turns the skip into a failure.
"""

import math
import os
import sys

import numpy as np
import pytest

if os.environ.get("CONTAINER_RL_REQUIRE_RLLIB") == "1":
    import ray.rllib  # noqa: F401
else:
    pytest.importorskip("ray.rllib")
    pytest.importorskip("torch")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import rllib_ppo  # noqa: E402


def test_wilson_matches_container_eval():
    # container eval prints 10 wins of 10 games as [72.2%, 100.0%] and 0 of 10 as [0.0%, 27.8%].
    lo, hi = rllib_ppo.wilson(10, 10)
    assert round(100 * lo, 1) == 72.2 and math.isclose(hi, 1.0)
    lo, hi = rllib_ppo.wilson(0, 10)
    assert lo == 0.0 and round(100 * hi, 1) == 27.8


def test_multi_agent_env_is_turn_based_and_pays_every_seat():
    env = rllib_ppo.ContainerMultiAgentEnv({"players": 3, "seed": 4})
    obs, _ = env.reset(seed=4)
    (agent, o), = obs.items()
    assert set(o) == {"observations", "action_mask"} and o["action_mask"].sum() >= 1
    assert env.observation_spaces[agent].contains(o)
    rnd = np.random.default_rng(0)
    totals = {a: 0.0 for a in env.possible_agents}
    for _ in range(100_000):
        (agent, o), = obs.items()
        action = int(rnd.choice(np.flatnonzero(o["action_mask"])))
        obs, rew, term, trunc, _ = env.step({agent: action})
        assert set(rew) == set(env.possible_agents)
        for a, r in rew.items():
            totals[a] += r
        if term["__all__"] or trunc["__all__"]:
            break
        assert len(obs) == 1
    else:
        pytest.fail("the game did not end")
    assert set(obs) == set(env.possible_agents)  # every seat sees the end
    assert type(env.aec).__name__ == "raw_env"  # the PettingZoo env, not the bare core
    final = env.aec.core.episode_returns
    for a in env.possible_agents:
        assert math.isclose(totals[a], final[a], abs_tol=1e-6)


def test_short_training_run_and_evaluation(tmp_path):
    res = rllib_ppo.main(["--ci", "--players", "3", "--json", str(tmp_path / "r.json"),
                          "--curve-every", "0.001", "--curve-games", "3"])
    assert res["curve"][-1]["env_steps"] >= 2000
    for point in res["curve"]:  # every iteration took longer than the 0.06 s between measurements
        cv = point["vs_valuers"]
        assert cv["games"] == 3 and 0 <= cv["wins"] <= 3 and cv["ci95"][0] <= cv["win_rate"] <= cv["ci95"][1]
    ev = res["eval"]
    assert ev["games"] == 8 and 0 <= ev["wins"] <= 8
    lo, hi = ev["ci95"]
    assert 0.0 <= lo <= ev["win_rate"] <= hi <= 1.0
    assert (tmp_path / "r.json").exists()


@pytest.mark.parametrize("flags, words", [
    (["--json", "{existing}"], "exists"),
    (["--json", "{missing}/r.json"], "no such directory"),
    (["--batch", "0"], "--batch must be at least 1"),
    (["--minutes", "nan"], "--minutes must be a positive number"),
    (["--curve-every", "-1"], "--curve-every zero or more"),
    (["--players", "9"], "--players 9"),
    (["--reward", "nosuch"], "nosuch"),
    (["--width", "100000000"], "--width must be at most 4096"),
])
def test_bad_flags_are_refused_before_ray_starts(tmp_path, capsys, flags, words):
    existing = tmp_path / "kept.json"
    existing.write_text("not ours")
    flags = [f.format(existing=existing, missing=tmp_path / "nope") for f in flags]
    with pytest.raises(SystemExit) as e:
        rllib_ppo.main(flags)
    assert e.value.code == 2
    assert words in capsys.readouterr().err
    assert existing.read_text() == "not ours"
