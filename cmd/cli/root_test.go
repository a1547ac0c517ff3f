package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/container-rl/container/internal/version"
)

// --version prints the toolkit's one version (internal/version), the one datasets record.
func TestVersionFlagPrintsTheToolkitVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main([]string{"--version"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if want := "container version " + version.Version + "\n"; out.String() != want {
		t.Errorf("--version printed %q, want %q", out.String(), want)
	}
	if Version != version.Version {
		t.Errorf("cli.Version %q, internal/version %q", Version, version.Version)
	}
}
