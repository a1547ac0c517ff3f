package bridge

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/eval"
	"github.com/container-rl/container/env/rules"
)

// spielT is a test's view of one OpenSpiel state handle.
type spielT struct {
	t     *testing.T
	h     int64
	legal []int32
	probs []float64
	out   []int64
}

func newSpielT(t *testing.T, opts string) *spielT {
	t.Helper()
	h, err := NewSpiel(opts)
	if err != nil {
		t.Fatal(err)
	}
	return wrapSpiel(t, h)
}

func wrapSpiel(t *testing.T, h int64) *spielT {
	n := rules.NumDistinctActions()
	x := &spielT{t: t, h: h, legal: make([]int32, n), probs: make([]float64, n), out: make([]int64, 2)}
	t.Cleanup(func() { _ = Free(h) })
	return x
}

func (x *spielT) status() (player int, acts []int) {
	x.t.Helper()
	if err := SpielStatus(x.h, x.legal, x.probs, x.out); err != nil {
		x.t.Fatal(err)
	}
	for _, a := range x.legal[:x.out[1]] {
		acts = append(acts, int(a))
	}
	return int(x.out[0]), acts
}

func (x *spielT) apply(a int) {
	x.t.Helper()
	if err := SpielApply(x.h, a); err != nil {
		x.t.Fatal(err)
	}
}

func (x *spielT) text(seat, kind int) string {
	x.t.Helper()
	s, err := SpielText(x.h, seat, kind)
	if err != nil {
		x.t.Fatal(err)
	}
	return s
}

func (x *spielT) obs(seat, size int) []float32 {
	x.t.Helper()
	o := make([]float32, size)
	if err := SpielObserve(x.h, seat, o); err != nil {
		x.t.Fatal(err)
	}
	return o
}

func (x *spielT) clone() *spielT {
	x.t.Helper()
	h, err := SpielClone(x.h)
	if err != nil {
		x.t.Fatal(err)
	}
	return wrapSpiel(x.t, h)
}

// A state given the seeded setup's draws and then a game's actions is, position for
// position, the game the Go engine plays and its record replays (what container replay
// runs): the chance nodes are the seeded setup.
func TestSpielFollowsTheGoEngineAndItsRecord(t *testing.T) {
	for _, opts := range []string{`{"players": 4}`, `{"players": 3, "rules": "classic"}`, `{"players": 5, "modules": "all"}`} {
		o, _ := ParseOptions(opts, env.DefaultOptions())
		g, _ := rules.NewGame(o.Rules)
		const seed = 11
		want := g.NewInitialStateSeed(seed)
		x := newSpielT(t, opts)
		var draws []int
		if err := jsonInts(mustText(t, func() (string, error) { return SpielSetupDraws(opts, seed) }), &draws); err != nil {
			t.Fatal(err)
		}
		for _, d := range draws {
			if p, acts := x.status(); p != SpielChance || !slices.Contains(acts, d) {
				t.Fatalf("%s: draw %d: player %d outcomes %v", opts, d, p, acts)
			}
			x.apply(d)
		}
		r := rand.New(rand.NewPCG(seed, 2))
		ids := []int{}
		for steps := 0; !want.IsTerminal() && steps < 3000; steps++ {
			if got, w := x.text(0, TextPosition), mustPos(t, want); got != w {
				t.Fatalf("%s step %d: positions differ:\n%s\n%s", opts, steps, got, w)
			}
			p, acts := x.status()
			ids = want.LegalActions(ids[:0])
			if p != want.CurrentPlayer() || !slices.Equal(acts, ids) {
				t.Fatalf("%s step %d: player %d legal %v; the engine: %d %v", opts, steps, p, acts, want.CurrentPlayer(), ids)
			}
			a := ids[r.IntN(len(ids))]
			want.Apply(a)
			x.apply(a)
		}
		rec, err := rules.NewRecord(want, seed).MarshalRecord()
		if err != nil {
			t.Fatal(err)
		}
		_, replayed, err := rules.LoadRecord(rec)
		if err != nil {
			t.Fatal(err)
		}
		// The replay's options carry the record's seed; a state set up by draws has none.
		if got, w := unseeded(t, x.text(0, TextPosition)), unseeded(t, mustPos(t, replayed)); got != w {
			t.Fatalf("%s: the OpenSpiel state differs from the record's replay:\n%s\n%s", opts, got, w)
		}
	}
}

func mustText(t *testing.T, f func() (string, error)) string {
	t.Helper()
	s, err := f()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// unseeded is a position JSON without its options' seed.
func unseeded(t *testing.T, pos string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(pos), &m); err != nil {
		t.Fatal(err)
	}
	delete(m["options"].(map[string]any), "seed")
	b, _ := json.Marshal(m)
	return string(b)
}

func mustPos(t *testing.T, s *rules.State) string {
	t.Helper()
	b, err := s.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Two states that differ only in what seat p may not see (other seats' scoring cards, then
// another seat's sealed delivery bid) give p the same information state, observation string
// and observation tensor; the seat whose secret differs sees the difference.
func TestSpielStringsAndTensorsHideWhatTheSeatMayNotSee(t *testing.T) {
	const opts = `{"players": 4}`
	size := spielObsSize(t, opts)
	same := func(a, b *spielT, seat int) bool {
		return a.text(seat, TextInfoState) == b.text(seat, TextInfoState) &&
			a.text(seat, TextObservation) == b.text(seat, TextObservation) &&
			slices.Equal(a.obs(seat, size), b.obs(seat, size))
	}
	// Cards: seat 0 holds card 0 in both; seats 1-3 hold 1,2,3 or 4,3,2.
	a, b := newSpielT(t, opts), newSpielT(t, opts)
	for _, d := range []int{0, 1, 2, 0, 1, 2, 3} {
		a.apply(d)
		b.apply(d)
	}
	for _, d := range []int{0, 1, 2, 3} {
		a.apply(d)
	}
	for _, d := range []int{0, 4, 3, 2} {
		b.apply(d)
	}
	a.apply(1)
	b.apply(1)
	if !same(a, b, 0) {
		t.Fatal("seat 0's strings or tensor differ with the other seats' cards")
	}
	for seat := 1; seat < 4; seat++ {
		if a.text(seat, TextInfoState) == b.text(seat, TextInfoState) || slices.Equal(a.obs(seat, size), b.obs(seat, size)) {
			t.Fatalf("seat %d does not see its own card change", seat)
		}
	}
	// Setup strings hide the other seats' cards too.
	c, d := newSpielT(t, opts), newSpielT(t, opts)
	for _, v := range []int{0, 1, 2, 0, 1, 2, 3, 0} {
		c.apply(v)
		d.apply(v)
	}
	c.apply(1)
	d.apply(2)
	if c.text(0, TextInfoState) != d.text(0, TextInfoState) || c.text(1, TextInfoState) == d.text(1, TextInfoState) {
		t.Fatal("setup strings: seat 0 sees seat 1's card, or seat 1 does not see its own")
	}
	// Sealed bids: branch at delivery bids with the lowest and the highest legal amount.
	r := rand.New(rand.NewPCG(5, 5))
	for game := 0; game < 200; game++ {
		x := newSpielT(t, opts)
		for {
			p, acts := x.status()
			if p == SpielTerminal {
				break
			}
			if p >= 0 && x.phase() == rules.PhaseDeliveryBid && len(acts) > 1 {
				lo, hi := x.clone(), x.clone()
				lo.apply(acts[0])
				hi.apply(acts[len(acts)-1])
				if lo.text(0, TextPosition) == hi.text(0, TextPosition) {
					t.Fatal("two different bids gave the same position")
				}
				if lo.phase() == rules.PhaseDeliveryBid { // the round is still open: the bid is sealed
					for seat := 0; seat < 4; seat++ {
						if seat != p && !same(lo, hi, seat) {
							t.Fatalf("seat %d's strings or tensor show seat %d's sealed bid", seat, p)
						}
					}
					if same(lo, hi, p) {
						t.Fatalf("seat %d does not see its own bid", p)
					}
					return
				}
			}
			x.apply(acts[r.IntN(len(acts))])
		}
	}
	t.Fatal("no sealed delivery bid with a later bidder in 200 random games")
}

func (x *spielT) phase() rules.Phase {
	x.t.Helper()
	sx, err := get[*Spiel](x.h, "openspiel state")
	if err != nil || sx.s == nil {
		return rules.PhaseTerminal
	}
	return sx.s.Phase()
}

func spielObsSize(t *testing.T, opts string) int {
	var g struct {
		ObsSize int `json:"observation_size"`
	}
	if err := jsonInto(mustText(t, func() (string, error) { return SpielGameJSON(opts) }), &g); err != nil {
		t.Fatal(err)
	}
	return g.ObsSize
}

// An illegal action or chance outcome is an error classified as illegal, and the state is as
// it was.
func TestSpielIllegalActionsChangeNothing(t *testing.T) {
	x := newSpielT(t, `{"players": 3}`)
	x.apply(2)
	before := x.text(0, TextFull)
	for _, a := range []int{2, 5, -1, 241} {
		err := SpielApply(x.h, a)
		if !errors.Is(err, rules.ErrIllegalAction) || Code(err) != CodeIllegal {
			t.Fatalf("setup outcome %d: %v, want an illegal-action error", a, err)
		}
	}
	if x.text(0, TextFull) != before {
		t.Fatal("a refused setup outcome changed the state")
	}
	for {
		if p, acts := x.status(); p != SpielChance {
			break
		} else {
			x.apply(acts[0])
		}
	}
	before = x.text(0, TextPosition)
	_, acts := x.status()
	for a := -3; a < 245; a++ {
		if slices.Contains(acts, a) {
			continue
		}
		if err := SpielApply(x.h, a); Code(err) != CodeIllegal {
			t.Fatalf("action %d: %v, want an illegal-action error", a, err)
		}
	}
	if x.text(0, TextPosition) != before {
		t.Fatal("a refused action changed the state")
	}
}

// A resampled state has the seat's information state, and different seeds draw different
// worlds (the other seats' cards).
func TestSpielResampleKeepsTheSeatsInformation(t *testing.T) {
	x := newSpielT(t, `{"players": 4}`)
	r := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < 60; i++ {
		_, acts := x.status()
		x.apply(acts[r.IntN(len(acts))])
	}
	p, _ := x.status()
	worlds := map[string]bool{}
	for seed := uint64(0); seed < 20; seed++ {
		h, err := SpielResample(x.h, p, seed)
		if err != nil {
			t.Fatal(err)
		}
		y := wrapSpiel(t, h)
		if y.text(p, TextInfoState) != x.text(p, TextInfoState) {
			t.Fatalf("seed %d: the resampled state changes seat %d's information state", seed, p)
		}
		if q, _ := y.status(); q != p {
			t.Fatalf("seed %d: resampled state's player %d, want %d", seed, q, p)
		}
		worlds[y.text(0, TextFull)] = true
	}
	if len(worlds) < 2 {
		t.Fatal("20 resamples drew one world")
	}
	if _, err := SpielResample(x.h, 4, 1); Code(err) != CodeInvalid {
		t.Fatalf("resample for seat 4 of 4: %v", err)
	}
	y := newSpielT(t, `{"players": 4}`)
	if _, err := SpielResample(y.h, 0, 1); Code(err) != CodeInvalid {
		t.Fatalf("resample during the setup: %v", err)
	}
}

// A clone goes its own way; a finished game's returns are the win-loss split of its scores
// (and a random playout's add up to 1); a bot decides for the seat to move.
func TestSpielCloneReturnsRolloutAndBots(t *testing.T) {
	const opts = `{"players": 3}`
	x := newSpielT(t, opts)
	for i := 0; i < 20; i++ {
		_, acts := x.status()
		x.apply(acts[0])
	}
	c := x.clone()
	before := x.text(0, TextFull)
	_, acts := c.status()
	c.apply(acts[len(acts)-1])
	if x.text(0, TextFull) != before {
		t.Fatal("applying an action to a clone changed the original")
	}
	out := make([]float64, 3)
	if err := SpielRollout(x.h, 9, RolloutReturns, out); err != nil {
		t.Fatal(err)
	}
	if s := out[0] + out[1] + out[2]; math.Abs(s-1) > 1e-6 || x.text(0, TextFull) != before {
		t.Fatalf("rollout returns %v (sum %v), or it changed the state", out, s)
	}
	// The same playout valued as our search values it: for a playout with one winner, the
	// winner's outcome is above 1/2, every outcome in [0, 1], and not the win-loss split.
	oc, ret := make([]float64, 3), make([]float64, 3)
	found := false
	for seed := uint64(0); seed < 30 && !found; seed++ {
		if err := SpielRollout(x.h, seed, RolloutReturns, ret); err != nil {
			t.Fatal(err)
		}
		if slices.Max(ret) != 1 {
			continue // a shared win (a playout may run to the turn limit, a loss for the search)
		}
		found = true
		if err := SpielRollout(x.h, seed, RolloutOutcomes, oc); err != nil {
			t.Fatal(err)
		}
		for i := range oc {
			if oc[i] < 0 || oc[i] > 1 || (ret[i] > 0) != (oc[i] > 0.5) || oc[i] == ret[i] {
				t.Fatalf("search outcomes %v for returns %v", oc, ret)
			}
		}
	}
	if !found {
		t.Fatal("no random playout with one winner in 30")
	}
	if err := SpielRollout(x.h, 9, 2, oc); Code(err) != CodeInvalid {
		t.Fatalf("rollout kind 2: %v", err)
	}
	b, err := NewBot("valuer", opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer Free(b)
	for {
		p, acts := x.status()
		if p == SpielTerminal {
			break
		}
		a := acts[0]
		if p >= 0 {
			if a, err = BotActSpiel(b, x.h); err != nil || !slices.Contains(acts, a) {
				t.Fatalf("valuer: %d, %v; legal %v", a, err, acts)
			}
		}
		x.apply(a)
	}
	if err := SpielReturns(x.h, out); err != nil {
		t.Fatal(err)
	}
	sx, _ := get[*Spiel](x.h, "openspiel state")
	want := make([]float64, 3)
	env.FinalRewards(env.WinLoss, 0, sx.s.Scores(), want)
	for i := range out {
		if out[i] != want[i] {
			t.Fatalf("returns %v, want the win-loss split %v", out, want)
		}
	}
	if _, err := BotActSpiel(b, x.h); err == nil {
		t.Fatal("a bot acted in a finished game")
	}
	b5, _ := NewBot("valuer", `{"players": 5}`, 1)
	defer Free(b5)
	y := newSpielT(t, opts)
	for p, acts := y.status(); p == SpielChance; p, acts = y.status() {
		y.apply(acts[0])
	}
	if _, err := BotActSpiel(b5, y.h); Code(err) != CodeInvalid {
		t.Fatalf("a 5-player bot in a 3-player game: %v", err)
	}
}

// Bad options name what is wrong; the game facts are those of the engine.
func TestSpielGameFactsAndBadOptions(t *testing.T) {
	for opts, want := range map[string]string{`{"players": 7}`: "players", `{"colour": 1}`: `unknown option "colour"`,
		`{"reward": "cash-margin"}`: "bounded", `{"rules": "x"}`: "variant"} {
		if _, err := NewSpiel(opts); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error about %s", opts, err, want)
		}
	}
	var g SpielGame
	if err := jsonInto(mustText(t, func() (string, error) { return SpielGameJSON(`{"players": 5, "reward": "rank"}`) }), &g); err != nil {
		t.Fatal(err)
	}
	gm, _ := rules.NewGame(rules.Options{Players: 5})
	if g.Players != 5 || g.NumActions != 241 || g.MaxChance != 5 || g.MaxGameLength != gm.MaxGameLength() ||
		g.SetupDraws != 14 || g.MinUtility != -1 || g.MaxUtility != 1 {
		t.Fatalf("game facts %+v", g)
	}
}

// Wilson is the project's interval (env/eval), 95% by default.
func TestWilsonIsTheProjectsInterval(t *testing.T) {
	lo, hi := Wilson(30, 100, 0)
	wlo, whi := eval.Wilson(30, 100, eval.Z95)
	if lo != wlo || hi != whi || math.Abs(lo-0.2189) > 1e-3 || math.Abs(hi-0.3958) > 1e-3 {
		t.Fatalf("Wilson(30, 100) = %v..%v, want %v..%v (0.219..0.396)", lo, hi, wlo, whi)
	}
}

func jsonInto(s string, v any) error { return json.Unmarshal([]byte(s), v) }

func jsonInts(s string, v *[]int) error { return json.Unmarshal([]byte(s), v) }

// The calls OpenSpiel's ISMCTS makes per simulation: a clone, a resample, an information
// state string, a random playout.
func BenchmarkSpielCalls(b *testing.B) {
	h, _ := NewSpiel(`{"players": 4}`)
	defer Free(h)
	x := wrapSpiel(&testing.T{}, h)
	for i := 0; i < 60; i++ {
		_, acts := x.status()
		x.apply(acts[0])
	}
	p, _ := x.status()
	out := make([]float64, 4)
	for _, c := range []struct {
		name string
		f    func(i int)
	}{
		{"clone", func(int) { c, _ := SpielClone(h); Free(c) }},
		{"resample", func(i int) { c, _ := SpielResample(h, p, uint64(i)); Free(c) }},
		{"infostate", func(int) { _, _ = SpielText(h, p, TextInfoState) }},
		{"observation", func(int) { _, _ = SpielText(h, p, TextObservation) }},
		{"rollout", func(i int) { _ = SpielRollout(h, uint64(i), RolloutReturns, out) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				c.f(i)
			}
		})
	}
}

// An OpenSpiel call for a seat the game does not have names the seats there are.
func TestSpielSeatErrorsNameTheSeats(t *testing.T) {
	x := newSpielT(t, `{"players": 3}`)
	err := SpielObserve(x.h, 3, make([]float32, spielObsSize(t, `{"players": 3}`)))
	wantRangeError(t, "observe seat 3 of 3", err, "seat 3; the game has seats 0 to 2")
	_, err = SpielText(x.h, -1, TextObservation)
	wantRangeError(t, "text for seat -1", err, "seat -1; the game has seats 0 to 2")
}

// A rollout may start at the root, before any setup draw: it draws the setup, plays the game
// out and leaves the root as it was.
func TestSpielRolloutFromTheRootDrawsTheSetup(t *testing.T) {
	x := newSpielT(t, `{"players": 3}`)
	out := make([]float64, 3)
	if err := SpielRollout(x.h, 4, RolloutReturns, out); err != nil {
		t.Fatal(err)
	}
	if s := out[0] + out[1] + out[2]; math.Abs(s-1) > 1e-6 {
		t.Fatalf("returns %v add up to %v, want the win-loss split", out, s)
	}
	if p, acts := x.status(); p != SpielChance || len(acts) != 5 {
		t.Fatalf("the root became player %d with %d actions", p, len(acts))
	}
}
