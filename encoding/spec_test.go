package encoding

import (
	"errors"
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/container-rl/container/env/rules"
)

func TestSpecLayoutIsContiguousAndNamed(t *testing.T) {
	for _, o := range configs() {
		t.Run(name(o), func(t *testing.T) {
			s, err := NewSpec(o)
			if err != nil {
				t.Fatal(err)
			}
			off := 0
			for _, f := range s.Features {
				if f.Offset != off || f.Size != len(f.Labels) || f.Size == 0 {
					t.Fatalf("feature %s: offset %d (want %d), size %d, %d labels", f.Name, f.Offset, off, f.Size, len(f.Labels))
				}
				if !(f.Low <= f.High) {
					t.Errorf("feature %s: bounds [%g, %g]", f.Name, f.Low, f.High)
				}
				off += f.Size
			}
			if off != s.Size || s.Version != Version || s.NumActions != rules.NumDistinctActions() {
				t.Fatalf("size %d, features cover %d; version %q; %d actions", s.Size, off, s.Version, s.NumActions)
			}
			cols := s.Columns()
			if len(cols) != s.Size {
				t.Fatalf("%d columns for size %d", len(cols), s.Size)
			}
			seen := map[string]bool{}
			for _, c := range cols {
				if seen[c] {
					t.Errorf("column %q appears twice", c)
				}
				seen[c] = true
			}
			_, hasCompany := s.Feature("company.p0.owner")
			_, hasLenders := s.Feature("p0.loan_lenders")
			_, hasLuxury := s.Feature("turn.luxury_used")
			ship, _ := s.Feature("p0.ship")
			if hasCompany != o.Modules.Has(rules.Trucks) || hasLenders != o.Modules.Has(rules.PlayerLoans) || hasLuxury != o.Modules.Has(rules.Luxury) {
				t.Errorf("module features: trucks %v, player loans %v, luxury %v for modules %q", hasCompany, hasLenders, hasLuxury, o.Modules)
			}
			if wantColours := 5 + btoi(o.Modules.Has(rules.Luxury)); ship.Size != wantColours {
				t.Errorf("colour groups have %d entries, want %d", ship.Size, wantColours)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestSpecLayoutIsTheSameForEveryPlayerCount(t *testing.T) {
	// Absent seats are zero, not missing: one network serves 3, 4 and 5 players.
	var sizes []int
	for p := 3; p <= 5; p++ {
		s, err := NewSpec(rules.Options{Players: p})
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, s.Size)
	}
	if sizes[0] != sizes[1] || sizes[1] != sizes[2] {
		t.Fatalf("observation sizes by player count: %v", sizes)
	}
}

func TestSpecCheckRefusesAnotherVersion(t *testing.T) {
	s, err := NewSpec(rules.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(Version, s.Size); err != nil {
		t.Fatalf("own version refused: %v", err)
	}
	if err := s.Check("obs-v0", s.Size); !errors.Is(err, ErrVersion) {
		t.Errorf("other version: %v", err)
	}
	if err := s.Check(Version, s.Size+1); !errors.Is(err, ErrVersion) {
		t.Errorf("other size: %v", err)
	}
	if _, err := NewSpec(rules.Options{Players: 7}); err == nil {
		t.Error("invalid options accepted")
	}
}

func layoutFingerprint(t *testing.T, o rules.Options) uint64 {
	t.Helper()
	s, err := NewSpec(o)
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	for _, f := range s.Features {
		for _, l := range f.Labels {
			fmt.Fprintf(h, "%s.%s/%g;", f.Name, l, f.Scale)
		}
	}
	return h.Sum64()
}

func TestLayoutFingerprintMatchesTheVersion(t *testing.T) {
	want, ok := layoutFingerprints[Version]
	if !ok {
		t.Fatalf("no fingerprint recorded for %s", Version)
	}
	got := [2]uint64{layoutFingerprint(t, rules.DefaultOptions()), layoutFingerprint(t, rules.Options{Players: 4, Modules: rules.AllModules})}
	if got != want {
		t.Fatalf("the %s layout changed (fingerprints %#x, %#x; recorded %#x, %#x): bump encoding.Version and record the new fingerprints", Version, got[0], got[1], want[0], want[1])
	}
}

func TestOptionsForVersionRoundTripsAndRefusesUnknownVersions(t *testing.T) {
	for _, v := range Versions() {
		o, err := OptionsForVersion(v)
		if err != nil || o.Version() != v {
			t.Errorf("OptionsForVersion(%q) = %+v, %v", v, o, err)
		}
	}
	if _, err := OptionsForVersion("obs-v0"); !errors.Is(err, ErrVersion) {
		t.Errorf("obs-v0: err = %v, want ErrVersion", err)
	}
	s, err := NewSpecWith(rules.DefaultOptions(), Options{HideOpponentCash: true})
	if err != nil || s.Check(HiddenCashVersion, s.Size) != nil || !errors.Is(s.Check(Version, s.Size), ErrVersion) {
		t.Errorf("hidden-cash spec: %v; it must accept only %q", err, HiddenCashVersion)
	}
}
