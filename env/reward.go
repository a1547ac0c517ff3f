package env

import (
	"fmt"
	"strings"

	"github.com/container-rl/container/env/rules"
)

// RewardScheme says how final scores become rewards. Rewards are sparse: every seat gets its
// reward on the step that ends the game, and zero on every other step.
type RewardScheme uint8

const (
	// WinLoss gives +1 to the winner; tied winners split it (+1/k each); everyone else gets 0.
	// The rewards of a game sum to 1.
	WinLoss RewardScheme = iota
	// Rank gives 1 - 2*pos/(n-1) for finishing position pos (0 = first, n-1 = last), so +1
	// for the winner and -1 for the last; players tied on the ranking key (total, then
	// containers in the factory district) share the mean of their positions. The rewards of a
	// game sum to 0 and lie in [-1, 1].
	Rank
	// CashMargin gives (total - mean of the opponents' totals) / Options.MarginScale. The
	// rewards of a game sum to 0.
	CashMargin
	numRewardSchemes
)

var rewardNames = [numRewardSchemes]string{"win-loss", "rank", "cash-margin"}

func (r RewardScheme) String() string {
	if r < numRewardSchemes {
		return rewardNames[r]
	}
	return fmt.Sprintf("reward(%d)", uint8(r))
}

// ParseRewardScheme reads "win-loss", "rank" or "cash-margin".
func ParseRewardScheme(s string) (RewardScheme, error) {
	for i, n := range rewardNames {
		if strings.EqualFold(s, n) {
			return RewardScheme(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown reward scheme %s (want win-loss, rank or cash-margin)", ErrInvalidOptions, rules.Quote(s))
}

// RewardSum is what the final rewards of one game add up to under the scheme.
func (r RewardScheme) RewardSum() float64 {
	if r == WinLoss {
		return 1
	}
	return 0
}

// FinalRewards writes each seat's final reward under the scheme into dst (length
// len(scores)). marginScale is the CashMargin divisor in dollars (0 means 100). Each value
// is computed in float64 and rounded once to F: float64 callers (OpenSpiel's returns) get
// 1/3 for each of three tied winners, which add up to exactly 1.
func FinalRewards[F float32 | float64](scheme RewardScheme, marginScale float64, scores []rules.Score, dst []F) {
	n := len(scores)
	if n < 2 && scheme != WinLoss {
		clear(dst[:n]) // a lone seat has no opponents to be measured against
		return
	}
	switch scheme {
	case WinLoss:
		winners := 0
		for i := range scores {
			if scores[i].Winner {
				winners++
			}
		}
		for i := range scores {
			dst[i] = 0
			if scores[i].Winner {
				dst[i] = F(1 / float64(winners))
			}
		}
	case Rank:
		for i := range scores {
			better, equal := 0, 0
			for j := range scores {
				switch c := compareScores(&scores[j], &scores[i]); {
				case c > 0:
					better++
				case c == 0 && j != i:
					equal++
				}
			}
			pos := float64(better) + float64(equal)/2 // mean of the tied positions
			// 1 - 2*pos/(n-1) as one division of exact integers: exactly ±1/3 where due.
			dst[i] = F((float64(n-1) - 2*pos) / float64(n-1))
		}
	case CashMargin:
		if marginScale <= 0 {
			marginScale = DefaultMarginScale
		}
		sum := 0
		for i := range scores {
			sum += scores[i].Total
		}
		for i := range scores {
			mean := float64(sum-scores[i].Total) / float64(n-1)
			dst[i] = F((float64(scores[i].Total) - mean) / marginScale)
		}
	}
}

// compareScores orders by the winning key: total, then containers in the factory district.
func compareScores(a, b *rules.Score) int {
	switch {
	case a.Total != b.Total:
		if a.Total > b.Total {
			return 1
		}
		return -1
	case a.FactoryContainers != b.FactoryContainers:
		if a.FactoryContainers > b.FactoryContainers {
			return 1
		}
		return -1
	}
	return 0
}
