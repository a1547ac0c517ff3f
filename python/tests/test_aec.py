"""The agent-by-agent env behaves like a PettingZoo AEC env."""

import random

import numpy as np
import pytest

import container_rl as crl
from conftest import random_game


def test_agents_and_spaces_describe_the_game():
    env = crl.ContainerEnv(players=3, modules="all")
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    assert env.agents == []
    env.reset(seed=4)
    assert env.agents == env.possible_agents and env.num_agents == 3 and env.max_num_agents == 3
    assert env.agent_selection in env.agents
    space = env.observation_space("player_1")
    assert space["observation"].shape == (crl.spec(players=3, modules="all")["size"],) and space["observation"].dtype == np.float32
    assert space["action_mask"].shape == (241,) and space["action_mask"].dtype == np.int8
    assert env.action_space("player_0").n == 241
    obs, reward, term, trunc, info = env.last()
    assert space.contains(obs), "the observation is outside its declared bounds"
    assert reward == 0.0 and not term and not trunc
    assert info["phase"] == "turn" and info["num_legal"] == int(obs["action_mask"].sum())
    env.close()


def test_full_game_ends_with_a_dead_step_per_agent_and_rewards_summing_to_one():
    env = crl.ContainerEnv(players=4)
    rnd = random.Random(0)
    env.reset(seed=9)
    dead = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert obs["action_mask"].sum() == 0
            dead.append((agent, reward))
            env.step(None)
            continue
        assert obs["action_mask"].sum() > 0
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rnd.randrange(len(legal))]))
    assert sorted(a for a, _ in dead) == env.possible_agents
    assert env.agents == [] and env.agent_selection is None
    # Win/loss: the winners share 1; last() reported each seat's final reward.
    assert abs(sum(r for _, r in dead) - 1.0) < 1e-6
    returns = env.episode_returns
    assert all(abs(returns[a] - r) < 1e-6 for a, r in dead)
    scores = env.game_info()["scores"]
    assert [s["winner"] for s in scores] == [returns[a] > 0 for a in env.possible_agents]
    with pytest.raises(crl.EpisodeOverError, match="episode is over"):
        env.step(0)


def test_last_reports_reward_since_the_agent_last_acted():
    # Dense cash-margin rewards arrive on every step; last() must give each seat what it
    # collected since its own previous action, as PettingZoo's _cumulative_rewards does.
    env = crl.ContainerEnv(players=3, dense=True, reward="cash-margin")
    env.reset(seed=2)
    rnd = random.Random(1)
    acc = {a: 0.0 for a in env.possible_agents}
    for _ in range(300):
        agent = env.agent_selection
        _, reward, term, trunc, _ = env.last()
        if term or trunc:
            break
        assert abs(reward - acc[agent]) < 1e-4
        acc[agent] = 0.0
        env.step(int(rnd.choice(env.legal_actions())))
        for a, r in env.rewards.items():
            acc[a] += r


def test_observe_gives_other_seats_their_own_view_and_no_mask():
    env = crl.ContainerEnv(players=4)
    env.reset(seed=3)
    me = env.agent_selection
    other = next(a for a in env.possible_agents if a != me)
    o_me, o_other = env.observe(me), env.observe(other)
    assert o_me["action_mask"].sum() > 0 and o_other["action_mask"].sum() == 0
    assert not np.array_equal(o_me["observation"], o_other["observation"])


def test_copy_observations_controls_aliasing():
    env = crl.ContainerEnv()
    env.reset(seed=1)
    kept = env.last()[0]["observation"]
    before = kept.copy()
    env.step(int(env.legal_actions()[0]))
    assert np.array_equal(kept, before), "a copied observation changed after step"
    fast = crl.ContainerEnv(copy_observations=False)
    fast.reset(seed=1)
    live = fast.last()[0]["observation"]
    fast.step(int(fast.legal_actions()[0]))
    assert np.array_equal(live, fast.last()[0]["observation"]), "the buffer view is not live"


def test_reset_seeds_and_options():
    env = crl.ContainerEnv()
    env.reset(seed=123)
    first = env.last()[0]["observation"].copy()
    env.reset(seed=123)
    assert np.array_equal(first, env.last()[0]["observation"])
    # Seedless resets continue the sequence game_seed(123, 0, k), k = 1, 2, ...
    env.reset()
    assert env.game_info()["seed"] == crl.game_seed(123, 0, 1)
    env.reset()
    assert env.game_info()["seed"] == crl.game_seed(123, 0, 2)
    env.reset(seed=5, options={"max_steps": 3})
    for _ in range(3):
        env.step(int(env.legal_actions()[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.game_info()["options"]["max_steps"] == 3


def test_many_random_games_finish_and_records_replay(root):
    import json
    env = crl.ContainerEnv(players=5, modules="trucks,luxury")
    rnd = random.Random(7)
    for seed in range(3):
        n = random_game(env, seed, rnd)
        assert n > 10
    rec = json.loads(env.record())
    assert rec["format"] == "container-game/1" and len(rec["moves"]) == n
    assert crl.score_position(env.record())[0]["total"] == env.game_info()["scores"][0]["total"]


def test_pettingzoo_module_level_constructor():
    e = crl.env(players=3)
    e.reset(seed=0)
    assert e.metadata["name"] == "container_v1"


def exact_rank(r, players):
    """r is a rank reward (n-1-2*pos)/(n-1) in float64, pos a position (ties: half ones)."""
    pos = round((1 - r) * (players - 1)) / 2
    return r == (players - 1 - 2 * pos) / (players - 1)


def test_final_rewards_are_exact_python_floats():
    # Go's reward buffers are float32; the final rewards come out as the fractions they are
    # (rank: ±1/3 with four players, not 0.3333333432674408), so they add up exactly.
    from container_rl._lib import exact_reward
    env = crl.ContainerEnv(players=4, reward="rank", length="short")
    seen = set()
    for seed in range(3):
        random_game(env, seed, random.Random(seed))
        returns = list(env.episode_returns.values())
        assert all(type(r) is float and exact_rank(r, 4) for r in returns), returns
        seen.update(returns)
    assert seen & {1 / 3, -1 / 3}, seen
    assert exact_reward(float(np.float32(1 / 3))) == 1 / 3 and 3 * (1 / 3) == 1
    assert exact_reward(float(np.float32(0.2))) == 0.2
    assert exact_reward(float(np.float32(0.0123))) == float(np.float32(0.0123))  # a shaped value stays


def test_last_at_the_end_gives_exact_final_rewards():
    env = crl.ContainerEnv(players=4, reward="rank", length="short")
    env.reset(seed=1)
    rnd = random.Random(1)
    finals = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            finals[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rnd.randrange(len(legal))]))
    assert len(finals) == 4 and all(exact_rank(r, 4) for r in finals.values()), finals
