package encoding

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// hidingOptions are the observation variants that claim to hide information from an
// observer: every variant (the standard one hides scoring cards and sealed values, the
// hidden-cash one cash as well).
var hidingOptions = []Options{{}, {HideOpponentCash: true}}

// amountPhase reports whether p is a decision on an amount (the phases with AmountHundred).
func amountPhase(p rules.Phase) bool {
	return p == rules.PhaseDeliveryBid || p == rules.PhaseRunoffBid || p == rules.PhaseIncentiveBid || p == rules.PhaseBankCashBid
}

// sealedAlternative returns another value for seat's unrevealed sealed values in s (a
// different first-round bid, runoff addition or incentive), and whether it found one that
// s.Validate accepts: the result is a true position differing from s in that seat's hidden
// values only.
func sealedAlternative(s *rules.State, seat int) (*rules.State, bool) {
	d := s.Decision()
	bit := uint8(1) << seat
	cur := rules.Sealed{Bid: d.Delivery.Bids[seat], Runoff: d.Delivery.Runoff[seat], Incentive: d.Loan.Incentives[seat]}
	var fields []*int32
	alt := cur
	if d.Delivery.HasBid&bit != 0 && !d.Delivery.Revealed {
		fields = append(fields, &alt.Bid)
	}
	if d.Delivery.HasRunoff&bit != 0 && !d.Delivery.RunoffRevealed {
		fields = append(fields, &alt.Runoff)
	}
	if d.Loan.HasIncentive&bit != 0 && !d.Loan.IncentiveRevealed {
		fields = append(fields, &alt.Incentive)
	}
	for _, delta := range []int32{1, -1, 2, -2, 5, -5} {
		for _, f := range fields {
			old := *f
			*f += delta
			if *f >= 0 {
				c := s.Clone()
				c.SetSealed(seat, alt)
				if c.Validate() == nil {
					return c, true
				}
			}
			*f = old
		}
	}
	return nil, false
}

// withAmountBase returns s with the decider's cash raised by $300 (taken from the supply) and
// its amount in progress (built with AmountHundred) set to base, through the position format
// (which validates it).
func withAmountBase(t *testing.T, s *rules.State, base int) *rules.State {
	t.Helper()
	data, err := s.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	var pos map[string]any
	if err := json.Unmarshal(data, &pos); err != nil {
		t.Fatal(err)
	}
	d := s.CurrentPlayer()
	p := pos["players"].([]any)[d].(map[string]any)
	p["cash"] = float64(s.Players[d].Cash + 300)
	m, _ := pos["machine"].(map[string]any)
	if m == nil {
		m = map[string]any{}
		pos["machine"] = m
	}
	m["amount_base"] = base
	fs, _ := m["from_supply"].(float64)
	m["from_supply"] = fs + 300 // the raise came from the supply
	data, err = json.Marshal(pos)
	if err != nil {
		t.Fatal(err)
	}
	c, err := rules.LoadPosition(data)
	if err != nil {
		t.Fatalf("amount in progress $%d in phase %s: %v", base, s.Phase(), err)
	}
	return c
}

// loanPlay plays random games like randomPlay, except that a bidder in a delivery auction
// asks for a loan whenever it may (half the time when it bids first) and bids the smallest
// amount half the time, and an opponent offers a loan whenever it may, so that incentive bids
// over sealed delivery bids (Player Loans) come up; it takes no loan outside a delivery
// auction unless it must.
func loanPlay(g *rules.Game, seed uint64, visit func(s *rules.State) bool) {
	s := g.NewInitialStateSeed(seed)
	rng := rand.New(rand.NewPCG(seed, 11))
	takeLoan, _ := rules.KindBase(rules.TakeLoan)
	yes, _ := rules.KindBase(rules.Yes)
	amount, _ := rules.KindBase(rules.Amount)
	var legal []int
	for visit(s) && !s.IsTerminal() {
		legal = s.LegalActions(legal)
		if len(legal) > 1 && !auction(s.Phase()) {
			legal = slices.DeleteFunc(legal, func(a int) bool { return a == takeLoan }) // save loans for the auction
		}
		a := legal[rng.IntN(len(legal))]
		switch ph := s.Phase(); {
		case auction(ph) && slices.Contains(legal, takeLoan) && (s.Decision().Delivery.HasBid != 0 || rng.IntN(2) == 0):
			a = takeLoan
		case auction(ph) && rng.IntN(2) == 0:
			if i := slices.IndexFunc(legal, func(a int) bool { return a >= amount }); i >= 0 {
				a = legal[i] // the smallest amount: cash stays free to lend
			}
		case ph == rules.PhaseLoanOffer && slices.Contains(legal, yes):
			a = yes
		}
		s.Apply(a)
	}
}

func auction(p rules.Phase) bool { return p == rules.PhaseDeliveryBid || p == rules.PhaseRunoffBid }

// TestNonDecidersSeeNothingOfSealedValues proves that no observer learns another seat's
// hidden sealed values (CLARIFICATIONS.md, "Hidden information": every sealed bid is hidden
// until the reveal). At every decision of random games where a seat holds an unrevealed
// delivery bid, runoff addition or loan incentive (More Containers, Player Loans), it builds a
// second true position differing only in that seat's sealed values; at every amount decision
// (delivery bid, runoff, incentive, Bank cash bid) two positions differing only in the
// decider's amount in progress (AmountHundred). Every other seat's observation, in every
// observation variant, must be the same for both. In an incentive bid during a delivery
// auction the decider's largest incentive depends on its own sealed delivery bid, so its
// decision.max_amount feature is the case that once leaked.
func TestNonDecidersSeeNothingOfSealedValues(t *testing.T) {
	var sealedChecks, decidersOwn, incentiveOverBid, baseChecks int
	reported := map[string]bool{} // one failure per kind of leak
	seeds := []uint64{1, 2, 3}
	var loanSeeds []uint64 // incentive bids over a sealed delivery bid are rare: more games
	for s := uint64(1); s <= 12; s++ {
		loanSeeds = append(loanSeeds, s)
	}
	for _, o := range configs() {
		g := newGame(t, o)
		n := o.Players
		encs := make([]*Encoder, len(hidingOptions))
		for i, eo := range hidingOptions {
			encs[i] = NewEncoderWith(g, eo)
		}
		a, b := make([]float32, encs[0].Size()), make([]float32, encs[0].Size())
		differ := func(s1, s2 *rules.State, skip int, what string) {
			t.Helper()
			for i, e := range encs {
				for obs := 0; obs < n; obs++ {
					if obs == skip {
						continue
					}
					_ = e.Observe(s1, obs, a)
					_ = e.Observe(s2, obs, b)
					if !slices.Equal(a, b) {
						key := fmt.Sprint(what, s1.Decision().Phase, hidingOptions[i])
						if reported[key] {
							continue
						}
						reported[key] = true
						t.Errorf("%s: %s of seat %d leaks into seat %d's observation (%+v) in phase %s: %s",
							name(o), what, skip, obs, hidingOptions[i], s1.Decision().Phase, diff(e, a, b))
					}
				}
			}
		}
		seeds := seeds
		if o.Modules.Has(rules.PlayerLoans) {
			seeds = loanSeeds
		}
		for _, seed := range seeds {
			loanPlay(g, seed, func(s *rules.State) bool {
				if s.IsTerminal() {
					return false
				}
				d := s.Decision()
				if amountPhase(d.Phase) {
					decidersView(t, encs, s, a, b)
				}
				for seat := 0; seat < n; seat++ {
					c, ok := sealedAlternative(s, seat)
					if !ok {
						continue
					}
					sealedChecks++
					if seat == d.Decider {
						decidersOwn++
						if d.Phase == rules.PhaseIncentiveBid && d.Delivery.HasBid&(1<<seat) != 0 && !d.Delivery.Revealed {
							incentiveOverBid++
						}
					}
					differ(s, c, seat, "the sealed values")
				}
				if amountPhase(d.Phase) {
					c0, c1 := withAmountBase(t, s, 0), withAmountBase(t, s, 100)
					baseChecks++
					differ(c0, c1, d.Decider, "the amount in progress")
					decidersView(t, encs, c1, a, b)
				}
				return true
			})
		}
	}
	t.Logf("%d sealed-value pairs (%d of the decider, %d incentive bids over a sealed delivery bid), %d amount-in-progress pairs",
		sealedChecks, decidersOwn, incentiveOverBid, baseChecks)
	if sealedChecks == 0 || decidersOwn == 0 || incentiveOverBid == 0 || baseChecks == 0 {
		t.Fatalf("the games reached too few sealed situations to prove anything: %d sealed pairs, %d of the decider, %d incentive bids over a sealed bid, %d amount pairs",
			sealedChecks, decidersOwn, incentiveOverBid, baseChecks)
	}
}

// decidersView checks that the decider's own observation of an amount decision is what it
// was before non-deciders' amount fields were redacted: its view with the full state's amount
// fields (the decider knows its own sealed bid and amount in progress). Bots decide on this
// observation, so it must not change.
func decidersView(t *testing.T, encs []*Encoder, s *rules.State, a, b []float32) {
	t.Helper()
	full := s.Decision()
	var view rules.State
	s.Redact(full.Decider, &view)
	want := view.Decision()
	want.MinAmount, want.MaxAmount, want.AmountBase = full.MinAmount, full.MaxAmount, full.AmountBase
	for _, e := range encs {
		_ = e.Observe(s, full.Decider, a)
		if err := e.Encode(&view, full.Decider, want, b); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a, b) {
			t.Fatalf("the decider's observation of %s changed: %s", full.Phase, diff(e, a, b))
		}
	}
}

// diff names the first differing feature of two observations.
func diff(e *Encoder, a, b []float32) string {
	cols := e.Spec().Columns()
	for i := range a {
		if a[i] != b[i] {
			return fmt.Sprintf("%s: %g vs %g", cols[i], a[i], b[i])
		}
	}
	return "no difference"
}
