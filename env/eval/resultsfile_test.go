package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// sealedFile plays a small tournament and returns its results file as written to disk.
func sealedFile(t *testing.T) (*ResultsFile, []byte) {
	t.Helper()
	cfg := smallConfig("valuer", "shipper", "random")
	cfg.Games = 6
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := NewResultsFile(cfg, res, "test")
	b, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return f, b
}

// edit decodes a written results file as plain JSON, lets change alter it, and encodes it
// again; with reseal the checksum is recomputed (a forger who knows the algorithm).
func edit(t *testing.T, b []byte, reseal bool, change func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	change(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if reseal {
		sum, err := resultsSum(out)
		if err != nil {
			t.Fatal(err)
		}
		m["checksum"] = sum
		if out, err = json.Marshal(m); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// score returns seat s's score object of game g in a decoded results file.
func scoreOf(m map[string]any, g, s int) map[string]any {
	return m["results"].([]any)[g].(map[string]any)["scores"].([]any)[s].(map[string]any)
}

func num(v any) int {
	n, _ := v.(json.Number).Int64()
	return int(n)
}

func TestResultsFile_ReadsBackWhatWasWritten(t *testing.T) {
	f, b := sealedFile(t)
	got, err := ParseResultsFile(b)
	if err != nil {
		t.Fatal(err)
	}
	want := *f
	want.Checksum = got.Checksum
	if !reflect.DeepEqual(got, &want) || got.Checksum == "" || got.Format != ResultsFormat {
		t.Fatalf("read back %+v", got)
	}
	// Pretty-printing changes no value: the checksum still holds.
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, b, "", "  "); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseResultsFile(pretty.Bytes()); err != nil {
		t.Fatalf("pretty-printed: %v", err)
	}
}

// A forged or damaged file is refused: an edit fails the checksum, and an edit whose
// checksum was recomputed fails the cross-checks of totals, ranks, winners, seeds and seats.
func TestResultsFile_EditedFilesAreRefused(t *testing.T) {
	_, b := sealedFile(t)
	type change func(m map[string]any)
	// loser is a seat that did not win game 2.
	loser := func(m map[string]any) map[string]any {
		for s := 0; ; s++ {
			if sc := scoreOf(m, 2, s); num(sc["rank"]) > 1 {
				return sc
			}
		}
	}
	addToTotal := func(m map[string]any) { s := loser(m); s["total"] = json.Number(fmt.Sprint(num(s["total"]) + 900)) }
	moveWinner := func(m map[string]any) {
		for s := range 3 {
			sc := scoreOf(m, 0, s)
			sc["winner"] = !sc["winner"].(bool)
		}
	}
	for _, tc := range []struct {
		name   string
		reseal bool
		change change
		want   string
	}{
		{"a total 900 higher", false, addToTotal, "checksum mismatch"},
		{"a total 900 higher, resealed", true, addToTotal, "'s total"},
		{"a total and its cash 900 higher, resealed", true, func(m map[string]any) {
			s := loser(m)
			addToTotal(m)
			s["cash"] = json.Number(fmt.Sprint(num(s["cash"]) + 900))
		}, "rank"},
		{"the winner flag moved", false, moveWinner, "checksum mismatch"},
		{"the winner flag moved, resealed", true, moveWinner, "winner flag"},
		{"a rank changed, resealed", true, func(m map[string]any) { scoreOf(m, 3, 0)["rank"] = json.Number("9") }, "has rank 9"},
		{"a game's steps changed", false, func(m map[string]any) {
			m["results"].([]any)[1].(map[string]any)["steps"] = json.Number("5")
		}, "checksum mismatch"},
		{"a seed changed, resealed", true, func(m map[string]any) {
			m["results"].([]any)[1].(map[string]any)["seed"] = json.Number("7")
		}, "has seed 7"},
		{"seats swapped, resealed", true, func(m map[string]any) {
			a := m["results"].([]any)[1].(map[string]any)["agents"].([]any)
			a[0], a[1] = a[1], a[0]
		}, "seats agents"},
		{"the tournament seed changed", false, func(m map[string]any) { m["seed"] = json.Number("43") }, "checksum mismatch"},
		{"no checksum", false, func(m map[string]any) { delete(m, "checksum") }, "no checksum"},
		{"a game dropped and marked interrupted, resealed", true, func(m map[string]any) {
			m["results"] = m["results"].([]any)[1:]
			m["interrupted"] = true
		}, ""}, // consistent: Merge names the missing game
		{"an unknown key", true, func(m map[string]any) { m["note"] = "x" }, "unknown key"},
		{"a key in capitals", true, func(m map[string]any) { m["SEED"] = m["seed"]; delete(m, "seed") }, "unknown key"},
	} {
		_, err := ParseResultsFile(edit(t, b, tc.reseal, tc.change))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrMerge) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%s: %v, want one line containing %q", tc.name, err, tc.want)
		}
	}
	dup := bytes.Replace(b, []byte(`"seed":`), []byte(`"seed":1,"seed":`), 1)
	if _, err := ParseResultsFile(dup); err == nil || !strings.Contains(err.Error(), "duplicate key") {
		t.Errorf("a key given twice: %v", err)
	}
}

// A file of the format before checksums is refused by readers and accepted, once checked, by
// the upgrade; an edited one is refused by both.
func TestResultsFile_OldFormatNeedsTheUpgrade(t *testing.T) {
	_, b := sealedFile(t)
	old := edit(t, b, false, func(m map[string]any) { m["format"] = ResultsFormatV1; delete(m, "checksum") })
	if _, err := ParseResultsFile(old); !errors.Is(err, ErrNoChecksum) || !strings.Contains(err.Error(), "--upgrade-results") {
		t.Fatalf("old format read: %v", err)
	}
	f, upgraded, err := UpgradeResultsFile(old)
	if err != nil || !upgraded {
		t.Fatalf("upgrade: %v, %v", upgraded, err)
	}
	nb, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseResultsFile(nb); err != nil {
		t.Fatalf("upgraded file: %v", err)
	}
	if _, upgraded, err := UpgradeResultsFile(nb); err != nil || upgraded {
		t.Fatalf("upgrading a current file: %v, %v", upgraded, err)
	}
	forged := edit(t, old, false, func(m map[string]any) { scoreOf(m, 0, 0)["winner"] = !scoreOf(m, 0, 0)["winner"].(bool) })
	if _, _, err := UpgradeResultsFile(forged); err == nil || !strings.Contains(err.Error(), "winner flag") {
		t.Fatalf("upgrade of an edited old file: %v", err)
	}
	withSum := edit(t, old, false, func(m map[string]any) { m["checksum"] = "00" })
	if _, _, err := UpgradeResultsFile(withSum); err == nil {
		t.Fatalf("an old-format file with a checksum is upgraded")
	}
}
