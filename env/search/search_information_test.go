package search

import (
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
	}
	rng := rand.New(rand.NewPCG(21, 22))
	var view, d, back rules.State
	checked, revealed, hidden, own, incentives := 0, 0, 0, 0, 0
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
	if checked < 100 || revealed < 5 || hidden < 20 || own < 20 || incentives < 5 {
		t.Fatal("too few positions of each kind to mean much")
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
	t.Logf("%d sealed-bid edges of other seats at %d nodes", hiddenEdges, sharedNodes)
	if hiddenEdges < 4 || sharedNodes < 2 {
		t.Fatalf("the tree holds %d sealed-bid edges of other seats at %d nodes: the test reached too little of it", hiddenEdges, sharedNodes)
	}
}
