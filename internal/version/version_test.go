package version

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestPythonPackageDeclaresTheSameVersion reads python/pyproject.toml: the Python package
// and the Go command are one toolkit with one version.
func TestPythonPackageDeclaresTheSameVersion(t *testing.T) {
	path := filepath.Join("..", "..", "python", "pyproject.toml")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The [project] table's version line: version = "X.Y.Z" at the start of a line.
	m := regexp.MustCompile(`(?m)^version\s*=\s*"([^"]*)"`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s: no version line", path)
	}
	if got := string(m[1]); got != Version {
		t.Errorf("%s declares version %q; the toolkit (internal/version) is %q: make them the same", path, got, Version)
	}
}

func TestVersionIsSemantic(t *testing.T) {
	if !regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`).MatchString(Version) {
		t.Errorf("Version %q is not MAJOR.MINOR.PATCH", Version)
	}
}
