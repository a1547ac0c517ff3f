package search

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/play"
	"github.com/container-rl/container/env/rules"
)

// What the search may know: the search tree never tells apart what the searching seat cannot
// see (that a determinization keeps everything the seat has seen: determinize_test.go).

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
