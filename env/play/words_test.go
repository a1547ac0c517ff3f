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
				c := ContextOf(d, o.Players)
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

// The words of the decisions a player meets most, exactly.
func TestWordsReadAsSentences(t *testing.T) {
	w := Words{Viewer: 0}
	for _, c := range []struct {
		c    Context
		m    rules.Move
		want string
	}{
		{Context{Phase: rules.PhaseDeliveryBid, Decider: 0, Counterpart: 2}, rules.Move{Kind: rules.Amount, Amount: 5}, "Bid $5 for p3's cargo (sealed)"},
		{Context{Phase: rules.PhaseBankPayColour, Decider: 0}, rules.Move{Kind: rules.PickColour, Colour: rules.Blue}, "Pay blue to the Bank"},
		{Context{Phase: rules.PhaseBuyFactory, Decider: 0, Counterpart: 1}, rules.Move{Kind: rules.PickFactory, Colour: rules.Blue, Price: 2}, "Buy blue at $2 from p2's factory store"},
		{Context{Phase: rules.PhaseRearrange, Decider: 0, District: rules.HarborDistrict}, rules.Move{Kind: rules.PickHarbor, Colour: rules.Red, Price: 4}, "Pick up the red at $4 in your harbor to move it"},
		{Context{Phase: rules.PhasePlace, Decider: 0, District: rules.FactoryDistrict, Pending: rules.Counts{rules.Green: 1, rules.Red: 1}}, rules.Move{Kind: rules.Place, Price: 3}, "Place the green container in your factory store at $3"},
		{Context{Phase: rules.PhaseTurn, Decider: 0, Players: 4}, rules.Move{Kind: rules.Produce}, "Produce (pay $1 to p4)"},
		{Context{Phase: rules.PhaseTurn, Decider: 0}, rules.Move{Kind: rules.CallBankStart, Index: 4}, "Call the Bank: auction cash lot II"},
		{Context{Phase: rules.PhaseDeliveryAccept, Decider: 0}, rules.Move{Kind: rules.No}, "Buy the cargo yourself (pay the top bid to the Bank)"},
		{Context{Phase: rules.PhaseLoanAccept, Decider: 0, Lender: 3}, rules.Move{Kind: rules.Yes}, "Accept p4's loan"},
	} {
		if got := w.Move(c.c, c.m); got != c.want {
			t.Errorf("%s in %s: %q, want %q", c.m, c.c.Phase, got, c.want)
		}
	}
	if got := w.Ask(Context{Phase: rules.PhaseBankPayColour}); got != "Pay the Bank: which colour?" {
		t.Errorf("bank-pay-colour asks %q", got)
	}
	if got := w.Ask(Context{Phase: rules.PhaseDeliveryBid, Counterpart: 2}); got != "Bid for p3's cargo: your sealed bid" {
		t.Errorf("delivery-bid asks %q", got)
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
		text := Words{Viewer: 1}.SealedMove(Context{Phase: p, Counterpart: 2})
		if strings.Contains(text, "$") {
			t.Errorf("%s: sealed words %q hold an amount", p, text)
		}
		help, section := Help(p)
		if len(help) < 40 || !regexp.MustCompile(`^\d+\. `).MatchString(section) {
			t.Errorf("%s: help %q, section %q", p, help, section)
		}
	}
}
