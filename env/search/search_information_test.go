package search

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/play"
	"github.com/container-rl/container/env/rules"
)

// What the search may know: a determinization keeps everything the searching seat has seen,
// and the search tree never tells apart what the seat cannot see.

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

// playGame plays a game of o from seed with the named bots and calls f with every position
// that has a decision (a copy f may change).
func playGame(t *testing.T, o rules.Options, names []string, seed uint64, f func(st *rules.State)) {
	t.Helper()
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(seed)
	bs := make([]bots.Bot, o.Players)
	for i := range bs {
		if bs[i], err = bots.New(names[i], o, seed+uint64(i)); err != nil {
			t.Fatal(err)
		}
	}
	var view, probe rules.State
	legal := make([]int, 0, 256)
	for !st.IsTerminal() {
		d := st.CurrentPlayer()
		legal = st.LegalActions(legal)
		probe.CopyFrom(st)
		f(&probe)
		st.Redact(d, &view)
		st.Apply(bs[d].Act(&view, legal))
	}
}

// The search tree never splits on what the searching seat cannot see: in a delivery auction
// the searching seat opens (it sails to the island; the others then bid sealed), every sealed
// bid of another seat leads to one shared node, so the seat's later statistics are the same
// whatever those bids were. The test walks the tree after a search, replaying its moves on a
// determinization, and checks every edge of another seat's sealed amount.
func TestIsmcts_TreeNeverSplitsOnAnotherSeatsSealedBid(t *testing.T) {
	opts := rules.Options{Players: 4, Length: rules.Short}
	// A turn with sail:island among the moves: the seat's own auction follows.
	var root *rules.State
	for seed := uint64(1); root == nil && seed < 20; seed++ {
		decisionsOf(t, opts, seed, func(st *rules.State, legal []int) {
			if root != nil || st.Phase() != rules.PhaseTurn || st.Turn < 6 {
				return
			}
			for _, m := range st.LegalMoves(nil) {
				if m.Kind == rules.SailIsland {
					root = st.Clone()
				}
			}
		})
	}
	if root == nil {
		t.Fatal("no turn with a sail to the island")
	}
	seat := root.CurrentPlayer()
	var view rules.State
	root.Redact(seat, &view)
	cfg := DefaultConfig()
	cfg.Sims, cfg.Workers, cfg.Depth = 400, 1, 12
	b, err := New(cfg, opts, 5)
	if err != nil {
		t.Fatal(err)
	}
	b.Act(&view, root.LegalActions(nil))
	w := b.workers[0]
	var det rules.State
	Determinize(&view, seat, rand.New(rand.NewPCG(1, 1)), &det)
	hiddenEdges, sharedNodes := 0, 0
	seen := map[int32]bool{} // a shared node is walked once, from the first path that reaches it
	var walk func(st *rules.State, n int32, depth int)
	walk = func(st *rules.State, n int32, depth int) {
		if depth > 10 || st.IsTerminal() || seen[n] {
			return
		}
		seen[n] = true
		// Forced moves are not in the tree: the simulation applies them and goes on.
		for !st.IsTerminal() {
			legal := st.LegalActions(nil)
			if len(legal) != 1 {
				break
			}
			st.Apply(legal[0])
		}
		if st.IsTerminal() {
			return
		}
		d := st.CurrentPlayer()
		sealed := d != seat && play.SealedPhase(st.Phase())
		child := int32(-1)
		for e := w.nodes[n].first; e >= 0; e = w.edges[e].next {
			ed := w.edges[e]
			if ed.child < 0 || int(ed.key/numActions) != d {
				continue
			}
			a := int(ed.key % numActions)
			if sealed && a >= amountBase && a < amountBase+amount {
				hiddenEdges++
				if child >= 0 && ed.child != child {
					t.Fatalf("seat %d's sealed bids in %s lead to different nodes (%d and %d): the tree splits on a bid seat %d cannot see",
						d, st.Phase(), child, ed.child, seat)
				}
				if child < 0 {
					sharedNodes++
				}
				child = ed.child
			}
			next := st.Clone()
			if !slices.Contains(next.LegalActions(nil), a) {
				continue // not legal in this determinization
			}
			next.Apply(a)
			walk(next, ed.child, depth+1)
		}
	}
	walk(&det, 0, 0)
	// The tree is a tree: every node but the root is the child of exactly one node (a shared
	// child belongs to the node whose hidden moves lead to it, never to another).
	parent := map[int32]int32{}
	for n := range w.nodes {
		for e := w.nodes[n].first; e >= 0; e = w.edges[e].next {
			c := w.edges[e].child
			if c < 0 {
				continue
			}
			if c == 0 {
				t.Fatalf("node %d leads back to the root", n)
			}
			if p, ok := parent[c]; ok && p != int32(n) {
				t.Fatalf("node %d is a child of nodes %d and %d", c, p, n)
			}
			parent[c] = int32(n)
		}
		if sh := w.nodes[n].shared; sh >= 0 && parent[sh] != int32(n) {
			t.Fatalf("node %d's shared child %d hangs under node %d", n, sh, parent[sh])
		}
	}
	t.Logf("%d sealed-bid edges of other seats at %d nodes", hiddenEdges, sharedNodes)
	if hiddenEdges < 4 || sharedNodes < 2 {
		t.Fatalf("the tree holds %d sealed-bid edges of other seats at %d nodes: the test reached too little of it", hiddenEdges, sharedNodes)
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
