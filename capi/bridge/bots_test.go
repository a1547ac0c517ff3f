package bridge

import (
	"testing"
)

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
