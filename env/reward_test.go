package env

import (
	"slices"
	"testing"

	"github.com/container-rl/container/env/rules"
)

func totals(ts, factory []int, winners ...int) []rules.Score {
	sc := make([]rules.Score, len(ts))
	for i, t := range ts {
		sc[i] = rules.Score{Total: t, FactoryContainers: factory[i], Winner: slices.Contains(winners, i)}
	}
	return sc
}

// Rank rewards worked by hand: 1 - 2*pos/(n-1), ties on total broken by containers in the
// factory district, still-tied seats sharing the mean of their positions.
func TestRankRewardsHandComputed(t *testing.T) {
	for _, tc := range []struct {
		name    string
		scores  []rules.Score
		rewards []float32
	}{
		// Seat 1 first; seats 0 and 2 tied on both keys share positions 1 and 2 (mean 1.5 -> 0).
		{"shared-tie", totals([]int{50, 70, 50, 30}, []int{2, 0, 2, 5}, 1), []float32{0, 1, 0, -1}},
		// Equal totals, more factory containers first.
		{"factory-tiebreak", totals([]int{40, 40, 10}, []int{1, 3, 0}, 1), []float32{0, 1, -1}},
		// Two seats are measured against each other.
		{"two-seats", totals([]int{10, 20}, []int{0, 0}, 1), []float32{-1, 1}},
	} {
		dst := make([]float32, len(tc.scores))
		FinalRewards(Rank, 0, tc.scores, dst)
		if !slices.Equal(dst, tc.rewards) {
			t.Errorf("%s: rank rewards %v, want %v", tc.name, dst, tc.rewards)
		}
	}
}

// A lone seat has no opponents: rank and cash-margin rewards are 0, a win still counts 1.
// Two seats: the cash margin is the difference over the scale.
func TestRewardsOfOneAndTwoSeats(t *testing.T) {
	one := totals([]int{30}, []int{0}, 0)
	for scheme, want := range map[RewardScheme]float32{WinLoss: 1, Rank: 0, CashMargin: 0} {
		dst := []float32{7}
		FinalRewards(scheme, 0, one, dst)
		if dst[0] != want {
			t.Errorf("%s, one seat: reward %v, want %v", scheme, dst[0], want)
		}
	}
	dst := make([]float32, 2)
	FinalRewards(CashMargin, 0, totals([]int{60, 40}, []int{0, 0}, 0), dst)
	if !slices.Equal(dst, []float32{0.2, -0.2}) {
		t.Errorf("cash margin of two seats: %v, want [0.2 -0.2] (margin $20 over the default scale $100)", dst)
	}
}

// Every scheme has its name and an unknown one prints its number instead of panicking.
func TestRewardSchemeNames(t *testing.T) {
	for s, want := range map[RewardScheme]string{WinLoss: "win-loss", Rank: "rank", CashMargin: "cash-margin", numRewardSchemes: "reward(3)", 200: "reward(200)"} {
		if got := s.String(); got != want {
			t.Errorf("scheme %d: %q, want %q", uint8(s), got, want)
		}
		if s < numRewardSchemes {
			if p, err := ParseRewardScheme(want); err != nil || p != s {
				t.Errorf("ParseRewardScheme(%q) = %v, %v", want, p, err)
			}
		}
	}
}

// In float64 a reward is computed once, not rounded through float32: three tied winners get
// exactly 1/3 each (adding up to 1), rank positions of four seats exactly ±1/3.
func TestFinalRewardsInFloat64(t *testing.T) {
	dst := make([]float64, 4)
	FinalRewards(WinLoss, 0, totals([]int{50, 50, 50, 10}, []int{0, 0, 0, 0}, 0, 1, 2), dst)
	if want := []float64{1.0 / 3, 1.0 / 3, 1.0 / 3, 0}; !slices.Equal(dst, want) || dst[0]+dst[1]+dst[2]+dst[3] != 1 {
		t.Errorf("win-loss, three tied winners: %v (sum %v), want %v (sum 1)", dst, dst[0]+dst[1]+dst[2]+dst[3], want)
	}
	FinalRewards(Rank, 0, totals([]int{40, 30, 20, 10}, []int{0, 0, 0, 0}, 0), dst)
	if want := []float64{1, 1.0 / 3, -1.0 / 3, -1}; !slices.Equal(dst, want) {
		t.Errorf("rank, four seats: %v, want %v", dst, want)
	}
	f32 := make([]float32, 3)
	FinalRewards(WinLoss, 0, totals([]int{5, 5, 5}, []int{0, 0, 0}, 0, 1, 2), f32)
	if f32[0] != float32(1.0/3) {
		t.Errorf("win-loss in float32: %v, want float32(1/3)", f32[0])
	}
}
