package training

import (
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
