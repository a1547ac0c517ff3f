package env

import (
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

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
