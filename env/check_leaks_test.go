package env

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

// loanPlay plays a random game in which a bidder in a delivery auction asks for a loan
// whenever it may (half the time when it bids first), bids the smallest amount half the
// time, and an opponent offers a loan whenever it may, so that incentive bids over sealed
// delivery bids (Player Loans) come up; it takes no loan outside an auction unless it must.
func loanPlay(g *rules.Game, seed uint64, visit func(s *rules.State) bool) {
	s := g.NewInitialStateSeed(seed)
	rng := rand.New(rand.NewPCG(seed, 11))
	takeLoan, _ := rules.KindBase(rules.TakeLoan)
	yes, _ := rules.KindBase(rules.Yes)
	amount, _ := rules.KindBase(rules.Amount)
	auction := func(p rules.Phase) bool { return p == rules.PhaseDeliveryBid || p == rules.PhaseRunoffBid }
	var legal []int
	for visit(s) && !s.IsTerminal() {
		legal = s.LegalActions(legal)
		if len(legal) > 1 && !auction(s.Phase()) {
			legal = slices.DeleteFunc(legal, func(a int) bool { return a == takeLoan })
		}
		a := legal[rng.IntN(len(legal))]
		switch ph := s.Phase(); {
		case auction(ph) && slices.Contains(legal, takeLoan) && (s.Decision().Delivery.HasBid != 0 || rng.IntN(2) == 0):
			a = takeLoan
		case auction(ph) && rng.IntN(2) == 0:
			if i := slices.IndexFunc(legal, func(a int) bool { return a >= amount }); i >= 0 {
				a = legal[i]
			}
		case ph == rules.PhaseLoanOffer && slices.Contains(legal, yes):
			a = yes
		}
		s.Apply(a)
	}
}

// The sealed-value checks catch the leak they were written for: an encoder that gives every
// seat the full state's amount fields (as the standard observation once did) shows a
// lender's incentive limit, which depends on its sealed delivery bid, and the decider's
// amount in progress, to the other seats. With the real encoder the same positions pass.
func TestSealedLeakChecksCatchTheAmountFieldsLeak(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 5, Modules: rules.AllModules}}
	ck, err := newChecker(o, CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	enc := encoding.NewEncoderWith(ck.env.Game(), o.Encoding())
	var view rules.State
	leaky := func(s *rules.State, seat int, dst []float32) error {
		s.Redact(seat, &view)
		d, full := view.Decision(), s.Decision()
		d.MinAmount, d.MaxAmount, d.AmountBase = full.MinAmount, full.MaxAmount, full.AmountBase
		return enc.Encode(&view, seat, d, dst)
	}
	// An incentive bid by a lender whose delivery bid is still sealed, and a delivery bid.
	var incentive, bid *rules.State
	for seed := uint64(1); seed <= 20 && incentive == nil; seed++ {
		loanPlay(ck.env.Game(), seed, func(s *rules.State) bool {
			d := s.Decision()
			if d.Phase == rules.PhaseIncentiveBid && d.Delivery.HasBid&(1<<d.Decider) != 0 && !d.Delivery.Revealed && incentive == nil {
				incentive = s.Clone()
			}
			if d.Phase == rules.PhaseDeliveryBid && bid == nil {
				bid = s.Clone()
			}
			return incentive == nil
		})
	}
	if incentive == nil || bid == nil {
		t.Fatal("test setup: no incentive bid over a sealed delivery bid came up")
	}
	for _, c := range []struct {
		s    *rules.State
		want string
	}{
		{incentive, "decision.max_amount"},
		{bid, "amount in progress changes"},
	} {
		ck.observe = ck.enc.Observe
		if err := ck.sealedLeaks(c.s, 0, 0); err != nil {
			t.Errorf("phase %s, the real encoder: %v", c.s.Phase(), err)
		}
		// The incentive's limit shows only for some re-sampled bids: try a few draws.
		ck.observe = leaky
		var err error
		for k := 0; k < 10 && err == nil; k++ {
			err = ck.sealedLeaks(c.s, 0, 0)
		}
		t.Logf("phase %s, leaky: %v", c.s.Phase(), err)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("phase %s, a leaky encoder: err = %v, want a leak naming %q", c.s.Phase(), err, c.want)
		}
	}
	if ck.sealedChecks == 0 || ck.amountChecks == 0 {
		t.Errorf("%d sealed-value and %d amount-in-progress comparisons, want both above 0", ck.sealedChecks, ck.amountChecks)
	}
}

// The checker's play-on pairs catch a leak through the order of play: who is asked to lend
// (More Containers, Player Loans, Requesting a Loan). A bidder in a delivery auction asks
// for a loan; an opponent whose re-sampled sealed bid leaves it under $10 in hand must still
// be asked (it may only decline), else the borrower's observation (a Bank loan at once
// instead of an offer round) shows that bid. With the engine as it is, no pair may differ.
func TestFollowChecksCatchWhoIsAskedToLend(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 4, Modules: rules.PlayerLoans}}
	ck, err := newChecker(o, CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	takeLoan, _ := rules.KindBase(rules.TakeLoan)
	requests := 0
	for seed := uint64(1); seed <= 6; seed++ {
		loanPlay(ck.env.Game(), seed, func(s *rules.State) bool {
			d := s.Decision()
			if d.Phase != rules.PhaseDeliveryBid || d.Delivery.HasBid&^(1<<d.Decider) == 0 {
				return true
			}
			ck.legal = s.LegalActions(ck.legal)
			if !slices.Contains(ck.legal, takeLoan) {
				return true
			}
			requests++
			for k := 0; k < 20; k++ {
				ck.follow = ck.follow[:0]
				if err := ck.sealedLeaks(s, seed, int(s.Steps)); err != nil {
					t.Fatal(err)
				}
				if err := ck.advance(takeLoan, seed, int(s.Steps)); err != nil {
					t.Fatalf("a loan request: %v", err)
				}
			}
			return true
		})
	}
	t.Logf("%d loan requests over sealed bids, %d play-on comparisons", requests, ck.followChecks)
	if requests == 0 || ck.followChecks == 0 {
		t.Fatalf("test setup: %d loan requests over sealed bids, %d play-on comparisons", requests, ck.followChecks)
	}
}

// The checker catches a step counter that counts amount:+100 presses (it once did: every
// later observation showed whether some sealed amount reached $100): an encoder given the
// full state's step count fails the amount-in-progress check; the real encoder passes.
func TestSealedLeakChecksCatchTheStepCounterLeak(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 4}}
	ck, err := newChecker(o, CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	enc := encoding.NewEncoderWith(ck.env.Game(), o.Encoding())
	var view rules.State
	var d rules.Decision
	leaky := func(s *rules.State, seat int, dst []float32) error {
		s.Redact(seat, &view)
		view.Steps, view.Presses = s.Steps, 0
		s.DecisionFor(seat, &d)
		return enc.Encode(&view, seat, d, dst)
	}
	var bid *rules.State
	for seed := uint64(1); seed <= 20 && bid == nil; seed++ {
		loanPlay(ck.env.Game(), seed, func(s *rules.State) bool {
			if s.Phase() == rules.PhaseDeliveryBid {
				bid = s.Clone()
			}
			return bid == nil
		})
	}
	if bid == nil {
		t.Fatal("test setup: no delivery bid came up")
	}
	ck.observe = ck.enc.Observe
	if err := ck.sealedLeaks(bid, 0, 0); err != nil {
		t.Fatalf("the real encoder: %v", err)
	}
	ck.observe = leaky
	err = ck.sealedLeaks(bid, 0, 0)
	t.Logf("leaky: %v", err)
	if err == nil || !strings.Contains(err.Error(), "turn.steps") {
		t.Fatalf("an encoder counting +$100 presses: err = %v, want a leak naming turn.steps", err)
	}
}
