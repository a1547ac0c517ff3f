package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// helpFlagsDoc runs container help flags --json and decodes it.
func helpFlagsDoc(t *testing.T) flagsDoc {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main([]string{"help", "flags", "--json"}, strings.NewReader(""), &out, &errb)
	require.True(t, code == 0, "help flags --json: exit %d, %s", code, errb.String())
	var doc flagsDoc
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	err := dec.Decode(&doc)
	require.NoError(t, err, "help flags --json: %v", err)
	return doc
}

// Every range in flagRanges names a numeric flag of its command, and help flags --json lists
// every command with its flags, kinds, defaults and exactly the ranges of flagRanges.
func TestHelpFlagsListsEveryFlagWithTheCheckedRange(t *testing.T) {
	doc := helpFlagsDoc(t)
	assert.True(t, doc.Players == (flagRangeDoc{Min: 3, Max: 5}), "players %+v, want 3..5", doc.Players)
	byCmd := map[string]map[string]flagDoc{}
	for _, c := range doc.Commands {
		byCmd[c.Command] = map[string]flagDoc{}
		for _, f := range c.Flags {
			byCmd[c.Command][f.Name] = f
		}
	}
	for _, path := range []string{"selfplay", "eval", "rate", "bench", "spec", "play", "dataset stats", "dataset head",
		"dataset merge", "demo", "serve", "train bc", "train ppo", "train exit", "export", "replay", "help flags"} {
		_, ok := byCmd[path]
		assert.True(t, ok, "help flags lists no command %q", path)
	}
	f := byCmd["selfplay"]["games"]
	assert.False(t, f.Kind != "int" || f.Default != "100" || f.Usage == "", "selfplay --games: %+v", f)
	f = byCmd["dataset head"]["rows"]
	assert.True(t, f.Shorthand == "n", "dataset head --rows: shorthand %q, want n", f.Shorthand)
	_, ok := byCmd["selfplay"]["help"]
	assert.False(t, ok, "help flags lists --help")
	for cmd, ranges := range flagRanges {
		flags, ok := byCmd[cmd]
		if !ok {
			assert.Fail(t, fmt.Sprintf("flagRanges names %q, which is no command", cmd))
			continue
		}
		seen := map[string]bool{}
		for _, r := range ranges {
			assert.False(t, seen[r.flag], "%s --%s: two ranges", cmd, r.flag)
			seen[r.flag] = true
			f, ok := flags[r.flag]
			switch {
			case !ok:
				assert.Fail(t, fmt.Sprintf("%s has no flag --%s for its range", cmd, r.flag))
			case f.Kind != "int" && f.Kind != "float64":
				assert.Fail(t, fmt.Sprintf("%s --%s is a %s flag with a range", cmd, r.flag, f.Kind))
			case f.Range == nil || *f.Range != (flagRangeDoc{Min: r.min, Max: r.max, MinExclusive: r.openMin}):
				assert.Fail(t, fmt.Sprintf("%s --%s: help flags says %+v, the check uses %+v", cmd, r.flag, f.Range, r))
			}
		}
		for name, f := range flags {
			assert.False(t, f.Range != nil && !seen[name], "%s --%s: help flags gives a range the check does not use", cmd, name)
		}
	}
}

// The text form has a header and one line per flag with its range written as the refusal
// writes it.
func TestHelpFlagsTextWritesRangesAsTheRefusalDoes(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main([]string{"help", "flags"}, strings.NewReader(""), &out, &errb)
	require.True(t, code == 0, "exit %d, %s", code, errb.String())
	text := out.String()
	for _, want := range []string{"COMMAND", "--games", "1..100000000", "(0, 10]", "[-1, 1]", "-n, --rows"} {
		assert.True(t, strings.Contains(text, want), "help flags has no %q:\n%s", want, text)
	}
	var eout, eerr bytes.Buffer
	if code := Main([]string{"help", "flags", "extra"}, strings.NewReader(""), &eout, &eerr); code != 1 ||
		strings.Count(eerr.String(), "\n") != 1 {
		assert.Fail(t, fmt.Sprintf("help flags extra: exit %d, stderr %q; want 1 and one line", code, eerr.String()))
	}
}

// rangeBase is the least command line under which each command checks its ranges (out is a
// directory that does not exist).
func rangeBase(cmd, out string) []string {
	switch cmd {
	case "selfplay":
		return []string{"selfplay", "--agents", "random", "--out", out}
	case "eval", "rate":
		return []string{cmd, "--agents", "random"}
	case "bench":
		return []string{"bench", "--train"}
	case "play":
		return []string{"play", "--opponents", "random"}
	case "dataset stats", "dataset head":
		return append(strings.Fields(cmd), out)
	case "demo", "train ppo", "train exit":
		return append(strings.Fields(cmd), "--out", out)
	case "train bc":
		return []string{"train", "bc", "--teachers", "random", "--out", out}
	case "serve":
		return []string{"serve", "--addr", "127.0.0.1:0"}
	}
	return strings.Fields(cmd)
}

// A value just outside each range of flagRanges is refused: exit 1, one line naming the flag,
// so the ranges help flags prints are the ones the commands enforce.
func TestEveryListedRangeIsEnforced(t *testing.T) {
	kind := map[string]string{}
	for _, c := range helpFlagsDoc(t).Commands {
		for _, f := range c.Flags {
			kind[c.Command+" --"+f.Name] = f.Kind
		}
	}
	for cmd, ranges := range flagRanges {
		for _, r := range ranges {
			var bad []string
			if kind[cmd+" --"+r.flag] == "float64" {
				low := r.min - 1
				if r.openMin {
					low = r.min
				}
				bad = []string{strconv.FormatFloat(low, 'g', -1, 64), strconv.FormatFloat(r.max*2+1, 'g', -1, 64), "NaN"}
			} else {
				bad = []string{strconv.Itoa(int(r.max) + 1), strconv.Itoa(int(r.min) - 1)}
			}
			for _, v := range bad {
				out := filepath.Join(t.TempDir(), "out")
				args := append(rangeBase(cmd, out), "--"+r.flag+"="+v)
				var stdout, stderr bytes.Buffer
				code := Main(args, strings.NewReader(""), &stdout, &stderr)
				msg := stderr.String()
				assert.False(t, code != 1 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "--"+r.flag+" "), "%q: exit %d, stderr %q; want 1 and one line naming --%s", args, code, msg, r.flag)
			}
		}
	}
}
