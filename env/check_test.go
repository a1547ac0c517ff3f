package env

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
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

// TestCheckIllegalActionProbeFailsOnAnEnvThatAcceptsOne: the checker tries the first illegal
// id of the mask, -1 and NumActions at the first decision; an environment that accepts any
// one of them, or that changes while refusing, fails the check naming the action.
func TestCheckIllegalActionProbeFailsOnAnEnvThatAcceptsOne(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 3, TurnLimit: 2}}
	const seed = 4
	probe, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	probe.Reset(GameSeed(seed, 0, 0))
	firstIllegal := -1
	for id, m := range probe.Mask() {
		if m == 0 {
			firstIllegal = id
			break
		}
	}
	if firstIllegal < 0 {
		t.Fatal("every action legal at the first decision")
	}
	for _, accepted := range []int{firstIllegal, -1, probe.NumActions()} {
		ck, err := newChecker(o, CheckOptions{LeakEvery: 50})
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		ck.illegalStep = func(a int) (StepResult, error) {
			calls++
			if a == accepted {
				return StepResult{}, nil
			}
			return ck.env.Step(a)
		}
		err = ck.run(CheckOptions{Games: 1, Seed: seed})
		if want := fmt.Sprintf("illegal action %d gave <nil>", accepted); !errors.Is(err, ErrCheck) || !strings.Contains(err.Error(), want) {
			t.Errorf("env accepting %d: %v, want a failure containing %q", accepted, err, want)
		}
	}
	// A correct env: the probe tries exactly the three ids once, at the first decision.
	ck, err := newChecker(o, CheckOptions{LeakEvery: 50})
	if err != nil {
		t.Fatal(err)
	}
	var tried []int
	ck.illegalStep = func(a int) (StepResult, error) { tried = append(tried, a); return ck.env.Step(a) }
	if err := ck.run(CheckOptions{Games: 1, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	if want := []int{firstIllegal, -1, probe.NumActions()}; fmt.Sprint(tried) != fmt.Sprint(want) {
		t.Errorf("probe tried %v, want %v", tried, want)
	}
	// An env that refuses but changes anyway.
	ck, err = newChecker(o, CheckOptions{LeakEvery: 50})
	if err != nil {
		t.Fatal(err)
	}
	ck.illegalStep = func(a int) (StepResult, error) {
		if a == -1 {
			if _, err := ck.env.Step(slices.Index(ck.env.Mask(), 1)); err != nil {
				t.Fatal(err)
			}
			return StepResult{}, rules.ErrIllegalAction
		}
		return ck.env.Step(a)
	}
	if err := ck.run(CheckOptions{Games: 1, Seed: seed}); !errors.Is(err, ErrCheck) || !strings.Contains(err.Error(), "a refused action changed the environment") {
		t.Errorf("env changed by a refused action: %v", err)
	}
}

// TestCheckComparesBidsOnlyWhileTheyAreSealed: at an open bank bid (every bid is public) the
// sealed-bid probe does nothing; at sealed delivery, runoff and incentive bids it compares
// two amounts in every other seat's view (unless the bid would reveal them: the last
// bidder's).
func TestCheckComparesBidsOnlyWhileTheyAreSealed(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 4, Modules: rules.AllModules}}
	ck, err := newChecker(o, CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	amountFirst, amountCount := rules.KindBase(rules.Amount)
	compared := map[rules.Phase]int{}
	visited := map[rules.Phase]int{}
	withHundred := 0 // sealed bids probed while +$100 was legal too
	hundred, _ := rules.KindBase(rules.AmountHundred)
	done := func() bool {
		return visited[rules.PhaseBankCashBid] > 0 && compared[rules.PhaseDeliveryBid] > 0 && compared[rules.PhaseRunoffBid] > 0 && compared[rules.PhaseIncentiveBid] > 0 && withHundred > 0
	}
	for seed := uint64(1); seed < 300 && !done(); seed++ {
		ck.env.Reset(seed)
		if seed%2 == 0 {
			// Rich players: sealed bids above the amount ids, built with +$100.
			for i := range ck.env.State().Players {
				ck.env.State().Players[i].Cash += 300
			}
		}
		rng := rand.New(rand.NewPCG(seed, 9))
		for !ck.env.Done() {
			s := ck.env.State()
			ck.legal = s.LegalActions(ck.legal)
			amounts, lowest := 0, -1
			for _, id := range ck.legal {
				if id >= amountFirst && id < amountFirst+amountCount {
					if amounts == 0 {
						lowest = id
					}
					amounts++
				}
			}
			ph := s.Decision().Phase
			if amounts >= 2 && (ph == rules.PhaseBankCashBid || ph == rules.PhaseDeliveryBid || ph == rules.PhaseRunoffBid || ph == rules.PhaseIncentiveBid) {
				before := ck.bidChecks
				if err := ck.bidLeaks(seed, 0); err != nil {
					t.Fatalf("%s: %v", ph, err)
				}
				got := ck.bidChecks - before
				if ph == rules.PhaseBankCashBid && got != 0 || got != 0 && got != 3 {
					t.Fatalf("%s: %d sealed-bid comparisons", ph, got)
				}
				// A sealed bid that leaves the bidding open (the next bidder decides in the
				// same phase) is always probed, whatever else is legal (+$100 included).
				c := s.Clone()
				c.Apply(lowest)
				if cd := c.Decision(); ph != rules.PhaseBankCashBid && cd.Phase == ph && cd.Decider != s.Decision().Decider {
					if got != 3 {
						t.Fatalf("%s, bids still sealed after the lowest bid: %d comparisons, want 3", ph, got)
					}
					if slices.Contains(ck.legal, hundred) {
						withHundred++
					}
				}
				visited[ph]++
				compared[ph] += got
			}
			if _, err := ck.env.Step(ck.legal[rng.IntN(len(ck.legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !done() {
		t.Fatalf("bid decisions visited %v, comparisons %v, %d with +$100 legal; want a bank bid and compared delivery, runoff and incentive bids, one with +$100 legal", visited, compared, withHundred)
	}
}

// TestCheckReplayDetectsADifferentEpisode: the determinism check replays the game's actions
// from the same seed and fails, naming the step, when any step (the last included) differs
// from what was recorded.
func TestCheckReplayDetectsADifferentEpisode(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 3, TurnLimit: 2}}
	ck, err := newChecker(o, CheckOptions{LeakEvery: 50})
	if err != nil {
		t.Fatal(err)
	}
	const seed = 12
	if err := ck.game(seed); err != nil {
		t.Fatal(err)
	}
	last := len(ck.actions)
	for _, step := range []int{0, 5, last} {
		ck.trace[step] ^= 1
		err := ck.replay(seed)
		ck.trace[step] ^= 1
		if want := fmt.Sprintf("step %d ", step); !errors.Is(err, ErrCheck) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "replaying") {
			t.Errorf("trace changed at step %d of %d: %v, want a replay failure naming %q", step, last, err, want)
		}
	}
	if err := ck.replay(seed); err != nil {
		t.Errorf("unchanged trace: %v", err)
	}
}

// TestCheckFailuresNameTheFirstDifferingEntry: a failing comparison names the first entry
// that differs, with its column name and both values.
func TestCheckFailuresNameTheFirstDifferingEntry(t *testing.T) {
	ck, err := newChecker(Options{Rules: rules.Options{Players: 3}}, CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := make([]float32, len(ck.cols))
	b := make([]float32, len(ck.cols))
	b[7], b[9] = 0.5, 1
	if got, want := ck.firstDiff(a, b), fmt.Sprintf("entry 7 (%s): 0 vs 0.5", ck.cols[7]); got != want {
		t.Errorf("firstDiff = %q, want %q", got, want)
	}
	if got := ck.firstDiff(a, a); got != "no difference" {
		t.Errorf("firstDiff of equal views = %q", got)
	}
}
