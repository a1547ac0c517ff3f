package search

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// A determinization is a full, valid position that keeps everything the seat sees.
func TestDeterminize_KeepsTheViewAndDealsDistinctCards(t *testing.T) {
	for _, opts := range []rules.Options{rules.DefaultOptions(), {Players: 5, Variant: rules.Classic}, {Players: 3, Modules: rules.AllModules}} {
		st := hiddenBidPosition(t, opts, 11)
		seat := st.CurrentPlayer()
		var view, d rules.State
		st.Redact(seat, &view)
		rng := rand.New(rand.NewPCG(5, 6))
		for k := 0; k < 50; k++ {
			Determinize(&view, seat, rng, &d)
			if err := d.Validate(); err != nil {
				t.Fatalf("%v: determinization invalid: %v", opts, err)
			}
			seen := map[uint8]bool{}
			for i := 0; i < opts.Players; i++ {
				c := d.Players[i].Card
				if int(c) >= rules.NumScoringCards || seen[c] {
					t.Fatalf("%v: seat %d card %d (cards so far %v)", opts, i, c, seen)
				}
				seen[c] = true
			}
			if d.Players[seat].Card != st.Players[seat].Card {
				t.Fatalf("own card changed")
			}
			var back rules.State
			d.Redact(seat, &back)
			if back.Hash() != view.Hash() {
				t.Fatalf("%v: the determinization's view differs from the seat's view", opts)
			}
			for i := 0; i < opts.Players; i++ {
				if a := d.Decision().Delivery; a.HasBid&(1<<i) != 0 && (a.Bids[i] < 0 || a.Bids[i] > d.Players[i].Cash) {
					t.Fatalf("seat %d bid %d with $%d", i, a.Bids[i], d.Players[i].Cash)
				}
			}
		}
	}
}

// At every decision of played games of several option sets (delivery auctions before and
// after their bids are revealed, runoffs, loan requests with incentive bids, Classic), every
// determinization of the decider's view is a valid position whose view for the decider is
// exactly the view it came from: revealed sealed bids, the seat's own scoring card and
// sealed values, and the whole public board are kept; only what the seat cannot see is drawn.
func TestDeterminize_NeverChangesWhatTheSeatHasSeen(t *testing.T) {
	type game struct {
		o     rules.Options
		seats []string
	}
	games := []game{
		{rules.Options{Players: 3, Length: rules.Short}, []string{"valuer", "shipper", "valuer"}},
		{rules.Options{Players: 4, Variant: rules.Classic, Length: rules.Short}, []string{"valuer", "manufacturer", "shipper", "valuer"}},
		{rules.Options{Players: 5, Modules: rules.AllModules, Length: rules.Short}, []string{"valuer", "shipper", "valuer", "manufacturer", "valuer"}},
		// Random seats request and offer player loans (the scripted bots never do): incentive
		// bids, hidden and revealed.
		{rules.Options{Players: 4, Modules: rules.AllModules, Length: rules.Short}, []string{"random", "valuer", "random", "valuer"}},
		{rules.Options{Players: 3, Modules: rules.PlayerLoans, Length: rules.Short}, []string{"random", "random", "random"}},
		{rules.Options{Players: 5, Modules: rules.PlayerLoans, Length: rules.Short}, []string{"random", "random", "random", "random", "random"}},
	}
	rng := rand.New(rand.NewPCG(21, 22))
	var view, d, back rules.State
	checked, revealed, hidden, own, incentives := 0, 0, 0, 0, 0
	var stats drawStats
	for i, gm := range games {
		o := gm.o
		step := 0
		playGame(t, o, gm.seats, uint64(40+i), func(st *rules.State) {
			step++
			sd := st.Decision()
			sealedOpen := sd.Delivery.HasBid != 0 || sd.Delivery.HasRunoff != 0 || sd.Loan.HasIncentive != 0
			if !sealedOpen && step%7 != 0 {
				return // every auction and loan request, and a sample of the other decisions
			}
			// Every seat's view, not only the decider's: a seat that has bid and waits for the
			// others holds a sealed value of its own.
			for seat := 0; seat < o.Players; seat++ {
				st.Redact(seat, &view)
				for k := 0; k < 4; k++ {
					Determinize(&view, seat, rng, &d)
					if err := d.Validate(); err != nil {
						t.Fatalf("%v step %d: a determinization is not a valid position: %v", o, st.Steps, err)
					}
					d.Redact(seat, &back)
					if back.Hash() != view.Hash() {
						t.Fatalf("%v step %d (%s): the determinization's view for seat %d differs from the view it came from", o, st.Steps, st.Phase(), seat)
					}
					if d.Players[seat].Card != st.Players[seat].Card {
						t.Fatalf("%v step %d: seat %d's own card %d became %d", o, st.Steps, seat, st.Players[seat].Card, d.Players[seat].Card)
					}
					dd := d.Decision()
					checkDrawnValuesArePossible(t, o, st, &d, seat, &stats)
					for p := 0; p < o.Players; p++ {
						if sd.Delivery.Revealed && sd.Delivery.HasBid&(1<<p) != 0 && dd.Delivery.Bids[p] != sd.Delivery.Bids[p] {
							t.Fatalf("%v step %d: seat %d's revealed bid %d became %d", o, st.Steps, p, sd.Delivery.Bids[p], dd.Delivery.Bids[p])
						}
						if sd.Delivery.RunoffRevealed && sd.Delivery.HasRunoff&(1<<p) != 0 && dd.Delivery.Runoff[p] != sd.Delivery.Runoff[p] {
							t.Fatalf("%v step %d: seat %d's revealed runoff %d became %d", o, st.Steps, p, sd.Delivery.Runoff[p], dd.Delivery.Runoff[p])
						}
						if sd.Loan.IncentiveRevealed && sd.Loan.HasIncentive&(1<<p) != 0 && dd.Loan.Incentives[p] != sd.Loan.Incentives[p] {
							t.Fatalf("%v step %d: seat %d's revealed incentive %d became %d", o, st.Steps, p, sd.Loan.Incentives[p], dd.Loan.Incentives[p])
						}
						if p == seat && (dd.Delivery.Bids[p] != sd.Delivery.Bids[p] || dd.Delivery.Runoff[p] != sd.Delivery.Runoff[p] || dd.Loan.Incentives[p] != sd.Loan.Incentives[p]) {
							t.Fatalf("%v step %d: seat %d's own sealed values changed", o, st.Steps, p)
						}
					}
				}
				if (sd.Delivery.HasBid&(1<<seat) != 0 && !sd.Delivery.Revealed) || (sd.Loan.HasIncentive&(1<<seat) != 0 && !sd.Loan.IncentiveRevealed) {
					own++
				}
				if sd.Loan.IncentiveRevealed && sd.Loan.HasIncentive&^(1<<seat) != 0 {
					incentives++
				}
				if (sd.Delivery.HasBid&^(1<<seat) != 0 && !sd.Delivery.Revealed) || (sd.Loan.HasIncentive&^(1<<seat) != 0 && !sd.Loan.IncentiveRevealed) {
					hidden++
				}
			}
			checked++
			if sd.Delivery.Revealed || sd.Delivery.RunoffRevealed || sd.Loan.IncentiveRevealed {
				revealed++
			}
		})
	}
	t.Logf("checked %d decisions: %d with revealed sealed values; seat views with another seat's revealed incentive %d, with hidden values %d, with the seat's own sealed value pending %d", checked, revealed, incentives, hidden, own)
	t.Logf("drawn: %+v", stats)
	if checked < 100 || revealed < 5 || hidden < 20 || own < 20 || incentives < 5 {
		t.Fatal("too few positions of each kind to mean much")
	}
	if stats.classicBids < 20 || stats.baseZeroBids == 0 {
		t.Fatal("too few drawn values of each kind to mean much")
	}
}

type drawStats struct {
	classicBids, baseZeroBids, incentivesAfterBid, incentivesAfterRunoff, bidsOfLenders int
}

// checkDrawnValuesArePossible checks that every sealed value d drew for a seat other than
// seat (from seat's view of st) is one that seat could have made: a delivery bid from the
// Classic minimum ($1 with cash) up to its cash, less the $10 it keeps when it offered a loan
// in the open request; a runoff addition within what the bid left; an incentive within its
// cash less $10, less its open delivery bid and runoff when the request interrupted the
// delivery auction.
func checkDrawnValuesArePossible(t *testing.T, o rules.Options, st, d *rules.State, seat int, stats *drawStats) {
	t.Helper()
	sd, dd := st.Decision(), d.Decision()
	for i := 0; i < o.Players; i++ {
		if i == seat {
			continue
		}
		cash := int32(d.Players[i].Cash)
		committable := cash
		if sd.Phase >= rules.PhaseLoanOffer && sd.Phase <= rules.PhaseLoanAccept && sd.Loan.Offers&(1<<i) != 0 {
			committable = max(0, cash-rules.LoanAmount)
		}
		bid, runoff := dd.Delivery.Bids[i], dd.Delivery.Runoff[i]
		if !sd.Delivery.Revealed && sd.Delivery.HasBid&(1<<i) != 0 {
			lo := int32(0)
			if o.Variant == rules.Classic && cash > 0 {
				lo = 1
				stats.classicBids++
			}
			if bid < lo || bid > max(lo, committable) {
				t.Fatalf("%v step %d: seat %d (cash $%d, committable $%d) drawn a bid of $%d", o, st.Steps, i, cash, committable, bid)
			}
			if o.Variant == rules.Base && bid == 0 {
				stats.baseZeroBids++
			}
			if committable < cash {
				stats.bidsOfLenders++
			}
		}
		if !sd.Delivery.RunoffRevealed && sd.Delivery.HasRunoff&(1<<i) != 0 && (runoff < 0 || runoff > max(0, committable-bid)) {
			t.Fatalf("%v step %d: seat %d drawn a runoff of $%d over a bid of $%d (committable $%d)", o, st.Steps, i, runoff, bid, committable)
		}
		if !sd.Loan.IncentiveRevealed && sd.Loan.HasIncentive&(1<<i) != 0 {
			free := cash
			if sd.Action.Kind == rules.SailIsland && sd.Delivery.HasBid&(1<<i) != 0 {
				free -= bid + runoff
				stats.incentivesAfterBid++
				if runoff > 0 {
					stats.incentivesAfterRunoff++
				}
			}
			if inc := dd.Loan.Incentives[i]; inc < 0 || inc > max(0, free-rules.LoanAmount) {
				t.Fatalf("%v step %d: seat %d (cash $%d, free $%d) drawn an incentive of $%d", o, st.Steps, i, cash, free, inc)
			}
		}
	}
}

// A loan requested in the middle of a delivery auction (the bidder asks the others for $10 to
// bid more): the others offer with their own delivery bids still sealed, then bid sealed
// incentives. Every determinization on the way draws only values the seats could have made
// (a lender kept $10 beyond its bid; an incentive fits beside its bid) and keeps each view.
func TestDeterminize_ALoanRequestInsideADeliveryAuction(t *testing.T) {
	var stats drawStats
	var view, d, back rules.State
	rng := rand.New(rand.NewPCG(7, 8))
	takeLoan, _ := rules.KindBase(rules.TakeLoan)
	requests := 0
	for seed := uint64(1); seed <= 60 && requests < 16; seed++ {
		// Five players, and a request by the third bidder or later: the bidders before it then bid
		// incentives in turn while each other's stay sealed.
		o := rules.Options{Players: 5, Modules: rules.PlayerLoans, Length: rules.Short}
		// One request among sealed delivery bids and one among sealed runoff additions (a
		// tie's runoff: the incentive must fit beside the bid and the runoff).
		var starts [2]*rules.State
		playGame(t, o, []string{"valuer", "shipper", "valuer", "manufacturer", "valuer"}[:o.Players], seed, func(st *rules.State) {
			dec := st.Decision()
			if !slices.Contains(st.LegalActions(nil), takeLoan) {
				return
			}
			if starts[0] == nil && dec.Phase == rules.PhaseDeliveryBid && bits.OnesCount8(uint8(dec.Delivery.HasBid)) >= 2 {
				starts[0] = st.Clone()
			}
			if starts[1] == nil && dec.Phase == rules.PhaseRunoffBid && dec.Delivery.HasRunoff != 0 {
				starts[1] = st.Clone()
			}
		})
		for _, st := range starts {
			if st == nil {
				continue
			}
			requests++
			st.Apply(takeLoan)
			for k := 0; k < 20 && !st.IsTerminal(); k++ {
				ph := st.Phase()
				if ph != rules.PhaseLoanOffer && ph != rules.PhaseIncentiveBid && ph != rules.PhaseLoanTie && ph != rules.PhaseLoanAccept {
					break
				}
				for seat := 0; seat < o.Players; seat++ {
					st.Redact(seat, &view)
					for r := 0; r < 8; r++ {
						Determinize(&view, seat, rng, &d)
						if d.Redact(seat, &back); back.Hash() != view.Hash() {
							t.Fatalf("seed %d %s: the determinization's view for seat %d differs", seed, ph, seat)
						}
						checkDrawnValuesArePossible(t, o, st, &d, seat, &stats)
					}
				}
				// Every asked seat offers; incentives are the most each can bid, so that a draw past
				// the limit shows.
				var pick rules.Move
				moves := st.LegalMoves(nil)
				pick = moves[0]
				for _, m := range moves {
					if m.Kind == rules.Yes || (m.Kind == rules.Amount && m.Amount > pick.Amount) {
						pick = m
					}
				}
				if err := st.ApplyMoveChecked(pick); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Logf("%d loan requests inside auctions; drawn: %+v", requests, stats)
	if requests == 0 || stats.bidsOfLenders == 0 || stats.incentivesAfterBid == 0 || stats.incentivesAfterRunoff == 0 {
		t.Fatal("no loan request inside a delivery auction reached: the test proves nothing")
	}
}
