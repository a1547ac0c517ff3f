package bridge

import (
	"strings"
	"testing"
)

// wantRangeError fails unless err is an invalid-argument error whose message holds want.
func wantRangeError(t *testing.T, what string, err error, want string) {
	t.Helper()
	if Code(err) != CodeInvalid || !strings.Contains(OneLine(err), want) {
		t.Errorf("%s: %v (code %d), want an invalid-argument error saying %q", what, err, Code(err), want)
	}
}

// A bot asked about a game outside a vector env is told which games there are.
func TestBotActVecNamesTheVectorsGames(t *testing.T) {
	vh, _, _ := newTestVec(t, 3, 4)
	defer Free(vh)
	bh, err := NewBot("random", "", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer Free(bh)
	_, err = BotActVec(bh, vh, 3)
	wantRangeError(t, "game 3 of 3", err, "game 3; the vector env has games 0 to 2")
}

// SoloGameJSON describes games 0 to n-1, the first included, and refuses -1 and n naming
// the games there are.
func TestSoloGameJSONAcceptsExactlyTheSolosGames(t *testing.T) {
	h, _ := newTestSolo(t, 2, `{"players": 3}`, []string{"random", "random"}, -1, 1, 1)
	for i := range 2 {
		if s, err := SoloGameJSON(h, i); err != nil || !strings.Contains(s, `"episodes":0`) {
			t.Errorf("game %d: %q, %v", i, s, err)
		}
	}
	for _, i := range []int{-1, 2} {
		_, err := SoloGameJSON(h, i)
		wantRangeError(t, "SoloGameJSON", err, "the vector env has games 0 to 1")
	}
}

// An OpenSpiel call for a seat the game does not have names the seats there are.
func TestSpielSeatErrorsNameTheSeats(t *testing.T) {
	x := newSpielT(t, `{"players": 3}`)
	err := SpielObserve(x.h, 3, make([]float32, spielObsSize(t, `{"players": 3}`)))
	wantRangeError(t, "observe seat 3 of 3", err, "seat 3; the game has seats 0 to 2")
	_, err = SpielText(x.h, -1, TextObservation)
	wantRangeError(t, "text for seat -1", err, "seat -1; the game has seats 0 to 2")
}

// EnvObserve refuses a seat past the last one itself, naming the seats of the game.
func TestEnvObserveNamesTheSeats(t *testing.T) {
	h, b := newTestEnv(t, `{"players": 3}`)
	if err := EnvReset(h, 1, ""); err != nil {
		t.Fatal(err)
	}
	for _, seat := range []int{-1, 3} {
		err := EnvObserve(h, seat, make([]float32, len(b.Obs)), make([]int8, len(b.Mask)))
		wantRangeError(t, "EnvObserve", err, "the game has seats 0 to 2")
	}
}
