package training

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/datasets/selfplay"
	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
)

// calibrationData writes a small dataset of scripted games and returns its directory.
func calibrationData(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ds")
	_, err := selfplay.Run(context.Background(), selfplay.Config{Agents: []string{"valuer", "shipper", "manufacturer", "valuer"},
		Env: env.DefaultOptions(), Games: 6, Seed: 5, Out: dir, Workers: 1, GamesPerShard: 4, ToolVersion: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// constantValueBot writes a bot whose value head ignores the position: output k (seat k
// after the decider) is bias[k].
func constantValueBot(t *testing.T, bias []float32) string {
	t.Helper()
	g, err := rules.NewGame(rules.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	cfg := NetConfig{ObsDim: encoding.NewEncoder(g).Size(), NumActions: rules.NumDistinctActions(), ValueDim: len(bias), Width: 8, Depth: 1, Norm: NormLayer}
	w, err := NewWeights(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range cfg.Params() {
		switch p.Name {
		case "value_w":
			clear(w.Tensors[i])
		case "value_b":
			copy(w.Tensors[i], bias)
		}
	}
	path := filepath.Join(t.TempDir(), "const.bot")
	f := &BotFile{Header: BotHeader{Name: "const", EncodingVersion: encoding.Version, Actions: CurrentActionLayout(), Rules: rules.DefaultOptions()}, Weights: w}
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// Calibrate's Brier scores and reliability bins agree with a computation from the dataset's
// own tables, with every seat's output matched to the right seat (outputs are relative to
// the decider) and the phases splitting each game into thirds.
func TestCalibrate_ScoresEverySeatsOutputAgainstItsWinShare(t *testing.T) {
	dir := calibrationData(t)
	bias := []float32{0.93, 0.22, 0.05, 0.31}
	bot := constantValueBot(t, bias)
	c, err := Calibrate(dir, CalibrateOptions{Agent: bot, Bins: 10})
	if err != nil {
		t.Fatal(err)
	}

	ds, err := datasets.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	share, length := map[uint64][]float64{}, map[uint64]int{}
	for g, err := range ds.Games() {
		if err != nil {
			t.Fatal(err)
		}
		s := make([]float64, 4)
		for _, w := range g.Winners {
			s[w] = 1 / float64(len(g.Winners))
		}
		share[g.GameID], length[g.GameID] = s, int(g.Length)
	}
	var sq, sqDec, sqSearch [4]float64 // by phase, 3 = all
	var n, rows [4]int
	for b, err := range ds.StepBatches() {
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < int(b.Rec.NumRows()); i++ {
			id, d := b.GameID.Value(i), int(b.Decider.Value(i))
			ph := int(b.Step.Value(i)) * 3 / length[id]
			for _, p := range []int{ph, 3} {
				rows[p]++
				for k := range 4 {
					y := share[id][(d+k)%4]
					v := float64(bias[k])
					sq[p] += (v - y) * (v - y)
					sqSearch[p] += ((v+1)/2 - y) * ((v+1)/2 - y)
					n[p]++
					if k == 0 {
						sqDec[p] += (v - y) * (v - y)
					}
				}
			}
		}
	}
	if c.Games != 6 || c.Decisions != rows[3] || c.Players != 4 || len(c.Phases) != 4 || c.Reading != ReadWin {
		t.Fatalf("calibration of %d games, %d decisions, %d players, %d phases, reading %q; want 6, %d, 4, 4, win", c.Games, c.Decisions, c.Players, len(c.Phases), c.Reading, rows[3])
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-6 }
	for p, pc := range c.Phases {
		if pc.Decisions != rows[p] || pc.Predictions != n[p] {
			t.Errorf("%s: %d decisions, %d predictions; want %d, %d", pc.Phase, pc.Decisions, pc.Predictions, rows[p], n[p])
		}
		if !near(pc.Brier, sq[p]/float64(n[p])) || !near(pc.BrierDecider, sqDec[p]/float64(rows[p])) || !near(pc.BrierOther, sqSearch[p]/float64(n[p])) {
			t.Errorf("%s: Brier %v, decider's %v, read as search %v; want %v, %v, %v", pc.Phase, pc.Brier, pc.BrierDecider, pc.BrierOther,
				sq[p]/float64(n[p]), sqDec[p]/float64(rows[p]), sqSearch[p]/float64(n[p]))
		}
		if !near(pc.MeanObserved, 0.25) || !near(pc.BrierBase, 0.1875) {
			t.Errorf("%s: mean win share %v, base-rate Brier %v; want 0.25 and 0.1875 (one winner in 4 seats, no shared wins)", pc.Phase, pc.MeanObserved, pc.BrierBase)
		}
		if !near(pc.Skill, 1-pc.Brier/pc.BrierBase) {
			t.Errorf("%s: skill %v", pc.Phase, pc.Skill)
		}
		// Each output lands in its own bin: 0.93, 0.22, 0.05 and 0.31 in bins 9, 2, 0 and 3.
		for b, bin := range pc.Bins {
			want := 0
			for _, v := range bias {
				if int(float64(v)*10) == b {
					want = rows[p]
				}
			}
			if bin.N != want || bin.Lo != float64(b)/10 {
				t.Errorf("%s: bin %d [%v, %v) holds %d predictions, want %d", pc.Phase, b, bin.Lo, bin.Hi, bin.N, want)
			}
		}
	}
	if len(c.ByDecider) != 3 {
		t.Errorf("by decider: %d agents, want valuer, shipper and manufacturer", len(c.ByDecider))
	}
	total := 0
	for _, a := range c.ByDecider {
		total += a.Decisions
	}
	if total != rows[3] {
		t.Errorf("the deciders' rows add up to %d, want %d", total, rows[3])
	}

	// The search's reading swaps the two Brier scores.
	s, err := Calibrate(dir, CalibrateOptions{Agent: bot, Reading: ReadSearch})
	if err != nil {
		t.Fatal(err)
	}
	if all := s.Phases[3]; !near(all.Brier, c.Phases[3].BrierOther) || !near(all.BrierOther, c.Phases[3].Brier) {
		t.Errorf("read as search: Brier %v / %v, want %v / %v", all.Brier, all.BrierOther, c.Phases[3].BrierOther, c.Phases[3].Brier)
	}
}

func TestCalibrate_RefusesBadInput(t *testing.T) {
	dir := calibrationData(t)
	for _, tc := range []struct {
		opts CalibrateOptions
		dir  string
		want string
	}{
		{CalibrateOptions{Agent: "valuer"}, dir, "want \"default\" or a path to a .bot file"},
		{CalibrateOptions{Agent: "default", Reading: "ranks"}, dir, "reading"},
		{CalibrateOptions{Agent: "default", Bins: -1}, dir, "bins"},
		{CalibrateOptions{Agent: "default"}, filepath.Join(t.TempDir(), "none"), "none"},
	} {
		_, err := Calibrate(tc.dir, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v on %s: err = %v, want one naming %q", tc.opts, tc.dir, err, tc.want)
		}
	}
	// A dataset of options default has no model for is refused with the reason.
	o := env.DefaultOptions()
	o.Rules.Length = rules.Short
	short := filepath.Join(t.TempDir(), "short")
	if _, err := selfplay.Run(context.Background(), selfplay.Config{Agents: []string{"valuer", "valuer", "valuer", "valuer"}, Env: o, Games: 1, Seed: 1, Out: short, Workers: 1, ToolVersion: "test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := Calibrate(short, CalibrateOptions{Agent: "default"}); !errors.Is(err, ErrIncompatible) {
		t.Errorf("short games: err = %v, want ErrIncompatible", err)
	}
}

// The rank reading scores (v+1)/2 against each seat's rank score, which is the rank reward
// the dataset recorded mapped to 0..1 (every row's return-to-go under --reward rank).
func TestCalibrate_RankReadingScoresAgainstTheRankReward(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	o := env.DefaultOptions()
	o.Reward = env.Rank
	if _, err := selfplay.Run(context.Background(), selfplay.Config{Agents: []string{"valuer", "shipper", "manufacturer", "random"},
		Env: o, Games: 5, Seed: 8, Out: dir, Workers: 1, ToolVersion: "test"}); err != nil {
		t.Fatal(err)
	}
	ds, err := datasets.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	rank := map[uint64][]float64{}
	for g, err := range ds.Games() {
		if err != nil {
			t.Fatal(err)
		}
		rank[g.GameID] = RankScores(g.Scores, 4)
	}
	bias := []float32{0.6, -0.2, 0.1, -0.9}
	var sq float64
	n := 0
	for b, err := range ds.StepBatches() {
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < int(b.Rec.NumRows()); i++ {
			id, d := b.GameID.Value(i), int(b.Decider.Value(i))
			for s := range 4 {
				if got, want := rank[id][s], float64(b.Returns[i*4+s]+1)/2; math.Abs(got-want) > 1e-6 {
					t.Fatalf("game %d seat %d: rank score %v, the recorded rank return says %v", id, s, got, want)
				}
			}
			for k := range 4 {
				p := (float64(bias[k]) + 1) / 2
				y := rank[id][(d+k)%4]
				sq += (p - y) * (p - y)
				n++
			}
		}
	}
	c, err := Calibrate(dir, CalibrateOptions{Agent: constantValueBot(t, bias), Reading: ReadRank})
	if err != nil {
		t.Fatal(err)
	}
	all := c.Phases[3]
	if c.Reading != ReadRank || math.Abs(all.Brier-sq/float64(n)) > 1e-6 || math.Abs(all.MeanObserved-0.5) > 1e-6 {
		t.Errorf("rank reading: Brier %v, mean rank score %v; want %v and 0.5", all.Brier, all.MeanObserved, sq/float64(n))
	}
	if _, err := Calibrate(dir, CalibrateOptions{Agent: constantValueBot(t, bias), Reading: "ranks"}); err == nil || !strings.Contains(err.Error(), "want win, search or rank") {
		t.Errorf("reading ranks: %v", err)
	}
}

func TestRankScores_TiesShareTheirPositions(t *testing.T) {
	got := RankScores([]datasets.Score{{Rank: 2}, {Rank: 1}, {Rank: 2}, {Rank: 4}}, 4)
	want := []float64{0.5, 1, 0.5, 0}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("RankScores = %v, want %v", got, want)
		}
	}
}
