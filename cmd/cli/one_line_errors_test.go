package cli

import (
	"errors"
	"testing"
)

// Main prints every error on one line: the lines of a joined error are joined with "; ".
func TestJoinedErrorsAreOneLine(t *testing.T) {
	err := errors.Join(errors.New("eval: --save: disk full"), errors.New("eval: writing x.csv: disk full"))
	if got, want := oneLine(err.Error()), "eval: --save: disk full; eval: writing x.csv: disk full"; got != want {
		t.Fatalf("%q, want %q", got, want)
	}
	if got := oneLine("one\r\n\ntwo\n"); got != "one; two" {
		t.Fatalf("%q", got)
	}
}
