package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/datasets/selfplay"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/play"
	"github.com/container-rl/container/env/rules"
)

// TestReplayAnswersAgreeWithTheRecord opens a finished record and checks the replay's log
// (turn, seat and phase of every move, when each sealed bid is revealed, where turns start)
// and every step's turn, decider, phase and prompt, for the whole game and for a seat,
// against the record replayed here.
func TestReplayAnswersAgreeWithTheRecord(t *testing.T) {
	data := t.TempDir()
	rec := writeRecord(t, filepath.Join(data, "g.json"), 4, 9)
	c := newTestServer(t, Config{DataDir: data})
	var info ReplayInfo
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "g.json"}, &info)
	type at struct {
		turn   int32
		phase  rules.Phase
		seat   int
		prompt [2]string // the prompt for the whole game and for seat 1
		words  string    // the words of the move made here, for the whole game
		sealed string    // what the other seats read of it while it is a sealed bid
	}
	var states []at
	record := func(s *rules.State) {
		a := at{turn: s.Turn, phase: rules.PhaseTerminal, seat: -1}
		if !s.IsTerminal() {
			d := s.Decision()
			a.phase, a.seat = d.Phase, d.Decider
			c := play.ContextAt(s)
			a.prompt = [2]string{play.Words{Viewer: -1}.Ask(c), play.Words{Viewer: 1}.Ask(c)}
		}
		states = append(states, a)
	}
	final, err := rec.Replay(func(_ int, s *rules.State, m rules.Move) {
		record(s)
		c := play.ContextAt(s)
		states[len(states)-1].words = play.Words{Viewer: -1}.Move(c, m)
		states[len(states)-1].sealed = play.Words{Viewer: -1}.SealedMove(c)
	})
	if err != nil {
		t.Fatal(err)
	}
	record(final)
	if len(info.Log) != len(rec.Moves) {
		t.Fatalf("%d log lines for %d moves", len(info.Log), len(rec.Moves))
	}
	sealed := 0
	var starts []int
	for i, l := range info.Log {
		a := states[i]
		if i == 0 || states[i-1].turn != a.turn {
			starts = append(starts, i)
		}
		if l.Step != i || l.Turn != int(a.turn)+1 || l.Seat != a.seat || l.Phase != a.phase.String() || l.Text != rec.Moves[i].String() || l.Words != a.words {
			t.Fatalf("line %d %+v; the record: turn %d, seat %d, phase %s, move %s", i, l, a.turn, a.seat, a.phase, rec.Moves[i])
		}
		if !play.SealedPhase(a.phase) || rec.Moves[i].Kind != rules.Amount {
			if l.Reveal != i+1 || l.Sealed != "" {
				t.Fatalf("line %d (not a sealed bid) revealed at %d, sealed words %q", i, l.Reveal, l.Sealed)
			}
			continue
		}
		sealed++
		// Revealed at the first later decision that is not part of the bid's round.
		want := len(rec.Moves)
		for k := i + 1; k < len(rec.Moves); k++ {
			if !play.StillSealed(a.phase, states[k].phase) {
				want = k
				break
			}
		}
		if l.Reveal != want || l.Sealed != a.sealed {
			t.Fatalf("sealed bid at %d revealed at %d, want %d (sealed words %q)", i, l.Reveal, want, l.Sealed)
		}
	}
	if sealed == 0 {
		t.Fatal("no sealed bid in the game: the reveal steps went unchecked")
	}
	if fmt.Sprint(starts) != fmt.Sprint(info.TurnStarts) {
		t.Fatalf("turn starts %v, want %v", info.TurnStarts, starts)
	}
	for n := 0; n <= len(rec.Moves); n++ {
		for k, viewer := range []int{-1, 1, 0} {
			var step ReplayStep
			c.ok("GET", fmt.Sprintf("/api/replays/%s/step/%d?viewer=%d", info.ID, n, viewer), info.Token, nil, &step)
			a := states[n]
			want := ReplayStep{Step: n, Viewer: viewer, Turn: int(a.turn) + 1, Phase: a.phase.String(), Decider: a.seat, Prompt: a.prompt[min(k, 1)], SVG: step.SVG}
			if viewer == 0 && n%9 == 0 {
				// Seat 0's board is its own view of the position (a seat the prompt check above
				// does not cover: the first seat).
				s := positionAfter(t, rec, n)
				v := s.Clone()
				s.Redact(0, v)
				want.SVG = BoardSVG(v, 0, info.Names, nil)
			}
			if a.phase == rules.PhaseTerminal {
				want.Phase = "game over"
			}
			if viewer == 0 {
				want.Prompt = step.Prompt // seat 0's words are seat 0's, checked for seat 1 above
			}
			if step != want {
				step.SVG, want.SVG = "", ""
				t.Fatalf("step %d viewer %d:\n got %+v\nwant %+v", n, viewer, step, want)
			}
		}
	}
	// A finished record is shown whole by default; the refusals name the ranges.
	var step ReplayStep
	c.ok("GET", fmt.Sprintf("/api/replays/%s/step/3", info.ID), info.Token, nil, &step)
	if step.Viewer != -1 {
		t.Errorf("default viewer of a finished record: %d, want -1", step.Viewer)
	}
	m := len(rec.Moves)
	for path, want := range map[string]string{
		fmt.Sprintf("step/%d", m+1): fmt.Sprintf("step %d is outside 0..%d", m+1, m),
		"step/-1":                   fmt.Sprintf("step -1 is outside 0..%d", m),
		"step/2?viewer=4":           "viewer 4 is not a seat of this game (0..3, or -1 for the whole game)",
		"step/2?viewer=-2":          "viewer -2 is not a seat of this game (0..3, or -1 for the whole game)",
	} {
		if got := c.wantStatus(400, "GET", "/api/replays/"+info.ID+"/"+path, info.Token, nil); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
}

// positionAfter replays the first n moves of rec.
func positionAfter(t *testing.T, rec *rules.Record, n int) *rules.State {
	t.Helper()
	cut := *rec
	cut.Moves = rec.Moves[:n]
	s, err := cut.Replay(nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReplayStepsOfARecordOfWholeSnapshots checks the steps of a record whose length is a
// multiple of the snapshot interval (the last snapshot is its final position) against the
// positions replayed here.
func TestReplayStepsOfARecordOfWholeSnapshots(t *testing.T) {
	data := t.TempDir()
	full := writeRecord(t, "", 4, 5)
	cut := positionAfter(t, full, 2*snapshotEvery)
	b, err := rules.NewRecord(cut, full.Seed).MarshalRecord()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "cut.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	c := newTestServer(t, Config{DataDir: data})
	var info ReplayInfo
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "cut.json"}, &info)
	if info.Moves != 2*snapshotEvery {
		t.Fatalf("%d moves", info.Moves)
	}
	for n := 0; n <= info.Moves; n += 5 {
		s := positionAfter(t, full, n)
		v := s.Clone()
		s.Redact(3, v)
		var step ReplayStep
		c.ok("GET", fmt.Sprintf("/api/replays/%s/step/%d?viewer=3", info.ID, n), info.Token, nil, &step)
		if step.SVG != BoardSVG(v, 3, info.Names, nil) {
			t.Fatalf("step %d: the board differs from the position replayed here", n)
		}
	}
}

// TestReplayRecord opens a record, checks every step's board against the position replayed
// independently, and the viewer rules (a seat's view; the whole game for finished games).
func TestReplayRecord(t *testing.T) {
	data := t.TempDir()
	rec := writeRecord(t, filepath.Join(data, "g.json"), 4, 6)
	// A cut-short record: the first 50 moves.
	short := *rec
	short.Moves = rec.Moves[:50]
	st, err := short.Replay(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := rules.NewRecord(st, rec.Seed).MarshalRecord()
	if err := os.WriteFile(filepath.Join(data, "short.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	bin, err := rec.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "g.ctnr"), bin, 0o644); err != nil {
		t.Fatal(err)
	}
	c := newTestServer(t, Config{DataDir: data})
	var info ReplayInfo
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "g.json"}, &info)
	if !info.Finished || info.Moves != len(rec.Moves) || len(info.Log) != len(rec.Moves) || info.TurnStarts[0] != 0 {
		t.Fatalf("info: finished %v, %d moves, %d log lines", info.Finished, info.Moves, len(info.Log))
	}
	var binInfo ReplayInfo
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "g.ctnr"}, &binInfo)
	if binInfo.Moves != info.Moves {
		t.Fatal("binary record differs")
	}
	// Boards: replayed independently, step by step, for the whole game and for seat 2.
	i := 0
	_, err = rec.Replay(func(n int, s *rules.State, m rules.Move) {
		if n%7 != 0 {
			return
		}
		var step ReplayStep
		c.ok("GET", fmt.Sprintf("/api/replays/%s/step/%d?viewer=-1", info.ID, n), info.Token, nil, &step)
		if step.SVG != BoardSVG(s, -1, info.Names, nil) {
			t.Fatalf("step %d: board differs from the replayed position", n)
		}
		v := s.Clone()
		s.Redact(2, v)
		c.ok("GET", fmt.Sprintf("/api/replays/%s/step/%d?viewer=2", info.ID, n), info.Token, nil, &step)
		if step.SVG != BoardSVG(v, 2, info.Names, nil) {
			t.Fatalf("step %d: seat view differs", n)
		}
		i++
	})
	if err != nil || i == 0 {
		t.Fatal(err)
	}
	var last ReplayStep
	c.ok("GET", fmt.Sprintf("/api/replays/%s/step/%d", info.ID, info.Moves), info.Token, nil, &last)
	if last.Phase != "game over" || len(info.Scores) != 4 {
		t.Fatalf("last step: %s, %d scores", last.Phase, len(info.Scores))
	}
	c.wantStatus(400, "GET", fmt.Sprintf("/api/replays/%s/step/%d", info.ID, info.Moves+1), info.Token, nil)
	c.wantStatus(400, "GET", fmt.Sprintf("/api/replays/%s/step/x", info.ID), info.Token, nil)
	c.wantStatus(400, "GET", fmt.Sprintf("/api/replays/%s/step/1?viewer=7", info.ID), info.Token, nil)
	c.wantStatus(401, "GET", fmt.Sprintf("/api/replays/%s/step/1", info.ID), "", nil)
	// An unfinished record: seat views only.
	var sh ReplayInfo
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "short.json"}, &sh)
	if sh.Finished || sh.Moves != 50 {
		t.Fatalf("short record: finished %v, %d moves", sh.Finished, sh.Moves)
	}
	c.wantStatus(403, "GET", fmt.Sprintf("/api/replays/%s/step/3?viewer=-1", sh.ID), sh.Token, nil)
	c.ok("GET", fmt.Sprintf("/api/replays/%s/step/3", sh.ID), sh.Token, nil, &last)
	if last.Viewer != 0 {
		t.Fatalf("default viewer of an unfinished record is %d, want seat 0", last.Viewer)
	}
	// Upload.
	raw, _ := os.ReadFile(filepath.Join(data, "g.json"))
	var up ReplayInfo
	c.ok("POST", "/api/replays", "", fmt.Sprintf(`{"record": %s}`, raw), &up)
	if up.Moves != info.Moves {
		t.Fatal("uploaded record differs")
	}
	// Ask: the whole game of a finished record, or the deciding seat only.
	var a AskAnswer
	c.ok("POST", "/api/replays/"+info.ID+"/ask", info.Token, AskRequest{Bot: "valuer", Step: 10, Viewer: -1}, &a)
	if a.Move == "" || a.Seat != info.Log[10].Seat {
		t.Fatalf("ask: %+v", a)
	}
	other := (info.Log[10].Seat + 1) % 4
	c.wantStatus(403, "POST", "/api/replays/"+info.ID+"/ask", info.Token, AskRequest{Bot: "valuer", Step: 10, Viewer: other})
	c.ok("POST", "/api/replays/"+info.ID+"/ask", info.Token, AskRequest{Bot: "valuer", Step: 10, Viewer: info.Log[10].Seat}, &a)
	c.wantStatus(409, "POST", "/api/replays/"+info.ID+"/ask", info.Token, AskRequest{Bot: "valuer", Step: info.Moves, Viewer: -1})
}

// TestReplayLogReveal checks a sealed bid's reveal step: after the step it was made at and no
// later than the first decision of another phase.
func TestReplayLogReveal(t *testing.T) {
	rec := writeRecord(t, "", 3, 12)
	x, err := newReplay(rec, nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	bids := 0
	for i, l := range x.info.Log {
		if !play.SealedPhase(phaseOf(l.Phase)) {
			if l.Reveal != i+1 {
				t.Fatalf("move %d (%s) is revealed at %d", i, l.Phase, l.Reveal)
			}
			continue
		}
		bids++
		if l.Reveal <= i {
			t.Fatalf("bid %d revealed at %d", i, l.Reveal)
		}
		for k := i + 1; k < l.Reveal; k++ {
			if !play.StillSealed(phaseOf(l.Phase), phaseOf(x.info.Log[k].Phase)) {
				t.Fatalf("bid %d still hidden at step %d (%s)", i, k, x.info.Log[k].Phase)
			}
		}
	}
	if bids == 0 {
		t.Skip("no sealed bids in this game")
	}
}

// TestReplayDatasetGame writes a small dataset and opens one of its games: the rebuilt game
// ends with the scores of the games table.
func TestReplayDatasetGame(t *testing.T) {
	for _, f := range []datasets.Format{datasets.Parquet, datasets.Arrow} {
		t.Run(string(f), func(t *testing.T) { testReplayDatasetGame(t, f) })
	}
}

func testReplayDatasetGame(t *testing.T, f datasets.Format) {
	data := t.TempDir()
	o := env.DefaultOptions()
	o.Rules.Players = 3
	_, err := selfplay.Run(context.Background(), selfplay.Config{Agents: []string{"valuer", "shipper", "random"}, Env: o, Games: 5, Seed: 3,
		Out: filepath.Join(data, "ds"), Workers: 1, GamesPerShard: 2, Write: datasets.WriteOptions{Format: f}, ToolVersion: "test"})
	if err != nil {
		t.Fatal(err)
	}
	c := newTestServer(t, Config{DataDir: data})
	var files FileList
	c.ok("GET", "/api/files", "", nil, &files)
	if len(files.Datasets) != 1 || files.Datasets[0].Path != "ds" || files.Datasets[0].Games != 5 {
		t.Fatalf("datasets listed: %+v", files.Datasets)
	}
	ds, err := datasets.Open(filepath.Join(data, "ds"))
	if err != nil {
		t.Fatal(err)
	}
	var games []*datasets.Game
	for g, err := range ds.Games() {
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	for _, id := range []uint64{0, 3, 4} {
		var info ReplayInfo
		c.ok("POST", "/api/replays", "", OpenReplayRequest{Dataset: "ds", Game: &id}, &info)
		g := games[id]
		if info.Moves != int(g.Length) || !info.Finished || strings.Join(info.Names, ",") != strings.Join(g.Agents, ",") {
			t.Fatalf("game %d: %d moves (want %d), names %v", id, info.Moves, g.Length, info.Names)
		}
		for s, sc := range info.Scores {
			if int32(sc.Total) != g.Scores[s].Total {
				t.Fatalf("game %d seat %d: total %d, games table %d", id, s, sc.Total, g.Scores[s].Total)
			}
		}
	}
	bad := uint64(5)
	c.wantStatus(404, "POST", "/api/replays", "", OpenReplayRequest{Dataset: "ds", Game: &bad})
	c.wantStatus(400, "POST", "/api/replays", "", OpenReplayRequest{Dataset: "ds"})
	c.wantStatus(400, "POST", "/api/replays", "", OpenReplayRequest{Dataset: "../ds", Game: &bad})
}
