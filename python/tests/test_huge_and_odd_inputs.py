"""Values ctypes would silently wrap or cut short are refused with InvalidArgumentError."""

import numpy as np
import pytest

import container_rl as crl


def test_ints_beyond_64_bits_are_refused_not_wrapped():
    # ctypes passes 2**64 as 0: game 0, seat 0, one worker per core, handle 0.
    with crl.VectorEnv(4, seed=1) as vec:
        for call in (lambda: vec.game_info(2 ** 64), lambda: vec.observe(0, 2 ** 64), lambda: vec.observe(2 ** 70, 0)):
            with pytest.raises(crl.InvalidArgumentError, match="64-bit"):
                call()
        with pytest.raises(crl.InvalidArgumentError, match="want an int, got str"):
            vec.observe("a", 0)
        assert vec.game_info(np.int32(1))["episodes"] == 0  # NumPy integers are fine
    with pytest.raises(crl.InvalidArgumentError, match="workers: .* 64-bit"):
        crl.VectorEnv(2, workers=2 ** 64)
    with pytest.raises(crl.InvalidArgumentError, match="workers: want an int, got float"):
        crl.VectorEnv(2, workers=1.5)
    with pytest.raises(crl.InvalidArgumentError, match="game: .* 64-bit"):
        crl.game_seed(1, 2 ** 64, 0)


def test_nul_and_unencodable_strings_are_refused_not_cut_short():
    # "random\0x" reached Go as "random" and made a random bot.
    with pytest.raises(crl.InvalidArgumentError, match="NUL"):
        crl.BotPolicy("random\x00anything")
    with pytest.raises(crl.InvalidArgumentError, match="UTF-8"):
        crl.BotPolicy("\ud800")
    with pytest.raises(crl.InvalidArgumentError, match="NUL"):
        crl.score_position('{"format": "container-position/1"}\x00garbage')


def test_options_and_positions_json():
    with pytest.raises(crl.InvalidArgumentError, match="not JSON-serialisable: Out of range float"):
        crl.ContainerEnv(margin_scale=float("nan"))
    with pytest.raises(crl.InvalidArgumentError, match="not JSON-serialisable"):
        crl.score_position({"a": object()})
    with pytest.raises(crl.InvalidArgumentError, match="position: not JSON"):
        crl.observe_position("{", 0)
    env = crl.ContainerEnv(players=np.int64(3), dense=np.bool_(True))  # NumPy scalars are numbers
    assert len(env.possible_agents) == 3


def test_bot_table_seats_must_be_names_or_none():
    with crl.VectorEnv(2, seed=1, players=3) as vec:
        with pytest.raises(crl.InvalidArgumentError, match="neither a bot name nor None"):
            crl.BotTable(vec, [None, object(), "random"])
        crl.BotTable(vec, iter([None, "random", "random"])).close()  # any iterable of seats


def test_a_closed_env_does_not_serve_stale_observations():
    env = crl.ContainerEnv(players=3)
    env.reset(seed=1)
    env.close()
    with pytest.raises(crl.HandleError, match="closed already"):
        env.last()
    with pytest.raises(crl.HandleError, match="closed already"):
        env.legal_actions()
