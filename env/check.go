package env

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

// ErrCheck is wrapped by every failure Check reports.
var ErrCheck = errors.New("env: check failed")

// CheckOptions configure Check.
type CheckOptions struct {
	// Games is the number of random games to play (0 means 3).
	Games int
	// Seed is the seed of the first game; game k uses GameSeed(Seed, k, 0). Actions are
	// drawn uniformly from the legal ones by a generator seeded from the game seed.
	Seed uint64
	// LeakEvery runs the scoring-card leak checks every LeakEvery-th step (0 means 1: every
	// step). They encode every seat's view n times, so they dominate the cost. The sealed-bid
	// checks run at every sealed-bid decision.
	LeakEvery int
}

// Check plays random games under o and verifies, in the spirit of Gymnasium's check_env and
// PettingZoo's api_test:
//   - observations (the decider's at every step, every seat's at the leak checks) have the
//     spec's length, are finite and inside the documented bounds;
//   - at every non-terminal step the mask is non-empty and equals the engine's legal list,
//     the agent is the engine's current player, and an illegal action is refused without
//     changing anything;
//   - a clone encodes exactly like the original;
//   - hidden information never leaks: changing an opponent's scoring card (every LeakEvery
//     steps), the amount of a sealed bid not yet revealed (at every sealed-bid decision), any
//     seat's committed sealed values not yet revealed, re-sampled (delivery bids, runoff
//     additions, incentives; at every step), or the decider's amount in progress (at every
//     amount decision) leaves every other seat's observation identical; with
//     HideOpponentCash, so does changing an opponent's cash;
//   - rewards are finite, zero before the end, and sum as the scheme documents at the end;
//     stepping a finished episode is an error; games end within MaxGameLength;
//   - the same seed and actions reproduce every observation, mask and reward bit for bit.
//
// It returns nil or the first failure, wrapping ErrCheck.
func Check(o Options, c CheckOptions) error {
	ck, err := newChecker(o, c)
	if err != nil {
		return err
	}
	return ck.run(c)
}

func newChecker(o Options, c CheckOptions) (*checker, error) {
	if c.LeakEvery <= 0 {
		c.LeakEvery = 1
	}
	e, err := New(o)
	if err != nil {
		return nil, err
	}
	ck := &checker{env: e, spec: e.Spec(), every: c.LeakEvery}
	ck.low, ck.high = ck.spec.Bounds()
	ck.cols = ck.spec.Columns()
	if ck.spec.Size != e.ObsSize() || len(ck.cols) != ck.spec.Size {
		return nil, fmt.Errorf("%w: spec size %d, %d column names, observation size %d", ErrCheck, ck.spec.Size, len(ck.cols), e.ObsSize())
	}
	if ck.spec.NumActions != rules.NumDistinctActions() || len(ck.spec.ActionNames) != ck.spec.NumActions {
		return nil, fmt.Errorf("%w: spec has %d actions and %d action names, engine %d", ErrCheck, ck.spec.NumActions, len(ck.spec.ActionNames), rules.NumDistinctActions())
	}
	n := o.Rules.Players
	ck.views = make([][]float32, n)
	for i := range ck.views {
		ck.views[i] = make([]float32, e.ObsSize())
	}
	ck.a, ck.b = make([]float32, e.ObsSize()), make([]float32, e.ObsSize())
	ck.enc = encoding.NewEncoderWith(e.Game(), o.Encoding())
	ck.observe = ck.enc.Observe
	ck.rng = rand.New(rand.NewPCG(c.Seed, 0x7365616c6564))
	ck.hideCash = o.HideOpponentCash
	return ck, nil
}

func (ck *checker) run(c CheckOptions) error {
	if c.Games <= 0 {
		c.Games = 3
	}
	for k := 0; k < c.Games; k++ {
		seed := GameSeed(c.Seed, k, 0)
		if err := ck.game(seed); err != nil {
			return err
		}
	}
	return nil
}

type checker struct {
	env       *Env
	enc       *encoding.Encoder // a second encoder for clones and views
	spec      *encoding.Spec
	low, high []float32
	cols      []string
	views     [][]float32
	a, b      []float32
	every     int
	legal     []int
	legal2    []int // legal actions of a changed clone
	actions   []int
	trace     []uint64

	// Counts of comparisons made, so tests can prove the leak checks ran.
	cardChecks, bidChecks, cashChecks int
	sealedChecks, amountChecks        int
	followChecks                      int        // comparisons after playing on (follow)
	follow                            []follower // state pairs differing in one seat's hidden values, played on
	hideCash                          bool       // the observation hides opponents' cash: check that too
	// observe encodes seat's observation of s (the second encoder's Observe; a test puts a
	// leaky one here to prove the checks can fail).
	observe func(s *rules.State, seat int, dst []float32) error
	rng     *rand.Rand // re-samples sealed values (seeded per game)
	// illegalStep, when set, replaces env.Step in the illegal-action probe, so tests can
	// prove the probe fails on an environment that accepts one.
	illegalStep func(a int) (StepResult, error)
}

func (ck *checker) fail(seed uint64, step int, format string, args ...any) error {
	phase := "?"
	if s := ck.env.State(); s != nil {
		phase = s.Decision().Phase.String()
	}
	return fmt.Errorf("%w: seed %d step %d (phase %s): %s", ErrCheck, seed, step, phase, fmt.Sprintf(format, args...))
}

func (ck *checker) game(seed uint64) error {
	e := ck.env
	rng := rand.New(rand.NewPCG(seed, 0x636865636b))
	ck.rng = rand.New(rand.NewPCG(seed, 0x7365616c6564))
	obs, info := e.Reset(seed)
	ck.actions = ck.actions[:0]
	ck.trace = ck.trace[:0]
	clear(ck.follow)
	ck.follow = ck.follow[:0]
	maxLen := e.Game().MaxGameLength()
	first := true
	for step := 0; ; step++ {
		s := e.State()
		if err := ck.obsOK(obs, seed, step); err != nil {
			return err
		}
		ck.trace = append(ck.trace, traceHash(obs, e.Mask(), e.Rewards(), s.Hash()))
		if e.Done() {
			break
		}
		if step > maxLen {
			return ck.fail(seed, step, "game longer than MaxGameLength %d", maxLen)
		}
		if e.Agent() != s.CurrentPlayer() || info.Decider != e.Agent() {
			return ck.fail(seed, step, "agent %d, info decider %d, engine current player %d", e.Agent(), info.Decider, s.CurrentPlayer())
		}
		ck.legal = s.LegalActions(ck.legal)
		if len(ck.legal) == 0 {
			return ck.fail(seed, step, "no legal action at a non-terminal step")
		}
		if info.NumLegal != len(ck.legal) {
			return ck.fail(seed, step, "info reports %d legal actions, engine %d", info.NumLegal, len(ck.legal))
		}
		count := 0
		for id, m := range e.Mask() {
			if m != 0 {
				if m != 1 || !slices.Contains(ck.legal, id) {
					return ck.fail(seed, step, "mask[%d] = %g but the legal list is %v", id, m, ck.legal)
				}
				count++
			}
		}
		if count != len(ck.legal) {
			return ck.fail(seed, step, "mask has %d entries set, legal list %d", count, len(ck.legal))
		}
		if err := ck.cloneOK(seed, step); err != nil {
			return err
		}
		if step%ck.every == 0 {
			if err := ck.cardLeaks(seed, step); err != nil {
				return err
			}
		}
		if err := ck.bidLeaks(seed, step); err != nil {
			return err
		}
		if err := ck.sealedLeaks(s, seed, step); err != nil {
			return err
		}
		if first {
			first = false
			if err := ck.illegalRefused(seed, step); err != nil {
				return err
			}
		}
		a := ck.legal[rng.IntN(len(ck.legal))]
		if err := ck.advance(a, seed, step); err != nil {
			return err
		}
		ck.actions = append(ck.actions, a)
		res, err := e.Step(a)
		if err != nil {
			return ck.fail(seed, step, "legal action %d (%s) refused: %v", a, encoding.ActionName(a), err)
		}
		obs, info = res.Obs, res.Info
		if err := ck.rewardsOK(res, seed, step); err != nil {
			return err
		}
	}
	if _, err := e.Step(0); !errors.Is(err, ErrEpisodeOver) {
		return ck.fail(seed, len(ck.actions), "stepping a finished episode gave %v, want ErrEpisodeOver", err)
	}
	if e.terminated && e.Agent() != -1 || e.terminated && slices.ContainsFunc(e.Mask(), func(m float32) bool { return m != 0 }) {
		return ck.fail(seed, len(ck.actions), "finished episode has agent %d or a non-zero mask", e.Agent())
	}
	return ck.replay(seed)
}

func (ck *checker) obsOK(obs []float32, seed uint64, step int) error {
	if len(obs) != ck.spec.Size {
		return ck.fail(seed, step, "observation length %d, spec %d", len(obs), ck.spec.Size)
	}
	for i, v := range obs {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return ck.fail(seed, step, "observation entry %d (%s) is %g", i, ck.cols[i], v)
		}
		if v < ck.low[i] || v > ck.high[i] {
			return ck.fail(seed, step, "observation entry %d (%s) = %g outside [%g, %g]", i, ck.cols[i], v, ck.low[i], ck.high[i])
		}
	}
	return nil
}

func (ck *checker) rewardsOK(res StepResult, seed uint64, step int) error {
	sum := 0.0
	for seat, r := range res.Rewards {
		if math.IsNaN(float64(r)) || math.IsInf(float64(r), 0) {
			return ck.fail(seed, step, "reward of seat %d is %g", seat, r)
		}
		if !res.Terminated && r != 0 && !ck.env.Options().Dense {
			return ck.fail(seed, step, "reward %g for seat %d before the end (rewards are sparse)", r, seat)
		}
		sum += float64(r)
	}
	if res.Terminated {
		o := ck.env.Options()
		if len(res.Info.Scores) != ck.env.NumPlayers() {
			return ck.fail(seed, step, "final info has %d scores", len(res.Info.Scores))
		}
		final := make([]float32, len(res.Rewards))
		FinalRewards(o.Reward, o.MarginScale, res.Info.Scores, final)
		fsum := 0.0
		for _, r := range final {
			fsum += float64(r)
		}
		if want := o.Reward.RewardSum(); math.Abs(fsum-want) > 1e-4 {
			return ck.fail(seed, step, "final rewards %v sum to %g, scheme %s sums to %g", final, fsum, o.Reward, want)
		}
		for seat, c := range ck.env.CumulativeRewards() {
			if math.Abs(float64(c-final[seat])) > 1e-3 || !o.Dense && res.Rewards[seat] != final[seat] {
				return ck.fail(seed, step, "seat %d: last reward %g, rewards add up to %g, final reward %g", seat, res.Rewards[seat], c, final[seat])
			}
		}
	}
	if res.Truncated && !res.Terminated && sum != 0 && !ck.env.Options().Dense {
		return ck.fail(seed, step, "truncated episode has rewards %v", res.Rewards)
	}
	return nil
}

// cloneOK checks that a clone hashes and encodes like the original.
func (ck *checker) cloneOK(seed uint64, step int) error {
	s := ck.env.State()
	c := s.Clone()
	if c.Hash() != s.Hash() {
		return ck.fail(seed, step, "clone hash %x differs from %x", c.Hash(), s.Hash())
	}
	seat := ck.env.Agent()
	_ = ck.enc.Observe(c, seat, ck.a)
	if !slices.Equal(ck.a, ck.env.Obs()) {
		return ck.fail(seed, step, "a clone encodes differently: %s", ck.firstDiff(ck.a, ck.env.Obs()))
	}
	return nil
}

// illegalRefused checks that an illegal action is refused and changes nothing.
func (ck *checker) illegalRefused(seed uint64, step int) error {
	e := ck.env
	bad := slices.Index(e.Mask(), 0)
	if bad < 0 {
		return nil
	}
	h := e.State().Hash()
	before := traceHash(e.Obs(), e.Mask(), e.Rewards(), h)
	stepFn := e.Step
	if ck.illegalStep != nil {
		stepFn = ck.illegalStep
	}
	for _, a := range []int{bad, -1, e.NumActions()} {
		if _, err := stepFn(a); !errors.Is(err, rules.ErrIllegalAction) {
			return ck.fail(seed, step, "illegal action %d gave %v, want an error wrapping rules.ErrIllegalAction", a, err)
		}
	}
	if traceHash(e.Obs(), e.Mask(), e.Rewards(), e.State().Hash()) != before {
		return ck.fail(seed, step, "a refused action changed the environment")
	}
	return nil
}

// cardLeaks checks that opponents' scoring cards do not reach an observation.
func (ck *checker) cardLeaks(seed uint64, step int) error {
	s := ck.env.State()
	n := ck.env.NumPlayers()
	for o := 0; o < n; o++ {
		if err := ck.enc.Observe(s, o, ck.views[o]); err != nil {
			return ck.fail(seed, step, "observe seat %d: %v", o, err)
		}
		if err := ck.obsOK(ck.views[o], seed, step); err != nil {
			return fmt.Errorf("%w (seat %d's view)", err, o)
		}
	}
	// Scoring cards, and cash when the observation hides it.
	for p := 0; p < n; p++ {
		c := s.Clone()
		c.Players[p].Card = (c.Players[p].Card + 1) % rules.NumNormalColours
		if err := ck.othersUnchanged(c, p, &ck.cardChecks, seed, step, "scoring card leaks into"); err != nil {
			return err
		}
		if ck.hideCash {
			c.Players[p].Card = s.Players[p].Card
			c.Players[p].Cash += 13
			if err := ck.othersUnchanged(c, p, &ck.cashChecks, seed, step, "cash leaks into"); err != nil {
				return err
			}
		}
	}
	return nil
}

// othersUnchanged checks that every seat but p observes c exactly as it observed the real
// state (ck.views), counting the comparisons in *count.
func (ck *checker) othersUnchanged(c *rules.State, p int, count *int, seed uint64, step int, what string) error {
	for o := range ck.env.NumPlayers() {
		if o == p {
			continue
		}
		_ = ck.enc.Observe(c, o, ck.a)
		*count++
		if !slices.Equal(ck.a, ck.views[o]) {
			return ck.fail(seed, step, "seat %d's %s seat %d's observation: %s", p, what, o, ck.firstDiff(ck.a, ck.views[o]))
		}
	}
	return nil
}

// bidLeaks checks, at a sealed-bid decision, that two different amounts by the decider
// give every other seat the same observation while the bids are not yet revealed.
func (ck *checker) bidLeaks(seed uint64, step int) error {
	s := ck.env.State()
	n := ck.env.NumPlayers()
	d := s.Decision()
	if d.Phase != rules.PhaseDeliveryBid && d.Phase != rules.PhaseRunoffBid && d.Phase != rules.PhaseIncentiveBid {
		return nil
	}
	first, count := rules.KindBase(rules.Amount)
	lo, hi := -1, -1
	for _, id := range ck.legal {
		if id >= first && id < first+count {
			if lo < 0 {
				lo = id
			}
			hi = id
		}
	}
	if lo < 0 || lo == hi {
		return nil
	}
	c1, c2 := s.Clone(), s.Clone()
	c1.Apply(lo)
	c2.Apply(hi)
	d1, d2 := c1.Decision(), c2.Decision()
	if d1.Phase != d.Phase || d2.Phase != d.Phase || d1.Decider == d.Decider || d1.Decider != d2.Decider {
		return nil // the bids were revealed (or resolved): they may differ now
	}
	for o := 0; o < n; o++ {
		if o == d.Decider {
			continue
		}
		_ = ck.enc.Observe(c1, o, ck.a)
		_ = ck.enc.Observe(c2, o, ck.b)
		ck.bidChecks++
		if !slices.Equal(ck.a, ck.b) {
			return ck.fail(seed, step, "seat %d's sealed %s of %s vs %s leaks into seat %d's observation: %s",
				d.Decider, d.Phase, encoding.ActionName(lo), encoding.ActionName(hi), o, ck.firstDiff(ck.a, ck.b))
		}
	}
	return nil
}

// sealedLeaks checks that no seat's hidden sealed values reach another seat's observation:
// for every seat holding an unrevealed delivery bid, runoff addition or loan incentive, it
// re-samples them (a different value that still makes a valid position) and requires every
// other seat's observation to stay the same; at an amount decision it does the same with the
// decider's amount in progress (AmountHundred). Unlike bidLeaks, which compares two bids
// being made, this reaches values already committed, such as the sealed delivery bid of a
// seat now deciding an incentive (the limit of its incentive depends on it).
func (ck *checker) sealedLeaks(s *rules.State, seed uint64, step int) error {
	n := ck.env.NumPlayers()
	d := s.Decision()
	for p := 0; p < n; p++ {
		c, ok := ck.resampleSealed(s, &d, p)
		if !ok {
			continue
		}
		if err := ck.othersSame(s, c, p, &ck.sealedChecks, seed, step, "unrevealed sealed values (re-sampled)"); err != nil {
			return err
		}
		ck.startFollow(s.Clone(), c, p)
	}
	if d.Decider < 0 || d.Decider >= n {
		return nil
	}
	hundred, _ := rules.KindBase(rules.AmountHundred)
	c0 := s.Clone()
	c0.Players[d.Decider].Cash += 300 // room for $100 more, in both positions (no observation reads the cash ledger)
	ck.legal2 = c0.LegalActions(ck.legal2)
	if !slices.Contains(ck.legal2, hundred) {
		return nil
	}
	c1 := c0.Clone()
	if err := c1.ApplyChecked(hundred); err != nil {
		return ck.fail(seed, step, "AmountHundred refused: %v", err)
	}
	if err := ck.othersSame(c0, c1, d.Decider, &ck.amountChecks, seed, step, "amount in progress"); err != nil {
		return err
	}
	ck.startFollow(c0, c1, d.Decider)
	return nil
}

// followSteps bounds how many real actions a follower pair is played on.
const followSteps = 16

// follower is a pair of states that differ only in what seat alone knows (re-sampled sealed
// values, or its amount in progress), both played on with the real game's actions.
type follower struct {
	x, y *rules.State
	seat int
	left int
}

// startFollow follows x and y (differing only in seat's hidden values) from now on, unless a
// pair for seat is already followed (one at a time per seat keeps the check cheap).
func (ck *checker) startFollow(x, y *rules.State, seat int) {
	for _, f := range ck.follow {
		if f.seat == seat {
			return
		}
	}
	ck.follow = append(ck.follow, follower{x: x, y: y, seat: seat, left: followSteps})
}

// hiddenDiff reports whether x and y differ in some of seat's values that the other seats
// have not seen (an unrevealed delivery bid, runoff addition or incentive, or the amount in
// progress while seat decides an amount), and in nothing of seat's that they have seen.
func hiddenDiff(x, y *rules.State, seat int) bool {
	dx, dy := x.Decision(), y.Decision()
	bit := uint8(1) << seat
	hidden := func(d *rules.Decision) [4]bool {
		return [4]bool{
			d.Delivery.HasBid&bit != 0 && !d.Delivery.Revealed,
			d.Delivery.HasRunoff&bit != 0 && !d.Delivery.RunoffRevealed,
			d.Loan.HasIncentive&bit != 0 && !d.Loan.IncentiveRevealed,
			d.Decider == seat, // its amount in progress
		}
	}
	hx, hy := hidden(&dx), hidden(&dy)
	differ := [4]bool{dx.Delivery.Bids[seat] != dy.Delivery.Bids[seat], dx.Delivery.Runoff[seat] != dy.Delivery.Runoff[seat],
		dx.Loan.Incentives[seat] != dy.Loan.Incentives[seat], dx.AmountBase != dy.AmountBase}
	some := false
	for i := range differ {
		if differ[i] {
			if !hx[i] || !hy[i] {
				return false
			}
			some = true
		}
	}
	return some
}

// advance plays the real action a in every followed pair and requires every other seat to
// observe the two states alike (and a deciding other seat to have the same legal actions)
// while they still differ only in the followed seat's unrevealed values: what a seat has not
// seen must not reach the others later either, through who is asked what or how many
// decisions were counted. A pair is dropped when a is illegal in either state (the followed
// seat's own choices may differ), when the values are revealed, or after followSteps.
func (ck *checker) advance(a int, seed uint64, step int) error {
	keep := ck.follow[:0]
	for _, f := range ck.follow {
		ck.legal2 = f.x.LegalActions(ck.legal2)
		inX := slices.Contains(ck.legal2, a)
		if dec := f.x.CurrentPlayer(); dec != f.seat && dec >= 0 {
			lx := slices.Clone(ck.legal2)
			ck.legal2 = f.y.LegalActions(ck.legal2)
			if !slices.Equal(lx, ck.legal2) {
				return ck.fail(seed, step, "seat %d's unrevealed values change seat %d's legal actions (%d vs %d actions)", f.seat, dec, len(lx), len(ck.legal2))
			}
		} else {
			ck.legal2 = f.y.LegalActions(ck.legal2)
		}
		if !inX || !slices.Contains(ck.legal2, a) {
			continue
		}
		f.x.Apply(a)
		f.y.Apply(a)
		f.left--
		if f.x.IsTerminal() || f.y.IsTerminal() || !hiddenDiff(f.x, f.y, f.seat) {
			continue
		}
		if err := ck.othersSame(f.x, f.y, f.seat, &ck.followChecks, seed, step+1,
			fmt.Sprintf("unrevealed values, then the same actions (%s last),", encoding.ActionName(a))); err != nil {
			return err
		}
		if f.left > 0 {
			keep = append(keep, f)
		}
	}
	clear(ck.follow[len(keep):])
	ck.follow = keep
	return nil
}

// resampleSealed returns s with seat's unrevealed sealed values drawn again, or false when
// seat has none or no other value made a valid position in a few tries.
func (ck *checker) resampleSealed(s *rules.State, d *rules.Decision, seat int) (*rules.State, bool) {
	bit := uint8(1) << seat
	cur := rules.Sealed{Bid: d.Delivery.Bids[seat], Runoff: d.Delivery.Runoff[seat], Incentive: d.Loan.Incentives[seat]}
	var fields []*int32
	v := cur
	if d.Delivery.HasBid&bit != 0 && !d.Delivery.Revealed {
		fields = append(fields, &v.Bid)
	}
	if d.Delivery.HasRunoff&bit != 0 && !d.Delivery.RunoffRevealed {
		fields = append(fields, &v.Runoff)
	}
	if d.Loan.HasIncentive&bit != 0 && !d.Loan.IncentiveRevealed {
		fields = append(fields, &v.Incentive)
	}
	if len(fields) == 0 {
		return nil, false
	}
	limit := int(s.Players[seat].Cash) + 1
	for try := 0; try < 8; try++ {
		v = cur
		f := fields[ck.rng.IntN(len(fields))]
		if try < 4 {
			*f = int32(ck.rng.IntN(limit))
		} else {
			*f += int32(try%2*2 - 1) // near values: -1, +1, ...
		}
		if v == cur || *f < 0 {
			continue
		}
		c := s.Clone()
		c.SetSealed(seat, v)
		if c.Validate() == nil {
			return c, true
		}
	}
	return nil, false
}

// othersSame checks that every seat but p observes s1 and s2 alike (they differ only in
// something p alone knows), counting the comparisons in *count.
func (ck *checker) othersSame(s1, s2 *rules.State, p int, count *int, seed uint64, step int, what string) error {
	for o := range ck.env.NumPlayers() {
		if o == p {
			continue
		}
		if err := ck.observe(s1, o, ck.a); err != nil {
			return ck.fail(seed, step, "observe seat %d: %v", o, err)
		}
		if err := ck.observe(s2, o, ck.b); err != nil {
			return ck.fail(seed, step, "observe seat %d: %v", o, err)
		}
		*count++
		if !slices.Equal(ck.a, ck.b) {
			return ck.fail(seed, step, "changing seat %d's %s changes seat %d's observation: %s", p, what, o, ck.firstDiff(ck.a, ck.b))
		}
	}
	return nil
}

// replay plays the recorded actions again in a fresh environment and compares every step.
func (ck *checker) replay(seed uint64) error {
	e, err := New(ck.env.Options())
	if err != nil {
		return err
	}
	obs, _ := e.Reset(seed)
	for step, a := range ck.actions {
		if h := traceHash(obs, e.Mask(), e.Rewards(), e.State().Hash()); h != ck.trace[step] {
			return ck.fail(seed, step, "replaying the same seed and actions gives a different observation, mask, reward or state")
		}
		res, err := e.Step(a)
		if err != nil {
			return ck.fail(seed, step, "replay: %v", err)
		}
		obs = res.Obs
	}
	if h := traceHash(obs, e.Mask(), e.Rewards(), e.State().Hash()); h != ck.trace[len(ck.actions)] {
		return ck.fail(seed, len(ck.actions), "replaying the same seed and actions gives a different final step")
	}
	return nil
}

func (ck *checker) firstDiff(a, b []float32) string {
	for i := range a {
		if a[i] != b[i] {
			return fmt.Sprintf("entry %d (%s): %g vs %g", i, ck.cols[i], a[i], b[i])
		}
	}
	return "no difference"
}

func traceHash(obs, mask, rewards []float32, state uint64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	for _, f := range [][]float32{obs, mask, rewards} {
		for _, v := range f {
			binary.LittleEndian.PutUint32(b[:4], math.Float32bits(v))
			h.Write(b[:4])
		}
	}
	binary.LittleEndian.PutUint64(b[:], state)
	h.Write(b[:])
	return h.Sum64()
}
