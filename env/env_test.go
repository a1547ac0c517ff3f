package env

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

// checkConfigs are base and Classic for 3, 4 and 5 players, then module combinations.
func checkConfigs() []rules.Options {
	var out []rules.Options
	for _, v := range []rules.Variant{rules.Base, rules.Classic} {
		for p := 3; p <= 5; p++ {
			out = append(out, rules.Options{Players: p, Variant: v})
		}
	}
	for m := rules.Modules(1); m <= rules.AllModules; m++ {
		out = append(out, rules.Options{Players: 4, Modules: m})
		if !m.Has(rules.Trucks) {
			out = append(out, rules.Options{Players: 3, Variant: rules.Classic, Modules: m})
		}
	}
	out = append(out, rules.Options{Players: 5, Modules: rules.AllModules}, rules.Options{Players: 3, Length: rules.Short, Modules: rules.AllModules})
	return out
}

func configName(o rules.Options) string {
	m := o.Modules.String()
	if m == "" {
		m = "none"
	}
	return fmt.Sprintf("%s-%dp-%s-%s", o.Variant, o.Players, o.Length, strings.ReplaceAll(m, ",", "+"))
}

// TestCheckPassesOnEveryVariantAndModule runs the env checker (bounds, masks, determinism,
// no hidden-information leaks, reward sums) on every configuration and reward scheme.
func TestCheckPassesOnEveryVariantAndModule(t *testing.T) {
	games, every := 2, 1
	if testing.Short() {
		games, every = 1, 5
	}
	for i, o := range checkConfigs() {
		t.Run(configName(o), func(t *testing.T) {
			t.Parallel()
			opts := Options{Rules: o, Reward: RewardScheme(i % int(numRewardSchemes))}
			if err := Check(opts, CheckOptions{Games: games, Seed: uint64(100 + i), LeakEvery: every}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestNoLeakChecksRun proves the checker's hidden-information comparisons really happen:
// opponents' scoring cards at every step, sealed bids changed while still unrevealed,
// committed sealed values re-sampled, and the decider's amount in progress, each also played on.
func TestNoLeakChecksRun(t *testing.T) {
	for _, o := range []rules.Options{{Players: 4}, {Players: 5, Variant: rules.Classic}, {Players: 4, Modules: rules.PlayerLoans}} {
		ck, err := newChecker(Options{Rules: o}, CheckOptions{LeakEvery: 20})
		if err != nil {
			t.Fatal(err)
		}
		// Random players rarely deliver; play until some sealed bids were compared.
		for k := 0; k < 40 && ck.bidChecks == 0; k++ {
			if err := ck.run(CheckOptions{Games: 1, Seed: uint64(21 + k)}); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %d scoring-card, %d sealed-bid, %d re-sampled sealed-value, %d amount-in-progress and %d played-on comparisons",
			configName(o), ck.cardChecks, ck.bidChecks, ck.sealedChecks, ck.amountChecks, ck.followChecks)
		if ck.cardChecks == 0 || ck.bidChecks == 0 || ck.sealedChecks == 0 || ck.amountChecks == 0 || ck.followChecks == 0 {
			t.Errorf("%s: %d scoring-card, %d sealed-bid, %d sealed-value, %d amount and %d played-on comparisons; want all above 0",
				configName(o), ck.cardChecks, ck.bidChecks, ck.sealedChecks, ck.amountChecks, ck.followChecks)
		}
	}
}

// With HideOpponentCash the checker also changes each opponent's cash at every leak check and
// requires every other seat's observation to stay the same.
func TestCheckPassesWithOpponentsCashHidden(t *testing.T) {
	for _, o := range []rules.Options{{Players: 3}, {Players: 4, Modules: rules.AllModules}, {Players: 5, Variant: rules.Classic, Modules: rules.PlayerLoans}} {
		opts := Options{Rules: o, HideOpponentCash: true}
		ck, err := newChecker(opts, CheckOptions{LeakEvery: 3})
		if err != nil {
			t.Fatal(err)
		}
		if err := ck.run(CheckOptions{Games: 2, Seed: 5}); err != nil {
			t.Fatalf("%s: %v", configName(o), err)
		}
		if ck.cashChecks == 0 {
			t.Errorf("%s: no cash comparisons ran", configName(o))
		}
		e, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		if v := e.Spec().Version; v != encoding.HiddenCashVersion {
			t.Errorf("%s: spec version %q, want %q", configName(o), v, encoding.HiddenCashVersion)
		}
	}
	// The standard observation shows opponents' cash, so the same probe must fail there:
	// the check is able to fail.
	ck, err := newChecker(Options{Rules: rules.Options{Players: 4}}, CheckOptions{LeakEvery: 3})
	if err != nil {
		t.Fatal(err)
	}
	ck.hideCash = true
	if err := ck.run(CheckOptions{Games: 1, Seed: 5}); !errors.Is(err, ErrCheck) || !strings.Contains(err.Error(), "cash leaks") {
		t.Errorf("cash probe on the standard observation: err = %v, want a cash leak", err)
	}
}

func TestCheckPassesWithTruncation(t *testing.T) {
	o := Options{Rules: rules.DefaultOptions(), Reward: Rank, MaxSteps: 25}
	if err := Check(o, CheckOptions{Games: 2, Seed: 5}); err != nil {
		t.Fatal(err)
	}
}

func TestCheckPassesWithDenseRewards(t *testing.T) {
	for r := WinLoss; r < numRewardSchemes; r++ {
		o := Options{Rules: rules.Options{Players: 3}, Reward: r, Dense: true}
		if err := Check(o, CheckOptions{Games: 1, Seed: 8, LeakEvery: 50}); err != nil {
			t.Fatalf("%s: %v", r, err)
		}
	}
}

func TestTruncationEndsTheEpisodeWithoutRewards(t *testing.T) {
	e, err := New(Options{Rules: rules.DefaultOptions(), MaxSteps: 10})
	if err != nil {
		t.Fatal(err)
	}
	e.Reset(1)
	var res StepResult
	for i := 0; i < 10; i++ {
		if res.Truncated {
			t.Fatalf("truncated after %d steps, want 10", i)
		}
		res, err = e.Step(e.Legal()[0])
		if err != nil {
			t.Fatal(err)
		}
	}
	if !res.Truncated || res.Terminated || res.Info.Steps != 10 || len(res.Info.Scores) != 4 {
		t.Fatalf("after 10 steps: truncated %v, terminated %v, steps %d, %d scores", res.Truncated, res.Terminated, res.Info.Steps, len(res.Info.Scores))
	}
	for _, r := range res.Rewards {
		if r != 0 {
			t.Fatalf("truncation rewards %v, want zeros", res.Rewards)
		}
	}
	if _, err := e.Step(0); !errors.Is(err, ErrEpisodeOver) {
		t.Fatalf("step after truncation: %v", err)
	}
}

func TestStepRefusesIllegalActionsAndLeavesTheEnvUnchanged(t *testing.T) {
	e, err := New(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Step(0); !errors.Is(err, ErrNotReset) {
		t.Fatalf("step before reset: %v", err)
	}
	if err := e.Observe(0, make([]float32, e.ObsSize())); !errors.Is(err, ErrNotReset) {
		t.Fatalf("observe before reset: %v", err)
	}
	obs, _ := e.Reset(3)
	before := slices.Clone(obs)
	h := e.State().Hash()
	bad := slices.Index(e.Mask(), 0)
	for _, a := range []int{bad, -1, e.NumActions(), 1 << 30} {
		if _, err := e.Step(a); !errors.Is(err, rules.ErrIllegalAction) {
			t.Errorf("action %d: %v, want ErrIllegalAction", a, err)
		}
	}
	if e.State().Hash() != h || !slices.Equal(before, e.Obs()) {
		t.Error("a refused action changed the environment")
	}
}

func TestOptionsValidation(t *testing.T) {
	bad := []Options{
		{Rules: rules.Options{Players: 2}},
		{Rules: rules.DefaultOptions(), Reward: 9},
		{Rules: rules.DefaultOptions(), MarginScale: -1},
		{Rules: rules.DefaultOptions(), MarginScale: math.NaN()},
		{Rules: rules.DefaultOptions(), MaxSteps: -3},
	}
	for _, o := range bad {
		if _, err := New(o); !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("New(%+v): %v, want ErrInvalidOptions", o, err)
		}
	}
	if _, err := ParseRewardScheme("elo"); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("ParseRewardScheme(elo): %v", err)
	}
	for r := WinLoss; r < numRewardSchemes; r++ {
		if got, err := ParseRewardScheme(r.String()); err != nil || got != r {
			t.Errorf("ParseRewardScheme(%q) = %v, %v", r.String(), got, err)
		}
	}
}

// playRandom plays one episode with a seeded random policy and returns the actions and the
// final result.
func playRandom(t *testing.T, e *Env, seed uint64) ([]int, StepResult) {
	t.Helper()
	e.Reset(seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	var actions []int
	for {
		legal := e.Legal()
		a := legal[rng.IntN(len(legal))]
		actions = append(actions, a)
		res, err := e.Step(a)
		if err != nil {
			t.Fatal(err)
		}
		if res.Terminated || res.Truncated {
			return actions, res
		}
	}
}

func TestSameSeedAndActionsGiveTheSameEpisode(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 5}, Reward: CashMargin}
	a, _ := New(o)
	b, _ := New(o)
	actions, res := playRandom(t, a, 42)
	obs, _ := b.Reset(42)
	first := slices.Clone(obs)
	var last StepResult
	for _, act := range actions {
		var err error
		if last, err = b.Step(act); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(last.Rewards, res.Rewards) || !slices.Equal(last.Obs, res.Obs) || a.State().Hash() != b.State().Hash() {
		t.Fatal("replaying the actions gives another episode")
	}
	obs2, _ := b.Reset(42)
	if !slices.Equal(first, obs2) {
		t.Fatal("Reset(42) twice gives different first observations")
	}
	obs3, _ := b.Reset(43)
	if slices.Equal(first, obs3) && a.State().Hash() == b.State().Hash() {
		t.Fatal("seeds 42 and 43 give the same game")
	}
}

func TestEpisodeEndGivesRewardsToEverySeat(t *testing.T) {
	for r := WinLoss; r < numRewardSchemes; r++ {
		t.Run(r.String(), func(t *testing.T) {
			e, _ := New(Options{Rules: rules.DefaultOptions(), Reward: r})
			_, res := playRandom(t, e, 7)
			if !res.Terminated || res.Agent != -1 || res.Info.Phase != rules.PhaseTerminal {
				t.Fatalf("end: terminated %v, agent %d, phase %s", res.Terminated, res.Agent, res.Info.Phase)
			}
			want := make([]float32, 4)
			FinalRewards(r, 0, res.Info.Scores, want)
			if !slices.Equal(res.Rewards, want) || !slices.Equal(e.CumulativeRewards(), want) {
				t.Fatalf("rewards %v, cumulative %v, want %v", res.Rewards, e.CumulativeRewards(), want)
			}
			_, cum, term, _, _ := e.Last()
			if !term || cum != want[e.lastAgent] {
				t.Fatalf("Last: terminated %v, cumulative %g, want %g", term, cum, want[e.lastAgent])
			}
		})
	}
}

func scores(totals, factory []int, winners ...int) []rules.Score {
	s := make([]rules.Score, len(totals))
	for i := range s {
		s[i].Total = totals[i]
		s[i].FactoryContainers = factory[i]
	}
	for _, w := range winners {
		s[w].Winner = true
	}
	return s
}

func TestRewardSchemesSumAsDocumented(t *testing.T) {
	cases := []struct {
		name string
		s    []rules.Score
		want map[RewardScheme][]float32
	}{
		{"clear winner", scores([]int{55, 62, 71}, []int{0, 0, 0}, 2), map[RewardScheme][]float32{
			WinLoss:    {0, 0, 1},
			Rank:       {-1, 0, 1},
			CashMargin: {(55 - 66.5) / 100, -0.01, (71 - 58.5) / 100},
		}},
		{"shared win", scores([]int{40, 40, 30, 20}, []int{2, 2, 1, 0}, 0, 1), map[RewardScheme][]float32{
			WinLoss: {0.5, 0.5, 0, 0},
			Rank:    {float32(1 - 2*0.5/3), float32(1 - 2*0.5/3), float32(1 - 2*2.0/3), -1},
		}},
		{"tie broken by factory containers", scores([]int{40, 40, 10}, []int{3, 1, 0}, 0), map[RewardScheme][]float32{
			WinLoss: {1, 0, 0},
			Rank:    {1, 0, -1},
		}},
	}
	for _, c := range cases {
		for r := WinLoss; r < numRewardSchemes; r++ {
			got := make([]float32, len(c.s))
			FinalRewards(r, 0, c.s, got)
			sum := 0.0
			for _, v := range got {
				sum += float64(v)
			}
			if math.Abs(sum-r.RewardSum()) > 1e-5 {
				t.Errorf("%s, %s: rewards %v sum to %g, want %g", c.name, r, got, sum, r.RewardSum())
			}
			if want, ok := c.want[r]; ok {
				for i := range want {
					if math.Abs(float64(got[i]-want[i])) > 1e-6 {
						t.Errorf("%s, %s: rewards %v, want %v", c.name, r, got, want)
						break
					}
				}
			}
		}
	}
}

func TestEnvStepAllocatesNothing(t *testing.T) {
	e, _ := New(DefaultOptions())
	e.Reset(1)
	rng := rand.New(rand.NewPCG(1, 2))
	// Steps that do not end the game (the end allocates the score breakdown once).
	allocs := testing.AllocsPerRun(200, func() {
		if e.Done() {
			e.Reset(rng.Uint64())
		}
		legal := e.Legal()
		if _, err := e.Step(legal[rng.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 0.05 {
		t.Errorf("Env.Step allocates %g times per step", allocs)
	}
}

func TestSizesMatchTheEnv(t *testing.T) {
	for _, o := range checkConfigs() {
		e, err := New(Options{Rules: o})
		if err != nil {
			t.Fatal(err)
		}
		d, err := ObsSize(o)
		if err != nil || d != e.ObsSize() || NumActions() != e.NumActions() || len(e.Mask()) != NumActions() {
			t.Fatalf("%s: ObsSize %d (%v), env %d; NumActions %d, env %d", configName(o), d, err, e.ObsSize(), NumActions(), e.NumActions())
		}
	}
	if _, err := ObsSize(rules.Options{Players: 9}); !errors.Is(err, ErrInvalidOptions) {
		t.Fatalf("ObsSize of 9 players: %v", err)
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
