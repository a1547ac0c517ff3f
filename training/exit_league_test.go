package training

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/datasets"
)

// Over many games each league entry is drawn in proportion to its weight and the learner's
// seat uniformly, and a draw depends only on (seed, generation, game).
func TestLeagueDrawFollowsTheWeights(t *testing.T) {
	league := []LeagueEntry{{LeagueSelf, 0.5}, {LeaguePast, 0.25}, {"ismcts:sims=50,workers=1", 0.125}, {"ismcts:sims=200,workers=1", 0.125}}
	const n, players = 40000, 4
	entries, seats, pasts := make([]int, len(league)), make([]int, players), make([]int, 3)
	for i := range uint64(n) {
		d := drawLeague(league, 7, 3, i, players, 3)
		entries[d.Entry]++
		seats[d.Seat]++
		pasts[d.Past]++
		if drawLeague(league, 7, 3, i, players, 3) != d {
			t.Fatalf("game %d drew differently twice", i)
		}
	}
	for k, e := range league {
		want := e.Weight * n
		if math.Abs(float64(entries[k])-want) > 4*math.Sqrt(want) {
			t.Errorf("entry %s drawn %d times of %d, want about %.0f", e, entries[k], n, want)
		}
	}
	for s, c := range seats {
		if math.Abs(float64(c)-n/players) > 4*math.Sqrt(n/players) {
			t.Errorf("learner seat %d drawn %d times of %d, want about %d", s, c, n, n/players)
		}
	}
	for k, c := range pasts {
		if math.Abs(float64(c)-n/3) > 4*math.Sqrt(n/3) {
			t.Errorf("past network %d drawn %d times of %d, want about %d", k, c, n, n/3)
		}
	}
	same := 0
	for i := range uint64(200) {
		if drawLeague(league, 7, 3, i, players, 3) == drawLeague(league, 7, 4, i, players, 3) {
			same++
		}
	}
	if same > 100 {
		t.Errorf("generations 3 and 4 drew the same place for %d of 200 games", same)
	}
}

// The past networks are generation 0 and the promoted generations, the best left out.
func TestLeaguePastNetsAreTheFormerBestNetworks(t *testing.T) {
	row := func(g, promoted float64) []float64 {
		r := make([]float64, len(ExItMetricNames))
		r[0], r[22] = g, promoted
		return r
	}
	got := pastNets([][]float64{row(1, 0), row(2, 1), row(3, 0), row(4, 1)}, "nets/gen-000004.bot")
	want := []string{"nets/gen-000000.bot", "nets/gen-000002.bot"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("past networks %v, want %v", got, want)
	}
	if got := pastNets(nil, "nets/gen-000000.bot"); len(got) != 1 || got[0] != "nets/gen-000000.bot" {
		t.Errorf("past networks before any promotion %v, want the initial network", got)
	}
}

func TestParseLeagueEntryRefusesBadSpecsInOneLine(t *testing.T) {
	for _, s := range []string{"self", "self@", "self@x", "self@0", "self@-1", "self@NaN", "self@Inf", "@1", "nosuchbot@1", "ismcts:sims=0@1", "ismcts:bogus=1@1"} {
		_, err := ParseLeagueEntry(s)
		if !errors.Is(err, ErrConfig) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want a one-line ErrConfig", s, err)
		}
	}
	e, err := ParseLeagueEntry("ismcts:sims=50@0.125")
	if err != nil || !strings.HasPrefix(e.Opponent, "ismcts:sims=50,workers=1") || e.Weight != 0.125 {
		t.Errorf("ismcts:sims=50@0.125: %+v, %v; want the search with one worker, weight 0.125", e, err)
	}
	for _, league := range [][]LeagueEntry{
		{{LeagueSelf, 1}, {LeagueSelf, 2}},
		{{"random", 1}, {"random", 1}},
		{{LeagueBest, 0}},
	} {
		o := tinyExIt(t)
		o.League = league
		_, err := TrainExIt(context.Background(), o)
		if !errors.Is(err, ErrConfig) || strings.Contains(err.Error(), "\n") {
			t.Errorf("league %v: %v, want a one-line ErrConfig", league, err)
		}
		if ents, _ := os.ReadDir(o.Out); len(ents) != 0 {
			t.Errorf("league %v: a refused start left %d entries in the run directory", league, len(ents))
		}
	}
}

// In a league run the games table names each game's opponents (the best network, a past one,
// a bot), the learner's search plays one seat of those games, and only the learner's
// decisions are trained on; a resume with another league is refused.
func TestExItLeagueTrainsOnlyTheLearnersSeats(t *testing.T) {
	if testing.Short() {
		t.Skip("plays search games")
	}
	o := tinyExIt(t)
	o.Generations, o.GateEvery, o.Games, o.ShardGames = 1, 0, 8, 4
	o.League = []LeagueEntry{{LeagueSelf, 1}, {LeagueBest, 1}, {LeaguePast, 1}, {"random", 1}}
	res, err := TrainExIt(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(o.Out, "buffer", "gen-000001")
	ds, err := datasets.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	learner := ds.Manifest.Agents[0]
	opp := map[uint64]map[int]bool{}
	leagueGames := 0
	for g, err := range ds.Games() {
		if err != nil {
			t.Fatal(err)
		}
		seats := map[int]bool{}
		for s, a := range g.Agents {
			switch a {
			case learner:
			case "nets/gen-000000.bot", "random":
				seats[s] = true
			default:
				t.Fatalf("game %d seat %d played by %q", g.GameID, s, a)
			}
		}
		if len(seats) > 0 {
			leagueGames++
			if len(seats) != o.Rules.Players-1 {
				t.Fatalf("game %d: agents %v, want the learner in one seat", g.GameID, g.Agents)
			}
		}
		opp[g.GameID] = seats
	}
	if leagueGames == 0 || leagueGames == o.Games {
		t.Fatalf("%d of %d games had league opponents; want some", leagueGames, o.Games)
	}
	if got := res.Metrics[0][24]; got != float64(leagueGames) {
		t.Errorf("league_games %v, want %d", got, leagueGames)
	}
	if res.Metrics[0][25] <= 0 || res.Metrics[0][26] < 0 {
		t.Errorf("generation cost %v s wall, %v CPU-s", res.Metrics[0][25], res.Metrics[0][26])
	}
	// Count the learner's decisions with a choice by hand.
	want, all := int64(0), int64(0)
	for c, err := range ds.StepBatches() {
		if err != nil {
			t.Fatal(err)
		}
		for i := range c.Len() {
			if !choice(c.Mask.Value(i)) {
				continue
			}
			all++
			if !opp[c.GameID.Value(i)][int(c.Decider.Value(i))] {
				want++
			}
		}
	}
	w, _, err := WeightsFromRun(o.Out)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := loadExitRows(dir, w.Config.ObsDim, w.Config.NumActions, o.Rules.Players, 0)
	if err != nil {
		t.Fatal(err)
	}
	if int64(rows.Len()) != want || want == all || want == 0 {
		t.Errorf("trained on %d decisions; the learner made %d with a choice, all seats %d", rows.Len(), want, all)
	}
	if res.Metrics[0][7] != float64(want) {
		t.Errorf("window_rows %v, want the learner's %d", res.Metrics[0][7], want)
	}
	o2 := o
	o2.Generations, o2.League = 2, []LeagueEntry{{LeagueSelf, 1}, {LeagueBest, 2}, {LeaguePast, 1}, {"random", 1}}
	if _, err := TrainExIt(context.Background(), o2); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "league") {
		t.Errorf("resume with another league: %v, want ErrResumeMismatch naming the league", err)
	}
}

// A league run cancelled in the middle of a generation's self-play and resumed (with
// another worker count) plays the same games against the same opponents and ends with the
// same networks as an uninterrupted run.
func TestExItLeagueResumeAfterCancelMatchesUninterruptedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("plays search games")
	}
	league := func(t *testing.T) ExItOptions {
		o := tinyExIt(t)
		o.Games, o.ShardGames = 4, 2
		o.League = []LeagueEntry{{LeagueSelf, 1}, {LeaguePast, 1}, {LeagueBest, 1}, {"random", 1}}
		return o
	}
	straight := league(t)
	want, err := TrainExIt(context.Background(), straight)
	if err != nil {
		t.Fatal(err)
	}
	killed := league(t)
	killed.Workers = 1
	ctx, cancel := context.WithCancel(context.Background())
	killed.onGame = func(gen int64, games int) {
		if gen == 2 && games == 2 {
			cancel()
		}
	}
	if _, err := TrainExIt(ctx, killed); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v, want context.Canceled", err)
	}
	killed.onGame, killed.Workers = nil, 2
	got, err := TrainExIt(context.Background(), killed)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.Metrics {
		for c, name := range ExItMetricNames {
			if strings.HasSuffix(name, "seconds") {
				continue
			}
			if got.Metrics[i][c] != want.Metrics[i][c] {
				t.Fatalf("generation %d %s: resumed %v, uninterrupted %v", i+1, name, got.Metrics[i][c], want.Metrics[i][c])
			}
		}
	}
	for _, g := range []string{"gen-000001", "gen-000002"} {
		a, _ := os.ReadFile(filepath.Join(straight.Out, "nets", g+".bot"))
		b, _ := os.ReadFile(filepath.Join(killed.Out, "nets", g+".bot"))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Fatalf("nets/%s.bot differs between the resumed and the uninterrupted run", g)
		}
		if agentsOf(t, filepath.Join(straight.Out, "buffer", g)) != agentsOf(t, filepath.Join(killed.Out, "buffer", g)) {
			t.Fatalf("buffer %s: the games' agents differ between the resumed and the uninterrupted run", g)
		}
	}
}

// agentsOf lists every game's agents of a dataset, one game a line.
func agentsOf(t *testing.T, dir string) string {
	t.Helper()
	ds, err := datasets.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for g, err := range ds.Games() {
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(strings.Join(g.Agents, " ") + "\n")
	}
	return b.String()
}
