package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Boundary tests of the hand-written position format (docs/POSITION.md) and of the container
// and ship-position notation: every limit accepts its largest legal value and refuses the next
// one with a one-line error naming the field; defaults filled in on load are the engine's own.

// threePlayers is a minimal 3-player position; extra is spliced into the top level, and
// p0 into the first player's object.
func threePlayers(p0, extra string) string {
	if p0 != "" {
		p0 = ", " + p0
	}
	if extra != "" {
		extra = ", " + extra
	}
	return `{"options": {"players": 3}, "players": [{"factories": "w"` + p0 +
		`}, {"factories": "g"}, {"factories": "r"}]` + extra + `}`
}

// loadWant loads pos and checks the outcome: wantErr "" means it must load, otherwise the
// error must contain wantErr and be one line.
func loadWant(t *testing.T, name, pos, wantErr string) *State {
	t.Helper()
	s, err := LoadPosition([]byte(pos))
	switch {
	case wantErr == "" && err != nil:
		t.Errorf("%s: refused: %v", name, err)
	case wantErr != "" && err == nil:
		t.Errorf("%s: accepted, want an error containing %q", name, wantErr)
	case wantErr != "" && (!strings.Contains(err.Error(), wantErr) || !errors.Is(err, ErrBadPosition) || strings.Contains(err.Error(), "\n")):
		t.Errorf("%s: error %q, want one line containing %q", name, err, wantErr)
	}
	return s
}

func TestParseCountsAcceptsByteSizedCountsAndRefusesTheNext(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Counts
		wantErr string
	}{
		{in: "255w", want: Counts{White: 255}},
		{in: "256w", wantErr: "count too large"},
		{in: "200w 55w", want: Counts{White: 255}},
		{in: "200w 56w", wantErr: "count too large"},
		{in: "255w 255g", want: Counts{White: 255, Green: 255}},
		{in: "3w 0g", want: Counts{White: 3}}, // a count of 0 means none of that colour
		{in: "0w", want: Counts{}},
		{in: "0 w", wantErr: "count 0 without a colour"},
		{in: "0,w", wantErr: "count 0 without a colour"},
		{in: "w0", wantErr: "count 0 without a colour"},
		{in: "w 0", wantErr: "count 0 without a colour"},
	} {
		got, err := ParseCounts(tc.in)
		if tc.wantErr == "" {
			if err != nil || got != tc.want {
				t.Errorf("ParseCounts(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("ParseCounts(%q) = %v, %v; want an error containing %q", tc.in, got, err, tc.wantErr)
		}
	}
}

func TestParseShipPosAcceptsEveryHarborSeatAndNoMore(t *testing.T) {
	for _, tc := range []struct {
		in   string
		seat int8
		ok   bool
	}{
		{"harbor 0", 0, true}, {"harbor 4", 4, true}, {"harbor 5", 0, false}, {"harbor -1", 0, false},
		{"harbor p1", 0, true}, {"harbor p5", 4, true}, {"harbor p6", 0, false}, {"harbor p0", 0, false},
	} {
		got, err := ParseShipPos(tc.in)
		if tc.ok && (err != nil || got != (ShipPos{Where: AtHarbor, Seat: tc.seat})) {
			t.Errorf("ParseShipPos(%q) = %v, %v; want harbor %d", tc.in, got, err, tc.seat)
		}
		if !tc.ok && (err == nil || !strings.Contains(err.Error(), "ship position")) {
			t.Errorf("ParseShipPos(%q) = %v, %v; want a ship position error", tc.in, got, err)
		}
	}
}

// The object spelling of containers ({"white": 2}) means exactly what the letter spelling
// ("2w") means, down to the limits: a count of 0 is allowed, 255 reaches the same check
// (there are not that many containers) and a count past a byte is refused; -1, which has no
// letter spelling, is refused too.
func TestPositionContainerObjectsAndLettersAgreeAtTheLimits(t *testing.T) {
	for _, tc := range []struct{ letters, object string }{
		{`""`, `{"white": 0}`},
		{`"w"`, `{"white": 1, "green": 0}`},
		{`"255w"`, `{"white": 255}`},
		{`"256w"`, `{"white": 256}`},
	} {
		_, errL := LoadPosition([]byte(threePlayers(`"island": `+tc.letters, "")))
		_, errO := LoadPosition([]byte(threePlayers(`"island": `+tc.object, "")))
		if (errL == nil) != (errO == nil) || (tc.letters == `"255w"` && fmt.Sprint(errL) != fmt.Sprint(errO)) {
			t.Errorf("island %s: %v; island %s: %v; want the same outcome", tc.letters, errL, tc.object, errO)
		}
	}
	loadWant(t, "island white -1", threePlayers(`"island": {"white": -1}`, ""), "-1 white containers is outside 0..255")
}

func TestPositionPlayerFieldLimits(t *testing.T) {
	plPos := func(p0, p1 string) string {
		if p1 != "" {
			p1 = ", " + p1
		}
		return `{"options": {"players": 3, "modules": "player-loans"}, "players": [{"factories": "w", ` + p0 +
			`}, {"factories": "g"` + p1 + `}, {"factories": "r"}]}`
	}
	for _, tc := range []struct{ name, pos, wantErr string }{
		{"card 0", threePlayers(`"card": 0`, ""), ""},
		{"card 4", threePlayers(`"card": 4`, ""), ""},
		{"card 5", threePlayers(`"card": 5`, ""), "scoring card 5 is outside 0..4"},
		{"card -1", threePlayers(`"card": -1`, ""), "scoring card -1 is outside 0..4"},
		{"warehouses 1", threePlayers(`"warehouses": 1`, ""), ""},
		{"warehouses 5", threePlayers(`"warehouses": 5`, ""), ""},
		{"warehouses 6", threePlayers(`"warehouses": 6`, ""), "6 warehouses"},
		// A count that fits a byte is judged against the game's own limit, which the
		// error names; a larger one is refused before it could wrap.
		{"warehouses 0", threePlayers(`"warehouses": 0`, ""), "player 0: 0 warehouses (want 1..5)"},
		{"warehouses 255", threePlayers(`"warehouses": 255`, ""), "player 0: 255 warehouses (want 1..5)"},
		{"warehouses 261 (5 in a byte)", threePlayers(`"warehouses": 261`, ""), "261 warehouses"},
		{"warehouses -1", threePlayers(`"warehouses": -1`, ""), "-1 warehouses"},
		{"loans 0", threePlayers(`"loans": 0`, ""), ""},
		{"loans 2", threePlayers(`"loans": 2`, ""), ""},
		{"loans 3", threePlayers(`"loans": 3`, ""), "3 loans; a player has at most 2"},
		{"loans -1", threePlayers(`"loans": -1`, ""), "-1 loans"},
		{"loan list of 2", threePlayers(`"loans": [{}, {"amount": 10}]`, ""), ""},
		{"loan list of 3", threePlayers(`"loans": [{}, {}, {}]`, ""), "3 loans; a player has at most 2"},
		{"trucks 255", threePlayers(`"trucks": 255`, ""), "player 0: 255 trucks placed; a player has 3"},
		{"trucks 256 (0 in a byte)", threePlayers(`"trucks": 256`, ""), "256 trucks"},
		{"trucks -1", threePlayers(`"trucks": -1`, ""), "-1 trucks"},
		{"factory lot $1", threePlayers(`"factory_lots": {"1": "w"}`, ""), ""},
		{"factory lot $4", threePlayers(`"factory_lots": {"4": "w"}`, ""), ""},
		{"factory lot $5", threePlayers(`"factory_lots": {"5": "w"}`, ""), `factory_lots: no lot priced "5" (want $1..$4)`},
		{"factory lot $0", threePlayers(`"factory_lots": {"0": "w"}`, ""), `factory_lots: no lot priced "0"`},
		{"harbor lot $2", threePlayers(`"harbor_lots": {"$2": "g"}`, ""), ""},
		{"harbor lot $6", threePlayers(`"harbor_lots": {"6": "g"}`, ""), ""},
		{"harbor lot $7", threePlayers(`"harbor_lots": {"7": "g"}`, ""), `harbor_lots: no lot priced "7" (want $2..$6)`},
		{"harbor lot $1", threePlayers(`"harbor_lots": {"1": "g"}`, ""), `harbor_lots: no lot priced "1"`},
		{"loan cards 3", plPos(`"loan_cards": 3`, ""), ""},
		{"loan cards 4", plPos(`"loan_cards": 4`, ""), "4 loan cards"},
		{"loan cards 255", plPos(`"loan_cards": 255`, ""), "player 0: 255 loan cards in hand + 0 lent out; a player has 3"},
		{"loan cards 259 (3 in a byte)", plPos(`"loan_cards": 259`, ""), "259 loan cards"},
		{"loan cards -1", plPos(`"loan_cards": -1`, ""), "-1 loan cards"},
		{"loan cards 0 without the module", threePlayers(`"loan_cards": 0`, ""), ""},
		{"loan cards 1 without the module", threePlayers(`"loan_cards": 1`, ""), "loan_cards without the player-loans module"},
	} {
		loadWant(t, tc.name, tc.pos, tc.wantErr)
	}
}

func TestPositionTopLevelFieldLimits(t *testing.T) {
	big := threePlayers("", "")
	exact := big + strings.Repeat(" ", MaxPositionBytes-len(big))
	for _, tc := range []struct{ name, pos, wantErr string }{
		{"exactly MaxPositionBytes", exact, ""},
		{"one byte more", exact + " ", fmt.Sprintf("%d bytes; a position is at most %d", MaxPositionBytes+1, MaxPositionBytes)},
		{"factory_supply 1 white", threePlayers("", `"factory_supply": {"white": 1}`), ""},
		// 255 fits a byte and is judged against the game's own count, which the error names.
		{"factory_supply 255 white", threePlayers("", `"factory_supply": {"white": 255}`), "1 white factories built + 255 in the supply; the game has 2"},
		{"factory_supply 257 white (1 in a byte)", threePlayers("", `"factory_supply": {"white": 257}`), "factory_supply: 257 white factories"},
		{"factory_supply -1 white", threePlayers("", `"factory_supply": {"white": -1}`), "factory_supply: -1 white factories"},
		{"factory_supply of gold", threePlayers("", `"factory_supply": {"gold": 0}`), `factory_supply: unknown colour "gold"`},
		{"warehouse_supply 255", threePlayers("", `"warehouse_supply": 255`), "3 warehouses built + 255 in the supply; the game has 12"},
		{"warehouse_supply 258 (2 in a byte)", threePlayers("", `"warehouse_supply": 258`), "warehouse_supply 258"},
		{"warehouse_supply -1", threePlayers("", `"warehouse_supply": -1`), "warehouse_supply -1"},
		{"ended none", threePlayers("", `"ended": "none"`), ""},
		{"ended bogus", threePlayers("", `"ended": "over"`), `ended "over"`},
		{"auction kind bogus", threePlayers("", `"bank": {"container_lots": ["w", "", ""], "cash_lots": [1, 2, 3]}, "auctions": [{"kind": "lot", "target": 0, "bidder": 1, "cash": 2}]`), `auction kind "lot"`},
		{"modules bogus", `{"options": {"players": 3, "modules": "trucks,bogus"}, "players": [{"factories": "w"}, {"factories": "g"}, {"factories": "r"}]}`, "options:"},
	} {
		loadWant(t, tc.name, tc.pos, tc.wantErr)
	}
}

// docs/POSITION.md: "ended" "" (or "none") is a game in progress; a named reason ends it.
func TestPositionEndedFieldSetsTheEndReason(t *testing.T) {
	for _, tc := range []struct {
		field string
		want  EndReason
	}{
		{"", NotEnded}, {`"ended": ""`, NotEnded}, {`"ended": "none"`, NotEnded},
		{`"ended": "two-colours", "end_triggered": true`, EndReason(1)}, {`"ended": "turn-limit", "turn": 999`, EndReason(2)},
	} {
		s := loadWant(t, tc.field, threePlayers("", tc.field), "")
		if s == nil {
			continue
		}
		if s.Ended != tc.want || s.IsTerminal() != (tc.want != NotEnded) {
			t.Errorf("%s: ended %d (terminal %v), want %d", tc.field, s.Ended, s.IsTerminal(), tc.want)
		}
		if tc.want != NotEnded && s.CurrentPlayer() != -1 {
			t.Errorf("%s: current player %d in a finished game", tc.field, s.CurrentPlayer())
		}
		if tc.want != NotEnded && s.Decision().Decider != -1 {
			t.Errorf("%s: decision decider %d in a finished game, want -1", tc.field, s.Decision().Decider)
		}
	}
}

// A player-loans position that leaves loan_cards out gives each seat three cards minus the
// loans it has lent (docs/POSITION.md, players[i].loan_cards).
func TestPositionDefaultLoanCardsAreThreeMinusLoansLent(t *testing.T) {
	pos := `{"options": {"players": 3, "modules": "player-loans"}, "players": [
		{"factories": "w", "loans": [{"lender": 2, "amount": 12}, {}]},
		{"factories": "g", "loans": [{"lender": 2, "amount": 10}]},
		{"factories": "r", "loans": [{"lender": 0}]}]}`
	s := loadWant(t, "two loans from seat 2, one from seat 0", pos, "")
	if s == nil {
		return
	}
	if got := [3]uint8{s.Players[0].LoanCards, s.Players[1].LoanCards, s.Players[2].LoanCards}; got != [3]uint8{2, 3, 1} {
		t.Errorf("loan cards by seat %v, want [2 3 1]", got)
	}
	if l := s.Players[0].Loans[1]; l.Lender != -1 || l.Amount != LoanAmount {
		t.Errorf("a loan written {} is %+v, want a $%d Bank loan (lender -1)", l, LoanAmount)
	}
	if l := s.Players[2].Loans[0]; l.Lender != 0 || l.Amount != LoanAmount {
		t.Errorf("a loan without amount from seat 0 is %+v, want $%d from seat 0", l, LoanAmount)
	}
}

func TestAuctionKindStringNamesEveryKindAndSurvivesOthers(t *testing.T) {
	for k, want := range []string{"container-lot", "cash-lot", "truck", "auction(3)", "auction(255)"} {
		kind := AuctionKind(k)
		if k == 4 {
			kind = 255
		}
		if got := kind.String(); got != want {
			t.Errorf("AuctionKind(%d).String() = %q, want %q", kind, got, want)
		}
	}
}

// A written position is meant to be read by people: it lists the lots that hold containers
// (not every empty price), and the factory supply of every normal colour.
func TestMarshalPositionListsOnlyFilledLotsAndEveryFactorySupply(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	s.Players[0].FactoryLots[1][White] = 1
	s.Players[0].HarborLots[3][Green] = 1
	b, err := s.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	var pj struct {
		Players []struct {
			FactoryLots map[string]string `json:"factory_lots"`
			HarborLots  map[string]string `json:"harbor_lots"`
		} `json:"players"`
		FactorySupply map[string]int `json:"factory_supply"`
	}
	if err := json.Unmarshal(b, &pj); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(pj.Players[0].FactoryLots, pj.Players[0].HarborLots); got != "map[2:w] map[5:g]" {
		t.Errorf("seat 0 lots written as %s, want map[2:w] map[5:g]", got)
	}
	if len(pj.Players[1].FactoryLots)+len(pj.Players[1].HarborLots) != 0 {
		t.Errorf("seat 1 has no containers but its lots are written as %v %v", pj.Players[1].FactoryLots, pj.Players[1].HarborLots)
	}
	if len(pj.FactorySupply) != NumNormalColours {
		t.Fatalf("factory_supply written as %v, want all %d normal colours", pj.FactorySupply, NumNormalColours)
	}
	for c := 0; c < NumNormalColours; c++ {
		if got := pj.FactorySupply[Colour(c).String()]; got != int(s.FactorySupply[c]) {
			t.Errorf("factory_supply %s = %d, want %d", Colour(c), got, s.FactorySupply[c])
		}
	}
}

// MarshalPosition is used on states built in code too (tests, tools): fields set out of
// range by hand must not make it panic.
func TestMarshalPositionOfACorruptStateDoesNotPanic(t *testing.T) {
	for _, tc := range []struct {
		name    string
		corrupt func(s *State)
	}{
		{"factory bit 6", func(s *State) { s.Players[0].Factories |= 1 << 6 }},
		{"factory bit 7", func(s *State) { s.Players[1].Factories |= 1 << 7 }},
		{"3 loans", func(s *State) { s.Players[0].NumLoans = 3 }},
		{"255 loans", func(s *State) { s.Players[2].NumLoans = 255 }},
		{"end reason 3", func(s *State) { s.Ended = 3 }},
		{"end reason 255", func(s *State) { s.Ended = 255 }},
	} {
		s := newTestState(t, DefaultOptions())
		tc.corrupt(s)
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: MarshalPosition panicked: %v", tc.name, r)
				}
			}()
			if _, err := s.MarshalPosition(); err != nil {
				t.Logf("%s: %v", tc.name, err)
			}
		}()
	}
}

// With "supply" left out it is derived; containers placed plus removed beyond the game's
// total are reported as such, not as a derived supply that wrapped around.
func TestPositionDerivedSupplyRefusesMoreContainersThanExist(t *testing.T) {
	pos := `{"options": {"players": 3, "variant": "classic"}, "players": [
		{"factories": "w", "island": "8w"}, {"factories": "g"}, {"factories": "r"}], "removed": "5w"}`
	loadWant(t, "8 white placed, 5 removed of 11", pos, "8 white containers placed and 5 removed but only 11 exist")
	pos = strings.Replace(pos, `"5w"`, `"3w"`, 1)
	loadWant(t, "8 white placed, 3 removed of 11", pos, "")
}

// A position that leaves "machine" out starts at the engine's own turn menu: loading the
// initial state of a game without its machine gives back the identical state.
func TestPositionWithoutMachineIsTheEnginesTurnMenu(t *testing.T) {
	for _, o := range []Options{DefaultOptions(), {Players: 5, Modules: AllModules}, {Players: 3, Variant: Classic}} {
		g, err := NewGame(o)
		if err != nil {
			t.Fatal(err)
		}
		s := g.NewInitialStateSeed(3)
		b, err := s.MarshalPosition()
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "machine")
		stripped, _ := json.Marshal(m)
		got, err := LoadPosition(stripped)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		if got.machine != s.machine || got.Hash() != s.Hash() {
			t.Errorf("%+v: machine filled in as %+v, want the engine's %+v", o, got.machine, s.machine)
		}
	}
}

func TestPositionMachinePhaseAndDeciderLimits(t *testing.T) {
	for _, tc := range []struct{ name, machine, wantErr string }{
		{"last phase", fmt.Sprintf(`{"phase": %d, "decider": -1}`, NumPhases-1), ""},
		{"one past the last phase", fmt.Sprintf(`{"phase": %d}`, NumPhases), fmt.Sprintf("machine: unknown phase %d", NumPhases)},
		{"decider 3 of 3", `{"decider": 3}`, "machine: decider 3 is not a seat"},
		{"decider -1 at the turn menu", `{"decider": -1}`, "machine: decider -1 is not a seat"},
	} {
		extra := `"machine": ` + tc.machine
		if tc.wantErr == "" {
			// The last phase is the game end: only a finished game may be in it.
			extra += `, "ended": "two-colours", "end_triggered": true`
		}
		loadWant(t, tc.name, threePlayers("", extra), tc.wantErr)
	}
}

// Final scoring "as if the game ended now" (docs/RULES.md, scoring): an outbid player's
// container bid that is being put back still belongs to its districts, factory and harbor,
// also for seat 0.
func TestScoresCountAnOutbidBidBeingPutBackInItsDistricts(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	a, b := 0, 1
	s.Players[a].FactoryLots[0][White] = 1
	s.Players[a].HarborLots[0][Green] = 1
	play(t, s, "bank:start:cash-lot:1", "pick:factory:white:$1", "pick:harbor:green:$2", "end")
	s.Players[b].FactoryLots[0][Green] = 2
	s.Players[b].FactoryLots[1][Green] = 1
	play(t, s, "bank:raise:cash-lot")
	wantPhase(t, s, PhaseReturnBid, a)
	during := s.Scores()[a]
	play(t, s, "place:$1", "place:$2")
	wantPhase(t, s, PhaseBankContainerBid, b)
	after := s.Scores()[a]
	if during != after {
		t.Errorf("seat %d while putting its bid back %+v; once put back %+v", a, during, after)
	}
	if after.FactoryContainers != 1 || after.Leftover != 2 {
		t.Errorf("seat %d: %d factory containers, leftover $%d; want 1 and $2 (one harbor container)", a, after.FactoryContainers, after.Leftover)
	}
}
