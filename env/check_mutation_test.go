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

// TestValidateRefusesTheFirstRewardSchemePastTheLast: reward schemes are numbered
// 0..numRewardSchemes-1; the next number is refused.
func TestValidateRefusesTheFirstRewardSchemePastTheLast(t *testing.T) {
	o := DefaultOptions()
	o.Reward = numRewardSchemes - 1
	if err := o.Validate(); err != nil {
		t.Errorf("last scheme %d: %v", o.Reward, err)
	}
	o.Reward = numRewardSchemes
	if err := o.Validate(); !errors.Is(err, ErrInvalidOptions) || !strings.Contains(err.Error(), "reward scheme") {
		t.Errorf("scheme %d: %v, want ErrInvalidOptions naming the reward scheme", o.Reward, err)
	}
}

// TestANewEnvHasNoAgentBeforeReset: before the first Reset no seat decides (Agent -1),
// stepping is refused, and Last reports a zero reward.
func TestANewEnvHasNoAgentBeforeReset(t *testing.T) {
	e, err := New(Options{Rules: rules.Options{Players: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if a := e.Agent(); a != -1 {
		t.Errorf("Agent before Reset = %d, want -1", a)
	}
	if _, err := e.Step(0); !errors.Is(err, ErrNotReset) {
		t.Errorf("Step before Reset: %v, want ErrNotReset", err)
	}
}

// TestFinalObservationIsTheLastMoversViewOfTheEnd: after the last step the observation is
// the seat that moved last seeing the final position (seat 0 included), not its view before
// its move, and Last reports that seat's cumulative reward.
func TestFinalObservationIsTheLastMoversViewOfTheEnd(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 3, TurnLimit: 2}}
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float32, e.ObsSize())
	seen := map[int]bool{}
	rewarded0 := false // seat 0 moved last and has a non-zero reward
	for seed := uint64(1); seed < 100 && !(rewarded0 && len(seen) > 1); seed++ {
		e.Reset(seed)
		rng := rand.New(rand.NewPCG(seed, 3))
		last := -1
		for !e.Done() {
			last = e.Agent()
			legal := e.Legal()
			if _, err := e.Step(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.Encoder().Observe(e.State(), last, want); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(e.Obs(), want) {
			t.Fatalf("seed %d: the final observation is not seat %d's view of the final position", seed, last)
		}
		// Last describes the same seat, with its whole reward.
		_, cum, term, _, _ := e.Last()
		if !term || cum != e.CumulativeRewards()[last] {
			t.Fatalf("seed %d: Last gives reward %g (terminated %v), seat %d's rewards add up to %g", seed, cum, term, last, e.CumulativeRewards()[last])
		}
		if last == 0 && cum != 0 {
			rewarded0 = true
		}
		seen[last] = true
	}
	if !rewarded0 || len(seen) < 2 {
		t.Fatalf("last movers %v (seat 0 with a reward: %v); want seat 0 with a reward and another", seen, rewarded0)
	}
}

// TestGameSeedIsPinned: GameSeed decides which games a VecEnv, a dataset run and its
// resumption play (and Python's game_seed returns it), so a resumed dataset written by a
// newer build continues the same games only if the derivation never changes. A change must
// be deliberate: update these values and say so in the release notes.
func TestGameSeedIsPinned(t *testing.T) {
	for _, c := range []struct {
		base          uint64
		game, episode int
		want          uint64
	}{
		{0, 0, 0, 0xf14c4df09bb9a32e},
		{7, 3, 2, 0xabd318056b585ad7},
		{1 << 63, 0, 5, 0x322fc21493b95b8f},
		{42, 1000, 0, 0x16977822e8a4495e},
	} {
		if got := GameSeed(c.base, c.game, c.episode); got != c.want {
			t.Errorf("GameSeed(%d, %d, %d) = %#x, want %#x", c.base, c.game, c.episode, got, c.want)
		}
	}
}

// TestVecOfOneGameIsValidAndOfNoneIsRefused: a VecEnv may hold a single game; zero games is
// an invalid option.
func TestVecOfOneGameIsValidAndOfNoneIsRefused(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 3}}
	v, err := NewVec(1, o, 5, 1)
	if err != nil {
		t.Fatalf("one game: %v", err)
	}
	v.Close()
	if _, err := NewVec(0, o, 5, 1); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("no games: %v, want ErrInvalidOptions", err)
	}
}

// TestVecRunsOnTheWorkersAskedAtMostOnePerGame: workers below 1 mean the caller's goroutine
// alone, and more workers than games are cut to one per game; otherwise the count asked is
// used (results do not depend on it, so only the count shows a lost parallelism).
func TestVecRunsOnTheWorkersAskedAtMostOnePerGame(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 3}}
	for _, c := range []struct{ n, workers, want int }{{8, 4, 4}, {8, 0, 1}, {8, -2, 1}, {2, 4, 2}, {3, 3, 3}} {
		v, err := NewVec(c.n, o, 5, c.workers)
		if err != nil {
			t.Fatal(err)
		}
		if v.workers != c.want {
			t.Errorf("%d games on %d workers: %d workers, want %d", c.n, c.workers, v.workers, c.want)
		}
		v.Close()
	}
}

// TestVecLegalIdsWithoutAByteMaskAreWrittenAtReset: a VecEnv given the legal-id buffers but
// no byte mask fills them for the first decision of every game too (at creation and Reset).
func TestVecLegalIdsWithoutAByteMaskAreWrittenAtReset(t *testing.T) {
	const n = 3
	o := Options{Rules: rules.Options{Players: 3}}
	a := NumActions()
	b := VecBuffers{Legal: make([]int32, n*a), NumLegal: make([]int32, n)}
	v, err := NewVecInto(n, o, 4, 1, b)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for round := 0; round < 2; round++ {
		for i := 0; i < n; i++ {
			legal := v.Env(i).Legal()
			if int(b.NumLegal[i]) != len(legal) || len(legal) == 0 {
				t.Fatalf("round %d game %d: count %d, Legal() has %d", round, i, b.NumLegal[i], len(legal))
			}
			for k, id := range legal {
				if b.Legal[i*a+k] != int32(id) {
					t.Fatalf("round %d game %d: legal[%d] = %d, want %d", round, i, k, b.Legal[i*a+k], id)
				}
			}
		}
		clear(b.Legal)
		clear(b.NumLegal)
		v.Reset()
	}
}

// TestVecByteMaskWithoutLegalIdsIsWrittenAtReset: a VecEnv given only the byte-mask buffer
// fills it for the first decision of every game too (at creation and Reset).
func TestVecByteMaskWithoutLegalIdsIsWrittenAtReset(t *testing.T) {
	const n = 3
	o := Options{Rules: rules.Options{Players: 3}}
	a := NumActions()
	b := VecBuffers{Mask8: make([]int8, n*a)}
	v, err := NewVecInto(n, o, 4, 1, b)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for round := 0; round < 2; round++ {
		for i := 0; i < n; i++ {
			for k := 0; k < a; k++ {
				if float32(b.Mask8[i*a+k]) != v.Mask[i*a+k] {
					t.Fatalf("round %d game %d: byte mask differs from the mask at %d", round, i, k)
				}
			}
		}
		clear(b.Mask8)
		v.Reset()
	}
}

// TestVecRefusesTheFirstActionPastTheLast: an action id equal to NumActions is refused in
// every game (the last included) with ErrIllegalAction, and no game moves.
func TestVecRefusesTheFirstActionPastTheLast(t *testing.T) {
	const n = 3
	v, err := NewVec(n, Options{Rules: rules.Options{Players: 3}}, 6, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for bad := 0; bad < n; bad++ {
		actions := make([]int, n)
		for i := range actions {
			actions[i] = v.Env(i).Legal()[0]
		}
		actions[bad] = v.A
		before := v.State(bad).Hash()
		if err := v.Step(actions); !errors.Is(err, rules.ErrIllegalAction) {
			t.Errorf("game %d given action %d: %v, want ErrIllegalAction", bad, v.A, err)
		}
		if v.State(bad).Hash() != before {
			t.Errorf("game %d moved on a refused step", bad)
		}
	}
}
