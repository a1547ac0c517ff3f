package encoding

import (
	"slices"
	"testing"

	"github.com/container-rl/container/env/rules"
)

func TestPoolEncodesLikeAnEncoderWithoutAllocating(t *testing.T) {
	g := newGame(t, rules.Options{Players: 3})
	p := NewPool(g, 2)
	e := NewEncoder(g)
	want := make([]float32, e.Size())
	wantMask := make([]float32, e.NumActions())
	randomPlay(g, 6, func(s *rules.State, step int) bool {
		obs, mask := p.Encode(step%2, s)
		seat := max(s.CurrentPlayer(), 0)
		_ = e.Observe(s, seat, want)
		_, _ = e.Mask(s, wantMask)
		if !slices.Equal(obs, want) || !slices.Equal(mask, wantMask) {
			t.Fatalf("step %d: pool and encoder disagree", step)
		}
		if step == 30 {
			if a := testing.AllocsPerRun(50, func() { p.Encode(1, s) }); a != 0 {
				t.Fatalf("Pool.Encode allocates %g times", a)
			}
		}
		return step < 200
	})
}
