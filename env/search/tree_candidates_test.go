package search

import (
	"math/bits"
	"slices"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// decisionsOf plays four valuers through a game from seed and calls f at every decision
// (f may change the state it gets: it is a copy).
func decisionsOf(t *testing.T, opts rules.Options, seed uint64, f func(st *rules.State, legal []int)) {
	t.Helper()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(seed)
	bs := make([]bots.Bot, opts.Players)
	for i := range bs {
		bs[i] = bots.NewValuer(seed + uint64(i))
	}
	var view, probe rules.State
	legal := make([]int, 0, 256)
	for !st.IsTerminal() {
		d := st.CurrentPlayer()
		legal = st.LegalActions(legal)
		probe.CopyFrom(st)
		f(&probe, slices.Clone(legal))
		st.Redact(d, &view)
		st.Apply(bs[d].Act(&view, legal))
	}
}

func newTestWorker() *worker {
	cfg := DefaultConfig()
	return &worker{cfg: &cfg, legal: make([]int, 0, 256)}
}

// A loan is worth considering only where its cash buys something at that decision: the
// search leaves it out where cash is never spent (placing and repricing containers,
// choosing colours to produce) and keeps it for every sealed delivery bid (a loan raises the
// most the seat can bid) and wherever $10 more makes another move affordable.
func TestCandidates_LoanOnlyWhereItsCashOpensAMove(t *testing.T) {
	w := newTestWorker()
	seen := map[rules.Phase]int{}
	for _, opts := range []rules.Options{rules.DefaultOptions(), func() rules.Options {
		o := rules.DefaultOptions()
		o.Variant = rules.Classic
		return o
	}()} {
		decisionsOf(t, opts, 3, func(st *rules.State, legal []int) {
			if !slices.Contains(legal, takeLoan) {
				return
			}
			ph := st.Phase()
			got := slices.Contains(w.candidates(st), takeLoan)
			switch ph {
			case rules.PhasePlace, rules.PhaseRearrange, rules.PhaseProduceColour:
				seen[ph]++
				if got {
					t.Errorf("%s: the search considers a loan where no cash is spent", ph)
				}
			case rules.PhaseDeliveryBid:
				seen[ph]++
				if !got {
					t.Errorf("%s with $%d: the search leaves out the loan that raises its highest bid", ph, st.Players[st.CurrentPlayer()].Cash)
				}
			case rules.PhaseTurn:
				// Broke, with a move that needs cash: keep it. With $500 nothing costs more:
				// leave it out.
				d := st.CurrentPlayer()
				st.Players[d].Cash = 500
				rich := slices.Contains(w.candidates(st), takeLoan)
				if rich {
					t.Errorf("turn %d with $500: the search considers a loan that buys nothing", st.Turn)
				}
				seen[ph]++
			}
		})
	}
	for _, ph := range []rules.Phase{rules.PhasePlace, rules.PhaseRearrange, rules.PhaseDeliveryBid, rules.PhaseTurn} {
		if seen[ph] == 0 {
			t.Errorf("no %s decision offering a loan was checked", ph)
		}
	}
}

// At the turn menu a loan that would pay for a factory the seat cannot afford is
// considered; one whose only use would be to repay the other loan is not.
func TestCandidates_LoanForAFactoryYesForARepaymentNo(t *testing.T) {
	w := newTestWorker()
	factory, repay := 0, 0
	decisionsOf(t, rules.DefaultOptions(), 5, func(st *rules.State, legal []int) {
		if st.Phase() != rules.PhaseTurn || !slices.Contains(legal, takeLoan) {
			return
		}
		d := st.CurrentPlayer()
		p := &st.Players[d]
		actions := false
		for _, a := range legal {
			switch st.ActionToMove(a).Kind {
			case rules.EndTurn, rules.TakeLoan, rules.RepayLoan, rules.AcquireLuxury:
			default:
				actions = true
			}
		}
		if !actions {
			// Both actions used: nothing left to pay for. One loan and $5: the $10 would
			// only make repaying it possible.
			p.Cash, p.NumLoans, p.Loans[0] = 5, 1, rules.Loan{Lender: -1, Amount: rules.LoanAmount}
			if slices.Contains(w.candidates(st), takeLoan) {
				t.Errorf("turn %d, actions used, $5 and a loan: the search considers a loan whose only use is to repay the other", st.Turn)
			}
			repay++
			return
		}
		built := bits.OnesCount8(p.Factories)
		if built >= rules.MaxFactories {
			return
		}
		p.Cash = 500
		canBuild := false
		for _, a := range st.LegalActions(nil) {
			canBuild = canBuild || st.ActionToMove(a).Kind == rules.BuildFactory
		}
		if !canBuild {
			return
		}
		// $1 short of the next factory (and of nothing dearer that $10 would reach):
		// the loan pays for it.
		p.Cash = int32(rules.FactoryCost[built+1] - 1)
		if !slices.Contains(w.candidates(st), takeLoan) {
			t.Errorf("turn %d, $%d, next factory $%d: the search leaves out the loan that pays for it", st.Turn, p.Cash, rules.FactoryCost[built+1])
		}
		factory++
	})
	if factory == 0 || repay == 0 {
		t.Fatalf("checked %d factory and %d repayment positions; want both", factory, repay)
	}
}

// loans=any restores every legal loan as a candidate (the search before the loan rule).
func TestCandidates_LoansAnyKeepsEveryLoan(t *testing.T) {
	c, err := Parse("loans=any")
	if err != nil || !c.AnyLoan {
		t.Fatalf("Parse(loans=any) = %+v, %v", c, err)
	}
	w := &worker{cfg: &c, legal: make([]int, 0, 256)}
	n := 0
	decisionsOf(t, rules.DefaultOptions(), 3, func(st *rules.State, legal []int) {
		if slices.Contains(legal, takeLoan) {
			n++
			if !slices.Contains(w.candidates(st), takeLoan) {
				t.Fatalf("%s: loans=any left out a legal loan", st.Phase())
			}
		}
	})
	if n == 0 {
		t.Fatal("no decision offered a loan")
	}
}

// The phase shortcut of loanUseful gives the rules' answer (does $10 more make another move
// legal?) at every decision offering a loan in valuer games of every option set.
func TestLoanUsefulIn_AgreesWithTheRules(t *testing.T) {
	checked := map[rules.Phase]int{}
	for i, opts := range optionSets() {
		decisionsOf(t, opts, uint64(40+i), func(st *rules.State, legal []int) {
			if !slices.Contains(legal, takeLoan) {
				return
			}
			ph := st.Phase()
			fast, known := loanUsefulIn(ph)
			if !known {
				return
			}
			d := st.CurrentPlayer()
			st.Players[d].Cash += rules.LoanAmount
			more := st.LegalActions(nil)
			st.Players[d].Cash -= rules.LoanAmount
			if slow := notRepay(more) > notRepay(legal); slow != fast {
				t.Errorf("%v, %s, $%d: the shortcut says a loan is useful: %v; the rules: %v", opts, ph, st.Players[d].Cash, fast, slow)
			}
			checked[ph]++
		})
	}
	for _, ph := range []rules.Phase{rules.PhaseDeliveryBid, rules.PhaseRunoffBid, rules.PhasePlace, rules.PhaseRearrange, rules.PhaseProduceColour} {
		if checked[ph] == 0 {
			t.Errorf("no %s decision offering a loan was checked", ph)
		}
	}
	t.Logf("decisions checked per phase: %v", checked)
}

// A loan is useful when the one move its $10 opens is a factory of the first colour (the
// first id after the repayments): that move counts like any other.
func TestCandidates_LoanForAFactoryOfTheFirstColour(t *testing.T) {
	w := newTestWorker()
	found := 0
	decisionsOf(t, rules.DefaultOptions(), 5, func(st *rules.State, legal []int) {
		if found > 0 || st.Phase() != rules.PhaseTurn || !slices.Contains(legal, takeLoan) {
			return
		}
		p := &st.Players[st.CurrentPlayer()]
		built := bits.OnesCount8(p.Factories)
		if built >= rules.MaxFactories || p.Factories&(1<<rules.White) != 0 || st.FactorySupply[rules.White] == 0 {
			return
		}
		for c := range st.FactorySupply {
			if rules.Colour(c) != rules.White {
				st.FactorySupply[c] = 0
			}
		}
		st.WarehouseSupply = 0
		p.Cash = int32(rules.FactoryCost[built+1] - 1)
		before := st.LegalActions(nil)
		p.Cash += rules.LoanAmount
		after := st.LegalActions(nil)
		p.Cash -= rules.LoanAmount
		var opened []int
		for _, a := range after {
			if !slices.Contains(before, a) {
				opened = append(opened, a)
			}
		}
		if len(opened) != 1 {
			return
		}
		if m := st.ActionToMove(opened[0]); m.Kind != rules.BuildFactory || m.Colour != rules.White {
			return
		}
		found++
		if !slices.Contains(w.candidates(st), takeLoan) {
			t.Errorf("turn %d: the loan that pays for a white factory is left out", st.Turn)
		}
	})
	if found == 0 {
		t.Fatal("no position where $10 opens only a white factory")
	}
}

// The search considers every legal move except that a long run of amounts is thinned: $0-8
// over the lowest, every $4 up to $24 over it, every $10 beyond, and always the highest. The
// moves that are not amounts are all kept. Checked at every amount decision of played games
// against the rule computed here from the legal moves.
func TestCandidates_ThinAmountsExactlyAsDocumented(t *testing.T) {
	w := newTestWorker()
	w.cfg.AnyLoan = true // loans are another rule (the tests above); keep them all here
	long := 0
	for seed := uint64(1); seed <= 4; seed++ {
		decisionsOf(t, rules.Options{Players: 3 + int(seed)%3, Length: rules.Short}, seed, func(st *rules.State, legal []int) {
			var want, amounts []int
			for _, a := range legal {
				if a >= amountBase && a < amountBase+amount {
					amounts = append(amounts, a)
				}
			}
			for _, a := range legal {
				if len(amounts) == 0 || a < amountBase || a >= amountBase+amount {
					want = append(want, a)
					continue
				}
				off := a - amounts[0]
				if off <= 8 || off <= 24 && off%4 == 0 || off%10 == 0 || a == amounts[len(amounts)-1] {
					want = append(want, a)
				}
			}
			if len(amounts) > 30 {
				long++
			}
			if got := w.candidates(st); !slices.Equal(got, want) {
				t.Fatalf("seed %d step %d (%s, %d amounts from %d): candidates %v, want %v", seed, st.Steps, st.Phase(), len(amounts), amounts[0]-amountBase, got, want)
			}
		})
	}
	if long < 5 {
		t.Fatalf("only %d decisions with more than 30 amounts: the thinning is hardly exercised", long)
	}
}
