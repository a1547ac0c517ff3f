package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func smallEval(agents string) evalOptions {
	return evalOptions{tourneyOptions: tourneyOptions{gameFlags: gameFlags{variant: "base", length: "short", turnLimit: 150}, agents: agents, games: 8, seed: 3, workers: 2}}
}

func TestEval_TableNamesEveryAgentAndTheSeats(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, runEval(context.Background(), smallEval("valuer,shipper,manufacturer,random"), &out))
	s := out.String()
	for _, want := range []string{"8 games (4 players, base rules, short length", "valuer", "shipper", "manufacturer", "random",
		"95% CI", "win rate by turn order (1st: the first player, drawn at setup):  1st: ", "4th: ",
		"win rate by seat (who moves first is drawn at setup):  0: ", "game length", "game end"} {
		assert.Contains(t, s, want)
	}
	// The first player is drawn at setup: seat 0 is not it.
	assert.NotContains(t, s, "seat 0 moves first")
}

func TestEval_JSONIsTheSameWhateverTheWorkers(t *testing.T) {
	var outs [2]bytes.Buffer
	for i, w := range []int{1, 3} {
		o := smallEval("valuer,random")
		o.json, o.workers = true, w
		require.NoError(t, runEval(context.Background(), o, &outs[i]))
	}
	assert.Equal(t, outs[0].String(), outs[1].String())
	var got struct {
		Options rules.Options
		Summary struct {
			Games  int
			Agents []struct {
				Name  string
				Games int
				CiLo  float64 `json:"ci_lo"`
			}
		}
	}
	require.NoError(t, json.Unmarshal(outs[0].Bytes(), &got))
	assert.Equal(t, 8, got.Summary.Games)
	assert.Equal(t, 4, got.Options.Players, "two agents fill a default 4-player table")
	require.Len(t, got.Summary.Agents, 2)
	assert.Equal(t, 16, got.Summary.Agents[0].Games, "each agent fills two seats of every game")
	var order struct {
		Summary struct {
			TurnOrder []struct{ Wins float64 } `json:"turn_order"`
		}
	}
	require.NoError(t, json.Unmarshal(outs[0].Bytes(), &order))
	require.Len(t, order.Summary.TurnOrder, 4, "one win rate per turn position")
	total := 0.0
	for _, r := range order.Summary.TurnOrder {
		total += r.Wins
	}
	assert.InDelta(t, 8, total, 1e-9, "every game's win is someone's in turn order")
}

func TestEval_SaveWritesReplayableRecordsAndCSV(t *testing.T) {
	dir := t.TempDir()
	o := smallEval("valuer,shipper,manufacturer")
	o.games = 3
	o.save = filepath.Join(dir, "games")
	o.csv = filepath.Join(dir, "eval.csv")
	var out bytes.Buffer
	require.NoError(t, runEval(context.Background(), o, &out))
	files, err := filepath.Glob(filepath.Join(o.save, "game-*.json"))
	require.NoError(t, err)
	require.Len(t, files, 3)
	data, err := os.ReadFile(files[0])
	require.NoError(t, err)
	rec, st, err := rules.LoadRecord(data)
	require.NoError(t, err)
	assert.True(t, st.IsTerminal())
	assert.Equal(t, 3, rec.Options.Players)
	// Every record names the agents of its seats: each of the three once, seat by seat as
	// the game's rotation put them.
	valuerSeats := map[int]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		rec, _, err := rules.LoadRecord(data)
		require.NoError(t, err)
		assert.ElementsMatch(t, []string{"valuer", "shipper", "manufacturer"}, rec.Agents, f)
		valuerSeats[slices.Index(rec.Agents, "valuer")] = true
	}
	assert.Len(t, valuerSeats, 3, "three games rotate the valuer through the three seats")
	var rep bytes.Buffer
	require.NoError(t, runReplay(files[0], replayOptions{viewer: -1}, nil, &rep))
	assert.Regexp(t, `\nAgents: p1 \w+, p2 \w+, p3 \w+\n`, rep.String(), "replay names the agents")
	csv, err := os.ReadFile(o.csv)
	require.NoError(t, err)
	assert.Equal(t, 4, strings.Count(string(csv), "\n"), "header and three agents")
}

func TestEval_BadOptionsAreOneLineErrors(t *testing.T) {
	cases := map[string]func(*evalOptions){
		"no agents":       func(o *evalOptions) { o.agents = "" },
		"six agents":      func(o *evalOptions) { o.agents = "random,random,random,random,random,random" },
		"zero games":      func(o *evalOptions) { o.games = 0 },
		"bad rules":       func(o *evalOptions) { o.variant = "deluxe" },
		"bad length":      func(o *evalOptions) { o.length = "epic" },
		"bad module":      func(o *evalOptions) { o.modules = "pirates" },
		"two players":     func(o *evalOptions) { o.players = 2 },
		"negative worker": func(o *evalOptions) { o.workers = -1 },
		"negative batch":  func(o *evalOptions) { o.batch = -2 },
		"classic trucks":  func(o *evalOptions) { o.variant, o.modules = "classic", "trucks" },
	}
	for name, edit := range cases {
		o := smallEval("random")
		edit(&o)
		err := runEval(context.Background(), o, &bytes.Buffer{})
		if assert.Error(t, err, name) {
			assert.True(t, errors.Is(err, ErrEvalOptions), "%s: %v", name, err)
			assert.NotContains(t, err.Error(), "\n", name)
		}
	}
	err := runEval(context.Background(), smallEval("valuer,nobody"), &bytes.Buffer{})
	assert.ErrorContains(t, err, "nobody")
}

func TestEval_InterruptedRunPrintsTheGamesSoFar(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	err := runEval(ctx, smallEval("valuer,random"), &out)
	require.ErrorIs(t, err, ErrInterrupted, "an interrupted eval reports it (exit status 130)")
	assert.Contains(t, out.String(), "interrupted")
	assert.Contains(t, out.String(), "win rate", "the table of the games so far is printed")
}

func TestRate_RanksTheAgents(t *testing.T) {
	var out bytes.Buffer
	o := smallEval("valuer,random").tourneyOptions
	o.games = 12
	require.NoError(t, runRate(context.Background(), o, &out))
	s := out.String()
	assert.Contains(t, s, "ordinal")
	assert.Less(t, strings.Index(s, "valuer"), strings.Index(s, "random"), "valuer should rate above random:\n%s", s)
}

func TestBots_ListsTheScriptedBots(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, runBots(&out))
	for _, n := range []string{"random", "manufacturer", "shipper", "valuer", "default", ".bot"} {
		assert.Contains(t, out.String(), n)
	}
}

func TestEvalCommands_HaveExamples(t *testing.T) {
	root := NewRoot()
	for _, name := range []string{"eval", "rate", "bots"} {
		cmd, _, err := root.Find([]string{name})
		require.NoError(t, err, name)
		assert.Contains(t, cmd.Example, "container "+name, name)
	}
}

func TestEvalCommand_RunsFromTheCommandLine(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Main([]string{"eval", "--agents", "valuer,random", "--games", "2", "--length", "short", "--turn-limit", "100"}, nil, &out, &errOut)
	assert.Equal(t, 0, code, errOut.String())
	assert.Contains(t, out.String(), "valuer")
	code = Main([]string{"eval", "--agents", "valuer", "--games", "-1"}, nil, &out, &errOut)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut.String(), "--games -1")
}

// A rating ladder may name more agents than seats, ismcts specs with their commas among them.
func TestRate_LadderOfMoreAgentsThanSeatsWithIsmctsSpecs(t *testing.T) {
	var out bytes.Buffer
	o := smallEval("random,manufacturer,shipper,valuer,ismcts:sims=4,depth=4,rollout=random,random").tourneyOptions
	o.games, o.players, o.maxAgents = 6, 4, maxLadder
	require.NoError(t, runRate(context.Background(), o, &out))
	assert.Contains(t, out.String(), "ismcts:sims=4,depth=4,rollout=random")
	o.agents = strings.Repeat("random,", maxLadder+1)
	assert.ErrorContains(t, runRate(context.Background(), o, &out), "at most 16")
}

// A ladder says which schedule seated it (balanced by default, window on request), and a bad
// --schedule is one line naming the value, before any game is played.
func TestRate_ScheduleIsNamedAndABadOneRefused(t *testing.T) {
	for _, c := range []struct{ flag, want string }{{"", "seated by the balanced schedule"}, {"window", "seated by the window schedule"}} {
		args := []string{"rate", "--agents", "valuer,shipper,manufacturer,valuer,shipper", "--players", "3", "--games", "3",
			"--length", "short", "--workers", "1"}
		if c.flag != "" {
			args = append(args, "--schedule", c.flag)
		}
		var out, errOut bytes.Buffer
		code := Main(args, nil, &out, &errOut)
		assert.Equal(t, 0, code, errOut.String())
		assert.Contains(t, out.String(), "5 agents "+c.want)
	}
	var out, errOut bytes.Buffer
	code := Main([]string{"rate", "--agents", "valuer,shipper,manufacturer,valuer,shipper", "--players", "3", "--schedule", "spiral"}, nil, &out, &errOut)
	assert.Equal(t, 1, code)
	assert.Equal(t, 1, strings.Count(errOut.String(), "\n"), errOut.String())
	assert.Contains(t, errOut.String(), `--schedule "spiral"`)
	assert.Empty(t, out.String())
}

// --agents's help states the bound the command enforces: a ladder for rate, one agent per
// seat at most for eval.
func TestAgentsHelpStatesTheBound(t *testing.T) {
	for cmd, want := range map[string]string{"rate": "1 to 16;", "eval": "1 to 5;"} {
		var out, errb bytes.Buffer
		code := Main([]string{cmd, "--help"}, strings.NewReader(""), &out, &errb)
		require.Equal(t, 0, code, "%s --help: exit %d", cmd, code)
		for _, line := range strings.Split(out.String(), "\n") {
			if strings.Contains(line, "--agents string") {
				assert.Contains(t, line, want, "%s --help: %q, want %q", cmd, line, want)
			}
		}
	}
}

// The levels for players open the list, weakest first, one line each.
func TestBots_ListsTheLevelsFirstWeakestFirst(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, runBots(&out))
	lines := strings.Split(out.String(), "\n")
	for k, name := range []string{"easy", "medium", "hard", "expert"} {
		require.Greater(t, len(lines), k)
		assert.True(t, strings.HasPrefix(lines[k], name+" "), "line %d is %q, want the level %s", k, lines[k], name)
		n := 0
		for _, l := range lines {
			if strings.HasPrefix(l, name+" ") {
				n++
			}
		}
		assert.Equal(t, 1, n, "%s is listed once", name)
	}
}

// A level is accepted wherever an agent name is: here in a tournament, named by its level.
func TestEval_PlaysLevels(t *testing.T) {
	var out bytes.Buffer
	code := Main([]string{"eval", "--agents", "medium,easy", "--games", "2", "--length", "short"}, nil, &out, &out)
	require.Equal(t, 0, code, out.String())
	assert.Contains(t, out.String(), "medium")
	assert.Contains(t, out.String(), "easy")
}
