package search

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/container-rl/container/env/rules"
)

// New keeps the settings it is given: the number of root-parallel trees, and any budget of at
// least one simulation or a positive time; no budget at all is refused.
func TestNew_KeepsWorkersAndAcceptsTheSmallestBudgets(t *testing.T) {
	opts := rules.DefaultOptions()
	for _, w := range []int{1, 2, 3} {
		cfg := DefaultConfig()
		cfg.Sims, cfg.Workers = 30, w
		b, err := New(cfg, opts, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(b.workers) != w || b.Config().Workers != w {
			t.Errorf("workers=%d: %d trees, Config().Workers %d", w, len(b.workers), b.Config().Workers)
		}
	}
	cfg := DefaultConfig()
	cfg.Workers = 0
	if b, err := New(cfg, opts, 1); err != nil || len(b.workers) != 1 {
		t.Errorf("workers=0: %v, want one tree", err)
	}
	one := DefaultConfig()
	one.Sims = 1
	if _, err := New(one, opts, 1); err != nil {
		t.Errorf("one simulation: %v", err)
	}
	timed := DefaultConfig()
	timed.Sims, timed.Time = 0, time.Millisecond
	if _, err := New(timed, opts, 1); err != nil {
		t.Errorf("1 ms and no simulation count: %v", err)
	}
	none := DefaultConfig()
	none.Sims, none.Time = 0, 0
	if _, err := New(none, opts, 1); !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "no budget") {
		t.Errorf("no budget: %v", err)
	}
	none.Time = -time.Millisecond
	if _, err := New(none, opts, 1); !errors.Is(err, ErrSpec) {
		t.Errorf("a negative time and no simulations: %v", err)
	}
}

// A time budget is spent: one tree searches until its deadline, many simulations, not one.
func TestIsmcts_ATimeBudgetSearchesUntilItsDeadline(t *testing.T) {
	opts := rules.DefaultOptions()
	st := hiddenBidPosition(t, opts, 5)
	var view rules.State
	st.Redact(st.CurrentPlayer(), &view)
	cfg := DefaultConfig()
	cfg.Sims, cfg.Time, cfg.Workers, cfg.Depth = 0, 30*time.Millisecond, 1, 10
	b, err := New(cfg, opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	b.Act(&view, st.LegalActions(nil))
	if s := b.LastStats(); s.Sims < 2 || s.Elapsed < 30*time.Millisecond {
		t.Errorf("ms=30 on one tree: %d simulations in %v", s.Sims, s.Elapsed)
	}
}
