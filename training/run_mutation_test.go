package training

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// TestARunThatFailsWithAProgressBarEndsTheBarsLine: when a run with a progress bar stops on
// an error (here the test hook that fails it after step 2, as a crash would), the bar's line
// is ended, so the error printed next starts on a line of its own.
func TestARunThatFailsWithAProgressBarEndsTheBarsLine(t *testing.T) {
	o := tinyBC(t)
	var bar bytes.Buffer
	o.Progress, o.stopAfter = &bar, 2
	if _, err := TrainBC(context.Background(), tinySamples(40), o); !errors.Is(err, errKilled) {
		t.Fatalf("run stopped after step 2: %v, want errKilled", err)
	}
	out := bar.String()
	if !strings.Contains(out, "bc") || !strings.HasSuffix(out, "\n") {
		t.Fatalf("progress output %q: want the bar, its line ended", out)
	}
}
