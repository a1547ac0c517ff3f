package rules

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The position check of the decision machine (position_validate_machine.go) is what stands
// between a hand-written "machine" section (docs/POSITION.md) and the engine. The tests below
// take a state the engine reached in a seeded random game (or by a short scripted play), check
// that it is accepted, change one machine or board field, and check the verdict: the extreme
// consistent value is accepted, the first inconsistent one refused with one line naming the
// field. A refused value would otherwise reach the engine: a seat index past the game's seats,
// a bid its bidder cannot pay, a decision with the wrong seat to move.

// findState plays seeded random games of each option set in turn (games per set) until pred
// holds, and returns a clone of that state (nil if no game reaches one).
func findState(opts []Options, games int, pred func(*State) bool) *State {
	ids := make([]int, 0, 256)
	for _, o := range opts {
		g, err := NewGame(o)
		if err != nil {
			panic(err)
		}
		for k := 0; k < games; k++ {
			r := rand.New(rand.NewPCG(uint64(k), 19))
			s := g.NewInitialStateSeed(uint64(k))
			for {
				if pred(s) {
					return s.Clone()
				}
				if s.IsTerminal() {
					break
				}
				ids = s.LegalActions(ids)
				s.Apply(ids[r.IntN(len(ids))])
			}
		}
	}
	return nil
}

// mustFind is findState over every option set (mutationConfigs), failing the test when no
// game of a few per set reaches a state where pred holds.
func mustFind(t *testing.T, what string, pred func(*State) bool) *State {
	t.Helper()
	s := findState(mutationConfigs(), 10, pred)
	if s == nil {
		t.Fatalf("no random game reached %s", what)
	}
	return s
}

// inPhase is a predicate: the pending decision is ph and more holds.
func inPhase(ph Phase, more func(s *State) bool) func(s *State) bool {
	return func(s *State) bool { return s.machine.Phase == ph && (more == nil || more(s)) }
}

// machineVerdict is validateMachine's verdict (a panic reported as an error) after the cash
// ledger is set to explain the cash in play, as a position writer does when changing cash.
func machineVerdict(s *State) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("validateMachine panicked: %v", r)
		}
	}()
	cf := s.CashFlow()
	s.machine.FromSupply, s.machine.ToSupply = 0, 0
	if d := cf.InPlay - cf.Start; d > 0 {
		s.machine.FromSupply = d
	} else {
		s.machine.ToSupply = -d
	}
	return s.validateMachine()
}

// machineCase is one edit of a base state and the verdict: want "" means accepted, otherwise
// the error must wrap ErrBadPosition, be one line and contain want.
type machineCase struct {
	name string
	edit func(s *State)
	want string
}

// runMachineCases checks that base is accepted, then applies each case to a clone of it.
func runMachineCases(t *testing.T, base *State, cases []machineCase) {
	t.Helper()
	if err := machineVerdict(base.Clone()); err != nil {
		t.Fatalf("a state the engine reached is refused: %v", err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := base.Clone()
			tc.edit(s)
			err := machineVerdict(s)
			checkPositionVerdict(t, err, tc.want)
		})
	}
}

// menuState is a 3-player game of the given modules at the first turn menu.
func menuState(t *testing.T, mods Modules) *State {
	t.Helper()
	g, err := NewGame(Options{Players: 3, Modules: mods})
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(3)
	if s.machine.Phase != PhaseTurn {
		t.Fatalf("phase %s", s.machine.Phase)
	}
	return s
}

// TestMachineCashAmountsAcceptMaxPositionCashAndRefuseMore: every cash amount of a position
// (a hand, a truck company's pile, an auction's cash bid, a Bank cash lot, the machine's
// sealed bids) may be MaxPositionCash and not a dollar more (limits.go); a sealed amount of a
// seat the game does not have must be 0.
func TestMachineCashAmountsAcceptMaxPositionCashAndRefuseMore(t *testing.T) {
	const max = MaxPositionCash
	cases := []machineCase{
		{"player 0 cash max", func(s *State) { s.Players[0].Cash = max }, ""},
		{"player 0 cash max+1", func(s *State) { s.Players[0].Cash = max + 1 }, "player 0: cash $1000001 is above"},
		{"player 2 cash max+1", func(s *State) { s.Players[2].Cash = max + 1 }, "player 2: cash"},
		{"company pile max", func(s *State) { s.Companies[1].Pile = max }, ""},
		{"company pile max+1", func(s *State) { s.Companies[1].Pile = max + 1 }, "company 1: pile"},
		{"auction cash max", func(s *State) { openAuction(s, ContainerLotAuction, 0, 1); s.Auctions[ContainerLotAuction].Cash = max }, ""},
		{"auction cash max+1", func(s *State) {
			openAuction(s, ContainerLotAuction, 0, 1)
			s.Auctions[ContainerLotAuction].Cash = max + 1
		}, "container-lot auction: cash bid"},
		{"bank cash lot max", func(s *State) { s.Bank.CashLots[0] = max }, ""},
		{"bank cash lot max+1", func(s *State) { s.Bank.CashLots[0] = max + 1 }, "Bank cash lot 0"},
		{"kept delivery bid max", func(s *State) { s.machine.Bids[1] = max }, ""},
		{"kept delivery bid max+1", func(s *State) { s.machine.Bids[1] = max + 1 }, "machine: bids[1]: $1000001 is outside"},
		{"incentive of the last seat", func(s *State) { s.machine.Incentives[2] = 1 }, ""},
		{"incentive of seat 3 of 3", func(s *State) { s.machine.Incentives[3] = 1 }, "machine: incentives[3]: seat 3 is not in a 3-player game"},
		{"runoff of seat 4 of 3", func(s *State) { s.machine.Runoff[4] = 1 }, "machine: runoff[4]: seat 4"},
	}
	runMachineCases(t, menuState(t, 0), cases)
}

// TestMachineSeatFieldsAcceptNoneAndEverySeatOnly: the machine's seat fields hold a seat of
// the game or -1 (none) where none is allowed; -2 and the seat count are refused.
func TestMachineSeatFieldsAcceptNoneAndEverySeatOnly(t *testing.T) {
	cases := []machineCase{
		{"lender none", func(s *State) { s.machine.Lender = -1 }, ""},
		{"lender last seat", func(s *State) { s.machine.Lender = 2 }, ""},
		{"lender -2", func(s *State) { s.machine.Lender = -2 }, "machine: lender: -2 is not a seat (or -1)"},
		{"lender 3 of 3", func(s *State) { s.machine.Lender = 3 }, "machine: lender: 3 is not a seat"},
		{"counterpart -2", func(s *State) { s.machine.Counterpart = -2 }, "machine: counterpart: -2"},
		{"payer seat 0", func(s *State) { s.machine.Payer = 0 }, ""},
		{"payer last seat", func(s *State) { s.machine.Payer = 2 }, ""},
		{"payer -1", func(s *State) { s.machine.Payer = -1 }, "machine: payer: -1 is not a seat"},
		{"borrower seat 0", func(s *State) { s.machine.Borrower = 0 }, ""},
		{"borrower 3 of 3", func(s *State) { s.machine.Borrower = 3 }, "machine: borrower: 3 is not a seat"},
		{"loan return decider seat 0", func(s *State) { s.machine.LoanReturnDecider = 0 }, ""},
	}
	runMachineCases(t, menuState(t, PlayerLoans), cases)
}

// TestMachineFieldRangesAcceptTheLastValueOnly: a field naming a Bank auction kind, a set of
// loan slots or an interrupted phase is refused past its range with the range in the message
// (a Bank bid kind past the last would index past the auctions).
func TestMachineFieldRangesAcceptTheLastValueOnly(t *testing.T) {
	last := Phase(int(NumPhases) - 1)
	cases := []machineCase{
		{"bid kind truck (last)", func(s *State) { s.machine.BidKind = AuctionKind(NumAuctionKinds - 1) }, ""},
		{"bid kind past the last", func(s *State) { s.machine.BidKind = AuctionKind(NumAuctionKinds) },
			fmt.Sprintf("machine: bid_kind: %d is outside 0..%d", NumAuctionKinds, NumAuctionKinds-1)},
		{"unpaid loans past both slots", func(s *State) { s.machine.UnpaidLoans = 1 << MaxLoans },
			fmt.Sprintf("machine: unpaid_loans: %d is outside 0..%d", 1<<MaxLoans, 1<<MaxLoans-1)},
		{"loan return phase past the last", func(s *State) { s.machine.LoanReturnPhase = NumPhases },
			fmt.Sprintf("machine: loan_return_phase: %d is outside 0..%d", NumPhases, last)},
	}
	runMachineCases(t, menuState(t, PlayerLoans), cases)
}

// TestMachineTurnCountersFollowThePhase: the turn's counters (actions used, produced,
// called the Bank) must agree with the decision (docs/POSITION.md): nothing is used at the
// turn start, not even while paying an auction won there, Produce sets "produced", and
// Acquire Luxury places its gold container without using an action (docs/RULES.md, Luxury
// Containers); the last turn's counters are kept at the game end.
func TestMachineTurnCountersFollowThePhase(t *testing.T) {
	t.Run("menu", func(t *testing.T) {
		runMachineCases(t, menuState(t, 0), []machineCase{
			{"produced without an action", func(s *State) { s.machine.Produced = true }, "machine: produced: set with no action used"},
		})
	})
	t.Run("paying an auction won at the turn start", func(t *testing.T) {
		base := mustFind(t, "a turn-start payment", inPhase(PhaseBankPayColour, func(s *State) bool { return s.machine.PayResume == resumeTurnStart }))
		runMachineCases(t, base, []machineCase{
			{"an action used", func(s *State) { s.machine.ActionsUsed = 1 }, "machine: actions_used: the turn start"},
			{"paid by another seat", func(s *State) {
				other := int8((int(s.machine.Payer) + 1) % s.n())
				s.machine.Payer, s.machine.Decider = other, other
			}, "machine: payer: "},
		})
	})
	t.Run("paying at the game end", func(t *testing.T) {
		base := mustFind(t, "a game-end payment", inPhase(PhaseBankPayColour, func(s *State) bool { return s.machine.PayResume == resumeGameEnd }))
		// The game is over once the payment is made: the last turn's counters are kept
		// and not checked, as at the terminal position.
		runMachineCases(t, base, []machineCase{
			{"no action but produced and called the Bank", func(s *State) {
				s.machine.ActionsUsed, s.machine.Produced, s.machine.CalledBank = 0, true, true
			}, ""},
		})
	})
	t.Run("placing produced containers", func(t *testing.T) {
		base := mustFind(t, "a Produce placement", inPhase(PhasePlace, func(s *State) bool { return s.machine.Action == Produce }))
		runMachineCases(t, base, []machineCase{
			{"produced not set", func(s *State) { s.machine.Produced = false }, "machine: produced: not set during a Produce action"},
		})
	})
	t.Run("placing Acquire Luxury's gold", func(t *testing.T) {
		base := mustFind(t, "an Acquire Luxury placement with no action used", inPhase(PhasePlace, func(s *State) bool {
			return s.machine.Action == AcquireLuxury && s.machine.ActionsUsed == 0
		}))
		runMachineCases(t, base, []machineCase{
			{"as a Reprice, which is an action", func(s *State) { s.machine.Action = Reprice }, "machine: actions_used: 0 while placing for"},
		})
	})
}

// TestMachineActionInProgressMatchesThePhase: each phase belongs to its actions: a
// rearrangement after a Factory Purchase is accepted and one during a Sail to the Bank
// refused; the game ends after an ending turn or a delivery, never in the middle of Produce.
func TestMachineActionInProgressMatchesThePhase(t *testing.T) {
	t.Run("rearranging after a Factory Purchase", func(t *testing.T) {
		base := mustFind(t, "a Factory Purchase rearrangement", inPhase(PhaseRearrange, func(s *State) bool { return s.machine.Action == FactoryPurchase }))
		runMachineCases(t, base, []machineCase{
			{"as a Sail to the Bank", func(s *State) { s.machine.Action = SailBank }, "machine: action: "},
		})
	})
	t.Run("game over after a delivery", func(t *testing.T) {
		base := mustFind(t, "a game ended during a delivery", inPhase(PhaseTerminal, func(s *State) bool { return s.machine.Action == SailIsland }))
		runMachineCases(t, base, []machineCase{
			{"during Produce", func(s *State) { s.machine.Action = Produce }, "machine: action: "},
		})
	})
}

// TestMachineShortStorageProduceColoursAndPicks: when storage is short the producer picks
// colours (docs/RULES.md, Produce): each picked colour once, from its own factories, the picks
// left filling the free factory spaces, and more producible colours left than picks (else
// there is no choice to make); nothing bought meanwhile.
func TestMachineShortStorageProduceColoursAndPicks(t *testing.T) {
	base := mustFind(t, "a short-storage Produce after a first pick", inPhase(PhaseProduceColour, func(s *State) bool {
		return s.machine.Pending.Total() > 0
	}))
	a := int(base.Active)
	picked := base.machine.Pending.lowest()
	foreign := Colour(NumNormalColours)
	for c := Colour(NumNormalColours - 1); c > 0; c-- { // a colour of no factory of the seat, not white
		if !base.Players[a].hasFactory(c) && base.Supply[c] > 0 {
			foreign = c
			break
		}
	}
	if foreign == Colour(NumNormalColours) {
		t.Fatal("the producer has every factory colour")
	}
	runMachineCases(t, base, []machineCase{
		{"a container bought", func(s *State) { s.machine.Bought = 1 }, "machine: bought: 1 during produce-colour"},
		{fmt.Sprintf("picked %s, which no factory of the seat makes", foreign), func(s *State) {
			s.Supply[picked]++
			s.machine.Pending[picked]--
			fromSupply(s, foreign, 1, &s.machine.Pending)
		}, "machine: pending: "},
		{"no more producible colours than picks", func(s *State) {
			cands, _ := s.producible(a)
			left := 0
			for c := range cands {
				if cands[c] > 0 && s.machine.Pending[c] == 0 {
					left++
				}
			}
			for c := range cands { // the supply runs out of candidates until the choice is gone
				if left > int(s.machine.PickLeft) && cands[c] > 0 && s.machine.Pending[c] == 0 {
					s.Supply[c] = 0
					left--
				}
			}
		}, "machine: pick_left: "},
	})
}

// TestMachineProducedContainersToPlaceAreTheFactoriesColours: just after Produce the
// containers to place are one of each factory colour of the seat; a single container picked
// up again while rearranging the factory district may be of any colour there, gold included
// (docs/RULES.md, Produce and Luxury Containers).
func TestMachineProducedContainersToPlaceAreTheFactoriesColours(t *testing.T) {
	base := mustFind(t, "two produced containers to place", inPhase(PhasePlace, func(s *State) bool {
		return s.machine.Action == Produce && s.machine.Pending.Total() >= 2
	}))
	a := int(base.Active)
	var own, foreign Colour = NumColours, NumColours
	for c := Colour(1); c < NumNormalColours; c++ { // not white
		if base.machine.Pending[c] == 1 && own == NumColours {
			own = c
		}
		if !base.Players[a].hasFactory(c) && base.Supply[c] > 0 && foreign == NumColours {
			foreign = c
		}
	}
	if own == NumColours || foreign == NumColours {
		t.Fatalf("pending %v factories %b", base.machine.Pending, base.Players[a].Factories)
	}
	runMachineCases(t, base, []machineCase{
		{fmt.Sprintf("%s instead of %s", foreign, own), func(s *State) {
			s.Supply[own]++
			s.machine.Pending[own]--
			fromSupply(s, foreign, 1, &s.machine.Pending)
		}, "machine: pending: "},
		{fmt.Sprintf("two %s", own), func(s *State) {
			fromSupply(s, own, 1, &s.machine.Pending)
			for c := Colour(0); c < NumColours; c++ {
				if c != own && s.machine.Pending[c] > 0 {
					s.Supply[c]++
					s.machine.Pending[c]--
					break
				}
			}
		}, "machine: pending: "},
	})
	gold := mustFind(t, "a gold container picked up while rearranging after Produce", inPhase(PhasePlace, func(s *State) bool {
		return s.machine.Action == Produce && s.machine.Pending == Counts{Gold: 1}
	}))
	runMachineCases(t, gold, nil)
}

// TestMachineFixedContainersStayWithinTheirLots: an arranging action fixes containers it has
// placed; a lot never has more of a colour fixed than it holds, and nothing is fixed, nor
// an Acquire Luxury first pick kept, outside an action that uses them.
func TestMachineFixedContainersStayWithinTheirLots(t *testing.T) {
	lotAt := func(s *State) (int, Colour) {
		lots := s.Players[s.Active].lots(s.machine.District)
		for i := range lots {
			for c := Colour(1); c < NumColours; c++ { // not white
				if lots[i][c] > 0 {
					return i, c
				}
			}
		}
		return -1, 0
	}
	base := mustFind(t, "placing produced containers beside a non-white one", inPhase(PhasePlace, func(s *State) bool {
		i, _ := lotAt(s)
		return s.machine.Action == Produce && i >= 0
	}))
	i, c := lotAt(base)
	have := base.Players[base.Active].lots(FactoryDistrict)[i][c]
	runMachineCases(t, base, []machineCase{
		{"every container of the lot fixed", func(s *State) { s.machine.Fixed[i][c] = have }, ""},
		{"one more fixed than the lot holds", func(s *State) { s.machine.Fixed[i][c] = have + 1 },
			fmt.Sprintf("machine: fixed[%d]: %d %s containers fixed in a lot holding %d", i, have+1, c, have)},
	})
	runMachineCases(t, menuState(t, Luxury), []machineCase{
		{"fixed at the menu", func(s *State) { s.machine.Fixed[0][Yellow] = 1 }, "machine: fixed: containers fixed outside an arranging action"},
		{"a luxury first pick at the menu", func(s *State) { s.machine.LuxFirst = 1 }, "machine: lux_first: 1 outside Acquire Luxury"},
	})
}

// TestMachineBankBidsMustBeatTheBidToBeat: a Bank bid being made must be able to beat the
// open bid (docs/RULES.md, Off-Shore Bank): a cash bidder holds more than the bid to beat, a
// container bidder's tile plus storage is worth more; an outbid player puts back at most
// what it bid, factory containers first.
func TestMachineBankBidsMustBeatTheBidToBeat(t *testing.T) {
	t.Run("cash", func(t *testing.T) {
		base := mustFind(t, "a Bank cash bid", inPhase(PhaseBankCashBid, nil))
		runMachineCases(t, base, []machineCase{
			{"$1 more in hand than to beat", func(s *State) { s.machine.ToBeat = s.Players[s.Active].Cash - 1 }, ""},
			{"as much in hand as to beat", func(s *State) { s.machine.ToBeat = s.Players[s.Active].Cash }, "machine: to_beat: "},
		})
	})
	t.Run("containers", func(t *testing.T) {
		base := mustFind(t, "a Bank container bid", inPhase(PhaseBankContainerBid, nil))
		worth := func(s *State) int32 { return bidHalves(&s.Auctions[s.machine.BidKind]) + s.ownValue(int(s.Active)) }
		runMachineCases(t, base, []machineCase{
			{"worth one half more than to beat", func(s *State) { s.machine.ToBeat = worth(s) - 1 }, ""},
			{"worth what is to beat", func(s *State) { s.machine.ToBeat = worth(s) }, "machine: to_beat: "},
		})
	})
	t.Run("putting back", func(t *testing.T) {
		base := mustFind(t, "an outbid player putting factory containers back", inPhase(PhaseReturnBid, func(s *State) bool {
			return s.machine.District == FactoryDistrict && s.machine.ReturnHarbor.Total() == 0
		}))
		value := base.ownValue(int(base.Active))
		back := base.machine.Pending.halves()
		if value < back+2 {
			t.Fatalf("storage worth %d, %d halves being put back", value, back)
		}
		runMachineCases(t, base, []machineCase{
			{"to beat one half below storage", func(s *State) { s.machine.ToBeat = value - 1 }, ""},
			{"to beat equal to storage", func(s *State) { s.machine.ToBeat = value }, "machine: to_beat: "},
			{"to beat what is put back", func(s *State) { s.machine.ToBeat = back }, ""},
			{"harbor containers waiting, to beat below the total", func(s *State) {
				fromSupply(s, s.machine.Pending.lowest(), 1, &s.machine.ReturnHarbor)
				s.machine.ToBeat = back + s.machine.ReturnHarbor.halves() - 1
			}, "machine: to_beat: "},
			{"factory containers still waiting", func(s *State) {
				fromSupply(s, s.machine.Pending.lowest(), 1, &s.machine.ReturnFactory)
			}, "machine: return_factory: the factory containers being put back are pending"},
			{"factory containers waiting behind harbor ones", func(s *State) {
				s.machine.District = HarborDistrict
				fromSupply(s, s.machine.Pending.lowest(), 1, &s.machine.ReturnFactory)
			}, "machine: return_factory: factory containers are put back before harbor ones"},
		})
		harbor := mustFind(t, "an outbid player putting harbor containers back", inPhase(PhaseReturnBid, func(s *State) bool {
			return s.machine.District == HarborDistrict
		}))
		runMachineCases(t, harbor, nil)
	})
}

// TestMachineDefaultSeizesWhatTheDefaulterHas: at a Bank-loan default one container is
// seized per unpaid loan, at most two (docs/RULES.md, Bank Loans, Default); a lender seizing
// for an unpaid player loan needs something to seize, and the unpaid loans named are loans
// the defaulter holds (an empty loan slot is no loan).
func TestMachineDefaultSeizesWhatTheDefaulterHas(t *testing.T) {
	t.Run("Bank loans", func(t *testing.T) {
		base := mustFind(t, "a seizure for one unpaid Bank loan", inPhase(PhaseSeize, func(s *State) bool {
			return s.machine.SeizeAt != seizeAnywhere && s.machine.Unpaid == 1 && s.machine.Seized.Total() == 0
		}))
		c := base.Supply.lowest()
		runMachineCases(t, base, []machineCase{
			{"two unpaid, none seized yet", func(s *State) { s.machine.Unpaid = 2 }, ""},
			{"one unpaid after one seized", func(s *State) { fromSupply(s, c, 1, &s.machine.Seized) }, ""},
			{"two unpaid after one seized", func(s *State) {
				s.machine.Unpaid = 2
				fromSupply(s, c, 1, &s.machine.Seized)
			}, "machine: unpaid: 2 loans unpaid + 1 containers seized"},
		})
	})
	t.Run("a player loan, lender seizing anywhere", func(t *testing.T) {
		base := mustFind(t, "a lender seizing anywhere", inPhase(PhaseSeize, func(s *State) bool { return s.machine.SeizeAt == seizeAnywhere }))
		runMachineCases(t, base, []machineCase{
			{"the defaulter holds no container", func(s *State) {
				p := &s.Players[s.Active]
				for _, c := range []*Counts{&p.Island, &p.Ship, &p.Holding} {
					s.Supply.Add(c)
					*c = Counts{}
				}
				for _, d := range []District{FactoryDistrict, HarborDistrict} {
					lots := p.lots(d)
					for i := range lots {
						s.Supply.Add(&lots[i])
						lots[i] = Counts{}
					}
				}
			}, "with nothing of the active seat to seize"},
		})
	})
	t.Run("a player loan, lender choosing", func(t *testing.T) {
		base := mustFind(t, "a lender choosing, the defaulter with one loan, seat 0 not involved", inPhase(PhaseLenderChoice, func(s *State) bool {
			p := &s.Players[s.Active]
			return p.NumLoans == 1 && s.Active != 0 && p.Loans[0].Lender != 0
		}))
		runMachineCases(t, base, []machineCase{
			{"loan 0 unpaid", func(s *State) { s.machine.UnpaidLoans = 1 }, ""},
			{"empty slot 1 unpaid", func(s *State) { s.machine.UnpaidLoans = 2 }, "machine: unpaid_loans: bit 1 is not a loan of the active seat"},
			{"empty slot written as a zero loan", func(s *State) { s.Players[s.Active].Loans[1] = Loan{} }, ""},
			{"seat 0 deciding, which lent nothing", func(s *State) {
				s.Players[s.Active].Loans[1] = Loan{}
				s.machine.Decider = 0
			}, "machine: decider: seat 0 lent nothing"},
		})
	})
}

// TestMachineSealedBidsArePayable: a delivery bidder's bid plus runoff addition never exceeds
// its cash (docs/RULES.md, Container Island delivery auction), a loan incentive leaves the
// lender the $10 it lends (CLARIFICATIONS, Player Loans), and an amount being built with
// +$100 steps stays within the largest legal amount.
func TestMachineSealedBidsArePayable(t *testing.T) {
	delivery := func(t *testing.T, mods Modules, moves ...string) *State {
		t.Helper()
		s := newTestState(t, Options{Players: 3, Modules: mods})
		s.Players[0].Ship = Counts{Red: 1}
		play(t, s, moves...)
		return s
	}
	t.Run("first round", func(t *testing.T) {
		s := delivery(t, 0, "sail:island", "$5") // seat 1 bid $5, seat 2 to bid
		wantPhase(t, s, PhaseDeliveryBid, 2)
		runMachineCases(t, s, []machineCase{
			{"bid all in hand", func(s *State) { s.Players[1].Cash = 5 }, ""},
			{"bid $1 more than in hand", func(s *State) { s.Players[1].Cash = 4 }, "machine: bids[1]: $5 bid (+ $0 runoff) with $4 in hand"},
			{"$200 built with $200 in hand", func(s *State) { s.Players[2].Cash, s.machine.AmountBase = 200, 200 }, ""},
			{"$300 built with $200 in hand", func(s *State) { s.Players[2].Cash, s.machine.AmountBase = 200, 300 },
				"machine: amount_base: $300 built, above the largest legal amount $200"},
		})
	})
	t.Run("runoff", func(t *testing.T) {
		s := delivery(t, 0, "sail:island", "$5", "$5", "$3") // seats 1, 2 tie; seat 1 adds $3
		wantPhase(t, s, PhaseRunoffBid, 2)
		runMachineCases(t, s, []machineCase{
			{"bid and addition all in hand", func(s *State) { s.Players[1].Cash = 8 }, ""},
			{"bid and addition $1 more than in hand", func(s *State) { s.Players[1].Cash = 7 }, "machine: bids[1]: $5 bid (+ $3 runoff) with $7 in hand"},
		})
	})
	t.Run("loan incentive", func(t *testing.T) {
		s := delivery(t, PlayerLoans, "sail:island", "$5", "$0", "loan", "yes", "yes", "$2")
		wantPhase(t, s, PhaseIncentiveBid, 2)
		most := s.freeCash(1) - LoanAmount
		runMachineCases(t, s, []machineCase{
			{"incentive leaving exactly the loan", func(s *State) { s.machine.Incentives[1] = most }, ""},
			{"incentive $1 more", func(s *State) { s.machine.Incentives[1] = most + 1 },
				fmt.Sprintf("machine: incentives[1]: $%d incentive with $%d free", most+1, most+LoanAmount)},
		})
	})
}
