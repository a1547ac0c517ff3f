package bridge

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
)

// TestOpponentsPlayLikeTheSameBotsAskedOneMoveAtATime: a game where Go bots step the other
// seats (EnvSetOpponents + EnvStepPlay) is move for move the game a host gets by asking the
// same bots, seeded as documented, for each of their moves and stepping a plain env.
func TestOpponentsPlayLikeTheSameBotsAskedOneMoveAtATime(t *testing.T) {
	const opts = `{"players": 4, "dense": true, "reward": "cash-margin"}`
	specs := []string{"valuer", "", "random", "shipper"}
	const seed = 11
	h, b := newTestEnv(t, opts)
	if err := EnvSetOpponents(h, specs); err != nil {
		t.Fatal(err)
	}
	ref, rb := newTestEnv(t, opts)
	o, err := ParseOptions(opts, env.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	refBots := make([]*bots.Seat, 4)
	for s, spec := range specs {
		if spec != "" {
			// Seat s's bot is seeded with env.GameSeed(seed, 1+s, 0) for the game of seed.
			bot, err := bots.New(spec, o.Rules, env.GameSeed(seed, 1+s, 0))
			if err != nil {
				t.Fatal(err)
			}
			refBots[s] = bots.NewSeat(bot)
		}
	}
	if err := EnvReset(h, seed, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := EnvPlay(h); err != nil {
		t.Fatal(err)
	}
	if err := EnvReset(ref, seed, ""); err != nil {
		t.Fatal(err)
	}
	refEnv, _ := get[*Env](ref, "env")
	// refPlay steps the reference env with its bots until seat 1 decides or the game ends,
	// returning seat 1's reward over those moves.
	refPlay := func() {
		for rb.Status[StAgent] >= 0 && refBots[rb.Status[StAgent]] != nil {
			a, err := refBots[rb.Status[StAgent]].ActLegal(refEnv.e.State(), refEnv.e.Legal())
			if err != nil {
				t.Fatal(err)
			}
			if err := EnvStep(ref, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	refPlay()
	rng := rand.New(rand.NewPCG(3, 4))
	decisions := 0
	var collected float64
	for {
		if !slices.Equal(b.Obs, rb.Obs) || !slices.Equal(b.Status, rb.Status) || !slices.Equal(b.Total, rb.Total) {
			t.Fatalf("decision %d: the two games differ: status %v vs %v", decisions, b.Status, rb.Status)
		}
		if b.Since[1] != rb.Since[1] {
			t.Fatalf("decision %d: seat 1's reward since it acted %g, reference %g", decisions, b.Since[1], rb.Since[1])
		}
		collected += float64(b.Since[1])
		if b.Status[StAgent] < 0 {
			break
		}
		if b.Status[StAgent] != 1 {
			t.Fatalf("decision %d: seat %d decides; only seat 1 is the caller's", decisions, b.Status[StAgent])
		}
		a := int(b.Legal[rng.IntN(int(b.Status[StNumLegal]))])
		if _, err := EnvStepPlay(h, a); err != nil {
			t.Fatal(err)
		}
		if err := EnvStep(ref, a); err != nil {
			t.Fatal(err)
		}
		refPlay()
		decisions++
	}
	if decisions == 0 {
		t.Fatal("seat 1 never decided")
	}
	if math.Abs(collected-float64(b.Total[1])) > 1e-3 {
		t.Errorf("seat 1 collected %g over its decisions, its episode total is %g", collected, b.Total[1])
	}
}

// TestOpponentsReplayAfterReset: two resets with the same seed give the same bot moves.
func TestOpponentsReplayAfterReset(t *testing.T) {
	h, b := newTestEnv(t, `{"players": 3}`)
	if err := EnvSetOpponents(h, []string{"", "random", "random"}); err != nil {
		t.Fatal(err)
	}
	play := func() []int64 {
		if err := EnvReset(h, 5, ""); err != nil {
			t.Fatal(err)
		}
		var trace []int64
		n, err := EnvPlay(h)
		if err != nil {
			t.Fatal(err)
		}
		trace = append(trace, int64(n))
		for b.Status[StAgent] >= 0 {
			n, err := EnvStepPlay(h, int(b.Legal[0]))
			if err != nil {
				t.Fatal(err)
			}
			trace = append(trace, int64(n), b.Status[StSteps])
		}
		return trace
	}
	a, c := play(), play()
	if !slices.Equal(a, c) {
		t.Error("the same seed gave different games with random opponents")
	}
	if len(a) < 10 {
		t.Errorf("a game of %d entries", len(a))
	}
}

func TestOpponentsErrors(t *testing.T) {
	h, b := newTestEnv(t, `{"players": 3}`)
	for _, c := range []struct {
		specs []string
		code  int
	}{
		{[]string{"random", "random", "random"}, CodeInvalid},
		{[]string{"", "random"}, CodeInvalid},
		{[]string{"", "nosuchbot", "random"}, CodeUnknownBot},
	} {
		if err := EnvSetOpponents(h, c.specs); Code(err) != c.code {
			t.Errorf("%q: %v (code %d), want code %d", c.specs, err, Code(err), c.code)
		}
	}
	if _, err := EnvPlay(h); Code(err) != CodeEpisodeOver {
		t.Errorf("play before reset: %v", err)
	}
	if err := EnvSetOpponents(h, []string{"random", "", "random"}); err != nil {
		t.Fatal(err)
	}
	if err := EnvReset(h, 1, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := EnvPlay(h); err != nil {
		t.Fatal(err)
	}
	st, obs := slices.Clone(b.Status), slices.Clone(b.Obs)
	illegal := slices.Index(b.Mask, 0)
	if _, err := EnvStepPlay(h, illegal); Code(err) != CodeIllegal {
		t.Errorf("illegal action: %v", err)
	}
	if !slices.Equal(st, b.Status) || !slices.Equal(obs, b.Obs) {
		t.Error("an illegal action changed the outputs")
	}
	for b.Status[StAgent] >= 0 {
		if _, err := EnvStepPlay(h, int(b.Legal[0])); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := EnvStepPlay(h, 0); !errors.Is(err, env.ErrEpisodeOver) {
		t.Errorf("step after the end: %v", err)
	}
	if err := EnvSetOpponents(h, nil); err != nil {
		t.Fatal(err)
	}
}

// playWithOpponents plays env h (random bots in seats 1 and 2) to the end from the current
// position, seat 0 taking its first legal action, and returns every position's status.
func playWithOpponents(t *testing.T, h int64, b EnvBuffers) [][]int64 {
	t.Helper()
	if _, err := EnvPlay(h); err != nil {
		t.Fatal(err)
	}
	trace := [][]int64{slices.Clone(b.Status)}
	for b.Status[StAgent] >= 0 {
		if _, err := EnvStepPlay(h, int(b.Legal[0])); err != nil {
			t.Fatal(err)
		}
		trace = append(trace, slices.Clone(b.Status))
	}
	return trace
}

// Opponents seated after a reset play the game as if they had been seated before it: their
// seeds come from the game's seed either way.
func TestOpponentsSeatedAfterAResetPlayAsIfSeatedBefore(t *testing.T) {
	const opts = `{"players": 3, "max_steps": 120}`
	specs := []string{"", "random", "random"}
	before, b := newTestEnv(t, opts)
	if err := EnvSetOpponents(before, specs); err != nil {
		t.Fatal(err)
	}
	if err := EnvReset(before, 9, ""); err != nil {
		t.Fatal(err)
	}
	after, a := newTestEnv(t, opts)
	if err := EnvReset(after, 9, ""); err != nil {
		t.Fatal(err)
	}
	if err := EnvSetOpponents(after, specs); err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(playWithOpponents(t, before, b), playWithOpponents(t, after, a), slices.Equal) {
		t.Error("bots seated after the reset played another game than bots seated before it")
	}
}

// EnvPlay and EnvStepPlay return the number of moves the bots made.
func TestEnvPlayCountsTheBotsMoves(t *testing.T) {
	h, b := newTestEnv(t, `{"players": 3}`)
	if err := EnvSetOpponents(h, []string{"", "random", "random"}); err != nil {
		t.Fatal(err)
	}
	moved := 0
	for seed := uint64(0); seed < 6; seed++ {
		if err := EnvReset(h, seed, ""); err != nil {
			t.Fatal(err)
		}
		n, err := EnvPlay(h)
		if err != nil {
			t.Fatal(err)
		}
		if int64(n) != b.Status[StSteps] {
			t.Fatalf("seed %d: EnvPlay made %d moves, the game has %d steps", seed, n, b.Status[StSteps])
		}
		for range 3 {
			steps := b.Status[StSteps]
			n, err := EnvStepPlay(h, int(b.Legal[0]))
			if err != nil {
				t.Fatal(err)
			}
			if int64(n) != b.Status[StSteps]-steps-1 {
				t.Fatalf("seed %d: EnvStepPlay reports %d bot moves, the game went from %d to %d steps", seed, n, steps, b.Status[StSteps])
			}
			moved += n
		}
	}
	if moved == 0 {
		t.Fatal("the bots never moved")
	}
}
