"""OpenSpiel's ISMCTS on Container: the evaluators and the time budget the match tables use
(python/examples/openspiel_match.py). Needs ``open_spiel``."""

import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from . import openspiel as cos


class GoRandomRollout(mcts.Evaluator):
    """OpenSpiel's random-rollout evaluation (uniform prior, one uniformly random playout to
    the end, its returns) with the playout run in Go (container_rl.openspiel.rollout): the
    same distribution as ``mcts.RandomRolloutEvaluator(n_rollouts=1)``, without a Python
    call per move. ``value="search"`` values the playout as our ismcts does instead of by the
    game's returns (an ablation; see docs/OPENSPIEL.md)."""

    def __init__(self, random_state, value="returns"):
        self._rs = random_state
        self._value = value

    def evaluate(self, state):
        return cos.rollout(state, int(self._rs.randint(0, 2**62)), self._value)

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class CountingISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTSBot with a time budget per decision (``seconds``; None keeps its
    fixed simulation count) and counters of its searches: ``sims``, ``search_seconds``,
    ``searches``. The search itself is OpenSpiel's: this class only decides how many
    simulations run (OpenSpiel's Python ISMCTSBot has no time budget)."""

    def __init__(self, game, evaluator, uct_c, max_simulations, seconds=None, random_state=None, final="visits"):
        super().__init__(game, evaluator, uct_c, max_simulations, random_state=random_state,
                         final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        if final not in ("visits", "visits-value"):
            raise ValueError(f"container: final {final!r}; want visits or visits-value")
        self._final = final
        self._seconds = seconds
        self.sims = self.searches = 0
        self.search_seconds = 0.0

    def get_final_policy(self, state, node):
        if self._final == "visits":
            return super().get_final_policy(state, node)
        # The move our ismcts plays: most visits, then the higher mean value, then the lower id
        # (OpenSpiel's MAX_VISIT_COUNT draws among the most visited at random).
        best = max(node.child_info.items(), key=lambda kv: (kv[1].visits, kv[1].value(), -kv[0]))[0]
        return [(a, 1.0 if a == best else 0.0) for a in state.legal_actions()]

    def run_search(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        t0 = time.perf_counter()
        if self._seconds is None:
            policy = super().run_search(state)
            n = self._max_simulations
        else:
            # OpenSpiel's run_search, with the loop bounded by the clock instead of a count.
            self.reset()
            self._root_node = self.create_new_node(state)
            key = self.get_state_key(state)
            n = 0
            deadline = t0 + self._seconds
            # At least until the root has a visited move (its first simulation only expands it).
            while self._root_node.total_visits <= 0 or time.perf_counter() < deadline:
                sampled = self.sample_root_state(state)
                assert key == self.get_state_key(sampled)
                self.run_simulation(sampled)
                n += 1
            policy = self.get_final_policy(state, self._root_node)
        self.search_seconds += time.perf_counter() - t0
        self.sims += n
        self.searches += 1
        return policy


def make_ismcts(game, sims=None, seconds=None, uct_c=2.0, rollout="go", seed=0, final="visits", value="returns"):
    """An OpenSpiel ISMCTSBot for game: ``sims`` simulations or ``seconds`` per decision,
    random rollouts by OpenSpiel's RandomRolloutEvaluator (``rollout="python"``) or the same
    playouts in Go (``rollout="go"``); the move played is OpenSpiel's (``final="visits"``:
    most visited, ties at random) or ours (``"visits-value"``: ties to the higher value); Go
    playouts valued by the game's returns or as our search values them (``value``)."""
    rs = np.random.RandomState(seed % (2**32))
    if rollout == "python":
        ev = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState((seed + 1) % (2**32)))
    elif rollout == "go":
        ev = GoRandomRollout(np.random.RandomState((seed + 1) % (2**32)), value)
    else:
        raise ValueError(f"container: rollout {rollout!r}; want go or python")
    if (sims is None) == (seconds is None):
        raise ValueError("container: give sims or seconds")
    return CountingISMCTSBot(game, ev, uct_c, sims or 1, seconds=seconds, random_state=rs, final=final)


def play(game, bots, draws):
    """Plays one game: the setup draws (a list of chance outcomes, e.g. openspiel.setup_draws)
    then bots[seat].step for each decision; returns the final returns, the decisions made and
    the final state."""
    state = game.new_initial_state()
    for a in draws:
        state.apply_action(a)
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            raise ValueError("container: the setup draws given do not complete the setup")
        p = state.current_player()
        state.apply_action(bots[p].step(state))
        n += 1
    return state.returns(), n, state
