package rules

import "testing"

// ResetState must set up exactly the game NewInitialStateSeed does, over any previous game,
// and without allocating (self-play and vectorised environments reset games in a loop).
func TestResetStateMatchesNewInitialStateWithoutAllocating(t *testing.T) {
	for _, o := range []Options{{Players: 3}, {Players: 4, Modules: AllModules}, {Players: 5, Variant: Classic}} {
		g, err := NewGame(o)
		if err != nil {
			t.Fatal(err)
		}
		s := g.NewInitialStateSeed(99)
		ids := make([]int, 0, NumDistinctActions())
		for i := 0; i < 300 && !s.IsTerminal(); i++ {
			ids = s.LegalActions(ids)
			s.Apply(ids[i%len(ids)])
		}
		for seed := uint64(0); seed < 20; seed++ {
			g.ResetState(s, seed)
			want := g.NewInitialStateSeed(seed)
			if s.Hash() != want.Hash() || len(s.History()) != 0 {
				t.Fatalf("%+v seed %d: ResetState differs from NewInitialStateSeed", o, seed)
			}
		}
		allocs := testing.AllocsPerRun(100, func() { g.ResetState(s, 7) })
		if allocs != 0 {
			t.Errorf("%+v: ResetState allocates %.1f times per call, want 0", o, allocs)
		}
	}
}
