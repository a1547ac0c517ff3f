// Package conformance is a reusable conformance suite for the Container rules engine: seeded
// random games in which every step is checked against the engine's contract and the game's
// invariants (OpenSpiel's RandomSimTest, for Container). Every variant and module runs it:
//
//	func TestConformance(t *testing.T) { conformance.Run(t, rules.Options{Players: 4}, 10) }
//
// At every step it checks: Clone equals the original (Hash and reflect.DeepEqual); the JSON
// position round trip (MarshalPosition, LoadPosition, identical Hash and bytes); State.Validate
// (storage limits counting reserve tokens, ship capacity, loans, conservation of containers,
// factories and warehouses); an independent container census (supply + every location + Bank
// lots + bid tiles + containers held by the pending decision + removed = total, per colour);
// the cash ledger (cash in play = starting cash + cash from the supply - cash to it, so
// player-loan cash and incentives only move between hands); the module pieces (at most 3
// trucks a seat, trucks placed = companies owned, piles only on independent companies, player
// loans from an opponent of at least $10, loan cards in hand + lent out = 3); the
// legal actions (sorted, unique, in range, each ActionToMove/MoveToAction and notation round
// trip, each present in LegalMoves); an illegal action is rejected by ApplyChecked with
// ErrIllegalAction and leaves the Hash unchanged; the Decision agrees with the legal amounts;
// Scores (as if the game ended now) are consistent; redacted views (opponents' cards Unknown;
// changing an opponent's card, unrevealed sealed bid or sealed loan incentive leaves every
// other view identical, and an unrevealed incentive reads 0).
// Every RecordEvery steps and at the end it checks the JSON and binary record round trips.
// Each game must end within Game.MaxGameLength, and its final scores must be consistent.
package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// RecordEvery is how often (in steps) the record round trips are checked during a game; a
// record replays the whole game, so checking it at every step would be quadratic.
var RecordEvery = 64

// PositionEvery is how often (in steps) the JSON position round trip is checked; it is also
// checked at every step whose phase differs from the previous step's and at the end. 1 (the
// default) checks it at every step; the round trip is four fifths of the cost of a step's
// checks, so a quicker sweep may check it less often.
var PositionEvery = 1

// Run plays games seeded random games with opts (seeds opts.Seed, opts.Seed+1, ...) and
// checks every step. It stops a game at its first failure and reports the seed and step.
func Run(t *testing.T, opts rules.Options, games int) {
	t.Helper()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	for i := 0; i < games; i++ {
		seed := opts.Seed + uint64(i)
		if err := PlayGame(g, seed, nil); err != nil {
			t.Fatalf("conformance: %d players %s %q seed %d: %v", opts.Players, opts.Variant, opts.Modules, seed, err)
		}
	}
}

// PlayGame plays one seeded random game of g with every check, calling step (when not nil)
// before each move. It returns the first violation found.
func PlayGame(g *rules.Game, seed uint64, step func(s *rules.State, id int)) error {
	s := g.NewInitialStateSeed(seed)
	r := rand.New(rand.NewPCG(seed, 0xc0ffee))
	c := &checker{g: g, seed: seed}
	limit := g.MaxGameLength()
	prev := s.Decision().Phase
	for n := 0; ; n++ {
		phase := s.Decision().Phase
		c.position = n%max(PositionEvery, 1) == 0 || phase != prev || s.IsTerminal()
		prev = phase
		if err := c.check(s, r); err != nil {
			return fmt.Errorf("step %d (%s): %w", n, s.Decision().Phase, err)
		}
		if n%RecordEvery == 0 || s.IsTerminal() {
			if err := c.checkRecord(s); err != nil {
				return fmt.Errorf("step %d: %w", n, err)
			}
		}
		if s.IsTerminal() {
			return checkScores(s)
		}
		if n >= limit {
			return fmt.Errorf("the game did not end within MaxGameLength %d", limit)
		}
		id := c.ids[r.IntN(len(c.ids))]
		if step != nil {
			step(s, id)
		}
		before := s.Hash()
		if err := s.ApplyChecked(id); err != nil {
			return fmt.Errorf("step %d: legal action %d (%s) rejected: %w", n, id, s.ActionToMove(id), err)
		}
		if s.Hash() == before {
			return fmt.Errorf("step %d: action %d (%s) did not change the position", n, id, s.ActionToMove(id))
		}
	}
}

type checker struct {
	g     *rules.Game
	seed  uint64
	ids   []int
	moves []rules.Move
	view  rules.State
	view2 rules.State
	// position: check the JSON position round trip at this step (PositionEvery).
	position bool
}

func (c *checker) check(s *rules.State, r *rand.Rand) error {
	if err := s.Validate(); err != nil {
		return err
	}
	if err := CheckInvariants(s); err != nil {
		return err
	}
	if err := checkClone(s); err != nil {
		return err
	}
	if c.position {
		if err := checkPosition(s); err != nil {
			return err
		}
	}
	if err := c.checkLegal(s, r); err != nil {
		return err
	}
	if err := checkScores(s); err != nil {
		return fmt.Errorf("scores as if the game ended now: %w", err)
	}
	return c.checkViews(s)
}

func checkClone(s *rules.State) error {
	cl := s.Clone()
	if cl.Hash() != s.Hash() {
		return errors.New("clone has a different hash")
	}
	a, b := reflect.ValueOf(cl).Elem(), reflect.ValueOf(s).Elem()
	for i := 0; i < a.NumField(); i++ {
		if f := a.Type().Field(i); f.IsExported() && !reflect.DeepEqual(a.Field(i).Interface(), b.Field(i).Interface()) {
			return fmt.Errorf("clone differs from the original in %s", f.Name)
		}
	}
	if cl.Game() != s.Game() || !slices.Equal(cl.History(), s.History()) {
		return errors.New("clone has a different game or history")
	}
	return nil
}

func checkPosition(s *rules.State) error {
	data, err := s.MarshalPosition()
	if err != nil {
		return fmt.Errorf("marshal position: %w", err)
	}
	s2, err := rules.LoadPosition(data)
	if err != nil {
		return fmt.Errorf("load position: %w\n%s", err, data)
	}
	if s2.Hash() != s.Hash() {
		return fmt.Errorf("position round trip changed the hash\n%s", data)
	}
	data2, err := s2.MarshalPosition()
	if err != nil || !bytes.Equal(data, data2) {
		return fmt.Errorf("position round trip changed the JSON (%v)", err)
	}
	return nil
}

func (c *checker) checkRecord(s *rules.State) error {
	rec := rules.NewRecord(s, c.seed)
	js, err := rec.MarshalRecord()
	if err != nil {
		return fmt.Errorf("marshal record: %w", err)
	}
	_, s2, err := rules.LoadRecord(js)
	if err != nil {
		return fmt.Errorf("load record: %w", err)
	}
	if s2.Hash() != s.Hash() {
		return errors.New("JSON record replays to a different position")
	}
	bin, err := rec.MarshalBinary()
	if err != nil {
		return fmt.Errorf("marshal binary record: %w", err)
	}
	var r2 rules.Record
	if err := r2.UnmarshalBinary(bin); err != nil {
		return fmt.Errorf("binary record: %w", err)
	}
	if !slices.Equal(r2.Moves, rec.Moves) {
		return errors.New("binary record round trip changed the moves")
	}
	return nil
}

func (c *checker) checkLegal(s *rules.State, r *rand.Rand) error {
	c.ids = s.LegalActions(c.ids)
	if s.IsTerminal() {
		if len(c.ids) != 0 || s.CurrentPlayer() != -1 {
			return fmt.Errorf("terminal state has %d legal actions, current player %d", len(c.ids), s.CurrentPlayer())
		}
		return nil
	}
	if len(c.ids) == 0 {
		return errors.New("no legal action")
	}
	if d := s.CurrentPlayer(); d < 0 || d >= c.g.Options().Players {
		return fmt.Errorf("current player %d is not a seat", d)
	}
	c.moves = s.LegalMoves(c.moves)
	n := rules.NumDistinctActions()
	if err := checkDecision(s, c.ids); err != nil {
		return err
	}
	for i, id := range c.ids {
		if id < 0 || id >= n {
			return fmt.Errorf("legal action %d outside 0..%d", id, n-1)
		}
		if i > 0 && id <= c.ids[i-1] {
			return fmt.Errorf("legal actions not sorted and unique: %v", c.ids)
		}
		m := s.ActionToMove(id)
		back, ok := s.MoveToAction(m)
		if !ok || back != id {
			return fmt.Errorf("action %d -> move %v -> action %d (ok %v)", id, m, back, ok)
		}
		parsed, err := s.ParseMove(m.String())
		if err != nil || parsed != m {
			return fmt.Errorf("notation %q of action %d parses to %v (%v)", m.String(), id, parsed, err)
		}
		if !slices.Contains(c.moves, m) {
			return fmt.Errorf("legal action %d (%s) is not among LegalMoves", id, m)
		}
	}
	for _, m := range c.moves {
		if id, ok := s.MoveToAction(m); ok && !slices.Contains(c.ids, id) {
			return fmt.Errorf("legal move %s has action %d, which is not legal", m, id)
		}
	}
	// An illegal action is rejected and changes nothing.
	for try := 0; try < 4; try++ {
		id := r.IntN(n)
		if _, found := slices.BinarySearch(c.ids, id); found {
			continue
		}
		before := s.Hash()
		err := s.ApplyChecked(id)
		if !errors.Is(err, rules.ErrIllegalAction) {
			return fmt.Errorf("illegal action %d (%s): error %v, want ErrIllegalAction", id, s.ActionToMove(id), err)
		}
		if s.Hash() != before {
			return fmt.Errorf("rejected action %d changed the position", id)
		}
		break
	}
	return nil
}

// checkViews checks every seat's redacted view: opponents' cards are Unknown, the own card
// is kept, and changing any opponent's secret (card, unrevealed delivery bid or runoff
// addition) leaves the view identical.
func (c *checker) checkViews(s *rules.State) error {
	np := c.g.Options().Players
	d := s.Decision() // the true sealed values, restored after each change
	for v := 0; v < np; v++ {
		s.Redact(v, &c.view)
		for j := 0; j < np; j++ {
			card := c.view.Players[j].Card
			if j == v && card != s.Players[j].Card {
				return fmt.Errorf("view of seat %d hides its own card", v)
			}
			if j != v && card != rules.Unknown {
				return fmt.Errorf("view of seat %d shows seat %d's card %d", v, j, card)
			}
		}
		h := c.view.Hash()
		for j := 0; j < np; j++ {
			if j == v {
				continue
			}
			// Change seat j's secrets in place, redact, and restore them (cheaper than a
			// Clone, which copies the whole history).
			card := s.Players[j].Card
			was := rules.Sealed{Bid: d.Delivery.Bids[j], Runoff: d.Delivery.Runoff[j], Incentive: d.Loan.Incentives[j]}
			changed := was
			s.Players[j].Card = (card + 1) % rules.NumScoringCards
			if d.Delivery.HasBid&(1<<uint(j)) != 0 && !d.Delivery.Revealed {
				changed.Bid++
			}
			if d.Delivery.HasRunoff&(1<<uint(j)) != 0 && !d.Delivery.RunoffRevealed {
				changed.Runoff++
			}
			hiddenInc := d.Loan.HasIncentive&(1<<uint(j)) != 0 && !d.Loan.IncentiveRevealed
			if hiddenInc {
				changed.Incentive++
			}
			s.SetSealed(j, changed)
			s.Redact(v, &c.view2)
			s.Players[j].Card = card
			s.SetSealed(j, was)
			if c.view2.Hash() != h {
				return fmt.Errorf("seat %d's view changes with seat %d's secrets", v, j)
			}
			if hiddenInc && c.view.Decision().Loan.Incentives[j] != 0 {
				return fmt.Errorf("view of seat %d shows seat %d's sealed incentive bid $%d", v, j, was.Incentive)
			}
		}
	}
	return nil
}

// CheckInvariants checks, from the exported fields and the public Decision alone, the limits any position obeys:
// ship capacity, at most two loans, storage limits counting reserve tokens, non-negative
// cash, the container census per colour and the cash ledger.
func CheckInvariants(s *rules.State) error {
	o := s.Game().Options()
	np := o.Players
	var reserveF, reserveH [rules.MaxPlayers]int
	var census rules.Counts
	for k := range s.Auctions {
		a := &s.Auctions[k]
		if a.Active {
			reserveF[a.Bidder] += a.FromFactory.Total()
			reserveH[a.Bidder] += a.FromHarbor.Total()
		}
		census.Add(&a.FromFactory)
		census.Add(&a.FromHarbor)
	}
	for i := 0; i < np; i++ {
		p := &s.Players[i]
		if p.Ship.Total() > rules.ShipCapacity {
			return fmt.Errorf("seat %d: %d containers on the ship", i, p.Ship.Total())
		}
		if p.NumLoans > rules.MaxLoans {
			return fmt.Errorf("seat %d: %d loans", i, p.NumLoans)
		}
		if p.Cash < 0 {
			return fmt.Errorf("seat %d: cash $%d", i, p.Cash)
		}
		fac, har := 0, 0
		for k := range p.FactoryLots {
			fac += p.FactoryLots[k].Total()
			census.Add(&p.FactoryLots[k])
		}
		for k := range p.HarborLots {
			har += p.HarborLots[k].Total()
			census.Add(&p.HarborLots[k])
		}
		nf := 0
		for c := 0; c < rules.NumNormalColours; c++ {
			if p.Factories&(1<<uint(c)) != 0 {
				nf++
			}
		}
		if fac+reserveF[i] > 2*nf {
			return fmt.Errorf("seat %d: factory storage %d + %d reserve over %d", i, fac, reserveF[i], 2*nf)
		}
		if har+reserveH[i] > int(p.Warehouses) {
			return fmt.Errorf("seat %d: harbor storage %d + %d reserve over %d", i, har, reserveH[i], p.Warehouses)
		}
		census.Add(&p.Ship)
		census.Add(&p.Holding)
		census.Add(&p.Island)
	}
	for k := range s.Bank.ContainerLots {
		census.Add(&s.Bank.ContainerLots[k])
	}
	d := s.Decision()
	if d.Phase != rules.PhaseBuyHarbor {
		census.Add(&d.Action.Pending)
	}
	census.Add(&d.BankBid.ReturnFactory)
	census.Add(&d.BankBid.ReturnHarbor)
	census.Add(&d.Payment.Left)
	census.Add(&d.Default.Seized)
	census.Add(&s.Supply)
	census.Add(&s.Removed)
	want := containerTotals(o)
	for c := 0; c < rules.NumColours; c++ {
		if int(census[c]) != want[c] {
			return fmt.Errorf("%d %s containers in the game, want %d", census[c], rules.Colour(c), want[c])
		}
	}
	if err := checkModules(s); err != nil {
		return err
	}
	if cf := s.CashFlow(); cf.InPlay != cf.Start+cf.FromSupply-cf.ToSupply {
		return fmt.Errorf("cash in play $%d != start $%d + from supply $%d - to supply $%d", cf.InPlay, cf.Start, cf.FromSupply, cf.ToSupply)
	}
	return nil
}

// checkModules checks the module pieces independently of State.Validate: trucks (at most
// TrucksPerPlayer per seat, each owned company carries its owner's truck, piles only on
// independent companies, nothing without the module), player loans (lender an opponent,
// amount at least $10, loan cards in hand + loans lent out = PlayerLoanCards, Bank loans
// exactly $10) and gold (none outside the luxury module, checked by the census).
func checkModules(s *rules.State) error {
	o := s.Game().Options()
	np := o.Players
	var owned, lent [rules.MaxPlayers]int
	for i := 0; i < rules.MaxPlayers; i++ {
		c := s.Companies[i]
		if i >= np || !o.Modules.Has(rules.Trucks) {
			if c.Owner != -1 || c.Pile != 0 {
				return fmt.Errorf("company %d is %+v without the trucks module or a seat", i, c)
			}
			continue
		}
		if c.Pile < 0 {
			return fmt.Errorf("company %d: pile $%d", i, c.Pile)
		}
		if c.Owner != -1 {
			if int(c.Owner) < 0 || int(c.Owner) >= np {
				return fmt.Errorf("company %d owned by %d, not a seat", i, c.Owner)
			}
			if c.Pile != 0 {
				return fmt.Errorf("company %d owned by seat %d still has a pile of $%d", i, c.Owner, c.Pile)
			}
			owned[c.Owner]++
		}
	}
	for i := 0; i < np; i++ {
		p := &s.Players[i]
		if int(p.Trucks) > rules.TrucksPerPlayer || int(p.Trucks) != owned[i] {
			return fmt.Errorf("seat %d: %d trucks placed, owns %d companies (at most %d trucks)", i, p.Trucks, owned[i], rules.TrucksPerPlayer)
		}
		for l := 0; l < int(p.NumLoans); l++ {
			ln := p.Loans[l]
			switch {
			case ln.Lender == -1:
				if ln.Amount != 10 {
					return fmt.Errorf("seat %d: Bank loan of $%d", i, ln.Amount)
				}
			case !o.Modules.Has(rules.PlayerLoans):
				return fmt.Errorf("seat %d: player loan without the module", i)
			case int(ln.Lender) == i || int(ln.Lender) < 0 || int(ln.Lender) >= np:
				return fmt.Errorf("seat %d: loan from %d", i, ln.Lender)
			case ln.Amount < 10:
				return fmt.Errorf("seat %d: player loan of $%d", i, ln.Amount)
			default:
				lent[ln.Lender]++
			}
		}
	}
	for i := 0; i < np; i++ {
		want := 0
		if o.Modules.Has(rules.PlayerLoans) {
			want = rules.PlayerLoanCards
		}
		if int(s.Players[i].LoanCards)+lent[i] != want {
			return fmt.Errorf("seat %d: %d loan cards in hand + %d lent, want %d", i, s.Players[i].LoanCards, lent[i], want)
		}
	}
	return nil
}

// containerTotals is the rulebook's container table (the More Containers table with Luxury
// Containers), or the options' overrides.
func containerTotals(o rules.Options) [rules.NumColours]int {
	var t [rules.NumColours]int
	k := o.Players - 3
	per := [3][3]int{rules.Standard: {11, 14, 17}, rules.Short: {9, 11, 13}, rules.Extended: {12, 16, 20}}[o.Length][k]
	if o.Modules.Has(rules.Luxury) {
		per = [3][3]int{rules.Standard: {9, 11, 13}, rules.Short: {8, 9, 10}, rules.Extended: {11, 14, 13}}[o.Length][k]
		t[rules.Gold] = [3]int{8, 9, 10}[k]
		if o.GoldContainers != 0 {
			t[rules.Gold] = o.GoldContainers
		}
	}
	if o.ContainersPerColour != 0 {
		per = o.ContainersPerColour
	}
	for c := 0; c < rules.NumNormalColours; c++ {
		t[c] = per
	}
	return t
}

// checkDecision checks the public description of the pending decision against the legal
// actions: its decider is the current player, and in an amount phase the Amount ids are
// exactly MinAmount..min(MaxAmount, MaxAmountID).
func checkDecision(s *rules.State, ids []int) error {
	d := s.Decision()
	if d.Decider != s.CurrentPlayer() {
		return fmt.Errorf("decision's decider %d is not the current player %d", d.Decider, s.CurrentPlayer())
	}
	first, count := rules.KindBase(rules.Amount)
	var amounts []int
	for _, id := range ids {
		if id >= first && id < first+count {
			amounts = append(amounts, id-first)
		}
	}
	if len(amounts) == 0 {
		return nil
	}
	hi := min(d.MaxAmount, rules.MaxAmountID)
	if amounts[0] != d.MinAmount || amounts[len(amounts)-1] != hi || len(amounts) != hi-d.MinAmount+1 {
		return fmt.Errorf("amount ids %d..%d (%d of them) but the decision says $%d..$%d", amounts[0], amounts[len(amounts)-1], len(amounts), d.MinAmount, d.MaxAmount)
	}
	return nil
}

func checkScores(s *rules.State) error {
	sc := s.Scores()
	if len(sc) != s.Game().Options().Players {
		return fmt.Errorf("%d scores for %d players", len(sc), s.Game().Options().Players)
	}
	winners := 0
	for i, x := range sc {
		if x.Total != x.Cash+x.Island+x.Leftover+x.Loans {
			return fmt.Errorf("seat %d: total %d is not the sum of its parts", i, x.Total)
		}
		if x.Winner != (x.Rank == 1) {
			return fmt.Errorf("seat %d: rank %d but winner %v", i, x.Rank, x.Winner)
		}
		if x.Winner {
			winners++
		}
	}
	if winners == 0 {
		return errors.New("nobody won")
	}
	return nil
}
