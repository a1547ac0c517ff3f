package bridge

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

var update = flag.Bool("update", false, "rewrite the recorded game python/tests/testdata/recorded-game.json")

// recordedGame is the golden game the Python tests replay: options, seed, and per decision
// the decider, a hash of its observation and legal list, and the action taken.
type recordedGame struct {
	About   string         `json:"about"`
	Options map[string]any `json:"options"`
	Seed    uint64         `json:"seed"`
	Steps   []recordedStep `json:"steps"`
	Returns []float32      `json:"returns"`
	Winner  []bool         `json:"winner"`
	Record  string         `json:"record_checksum"`
}

type recordedStep struct {
	Agent  int    `json:"agent"`
	Obs    string `json:"obs_sha256"`
	Legal  string `json:"legal_sha256"`
	Action int    `json:"action"`
}

func hashFloats(x []float32) string {
	b := make([]byte, 4*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:8])
}

func hashInts(x []int) string {
	parts := make([]string, len(x))
	for i, v := range x {
		parts[i] = fmt.Sprint(v)
	}
	s := sha256.Sum256([]byte(strings.Join(parts, ",")))
	return hex.EncodeToString(s[:8])
}

// playRecorded plays the golden game on env.Env directly (not through the bridge): three
// scripted bots, each deciding from its redacted view.
func playRecorded(t *testing.T) recordedGame {
	t.Helper()
	opts := map[string]any{"players": 3, "length": "short", "reward": "rank"}
	text, _ := json.Marshal(opts)
	o, err := ParseOptions(string(text), env.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	e, err := env.New(o)
	if err != nil {
		t.Fatal(err)
	}
	g := recordedGame{About: "regenerate: go test ./capi/bridge -run RecordedGame -update", Options: opts, Seed: 11}
	e.Reset(g.Seed)
	var players []bots.Bot
	for i, name := range []string{"valuer", "shipper", "manufacturer"} {
		b, err := bots.New(name, o.Rules, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, b)
	}
	var view rules.State
	for !e.Done() {
		legal := e.Legal()
		e.State().Redact(e.Agent(), &view)
		a := players[e.Agent()].Act(&view, legal)
		g.Steps = append(g.Steps, recordedStep{Agent: e.Agent(), Obs: hashFloats(e.Obs()), Legal: hashInts(legal), Action: a})
		if _, err := e.Step(a); err != nil {
			t.Fatal(err)
		}
	}
	g.Returns = slices.Clone(e.CumulativeRewards())
	for _, s := range e.State().Scores() {
		g.Winner = append(g.Winner, s.Winner)
	}
	g.Record = fmt.Sprintf("%016x", e.State().Hash())
	return g
}

// TestRecordedGameMatchesTheGoEnv pins the recorded game the Python determinism test
// replays: the file must equal what env.Env plays now (regenerate with -update after an
// intended engine or encoding change).
func TestRecordedGameMatchesTheGoEnv(t *testing.T) {
	path := filepath.Join("..", "..", "python", "tests", "testdata", "recorded-game.json")
	got, err := json.Marshal(playRecorded(t))
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(got) {
		t.Fatalf("%s differs from the game env.Env plays now; regenerate with -update if the change is intended", path)
	}
}

func TestParseOptionsNamesTheBadKey(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"playerz": 4}`, `unknown option "playerz"`},
		{`{"players": "four"}`, `option "players"`},
		{`{"players": 7}`, "players"},
		{`{"rules": "chess"}`, `unknown rules variant "chess"`},
		{`{"modules": "dragons"}`, `unknown module "dragons"`},
		{`{"reward": "gold"}`, `unknown reward scheme "gold"`},
		{`{"max_steps": -1}`, "max steps -1"},
		{`[1,2]`, "not a JSON object"},
		{`{"rules": "classic", "modules": "trucks"}`, "Truck Companies"},
		{`{"PLAYERS": 4}`, `unknown option "PLAYERS"`},
		{`{"Players": 4}`, `unknown option "Players"`},
		{`{"players": 5, "players": 3}`, `duplicate key "players"`},
		{`{"players": 3, "modules": "all", "modules": "none"}`, `duplicate key "modules"`},
	} {
		_, err := ParseOptions(c.text, env.DefaultOptions())
		if err == nil || !strings.Contains(err.Error(), c.want) || Code(err) != CodeInvalid {
			t.Errorf("%s: got %v (code %d); want an invalid-options error containing %q", c.text, err, Code(err), c.want)
		}
	}
	o, err := ParseOptions(`{"modules": "all", "reward": "rank", "dense": true, "players": 3, "max_steps": null}`, env.DefaultOptions())
	if err != nil || o.Rules.Players != 3 || o.Rules.Modules != rules.AllModules || o.Reward != env.Rank || !o.Dense {
		t.Errorf("valid options: %+v, %v", o, err)
	}
}

func TestEnvStepErrorsChangeNothing(t *testing.T) {
	h, b := newTestEnv(t, `{"players": 3}`)
	if err := EnvStep(h, 0); Code(err) != CodeEpisodeOver {
		t.Errorf("step before reset: %v (code %d)", err, Code(err))
	}
	if err := EnvReset(h, 3, ""); err != nil {
		t.Fatal(err)
	}
	obs := slices.Clone(b.Obs)
	st := slices.Clone(b.Status)
	illegal := -1
	for a := 0; a < len(b.Mask); a++ {
		if b.Mask[a] == 0 {
			illegal = a
			break
		}
	}
	for _, a := range []int{illegal, -5, 100000} {
		err := EnvStep(h, a)
		if Code(err) != CodeIllegal || !errors.Is(err, rules.ErrIllegalAction) {
			t.Errorf("action %d: %v (code %d); want an illegal-action error", a, err, Code(err))
		}
	}
	if !slices.Equal(obs, b.Obs) || !slices.Equal(st, b.Status) {
		t.Error("an illegal action changed the outputs")
	}
	if err := EnvReset(h, 3, `{"players": 4}`); Code(err) != CodeInvalid {
		t.Errorf("reset changing the players: %v", err)
	}
	if err := EnvReset(h, 3, `{"bogus": 1}`); Code(err) != CodeInvalid || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("reset with an unknown option: %v", err)
	}
	if err := EnvReset(h, 3, `{"reward": "rank", "max_steps": 5}`); err != nil {
		t.Errorf("reset changing the reward scheme: %v", err)
	}
	for i := 0; i < 5; i++ {
		if err := EnvStep(h, int(b.Legal[0])); err != nil {
			t.Fatal(err)
		}
	}
	if b.Status[StTruncated] != 1 || b.Status[StAgent] != -1 {
		t.Errorf("max_steps from reset options did not truncate: status %v", b.Status)
	}
	if err := EnvStep(h, 0); Code(err) != CodeEpisodeOver || !errors.Is(err, env.ErrEpisodeOver) {
		t.Errorf("step after the end: %v", err)
	}
}

// TestSinceIsPettingZoosCumulativeReward: Since[seat] is the reward a seat collected since it
// last acted, and the per-step rewards add up to the episode totals.
func TestSinceIsPettingZoosCumulativeReward(t *testing.T) {
	h, b := newTestEnv(t, `{"players": 4, "dense": true, "reward": "cash-margin"}`)
	if err := EnvReset(h, 8, ""); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	since := make([]float64, 4)
	total := make([]float64, 4)
	for b.Status[StAgent] >= 0 {
		seat := b.Status[StAgent]
		since[seat] = 0
		if err := EnvStep(h, int(b.Legal[rng.IntN(int(b.Status[StNumLegal]))])); err != nil {
			t.Fatal(err)
		}
		for i, r := range b.Rewards {
			since[i] += float64(r)
			total[i] += float64(r)
		}
		for i := range since {
			if math.Abs(since[i]-float64(b.Since[i])) > 1e-3 || math.Abs(total[i]-float64(b.Total[i])) > 1e-3 {
				t.Fatalf("step %d seat %d: since %g/%g total %g/%g", b.Status[StSteps], i, b.Since[i], since[i], b.Total[i], total[i])
			}
		}
	}
}

func TestGuardTurnsAPanicIntoAnError(t *testing.T) {
	err := Guard(func() error {
		var s []int
		_ = s[3]
		return nil
	})
	if Code(err) != CodeInternal || !strings.Contains(err.Error(), "index out of range") {
		t.Errorf("got %v (code %d)", err, Code(err))
	}
	if strings.Contains(OneLine(err), "\n") {
		t.Error("the message spans lines")
	}
}

func TestHandlesAreCheckedAndFreedOnce(t *testing.T) {
	before := Open()
	h, _ := newTestEnv(t, "")
	if err := Free(h); err != nil {
		t.Fatal(err)
	}
	if err := Free(h); Code(err) != CodeHandle {
		t.Errorf("double free: %v", err)
	}
	if err := EnvStep(h, 0); Code(err) != CodeHandle {
		t.Errorf("step on a freed env: %v", err)
	}
	bh, err := NewBot("random", "", 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := EnvStep(bh, 0); Code(err) != CodeHandle {
		t.Errorf("a bot handle used as an env: %v", err)
	}
	_ = Free(bh)
	if Open() != before {
		t.Errorf("%d handles open, want %d", Open(), before)
	}
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

func TestScoreAndObservePositions(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "env", "rules", "testdata", "positions", "rulebook-final-scoring.json"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := ScoreJSON(string(data))
	if err != nil {
		t.Fatal(err)
	}
	var scores []rules.Score
	if err := json.Unmarshal([]byte(out), &scores); err != nil || len(scores) != 3 {
		t.Fatalf("%s: %v", out, err)
	}
	// The rulebook's final-scoring example (reference-game-end-and-scoring.txt): Orange $55,
	// Purple $62, Blue $71.
	got := []int{scores[0].Total, scores[1].Total, scores[2].Total}
	if !slices.Equal(got, []int{55, 62, 71}) {
		t.Errorf("totals %v, want [55 62 71]", got)
	}
	if _, err := ScoreJSON(`{"format": "container-position/1", "options": {"players": 9}}`); Code(err) != CodeInvalid {
		t.Errorf("bad position: %v", err)
	}
	if _, err := WriteString("hello", make([]byte, 3)); Code(err) != CodeBufferSmall {
		t.Errorf("small buffer: %v", err)
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

// newTestVec makes a vector env of n default games from seed (2 workers) with its buffers.
func newTestVec(t *testing.T, n int, seed uint64) (int64, env.VecBuffers, Sizes) {
	t.Helper()
	s, _ := VecSizes(n, "")
	vb := env.VecBuffers{Obs: make([]float32, n*s.Obs), Mask: make([]float32, n*s.Actions), Rewards: make([]float32, n*s.Players),
		Agents: make([]int, n), Terminated: make([]bool, n), Truncated: make([]bool, n), Legal: make([]int32, n*s.Actions),
		NumLegal: make([]int32, n), Mask8: make([]int8, n*s.Actions)}
	vh, err := NewVec(n, "", seed, 2, vb)
	if err != nil {
		t.Fatal(err)
	}
	return vh, vb, s
}
