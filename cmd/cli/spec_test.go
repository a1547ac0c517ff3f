package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
)

func TestSpecPrintsTheTableWithTheVersion(t *testing.T) {
	var out bytes.Buffer
	if err := runSpec(specOptions{gameFlags: gameFlags{players: 4, variant: "base", length: "standard"}}, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.HasPrefix(s, encoding.Version+":") || !strings.Contains(s, "p0.cash") || !strings.Contains(s, "decision.phase") {
		t.Fatalf("unexpected table:\n%s", s)
	}
}

func TestSpecJSONLabelsEveryColumnAndAction(t *testing.T) {
	var out bytes.Buffer
	if err := runSpec(specOptions{gameFlags: gameFlags{players: 3, variant: "base", modules: "trucks,luxury", length: "short"}, json: true}, &out); err != nil {
		t.Fatal(err)
	}
	var s encoding.Spec
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	if s.Version != encoding.Version || len(s.Columns()) != s.Size || len(s.ActionNames) != s.NumActions || s.Options.Players != 3 {
		t.Fatalf("spec: version %q, %d columns for size %d, %d action names for %d actions", s.Version, len(s.Columns()), s.Size, len(s.ActionNames), s.NumActions)
	}
	if _, ok := s.Feature("company.p0.owner"); !ok {
		t.Fatal("trucks module features missing")
	}
}

func TestSpecColumnsAndOracle(t *testing.T) {
	var out bytes.Buffer
	if err := runSpec(specOptions{gameFlags: gameFlags{players: 5, variant: "classic", length: "standard"}, columns: true}, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if lines[0] != "game.players.3" {
		t.Fatalf("first column %q", lines[0])
	}
	out.Reset()
	if err := runSpec(specOptions{gameFlags: gameFlags{players: 4, variant: "base", length: "standard"}, oracle: true}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), encoding.OracleVersion+":") {
		t.Fatalf("oracle spec header: %q", strings.SplitN(out.String(), "\n", 2)[0])
	}
}

func TestSpecRejectsBadFlags(t *testing.T) {
	bad := []specOptions{
		{gameFlags: gameFlags{players: 7, variant: "base", length: "standard"}},
		{gameFlags: gameFlags{players: 4, variant: "modern", length: "standard"}},
		{gameFlags: gameFlags{players: 4, variant: "base", modules: "boats", length: "standard"}},
		{gameFlags: gameFlags{players: 4, variant: "base", length: "epic"}},
		{gameFlags: gameFlags{players: 4, variant: "classic", modules: "trucks", length: "standard"}},
		{gameFlags: gameFlags{players: 4, variant: "base", length: "standard"}, json: true, columns: true},
	}
	for _, o := range bad {
		err := runSpec(o, &bytes.Buffer{})
		if err == nil || !strings.HasPrefix(err.Error(), "spec: ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: error %v, want a one-line spec: error", o, err)
		}
	}
}
