package play

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// wordsOptions are the option sets whose games the words tests walk: every module at every
// player count, the base game and Classic.
func wordsOptions(t *testing.T) []rules.Options {
	t.Helper()
	var out []rules.Options
	for n := 3; n <= 5; n++ {
		o := rules.DefaultOptions()
		o.Players, o.Modules = n, rules.AllModules
		out = append(out, o)
	}
	base := rules.DefaultOptions()
	classic := rules.DefaultOptions()
	classic.Variant = rules.Classic
	return append(out, base, classic)
}

var badWords = regexp.MustCompile(`move\(|kind\(|phase\(|nobody|<nil>|%!`)

// Every legal move of every decision of random games (all modules, every player count, the
// base game and Classic) has its own words: a sentence naming what the notation names (the
// colour, the price, the amount, the seat), never a kind's generic fallback where its phase
// has a specific one; every kind and every phase but the end is met.
func TestEveryMoveKindAndDecisionHasWordsInEveryPhase(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 4
	}
	kinds := map[rules.MoveKind]bool{}
	phasesSeen := map[rules.Phase]bool{}
	pairs := map[string]string{}
	for _, o := range wordsOptions(t) {
		g, err := rules.NewGame(o)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(0); seed < uint64(games); seed++ {
			s := g.NewInitialStateSeed(seed)
			r := rand.New(rand.NewPCG(seed, 5))
			for !s.IsTerminal() {
				d := s.Decision()
				c := ContextAt(s)
				phasesSeen[d.Phase] = true
				for _, viewer := range []int{d.Decider, -1} {
					w := Words{Viewer: viewer}
					ask := w.Ask(c)
					if ask == "" || badWords.MatchString(ask) || ask == d.Phase.String() {
						t.Fatalf("%v, phase %s: question %q", o, d.Phase, ask)
					}
				}
				// $100 steps are action ids only (a Move takes the whole amount).
				for _, id := range s.LegalActions(nil) {
					if m := s.ActionToMove(id); m.Kind == rules.AmountHundred {
						kinds[m.Kind] = true
						checkMoveWords(t, c, m, Words{Viewer: d.Decider}.Move(c, m))
					}
				}
				moves := s.LegalMoves(nil)
				for _, m := range moves {
					kinds[m.Kind] = true
					text := Words{Viewer: d.Decider}.Move(c, m)
					checkMoveWords(t, c, m, text)
					pairs[m.Kind.String()+" in "+d.Phase.String()] = text
				}
				// Mostly moves other than the end of the turn, so games go deep.
				m := moves[r.IntN(len(moves))]
				if m.Kind == rules.EndTurn && len(moves) > 1 && r.IntN(4) != 0 {
					m = moves[r.IntN(len(moves))]
				}
				if err := s.ApplyMoveChecked(m); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	// A $100 step needs more than $100 in hand, which random games hardly reach: checked here.
	for _, p := range []rules.Phase{rules.PhaseDeliveryBid, rules.PhaseBankCashBid} {
		m := rules.Move{Kind: rules.AmountHundred}
		checkMoveWords(t, Context{Phase: p}, m, Words{}.Move(Context{Phase: p}, m))
		kinds[m.Kind] = true
	}
	for k := rules.MoveKind(0); k < rules.NumMoveKinds; k++ {
		if !kinds[k] {
			t.Errorf("kind %s never legal in the walked games", k)
		}
	}
	for p := rules.PhaseTurn; p < rules.PhaseTerminal; p++ {
		if !phasesSeen[p] {
			t.Errorf("phase %s never reached", p)
		}
	}
	t.Logf("%d (kind, phase) pairs", len(pairs))
}

// checkMoveWords checks one move's words against its notation.
func checkMoveWords(t *testing.T, c Context, m rules.Move, text string) {
	t.Helper()
	where := fmt.Sprintf("%s in %s", m, c.Phase)
	if text == "" || text == m.String() || badWords.MatchString(text) {
		t.Fatalf("%s: words %q", where, text)
	}
	if text[0] < 'A' || text[0] > 'Z' {
		t.Fatalf("%s: words %q do not start with a capital", where, text)
	}
	generic := map[string]bool{"Yes": true, "No": true, "Done": true, fmt.Sprintf("$%d", m.Amount): true}
	if generic[text] || strings.HasPrefix(text, "Choose ") || strings.HasPrefix(text, "Pick ") && !strings.HasPrefix(text, "Pick up") {
		t.Fatalf("%s: generic words %q", where, text)
	}
	switch m.Kind {
	case rules.BuildFactory, rules.PickFactory, rules.PickHarbor, rules.PickShip, rules.PickHolding, rules.PickIsland, rules.PickColour:
		if !strings.Contains(text, m.Colour.String()) {
			t.Fatalf("%s: words %q do not name the colour", where, text)
		}
	case rules.Amount:
		if !strings.Contains(text, fmt.Sprintf("$%d", m.Amount)) {
			t.Fatalf("%s: words %q do not name the amount", where, text)
		}
		if SealedPhase(c.Phase) != strings.Contains(text, "sealed") {
			t.Fatalf("%s: words %q say sealed wrongly", where, text)
		}
	case rules.ChooseSeat, rules.SailHarbor, rules.FactoryPurchase:
		if !strings.Contains(text, fmt.Sprintf("p%d", m.Seat+1)) {
			t.Fatalf("%s: words %q do not name p%d", where, text, m.Seat+1)
		}
	}
	if m.Kind == rules.PickFactory || m.Kind == rules.PickHarbor || m.Kind == rules.Place {
		if !strings.Contains(text, fmt.Sprintf("$%d", m.Price)) {
			t.Fatalf("%s: words %q do not name the price", where, text)
		}
	}
}

// cargo12 is a cargo of one white and two red containers.
var cargo12 = rules.Counts{rules.White: 1, rules.Red: 2}

// The words of the decisions a player meets most, exactly.
func TestWordsReadAsSentences(t *testing.T) {
	w := Words{Viewer: 0}
	for _, c := range []struct {
		c    Context
		m    rules.Move
		want string
	}{
		{Context{Phase: rules.PhaseDeliveryBid, Decider: 0, Counterpart: 2}, rules.Move{Kind: rules.Amount, Amount: 5}, "Bid $5 (sealed) for p3's cargo"},
		{Context{Phase: rules.PhaseDeliveryBid, Decider: 0, Counterpart: 2, Cargo: cargo12}, rules.Move{Kind: rules.Amount, Amount: 5}, "Bid $5 (sealed) for p3's cargo (1 white, 2 red)"},
		{Context{Phase: rules.PhaseRunoffBid, Decider: 0, Counterpart: 2, Cargo: cargo12}, rules.Move{Kind: rules.Amount, Amount: 2}, "Add $2 (sealed) to the tied bid for p3's cargo (1 white, 2 red)"},
		{Context{Phase: rules.PhaseDeliveryTie, Decider: 0, Cargo: cargo12}, rules.Move{Kind: rules.ChooseSeat, Seat: 1}, "Sell the cargo (1 white, 2 red) to p2"},
		{Context{Phase: rules.PhaseDeliveryAccept, Decider: 0, Cargo: cargo12}, rules.Move{Kind: rules.Yes}, "Accept the top bid: sell the cargo (1 white, 2 red)"},
		{Context{Phase: rules.PhaseBankPayColour, Decider: 0}, rules.Move{Kind: rules.PickColour, Colour: rules.Blue}, "Pay blue to the Bank"},
		{Context{Phase: rules.PhaseBuyFactory, Decider: 0, Counterpart: 1}, rules.Move{Kind: rules.PickFactory, Colour: rules.Blue, Price: 2}, "Buy blue at $2 from p2's factory store"},
		{Context{Phase: rules.PhaseRearrange, Decider: 0, District: rules.HarborDistrict}, rules.Move{Kind: rules.PickHarbor, Colour: rules.Red, Price: 4}, "Pick up the red at $4 in your harbor to move it"},
		{Context{Phase: rules.PhasePlace, Decider: 0, District: rules.FactoryDistrict, Pending: rules.Counts{rules.Green: 1, rules.Red: 1}}, rules.Move{Kind: rules.Place, Price: 3}, "Place the green container in your factory store at $3"},
		{Context{Phase: rules.PhaseTurn, Decider: 0, Players: 4}, rules.Move{Kind: rules.Produce}, "Produce (pay $1 to p4)"},
		{Context{Phase: rules.PhaseTurn, Decider: 0}, rules.Move{Kind: rules.CallBankStart, Index: 4}, "Call the Bank: auction cash lot II"},
		{Context{Phase: rules.PhaseDeliveryAccept, Decider: 0}, rules.Move{Kind: rules.No}, "Buy the cargo yourself: pay the top bid to the Bank"},
		{Context{Phase: rules.PhaseDeliveryAccept, Decider: 0, Cargo: cargo12}, rules.Move{Kind: rules.No}, "Buy the cargo (1 white, 2 red) yourself: pay the top bid to the Bank"},
		{Context{Phase: rules.PhaseLoanAccept, Decider: 0, Lender: 3}, rules.Move{Kind: rules.Yes}, "Accept p4's loan"},
	} {
		if got := w.Move(c.c, c.m); got != c.want {
			t.Errorf("%s in %s: %q, want %q", c.m, c.c.Phase, got, c.want)
		}
	}
	if got := w.Ask(Context{Phase: rules.PhaseBankPayColour}); got != "Pay the Bank: which colour?" {
		t.Errorf("bank-pay-colour asks %q", got)
	}
	for _, c := range []struct {
		c    Context
		want string
	}{
		{Context{Phase: rules.PhaseDeliveryBid, Counterpart: 2}, "Bid for p3's cargo: your sealed bid"},
		{Context{Phase: rules.PhaseDeliveryBid, Counterpart: 2, Cargo: cargo12}, "Bid for p3's cargo (1 white, 2 red): your sealed bid"},
		{Context{Phase: rules.PhaseRunoffBid, Counterpart: 2, Cargo: cargo12}, "Tied for p3's cargo (1 white, 2 red): add a sealed amount to your bid"},
		{Context{Phase: rules.PhaseDeliveryTie, Counterpart: 2, Cargo: cargo12}, "Still tied: who gets the cargo (1 white, 2 red)?"},
		{Context{Phase: rules.PhaseDeliveryAccept, Counterpart: 1, Cargo: cargo12}, "Sell the cargo (1 white, 2 red) to the top bidder, or buy it yourself?"},
		{Context{Phase: rules.PhaseDeliveryBid, Counterpart: 0, Cargo: rules.Counts{rules.Gold: 1, rules.Yellow: 1, rules.Green: 3}}, "Bid for your cargo (3 green, 1 yellow, 1 gold): your sealed bid"},
	} {
		if got := w.Ask(c.c); got != c.want {
			t.Errorf("%s asks %q, want %q", c.c.Phase, got, c.want)
		}
	}
	if got := (Words{Viewer: 1}).SealedMove(Context{Phase: rules.PhaseDeliveryBid, Counterpart: 2, Cargo: cargo12}); got != "Sealed bid for p3's cargo (1 white, 2 red)" {
		t.Errorf("another seat's sealed bid reads %q", got)
	}
	// Another reader sees the decider by seat.
	if got := (Words{Viewer: 1}).Move(Context{Phase: rules.PhaseTurn, Decider: 0}, rules.Move{Kind: rules.SailHarbor, Seat: 1}); got != "Sail to your harbor" {
		t.Errorf("p1 sailing to p2's harbor reads %q for p2", got)
	}
}

// A sealed bid as the other seats read it names whose cargo or loan, never an amount; every
// phase has help naming a section of docs/RULES.md.
func TestSealedBidWordsHoldNoAmountAndEveryPhaseHasHelp(t *testing.T) {
	for p := rules.Phase(0); p < rules.NumPhases; p++ {
		text := Words{Viewer: 1}.SealedMove(Context{Phase: p, Counterpart: 2, Cargo: cargo12})
		if strings.Contains(text, "$") {
			t.Errorf("%s: sealed words %q hold an amount", p, text)
		}
		help, section := Help(p)
		if len(help) < 40 || !regexp.MustCompile(`^\d+\. `).MatchString(section) {
			t.Errorf("%s: help %q, section %q", p, help, section)
		}
	}
}

// cargoInWords finds the cargo a text names, "(1 white, 2 red)", and reads it back; ok is
// false when the text names none or lists the colours out of their order.
func cargoInWords(t *testing.T, text string) (c rules.Counts, ok bool) {
	t.Helper()
	m := regexp.MustCompile(`cargo \(([^)]*)\)`).FindStringSubmatch(text)
	if m == nil {
		return c, false
	}
	last := -1
	for _, part := range strings.Split(m[1], ", ") {
		var n int
		var name string
		if _, err := fmt.Sscanf(part, "%d %s", &n, &name); err != nil || n <= 0 {
			t.Fatalf("%q: cargo part %q", text, part)
		}
		col, err := rules.ParseColour(name)
		if err != nil || len(name) == 1 || int(col) <= last || c[col] != 0 {
			t.Fatalf("%q: colour %q out of order, repeated or unknown", text, name)
		}
		last, c[col] = int(col), uint8(n)
	}
	return c, true
}

// In random games (every module, every player count, the base game and Classic), every
// decision of a delivery auction (bid, runoff, tie, accept), as every seat reads it, names
// exactly the cargo on the deliverer's ship, colour by colour in colour order: the question,
// the words of each bid, accept, buy-out and tie-break move, and the sealed words of another seat's bid. The context of a seat's
// redacted view is the context of the whole position (the cargo is public), and outside a
// delivery auction the context holds no cargo.
func TestDeliveryAuctionWordsNameExactlyTheDeliverersCargo(t *testing.T) {
	games := 8
	if testing.Short() {
		games = 3
	}
	seen := map[rules.Phase]int{}
	for _, o := range wordsOptions(t) {
		g, err := rules.NewGame(o)
		if err != nil {
			t.Fatal(err)
		}
		view := g.NewInitialState()
		for seed := uint64(0); seed < uint64(games); seed++ {
			s := g.NewInitialStateSeed(seed)
			r := rand.New(rand.NewPCG(seed, 17))
			for !s.IsTerminal() {
				c := ContextAt(s)
				for seat := 0; seat < o.Players; seat++ {
					s.Redact(seat, view)
					if got := ContextAt(view); got != c {
						t.Fatalf("%v, %s: seat %d's view has context %+v, the position %+v", o, c.Phase, seat, got, c)
					}
				}
				if !DeliveryPhase(c.Phase) {
					if c.Cargo != (rules.Counts{}) {
						t.Fatalf("%v, %s: cargo %v outside a delivery auction", o, c.Phase, c.Cargo)
					}
				} else {
					seen[c.Phase]++
					ship := s.Players[s.Active].Ship
					if c.Cargo != ship || ship.Total() == 0 {
						t.Fatalf("%v, %s: context cargo %v, deliverer's ship %v", o, c.Phase, c.Cargo, ship)
					}
					var texts []string
					for viewer := -1; viewer < o.Players; viewer++ {
						w := Words{Viewer: viewer}
						texts = append(texts, w.Ask(c))
						if SealedPhase(c.Phase) {
							texts = append(texts, w.SealedMove(c))
						}
						for _, m := range s.LegalMoves(nil) {
							switch m.Kind {
							case rules.Amount, rules.Yes, rules.No, rules.ChooseSeat: // the auction's own moves (not loans)
								texts = append(texts, w.Move(c, m))
							}
						}
					}
					for _, text := range texts {
						if got, ok := cargoInWords(t, text); !ok || got != ship {
							t.Fatalf("%v, %s: %q names cargo %v, the ship holds %v", o, c.Phase, text, got, ship)
						}
					}
				}
				moves := s.LegalMoves(nil)
				m := moves[r.IntN(len(moves))]
				if m.Kind == rules.EndTurn && len(moves) > 1 && r.IntN(4) != 0 {
					m = moves[r.IntN(len(moves))]
				}
				if err := s.ApplyMoveChecked(m); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, p := range []rules.Phase{rules.PhaseDeliveryBid, rules.PhaseRunoffBid, rules.PhaseDeliveryTie, rules.PhaseDeliveryAccept} {
		if seen[p] == 0 {
			t.Errorf("phase %s never reached", p)
		}
	}
	t.Logf("delivery decisions checked: %v", seen)
}
