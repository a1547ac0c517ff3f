"""Container as an OpenSpiel game (container_rl.openspiel): OpenSpiel's own checks and bots.

Skipped where open_spiel is not installed (``pip install './python[openspiel]'``, pinned in
python/constraints.txt), except under CONTAINER_RL_REQUIRE_EXTRAS=1 (CI). CONTAINER_OPENSPIEL_FULL=1 runs OpenSpiel's random-simulation test
for every player count with base rules, Classic and all modules at full length (minutes).
"""

import hashlib
import json
import os

import numpy as np
import pytest

from conftest import require  # noqa: E402

pyspiel = require("pyspiel")

import container_rl as crl  # noqa: E402
from container_rl import openspiel as cos  # noqa: E402
from container_rl import openspiel_bots as ob  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def load(**params):
    return pyspiel.load_game(cos.SHORT_NAME, params)


def set_up(game, seed):
    state = game.new_initial_state()
    for a in cos.setup_draws(seed, **{k: v for k, v in game.get_parameters().items()}):
        state.apply_action(a)
    return state


@pytest.mark.parametrize("params", [
    {"players": 3, "length": "short"},
    {"players": 5, "rules": "classic", "length": "short"},
    {"players": 4, "modules": "all", "length": "short"},
])
def test_openspiel_random_sim_test(params):
    # OpenSpiel's own conformance check: clones, serialisation round trips, legal lists and
    # masks, observation and information state strings and tensors, returns at every step.
    pyspiel.random_sim_test(load(**params), num_sims=1, serialize=True, verbose=False)


FULL = [{"players": n, "rules": r, "modules": m} for n in (3, 4, 5)
        for r, m in (("base", "none"), ("classic", "none"), ("base", "all"))]


@pytest.mark.skipif(os.environ.get("CONTAINER_OPENSPIEL_FULL") != "1", reason="CONTAINER_OPENSPIEL_FULL=1 runs it")
@pytest.mark.parametrize("params", FULL, ids=lambda p: f"{p['players']}p-{p['rules']}-{p['modules']}")
def test_openspiel_random_sim_test_every_variant(params):
    pyspiel.random_sim_test(load(**params), num_sims=2, serialize=True, verbose=False)


def test_game_facts():
    g = load()
    assert g.num_distinct_actions() == 241
    assert g.num_players() == 4
    assert g.max_chance_outcomes() == 5
    assert g.max_game_length() == 1000 * 322 + 226  # rules.Game.MaxGameLength at the standard turn limit
    assert g.observation_tensor_shape() == [crl.spec(players=4)["size"]]
    t = g.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    s = g.new_initial_state()
    assert s.is_chance_node()
    assert s.chance_outcomes() == [(c, 0.2) for c in range(5)]
    assert s.action_to_string(pyspiel.PlayerId.CHANCE, 3).startswith("bank container 1 (lot I): ")


def test_recorded_game_through_openspiel():
    # The golden game the Go env recorded (capi/bridge TestRecordedGameMatchesTheGoEnv):
    # its seeded setup as chance outcomes, then its actions; every decider, observation
    # tensor (obs-v2) and legal list must be the Go env's, and the returns its returns.
    with open(os.path.join(HERE, "testdata", "recorded-game.json")) as f:
        rec = json.load(f)
    g = load(**rec["options"])
    state = set_up(g, rec["seed"])
    for i, step in enumerate(rec["steps"]):
        assert state.current_player() == step["agent"], f"step {i}: decider"
        obs = np.asarray(state.observation_tensor(step["agent"]), dtype="<f4")
        assert hashlib.sha256(obs.tobytes()).hexdigest()[:16] == step["obs_sha256"], f"step {i}: observation"
        legal = ",".join(str(a) for a in state.legal_actions())
        assert hashlib.sha256(legal.encode()).hexdigest()[:16] == step["legal_sha256"], f"step {i}: legal list"
        state.apply_action(step["action"])
    assert state.is_terminal()
    assert state.returns() == rec["returns"]


def test_same_positions_as_the_go_env():
    # A seeded ContainerEnv game with random actions, and the OpenSpiel state given the
    # seed's setup draws and the same actions: the same full position after every action.
    env = crl.ContainerEnv(players=3, rules="classic")
    env.reset(seed=42)
    g = load(players=3, rules="classic")
    state = set_up(g, 42)
    rng = np.random.default_rng(0)
    for i in range(150):
        obs = env.last()[0]
        legal = np.flatnonzero(obs["action_mask"])
        assert state.legal_actions() == legal.tolist(), f"step {i}"
        a = int(rng.choice(legal))
        env.step(a)
        state.apply_action(a)
        assert json.loads(state.position_json()) == env.game_info()["position"], f"step {i}"


def test_hidden_information_stays_hidden():
    # Two states that differ only in seats 1-3's scoring cards: seat 0's information state,
    # observation string and tensor are the same; seat 1's are not.
    g = load()
    a, b = g.new_initial_state(), g.new_initial_state()
    for d in [0, 1, 2, 0, 1, 2, 3, 0]:
        a.apply_action(d)
        b.apply_action(d)
    for d in [1, 2, 3, 0]:
        a.apply_action(d)
    for d in [4, 3, 2, 0]:
        b.apply_action(d)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert a.observation_tensor(1) != b.observation_tensor(1)
    assert str(a) != str(b)


def test_resample_keeps_the_information_state():
    g = load()
    s = set_up(g, 3)
    for _ in range(30):
        s.apply_action(s.legal_actions()[-1])
    p = s.current_player()
    worlds = set()
    for i in range(10):
        r = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert r.information_state_string(p) == s.information_state_string(p)
        assert r.legal_actions() == s.legal_actions()
        worlds.add(str(r))
    assert len(worlds) > 1
    with pytest.raises(ValueError, match="setup"):
        g.new_initial_state().resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))


def test_serialize_round_trip_and_clone():
    g = load(players=3)
    for n in (2, 40):  # during the setup draws, then in play
        s = g.new_initial_state()
        rng = np.random.default_rng(n)
        for _ in range(n):
            s.apply_action(int(rng.choice(s.legal_actions())))
        t = g.deserialize_state(s.serialize())
        assert str(t) == str(s) and t.history() == s.history() and t.legal_actions() == s.legal_actions()
        c = s.clone()
        c.apply_action(c.legal_actions()[0])
        assert str(s) == str(t)  # the clone went its own way


def test_action_strings_are_the_project_notation():
    g = load()
    s = set_up(g, 1)
    names = [s.action_to_string(s.current_player(), a) for a in s.legal_actions()]
    assert all(n and not n.startswith("action") for n in names)
    assert len(set(names)) == len(names)


def test_illegal_actions_raise_and_change_nothing():
    g = load(players=3)
    s = g.new_initial_state()
    s.apply_action(2)
    before, hist = str(s), s.history()
    for bad in (2, 5, -1):
        with pytest.raises(Exception, match="illegal|outcome|kInvalidAction"):
            s.apply_action(bad)
    assert str(s) == before and s.history() == hist
    s = set_up(g, 5)
    before, hist = s.position_json(), s.history()
    illegal = sorted(set(range(241)) - set(s.legal_actions()))[0]
    for bad in (illegal, 241, 10**6):
        with pytest.raises(Exception):
            s.apply_action(bad)
    assert s.position_json() == before and s.history() == hist
    s.apply_action(s.legal_actions()[0])  # still playable


def test_bad_parameters():
    with pytest.raises(pyspiel.SpielError, match="colour"):
        pyspiel.load_game("python_container(colour=1)")
    with pytest.raises(crl.InvalidArgumentError, match="players"):
        load(players=6)
    with pytest.raises(crl.InvalidArgumentError, match="bounded"):
        load(reward="cash-margin")


def test_evaluate_bots_with_uniform_random_bots():
    from open_spiel.python.algorithms import evaluate_bots
    g = load(players=3, length="short")
    bots = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(3)]
    returns = evaluate_bots.evaluate_bots(g.new_initial_state(), bots, np.random.RandomState(0))
    assert sum(returns) == pytest.approx(1.0) and max(returns) > 0


def test_openspiel_ismcts_meets_our_bots():
    # OpenSpiel's ISMCTSBot (random rollouts, both the Python evaluator and the Go playouts)
    # at a few decisions, then our bots finish the game; the match script's table reads it.
    g = load(players=3, length="short")
    state = set_up(g, 9)
    theirs = [ob.make_ismcts(g, sims=4, rollout=r, seed=i) for i, r in enumerate(["go", "python", "go"])]
    for _ in range(6):
        p = state.current_player()
        a = theirs[p].step(state)
        assert a in state.legal_actions()
        state.apply_action(a)
    ours = [cos.GoBot(g, spec, seed=1) for spec in ("valuer", "ismcts:sims=8", "shipper")]
    decisions = 0
    while not state.is_terminal():
        p = state.current_player()
        state.apply_action(ours[p].step(state))
        decisions += 1
    assert decisions > 0 and sum(state.returns()) == pytest.approx(1.0)
    assert ours[1].searches > 0 and ours[1].sims > 0 and ours[0].sims == 0
    assert sum(b.searches for b in theirs) > 0
    # A time budget too short for one simulation still searches until the root has a move.
    quick = ob.make_ismcts(g, seconds=1e-9, seed=3)
    s2 = set_up(g, 10)
    assert quick.step(s2) in s2.legal_actions() and quick.sims >= 2
    # The shipped network ("default") has models for the standard length.
    g = load(players=3)
    state = set_up(g, 9)
    assert cos.GoBot(g, "default").step(state) in state.legal_actions()


def test_go_playouts():
    g = load(players=4)
    s = set_up(g, 2)
    before = str(s)
    r = cos.rollout(s, 1)
    v = cos.rollout(s, 1, "search")
    assert sum(r) == pytest.approx(1.0) and all(0 <= x <= 1 for x in v) and str(s) == before
    with pytest.raises(ValueError, match="rollout value"):
        cos.rollout(s, 1, "margin")


def test_match_script_table(tmp_path):
    import importlib.util
    path = os.path.join(HERE, "..", "examples", "openspiel_match.py")
    spec = importlib.util.spec_from_file_location("openspiel_match", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    out = tmp_path / "r.jsonl"
    assert m.main(["--ours", "valuer", "--their-sims", "2", "--games", "3", "--players", "3", "--length", "short",
                   "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seat"] for r in rows] == [0, 1, 2] and len({r["deal"] for r in rows}) == 1
    assert m.main(["--table", str(out)]) == 0


def test_wilson_is_the_go_statistic():
    lo, hi = cos.wilson(30, 100)
    assert lo == pytest.approx(0.2189, abs=1e-3) and hi == pytest.approx(0.3958, abs=1e-3)
    assert cos.wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(crl.InvalidArgumentError):
        cos.wilson(5, 3)


@pytest.mark.parametrize("modules", ["trucks,luxury", "trucks+luxury", "trucks; luxury", " trucks , luxury "])
def test_a_module_list_survives_the_game_string(modules):
    # OpenSpiel's game string separates parameters with commas: the list is kept joined by
    # "+", so the game reads back from its string, its serialisation and a pickle.
    import pickle
    g = load(players=3, length="short", modules=modules)
    assert g.get_parameters()["modules"] == "trucks+luxury"
    assert str(g) == "python_container(length=short,modules=trucks+luxury,players=3,reward=win-loss,rules=base)"
    assert g._facts.info["modules"] == "trucks,luxury"  # what Go plays
    g2 = pyspiel.load_game(str(g))
    assert g2.get_parameters() == g.get_parameters()
    assert g2.observation_tensor_shape() == [crl.spec(players=3, modules="trucks,luxury")["size"]]
    s = set_up(g, 3)
    for a in s.legal_actions()[:1]:
        s.apply_action(a)
    g3, s3 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(g, s))
    assert str(g3) == str(g) and str(s3) == str(s)
    g4 = pickle.loads(pickle.dumps(g))
    assert str(g4) == str(g)
    pyspiel.random_sim_test(g, num_sims=1, serialize=True, verbose=False)


def test_a_bad_module_list_is_one_line():
    with pytest.raises(crl.InvalidArgumentError, match="unknown module"):
        load(modules="trucks+boats")
    with pytest.raises(pyspiel.SpielError, match="parameter modules"):
        load(modules=3)  # OpenSpiel checks the type against the parameter specification


def test_returns_are_exact_python_floats():
    # Rank returns of four seats are (3 - 2*pos)/3 (pos a position, ties sharing the mean):
    # computed in float64, not rounded through float32 (0.3333333432674408 for 1/3).
    from open_spiel.python import rl_environment
    g = load(players=4, length="short", reward="rank")
    seen = set()
    for seed in range(3):
        s = set_up(g, seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            s.apply_action(int(rng.choice(s.legal_actions())))
        for r in s.returns():
            assert type(r) is float
            pos = round((1 - r) * 3) / 2
            assert r == (3 - 2 * pos) / 3, s.returns()
            seen.add(r)
    assert seen & {1 / 3, -1 / 3}, seen  # the values float32 cannot hold were met
    env = rl_environment.Environment(g, seed=1)
    ts = env.reset()
    rng = np.random.default_rng(1)
    while not ts.last():
        ts = env.step([int(rng.choice(ts.observations["legal_actions"][ts.observations["current_player"]]))])
    for r in ts.rewards:
        pos = round((1 - r) * 3) / 2
        assert r == (3 - 2 * pos) / 3, ts.rewards


def test_shimmy_with_game_name_and_config_passes_pettingzoos_api_test():
    # shimmy's OpenSpiel-to-PettingZoo wrapper. The form that keeps the parameters is
    # game_name + config: with env=<loaded game>, shimmy's reset reloads the game by its
    # short name alone (its own code, the same for OpenSpiel's C++ games), dropping them.
    shimmy = require("shimmy")
    from pettingzoo.test import api_test
    config = {"players": 3, "length": "short", "modules": "trucks,luxury"}
    env = shimmy.OpenSpielCompatibilityV0(game_name=cos.SHORT_NAME, config=config)
    api_test(env, num_cycles=100)
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    assert env._env.get_parameters()["modules"] == "trucks+luxury"
    g = load(**config)
    again = shimmy.OpenSpielCompatibilityV0(game_name=cos.SHORT_NAME, config=g.get_parameters())
    again.reset(seed=1)
    assert str(again._env) == str(g)
