package rules

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseCounts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Counts
	}{
		{"", Counts{}},
		{"-", Counts{}},
		{"wwg", Counts{White: 2, Green: 1}},
		{"2w g, 3o", Counts{White: 2, Green: 1, Gold: 3}},
		{"RBY", Counts{Red: 1, Blue: 1, Yellow: 1}},
		{"12b", Counts{Blue: 12}},
	} {
		got, err := ParseCounts(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseCounts(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		back, err := ParseCounts(got.Letters())
		if err != nil || back != got {
			t.Errorf("Letters round trip of %q: %q -> %v", tc.in, got.Letters(), back)
		}
	}
	for _, in := range []string{"x", "3", "w2", "300w"} {
		if _, err := ParseCounts(in); !errors.Is(err, ErrBadPosition) {
			t.Errorf("ParseCounts(%q) error %v, want ErrBadPosition", in, err)
		}
	}
}

func TestParseShipPos(t *testing.T) {
	for _, p := range []ShipPos{{Where: AtOcean}, {Where: AtIsland}, {Where: AtBank}, {Where: AtHarbor, Seat: 3}} {
		got, err := ParseShipPos(p.String())
		if err != nil || got != p {
			t.Errorf("%v: round trip gave %v, %v", p, got, err)
		}
	}
	if _, err := ParseShipPos("harbor 7"); err == nil {
		t.Error("harbor 7 accepted")
	}
}

// loadTestPosition reads a position from testdata/positions.
func loadTestPosition(t *testing.T, name string) *State {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "positions", name))
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadPosition(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// TestPositionFilesRoundTrip: every example position loads, validates, and writes back to
// JSON that loads to an identical State.
func TestPositionFilesRoundTrip(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "positions", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no example positions: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			s := loadTestPosition(t, filepath.Base(f))
			out, err := s.MarshalPosition()
			if err != nil {
				t.Fatal(err)
			}
			s2, err := LoadPosition(out)
			if err != nil {
				t.Fatalf("reloading the written position: %v\n%s", err, out)
			}
			if !reflect.DeepEqual(s.Players, s2.Players) || s.Bank != s2.Bank || s.Auctions != s2.Auctions ||
				s.Supply != s2.Supply || s.machine != s2.machine || s.Companies != s2.Companies ||
				s.FactorySupply != s2.FactorySupply || s.WarehouseSupply != s2.WarehouseSupply {
				t.Errorf("round trip changed the state:\n%s", out)
			}
			out2, _ := s2.MarshalPosition()
			if !bytes.Equal(out, out2) {
				t.Errorf("second write differs:\n%s\n---\n%s", out, out2)
			}
		})
	}
}

// TestPositionRulebookScoringExample: the rulebook scoring example (p. 19) as a position file.
func TestPositionRulebookScoringExample(t *testing.T) {
	s := loadTestPosition(t, "rulebook-final-scoring.json")
	sc := s.Scores()
	if sc[0].Total != 55 || sc[1].Total != 62 || sc[2].Total != 71 || !sc[2].Winner {
		t.Errorf("totals %d %d %d, want 55 62 71 with blue winning", sc[0].Total, sc[1].Total, sc[2].Total)
	}
	// Whites: 2 on Orange's ship, 3 on Orange's island, 2 in Purple's harbor, 2 on Blue's island.
	if s.Supply[White] != 11-2-3-2-2 {
		t.Errorf("computed white supply %d, want 2", s.Supply[White])
	}
	if s.FactorySupply != [NumNormalColours]uint8{1, 1, 2, 1, 2} || s.WarehouseSupply != 12-5 {
		t.Errorf("computed building supply: factories %v warehouses %d", s.FactorySupply, s.WarehouseSupply)
	}
}

// TestValidateRejectsImpossiblePositions: each broken position fails with a message naming
// the problem.
func TestValidateRejectsImpossiblePositions(t *testing.T) {
	base := `{"options": {"players": 3%s}, "players": [%s, {"factories": "g"}, {"factories": "r"}]%s}`
	for _, tc := range []struct {
		name, opts, p0, rest, want string
	}{
		{"factory storage", "", `{"factories": "w", "factory_lots": {"1": "www"}}`, "", "factory district holds 3"},
		{"reserve tokens count", "", `{"factories": "w", "factory_lots": {"1": "w"}}`,
			`, "bank": {"cash_lots": [1,2,3]}, "auctions": [{"kind": "cash-lot", "target": 0, "bidder": 0, "from_factory": "gg"}]`, "reserve tokens"},
		{"harbor storage", "", `{"factories": "w", "harbor_lots": {"2": "w", "6": "g"}}`, "", "harbor district holds 2"},
		{"ship capacity", "", `{"factories": "w", "ship": "wwwggg"}`, "", "6 containers on the ship"},
		{"three loans", "", `{"factories": "w", "loans": 3}`, "", "at most 2"},
		{"unknown colour", "", `{"factories": "w", "ship": "wx"}`, "", "unknown colour letter"},
		{"gold without luxury", "", `{"factories": "w", "ship": "o"}`, "", "gold"},
		{"too many containers", "", `{"factories": "w", "island": "12w"}`, "", "white containers"},
		{"supply does not add up", "", `{"factories": "w"}`, `, "supply": {"white": 1}`, "white containers counted"},
		{"same-colour factories", "", `{"factories": "ww"}`, "", "same colour"},
		{"five factories", `, "factories_per_colour": 4`, `{"factories": "wgrby"}`, "", "5 factories"},
		{"no factory", "", `{"factories": ""}`, "", "0 factories"},
		{"six warehouses", "", `{"factories": "w", "warehouses": 6}`, "", "6 warehouses"},
		{"zero warehouses", "", `{"factories": "w", "warehouses": 0}`, "", "0 warehouses"},
		{"negative cash", "", `{"factories": "w", "cash": -1}`, "", "negative cash"},
		{"own harbor", "", `{"factories": "w", "ship_at": "harbor 0"}`, "", "own harbor"},
		{"harbor of a missing seat", "", `{"factories": "w", "ship_at": "harbor 4"}`, "", "not a seat"},
		{"player loan without module", "", `{"factories": "w", "loans": [{"lender": 1, "amount": 10}]}`, "", "player-loans"},
		{"auction on empty lot", "", `{"factories": "w"}`, `, "auctions": [{"kind": "container-lot", "target": 0, "bidder": 1, "cash": 2}]`, "empty lot"},
		{"classic auction", `, "variant": "classic"`, `{"factories": "w"}`, `, "auctions": [{"kind": "cash-lot", "target": 0, "bidder": 1, "from_harbor": "g"}]`, "Classic"},
		{"two lot auctions with 3 players", "", `{"factories": "w"}`,
			`, "bank": {"container_lots": ["w","",""], "cash_lots": [1,2,3]}, "auctions": [{"kind": "cash-lot", "target": 0, "bidder": 1, "from_factory": "g"}, {"kind": "container-lot", "target": 0, "bidder": 2, "cash": 1}]`, "one Bank lot auction"},
		{"truck auction without module", "", `{"factories": "w"}`, `, "auctions": [{"kind": "truck", "target": 0, "bidder": 1, "cash": 1}]`, "trucks module"},
		{"unknown field", "", `{"factories": "w", "hat": 1}`, "", `unknown key "hat" at players[0]`},
		{"bad option", `, "variant": "deluxe"`, `{"factories": "w"}`, "", "unknown rules variant"},
		{"active seat", "", `{"factories": "w"}`, `, "active": 3`, "active seat 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(strings.Replace(strings.Replace(strings.Replace(base, "%s", tc.opts, 1), "%s", tc.p0, 1), "%s", tc.rest, 1))
			_, err := LoadPosition(data)
			if !errors.Is(err, ErrBadPosition) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want ErrBadPosition mentioning %q\n%s", err, tc.want, data)
			}
		})
	}
	// Defaults never deal a card twice, so a duplicate needs two explicit cards.
	dup := `{"options": {"players": 3}, "players": [{"factories": "w", "card": 4}, {"factories": "g", "card": 4}, {"factories": "r"}]}`
	if _, err := LoadPosition([]byte(dup)); !errors.Is(err, ErrBadPosition) || !strings.Contains(err.Error(), "duplicate scoring cards") {
		t.Errorf("duplicate cards: error %v", err)
	}
	// Default cards avoid cards given explicitly to later seats.
	later := `{"options": {"players": 3}, "players": [{"factories": "w"}, {"factories": "g"}, {"factories": "r", "card": 0}]}`
	if s, err := LoadPosition([]byte(later)); err != nil || s.Players[0].Card == 0 || s.Players[1].Card == 0 {
		t.Errorf("default cards next to an explicit card 0: %v", err)
	}
	// The base position itself is fine.
	data := strings.Replace(strings.Replace(strings.Replace(base, "%s", "", 1), "%s", `{"factories": "w"}`, 1), "%s", "", 1)
	if _, err := LoadPosition([]byte(data)); err != nil {
		t.Fatalf("base position rejected: %v", err)
	}
}

func BenchmarkMarshalPosition(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "positions", "midgame-5p-auctions.json"))
	if err != nil {
		b.Fatal(err)
	}
	s, err := LoadPosition(data)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.MarshalPosition(); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleLoadPosition() {
	s, err := LoadPosition([]byte(`{
		"options": {"players": 3},
		"players": [
			{"cash": 12, "card": 1, "factories": "b", "island": "wwgrby", "ship": "ry"},
			{"factories": "g", "factory_lots": {"2": "gg"}},
			{"factories": "w", "loans": 1}
		]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, sc := range s.Scores() {
		fmt.Printf("p%d %s\n", i+1, sc)
	}
	// Output:
	// p1 cash $12 + island $26 + leftover $6 + loans $0 = $44 (discarded 2 white, all colours) rank 1 WINNER
	// p2 cash $20 + island $0 + leftover $0 + loans $0 = $20 rank 2
	// p3 cash $20 + island $0 + leftover $0 + loans -$11 = $9 rank 3
}
