package cli

import (
	"bytes"
	"strings"
	"testing"
)

// An unknown command is one line with the suggestion folded in, and an error (exit 1) also
// under a command that only groups others.
func TestUnknownCommandIsOneLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"evall"}, `container: unknown command "evall"; did you mean "eval"?`},
		{[]string{"zzzz"}, `container: unknown command "zzzz"; see container --help`},
		{[]string{"train", "bcc"}, `container: unknown command "bcc" for "container train"; did you mean "bc"?`},
		{[]string{"dataset", "stat"}, `container: unknown command "stat" for "container dataset"; did you mean "stats"?`},
	} {
		var out, errb bytes.Buffer
		code := Main(c.args, strings.NewReader(""), &out, &errb)
		if code != 1 || errb.String() != c.want+"\n" || out.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %d bytes; want exit 1 and %q", c.args, code, errb.String(), out.Len(), c.want)
		}
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"train"}, strings.NewReader(""), &out, &errb); code != 0 || !strings.Contains(out.String(), "Available Commands") {
		t.Errorf("container train: exit %d, %q", code, errb.String())
	}
}
