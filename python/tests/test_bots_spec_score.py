"""Bots as policies, the feature spec, action names, position scoring."""

import json
import os
import random

import numpy as np

import container_rl as crl


def test_every_registered_bot_plays_a_game():
    names = [b["name"] for b in crl.list_bots()]
    assert {"random", "manufacturer", "shipper", "valuer", "default"} <= set(names)
    env = crl.ContainerEnv(players=4)
    policies = [crl.BotPolicy(n, seed=i, players=4) for i, n in enumerate(names)]
    for k in range(2):
        table = [policies[(k + s) % len(policies)] for s in range(4)]
        env.reset(seed=k)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            a = table[env.possible_agents.index(agent)](env)
            assert obs["action_mask"][a] == 1
            env.step(a)


def test_bot_files_and_temperature(root):
    p = crl.BotPolicy(os.path.join(root, "models", "default-3p.bot") + "@0.7", players=3)
    env = crl.ContainerEnv(players=3)
    env.reset(seed=4)
    for _ in range(30):
        env.step(p(env))


def test_valuer_beats_random_most_of_the_time():
    env = crl.ContainerEnv(players=3)
    val, rnd = crl.BotPolicy("valuer", players=3), crl.BotPolicy("random", players=3)
    wins = 0
    for g in range(6):
        env.reset(seed=100 + g)
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else (val if agent == "player_0" else rnd)(env))
        wins += env.episode_returns["player_0"] > 0
    assert wins >= 5


def test_bot_table_plays_the_bot_seats_of_a_vector_env():
    vec = crl.VectorEnv(32, seed=3, players=4)
    table = crl.BotTable(vec, [None, "valuer", "default", "random"], seed=1)
    rng = np.random.default_rng(0)
    actions = np.zeros(32, dtype=np.int64)
    mine = 0
    for _ in range(300):
        actions[:] = vec.sample_legal(rng)
        is_bot = table.act(actions)
        assert np.array_equal(is_bot, vec.agents != 0)
        assert (vec.action_masks[np.arange(32), actions] == 1).all()
        mine += int((~is_bot).sum())
        vec.step(actions)
    assert mine > 0
    table.close()
    vec.close()


def test_spec_and_action_names():
    s = crl.spec(players=4, modules="all")
    assert s["version"].startswith("obs-v") and s["num_actions"] == len(s["action_names"])
    assert sum(f["size"] for f in s["features"]) == s["size"]
    cols = crl.feature_columns(players=4, modules="all")
    assert len(cols) == s["size"] and len(set(cols)) == s["size"]
    names = crl.action_names()
    assert names == s["action_names"] and len(set(names)) == len(names) and "produce" in names
    assert 0 < crl.spec()["size"] < s["size"]  # the modules add features


def test_score_the_rulebook_final_scoring_example(root):
    # The rulebook's end-of-game example (reference-game-end-and-scoring.txt): the three
    # players finish with $55, $62 and $71.
    with open(os.path.join(root, "env", "rules", "testdata", "positions", "rulebook-final-scoring.json")) as f:
        text = f.read()
    scores = crl.score_position(text)
    assert [s["total"] for s in scores] == [55, 62, 71]
    assert [s["winner"] for s in scores] == [False, False, True]
    assert crl.score_position(json.loads(text)) == scores
