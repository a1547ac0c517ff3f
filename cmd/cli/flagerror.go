package cli

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/container-rl/container/env/rules"
)

// flagError is the root's flag error function (every command inherits it): pflag's errors
// become one line in the command's words, naming the command and the flag, saying what kind
// of value the flag takes, and suggesting the nearest flag for an unknown one:
//
//	eval: --games "abc" is not a whole number
//	eval: unknown flag --agent; did you mean --agents?
func flagError(cmd *cobra.Command, err error) error {
	prefix := ""
	if cmd.HasParent() {
		prefix = commandName(cmd) + ": "
	}
	help := "see " + cmd.CommandPath() + " --help"
	var (
		invalid  *pflag.InvalidValueError
		notExist *pflag.NotExistError
		required *pflag.ValueRequiredError
		syntax   *pflag.InvalidSyntaxError
	)
	switch {
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		kind, ok := flagKinds[f.Value.Type()]
		if !ok {
			return fmt.Errorf("%s--%s %s: %w", prefix, f.Name, rules.Quote(invalid.GetValue()), invalid.Unwrap())
		}
		if errors.Is(err, strconv.ErrRange) {
			return fmt.Errorf("%s--%s %s is out of range for %s", prefix, f.Name, rules.Quote(invalid.GetValue()), kind)
		}
		return fmt.Errorf("%s--%s %s is not %s", prefix, f.Name, rules.Quote(invalid.GetValue()), kind)
	case errors.As(err, &notExist):
		name := notExist.GetSpecifiedName()
		if short := notExist.GetSpecifiedShortnames(); short != "" {
			return fmt.Errorf("%sunknown flag -%s in -%s; %s", prefix, name[:1], short, help)
		}
		if sug := nearestFlags(cmd, name); len(sug) > 0 {
			return fmt.Errorf("%sunknown flag --%s; did you mean --%s?", prefix, name, strings.Join(sug, " or --"))
		}
		return fmt.Errorf("%sunknown flag --%s; %s", prefix, name, help)
	case errors.As(err, &required):
		f := required.GetFlag()
		if kind, ok := flagKinds[f.Value.Type()]; ok {
			return fmt.Errorf("%s--%s needs a value (%s)", prefix, f.Name, kind)
		}
		return fmt.Errorf("%s--%s needs a value", prefix, f.Name)
	case errors.As(err, &syntax):
		return fmt.Errorf("%sbad flag syntax %s; %s", prefix, rules.Quote(syntax.GetSpecifiedFlag()), help)
	}
	return fmt.Errorf("%s%w", prefix, err)
}

// flagKinds says, for pflag's value types, what a value must be.
var flagKinds = map[string]string{
	"int":      "a whole number",
	"int64":    "a whole number",
	"int32":    "a whole number",
	"uint":     "a whole number, 0 or more",
	"uint64":   "a whole number, 0 or more",
	"uint32":   "a whole number, 0 or more",
	"float64":  "a number",
	"float32":  "a number",
	"bool":     "true or false",
	"duration": "a duration such as 90s, 15m or 2h",
}

// nearestFlags returns the names of cmd's flags (its own and inherited, not hidden) nearest to
// name: within two edits, or starting with it; the closest first.
func nearestFlags(cmd *cobra.Command, name string) []string {
	type cand struct {
		name string
		d    int
	}
	var cands []cand
	seen := map[string]bool{}
	visit := func(f *pflag.Flag) {
		if f.Hidden || seen[f.Name] {
			return
		}
		seen[f.Name] = true
		d := editDistance(strings.ToLower(name), f.Name)
		if d > 2 && len(name) >= 3 && strings.HasPrefix(f.Name, strings.ToLower(name)) {
			d = 2
		}
		if d <= 2 && d < len(f.Name) {
			cands = append(cands, cand{f.Name, d})
		}
	}
	cmd.LocalFlags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].d != cands[j].d {
			return cands[i].d < cands[j].d
		}
		return cands[i].name < cands[j].name
	})
	var out []string
	for _, c := range cands {
		if len(out) == 2 || (len(out) > 0 && c.d > cands[0].d) {
			break
		}
		out = append(out, c.name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b (in bytes; flag names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
