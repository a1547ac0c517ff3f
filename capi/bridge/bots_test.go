package bridge

import (
	"math/rand/v2"
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

func TestBotsAndTables(t *testing.T) {
	if _, err := NewBot("nosuchbot", "", 1); Code(err) != CodeUnknownBot {
		t.Errorf("unknown bot: %v", err)
	}
	if _, err := NewBot("valuer@0.5", "", 1); Code(err) != CodeInvalid {
		t.Errorf("temperature on a scripted bot: %v", err)
	}
	h, b := newTestEnv(t, `{"players": 3}`)
	_ = EnvReset(h, 2, "")
	bh, err := NewBot("valuer", `{"players": 3}`, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer Free(bh)
	for i := 0; i < 50 && b.Status[StAgent] >= 0; i++ {
		a, err := BotActEnv(bh, h)
		if err != nil {
			t.Fatal(err)
		}
		if b.Mask[a] != 1 {
			t.Fatalf("valuer chose illegal %d", a)
		}
		if err := EnvStep(h, a); err != nil {
			t.Fatal(err)
		}
	}
	b4, _ := NewBot("random", `{"players": 4}`, 1)
	defer Free(b4)
	if _, err := BotActEnv(b4, h); Code(err) != CodeInvalid {
		t.Errorf("a 4-player bot in a 3-player game: %v", err)
	}

	const n = 16
	vh, vb, s := newTestVec(t, n, 4)
	defer Free(vh)
	th, err := NewTable(vh, []string{"", "valuer", "shipper", "random"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer Free(th)
	actions := make([]int, n)
	isBot := make([]int8, n)
	rng := rand.New(rand.NewPCG(1, 3))
	seen := 0
	for step := 0; step < 200; step++ {
		for i := range actions {
			actions[i] = -7
		}
		if err := TableAct(th, actions, isBot); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			if (vb.Agents[i] != 0) != (isBot[i] == 1) {
				t.Fatalf("game %d: seat %d decides, is-bot %d", i, vb.Agents[i], isBot[i])
			}
			if isBot[i] == 0 {
				if actions[i] != -7 {
					t.Fatalf("game %d: the table wrote the caller's seat", i)
				}
				actions[i] = int(vb.Legal[i*s.Actions+rng.IntN(int(vb.NumLegal[i]))])
				seen++
			}
		}
		if err := VecStep(vh, actions); err != nil {
			t.Fatal(err)
		}
	}
	if seen == 0 {
		t.Error("seat 0 never decided")
	}
	if _, err := NewTable(vh, []string{"valuer"}, 1); Code(err) != CodeInvalid {
		t.Errorf("one spec for four seats: %v", err)
	}
}

// TestTableBatchBotDecidesLikeTheBotOneGameAtATime seats the trained bot (a BatchBot, one
// instance for all games) and checks that its batched actions through the table are the
// actions the same bot picks one game at a time (argmax play is deterministic).
func TestTableBatchBotDecidesLikeTheBotOneGameAtATime(t *testing.T) {
	const n = 6
	vh, vb, _ := newTestVec(t, n, 9)
	defer Free(vh)
	th, err := NewTable(vh, []string{"random", "default", "random", "random"}, 1)
	if err != nil {
		t.Skipf("no trained default bot: %v", err)
	}
	defer Free(th)
	bh, err := NewBot("default", "", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer Free(bh)
	actions := make([]int, n)
	isBot := make([]int8, n)
	compared := 0
	for step := 0; step < 40; step++ {
		if err := TableAct(th, actions, isBot); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			if isBot[i] != 1 {
				t.Fatalf("game %d: every seat is a bot, is-bot %d", i, isBot[i])
			}
			if vb.Agents[i] != 1 {
				continue
			}
			one, err := BotActVec(bh, vh, i)
			if err != nil {
				t.Fatal(err)
			}
			if one != actions[i] {
				t.Fatalf("step %d game %d: the table's batch chose %d, the bot alone %d", step, i, actions[i], one)
			}
			compared++
		}
		if err := VecStep(vh, actions); err != nil {
			t.Fatal(err)
		}
	}
	if compared == 0 {
		t.Fatal("the trained bot's seat never decided")
	}
}
