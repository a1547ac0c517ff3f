package bots

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

var updatePinned = flag.Bool("update", false, "rewrite testdata/pinned-games.golden")

// pinnedFamilies are the rules families whose full games are pinned: both variants, each
// More Containers module alone and all of them (Classic cannot have Truck Companies).
var pinnedFamilies = []struct {
	name    string
	variant rules.Variant
	modules rules.Modules
}{
	{"base", rules.Base, 0},
	{"classic", rules.Classic, 0},
	{"base+trucks", rules.Base, rules.Trucks},
	{"base+player-loans", rules.Base, rules.PlayerLoans},
	{"base+luxury", rules.Base, rules.Luxury},
	{"base+all", rules.Base, rules.AllModules},
	{"classic+player-loans+luxury", rules.Classic, rules.PlayerLoans | rules.Luxury},
}

// pinnedGame plays one full standard-length game between the scripted bots (seat s plays
// valuer, shipper, manufacturer in turn from seat 0, each seeded from the seat) and returns
// its digest: length, turns, end, every seat's final total and a hash of the action list.
func pinnedGame(t *testing.T, o rules.Options, seed uint64) string {
	t.Helper()
	g, players := seatGame(t, o, seed)
	seats := make([]Seat, o.Players)
	for s := range seats {
		seats[s].Bot = players[s]
	}
	st := g.NewInitialStateSeed(seed)
	h := sha256.New()
	var buf [4]byte
	steps := 0
	for !st.IsTerminal() {
		if steps > g.MaxGameLength() {
			t.Fatalf("%+v: longer than %d decisions", o, g.MaxGameLength())
		}
		a, err := seats[st.CurrentPlayer()].Act(st)
		if err != nil {
			t.Fatalf("%+v step %d: %v", o, steps, err)
		}
		st.Apply(a)
		binary.LittleEndian.PutUint32(buf[:], uint32(a))
		h.Write(buf[:])
		steps++
	}
	totals := make([]string, o.Players)
	for i, sc := range st.Scores() {
		totals[i] = fmt.Sprint(sc.Total)
	}
	end := map[rules.EndReason]string{rules.EndTwoColours: "two-colours", rules.EndTurnLimit: "turn-limit"}[st.Ended]
	return fmt.Sprintf("steps %d turns %d end %s totals %s moves %s", steps, st.Turn, end, strings.Join(totals, ","), hex.EncodeToString(h.Sum(nil))[:16])
}

// TestPinnedScriptedGames plays a full game of scripted bots for every rules family with 3, 4
// and 5 players and compares each digest (length, end, final totals, hash of the moves) with
// testdata/pinned-games.golden. Any change of the rules or of a scripted bot's play shows up
// here and must be accepted on purpose:
//
//	go test ./env/bots -run TestPinnedScriptedGames -update
//
// with the reason in the commit message.
func TestPinnedScriptedGames(t *testing.T) {
	var b strings.Builder
	b.WriteString("# full scripted games (valuer, shipper, manufacturer, ...), standard length, seed = players\n")
	b.WriteString("# regenerate on purpose: go test ./env/bots -run TestPinnedScriptedGames -update\n")
	for _, f := range pinnedFamilies {
		for players := 3; players <= 5; players++ {
			o := rules.Options{Players: players, Variant: f.variant, Modules: f.modules}
			fmt.Fprintf(&b, "%s %dp: %s\n", f.name, players, pinnedGame(t, o, uint64(players)))
		}
	}
	path := filepath.Join("testdata", "pinned-games.golden")
	if *updatePinned {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./env/bots -run TestPinnedScriptedGames -update)", err)
	}
	gl, wl := strings.Split(b.String(), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Errorf("pinned game differs:\n got  %s\n want %s", g, w)
		}
	}
	if t.Failed() {
		t.Log("if the rules or a bot changed on purpose: go test ./env/bots -run TestPinnedScriptedGames -update, and say why in the commit")
	}
}
