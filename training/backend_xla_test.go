//go:build xla

package training

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
	"golang.org/x/sys/unix"
)

// requireXLA skips the test when no XLA CPU plugin is installed (scripts/xla-cpu.sh), or
// fails it where CONTAINER_REQUIRE_XLA=1 (CI installs the plugin first).
func requireXLA(t *testing.T) {
	t.Helper()
	if _, err := findXLAPlugin("xla:cpu"); err != nil {
		if os.Getenv("CONTAINER_REQUIRE_XLA") == "1" {
			t.Fatalf("CONTAINER_REQUIRE_XLA=1 and %v", err)
		}
		t.Skipf("no XLA CPU plugin, run %s to install it: %v", XLAScript, err)
	}
}

// bcLossCurve trains a fresh network (seed 5) on the given backend for steps BC steps of
// rows rows drawn from s with a fixed seed, and returns each step's loss.
func bcLossCurve(t *testing.T, backend string, s *Samples, steps, rows int) []float64 {
	t.Helper()
	useBackend(t, backend)
	b, err := NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	t.Logf("%s: backend %s", backend, b.Name())
	w, err := NewWeights(NetConfig{ObsDim: s.ObsDim, NumActions: s.NumActions, ValueDim: s.ValueDim, Width: 64, Depth: 2, Norm: NormLayer}, 5)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(b, w, DefaultBCOptions().Hyper)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]widthRule{"go": widthsFine, "xla": widthsFew}[backend]; tr.widths() != want {
		t.Errorf("%s: compacted widths rule %d, want %d (few widths on a compiling backend)", backend, tr.widths(), want)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	idx := make([]int, rows)
	var batch Batch
	losses := make([]float64, steps)
	for i := range losses {
		for j := range idx {
			idx[j] = rng.IntN(s.Len())
		}
		s.fill(&batch, idx)
		m, err := tr.BCStep(&batch)
		if err != nil {
			t.Fatalf("%s step %d: %v", backend, i, err)
		}
		losses[i] = m.Loss
	}
	return losses
}

// TestBCLossCurveAgreesAcrossBackends: the same seed, data and minibatches give the same BC
// loss curve on the pure-Go and the XLA backend, step by step, to within 1e-4 of the loss,
// relative (float32 sums in another order, sharded against whole-batch steps, differently
// padded compacted columns; the largest difference measured over the 40 steps was 3e-7),
// and both curves go down.
func TestBCLossCurveAgreesAcrossBackends(t *testing.T) {
	requireXLA(t)
	s, err := CollectSamples([]string{"valuer", "shipper", "manufacturer", "valuer"}, nil, 2, rules.Options{Players: 4}, env.WinLoss, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	const steps, rows, tol = 40, 256, 1e-4
	goLoss := bcLossCurve(t, "go", s, steps, rows)
	xlaLoss := bcLossCurve(t, "xla", s, steps, rows)
	worst := 0.0
	for i := range goLoss {
		d := math.Abs(goLoss[i]-xlaLoss[i]) / math.Abs(goLoss[i])
		worst = max(worst, d)
		if d > tol {
			t.Errorf("step %d: loss %.7f on go, %.7f on xla (%.2e apart, relative; tolerance %.0e)", i, goLoss[i], xlaLoss[i], d, tol)
		}
	}
	t.Logf("largest step-by-step difference %.2e (go %.4f -> %.4f, xla %.4f -> %.4f)", worst, goLoss[0], goLoss[steps-1], xlaLoss[0], xlaLoss[steps-1])
	if goLoss[steps-1] >= goLoss[0] || xlaLoss[steps-1] >= xlaLoss[0] {
		t.Errorf("loss did not go down: go %.4f -> %.4f, xla %.4f -> %.4f", goLoss[0], goLoss[steps-1], xlaLoss[0], xlaLoss[steps-1])
	}
}

// systemLibrary returns a shared library of this machine that is not a PJRT plugin.
func systemLibrary(t *testing.T) string {
	for _, p := range []string{"/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/lib64/libc.so.6", "/lib/aarch64-linux-gnu/libc.so.6"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("no libc.so.6 found to stand in for a library of another kind")
	return ""
}

// TestBadPluginFilesAreOneLineNamingTheScript: a plugin file that is random bytes, a
// truncated shared library, a shared library of another kind (no GetPjrtApi) or a folder
// is refused before the loader opens it (a truncated library would kill the process
// there), in one line naming the script that reinstalls it.
func TestBadPluginFilesAreOneLineNamingTheScript(t *testing.T) {
	lib := systemLibrary(t)
	whole, err := os.ReadFile(lib)
	if err != nil {
		t.Fatal(err)
	}
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(i * 7919)
	}
	for _, c := range []struct {
		name string
		data []byte // nil: a folder
		want string
	}{
		{"random bytes", random, "not a shared library"},
		{"ELF header only", whole[:64], "not a shared library"},
		{"truncated", whole[:len(whole)/2], "not a shared library"},
		{"another kind", whole, "exports no GetPjrtApi"},
		{"folder", nil, "not a file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "pjrt_c_api_cpu_plugin.so")
			if c.data == nil {
				if err := os.Mkdir(path, 0o755); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(path, c.data, 0o755); err != nil {
				t.Fatal(err)
			}
			t.Setenv("PJRT_PLUGIN_LIBRARY_PATH", dir)
			useBackend(t, "xla")
			b, err := NewBackend()
			if err == nil {
				b.Finalize()
				t.Fatal("backend created from a bad plugin file")
			}
			msg := err.Error()
			if !strings.Contains(msg, c.want) || !strings.Contains(msg, XLAScript) || !strings.Contains(msg, path) || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line with %q, the file and %s", msg, c.want, XLAScript)
			}
		})
	}
}

// TestXLAPluginIsFoundInThePluginDir: with PJRT_PLUGIN_LIBRARY_PATH unset, the plugin
// scripts/xla-cpu.sh installed in PluginDir is used by its absolute path, with host buffers
// shared as go-xla does for a plugin named cpu.
func TestXLAPluginIsFoundInThePluginDir(t *testing.T) {
	if _, set := os.LookupEnv("PJRT_PLUGIN_LIBRARY_PATH"); set {
		t.Skip("PJRT_PLUGIN_LIBRARY_PATH is set: the plugin folder is not searched")
	}
	requireXLA(t)
	want := filepath.Join(PluginDir(), "pjrt_c_api_cpu_plugin.so")
	if _, err := os.Stat(want); err != nil {
		t.Skipf("no plugin in %s", PluginDir())
	}
	for _, c := range []string{"xla", "xla:cpu", "xla:cpu,noshared_buffers"} {
		got, err := findXLAPlugin(c)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(got, "xla:"+want+",") || strings.Count(got, "shared_buffers") != 1 {
			t.Errorf("findXLAPlugin(%q) = %q, want xla:%s with one shared_buffers option", c, got, want)
		}
	}
}

// fd2 runs fn with file descriptor 2 sent to a file and returns what fn wrote there.
func fd2(t *testing.T, fn func()) string {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved, err := unix.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Dup2(int(f.Fd()), 2); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() { _ = unix.Dup2(saved, 2); _ = unix.Close(saved) }()
		fn()
	}()
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestHoldStderrShowsPluginLogsOnlyWhenItStarts: what a plugin writes to standard error
// while it loads reaches the user if the backend starts, and is dropped if it fails (the
// error line says why).
func TestHoldStderrShowsPluginLogsOnlyWhenItStarts(t *testing.T) {
	if got := fd2(t, func() { holdStderr(func() { fmt.Fprint(os.Stderr, "plugin log\n") }) }); got != "plugin log\n" {
		t.Errorf("a backend that started: standard error %q, want the plugin's line", got)
	}
	got := fd2(t, func() {
		defer func() { _ = recover() }()
		holdStderr(func() {
			fmt.Fprint(os.Stderr, "cuInit failed\n")
			panic("no GPU")
		})
	})
	if got != "" {
		t.Errorf("a backend that failed: standard error %q, want nothing", got)
	}
}
