package training

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
)

// Edge cases of the PPO rollout (training/rollout.go; the mutation records in docs/results/ name
// the bug each one catches).

// Every learner decision of a rollout is stored with the observation its game showed the
// learner at that step, and with the network's value estimate (index 0) of exactly that
// observation; its log-probability is the network's log-softmax of the sampled action. The
// collect loop is stepped by hand here so each step's observations can be compared while
// the games are still at that step; steps with several learner decisions are required.
func TestPPORolloutRowsKeepTheirOwnObservationAndValueEstimate(t *testing.T) {
	o := tinyPPO(t)
	o.Games, o.SnapshotShare = 6, 0
	o.Opponents = []string{"random"}
	g, _, net := testLearner(t, &o)
	col := &collector{opts: &o, game: g, scheme: env.Rank}
	v, err := col.newVec(net, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	rng := rand.New(rand.NewPCG(7, 8))
	trajs, err := col.seatGames(0, rng)
	if err != nil {
		t.Fatal(err)
	}
	p := newRolloutPlay(v, net, nil, trajs, o.Rules.Players)
	D, A, V := p.D, p.A, p.V
	ws := make([]Workspace, 1)
	logits, values := make([]float32, A), make([]float32, V)
	multi := 0
	for step := 0; p.remaining > 0; step++ {
		if step > g.MaxGameLength() {
			t.Fatal("games never end")
		}
		if err := p.opponentsAct(); err != nil {
			t.Fatal(err)
		}
		before := len(p.acts)
		p.learnerActs(rng)
		if len(p.learnerRows) > 1 {
			multi++
		}
		if len(p.obs) != len(p.acts)*D || len(p.vals) != len(p.acts) || len(p.acts) != before+len(p.learnerRows) {
			t.Fatalf("step %d: %d observation entries, %d values for %d decisions", step, len(p.obs), len(p.vals), len(p.acts))
		}
		for k, gi := range p.learnerRows {
			r := before + k
			want := v.Obs[gi*D : (gi+1)*D]
			if got := p.obs[r*D : (r+1)*D]; !slices.Equal(got, want) {
				t.Fatalf("step %d: decision %d (game %d) stored another observation than its game's", step, r, gi)
			}
			if got, want := p.mask[r*A:(r+1)*A], v.Mask[gi*A:(gi+1)*A]; !slices.Equal(got, want) {
				t.Fatalf("step %d: decision %d (game %d) stored another mask than its game's", step, r, gi)
			}
			net.ForwardParallel(ws, 1, want, v.Mask[gi*A:(gi+1)*A], logits, values)
			if p.vals[r] != values[0] {
				t.Fatalf("step %d: decision %d value estimate %v, the network says %v for its observation", step, r, p.vals[r], values[0])
			}
			a := int(p.acts[r])
			if lp := logSoftmaxAt(logits, a); math.Abs(float64(p.logp[r])-lp) > 1e-5 {
				t.Fatalf("step %d: decision %d log-probability %v, the network's is %v", step, r, p.logp[r], lp)
			}
		}
		if err := v.Step(p.actions); err != nil {
			t.Fatal(err)
		}
		p.endGames()
	}
	if multi < 3 {
		t.Fatalf("only %d steps with several learner decisions: the test proves little (change the seed)", multi)
	}
}

// logSoftmaxAt is log p(a) of the legal (not masked) logits, computed directly.
func logSoftmaxAt(l []float32, a int) float64 {
	var sum float64
	for _, x := range l {
		if x != maskedLogit {
			sum += math.Exp(float64(x))
		}
	}
	return float64(l[a]) - math.Log(sum)
}

// Each iteration of a run plays new deals (the games are seeded by the run's seed and the
// iteration), and the same iteration of the same run replays the same deals.
func TestPPOIterationsDealNewGamesReproducibly(t *testing.T) {
	o := tinyPPO(t)
	o.Games = 3
	g, _, net := testLearner(t, &o)
	col := &collector{opts: &o, game: g, scheme: env.Rank}
	obs := func(it int64) []float32 {
		v, err := col.newVec(net, it)
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		return slices.Clone(v.Obs)
	}
	one, again, two := obs(1), obs(1), obs(2)
	if !slices.Equal(one, again) {
		t.Fatal("iteration 1 dealt different games twice")
	}
	if slices.Equal(one, two) {
		t.Fatal("iterations 1 and 2 dealt the same games")
	}
}

// With no pool snapshots yet (the first iterations of a run), every opponent is a scripted
// bot whatever SnapshotShare says.
func TestPPOWithoutSnapshotsEveryOpponentIsScripted(t *testing.T) {
	o := tinyPPO(t)
	o.Games, o.SnapshotShare = 3, 1
	o.Opponents = []string{"random"}
	g, _, net := testLearner(t, &o)
	col := &collector{opts: &o, game: g, scheme: env.Rank}
	ro, err := col.collect(net, nil, rand.New(rand.NewPCG(5, 6)), 1)
	if err != nil {
		t.Fatal(err)
	}
	for gi, tr := range ro.trajs {
		for s := range tr.oppBatch {
			if s != tr.seat && (tr.oppBatch[s] != -1 || tr.opp[s] == nil) {
				t.Fatalf("game %d seat %d: not a scripted opponent (batch %d)", gi, s, tr.oppBatch[s])
			}
		}
	}
}

// The logged win rate counts a learner win as 1 and a win shared by k seats as 1/k, over all
// the iteration's games; a truncated game is no win, and a game is counted once however long
// the others last. The mean reward is the learner's final reward averaged the same way.
func TestPPOWinRateSplitsSharedWinsAndCountsEachGameOnce(t *testing.T) {
	const P = 3
	winners := func(seats ...int) []rules.Score {
		sc := make([]rules.Score, P)
		for _, s := range seats {
			sc[s].Winner = true
		}
		return sc
	}
	v := &env.VecEnv{N: 4, P: P,
		Terminated: []bool{true, true, true, false},
		Truncated:  []bool{false, false, false, true},
		Scores:     [][]rules.Score{winners(1), winners(0, 2), winners(0), winners(2)},
		Rewards:    []float32{-1, 1, 0, 0.5, -1, 0.5, 1, 0, -1, 0, 0, 0},
	}
	p := &rolloutPlay{v: v, P: P, V: P, remaining: 4, finals: make([][]float32, 4),
		trajs: []gameTraj{{seat: 1}, {seat: 0}, {seat: 2}, {seat: 2}}}
	p.endGames()
	p.endGames() // the flags of a finished game stay set until its next episode ends
	if p.remaining != 0 {
		t.Fatalf("%d games left, want 0", p.remaining)
	}
	ro := p.rollout()
	// Wins: game 0 alone (1), game 1 shared by two (1/2), game 2 lost, game 3 truncated.
	if want := 1.5 / 4; math.Abs(ro.winRate-want) > 1e-12 {
		t.Fatalf("win rate %v, want %v", ro.winRate, want)
	}
	// Learner rewards 1, 0.5, -1, 0.
	if want := 0.5 / 4; math.Abs(ro.meanReward-want) > 1e-7 {
		t.Fatalf("mean reward %v, want %v", ro.meanReward, want)
	}
	if !slices.Equal(ro.finals[1], []float32{0.5, -1, 0.5}) {
		t.Fatalf("game 1 final rewards %v", ro.finals[1])
	}
}

// The advantages are generalised advantage estimates (GAE) of each game's learner decisions,
// with the learner's final reward on its last decision and the value estimates between,
// then normalised to mean 0 and standard deviation 1 over the iteration. Hand-computed with
// gamma 0.9, lambda 0.8 (gamma*lambda = 0.72):
//
//	game 0 (learner seat 1, final reward 1), decisions 0, 2, 4 with values 1, 0.25, -0.5:
//	  4: delta = 1 - (-0.5) = 1.5                        gae = 1.5
//	  2: delta = 0.9*(-0.5) - 0.25 = -0.7                gae = -0.7 + 0.72*1.5 = 0.38
//	  0: delta = 0.9*0.25 - 1 = -0.775                   gae = -0.775 + 0.72*0.38 = -0.5014
//	game 1 (learner seat 0, final reward 0.5), decisions 1, 3 with values -0.25, 0.75:
//	  3: delta = 0.5 - 0.75 = -0.25                      gae = -0.25
//	  1: delta = 0.9*0.75 - (-0.25) = 0.925              gae = 0.925 + 0.72*(-0.25) = 0.745
func TestPPOAdvantagesAreNormalisedGAEOfTheFinalReward(t *testing.T) {
	ro := &rollout{rows: 5,
		trajs:  []gameTraj{{seat: 1, rows: []int{0, 2, 4}}, {seat: 0, rows: []int{1, 3}}},
		finals: [][]float32{{-1, 1}, {0.5, -0.5}},
		vals:   []float32{1, -0.25, 0.25, 0.75, -0.5},
	}
	ro.advantages(0.9, 0.8)
	raw := []float64{-0.5014, 0.745, 0.38, -0.25, 1.5}
	var mean, sq float64
	for _, x := range raw {
		mean += x / 5
	}
	for _, x := range raw {
		sq += (x - mean) * (x - mean) / 5
	}
	for r, x := range raw {
		want := (x - mean) / math.Sqrt(sq)
		if got := float64(ro.b.Advantages[r]); !(math.Abs(got-want) < 1e-5) {
			t.Fatalf("decision %d: advantage %v, want %v (all: %v)", r, got, want, ro.b.Advantages)
		}
	}
}

// normalise scales to mean 0 and (population) standard deviation 1, hand-computed; it stays
// exact when the values share a large offset (2^24: a one-pass sum of squares loses the
// spread there), and a near-constant input stays finite (the standard deviation gets 1e-8).
func TestNormaliseGivesMeanZeroStandardDeviationOne(t *testing.T) {
	r2 := math.Sqrt2
	for _, c := range []struct {
		name    string
		in      []float32
		want    []float64
		epsilon float64
	}{
		// mean 3, deviations -2 -1 0 3, variance 14/4, std sqrt(3.5)
		{"small", []float32{1, 2, 3, 6}, []float64{-2 / math.Sqrt(3.5), -1 / math.Sqrt(3.5), 0, 3 / math.Sqrt(3.5)}, 1e-6},
		// mean 2^24 + 2/3, deviations -2/3 -2/3 4/3, std sqrt(8/9)
		{"offset", []float32{1 << 24, 1 << 24, 1<<24 + 2}, []float64{-1 / r2, -1 / r2, r2}, 1e-6},
		// mean 1e-8, std 1e-8, divided by 2e-8
		{"near constant", []float32{0, 2e-8}, []float64{-0.5, 0.5}, 1e-6},
		{"constant", []float32{4, 4, 4}, []float64{0, 0, 0}, 0},
		{"empty", nil, nil, 0},
	} {
		x := slices.Clone(c.in)
		normalise(x)
		for i := range c.want {
			if got := float64(x[i]); !(math.Abs(got-c.want[i]) <= c.epsilon) {
				t.Fatalf("%s: normalise(%v) = %v, want %v", c.name, c.in, x, c.want)
			}
		}
	}
}

// constSource is a random source that always returns one value, to pin the uniform draw.
type constSource uint64

func (c constSource) Uint64() uint64 { return uint64(c) }

// sampleLogits draws from the softmax of the legal logits (masked ones never: not at the
// extreme draws 0 and just below 1 either) and returns the action's log-probability.
func TestSampleLogitsDrawsTheLegalSoftmaxWithItsLogProbability(t *testing.T) {
	M := float32(maskedLogit)
	l := []float32{M, 2, M, 3, 1, M}
	var z float64
	for _, x := range l {
		if x != M {
			z += math.Exp(float64(x))
		}
	}
	const draws = 20000
	count := make([]int, len(l))
	rng := rand.New(rand.NewPCG(3, 4))
	for range draws {
		a, lp := sampleLogits(l, rng)
		if a < 0 || a >= len(l) || l[a] == M {
			t.Fatalf("sampled masked action %d", a)
		}
		if want := float64(l[a]) - math.Log(z); math.Abs(float64(lp)-want) > 1e-6 {
			t.Fatalf("action %d: log-probability %v, want %v", a, lp, want)
		}
		count[a]++
	}
	for a, x := range l {
		if x == M {
			continue
		}
		// 5 standard deviations of the frequency (at most 0.0035 here).
		if p, f := math.Exp(float64(x))/z, float64(count[a])/draws; math.Abs(f-p) > 0.018 {
			t.Fatalf("action %d drawn %.4f of the time, its probability is %.4f (counts %v)", a, f, p, count)
		}
	}
	for _, draw := range []uint64{0, math.MaxUint64} {
		for _, row := range [][]float32{l, {M, M, 0, M}, {5, M, M}} {
			a, _ := sampleLogits(row, rand.New(constSource(draw)))
			if row[a] == M {
				t.Fatalf("draw %#x, logits %v: sampled masked action %d", draw, row, a)
			}
		}
	}
}

// The PPO rollout's value targets are every seat's final reward rotated so that index 0 is
// the learner (the decider of every learner row), as the observation rotates seats; the
// learner decides in every game, whatever its seat (seat 0 included); the mean learner
// reward it logs is the mean of those final rewards.
func TestPPORolloutValueTargetsAreFinalRewardsRotatedToTheLearner(t *testing.T) {
	o := tinyPPO(t)
	o.Games, o.SnapshotShare, o.Reward = 4, 0, env.Rank.String()
	o.Opponents = []string{"random"}
	g, _, net := testLearner(t, &o)
	col := &collector{opts: &o, game: g, scheme: env.Rank}
	ro, err := col.collect(net, nil, rand.New(rand.NewPCG(5, 6)), 1)
	if err != nil {
		t.Fatal(err)
	}
	P, V := o.Rules.Players, o.Net.ValueDim
	if len(ro.trajs) != o.Games || len(ro.finals) != o.Games || ro.rows != ro.b.Rows || ro.rows == 0 {
		t.Fatalf("%d games, %d finals, %d rows", len(ro.trajs), len(ro.finals), ro.rows)
	}
	var sum float64
	rotated, covered, seat0 := 0, 0, 0
	for gi, tr := range ro.trajs {
		f := ro.finals[gi]
		if len(tr.rows) == 0 {
			t.Fatalf("game %d: the learner (seat %d) made no decision", gi, tr.seat)
		}
		if tr.seat == 0 {
			seat0++
		}
		var total float32
		for _, x := range f {
			total += x
		}
		if total < -1e-5 || total > 1e-5 || slices.Max(f) != 1 {
			t.Fatalf("game %d: final rank rewards %v do not sum to 0 with a winner at +1", gi, f)
		}
		sum += float64(f[tr.seat])
		for _, r := range tr.rows {
			covered++
			got := ro.b.Values[r*V : (r+1)*V]
			for k := range P {
				if want := f[(tr.seat+k)%P]; got[k] != want {
					t.Fatalf("game %d (learner seat %d) row %d: value targets %v, want the final rewards %v rotated to the learner", gi, tr.seat, r, got, f)
				}
			}
		}
		if tr.seat != 0 && len(tr.rows) > 0 && f[tr.seat] != f[0] {
			rotated++
		}
	}
	// Each row keeps the mask its action was sampled under: the action is legal in it.
	A := o.Net.NumActions
	for r := range ro.rows {
		if a := int(ro.b.Actions[r]); ro.b.Mask[r*A+a] == 0 {
			t.Fatalf("row %d: action %d is not legal in the row's stored mask", r, a)
		}
	}
	if covered != ro.rows {
		t.Fatalf("games cover %d rows of %d", covered, ro.rows)
	}
	if seat0 == 0 {
		t.Fatal("no game with the learner in seat 0 (change the seed)")
	}
	if rotated == 0 {
		t.Fatal("no game with the learner off seat 0: rotation untested (change the seed)")
	}
	if want := sum / float64(o.Games); ro.meanReward != want {
		t.Fatalf("mean learner reward %v, want %v", ro.meanReward, want)
	}
}
