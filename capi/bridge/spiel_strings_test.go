package bridge

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// At a chance node every outcome has probability 1/n; at a seat's decision SpielStatus
// leaves the probabilities alone.
func TestSpielChanceOutcomesAreEquallyLikely(t *testing.T) {
	x := newSpielT(t, `{"players": 3}`)
	for {
		clear(x.probs)
		p, acts := x.status()
		if p != SpielChance {
			break
		}
		sum := 0.0
		for i := range acts {
			if want := 1 / float64(len(acts)); x.probs[i] != want {
				t.Fatalf("outcome %d of %d has probability %v, want %v", acts[i], len(acts), x.probs[i], want)
			}
			sum += x.probs[i]
		}
		if sum < 1-1e-9 || sum > 1+1e-9 {
			t.Fatalf("the %d outcomes' probabilities add up to %v", len(acts), sum)
		}
		x.apply(acts[len(acts)-1])
	}
	for i := range x.probs {
		x.probs[i] = 7
	}
	if p, _ := x.status(); p < 0 {
		t.Fatalf("player %d after the setup, want a seat", p)
	}
	if slices.ContainsFunc(x.probs, func(v float64) bool { return v != 7 }) {
		t.Fatal("a seat's decision wrote chance probabilities")
	}
}

// spielSetupTo makes a 3-player state and applies the draws: the three Bank containers, the
// factories, then the scoring cards 2, 0 and 4 of seats 0, 1 and 2 (the first player is left
// to draw).
func spielSetupTo(t *testing.T) *spielT {
	t.Helper()
	x := newSpielT(t, `{"players": 3}`)
	for _, d := range []int{0, 1, 2, 0, 1, 2, 2, 0, 4} {
		x.apply(d)
	}
	return x
}

// During the setup the full string shows every draw, while a seat's information state shows
// its own card and a "?" for every other seat's, seat 0's included; a card draw names the
// card by the number the board and positions give it (0 to 4).
func TestSpielSetupStringsShowEachSeatItsOwnCard(t *testing.T) {
	x := spielSetupTo(t)
	full := x.text(0, TextFull)
	for _, want := range []string{"p1 scoring card: card 2", "p2 scoring card: card 0", "p3 scoring card: card 4"} {
		if !strings.Contains(full, want) {
			t.Errorf("full setup string lacks %q:\n%s", want, full)
		}
	}
	if strings.Contains(full, "?") {
		t.Errorf("the full setup string hides a draw:\n%s", full)
	}
	for seat, want := range map[int][]string{
		0: {"p1 scoring card: card 2", "p2 scoring card: ?", "p3 scoring card: ?"},
		1: {"p1 scoring card: ?", "p2 scoring card: card 0", "p3 scoring card: ?"},
		2: {"p1 scoring card: ?", "p2 scoring card: ?", "p3 scoring card: card 4"},
	} {
		info := x.text(seat, TextInfoState)
		for _, w := range want {
			if !strings.Contains(info, w) {
				t.Errorf("seat %d's setup information state lacks %q:\n%s", seat, w, info)
			}
		}
	}
	y := newSpielT(t, `{"players": 3}`)
	for _, d := range []int{0, 1, 2, 0, 1, 2} {
		y.apply(d)
	}
	for card := range rules.NumScoringCards {
		got, err := SpielActionText(y.h, card)
		if want := "p1 scoring card: card " + string(rune('0'+card)); err != nil || got != want {
			t.Errorf("card outcome %d: %q, %v; want %q", card, got, err, want)
		}
	}
	// The board, once the setup is done, names seat 0's card as the setup did.
	x.apply(0)
	if board := x.text(0, TextObservation); !strings.Contains(board, "card 2 (") {
		t.Errorf("seat 0's board does not show card 2:\n%s", board)
	}
}

// After the setup the observation string is the board from the seat's view, the information
// state the seat's redacted position as compact JSON, and the full string the omniscient
// board (rules.State.Render(-1)).
func TestSpielStringsAfterTheSetupAreTheBoardAndTheView(t *testing.T) {
	x := spielSetupTo(t)
	x.apply(1)
	s, err := rules.LoadPosition([]byte(x.text(0, TextPosition)))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := x.text(0, TextFull), s.Render(-1); got != want {
		t.Errorf("full string:\n%s\nwant the omniscient board:\n%s", got, want)
	}
	for seat := range 3 {
		if got, want := x.text(seat, TextObservation), s.Render(seat); got != want {
			t.Errorf("seat %d's observation string:\n%s\nwant its board:\n%s", seat, got, want)
		}
		var view rules.State
		s.Redact(seat, &view)
		pos, err := view.MarshalPosition()
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := json.Compact(&want, pos); err != nil {
			t.Fatal(err)
		}
		if got := x.text(seat, TextInfoState); got != want.String() {
			t.Errorf("seat %d's information state:\n%s\nwant its redacted position:\n%s", seat, got, want.String())
		}
	}
}
