package bots

import "github.com/container-rl/container/env/rules"

// card is one final scoring card as the bots read it: the value of each normal colour, with
// the two-value colour marked by two (worth $10 with every colour on the island, else $5).
type card struct {
	value [rules.NumNormalColours]int
	two   rules.Colour
}

// cards are the five final scoring cards, read from the rules engine (Player.Card indexes them).
var cards [rules.NumScoringCards]card

func init() {
	for i := range cards {
		v, two, ok := rules.ScoringCardValues(i)
		if !ok {
			panic("bots: scoring card missing from the rules engine")
		}
		v[two] = 0
		cards[i] = card{value: v, two: two}
	}
}

// islandScore is what the scoring area isl is worth with scoring card c at final scoring
// (steps 1-2): gold counted as the best normal colour, the most common colour discarded
// (the two-value colour first when it ties), two-value containers $10 with all five colours.
// An unknown card (an opponent's) is valued with the mean of the five cards.
func islandScore(isl *rules.Counts, c uint8) int {
	if int(c) >= len(cards) {
		t := 0
		for k := range cards {
			t += islandScore(isl, uint8(k))
		}
		return t / len(cards)
	}
	var n [rules.NumNormalColours]int
	for i := range n {
		n[i] = int(isl[i])
	}
	gold := int(isl[rules.Gold])
	if gold == 0 {
		return scoreNormal(&n, &cards[c])
	}
	best := 0
	for g := range n {
		n[g] += gold
		if v := scoreNormal(&n, &cards[c]); v > best {
			best = v
		}
		n[g] -= gold
	}
	return best
}

func scoreNormal(n *[rules.NumNormalColours]int, cd *card) int {
	all, most := true, 0
	for _, k := range n {
		if k == 0 {
			all = false
		}
		if k > most {
			most = k
		}
	}
	if most == 0 {
		return 0
	}
	twoVal := 5
	if all {
		twoVal = 10
	}
	best := -1
	for d := range n {
		if n[d] != most || (n[cd.two] == most && rules.Colour(d) != cd.two) {
			continue
		}
		v := 0
		for c := range n {
			if c == d {
				continue
			}
			if rules.Colour(c) == cd.two {
				v += n[c] * twoVal
			} else {
				v += n[c] * cd.value[c]
			}
		}
		if v > best {
			best = v
		}
	}
	return best
}

// marginal is what adding add to the scoring area isl is worth with card c.
func marginal(isl, add *rules.Counts, c uint8) int {
	t := *isl
	t.Add(add)
	return islandScore(&t, c) - islandScore(isl, c)
}

// flatValue is the card's face value of one container of colour col, ignoring the discard
// (gold counts as the card's best colour; the two-value colour as $7).
func flatValue(col rules.Colour, c uint8) int {
	if int(c) >= len(cards) {
		return 5
	}
	if col == rules.Gold {
		return 10
	}
	if col == cards[c].two {
		return 7
	}
	return cards[c].value[col]
}
