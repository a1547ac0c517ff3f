"""Same seed and actions give the same observations as the Go env."""

import hashlib
import json
import os
import random

import numpy as np

import container_rl as crl

HERE = os.path.dirname(os.path.abspath(__file__))


def h(b):
    return hashlib.sha256(b).hexdigest()[:16]


def test_recorded_game_matches_the_go_env():
    # testdata/recorded-game.json was written by the Go test
    # capi/bridge TestRecordedGameMatchesTheGoEnv, playing env.Env directly with scripted
    # bots; it keeps per decision the decider, a hash of its observation (float32 bytes)
    # and of its legal list, and the action. Replaying the actions here must reproduce
    # every hash, the returns and the winners.
    with open(os.path.join(HERE, "testdata", "recorded-game.json")) as f:
        game = json.load(f)
    env = crl.ContainerEnv(**game["options"])
    env.reset(seed=game["seed"])
    for i, step in enumerate(game["steps"]):
        assert env.agent_selection == f"player_{step['agent']}", f"step {i}: decider"
        obs = env.last()[0]
        assert obs["observation"].dtype == np.float32
        assert h(obs["observation"].astype("<f4").tobytes()) == step["obs_sha256"], f"step {i}: observation"
        legal = np.flatnonzero(obs["action_mask"])
        assert h(",".join(str(a) for a in legal).encode()) == step["legal_sha256"], f"step {i}: legal list"
        env.step(step["action"])
    assert all(env.terminations.values())
    returns = env.episode_returns
    assert [returns[a] for a in env.possible_agents] == game["returns"]
    assert [s["winner"] for s in env.game_info()["scores"]] == game["winner"]


def trajectory(env, seed, steps, rnd_seed):
    rnd = random.Random(rnd_seed)
    env.reset(seed=seed)
    out = []
    for _ in range(steps):
        if env.agents == [] or any(env.terminations.values()):
            break
        obs = env.last()[0]
        out.append(obs["observation"].copy())
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rnd.randrange(len(legal))]))
    return out


def test_same_seed_and_actions_give_the_same_observations():
    a, b = crl.ContainerEnv(players=3), crl.ContainerEnv(players=3)
    ta, tb = trajectory(a, 77, 200, 1), trajectory(b, 77, 200, 1)
    assert len(ta) == len(tb) == 200
    assert all(np.array_equal(x, y) for x, y in zip(ta, tb))
    tc = trajectory(a, 78, 200, 1)
    assert not all(np.array_equal(x, y) for x, y in zip(ta, tc)), "another seed gave the same game"


def test_vector_env_games_follow_go_seeds_and_auto_reset():
    # Game i's k-th episode of a vector env started from seed s is the single game seeded
    # game_seed(s, i, k), as in Go's VecEnv; a finished game is reset in the same step.
    n, base = 4, 31
    vec = crl.VectorEnv(n, seed=base, workers=2, players=3, length="short", max_steps=60)
    envs = [crl.ContainerEnv(copy_observations=False, players=3, length="short", max_steps=60) for _ in range(n)]
    episodes = [0] * n
    for i, e in enumerate(envs):
        e.reset(seed=crl.game_seed(base, i, 0))
    rng = np.random.default_rng(0)
    resets = 0
    for step in range(150):
        for i, e in enumerate(envs):
            assert vec.agents[i] == e.possible_agents.index(e.agent_selection)
            assert np.array_equal(vec.observations[i], e.last()[0]["observation"]), f"step {step} game {i}"
            assert np.array_equal(vec.action_masks[i], e.last()[0]["action_mask"])
        actions = vec.sample_legal(rng)
        vec.step(actions)
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            ended = bool(vec.terminated[i] or vec.truncated[i])
            assert ended == (e.agents and (any(e.terminations.values()) or any(e.truncations.values())))
            if ended:
                rewards = [e.rewards[a] for a in e.possible_agents]
                assert np.allclose(vec.rewards[i], rewards)
                episodes[i] += 1
                resets += 1
                e.reset(seed=crl.game_seed(base, i, episodes[i]))
    assert resets >= n, "the test did not cover auto-resets"
    vec.close()
