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

// Scoring behaviours at the edges of scoring.go:
// the scoring cards, the automatic choices a breakdown records, open auctions won at game end
// by seat 0 or for lot I, loans repaid from the island's value, storage reuse, and states
// whose seat, lot or loan numbers are out of range (scored without a panic).

// scoresNoPanic returns s.Scores(), failing the test (not crashing the binary) on a panic.
func scoresNoPanic(t *testing.T, s *State) (got []Score) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("Scores panicked: %v", r)
		}
	}()
	return s.Scores()
}

// TestScoringCardsEndAtTheFifth: there are five scoring cards (rulebook "Final Scoring"),
// numbered 0..4; a number past them (a corrupt or hidden card) is refused and values every
// container at $0, while the most common colour is still discarded.
func TestScoringCardsEndAtTheFifth(t *testing.T) {
	for _, card := range []int{-1, NumScoringCards, NumScoringCards + 1, Unknown} {
		if _, two, ok := ScoringCardValues(card); ok || two != NumColours {
			t.Errorf("card %d: ok %v two-value %s, want refused", card, ok, two)
		}
		r := ScoreIslandDetail(card, mustCounts(t, "wwgr"), false)
		if r.Value != 0 || r.Discarded != White || r.DiscardedCount != 2 {
			t.Errorf("card %d: scored %+v, want $0 with the two whites discarded", card, r)
		}
	}
	if _, _, ok := ScoringCardValues(NumScoringCards - 1); !ok {
		t.Error("the fifth card (4) refused")
	}
}

// TestUnknownCardDiscardsTheFirstTiedColour: with a hidden card (a redacted view) every
// colour is worth $0, so a tie for the most common colour is broken by colour order (white,
// green, red, blue, yellow): the breakdown names the first tied colour, the same every time
// (CLARIFICATIONS "Final scoring": the choice is recorded in the breakdown).
func TestUnknownCardDiscardsTheFirstTiedColour(t *testing.T) {
	for _, c := range []struct {
		island string
		want   Colour
	}{
		{"rrww", White},
		{"ggrrbb", Green},
		{"bbyyw", Blue},
	} {
		r := ScoreIslandDetail(Unknown, mustCounts(t, c.island), false)
		if r.Discarded != c.want || r.DiscardedCount != 2 || r.Value != 0 {
			t.Errorf("island %s with a hidden card: %+v, want 2 %s discarded, $0", c.island, r, c.want)
		}
	}
}

// TestLuxuryGoldAsRecordsTheFirstBestColour: when several colours for the gold give the
// same best value, the breakdown records the first of them in colour order (More Containers
// "Scoring Luxuries"; CLARIFICATIONS "Final scoring": choices maximise the total and are
// recorded). Card 0 (white $10, two-value green, red $6, blue $4, yellow $2), one white and one
// gold: gold as white discards both ($0); as green, red, blue or yellow it ties the white and
// is discarded itself (green as the two-value colour, the others as the cheaper one), leaving
// the white's $10. Green is the first of those four.
func TestLuxuryGoldAsRecordsTheFirstBestColour(t *testing.T) {
	r := ScoreIslandDetail(0, mustCounts(t, "wo"), true)
	if r.Value != 10 || r.GoldAs != Green || r.Discarded != Green || r.DiscardedCount != 1 {
		t.Errorf("got %+v, want $10 with the gold as green, discarded", r)
	}
	// Only golds: every colour scores $0, and white is the first.
	r = ScoreIslandDetail(3, mustCounts(t, "oo"), true)
	if r.Value != 0 || r.GoldAs != White || r.Discarded != White || r.DiscardedCount != 2 {
		t.Errorf("only golds: got %+v, want gold as white, both discarded", r)
	}
}

// TestHandBuiltStateWithGoldOnEveryIslandScoresTheGold: a State without a Game (built by hand)
// scores gold as soon as any island holds one, also when all five seats hold gold.
func TestHandBuiltStateWithGoldOnEveryIslandScoresTheGold(t *testing.T) {
	var players []Player
	for i := 0; i < MaxPlayers; i++ {
		players = append(players, Player{Card: 0, Island: mustCounts(t, "wo")})
	}
	got := scoresNoPanic(t, scoringState(players...))
	if len(got) != MaxPlayers {
		t.Fatalf("got %d scores, want %d", len(got), MaxPlayers)
	}
	for i, sc := range got {
		if sc.Island != 10 || sc.GoldAs != Green {
			t.Errorf("seat %d: %s, want island $10 with the gold as green", i, sc)
		}
	}
}

// TestOpenAuctionsOfSeatZeroAndLotOneAreWonAtGameEnd: open Bank auctions are won as usual at
// game end (CLARIFICATIONS "Bank auctions": bid paid, lot taken), also when the bidder is
// seat 0, the lot is lot I (index 0), or the Truck Company is seat 0's.
func TestOpenAuctionsOfSeatZeroAndLotOneAreWonAtGameEnd(t *testing.T) {
	t.Run("container lot I to seat 0", func(t *testing.T) {
		s := scoringState(Player{Cash: 4}, Player{}, Player{})
		s.Bank.ContainerLots[0] = mustCounts(t, "wwg")
		s.Auctions[ContainerLotAuction] = Auction{Active: true, Target: 0, Bidder: 0, Cash: 2}
		sc := scoresNoPanic(t, s)[0]
		if sc.Cash != 4 || sc.Leftover != 3*LeftoverShipValue {
			t.Errorf("seat 0: %s, want cash $4 and three containers in the holding area ($9)", sc)
		}
	})
	t.Run("cash lot I to seat 0", func(t *testing.T) {
		s := scoringState(Player{Cash: 4}, Player{}, Player{})
		s.Bank.CashLots = [BankLots]int32{5, 2, 3}
		s.Auctions[CashLotAuction] = Auction{Active: true, Target: 0, Bidder: 0, FromHarbor: mustCounts(t, "r")}
		sc := scoresNoPanic(t, s)[0]
		if sc.Cash != 9 || sc.Leftover != 0 {
			t.Errorf("seat 0: %s, want cash $9 (lot I's $5 added), no leftover (the red is paid)", sc)
		}
	})
	t.Run("seat 0's truck company to seat 1", func(t *testing.T) {
		s := scoringState(Player{}, Player{Cash: 1}, Player{})
		s.Companies[0].Pile = 7
		s.Companies[1].Pile = 100
		s.Auctions[TruckAuction] = Auction{Active: true, Target: 0, Bidder: 1, Cash: 3}
		got := scoresNoPanic(t, s)
		if got[1].Cash != 8 || got[0].Cash != 0 {
			t.Errorf("seat 1: %s, seat 0: %s; want seat 1 to collect seat 0's pile of $7", got[1], got[0])
		}
	})
	t.Run("seat 2's truck company to seat 0", func(t *testing.T) {
		s := scoringState(Player{Cash: 1}, Player{}, Player{})
		s.Companies[2].Pile = 6
		s.Auctions[TruckAuction] = Auction{Active: true, Target: 2, Bidder: 0, Cash: 3}
		if sc := scoresNoPanic(t, s)[0]; sc.Cash != 7 {
			t.Errorf("seat 0: %s, want cash $7 (the pile of $6 added)", sc)
		}
	})
}

// TestScoresSkipAnOpenAuctionOutOfRange: an open auction whose bidder, lot or company is not
// on the board (a corrupt hand-built state) is left out of the scores instead of crashing.
func TestScoresSkipAnOpenAuctionOutOfRange(t *testing.T) {
	for _, c := range []struct {
		kind   AuctionKind
		a      Auction
		reason string
	}{
		{ContainerLotAuction, Auction{Active: true, Target: 0, Bidder: MaxPlayers, Cash: 2}, "bidder 5"},
		{ContainerLotAuction, Auction{Active: true, Target: BankLots, Bidder: 1, Cash: 2}, "lot 3"},
		{CashLotAuction, Auction{Active: true, Target: BankLots, Bidder: 1, FromHarbor: Counts{1}}, "lot 3"},
		{TruckAuction, Auction{Active: true, Target: MaxPlayers, Bidder: 1, Cash: 2}, "company 5"},
	} {
		t.Run(fmt.Sprintf("%s %s", c.kind, c.reason), func(t *testing.T) {
			s := scoringState(Player{Cash: 1}, Player{Cash: 1}, Player{Cash: 1})
			s.Bank.ContainerLots = [BankLots]Counts{{1}, {1}, {1}}
			s.Bank.CashLots = [BankLots]int32{1, 2, 3}
			s.Auctions[c.kind] = c.a
			for i, sc := range scoresNoPanic(t, s) {
				if sc.Cash != 1 || sc.Leftover != 0 {
					t.Errorf("seat %d: %s, want only its own $1", i, sc)
				}
			}
		})
	}
}

// TestScoresIgnoreMachineContainersOfASeatOffTheBoard: containers the machine holds for a
// seat number past the last seat (a corrupt hand-built state) are not counted anywhere.
func TestScoresIgnoreMachineContainersOfASeatOffTheBoard(t *testing.T) {
	s := scoringState(Player{}, Player{}, Player{})
	s.machine.Returner = MaxPlayers
	s.machine.ReturnFactory = mustCounts(t, "ww")
	s.machine.ReturnHarbor = mustCounts(t, "g")
	for i, sc := range scoresNoPanic(t, s) {
		if sc.Leftover != 0 || sc.FactoryContainers != 0 {
			t.Errorf("seat %d: %s (factory %d), want nothing counted", i, sc, sc.FactoryContainers)
		}
	}
}

// TestScoresIntoReusesStorageWithRoomForEverySeat: a destination whose capacity is exactly
// the number of seats is reused, without allocating (search scores positions this way).
func TestScoresIntoReusesStorageWithRoomForEverySeat(t *testing.T) {
	s := scoringState(Player{Cash: 1}, Player{Cash: 2}, Player{Cash: 3})
	dst := make([]Score, 3)
	out := s.ScoresInto(dst)
	if len(out) != 3 || &out[0] != &dst[0] {
		t.Fatalf("ScoresInto with room for 3 seats did not reuse the storage (len %d)", len(out))
	}
	if out[2].Cash != 3 || out[2].Rank != 1 {
		t.Errorf("seat 2: %s, want cash $3, rank 1", out[2])
	}
	if allocs := testing.AllocsPerRun(50, func() { dst = s.ScoresInto(dst) }); allocs != 0 {
		t.Errorf("ScoresInto allocated %.0f times per call, want 0", allocs)
	}
}

// TestPlayerLoanIsRepaidFromIslandAndLeftoversToo: an open player loan is repaid from
// everything the borrower has scored so far, cash + island + leftovers (More Containers
// "Interest and Repayment"; the lender collects the full amount + $1).
func TestPlayerLoanIsRepaidFromIslandAndLeftoversToo(t *testing.T) {
	// Card 0: two whites are the most common and go; the red is worth $6. One container on
	// the ship: $3. Cash $2. So $11 is available for a loan costing $13 + $1.
	borrower := Player{Cash: 2, Card: 0, Island: mustCounts(t, "wwr"), Ship: mustCounts(t, "y"),
		NumLoans: 1, Loans: [MaxLoans]Loan{{Lender: 0, Amount: 13}, {Lender: -1}}}
	got := scoresNoPanic(t, scoringState(Player{}, borrower, Player{}))
	if got[1].Island != 6 || got[1].Leftover != 3 || got[1].Loans != -11 || got[1].Total != 0 {
		t.Errorf("borrower: %s, want island $6, leftover $3, loans -$11, total $0", got[1])
	}
	if got[0].Loans != 14 || got[0].Total != 14 {
		t.Errorf("lender: %s, want loans +$14", got[0])
	}
}

// TestScoresOfACorruptLoanRecord: a loan count past the two loan slots counts the two slots
// only, and a loan from a seat not in the game is charged like a Bank loan ($10 + $1), with
// no seat collecting it. Neither crashes.
func TestScoresOfACorruptLoanRecord(t *testing.T) {
	p := Player{Cash: 30, NumLoans: MaxLoans + 1, Loans: [MaxLoans]Loan{{Lender: -1, Amount: 10}, {Lender: -1, Amount: 10}}}
	if sc := scoresNoPanic(t, scoringState(p, Player{}, Player{}))[0]; sc.Loans != -22 || sc.Total != 8 {
		t.Errorf("3 loans recorded in 2 slots: %s, want loans -$22", sc)
	}
	// Three seats in use: seat 3 is not a lender.
	p = Player{Cash: 30, NumLoans: 1, Loans: [MaxLoans]Loan{{Lender: 3, Amount: 10}, {Lender: -1}}}
	got := scoresNoPanic(t, scoringState(p, Player{}, Player{}))
	if len(got) != 3 {
		t.Fatalf("got %d scores, want 3", len(got))
	}
	if got[0].Loans != -11 || got[0].Total != 19 {
		t.Errorf("loan from seat 3 of 3: %s, want loans -$11", got[0])
	}
	for i := 1; i < 3; i++ {
		if got[i].Loans != 0 {
			t.Errorf("seat %d collected %d for a loan it did not make", i, got[i].Loans)
		}
	}
}
