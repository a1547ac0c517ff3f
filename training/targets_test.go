package training

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
)

// Edge cases of the learning targets and the trained bot's
// move choice (the mutation records in docs/results/ name the bug each one catches).

// biasNet is a network without hidden layers whose policy ignores the observation: every
// action's logit is its bias, bias[a] = (a*7) mod 31, so the best legal move is known.
func biasNet(t *testing.T, opts rules.Options) (*BotFile, func(a int) float32) {
	t.Helper()
	_, cfg, w := linearNet(t, opts)
	bias := func(a int) float32 { return float32((a * 7) % 31) }
	for i, p := range cfg.Params() {
		switch p.Name {
		case "policy_w":
			clear(w.Tensors[i])
		case "policy_b":
			for a := range w.Tensors[i] {
				w.Tensors[i][a] = bias(a)
			}
		}
	}
	return linearBotFile("bias", opts, w), bias
}

// A trained bot at temperature 0 plays the legal move with the highest logit (the first of
// equals), one at a time (Act) and batched (ActBatch), in every decision of a game.
func TestNetBotAtTemperatureZeroPlaysTheHighestLogitLegalMove(t *testing.T) {
	opts := rules.DefaultOptions()
	opts.TurnLimit = 20
	f, bias := biasNet(t, opts)
	nb, err := NewNetBot("bias", f, &opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.NewGame(opts)
	st := g.NewInitialStateSeed(9)
	var view rules.State
	out := make([]int, 1)
	choices := 0
	for step := 0; !st.IsTerminal() && step < 2000; step++ {
		legal := st.LegalActions(nil)
		st.Redact(st.CurrentPlayer(), &view)
		want := legal[0]
		for _, a := range legal {
			if bias(a) > bias(want) {
				want = a
			}
		}
		if got := nb.Act(&view, legal); got != want {
			t.Fatalf("step %d: Act played %d (logit %g), the best legal move is %d (logit %g); legal %v", step, got, bias(got), want, bias(want), legal)
		}
		nb.ActBatch([]*rules.State{&view}, [][]int{legal}, out)
		if out[0] != want {
			t.Fatalf("step %d: ActBatch played %d, the best legal move is %d", step, out[0], want)
		}
		if len(legal) > 1 {
			choices++
		}
		st.Apply(want)
	}
	if nb.Err() != nil {
		t.Fatal(nb.Err())
	}
	if choices < 20 {
		t.Fatalf("only %d decisions with a choice: the test proves little", choices)
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

// CollectSamples (train bc --teachers) records each decision with value targets equal to
// every seat's final reward under the scheme, rotated so index 0 is the decider. The check
// replays each recorded game through the rules engine from its seed and actions.
func TestCollectSamplesValueTargetsAreFinalRewardsRotatedToTheDecider(t *testing.T) {
	opts := rules.Options{Players: 3, TurnLimit: 25}
	const seed, games = 5, 3
	s, err := CollectSamples([]string{"random", "valuer", "shipper"}, nil, games, opts, env.Rank, seed, 2)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	P := opts.Players
	row := 0
	offSeat0 := 0
	for gi := range games {
		st := g.NewInitialStateSeed(env.GameSeed(seed, gi, 0))
		first := row
		var deciders []int
		for ; row < s.Len() && s.Games[row] == uint64(gi); row++ {
			deciders = append(deciders, st.CurrentPlayer())
			if err := st.ApplyChecked(int(s.Actions[row])); err != nil {
				t.Fatalf("game %d row %d: replay: %v", gi, row, err)
			}
		}
		if !st.IsTerminal() {
			t.Fatalf("game %d: replaying %d recorded actions does not end the game", gi, row-first)
		}
		final := make([]float32, P)
		env.FinalRewards(env.Rank, 0, st.Scores(), final)
		for i, d := range deciders {
			got := s.Values[(first+i)*P : (first+i+1)*P]
			for k := range P {
				if want := final[(d+k)%P]; got[k] != want {
					t.Fatalf("game %d step %d (decider %d): value targets %v, want the final rewards %v rotated to the decider", gi, i, d, got, final)
				}
			}
			if d != 0 {
				offSeat0++
			}
		}
	}
	if row != s.Len() || offSeat0 == 0 {
		t.Fatalf("checked %d of %d rows, %d off seat 0", row, s.Len(), offSeat0)
	}
}

// CollectSamples plays as few as one game and refuses none (or no teachers) with ErrConfig.
func TestCollectSamplesPlaysOneGameAndRefusesNone(t *testing.T) {
	opts := rules.Options{Players: 3, TurnLimit: 10}
	s, err := CollectSamples([]string{"random"}, nil, 1, opts, env.WinLoss, 1, 1)
	if err != nil {
		t.Fatalf("one game: %v", err)
	}
	if s.Len() == 0 || slices.ContainsFunc(s.Games, func(g uint64) bool { return g != 0 }) {
		t.Fatalf("one game: %d rows of games %v", s.Len(), s.Games)
	}
	if _, err := CollectSamples([]string{"random"}, nil, 0, opts, env.WinLoss, 1, 1); !errors.Is(err, ErrConfig) {
		t.Fatalf("no games: %v, want ErrConfig", err)
	}
	if _, err := CollectSamples(nil, nil, 1, opts, env.WinLoss, 1, 1); !errors.Is(err, ErrConfig) {
		t.Fatalf("no teachers: %v, want ErrConfig", err)
	}
}

// CollectSamples seats the teachers in rotation (in game g, seat i plays teachers[(i+g) mod
// k]) and records only the listed teachers' decisions: with teachers random, valuer, shipper
// and record valuer, the recorded rows are exactly the rows of a full recording whose decider
// is seat (1-g) mod 3 (deciders found by replaying the full recording). The samples do not
// depend on the number of workers (0 meaning one per CPU).
func TestCollectSamplesRotatesTeachersAndRecordsOnlyTheListed(t *testing.T) {
	opts := rules.Options{Players: 3, TurnLimit: 15}
	teachers := []string{"random", "valuer", "shipper"}
	const seed, games = 2, 3
	full, err := CollectSamples(teachers, nil, games, opts, env.WinLoss, seed, 1)
	if err != nil {
		t.Fatal(err)
	}
	only, err := CollectSamples(teachers, []string{"valuer"}, games, opts, env.WinLoss, seed, 1)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.NewGame(opts)
	D := full.ObsDim
	var wantActions []int32
	var wantObs []float32
	st := g.NewInitialStateSeed(env.GameSeed(seed, 0, 0))
	for r := 0; r < full.Len(); r++ {
		gi := int(full.Games[r])
		if r == 0 || full.Games[r-1] != full.Games[r] {
			st = g.NewInitialStateSeed(env.GameSeed(seed, gi, 0))
		}
		if st.CurrentPlayer() == (1-gi+3)%3 {
			wantActions = append(wantActions, full.Actions[r])
			wantObs = append(wantObs, full.Obs[r*D:(r+1)*D]...)
		}
		if err := st.ApplyChecked(int(full.Actions[r])); err != nil {
			t.Fatalf("row %d: replay: %v", r, err)
		}
	}
	if len(wantActions) == 0 || !slices.Equal(only.Actions, wantActions) || !slices.Equal(only.Obs, wantObs) {
		t.Fatalf("recorded %d valuer decisions, want the %d of seat (1-g) mod 3 in game g", only.Len(), len(wantActions))
	}
	for _, w := range []int{0, 3} {
		o, err := CollectSamples(teachers, []string{"valuer"}, games, opts, env.WinLoss, seed, w)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(o.Actions, only.Actions) || !slices.Equal(o.Values, only.Values) || !slices.Equal(o.Obs, only.Obs) {
			t.Fatalf("%d workers give other samples than 1", w)
		}
	}
}
