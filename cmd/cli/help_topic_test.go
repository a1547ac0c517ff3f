package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// "container help TOPIC" with a topic that names no command is an error like any other bad
// input: one line on standard error (with a suggestion when one is near), nothing on
// standard output, exit 1. A known topic still prints that command's help and exits 0.
func TestHelpWithAnUnknownTopicIsOneErrorLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"help", "nosuch"}, `container: help: unknown help topic "nosuch"; see container help`},
		{[]string{"help", "evall"}, `container: help: unknown help topic "evall"; did you mean "eval"?`},
		{[]string{"help", "train", "bcc"}, `container: help: unknown help topic "train bcc"; did you mean "train bc"?`},
		{[]string{"help", "train", "nosuch"}, `container: help: unknown help topic "train nosuch"; see container help train`},
		{[]string{"help", "eval", "extra"}, `container: help: unknown help topic "eval extra"; see container help eval`},
		{[]string{"help", "\x1b[31mred"}, `container: help: unknown help topic "\x1b[31mred"; see container help`},
	} {
		var out, errb bytes.Buffer
		code := Main(c.args, strings.NewReader(""), &out, &errb)
		assert.Equal(t, 1, code, "%q", c.args)
		assert.Equal(t, c.want+"\n", errb.String(), "%q", c.args)
		assert.Zero(t, out.Len(), "%q: standard output %q", c.args, out.String())
	}
	for _, args := range [][]string{{"help"}, {"help", "eval"}, {"help", "train", "bc"}, {"help", "help"}} {
		var out, errb bytes.Buffer
		code := Main(args, strings.NewReader(""), &out, &errb)
		assert.Equal(t, 0, code, "%q: %s", args, errb.String())
		assert.Contains(t, out.String(), "Usage:", "%q", args)
		assert.Zero(t, errb.Len(), "%q", args)
	}
}
