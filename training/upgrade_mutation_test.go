package training

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

// Tests written to kill surviving mutants of the bot upgrade (upgrade.go; docs/TESTING.md).

// A file that claims actions-v1 but whose action layout is not actions-v1 is refused with
// one line wrapping ErrUpgrade, never upgraded and never a panic: a move kind whose ids run
// past the file's action count, and a layout that leaves an id without a kind (EndTurn moved
// from id 0 onto id 1, so id 0 means nothing).
func TestUpgradeBotRefusesAnActionLayoutThatIsNotActionsV1(t *testing.T) {
	old, _ := v1BotFile(t, rules.DefaultOptions(), encoding.Options{}, 1, 2)
	tamper := func(edit func(l *ActionLayout)) []byte {
		b, err := ReadBot(bytes.NewReader(old))
		if err != nil {
			t.Fatal(err)
		}
		l := b.Header.Actions
		l.Kinds = append([]KindRange(nil), l.Kinds...)
		edit(&l)
		b.Header.Actions = l
		var buf bytes.Buffer
		if err := b.Write(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	last := func(l *ActionLayout) *KindRange {
		k := &l.Kinds[0]
		for i := range l.Kinds {
			if l.Kinds[i].First > k.First {
				k = &l.Kinds[i]
			}
		}
		return k
	}
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"a kind past the end": {tamper(func(l *ActionLayout) { last(l).First++ }), "not the actions-v1 layout"},
		"id 0 without a kind": {tamper(func(l *ActionLayout) {
			for i := range l.Kinds {
				if rules.MoveKind(l.Kinds[i].Kind) == rules.EndTurn {
					if l.Kinds[i].First != 0 {
						t.Fatalf("EndTurn starts at id %d in actions-v1", l.Kinds[i].First)
					}
					l.Kinds[i].First = 1
				}
			}
		}), "is not actions-v1"},
	} {
		_, err := UpgradeBotFile(c.data, "x.bot")
		if !errors.Is(err, ErrUpgrade) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line wrapping ErrUpgrade saying %q", name, err, c.want)
		}
	}
}
