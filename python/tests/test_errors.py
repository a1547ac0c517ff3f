"""Bad input raises Python exceptions carrying the Go message; nothing changes."""

import numpy as np
import pytest

import container_rl as crl


@pytest.mark.parametrize("options,match", [
    ({"playerz": 4}, 'unknown option "playerz"'),
    ({"players": 9}, "Container is for 3 to 5"),
    ({"players": "four"}, 'option "players"'),
    ({"rules": "chess"}, 'unknown rules variant "chess"'),
    ({"modules": "dragons"}, 'unknown module "dragons"'),
    ({"reward": "gold"}, 'unknown reward scheme "gold"'),
    ({"rules": "classic", "modules": "trucks"}, "Truck Companies"),
    ({"max_steps": -3}, "max steps -3"),
])
def test_bad_options(options, match):
    with pytest.raises(crl.InvalidArgumentError, match=match):
        crl.ContainerEnv(**options)
    with pytest.raises(crl.InvalidArgumentError, match=match):
        crl.VectorEnv(4, **options)


def test_bad_actions_change_nothing():
    env = crl.ContainerEnv()
    with pytest.raises(crl.EpisodeOverError, match="call Reset"):
        env.step(0)  # before reset
    env.reset(seed=1)
    before = env.last()[0]["observation"].copy()
    illegal = int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0])
    with pytest.raises(crl.IllegalActionError, match=r"action %d .* illegal action" % illegal):
        env.step(illegal)
    for bad, exc in [(-1, crl.IllegalActionError), (10 ** 6, crl.IllegalActionError), (2 ** 70, crl.IllegalActionError),
                     (1.0, crl.InvalidArgumentError), ("3", crl.InvalidArgumentError), (None, crl.InvalidArgumentError),
                     (True, crl.InvalidArgumentError)]:
        with pytest.raises(exc):
            env.step(bad)
    assert np.array_equal(before, env.last()[0]["observation"])
    env.step(np.int64(env.legal_actions()[0]))  # NumPy integers are fine


def test_dead_agents_take_only_none():
    env = crl.ContainerEnv(max_steps=2)
    env.reset(seed=1)
    env.step(int(env.legal_actions()[0]))
    env.step(int(env.legal_actions()[0]))
    assert all(env.truncations.values())
    with pytest.raises(crl.InvalidArgumentError, match="only valid action .* is None"):
        env.step(0)
    while env.agents:
        env.step(None)
    with pytest.raises(crl.EpisodeOverError, match="episode is over"):
        env.step(None)


def test_bad_seeds_agents_and_closed_envs():
    env = crl.ContainerEnv()
    for seed in (-1, 2 ** 64, 1.5, "7"):
        with pytest.raises(crl.InvalidArgumentError, match="seed"):
            env.reset(seed=seed)
    env.reset(seed=2 ** 64 - 1)
    with pytest.raises(crl.InvalidArgumentError, match="player_7"):
        env.observe("player_7")
    with pytest.raises(crl.InvalidArgumentError, match="may not change the players"):
        env.reset(seed=1, options={"players": 3})
    with pytest.raises(crl.InvalidArgumentError, match='unknown option "colour"'):
        env.reset(seed=1, options={"colour": "red"})
    env.close()
    with pytest.raises(crl.HandleError, match="closed already"):
        env.step(0)
    env.close()  # closing twice is harmless


def test_vector_env_bad_actions():
    vec = crl.VectorEnv(4, seed=1)
    good = vec.sample_legal(np.random.default_rng(0))
    obs = vec.observations.copy()
    with pytest.raises(crl.InvalidArgumentError, match=r"shape \(3,\)"):
        vec.step(good[:3])
    with pytest.raises(crl.InvalidArgumentError, match="dtype float"):
        vec.step(good.astype(np.float32))
    with pytest.raises(crl.InvalidArgumentError, match=r"shape \(2, 2\)"):
        vec.step(good.reshape(2, 2))
    bad = good.copy()
    bad[2] = int(np.flatnonzero(vec.action_masks[2] == 0)[0])
    with pytest.raises(crl.IllegalActionError, match="game 2"):
        vec.step(bad)
    assert np.array_equal(obs, vec.observations), "a refused step moved a game"
    vec.step(good.astype(np.int32))  # other integer dtypes are converted
    for n in (0, -1, 10 ** 7):
        with pytest.raises(crl.InvalidArgumentError, match="num_envs"):
            crl.VectorEnv(n)
    with pytest.raises(crl.InvalidArgumentError, match="workers"):
        crl.VectorEnv(2, workers=-1)
    vec.close()


def test_bad_positions_and_bots():
    with pytest.raises(crl.InvalidArgumentError, match="rules"):
        crl.score_position('{"format": "container-position/1", "options": {"players": 9}}')
    with pytest.raises(crl.InvalidArgumentError):
        crl.score_position("not json")
    with pytest.raises(crl.InvalidArgumentError, match="position"):
        crl.score_position(42)
    with pytest.raises(crl.UnknownBotError, match='unknown bot: "grandmaster"'):
        crl.BotPolicy("grandmaster")
    with pytest.raises(crl.InvalidArgumentError, match="temperature"):
        crl.BotPolicy("valuer@0.5")
    with pytest.raises(crl.ContainerError, match="nothing.bot"):
        crl.BotPolicy("/nonexistent/nothing.bot")
    env = crl.ContainerEnv(players=3)
    env.reset(seed=1)
    with pytest.raises(crl.InvalidArgumentError, match="made for 4 players"):
        crl.BotPolicy("random")(env)


def test_buffers_outlive_rebinding_and_bots_refuse_finished_games():
    vec = crl.VectorEnv(4, seed=1)
    vec.observations = None  # the Go side keeps writing into the original array
    import gc
    gc.collect()
    vec.step(vec.sample_legal(np.random.default_rng(0)))
    vec.close()
    env = crl.ContainerEnv(max_steps=1)
    env.reset(seed=1)
    bot = crl.BotPolicy("valuer")
    env.step(bot(env))
    with pytest.raises(crl.EpisodeOverError, match="nothing to decide"):
        bot(env)
    with pytest.raises(crl.HandleError):
        crl.BotTable(vec, [None, "random", "random", "random"])


def test_junk_input_never_panics_the_go_side(root):
    # Mutated positions and option values must come back as ordinary errors (or results),
    # never as InternalError, which is what a recovered Go panic raises.
    import json
    import os
    import random
    rnd = random.Random(0)
    with open(os.path.join(root, "env", "rules", "testdata", "positions", "midgame-5p-auctions.json")) as f:
        text = f.read()
    for i in range(300):
        b = bytearray(text.encode())
        for _ in range(rnd.randint(1, 8)):
            b[rnd.randrange(len(b))] = rnd.choice(b'0123456789{}[]",:-abcxyz ')
        try:
            crl.score_position(bytes(b))
        except crl.InternalError:
            raise
        except crl.InvalidArgumentError:
            pass
    values = [None, -1, 0, 1, 3, 5, 7, 10 ** 12, 1.5, "", "all", "x", [], {}, True]
    for key in ("players", "rules", "modules", "length", "reward", "max_steps", "margin_scale", "turn_limit",
                "containers_per_colour", "gold_containers", "warehouses", "factories_per_colour"):
        for v in values:
            try:
                crl.ContainerEnv(**{key: v}).close()
            except crl.InternalError:
                raise
            except crl.InvalidArgumentError:
                pass
