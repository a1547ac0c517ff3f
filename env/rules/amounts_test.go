package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// bidByIDs makes the pending amount decision's bid of amount using action ids only: one
// AmountHundred per $100, then the Amount id of the rest, checking each id is legal.
func bidByIDs(t *testing.T, s *State, amount int32) {
	t.Helper()
	hundred, _ := KindBase(AmountHundred)
	first, _ := KindBase(Amount)
	for a := amount; a > MaxAmountID; a -= 100 {
		if !slices.Contains(s.LegalActions(nil), hundred) {
			t.Fatalf("phase %s: +$100 not legal (legal %v)", s.machine.Phase, s.LegalMoves(nil))
		}
		s.Apply(hundred)
	}
	id := first + int(amount%100)
	if amount < 100 {
		id = first + int(amount)
	}
	if err := s.ApplyChecked(id); err != nil {
		t.Fatalf("phase %s: $%d: %v", s.machine.Phase, amount, err)
	}
}

// Every legal bid must be reachable through action ids (docs/RULES.md, section 11): a player
// holding $150 bids $120 in each kind of amount decision, delivery bid, runoff addition, Bank
// cash bid and player-loan incentive bid, as +$100 then the $20 id. The partial amount is
// the decider's alone: other seats' views read 0.
func TestEveryLegalBidHasActionIDs(t *testing.T) {
	// Delivery bid and runoff addition (Rulebook, Delivery Auctions).
	s := newTestState(t, DefaultOptions())
	s.Players[0].Ship = Counts{Red: 1}
	s.Players[1].Cash = 150
	s.Players[2].Cash = 300
	play(t, s, "sail:island")
	wantPhase(t, s, PhaseDeliveryBid, 1)
	hundred, _ := KindBase(AmountHundred)
	s.Apply(hundred)
	if d := s.Decision(); d.AmountBase != 100 || s.ActionToMove(kindBaseOf(Amount)+20).Amount != 120 {
		t.Fatalf("after +$100: decision %+v", d)
	}
	var v State
	s.Redact(2, &v)
	if v.machine.AmountBase != 0 {
		t.Fatal("a sealed bid in progress leaks to another seat")
	}
	if legal(t, s, "$99") || !legal(t, s, "$120") || legal(t, s, "loan") {
		t.Fatalf("after +$100: %v", s.LegalMoves(nil))
	}
	s.Apply(kindBaseOf(Amount) + 20)
	if s.machine.Bids[1] != 120 || s.machine.AmountBase != 0 {
		t.Fatalf("bid %d base %d", s.machine.Bids[1], s.machine.AmountBase)
	}
	bidByIDs(t, s, 120) // seat 2 ties
	play(t, s, "$0")    // seat 3
	wantPhase(t, s, PhaseRunoffBid, 1)
	s.Players[1].Cash = 270 // a runoff addition of $120 on top of the $120 bid
	bidByIDs(t, s, 120)
	if s.machine.Runoff[1] != 120 {
		t.Fatalf("runoff %d", s.machine.Runoff[1])
	}

	// Bank cash bid (Rulebook, Bank Auctions): $120 on a container lot.
	s = newTestState(t, DefaultOptions())
	s.Players[0].Cash = 150
	play(t, s, "bank:start:container-lot:1")
	bidByIDs(t, s, 120)
	if a := s.Auctions[ContainerLotAuction]; a.Cash != 120 || s.Players[0].Cash != 30 {
		t.Fatalf("cash bid %+v", a)
	}

	// Incentive bid (More, Player Loans, Competing Offers): up to cash - $10.
	s = newTestState(t, Options{Players: 4, Modules: PlayerLoans})
	s.Players[1].Cash = 150
	play(t, s, "loan", "yes", "yes", "yes")
	wantPhase(t, s, PhaseIncentiveBid, 1)
	bidByIDs(t, s, 120)
	if s.machine.Incentives[1] != 120 {
		t.Fatalf("incentive %d", s.machine.Incentives[1])
	}
	// +$100 is offered only while $100 more still fits: $99 is the most seat 1 may offer here.
	s = newTestState(t, Options{Players: 4, Modules: PlayerLoans})
	s.Players[1].Cash = 109
	play(t, s, "loan", "yes", "yes", "yes")
	if slices.Contains(s.LegalActions(nil), hundred) {
		t.Fatal("+$100 offered with at most $99 to bid")
	}
}

// kindBaseOf is the first action id of kind k.
func kindBaseOf(k MoveKind) int { f, _ := KindBase(k); return f }

// A position may be saved in the middle of an amount built with +$100 (docs/POSITION.md):
// every such position reached in play loads back equal and playable, and amount_base values
// the engine cannot produce (negative, not a multiple of $100, above the largest legal
// amount, outside an amount decision) are refused naming the field.
// shortAmountSamples is how many positions of each amount phase
// TestPositionAmountBaseValidated checks with -short (the full run checks every one, ~200).
const shortAmountSamples = 6

func TestPositionAmountBaseValidated(t *testing.T) {
	hundred := kindBaseOf(AmountHundred)
	// Outside an amount decision (the turn menu) any amount built is refused.
	g, err := NewGame(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	pos, err := g.NewInitialStateSeed(1).MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	_, err = LoadPosition(applyMutation(pos, machineMutation{"machine.amount_base", 100}))
	if err == nil || !strings.Contains(err.Error(), "outside an amount decision") {
		t.Errorf("amount_base at the turn menu: %v", err)
	}

	// Random games of every option set: each time +$100 is legal it is taken, and the
	// position then (and with amount_base replaced by nearby values) loads only if playable.
	r := rand.New(rand.NewPCG(5, 12))
	built := 0
	phases := map[Phase]int{}
	for ci, o := range mutationConfigs() {
		g, err := NewGame(o)
		if err != nil {
			t.Fatal(err)
		}
		s := g.NewInitialStateSeed(uint64(40 + ci))
		// Rich players reach +$100 in every amount decision kind.
		for i := range s.Players[:o.Players] {
			s.Players[i].Cash += 200
			s.machine.FromSupply += 200 // as if from subsidies: the cash ledger balances
		}
		var ids []int
		for !s.IsTerminal() && s.Steps < 3000 {
			ids = s.LegalActions(ids)
			id := ids[r.IntN(len(ids))]
			if slices.Contains(ids, hundred) && r.IntN(2) == 0 {
				id = hundred
			}
			if m := &s.machine; m.Phase == PhaseDeliveryBid && m.AmountBase == 0 && r.IntN(2) == 0 {
				// Match a bid already made, so that runoffs happen.
				for i := range o.Players {
					if m.HasBid&(1<<i) != 0 && s.ApplyMoveChecked(Move{Kind: Amount, Amount: m.Bids[i]}) == nil {
						id = -1
						break
					}
				}
			}
			if id >= 0 {
				s.Apply(id)
			}
			if s.machine.AmountBase == 0 || r.IntN(4) != 0 {
				continue
			}
			phases[s.machine.Phase]++
			if testing.Short() && phases[s.machine.Phase] > shortAmountSamples {
				// -short checks the first few positions of each amount phase.
				continue
			}
			built++
			pos, err := s.MarshalPosition()
			if err != nil {
				t.Fatal(err)
			}
			if l, err := exercisePosition(pos); !l || err != nil {
				t.Fatalf("%v phase %s base %d: loaded %v: %v", o, s.machine.Phase, s.machine.AmountBase, l, err)
			}
			if back, err := LoadPosition(pos); err != nil || back.Hash() != s.Hash() {
				t.Fatalf("%v phase %s base %d: reloaded differently (%v)", o, s.machine.Phase, s.machine.AmountBase, err)
			}
			hi := s.Decision().MaxAmount
			for _, c := range []struct {
				v    any
				want string
			}{
				{-100, "not a non-negative multiple"},
				{50, "not a non-negative multiple"},
				{(hi/100 + 1) * 100, fmt.Sprintf("above the largest legal amount $%d", hi)},
				{2147483600, "above the largest legal amount"},
			} {
				_, err := LoadPosition(applyMutation(pos, machineMutation{"machine.amount_base", c.v}))
				if err == nil || !strings.Contains(err.Error(), "amount_base") || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("amount_base %v: got %v, want an error containing %q", c.v, err, c.want)
				}
			}
			for _, v := range []any{-100, 1, 99, 100, 200, 300, 1000, MaxPositionCash} {
				if _, err := exercisePosition(applyMutation(pos, machineMutation{"machine.amount_base", v})); err != nil {
					t.Fatalf("%v phase %s amount_base=%v: %v", o, s.machine.Phase, v, err)
				}
			}
		}
	}
	for _, p := range []Phase{PhaseDeliveryBid, PhaseRunoffBid, PhaseBankCashBid, PhaseIncentiveBid} {
		if phases[p] == 0 {
			t.Errorf("no position with an amount built in %s (%v)", p, phases)
		}
	}
	t.Logf("%d positions with an amount built checked, reached per phase: %v", built, phases)
}
