package search

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// handBot is a one-worker Bot whose root holds seat 0's edges for actions, with the visits
// and summed outcomes given (the state a search leaves behind).
func handBot(actions []int, visits []int32, values []float64) *Bot {
	w := handTree(DefaultConfig(), actions, visits, values, make([]float32, len(actions)), visits)
	return &Bot{workers: []*worker{w}}
}

// Exploration draws a move in proportion to its root visits: never one without visits,
// action 0 included when it has them.
func TestSampleVisits_NeverAMoveWithoutVisits(t *testing.T) {
	b := handBot([]int{0, 4, 9}, []int32{0, 5, 3}, []float64{0, 2, 1})
	b0 := handBot([]int{0, 4}, []int32{6, 0}, []float64{3, 0})
	seen := map[int]int{}
	for base := uint64(0); base < 200; base++ {
		a := b.sampleVisits([]int{0, 4, 9}, 0, base, 4)
		seen[a]++
		if got := b0.sampleVisits([]int{0, 4}, 0, base, 0); got != 0 {
			t.Fatalf("base %d: drew %d, the move without visits (action 0 has them all)", base, got)
		}
	}
	if seen[0] > 0 || seen[4] == 0 || seen[9] == 0 {
		t.Errorf("draws %v: want actions 4 and 9 only", seen)
	}
}

// ActPolicy's probabilities are the visit shares of every legal move (action 0 included)
// and sum to 1 whatever the number of legal moves above one; its value is 2·mean−1 of the
// deciding seat's root outcomes; an id outside the action space is skipped, not a panic.
func TestActPolicy_SharesValueAndOutOfRangeIds(t *testing.T) {
	opts := rules.DefaultOptions()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(6)
	var view rules.State
	st.Redact(st.CurrentPlayer(), &view)
	full := st.LegalActions(nil)
	if full[0] != 0 {
		t.Fatalf("first legal action %d, want end-turn (0) for this test", full[0])
	}
	n := rules.NumDistinctActions()
	for _, legal := range [][]int{full[:2], full, append(append([]int(nil), full...), n)} {
		b, err := bots.New("ismcts:sims=60,depth=5,workers=1", opts, 2)
		if err != nil {
			t.Fatal(err)
		}
		probs := make([]float32, n)
		_, value := b.(*Bot).ActPolicy(&view, legal, probs)
		var sum float64
		total, outcome := 0, 0.0
		for _, a := range legal {
			if a >= n {
				continue
			}
			sum += float64(probs[a])
			v, o := b.(*Bot).rootVisits(a, view.CurrentPlayer())
			total += v
			outcome += o
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Errorf("%d legal: probabilities sum to %v", len(legal), sum)
		}
		if v0, _ := b.(*Bot).rootVisits(0, view.CurrentPlayer()); v0 > 0 && math.Abs(float64(probs[0])-float64(v0)/float64(total)) > 1e-6 {
			t.Errorf("%d legal: end-turn probability %v, want its share %v", len(legal), probs[0], float64(v0)/float64(total))
		}
		if want := float32(2*outcome/float64(total) - 1); total > 0 && math.Abs(float64(value-want)) > 1e-6 {
			t.Errorf("%d legal: value %v, want 2·mean−1 = %v", len(legal), value, want)
		}
	}
	// One legal move, action 0: probability 1 without a search; an out-of-range single id
	// is not a panic.
	b, _ := bots.New("ismcts:sims=10,workers=1", opts, 2)
	probs := make([]float32, n)
	if a, v := b.(*Bot).ActPolicy(&view, []int{0}, probs); a != 0 || v != 0 || probs[0] != 1 {
		t.Errorf("single legal end-turn: played %d value %v probability %v", a, v, probs[0])
	}
	probs = make([]float32, n)
	b.(*Bot).ActPolicy(&view, []int{n}, probs)
}

// Every whole-number setting accepts its bounds and refuses one past them; c accepts 0 and
// 100 and refuses just outside; the name spells fpu exactly.
func TestParse_BoundsOfEverySetting(t *testing.T) {
	for _, k := range []struct {
		key    string
		lo, hi int
	}{{"sims", 1, MaxSims}, {"ms", 1, int(MaxTime.Milliseconds())}, {"workers", 1, MaxWorkers}, {"depth", 0, MaxDepth}} {
		for v, ok := range map[int]bool{k.lo: true, k.hi: true, k.lo - 1: false, k.hi + 1: false} {
			_, err := Parse(fmt.Sprintf("%s=%d", k.key, v))
			if (err == nil) != ok {
				t.Errorf("%s=%d: error %v, want accepted=%v", k.key, v, err, ok)
			}
		}
	}
	for v, ok := range map[string]bool{"0": true, "100": true, "-0.001": false, "100.001": false} {
		if _, err := Parse("c=" + v); (err == nil) != ok {
			t.Errorf("c=%s: error %v, want accepted=%v", v, err, ok)
		}
	}
	withNet(t, peakedNet{})
	b, err := bots.New("ismcts:net=x,fpu=0.25", rules.DefaultOptions(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Name(), "fpu=0.25,") {
		t.Errorf("name %q does not spell fpu=0.25", b.Name())
	}
}
