package search

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// node is one information set of the searching seat: the sequence of moves it has seen
// (other seats' sealed bids merged) since the root. Its edges form a list sorted by key.
type node struct {
	first   int32 // first edge, -1 if none
	shared  int32 // the child every hidden sealed bid of another seat leads to, -1 if none
	visited bool  // evaluated once (a leaf scored; with a net, edges made with priors)
}

// edge is one move from a node, made by one seat: key = seat*numActions + action.
type edge struct {
	key    int32
	next   int32 // next edge of the node, in key order
	child  int32 // node the move leads to, -1 before it is followed
	visits int32
	avail  int32   // simulations in which the move was legal when its node was passed
	prior  float32 // network prior (PUCT)
	value  float64 // sum of the choosing seat's outcomes
}

var (
	numActions         = int32(rules.NumDistinctActions())
	amountBase, amount = rules.KindBase(rules.Amount)
	takeLoan, _        = rules.KindBase(rules.TakeLoan)
	repayBase, repayN  = rules.KindBase(rules.RepayLoan)
)

// worker runs simulations on its own tree; the bot's workers run in parallel.
type worker struct {
	cfg    *Config
	pcg    rand.PCG
	rng    *rand.Rand
	nodes  []node
	edges  []edge
	path   []int32
	st     rules.State
	view   rules.State
	legal  []int
	probe  []int // scratch for loanUseful
	unexp  []int
	policy bots.Bot // rollout policy; nil: uniformly random
	eval   Evaluator
	prior  []float32
	value  [rules.MaxPlayers]float32
	err    error
	scores []rules.Score
	sims   int
	seat   int // the searching seat
}

func (w *worker) newNode() int32 {
	w.nodes = append(w.nodes, node{first: -1, shared: -1})
	return int32(len(w.nodes) - 1)
}

// search runs sims simulations (or until deadline when sims is 0) from view, the redacted
// view of seat, on a fresh tree.
func (w *worker) search(view *rules.State, seat, sims int, deadline time.Time) {
	if w.rng == nil {
		w.rng = rand.New(&w.pcg)
	}
	w.nodes, w.edges, w.sims, w.seat = w.nodes[:0], w.edges[:0], 0, seat
	w.newNode()
	w.nodes[0].visited = w.eval == nil // UCT needs no evaluation of the root
	for {
		if sims > 0 {
			if w.sims >= sims {
				break
			}
		} else if w.sims > 0 && !time.Now().Before(deadline) {
			break
		}
		Determinize(view, seat, w.rng, &w.st)
		w.simulate()
		w.sims++
	}
}

// rootEdge returns the root's edge for seat's action a, or nil.
func (w *worker) rootEdge(a, seat int) *edge {
	if len(w.nodes) == 0 {
		return nil
	}
	k := int32(seat)*numActions + int32(a)
	for e := w.nodes[0].first; e >= 0; e = w.edges[e].next {
		if w.edges[e].key == k {
			return &w.edges[e]
		}
		if w.edges[e].key > k {
			break
		}
	}
	return nil
}

// candidates returns the legal actions the search considers: all of them, except that long
// runs of amounts (bids) are thinned to $0-8 over the lowest, every $4 up to $24 over it,
// every $10 beyond, and the highest; and that a loan is considered only where its $10
// would open a move the seat cannot afford now (loanUseful; every loan with loans=any).
func (w *worker) candidates(st *rules.State) []int {
	w.legal = st.LegalActions(w.legal)
	legal := w.legal
	if i, ok := slices.BinarySearch(legal, takeLoan); ok && !w.cfg.AnyLoan && !w.loanUseful(st, legal) {
		legal = slices.Delete(legal, i, i+1)
	}
	lo := -1
	out := legal[:0]
	for i, a := range legal {
		if a < amountBase || a >= amountBase+amount {
			out = append(out, a)
			continue
		}
		if lo < 0 {
			lo = a
		}
		off := a - lo
		last := i == len(legal)-1 || legal[i+1] >= amountBase+amount
		if off <= 8 || (off <= 24 && off%4 == 0) || off%10 == 0 || last {
			out = append(out, a)
		}
	}
	w.legal = out
	return out
}

// loanUseful reports whether taking a loan now could change what the decider of st can do
// at this decision (st offers a loan, so it has a decider): whether $10 more in hand would
// make more moves legal than legal (a repayment made possible by the loan itself does not
// count). A loan can be taken at any later decision of the same seat, when the cash is
// needed, so one taken where it buys nothing (mid-rearrange, with cash to spare) only costs
// interest. Without this the search, whose estimates of a loan's small cost ($1 a turn, $11
// at the end instead of $10) are within its noise, takes loans by chance at the many
// decisions that offer one and repays them only at the few that offer that: it drifts to
// two loans and, in Classic, into default.
func (w *worker) loanUseful(st *rules.State, legal []int) bool {
	if useful, known := loanUsefulIn(st.Phase()); known {
		return useful
	}
	p := &st.Players[st.CurrentPlayer()]
	p.Cash += rules.LoanAmount
	w.probe = st.LegalActions(w.probe)
	p.Cash -= rules.LoanAmount
	return notRepay(w.probe) > notRepay(legal)
}

// loanUsefulIn answers loanUseful from the phase alone where the phase decides it (known):
// a bid's highest amount is the cash in hand, so a loan always raises it; placing, picking
// and choosing containers never spend cash. The other phases (the turn menu, purchases,
// accepting a delivery bid) ask the rules. TestLoanUsefulIn_AgreesWithTheRules checks the
// two answers agree in played games of every option set.
func loanUsefulIn(ph rules.Phase) (useful, known bool) {
	switch ph {
	case rules.PhaseDeliveryBid, rules.PhaseRunoffBid, rules.PhaseBankCashBid:
		return true, true
	case rules.PhasePlace, rules.PhaseRearrange, rules.PhaseProduceColour, rules.PhaseLoadBank,
		rules.PhaseBankContainerBid, rules.PhaseBankPayColour, rules.PhaseSeize, rules.PhaseReturnBid,
		rules.PhaseLuxuryPick, rules.PhaseDeliveryTie, rules.PhaseLenderChoice:
		return false, true
	}
	return false, false
}

// notRepay counts the ids in legal that are not loan repayments.
func notRepay(legal []int) int {
	n := 0
	for _, a := range legal {
		if a < repayBase || a >= repayBase+repayN {
			n++
		}
	}
	return n
}

// hiddenMove reports whether seat d's action a in st is a sealed value the searching seat
// does not see (another seat's delivery bid, runoff addition or loan incentive).
func (w *worker) hiddenMove(st *rules.State, d, a int) bool {
	if d == w.seat || a < amountBase || a >= amountBase+amount {
		return false
	}
	switch st.Phase() {
	case rules.PhaseDeliveryBid, rules.PhaseRunoffBid, rules.PhaseIncentiveBid:
		return true
	}
	return false
}

// simulate runs one simulation on the determinization w.st: selection and expansion down the
// tree, evaluation of the new leaf, backup of every seat's outcome.
func (w *worker) simulate() {
	st := &w.st
	n := int32(0)
	w.path = w.path[:0]
	var out [rules.MaxPlayers]float64
	for {
		if st.IsTerminal() {
			w.score(st, &out)
			break
		}
		legal := w.candidates(st)
		if len(legal) == 0 { // an inconsistent determinization (see Determinize)
			w.score(st, &out)
			break
		}
		if len(legal) == 1 { // forced: no choice to learn
			st.Apply(legal[0])
			continue
		}
		d := st.CurrentPlayer()
		if !w.nodes[n].visited {
			w.nodes[n].visited = true
			w.leaf(st, n, d, legal, &out)
			break
		}
		e := w.selectEdge(n, d, legal, st)
		w.path = append(w.path, e)
		a := int(w.edges[e].key - int32(d)*numActions)
		hidden := w.hiddenMove(st, d, a)
		st.Apply(a)
		child := w.edges[e].child
		if child < 0 {
			if hidden && w.nodes[n].shared >= 0 {
				child = w.nodes[n].shared
			} else {
				child = w.newNode()
				if hidden {
					w.nodes[n].shared = child
				}
			}
			w.edges[e].child = child
		}
		n = child
	}
	for _, e := range w.path {
		ed := &w.edges[e]
		ed.visits++
		ed.value += out[ed.key/numActions]
	}
}

// leaf scores a node reached for the first time: with a net, it sets the node's edges from
// the prior and takes the value (or a rollout, when the spec asked for one, or both mixed
// with leaf=mix); else a rollout.
func (w *worker) leaf(st *rules.State, n int32, d int, legal []int, out *[rules.MaxPlayers]float64) {
	if w.eval != nil {
		np := st.Game().Options().Players
		st.Redact(d, &w.view)
		w.prior = w.prior[:0]
		for range legal {
			w.prior = append(w.prior, 0)
		}
		if err := w.eval.Evaluate(&w.view, legal, w.prior, w.value[:np]); err != nil {
			if w.err == nil {
				w.err = err
			}
			for i := range w.prior {
				w.prior[i] = 1 / float32(len(legal))
			}
			for i := 0; i < np; i++ {
				w.value[i] = 0.5
			}
		}
		prev := int32(-1)
		for i, a := range legal {
			e := w.newEdge(n, prev, int32(d)*numActions+int32(a))
			w.edges[e].prior = w.prior[i]
			prev = e
		}
		if w.cfg.Leaf == LeafMix {
			w.rollout(st, out)
			for i := 0; i < np; i++ {
				out[i] = (1-w.cfg.Mix)*float64(w.value[i]) + w.cfg.Mix*out[i]
			}
			return
		}
		if !w.cfg.rolloutSet {
			for i := 0; i < np; i++ {
				out[i] = float64(w.value[i])
			}
			return
		}
	}
	w.rollout(st, out)
}

// newEdge inserts an edge with key after prev (-1: at the head) in node n's list.
func (w *worker) newEdge(n, prev, key int32) int32 {
	e := int32(len(w.edges))
	next := w.nodes[n].first
	if prev >= 0 {
		next = w.edges[prev].next
	}
	w.edges = append(w.edges, edge{key: key, next: next, child: -1})
	if prev >= 0 {
		w.edges[prev].next = e
	} else {
		w.nodes[n].first = e
	}
	return e
}

// insertEdge adds an edge with key to node n in key order.
func (w *worker) insertEdge(n, key int32) int32 {
	prev := int32(-1)
	for e := w.nodes[n].first; e >= 0 && w.edges[e].key < key; e = w.edges[e].next {
		prev = e
	}
	return w.newEdge(n, prev, key)
}

// selectEdge picks seat d's move at node n among legal: UCT over the moves available now
// (ISMCTS counts a move's availability, not its parent's visits), trying every untried
// move first (the rollout policy's choice before the others); PUCT with a net.
func (w *worker) selectEdge(n int32, d int, legal []int, st *rules.State) int32 {
	base := int32(d) * numActions
	c := w.cfg.C
	w.unexp = w.unexp[:0]
	best, bestScore := int32(-1), math.Inf(-1)
	tried := false
	fpuQ := 0.5
	if w.eval != nil && w.cfg.FPU >= 0 {
		fpuQ = w.firstPlayValue(n, base)
	}
	e := w.nodes[n].first
	for _, a := range legal {
		k := base + int32(a)
		for e >= 0 && w.edges[e].key < k {
			e = w.edges[e].next
		}
		if e < 0 || w.edges[e].key != k {
			w.unexp = append(w.unexp, a)
			continue
		}
		ed := &w.edges[e]
		ed.avail++
		tried = tried || ed.visits > 0
		var sc float64
		if w.eval != nil {
			q := fpuQ
			if ed.visits > 0 {
				q = ed.value / float64(ed.visits)
			}
			sc = q + c*float64(ed.prior)*math.Sqrt(float64(ed.avail))/float64(1+ed.visits)
		} else {
			sc = ed.value/float64(ed.visits) + c*math.Sqrt(math.Log(float64(ed.avail))/float64(ed.visits))
		}
		if sc > bestScore {
			best, bestScore = e, sc
		}
		e = ed.next
	}
	if len(w.unexp) == 0 {
		return best
	}
	if w.eval != nil {
		// Moves this determinization allows that the evaluated one did not: uniform prior.
		p := 1 / float32(len(legal))
		for _, a := range w.unexp {
			sc := fpuQ + c*float64(p)
			if sc > bestScore {
				ne := w.insertEdge(n, base+int32(a))
				w.edges[ne].prior = p
				w.edges[ne].avail = 1
				best, bestScore = ne, sc
			}
		}
		return best
	}
	a := -1
	if !tried && w.policy != nil {
		pa := w.policy.Act(st, legal)
		for _, u := range w.unexp {
			if u == pa {
				a = pa
			}
		}
	}
	if a < 0 {
		a = w.unexp[w.rng.IntN(len(w.unexp))]
	}
	ne := w.insertEdge(n, base+int32(a))
	w.edges[ne].avail = 1
	return ne
}

// firstPlayValue is the value PUCT gives a move not yet visited at node n by the seat whose
// edges start at key base: the visit-weighted mean outcome of that seat's visited moves
// there minus cfg.FPU (floored at 0), or 0.5 while none is visited (then every move is
// unvisited and the prior alone orders them).
func (w *worker) firstPlayValue(n, base int32) float64 {
	var sum float64
	var visits int32
	for e := w.nodes[n].first; e >= 0; e = w.edges[e].next {
		ed := &w.edges[e]
		if ed.key < base {
			continue
		}
		if ed.key >= base+numActions {
			break
		}
		sum += ed.value
		visits += ed.visits
	}
	if visits == 0 {
		return 0.5
	}
	return max(0, sum/float64(visits)-w.cfg.FPU)
}

// rollout plays every seat with the rollout policy from st to the end, or for Depth
// decisions, and scores the position reached.
func (w *worker) rollout(st *rules.State, out *[rules.MaxPlayers]float64) {
	limit := st.Game().MaxGameLength()
	if w.cfg.Depth > 0 {
		limit = w.cfg.Depth
	}
	for steps := 0; !st.IsTerminal() && steps < limit; steps++ {
		w.legal = st.LegalActions(w.legal)
		legal := w.legal
		if len(legal) == 0 {
			break // an inconsistent determinization (see Determinize): score it as it stands
		}
		a := legal[0]
		if len(legal) > 1 {
			if w.policy != nil {
				a = w.policy.Act(st, legal)
			} else {
				a = legal[w.rng.IntN(len(legal))]
			}
		}
		st.Apply(a)
	}
	w.score(st, out)
}

// MarginScale is the score margin (in dollars) at which a seat's margin term reaches 0.88.
const MarginScale = 20

// Outcomes writes into out (one entry per seat) the outcome the search backs up for the
// position st, ended or not: worker.score's value (for evaluators outside the search that
// should value positions the same way, such as OpenSpiel's ISMCTS in docs/OPENSPIEL.md).
func Outcomes(st *rules.State, out []float64) {
	var w worker
	var o [rules.MaxPlayers]float64
	w.score(st, &o)
	copy(out, o[:])
}

// score writes each seat's outcome in st, ended or not (scored as if it ended now): half
// its share of the win, half its margin over the best other seat squashed to 0..1. A game
// that ended at the safety turn limit is a loss (0) for every seat, so that no seat sees a
// gain in dragging a game out to the limit.
func (w *worker) score(st *rules.State, out *[rules.MaxPlayers]float64) {
	if st.Ended == rules.EndTurnLimit {
		for i := range out {
			out[i] = 0
		}
		return
	}
	w.scores = st.ScoresInto(w.scores)
	sc := w.scores
	winners := 0
	for i := range sc {
		if sc[i].Winner {
			winners++
		}
	}
	for i := range sc {
		bestOther := math.MinInt
		for j := range sc {
			if j != i && sc[j].Total > bestOther {
				bestOther = sc[j].Total
			}
		}
		v := 0.25 + 0.25*math.Tanh(float64(sc[i].Total-bestOther)/MarginScale)
		if sc[i].Winner {
			v += 0.5 / float64(winners)
		}
		out[i] = v
	}
}
