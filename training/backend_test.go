package training

import (
	"errors"
	"strings"
	"testing"
)

// useBackend selects config for the rest of the test (SetBackend), then returns to the
// environment's choice.
func useBackend(t *testing.T, config string) {
	t.Helper()
	if err := SetBackend(config); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = SetBackend("") })
}

// TestBackendChoiceWinsOverTheEnvironment: SetBackend (the --backend flag) wins over
// GOMLX_BACKEND, which wins over the pure-Go default; a bare "xla" keeps the environment's
// xla options (xla:cuda), and an empty choice returns to the environment's.
func TestBackendChoiceWinsOverTheEnvironment(t *testing.T) {
	for _, c := range []struct{ env, choice, want string }{
		{"", "", "go"},
		{"xla", "", "xla"},
		{"xla:cuda", "", "xla:cuda"},
		{"xla", "go", "go"},
		{"go", "xla", "xla"},
		{"xla:cuda", "xla", "xla:cuda"},
		{"xla:cuda", "xla:cpu", "xla:cpu"},
		{"go:parallelism=1", "xla", "xla"},
	} {
		t.Setenv("GOMLX_BACKEND", c.env)
		if err := SetBackend(c.choice); err != nil {
			t.Fatal(err)
		}
		if got := BackendConfig(); got != c.want {
			t.Errorf("GOMLX_BACKEND=%q, choice %q: backend %q, want %q", c.env, c.choice, got, c.want)
		}
	}
	_ = SetBackend("")
}

func TestSetBackendRefusesUnknownBackends(t *testing.T) {
	before := BackendConfig()
	for _, c := range []string{"tpu", "XLA", "simplego", ":cpu"} {
		if err := SetBackend(c); !errors.Is(err, ErrBackend) {
			t.Errorf("SetBackend(%q) = %v, want ErrBackend", c, err)
		}
	}
	if BackendConfig() != before {
		t.Errorf("a refused choice changed the backend to %q", BackendConfig())
	}
}

// TestXLAWithoutPluginIsOneLineNamingTheScript: the xla backend where it cannot be had (a
// pure-Go build, or an xla build with no plugin in any folder it looks in) is an error of
// one line naming the script that installs it, not a panic or a download.
func TestXLAWithoutPluginIsOneLineNamingTheScript(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("PJRT_PLUGIN_LIBRARY_PATH", t.TempDir())
	useBackend(t, "xla")
	b, err := NewBackend()
	if err == nil {
		b.Finalize()
		t.Fatal("xla backend created with no plugin anywhere")
	}
	if !errors.Is(err, ErrBackend) || !strings.Contains(err.Error(), XLAScript) || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q: want one line wrapping ErrBackend and naming %s", err, XLAScript)
	}
}
