package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// TestHugeInputGivesShortError: a position file with a 20 MB ship string,
// a 50 MB --rules value and a record file above rules.MaxRecordBytes each give one short
// line on stderr (the input quoted to at most rules.MaxQuoted bytes).
func TestHugeInputGivesShortError(t *testing.T) {
	dir := t.TempDir()
	huge := strings.Repeat("x", 50<<20)
	pos := filepath.Join(dir, "pos.json")
	if err := os.WriteFile(pos, []byte(`{"options": {"players": 3}, "players": [{"factories": "w", "ship": "`+huge[:20<<20]+`"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, rules.MaxRecordBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"legal", pos},
		{"score", big},
		{"eval", "--agents", "random,random,random", "--rules", huge},
		{"eval", "--agents", huge},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(args, strings.NewReader(""), &stdout, &stderr)
		if code != 1 || stderr.Len() > 600 || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%.40q: exit %d, %d bytes on stderr: %.300s", args, code, stderr.Len(), stderr.String())
		}
	}
}

func TestShortErrorCutsLongMessages(t *testing.T) {
	if got := shortError("short"); got != "short" {
		t.Errorf("shortError(short) = %q", got)
	}
	if got := shortError(strings.Repeat("é", 1000)); len(got) > maxErrorBytes+40 || !strings.HasSuffix(got, "(error of 2000 bytes cut)") {
		t.Errorf("shortError(long) = %q", got)
	}
}
