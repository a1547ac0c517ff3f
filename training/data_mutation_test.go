package training

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"strings"
	"testing"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
)

// Tests written to kill surviving mutants of training/data.go (docs/TESTING.md).

// The source line of teacher samples (recorded by a behaviour-cloning run, which refuses to
// resume on other data) says whose decisions were recorded: every seat when no teacher is
// listed, else the listed teachers.
func TestCollectSamplesSourceNamesTheRecordedSeats(t *testing.T) {
	opts := rules.Options{Players: 3, TurnLimit: 4}
	for _, c := range []struct {
		record []string
		want   string
	}{
		{nil, "(learning from every seat)"},
		{[]string{"valuer", "shipper"}, "(learning from valuer,shipper)"},
	} {
		s, err := CollectSamples([]string{"valuer", "shipper", "random"}, c.record, 1, opts, env.WinLoss, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(s.Source, c.want) {
			t.Errorf("recording %v: source %q, want it to say %q", c.record, s.Source, c.want)
		}
	}
}

// pinnedTeacherGames is the digest of the teacher games below (rows, then an FNV-1a hash of
// every row's game id and action). A behaviour-cloning run identifies its teacher data by
// its source line (teachers, games, seed, reward) and resumes on data with the same line, so
// the same arguments must keep giving the same games: change this only on purpose (a rules or
// bot change), with the reason in the commit.
const pinnedTeacherGames = "rows 235 hash d871ec9e1dc05caf"

// Teacher samples from a seed are the same games in every version (pinned digest): each
// seat's bot gets its own seed derived from the game's, so the random teacher in seat 0 and
// the one in seat 2 do not play the same stream.
func TestCollectSamplesFromASeedArePinnedGames(t *testing.T) {
	opts := rules.Options{Players: 3, TurnLimit: 12}
	s, err := CollectSamples([]string{"random", "valuer", "random"}, nil, 3, opts, env.WinLoss, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	var b [8]byte
	for i, a := range s.Actions {
		binary.LittleEndian.PutUint64(b[:], s.Games[i])
		h.Write(b[:])
		binary.LittleEndian.PutUint32(b[:4], uint32(a))
		h.Write(b[:4])
	}
	if got := fmt.Sprintf("rows %d hash %016x", s.Len(), h.Sum64()); got != pinnedTeacherGames {
		t.Fatalf("teacher games digest %q, pinned %q: the same arguments now give other games", got, pinnedTeacherGames)
	}
}
