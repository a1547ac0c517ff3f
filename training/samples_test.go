package training

import (
	"slices"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// Edge cases of training/samples.go (the mutation records in docs/results/ name the bug each one catches).

// Check refuses a row whose action id is outside the action range, even when the mask's
// padding bits past the last action are set, and when the action count fills whole mask
// bytes (action 8 of 8 would read the next row's mask); it accepts the last legal action.
func TestSamplesCheckRefusesActionsOutsideTheActionRange(t *testing.T) {
	for _, c := range []struct {
		actions int
		action  int32
		ok      bool
	}{
		{actions: 8, action: 7, ok: true},
		{actions: 8, action: 8},
		{actions: 5, action: 4, ok: true},
		{actions: 5, action: 5},
		{actions: 5, action: 7},
		{actions: 5, action: -1},
	} {
		s := &Samples{Rules: rules.DefaultOptions(), ObsDim: 1, NumActions: c.actions, ValueDim: 1,
			Obs: []float32{0}, Mask: []byte{0xff}, Actions: []int32{c.action}, Values: []float32{0}, Games: []uint64{0}}
		if err := s.Check(); (err == nil) != c.ok {
			t.Errorf("%d actions, action %d with every mask bit set: Check says %v, want ok=%v", c.actions, c.action, err, c.ok)
		}
	}
}

// Split sends whole games to validation, about valPercent of them: none at 0%, all at 100%,
// roughly a quarter at 25%, and always the same games.
func TestSplitSendsAboutValPercentOfTheGamesToValidation(t *testing.T) {
	const games = 1000
	s := &Samples{}
	for g := range games {
		s.Games = append(s.Games, uint64(g), uint64(g)) // two rows per game
	}
	for _, c := range []struct{ percent, lo, hi int }{{0, 0, 0}, {100, games, games}, {25, 200, 300}} {
		train, val := s.Split(c.percent)
		if len(train)+len(val) != 2*games {
			t.Fatalf("%d%%: %d + %d rows, want %d", c.percent, len(train), len(val), 2*games)
		}
		inVal := map[uint64]bool{}
		for _, i := range val {
			inVal[s.Games[i]] = true
		}
		for _, i := range train {
			if inVal[s.Games[i]] {
				t.Fatalf("%d%%: game %d has rows on both sides", c.percent, s.Games[i])
			}
		}
		if n := len(inVal); n < c.lo || n > c.hi {
			t.Errorf("%d%%: %d of %d games in validation, want %d to %d", c.percent, n, games, c.lo, c.hi)
		}
		if t2, v2 := s.Split(c.percent); !slices.Equal(t2, train) || !slices.Equal(v2, val) {
			t.Errorf("%d%%: a second split differs", c.percent)
		}
	}
}

// fill copies each chosen row (observation, unpacked mask, action, value targets) into the
// batch in the order asked, and a batch refilled with as many rows or fewer allocates nothing
// (its slices grow once).
func TestFillCopiesTheChosenRowsAndReusesTheBatch(t *testing.T) {
	s := tinySamples(30)
	D, A, V := s.ObsDim, s.NumActions, s.ValueDim
	check := func(b *Batch, idx []int) {
		t.Helper()
		if b.Rows != len(idx) || len(b.Obs) != len(idx)*D || len(b.Mask) != len(idx)*A || len(b.Values) != len(idx)*V || len(b.Actions) != len(idx) {
			t.Fatalf("rows %v: batch of %d rows, lengths %d/%d/%d/%d", idx, b.Rows, len(b.Obs), len(b.Mask), len(b.Values), len(b.Actions))
		}
		for r, i := range idx {
			if !slices.Equal(b.Obs[r*D:(r+1)*D], s.Obs[i*D:(i+1)*D]) {
				t.Fatalf("batch row %d: observation is not sample %d's", r, i)
			}
			if !slices.Equal(b.Values[r*V:(r+1)*V], s.Values[i*V:(i+1)*V]) {
				t.Fatalf("batch row %d: value targets %v, sample %d has %v", r, b.Values[r*V:(r+1)*V], i, s.Values[i*V:(i+1)*V])
			}
			if b.Actions[r] != s.Actions[i] {
				t.Fatalf("batch row %d: action %d, sample %d has %d", r, b.Actions[r], i, s.Actions[i])
			}
			for a := range A {
				legal := s.Mask[i*s.MaskBytes()+a/8]>>(a%8)&1 == 1
				if (b.Mask[r*A+a] == 1) != legal || (b.Mask[r*A+a] != 0 && b.Mask[r*A+a] != 1) {
					t.Fatalf("batch row %d action %d: mask %v, sample %d legal %v", r, a, b.Mask[r*A+a], i, legal)
				}
			}
		}
	}
	var b Batch
	first := []int{5, 2, 9, 17}
	s.fill(&b, first)
	check(&b, first)
	for _, idx := range [][]int{{3, 28, 0, 11}, {29, 4}} {
		if n := testing.AllocsPerRun(5, func() { s.fill(&b, idx) }); n != 0 {
			t.Errorf("refilling %d rows allocates %v times, want 0", len(idx), n)
		}
		check(&b, idx)
	}
}
