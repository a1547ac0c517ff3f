"""The PettingZoo class: PettingZoo's own tests, the classic-game wrapper stack, delegation to
ContainerEnv, and bad input."""

import subprocess
import sys
import warnings

import numpy as np
import pytest

from conftest import random_game, require

require("pettingzoo")
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.test import api_test, performance_benchmark, seed_test  # noqa: E402

import container_rl as crl  # noqa: E402
from container_rl import pettingzoo as czoo  # noqa: E402

# Every player count with the base game, Classic and all modules.
CONFIGS = [dict(players=p, **extra) for p in (3, 4, 5)
           for extra in ({}, {"rules": "classic"}, {"modules": "all"})]


def ids(c):
    return "-".join(f"{k}={v}" for k, v in c.items())


@pytest.mark.parametrize("options", CONFIGS, ids=ids)
def test_pettingzoo_api_test(options):
    with warnings.catch_warnings():
        # PettingZoo warns that Dict observations are not Box/Discrete, as for its classic games.
        warnings.simplefilter("ignore", UserWarning)
        api_test(czoo.env(**options), num_cycles=300)
        api_test(czoo.raw_env(**options), num_cycles=300)


@pytest.mark.parametrize("options", CONFIGS, ids=ids)
def test_pettingzoo_seed_test(options):
    seed_test(lambda: czoo.env(**options), num_cycles=200)


# performance_benchmark always runs for 5 s: one configuration per player count, covering the
# base game, Classic and all modules between them.
@pytest.mark.parametrize("options", [CONFIGS[0], CONFIGS[4], CONFIGS[8]], ids=ids)
def test_pettingzoo_performance_benchmark(options, capsys):
    performance_benchmark(czoo.env(**options))
    out = capsys.readouterr().out
    turns = float(out.split(" turns per second")[0].split()[-1])
    assert turns > 100, out


def test_max_cycles_truncates_every_agent():
    # PettingZoo's max_cycles_test needs a parallel_env: Container is turn-based with a decider
    # that is not round-robin (bids, loan offers), so it is not parallelizable. The same
    # property is checked here: max_cycles=4 ends the game after 4 * players decisions with
    # every agent truncated, each then stepped with None.
    env = czoo.env(players=3, max_cycles=4)
    env.reset(seed=2)
    decisions, dead = 0, []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and not term
            dead.append(agent)
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        decisions += 1
    assert decisions == 12
    assert sorted(dead) == ["player_0", "player_1", "player_2"]
    with pytest.raises(crl.InvalidArgumentError, match="max_cycles"):
        czoo.raw_env(max_cycles=0)
    with pytest.raises(crl.InvalidArgumentError, match="max_cycles and max_steps"):
        czoo.raw_env(max_cycles=3, max_steps=9)


def test_metadata_spaces_and_class():
    env = czoo.raw_env(players=4, modules="all")
    assert isinstance(env, AECEnv)
    assert env.metadata["name"] == "container_v0"
    assert env.metadata["render_modes"] == ["ansi", "human"] and env.metadata["is_parallelizable"] is False
    import gymnasium
    space = env.observation_space("player_2")
    assert isinstance(space, gymnasium.spaces.Dict)
    assert space["observation"].shape == (env.core.obs_size,) and space["observation"].dtype == np.float32
    assert space["action_mask"].dtype == np.int8 and space["action_mask"].shape == (241,)
    assert env.action_space("player_0") == gymnasium.spaces.Discrete(241)
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    assert space.contains(obs)
    with pytest.raises(crl.InvalidArgumentError, match="player_9"):
        env.observation_space("player_9")


def test_plays_exactly_as_container_env():
    """No logic of its own: the PettingZoo class and ContainerEnv give the same game."""
    import random
    a, b = czoo.raw_env(players=5, rules="classic", dense=True, reward="cash-margin"), crl.ContainerEnv(
        players=5, rules="classic", dense=True, reward="cash-margin")
    for env in (a, b):
        env.reset(seed=7)
    ra, rb = random.Random(4), random.Random(4)
    for agent_a, agent_b in zip(a.agent_iter(), b.agent_iter()):
        assert agent_a == agent_b
        la, lb = a.last(), b.last()
        assert np.array_equal(la[0]["observation"], lb[0]["observation"])
        assert la[1:4] == lb[1:4]
        assert a.rewards == b.rewards and a._cumulative_rewards == b._cumulative_rewards
        if la[2] or la[3]:
            a.step(None)
            b.step(None)
            continue
        legal = np.flatnonzero(la[0]["action_mask"])
        a.step(int(legal[ra.randrange(len(legal))]))
        b.step(int(legal[rb.randrange(len(legal))]))
    assert a.core.episode_returns == b.episode_returns


def test_render_ansi_is_the_text_board():
    env = czoo.env(players=3, render_mode="ansi")
    env.reset(seed=3)
    board = env.render()
    assert isinstance(board, str) and "Decision:" in board and "p1" in board
    quiet = czoo.env(players=3)
    quiet.reset(seed=3)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert quiet.render() is None
    with pytest.raises(crl.InvalidArgumentError, match="render_mode: 'rgb_array'; want None, 'ansi' or 'human'"):
        czoo.raw_env(render_mode="rgb_array")


def test_render_human_prints_the_board(capsys):
    # As PettingZoo's classic games: the board is printed after reset and every step.
    env = czoo.env(players=3, render_mode="human")
    env.reset(seed=3)
    board = capsys.readouterr().out
    assert "Decision:" in board and "p1" in board
    assert env.render() is None and capsys.readouterr().out == board
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert "Decision:" in capsys.readouterr().out
    ansi = czoo.env(players=3, render_mode="ansi")
    ansi.reset(seed=3)
    assert ansi.render().strip() == board.strip()


def test_pettingzoo_render_test():
    from pettingzoo.test import render_test
    render_test(lambda render_mode=None: czoo.env(players=3, render_mode=render_mode))
    render_test(czoo.env)


@pytest.mark.parametrize("make", [czoo.raw_env, czoo.env], ids=["raw_env", "env"])
def test_numpy_integer_actions_are_action_ids(make):
    # Discrete(241) contains np.array(k) and np.int64(k); libraries hand either back.
    env = make(players=3)
    env.reset(seed=2)
    for convert in (np.array, np.int64, np.int32, np.uint8, lambda k: np.array(k, dtype=np.int16)):
        obs, *_ = env.last()
        legal = int(np.flatnonzero(obs["action_mask"])[0])
        assert env.action_space(env.agent_selection).contains(convert(legal))
        env.step(convert(legal))
    if make is czoo.env:
        return  # PettingZoo's AssertOutOfBoundsWrapper refuses what Discrete does not contain
    obs, *_ = env.last()
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    for bad, words in [(float(legal), "got float"), (True, "got bool"), (np.bool_(True), "got bool"),
                       (np.array([legal]), r"shape \(1,\)"), (np.array(float(legal)), "dtype float64")]:
        with pytest.raises(crl.InvalidArgumentError, match=words) as e:
            env.step(bad)
        assert "\n" not in str(e.value)
    env.step(np.array(legal))  # nothing changed: the game goes on


def test_illegal_move_terminates_through_the_wrapper_and_raises_bare():
    env = czoo.env(players=3)
    env.reset(seed=5)
    mover = env.agent_selection
    obs = env.last()[0]
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[mover] == -1.0
    n = 0
    for agent in env.agent_iter():
        assert env.last()[2]
        env.step(None)
        n += 1
    assert n == 3
    env.reset(seed=5)  # a new game after the wrapper's ending
    assert not any(env.terminations.values())
    assert random_game(env, 6, __import__("random").Random(1)) > 10

    raw = czoo.raw_env(players=3)
    raw.reset(seed=5)
    with pytest.raises(crl.IllegalActionError, match="illegal action"):
        raw.step(illegal)


def test_bad_input_raises_the_package_errors():
    with pytest.raises(crl.InvalidArgumentError, match='unknown option "bogus"'):
        czoo.env(bogus=1)
    with pytest.raises(crl.InvalidArgumentError, match='option "players"'):
        czoo.raw_env(players="four")
    raw = czoo.raw_env(players=3)
    raw.reset(seed=1)
    with pytest.raises(crl.InvalidArgumentError, match="want an int action id"):
        raw.step("3")
    with pytest.raises(crl.InvalidArgumentError, match='unknown option "nope"'):
        raw.reset(seed=1, options={"nope": 1})
    random_game(raw, 2, __import__("random").Random(0))
    with pytest.raises(crl.EpisodeOverError):
        raw.step(0)
    wrapped = czoo.env(players=3)
    with pytest.raises(Exception, match="reset"):
        wrapped.step(0)  # OrderEnforcingWrapper: step before reset


def test_import_container_rl_needs_no_framework():
    code = ("import sys, container_rl; "
            "assert 'pettingzoo' not in sys.modules, 'pettingzoo imported'; "
            "assert 'container_rl.gymnasium' not in sys.modules; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr



def test_final_rewards_are_exact_python_floats():
    # The step that ends the game hands out the final rewards as exact fractions (rank with
    # four players: ±1/3, not float32's 0.3333333432674408).
    env = czoo.raw_env(players=4, reward="rank", length="short")
    seen = set()
    for seed in range(3):
        env.reset(seed=seed)
        rnd = __import__("random").Random(seed)
        final = None
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                final = final or dict(env.rewards)
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rnd.randrange(len(legal))]))
        for r in final.values():
            assert r == (3 - 2 * (round((1 - r) * 3) / 2)) / 3, final
        seen.update(final.values())
    assert seen & {1 / 3, -1 / 3}, seen
