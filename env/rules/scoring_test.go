package rules

import (
	"fmt"
	"testing"
)

// mustCounts reads container letters ("wwgo": two white, one green, one gold).
func mustCounts(t testing.TB, s string) Counts {
	t.Helper()
	c, err := ParseCounts(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// scoringState builds a hand-made 3-player state for scoring tests (no Game, no engine).
func scoringState(players ...Player) *State {
	s := &State{}
	for i, p := range players {
		if p.Factories == 0 {
			p.Factories = 1 << uint(i)
		}
		if p.Warehouses == 0 {
			p.Warehouses = 1
		}
		s.Players[i] = p
	}
	return s
}

func TestScoringCardValues(t *testing.T) {
	want := [NumScoringCards]struct {
		v   [NumNormalColours]int
		two Colour
	}{
		{[5]int{10, 10, 6, 4, 2}, Green},
		{[5]int{6, 4, 2, 10, 10}, Yellow},
		{[5]int{2, 10, 10, 6, 4}, Red},
		{[5]int{4, 2, 10, 10, 6}, Blue},
		{[5]int{10, 6, 4, 2, 10}, White},
	}
	for card, w := range want {
		v, two, ok := ScoringCardValues(card)
		if !ok || v != w.v || two != w.two {
			t.Errorf("card %d: got %v two-value %s ok %v, want %v two-value %s", card, v, two, ok, w.v, w.two)
		}
	}
	if _, _, ok := ScoringCardValues(Unknown); ok {
		t.Error("card Unknown reported ok")
	}
}

// TestFinalScoringExample_Rulebook_p19 rebuilds the three players of the rulebook's final
// scoring example (p. 19) and checks every line of the table.
func TestFinalScoringExample_Rulebook_p19(t *testing.T) {
	// Orange: card 0 (white $10, two-value green, blue $4). Whites and blues tie at 3; Orange
	// discards the blues. 3 white $30 + 2 green $5 (no yellow) + 1 red $6 = $46. Four containers
	// on the ship ($12), one Bank loan (-$11).
	orange := Player{Cash: 8, Card: 0, Island: mustCounts(t, "wwwggrbbb"), Ship: mustCounts(t, "wwrb"),
		NumLoans: 1, Loans: [MaxLoans]Loan{{Lender: -1, Amount: 10}}}
	// Purple: card 2 (green $10, two-value red). Greens are most common and go: 1 red at $5.
	// Three containers in the harbor ($6).
	purple := Player{Cash: 51, Card: 2, Island: mustCounts(t, "ggr")}
	purple.HarborLots[0] = mustCounts(t, "ww")
	purple.HarborLots[3] = mustCounts(t, "y")
	// Blue: card 1 (blue $10, two-value yellow, white $6). Two whites are discarded; every
	// colour was collected so the yellow is $10: 10 + 10 + 4 + 2 = $26. Three containers won in
	// a Bank auction at game end ($9): the auction is still open, Blue holds the cash bid.
	blue := Player{Cash: 36, Card: 1, Island: mustCounts(t, "wwgrby")}
	s := scoringState(orange, purple, blue)
	s.Bank.ContainerLots[1] = mustCounts(t, "gry")
	s.Auctions[ContainerLotAuction] = Auction{Active: true, Target: 1, Bidder: 2, Cash: 4}

	got := s.Scores()
	want := []struct{ cash, island, leftover, loans, total, rank int }{
		{8, 46, 12, -11, 55, 3},
		{51, 5, 6, 0, 62, 2},
		{36, 26, 9, 0, 71, 1},
	}
	if len(got) != 3 {
		t.Fatalf("got %d scores, want 3", len(got))
	}
	for i, w := range want {
		g := got[i]
		if g.Cash != w.cash || g.Island != w.island || g.Leftover != w.leftover || g.Loans != w.loans || g.Total != w.total || g.Rank != w.rank {
			t.Errorf("seat %d: got %s, want cash %d island %d leftover %d loans %d total %d rank %d", i, g, w.cash, w.island, w.leftover, w.loans, w.total, w.rank)
		}
	}
	if got[0].Discarded != Blue || got[0].DiscardedCount != 3 {
		t.Errorf("orange discarded %d %s, want 3 blue", got[0].DiscardedCount, got[0].Discarded)
	}
	if got[1].Discarded != Green || got[1].DiscardedCount != 2 {
		t.Errorf("purple discarded %d %s, want 2 green", got[1].DiscardedCount, got[1].Discarded)
	}
	if !got[2].AllColours || got[2].Discarded != White {
		t.Errorf("blue: all colours %v discarded %s, want true and white", got[2].AllColours, got[2].Discarded)
	}
	if !got[2].Winner || got[0].Winner || got[1].Winner {
		t.Errorf("winners: %v %v %v, want only blue", got[0].Winner, got[1].Winner, got[2].Winner)
	}
	if s.Players[2].Holding.Total() != 0 {
		t.Error("Scores changed the state (resolved the auction in place)")
	}
}

// TestFinalScoring_TwoValueTiedMustBeDiscarded: the two-value colour tied for most common is
// discarded even when keeping it would score more (reference "Two-value containers").
func TestFinalScoring_TwoValueTiedMustBeDiscarded(t *testing.T) {
	// Card 0: two-value green. Green and yellow tie at 2: yellow ($2) would be the cheap
	// discard, but green must go: 2 yellow $4 + 1 white $10 = $14.
	v, d, gold, all := ScoreIsland(0, mustCounts(t, "wggyy"), false)
	if v != 14 || d != Green || gold != NumColours || all {
		t.Errorf("got value %d discarded %s gold as %s all %v, want 14 green none false", v, d, gold, all)
	}
	// Without the tie the player keeps the greens: 3 yellow most common.
	v, d, _, _ = ScoreIsland(0, mustCounts(t, "wggyyy"), false)
	if v != 20 || d != Yellow {
		t.Errorf("got value %d discarded %s, want 20 yellow", v, d)
	}
}

func TestFinalScoring_TieWithoutTwoValueDiscardsCheapest(t *testing.T) {
	// Card 3: red 10, blue two-value, yellow 6, white 4, green 2. Red, yellow, green tie at 2.
	v, d, _, _ := ScoreIsland(3, mustCounts(t, "rryygg"), false)
	if d != Green || v != 20+12 {
		t.Errorf("got value %d discarded %s, want 32 green", v, d)
	}
}

func TestFinalScoring_EmptyIsland(t *testing.T) {
	r := ScoreIslandDetail(4, Counts{}, true)
	if r.Value != 0 || r.Discarded != NumColours || r.GoldAs != NumColours || r.AllColours || r.DiscardedCount != 0 {
		t.Errorf("empty island scored %+v", r)
	}
}

// TestFinalScoring_WinnerTieBreaks: equal totals go to the most factory containers; equal
// again, the win is shared (rulebook "Determine Winner").
func TestFinalScoring_WinnerTieBreaks(t *testing.T) {
	a := Player{Cash: 30}
	a.FactoryLots[0] = mustCounts(t, "ww")
	b := Player{Cash: 30}
	b.FactoryLots[2] = mustCounts(t, "g")
	c := Player{Cash: 29}
	got := scoringState(a, b, c).Scores()
	if !got[0].Winner || got[0].Rank != 1 || got[1].Winner || got[1].Rank != 2 || got[2].Rank != 3 {
		t.Fatalf("factory tie-break: %v / %v / %v", got[0], got[1], got[2])
	}
	b.FactoryLots[3] = mustCounts(t, "g")
	got = scoringState(a, b, c).Scores()
	if !got[0].Winner || !got[1].Winner || got[0].Rank != 1 || got[1].Rank != 1 || got[2].Rank != 3 || got[2].Winner {
		t.Fatalf("shared win: %v / %v / %v", got[0], got[1], got[2])
	}
}

func TestFinalScoring_Leftovers(t *testing.T) {
	p := Player{Cash: 0, Ship: mustCounts(t, "wg"), Holding: mustCounts(t, "r")}
	p.HarborLots[4] = mustCounts(t, "bby")
	p.FactoryLots[1] = mustCounts(t, "wwww")
	sc := scoringState(p, Player{}, Player{}).Scores()[0]
	if sc.Leftover != 3*3+3*2 || sc.FactoryContainers != 4 {
		t.Errorf("leftover %d factory %d, want 15 and 4", sc.Leftover, sc.FactoryContainers)
	}
}

// TestFinalScoring_OpenCashLotAuction: a container bid still open at game end is paid and
// the cash lot goes to the bidder's hand (reference "Game end: Open Bank auctions").
func TestFinalScoring_OpenCashLotAuction(t *testing.T) {
	p := Player{Cash: 5}
	s := scoringState(Player{}, p, Player{})
	s.Bank.CashLots = [BankLots]int32{1, 2, 7}
	s.Auctions[CashLotAuction] = Auction{Active: true, Target: 2, Bidder: 1, FromFactory: mustCounts(t, "w"), FromHarbor: mustCounts(t, "g")}
	sc := s.Scores()[1]
	if sc.Cash != 12 || sc.Leftover != 0 {
		t.Errorf("cash %d leftover %d, want 12 and 0", sc.Cash, sc.Leftover)
	}
}

// TestFinalScoring_PlayerLoanRepaidToLender: an open player loan costs its amount + $1 and
// the lender collects all of it (More Containers "Interest and repayment"); the borrower pays
// from its $2 and the lender takes the other $12 from the supply; the Bank loan's $11 follows.
func TestFinalScoring_PlayerLoanRepaidToLender(t *testing.T) {
	borrower := Player{Cash: 2, NumLoans: 2, Loans: [MaxLoans]Loan{{Lender: 2, Amount: 13}, {Lender: -1, Amount: 10}}}
	got := scoringState(Player{}, borrower, Player{Cash: 1}).Scores()
	if got[1].Loans != -2-11 || got[1].Total != 2-13 {
		t.Errorf("borrower loans %d total %d, want -13 and -11", got[1].Loans, got[1].Total)
	}
	if got[2].Loans != 14 || got[2].Total != 15 {
		t.Errorf("lender loans %d total %d, want 14 and 15", got[2].Loans, got[2].Total)
	}
}

// The three luxury scoring examples (More Containers, "Scoring Luxuries" example).
func TestLuxuryScoringExample_Orange_GoldAsGreen(t *testing.T) {
	// Card 2: green $10, two-value red, blue $6, yellow $4. Three yellows are discarded and the
	// two golds score as $10 greens: 20 + 6 = $26.
	r := ScoreIslandDetail(2, mustCounts(t, "yyyboo"), true)
	if r.Discarded != Yellow || r.GoldAs != Green || r.Value != 26 || r.DiscardedCount != 3 {
		t.Errorf("got %+v, want yellow discarded, gold as green, $26", r)
	}
}

func TestLuxuryScoringExample_Blue_DiscardsBlueAndGold(t *testing.T) {
	// Card 0: white $10, blue $4. Three whites would be the most common colour; counting the
	// gold as blue ties blue with white, so blue (and the gold) go and the whites score $30.
	r := ScoreIslandDetail(0, mustCounts(t, "wwwbbo"), true)
	if r.Discarded != Blue || r.GoldAs != Blue || r.DiscardedCount != 3 || r.Value != 30 {
		t.Errorf("got %+v, want blue+gold discarded (3), $30", r)
	}
	// Without the luxury module the gold is ignored and the whites go.
	if v, d, _, _ := ScoreIsland(0, mustCounts(t, "wwwbbo"), false); d != White || v != 8 {
		t.Errorf("no luxury: value %d discarded %s, want 8 white", v, d)
	}
}

func TestLuxuryScoringExample_Purple_GoldCompletesColours(t *testing.T) {
	// Card 1: blue $10, two-value yellow, white $6, green $4, red $2. Red is missing; the gold
	// counts as red so the two yellows score $10 each: 20 + 6 + 4 + 2 = $32 (blues discarded).
	r := ScoreIslandDetail(1, mustCounts(t, "bbbbyywgo"), true)
	if r.GoldAs != Red || !r.AllColours || r.Discarded != Blue || r.Value != 32 {
		t.Errorf("got %+v, want gold as red, all colours, blue discarded, $32", r)
	}
}

func TestLuxuryScoring_GoldJoinsTheDiscardedColour(t *testing.T) {
	// Only golds: whatever colour they count as is the most common and is discarded.
	r := ScoreIslandDetail(0, mustCounts(t, "ooo"), true)
	if r.Value != 0 || r.DiscardedCount != 3 || r.GoldAs == NumColours {
		t.Errorf("got %+v, want everything discarded", r)
	}
}

func BenchmarkScores(b *testing.B) {
	s := scoringState(
		Player{Cash: 8, Card: 0, Island: mustCounts(b, "wwwggrbbbo")},
		Player{Cash: 51, Card: 2, Island: mustCounts(b, "ggr")},
		Player{Cash: 36, Card: 1, Island: mustCounts(b, "wwgrby")})
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Scores()
	}
}

// TestScoresCountPendingPlacements: containers produced or bought but not yet placed count in
// their district when scoring mid-decision.
func TestScoresCountPendingPlacements(t *testing.T) {
	g, err := NewGame(Options{Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed < 30; seed++ {
		s := g.NewInitialStateSeed(seed)
		var ids []int
		for step := 0; step < 3000 && !s.IsTerminal(); step++ {
			d := s.Decision()
			if d.Phase == PhasePlace && d.District == HarborDistrict && d.Pending.Total() > 0 {
				p := &s.Players[d.Decider]
				harbor := 0
				for k := range p.HarborLots {
					harbor += p.HarborLots[k].Total()
				}
				want := LeftoverShipValue*(p.Ship.Total()+p.Holding.Total()) + LeftoverHarborValue*(harbor+d.Pending.Total())
				if got := s.Scores()[d.Decider].Leftover; got != want {
					t.Fatalf("seed %d step %d: leftover %d, want %d (pending %s counted in the harbor)", seed, step, got, want, d.Pending.Letters())
				}
				return
			}
			ids = s.LegalActions(ids)
			s.Apply(ids[(step*13+int(seed))%len(ids)])
		}
	}
	t.Fatal("no harbor placement reached")
}

// Scoring card 0 (white $10, two-value green, red $6, blue $4, yellow $2): whites and blues
// tie for most common, so the cheaper blues are discarded; yellow is missing, so the greens
// are worth $5 each.
func ExampleScoreIsland() {
	island, _ := ParseCounts("3w 2g r 3b")
	value, discarded, _, all := ScoreIsland(0, island, false)
	fmt.Println(value, discarded, all)
	// Output: 46 blue false
}
