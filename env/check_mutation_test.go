package env

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// Tests of the checker itself: how many games and leak checks it runs, and that each of its
// detectors can fail and names where. (A checker that silently checks less passes every
// correct environment, so passing Check proves nothing about it.)

// TestCheckRefusesInvalidOptions: Check of options New refuses returns New's error.
func TestCheckRefusesInvalidOptions(t *testing.T) {
	err := Check(Options{Rules: rules.Options{Players: 9}}, CheckOptions{Games: 1})
	if err == nil {
		t.Fatal("Check of 9 players: no error")
	}
	if _, want := New(Options{Rules: rules.Options{Players: 9}}); want == nil || err.Error() != want.Error() {
		t.Errorf("Check of 9 players: %v, want New's error %v", err, want)
	}
}

// checkCounts runs a fresh checker over c and returns its scoring-card comparison count and
// the number of decisions of its last game.
func checkCounts(t *testing.T, o Options, c CheckOptions) (cards, lastLen int) {
	t.Helper()
	ck, err := newChecker(o, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := ck.run(c); err != nil {
		t.Fatal(err)
	}
	return ck.cardChecks, len(ck.actions)
}

// TestCheckPlaysTheGamesAskedAndThreeByDefault: Games n plays exactly the games of seeds
// GameSeed(Seed, 0..n-1, 0), and Games 0 (or below) means 3, by the scoring-card comparisons
// each game makes.
func TestCheckPlaysTheGamesAskedAndThreeByDefault(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 3, TurnLimit: 4}}
	const seed, every = 7, 50
	perGame := make([]int, 3)
	for k := range perGame {
		ck, err := newChecker(o, CheckOptions{LeakEvery: every})
		if err != nil {
			t.Fatal(err)
		}
		if err := ck.game(GameSeed(seed, k, 0)); err != nil {
			t.Fatal(err)
		}
		perGame[k] = ck.cardChecks
	}
	for _, c := range []struct{ games, want int }{
		{1, perGame[0]},
		{2, perGame[0] + perGame[1]},
		{0, perGame[0] + perGame[1] + perGame[2]},
		{-1, perGame[0] + perGame[1] + perGame[2]},
	} {
		got, _ := checkCounts(t, o, CheckOptions{Games: c.games, Seed: seed, LeakEvery: every})
		if got != c.want {
			t.Errorf("Games %d: %d scoring-card comparisons, want %d (per game %v)", c.games, got, c.want, perGame)
		}
	}
}

// TestCheckComparesScoringCardsEveryLeakEveryDecisions: with LeakEvery k the scoring-card
// check runs at decisions 0, k, 2k, ... and compares every seat's changed card with every
// other seat's view: n(n-1) comparisons each time.
func TestCheckComparesScoringCardsEveryLeakEveryDecisions(t *testing.T) {
	for _, every := range []int{1, 3, 7} {
		o := Options{Rules: rules.Options{Players: 4, TurnLimit: 3}}
		cards, decisions := checkCounts(t, o, CheckOptions{Games: 1, Seed: 11, LeakEvery: every})
		times := (decisions + every - 1) / every
		if want := times * 4 * 3; cards != want {
			t.Errorf("LeakEvery %d over %d decisions: %d comparisons, want %d", every, decisions, cards, want)
		}
	}
}

// TestCheckFailureNamesTheStepAndPhase: an observation outside the checker's bounds from the
// second decision on is reported at step 1, naming that decision's phase.
func TestCheckFailureNamesTheStepAndPhase(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 3}}
	const seed = 3
	ck, err := newChecker(o, CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Bounds that admit exactly the first decision's observations (every seat's view, as
	// the scoring-card check observes them all).
	probe, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	obs0, _ := probe.Reset(GameSeed(seed, 0, 0))
	copy(ck.low, obs0)
	copy(ck.high, obs0)
	view := make([]float32, len(obs0))
	for seat := range 3 {
		if err := ck.enc.Observe(probe.State(), seat, view); err != nil {
			t.Fatal(err)
		}
		for i, v := range view {
			ck.low[i], ck.high[i] = min(ck.low[i], v), max(ck.high[i], v)
		}
	}
	err = ck.run(CheckOptions{Games: 1, Seed: seed})
	if !errors.Is(err, ErrCheck) {
		t.Fatalf("bounds of the first observation only: %v, want a check failure", err)
	}
	phase := ck.env.State().Decision().Phase.String()
	if want := fmt.Sprintf("step 1 (phase %s)", phase); !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "outside") {
		t.Errorf("failure %q, want it to name %q and the bound", err, want)
	}
}
