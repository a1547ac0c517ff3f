package encoding

import (
	"fmt"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// column returns a function reading one named entry ("p1.cash.value") of obs.
func column(t *testing.T, e *Encoder, obs []float32) func(string) float32 {
	t.Helper()
	idx := map[string]int{}
	for i, c := range e.Spec().Columns() {
		idx[c] = i
	}
	return func(name string) float32 {
		t.Helper()
		i, ok := idx[name]
		if !ok {
			t.Fatalf("no column %s", name)
		}
		return obs[i]
	}
}

// Hand-set public facts of a 4-player game with every module, seen by seat 1, land in the
// named features at the documented scale, with seats relative to the observer (seat 0 is
// p3, seat 2 is p1, seat 3 is p2): the truck auction of seat 0's company, company owners and
// piles, trucks, both loan slots with their lenders, the decision's seats and amounts, and
// the turn progress of a game with a turn limit of 50. Random play rarely reaches these.
func TestHandSetPublicFactsLandInTheirNamedFeatures(t *testing.T) {
	g := newGame(t, rules.Options{Players: 4, Modules: rules.AllModules, TurnLimit: 50})
	e := NewEncoder(g)
	v := g.NewInitialStateSeed(1)
	v.Turn = 10
	v.Auctions[rules.TruckAuction] = rules.Auction{Active: true, Target: 0, Bidder: 3, Cash: 6}
	v.Companies[0] = rules.Company{Owner: 0}
	v.Companies[2] = rules.Company{Owner: -1, Pile: 10}
	v.Players[2].Trucks = 1
	v.Players[2].NumLoans = 2
	v.Players[2].Loans = [rules.MaxLoans]rules.Loan{{Lender: -1, Amount: 10}, {Lender: 0, Amount: 16}}
	v.Players[3].NumLoans = 2
	v.Players[3].Loans = [rules.MaxLoans]rules.Loan{{Lender: 1, Amount: 12}, {Lender: -1, Amount: 10}}
	d := rules.Decision{Phase: rules.PhaseLoanAccept, Decider: 3, Active: 2, Counterpart: 0,
		MinAmount: 5, MaxAmount: 40, AmountBase: 100, ToBeat: 4}
	obs := make([]float32, e.Size())
	if err := e.Encode(v, 1, d, obs); err != nil {
		t.Fatal(err)
	}
	col := column(t, e, obs)
	want := map[string]float32{
		"turn.progress.value":                0.2, // turn 10 of 50
		"auction.truck.active.on":            1,
		"auction.truck.target.p3":            1, // seat 0's company
		"auction.truck.target.p0":            0,
		"auction.truck.bidder.p2":            1,
		"auction.truck.cash.value":           0.3,
		"company.p3.owner.p3":                1, // seat 0 owns its own company
		"company.p3.owner.none":              0,
		"company.p1.owner.none":              1,
		"company.p1.pile.value":              0.5,
		"company.p0.owner.none":              1,
		"p1.trucks.value":                    float32(1) / rules.TrucksPerPlayer,
		"p1.loans.value":                     1,
		"p1.loan_amounts.0":                  0.5,
		"p1.loan_amounts.1":                  0.8,
		"p1.loan_lenders.0.bank":             1,
		"p1.loan_lenders.1.p3":               1,
		"p1.loan_lenders.1.bank":             0,
		"p2.loan_lenders.0.p0":               1,
		"p2.loan_lenders.1.bank":             1,
		"p2.loan_lenders.1.p0":               0,
		"decision.decider.p2":                1,
		"decision.decider.p0":                0,
		"decision.active.p1":                 1,
		"decision.counterpart.p3":            1,
		"decision.min_amount.value":          0.05,
		"decision.max_amount.value":          0.4,
		"decision.amount_base.value":         1,
		"decision.to_beat.value":             0.2,
		"decision.phase." + d.Phase.String(): 1,
	}
	for name, w := range want {
		if got := col(name); got != w {
			t.Errorf("%s = %g, want %g", name, got, w)
		}
	}
	if s := e.Spec(); func() float32 { f, _ := s.Feature("turn.progress"); return f.Scale }() != 50 {
		t.Errorf("turn.progress scale is not the game's turn limit of 50")
	}
}

// The game-end features follow the supply: with every supply full the two smallest
// colours are at their totals (end.distance 1, no empty colour); one empty colour counts
// half of the two that end the game, two count fully.
func TestEndFeaturesFollowTheSupply(t *testing.T) {
	g := newGame(t, rules.Options{Players: 3})
	e := NewEncoder(g)
	v := g.NewInitialStateSeed(2)
	totals := containersByColour(v)
	for c := 0; c < rules.NumNormalColours; c++ {
		v.Supply[c] = uint8(totals[c])
	}
	obs := make([]float32, e.Size())
	col := column(t, e, obs)
	check := func(what string, distance, empty float32) {
		t.Helper()
		if err := e.Encode(v, 0, v.Decision(), obs); err != nil {
			t.Fatal(err)
		}
		if got := col("end.distance.value"); got != distance {
			t.Errorf("%s: end.distance = %g, want %g", what, got, distance)
		}
		if got := col("end.empty_colours.value"); got != empty {
			t.Errorf("%s: end.empty_colours = %g, want %g", what, got, empty)
		}
	}
	check("every supply full", 1, 0)
	v.Supply[rules.White] = 0
	check("white empty", 0.5, 0.5)
	v.Supply[rules.Colour(1)] = 0
	check("white and black empty", 0, 1)
}

// An observer seat outside the game is refused with a message naming the valid range.
func TestObserverOutsideTheGameNamesTheValidSeats(t *testing.T) {
	g := newGame(t, rules.Options{Players: 4})
	e := NewEncoder(g)
	err := e.Observe(g.NewInitialStateSeed(1), 4, make([]float32, e.Size()))
	if err == nil || !strings.Contains(err.Error(), "observer seat 4 outside 0..3") {
		t.Errorf("observer 4 of 4 seats: %v, want it to name the seats 0..3", err)
	}
}

// The turn counters, purchase and seizure progress, Bank payment and the sealed delivery
// bids of the pending decision (rules.Decision) land in their named features, scaled as
// documented and with seats relative to the observer (seat 1 observes: seat 2 is p1, seat 3
// p2, seat 0 p3). Sealed bids are encoded as the decision holds them (Observe passes
// DecisionFor(observer, ...), which zeroes the unrevealed ones).
func TestHandSetMachineFactsLandInTheirNamedFeatures(t *testing.T) {
	g := newGame(t, rules.Options{Players: 4, Modules: rules.AllModules})
	e := NewEncoder(g)
	v := g.NewInitialStateSeed(1)
	d := v.Decision()
	d.Turn.ActionsUsed, d.Turn.Repays = 1, 1
	d.Action.Bought, d.Action.PickLeft = 4, 2
	d.Default.Unpaid, d.Default.At = 1, rules.SeizeHolding
	d.Payment.Placed = 5
	d.Delivery.Bids[2], d.Delivery.Bids[0], d.Delivery.Runoff[3] = 30, 10, 20
	d.Delivery.HasBid = 1<<2 | 1<<0
	d.Delivery.Tied = 1 << 3
	d.Delivery.HasRunoff = 1 << 0
	d.Interest.Unpaid = 2
	d.Loan.Rejected, d.Loan.Offered, d.Loan.Offers, d.Loan.HasIncentive, d.Loan.Tied = 1<<2, 1<<3, 1<<2, 1<<3, 1<<0
	d.Loan.Incentives[2] = 10
	obs := make([]float32, e.Size())
	if err := e.Encode(v, 1, d, obs); err != nil {
		t.Fatal(err)
	}
	col := column(t, e, obs)
	want := map[string]float32{
		"turn.actions_used.value":       0.5,
		"turn.repays.value":             0.5,
		"action.bought.value":           float32(4) / (2 * rules.MaxFactories),
		"action.pick_left.value":        float32(2) / (2 * rules.MaxFactories),
		"default.unpaid.value":          0.5,
		"default.seize_at.holding":      1,
		"default.seize_at.island":       0,
		"bank_pay.placed.value":         0.5,
		"delivery.bids.p1":              0.3,
		"delivery.bids.p3":              0.1,
		"delivery.bids.p0":              0,
		"delivery.runoff.p2":            0.2,
		"delivery.has_bid.p1":           1,
		"delivery.has_bid.p3":           1,
		"delivery.has_bid.p0":           0,
		"delivery.tied.p2":              1,
		"delivery.tied.p0":              0,
		"delivery.has_runoff.p3":        1,
		"delivery.has_runoff.p0":        0,
		"interest.unpaid.1":             1,
		"interest.unpaid.0":             0,
		"loan_request.rejected.p1":      1,
		"loan_request.rejected.p0":      0,
		"loan_request.offered.p2":       1,
		"loan_request.offers.p1":        1,
		"loan_request.has_incentive.p2": 1,
		"loan_request.tied.p3":          1,
		"loan_request.tied.p0":          0,
		"loan_request.incentives.p1":    0.5,
		"loan_request.incentives.p0":    0,
	}
	for name, w := range want {
		if got := col(name); got != w {
			t.Errorf("%s = %g, want %g", name, got, w)
		}
	}
}

// The containers placed during an action stay within their documented bound of 1 however
// many land on one lot index: the first and the last entry of action.fixed are clipped.
func TestPlacedContainersFeatureIsClippedToItsBound(t *testing.T) {
	g := newGame(t, rules.Options{Players: 4, Modules: rules.AllModules})
	e := NewEncoder(g)
	v := g.NewInitialStateSeed(1)
	last := rules.Colour(rules.NumColours - 1)
	d := v.Decision()
	d.Action.Fixed[0][0] = 7
	d.Action.Fixed[rules.HarborPrices-1][last] = 9
	obs := make([]float32, e.Size())
	if err := e.Encode(v, 0, d, obs); err != nil {
		t.Fatal(err)
	}
	col := column(t, e, obs)
	for _, name := range []string{"action.fixed.lot0." + rules.Colour(0).String(), fmt.Sprintf("action.fixed.lot%d.%s", rules.HarborPrices-1, last)} {
		if got := col(name); got != 1 {
			t.Errorf("%s = %g, want 1 (clipped)", name, got)
		}
	}
}
