package search

import (
	"math/rand/v2"

	"github.com/container-rl/container/env/rules"
)

// Determinize writes into dst one full position consistent with view, the redacted view of
// seat (rules.State.Redact): everything seat sees is copied, and what it cannot see is
// sampled:
//
//   - the other seats' final scoring cards: the cards seat does not hold, shuffled and dealt
//     to them (cards are dealt without repeats from all five, so any such deal is possible);
//   - other seats' unrevealed sealed values (delivery bids, runoff additions, loan
//     incentives): a value in the range the seat could have bid, drawn with a lean towards
//     small values (the lower of two uniform draws), since bids are mostly a fraction of cash;
//     a seat that offered a loan in the request now open keeps $10 beyond its bid.
//
// Other public moves can hint at hidden values too; a determinization that leaves a seat
// without a legal move is cut short by the search (scored as it stands).
//
// It reads only view, so two true positions with the same view give the same
// determinizations for the same random stream.
func Determinize(view *rules.State, seat int, rng *rand.Rand, dst *rules.State) {
	dst.CopyFrom(view)
	n := view.Game().Options().Players
	// Scoring cards.
	var pool [rules.NumScoringCards]uint8
	np := 0
	var held [rules.NumScoringCards]bool
	for i := 0; i < n; i++ {
		if c := dst.Players[i].Card; int(c) < rules.NumScoringCards {
			held[c] = true
		}
	}
	for c := range held {
		if !held[c] {
			pool[np] = uint8(c)
			np++
		}
	}
	for i := 0; i < n; i++ {
		if p := &dst.Players[i]; int(p.Card) >= rules.NumScoringCards && np > 0 {
			k := rng.IntN(np)
			p.Card = pool[k]
			pool[k] = pool[np-1]
			np--
		}
	}
	// Sealed values.
	d := dst.Decision()
	for i := 0; i < n; i++ {
		if i == seat {
			continue
		}
		v := rules.Sealed{Bid: d.Delivery.Bids[i], Runoff: d.Delivery.Runoff[i], Incentive: d.Loan.Incentives[i]}
		cash := dst.Players[i].Cash
		// A seat that offered a loan in the request now open had $10 in hand beyond its
		// delivery bid (rules: canOffer), so its bid left it at least that much.
		committable := cash
		if d.Phase >= rules.PhaseLoanOffer && d.Phase <= rules.PhaseLoanAccept && d.Loan.Offers&(1<<i) != 0 {
			committable = max(0, cash-rules.LoanAmount)
		}
		if !d.Delivery.Revealed && d.Delivery.HasBid&(1<<i) != 0 {
			lo := int32(0)
			if view.Game().Options().Variant == rules.Classic && cash > 0 {
				lo = 1 // Classic demands a $1 bid from a seat with cash (rules.minDeliveryBid)
			}
			v.Bid = lowDraw(rng, lo, committable)
		}
		if !d.Delivery.RunoffRevealed && d.Delivery.HasRunoff&(1<<i) != 0 {
			v.Runoff = lowDraw(rng, 0, committable-v.Bid)
		}
		if !d.Loan.IncentiveRevealed && d.Loan.HasIncentive&(1<<i) != 0 {
			free := cash
			if d.Action.Kind == rules.SailIsland && d.Delivery.HasBid&(1<<i) != 0 {
				free -= v.Bid + v.Runoff // cash committed to an open delivery bid
			}
			v.Incentive = lowDraw(rng, 0, free-rules.LoanAmount)
		}
		dst.SetSealed(i, v) // the values seat saw are kept; the view is a position again
	}
}

// lowDraw draws from lo..hi leaning low: the smaller of two uniform draws (lo when hi < lo).
func lowDraw(rng *rand.Rand, lo, hi int32) int32 {
	if hi <= lo {
		return lo
	}
	span := int(hi-lo) + 1
	return lo + int32(min(rng.IntN(span), rng.IntN(span)))
}
