"""Masks equal the legal lists; observations carry no hidden information."""

import json
import os
import random

import numpy as np
import pytest

import container_rl as crl


def test_mask_equals_the_legal_list_and_everything_else_is_refused():
    env = crl.ContainerEnv(players=4, modules="all")
    rnd = random.Random(3)
    env.reset(seed=12)
    checked_illegal = 0
    for step in range(400):
        if any(env.terminations.values()):
            break
        mask = env.last()[0]["action_mask"]
        legal = env.legal_actions()
        assert set(np.flatnonzero(mask)) == set(legal.tolist())
        assert mask.dtype == np.int8 and set(np.unique(mask)) <= {0, 1}
        if step % 20 == 0:
            for a in rnd.sample([a for a in range(241) if mask[a] == 0], 3):
                with pytest.raises(crl.IllegalActionError, match="illegal"):
                    env.step(a)
                checked_illegal += 1
        env.step(int(legal[rnd.randrange(len(legal))]))
    assert checked_illegal > 0


def test_vector_env_masks_equal_legal_rows():
    vec = crl.VectorEnv(8, seed=2, players=5)
    rng = np.random.default_rng(1)
    for _ in range(100):
        for i in range(vec.num_envs):
            k = vec.num_legal[i]
            row = vec.legal[i]
            assert np.array_equal(np.flatnonzero(vec.action_masks[i]), row[:k])
            assert (row[k:] == -1).all()
            assert np.array_equal(vec.action_masks[i], vec.action_masks_f32[i].astype(np.int8))
        vec.step(vec.sample_legal(rng))
    vec.close()


def features(spec, name):
    f = next(f for f in spec["features"] if f["name"] == name)
    return slice(f["offset"], f["offset"] + f["size"])


def test_opponents_scoring_cards_never_appear_in_observations():
    env = crl.ContainerEnv(players=4)
    spec = env.spec
    own, others = features(spec, "p0.card"), [features(spec, f"p{k}.card") for k in (1, 2, 3)]
    rnd = random.Random(5)
    env.reset(seed=21)
    for step in range(300):
        if any(env.terminations.values()):
            break
        for agent in env.possible_agents:
            obs = env.observe(agent)["observation"]
            assert obs[own].sum() == 1, "a seat must see its own card"
            for sl in others:
                assert obs[sl].sum() == 0, f"step {step}: {agent} sees an opponent's card"
        # The oracle (for critics) does see them, so the check above can fail.
        assert all(env.oracle(env.agent_selection)[sl].sum() == 1 for sl in others)
        env.step(int(rnd.choice(env.legal_actions())))


def test_observation_does_not_change_with_an_opponents_hidden_card(root):
    with open(os.path.join(root, "env", "rules", "testdata", "positions", "opening-4p.json")) as f:
        pos = json.load(f)
    cards = [p.get("card", i) for i, p in enumerate(pos["players"])]
    base, _ = crl.observe_position(pos, 0)
    oracle_changed = False
    # Swap two opponents' cards: seat 0's observation must stay the same.
    swapped = json.loads(json.dumps(pos))
    swapped["players"][1]["card"], swapped["players"][2]["card"] = cards[2], cards[1]
    alt, _ = crl.observe_position(swapped, 0)
    assert np.array_equal(base, alt), "seat 0's observation depends on opponents' hidden cards"
    # Seat 1's observation does change (its own card moved), so the test can fail.
    assert not np.array_equal(crl.observe_position(pos, 1)[0], crl.observe_position(swapped, 1)[0])


def test_hidden_cash_variant_hides_opponents_cash():
    env = crl.ContainerEnv(players=3, hide_opponent_cash=True)
    assert env.spec["version"] == "obs-v2-hidden-cash"
    env.reset(seed=1)
    obs = env.last()[0]["observation"]
    for k in (1, 2):
        assert obs[features(env.spec, f"p{k}.cash")].sum() == 0
    assert obs[features(env.spec, "p0.cash")].sum() > 0
