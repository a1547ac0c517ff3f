"""The Gymnasium single-agent env and its vector form: gymnasium's env checker, registration,
Go bots as opponents (no Python round trip), seats, vector wrappers, bad input."""

import functools
import warnings

import numpy as np
import pytest

from conftest import require

gym = require("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import container_rl as crl  # noqa: E402
from container_rl import aec, game_seed  # noqa: E402
from container_rl.gymnasium import ContainerGymEnv, ContainerVectorEnv  # noqa: E402

ID = "container_rl/Container-v0"


def play_episode(env, seed, rng):
    """Random legal actions from info["action_mask"]; returns (learner steps, total reward, infos)."""
    obs, info = env.reset(seed=seed)
    steps, total, infos = 0, 0.0, [info]
    while True:
        mask = info["action_mask"]
        assert np.array_equal(mask.astype(bool), env.unwrapped.action_masks())
        legal = np.flatnonzero(mask)
        assert len(legal) > 0
        obs, r, term, trunc, info = env.step(int(rng.choice(legal)))
        assert env.observation_space.contains(obs)
        steps += 1
        total += r
        infos.append(info)
        if term or trunc:
            return steps, total, infos, term, trunc


@pytest.mark.parametrize("options", [dict(players=3, opponents=["valuer", "random"]),
                                     dict(players=4, rules="classic", opponents=["default", "valuer", "random"]),
                                     dict(players=5, modules="all", render_mode="ansi")],
                         ids=["3p", "4p-classic-default-bot", "5p-all-modules"])
def test_gymnasium_check_env(options):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings count as failures
        check_env(gym.make(ID, illegal_action="terminate", **options).unwrapped)


def test_make_with_options_plays_whole_games_against_go_bots():
    env = gym.make(ID, players=4, opponents=["valuer", "default", "random"], seat=2, reward="rank")
    assert isinstance(env, ContainerGymEnv)  # no wrappers: env.action_masks() works on what make() returns
    assert env.observation_space.shape == (crl.spec(players=4)["size"],) and env.action_space.n == len(crl.action_names())
    env.reset(seed=9)
    assert env.action_masks().dtype == bool and env.action_masks().any()
    rng = np.random.default_rng(0)
    for seed in (1, 2):
        steps, total, infos, term, trunc = play_episode(env, seed, rng)
        assert term and not trunc
        assert all(i["seat"] == 2 for i in infos)
        assert sum(i["opponent_moves"] for i in infos) > steps  # three bots move more than one learner
        core = env.unwrapped.core
        assert total == pytest.approx(core.episode_returns["player_2"])
        assert core.game_info()["scores"] is not None
    with pytest.raises(crl.EpisodeOverError, match="episode is over"):
        env.step(0)


def test_seat_rotates_per_episode_and_replays_with_the_same_seed():
    env = ContainerGymEnv(players=3, opponents=["random", "random"])
    seats = []
    obs0, _ = env.reset(seed=10)
    seats.append(env.seat)
    for _ in range(4):
        env.reset()
        seats.append(env.seat)
    assert seats == [1, 2, 0, 1, 2]  # seed 10: seat 10 mod 3, then one further per episode
    rng1, rng2 = np.random.default_rng(3), np.random.default_rng(3)
    a = play_episode(env, 10, rng1)
    b = play_episode(env, 10, rng2)
    assert a[0] == b[0] and a[1] == b[1]  # same seed, same actions: same game, bots included
    assert [i["opponent_moves"] for i in a[2]] == [i["opponent_moves"] for i in b[2]]


def test_opponents_move_inside_go_one_call_per_step(monkeypatch):
    """A learner's step is one call into the library however many bot moves follow."""
    env = ContainerGymEnv(players=5, opponents=["valuer"] * 4, seat=0)
    env.reset(seed=4)
    calls = []
    real = aec.lib

    class Counting:
        def __getattr__(self, name):
            calls.append(name)
            return getattr(real, name)

    monkeypatch.setattr(aec, "lib", Counting())
    rng = np.random.default_rng(1)
    info = env._info()
    steps = moves = 0
    while True:
        _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        steps += 1
        moves += info["opponent_moves"]
        if term or trunc or steps == 60:
            break
    assert moves >= 4 * 10
    assert calls.count("ctr_env_step_play") == steps
    assert len([c for c in calls if c.startswith("ctr_")]) <= steps + 1  # + observe at the end


def test_sync_vector_env():
    envs = gym.vector.SyncVectorEnv([functools.partial(ContainerGymEnv, players=3, opponents=["valuer", "random"], max_steps=90)
                                     for _ in range(3)])
    obs, info = envs.reset(seed=1)
    assert obs.shape == (3, crl.spec(players=3)["size"]) and info["action_mask"].shape == (3, len(crl.action_names()))
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        obs, r, term, trunc, info = envs.step(actions)
        ended += int(np.sum(term | trunc))
    assert ended >= 1
    envs.close()


def test_async_vector_env_with_spawn():
    # The Go runtime does not survive fork(): AsyncVectorEnv needs the spawn (or forkserver)
    # start method. make_vec passes it through vector_kwargs.
    envs = gym.make_vec(ID, num_envs=2, vectorization_mode="async", vector_kwargs={"context": "spawn"},
                        players=3, opponents=["valuer", "random"])
    obs, info = envs.reset(seed=3)
    assert obs.shape == (2, crl.spec(players=3)["size"])
    for _ in range(20):
        actions = np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in info["action_mask"]])
        obs, r, term, trunc, info = envs.step(actions)
    envs.close()


def test_vector_env_games_are_single_envs():
    """Game i of ContainerVectorEnv plays as ContainerGymEnv reset with game_seed(seed, i, k)."""
    n, seed = 3, 21
    before = crl.open_handles()
    vec = ContainerVectorEnv(n, players=4, opponents=["valuer", "random", "shipper"], seat=1, seed=seed, workers=2,
                             max_steps=80)
    singles = [ContainerGymEnv(players=4, opponents=["valuer", "random", "shipper"], seat=1, max_steps=80)
               for _ in range(n)]
    episode = [0] * n
    obs, info = vec.reset()
    single_obs = [s.reset(seed=game_seed(seed, i, 0))[0] for i, s in enumerate(singles)]
    rng = np.random.default_rng(5)
    ends = 0
    for step in range(120):
        for i in range(n):
            assert np.array_equal(obs[i], single_obs[i]), (step, i)
            assert np.array_equal(info["action_mask"][i], singles[i]._core._mask)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, rew, term, trunc, info = vec.step(actions)
        for i, s in enumerate(singles):
            o, r, te, tr, _ = s.step(int(actions[i]))
            assert rew[i] == pytest.approx(r) and term[i] == te and trunc[i] == tr
            if te or tr:
                assert info["_final_obs"][i]
                assert np.array_equal(info["final_obs"][i], o)  # the learner's view of the final position
                ends += 1
                episode[i] += 1
                o, _ = s.reset(seed=game_seed(seed, i, episode[i]))
            single_obs[i] = o
    assert ends >= n
    assert vec.game_info(0)["episodes"] == episode[0]
    vec.close()
    for s in singles:
        s.close()
    assert crl.open_handles() == before


def test_vector_env_via_make_vec_and_rotation():
    vec = gym.make_vec(ID, num_envs=4, vectorization_mode="vector_entry_point", players=4)
    obs, info = vec.reset(seed=2)
    assert list(info["seat"]) == [0, 1, 2, 3]
    assert isinstance(vec.unwrapped, gym.vector.VectorEnv)
    assert vec.unwrapped.action_masks().dtype == bool
    vec.close()


def test_bad_input_raises_the_package_errors():
    with pytest.raises(crl.InvalidArgumentError, match='unknown option "bogus"'):
        gym.make(ID, bogus=3)
    with pytest.raises(crl.InvalidArgumentError, match="2 bots for 4 players"):
        ContainerGymEnv(players=4, opponents=["valuer", "valuer"])
    with pytest.raises(crl.UnknownBotError):
        ContainerGymEnv(players=3, opponents=["valuer", "nosuchbot"])
    with pytest.raises(crl.InvalidArgumentError, match="seat"):
        ContainerGymEnv(players=3, seat=3)
    with pytest.raises(crl.InvalidArgumentError, match="opponents"):
        ContainerGymEnv(opponents="valuer")
    with pytest.raises(crl.InvalidArgumentError, match="illegal_action"):
        ContainerGymEnv(illegal_action="ignore")
    for bad in (True, 2.5, "4"):
        with pytest.raises(crl.InvalidArgumentError, match="players"):
            ContainerGymEnv(players=bad)
    for bad in (2, 10 ** 30, -1):
        with pytest.raises(crl.InvalidArgumentError):
            ContainerGymEnv(players=bad)
    with pytest.raises(crl.InvalidArgumentError, match="NUL"):
        ContainerGymEnv(players=3, opponents=["valuer", "val\0uer"])
    with pytest.raises(crl.InvalidArgumentError, match="num_envs"):
        ContainerVectorEnv(10 ** 7, players=3)
    env = ContainerGymEnv(players=3, opponents=["random", "random"], seat=0)
    with pytest.raises(crl.EpisodeOverError, match="reset"):
        env.step(0)
    for bad in ("x", -1, 2 ** 64, 1.5):
        with pytest.raises(crl.InvalidArgumentError, match="seed"):
            env.reset(seed=bad)
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = obs.copy()
    with pytest.raises(crl.IllegalActionError, match="illegal action"):
        env.step(illegal)
    for bad, exc in [(1.5, crl.InvalidArgumentError), ("2", crl.InvalidArgumentError),
                     (None, crl.InvalidArgumentError), (2 ** 70, crl.IllegalActionError)]:
        with pytest.raises(exc):
            env.step(bad)
    assert np.array_equal(before, env.unwrapped._core._obs)
    terminating = ContainerGymEnv(players=3, opponents=["random", "random"], illegal_action="terminate")
    terminating.reset(seed=1)
    _, r, term, trunc, info = terminating.step(illegal)
    assert term and r == -1.0 and info["illegal_action"]
    vec = ContainerVectorEnv(2, players=3, opponents=["random", "random"])
    with pytest.raises(crl.IllegalActionError):
        vec.step(np.array([illegal, illegal]))
    with pytest.raises(crl.InvalidArgumentError, match="shape"):
        vec.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(crl.InvalidArgumentError, match="dtype"):
        vec.step(np.zeros(2, dtype=np.float32))
    with pytest.raises(crl.InvalidArgumentError, match="opponents"):
        ContainerVectorEnv(2, players=3, opponents=["random"])


def test_seeded_resets_rotate_the_seat_too():
    # An evaluation loop over seeds visits every seat (seat = seed mod players), and the same
    # seed always gives the same seat and game.
    env = ContainerGymEnv(players=3, opponents=["random", "random"])
    seats = []
    for seed in range(6):
        _, info = env.reset(seed=seed)
        assert info["seat"] == env.seat
        seats.append(env.seat)
    assert seats == [0, 1, 2, 0, 1, 2]
    env.reset(seed=4)
    assert env.seat == 1
    env.reset(seed=2 ** 64 - 1)
    assert env.seat == (2 ** 64 - 1) % 3
    fixed = ContainerGymEnv(players=3, opponents=["random", "random"], seat=2)
    assert {fixed.reset(seed=s)[1]["seat"] for s in range(4)} == {2}


@pytest.mark.parametrize("illegal_action", ["raise", "terminate"])
def test_numpy_integer_actions_are_action_ids(illegal_action):
    # Discrete(241) contains np.array(k) and np.int64(k); libraries hand either back.
    env = ContainerGymEnv(players=3, opponents=["random", "random"], seat=0, illegal_action=illegal_action)
    _, info = env.reset(seed=2)
    for convert in (np.array, np.int64, np.int32, np.uint8, lambda k: np.array(k, dtype=np.int16)):
        legal = int(np.flatnonzero(info["action_mask"])[0])
        _, r, term, trunc, info = env.step(convert(legal))
        assert not info.get("illegal_action"), f"{convert}: the legal move {legal} was taken as illegal"
        if term or trunc:
            _, info = env.reset(seed=3)


@pytest.mark.parametrize("illegal_action", ["raise", "terminate"])
def test_non_integer_actions_are_refused_in_one_line(illegal_action):
    env = ContainerGymEnv(players=3, opponents=["random", "random"], seat=0, illegal_action=illegal_action)
    obs, info = env.reset(seed=2)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    for bad, words in [(float(legal), "got float"), (True, "got bool"), (np.bool_(True), "got bool"),
                       (np.array([legal]), r"shape \(1,\)"), (np.array(float(legal)), "dtype float64"),
                       (np.zeros((2, 2), dtype=np.int64), r"shape \(2, 2\)"), ("3", "got str")]:
        with pytest.raises(crl.InvalidArgumentError, match=words) as e:
            env.step(bad)
        assert "\n" not in str(e.value)
    _, _, term, _, info = env.step(np.array(legal))  # nothing changed: the episode goes on
    assert not info.get("illegal_action")


def test_render_human_prints_the_board(capsys):
    env = gym.make(ID, players=3, opponents=["random", "random"], render_mode="human")
    _, info = env.reset(seed=1)
    first = capsys.readouterr().out
    assert "cash" in first.lower() and env.render() is None
    assert capsys.readouterr().out == first  # render() prints the same board again
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert capsys.readouterr().out.strip()
    ansi = ContainerGymEnv(players=3, opponents=["random", "random"], render_mode="ansi")
    ansi.reset(seed=1)
    assert ansi.render().strip() == first.strip()
    env.close()


def test_async_vector_env_with_fork_says_to_use_spawn():
    # Go cannot run in a process forked after it was loaded. The worker's error reaches the
    # parent as the package's exception (not as BrokenPipeError), naming the fix.
    env_fn = functools.partial(ContainerGymEnv, players=3, opponents=["valuer", "random"])
    envs = gym.vector.AsyncVectorEnv([env_fn, env_fn], context="fork")
    try:
        with pytest.raises(crl.ContainerError, match="context='spawn'"):
            envs.reset(seed=3)
    finally:
        envs.close(terminate=True)


def test_final_reward_is_an_exact_python_float():
    env = ContainerGymEnv(players=4, opponents=["random"] * 3, reward="rank", length="short")
    rewards = []
    for seed in range(4):
        rewards.append(play_episode(env, seed, np.random.default_rng(seed))[1])
    for r in rewards:
        assert type(r) is float and r == (3 - 2 * (round((1 - r) * 3) / 2)) / 3, rewards
    assert set(rewards) & {1 / 3, -1 / 3}, rewards  # values float32 cannot hold were met
