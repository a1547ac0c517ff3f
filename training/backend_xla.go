//go:build xla

package training

// With the xla build tag the XLA backend is compiled in as well, so --backend xla (or
// GOMLX_BACKEND=xla, xla:cuda and so on) selects it. It needs a PJRT plugin on the machine
// (scripts/xla-cpu.sh installs the CPU one); the default build uses only the pure-Go backend.

import (
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/gomlx/gomlx/backends/xla"
	"golang.org/x/sys/unix"
)

func init() {
	// Nothing is downloaded at run time: go-xla would otherwise try to fetch plugins from the
	// internet the first time a backend is created. It reads GOMLX_NO_AUTO_INSTALL before
	// this runs, so the switch is also turned off directly; the variable is set for any child
	// process.
	if _, set := os.LookupEnv(xla.NoAutoInstallEnv); !set {
		_ = os.Setenv(xla.NoAutoInstallEnv, "1")
	}
	xla.EnableAutoInstall(false)
	xlaConfig = findXLAPlugin
	xlaQuiet = holdStderr
}

// holdStderr runs fn with the process's standard error (file descriptor 2, where the plugin's
// C++ logging and go-xla's klog write) sent to a temporary file, and copies what was written
// there back to standard error if fn returns normally; if fn panics (the backend could not be
// created: NewBackend reports why in one line) it is dropped.
func holdStderr(fn func()) {
	f, err := os.CreateTemp("", "container-xla-*.log")
	if err != nil {
		fn()
		return
	}
	defer os.Remove(f.Name())
	defer f.Close()
	saved, err := unix.Dup(2)
	if err != nil {
		fn()
		return
	}
	if err := unix.Dup2(int(f.Fd()), 2); err != nil {
		_ = unix.Close(saved)
		fn()
		return
	}
	ok := false
	defer func() {
		_ = unix.Dup2(saved, 2)
		_ = unix.Close(saved)
		if ok {
			if held, err := os.ReadFile(f.Name()); err == nil && len(held) > 0 {
				_, _ = os.Stderr.Write(held)
			}
		}
	}()
	fn()
	ok = true
}

// pluginPathEnv is go-xla's plugin search path variable (read once, when the program starts).
const pluginPathEnv = "PJRT_PLUGIN_LIBRARY_PATH"

// findXLAPlugin resolves an xla configuration ("xla", "xla:cpu", "xla:cuda",
// "xla:/abs/file.so", each optionally followed by ",option"s) to one naming the plugin file
// by its absolute path. A plugin name (default "cpu") is looked up as
// pjrt_c_api_<name>_plugin.so in the folders of $PJRT_PLUGIN_LIBRARY_PATH when it is set,
// else in PluginDir and then go-xla's own folders (~/.local/lib/go-xla, /usr/local/lib/go-xla).
// The file is checked (checkPluginFile) before the loader sees it: go-xla would dlopen every
// candidate it finds, and a truncated library kills the process there (SIGBUS) instead of
// returning an error.
func findXLAPlugin(config string) (string, error) {
	_, opts, _ := strings.Cut(config, ":")
	plugin, rest, _ := strings.Cut(opts, ",")
	if plugin == "" {
		plugin = "cpu"
	}
	path := plugin
	if !filepath.IsAbs(plugin) {
		if strings.ContainsAny(plugin, `/\`) {
			return "", fmt.Errorf("xla: plugin %q: give a plugin name (cpu, cuda) or an absolute path to its .so file", plugin)
		}
		dirs := pluginSearchDirs()
		path = ""
	search:
		for _, dir := range dirs {
			for _, name := range []string{"pjrt_c_api_" + plugin + "_plugin.so", "pjrt-plugin-" + plugin + ".so", "pjrt_plugin_" + plugin + ".so"} {
				p := filepath.Join(dir, name)
				if _, err := os.Stat(p); err == nil {
					path = p
					break search
				}
			}
		}
		if path == "" {
			return "", fmt.Errorf("xla: no PJRT %q plugin (pjrt_c_api_%s_plugin.so) in %s: %s", plugin, plugin,
				strings.Join(dirs, ", "), pluginAdvice(plugin))
		}
	}
	if err := checkPluginFile(path); err != nil {
		return "", err
	}
	out := "xla:" + path
	if plugin == "cpu" && !strings.Contains(rest, "shared_buffers") {
		// go-xla shares host buffers with a plugin named "cpu"; given as a path, say so.
		out += ",shared_buffers"
	}
	if rest != "" {
		out += "," + rest
	}
	return out, nil
}

// pluginSearchDirs are the folders findXLAPlugin looks in, in order.
func pluginSearchDirs() []string {
	if v, set := os.LookupEnv(pluginPathEnv); set {
		var dirs []string
		for _, d := range strings.Split(v, ":") {
			if d != "" {
				dirs = append(dirs, d)
			}
		}
		return dirs
	}
	var dirs []string
	if d := PluginDir(); d != "" {
		dirs = append(dirs, d)
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".local", "lib", "go-xla"))
	}
	return append(dirs, "/usr/local/lib/go-xla")
}

// pluginAdvice says how to get a plugin by name.
func pluginAdvice(plugin string) string {
	if plugin == "cpu" {
		return "install it with " + XLAScript + " (or set " + pluginPathEnv + ")"
	}
	return "see docs/TRAINING.md, \"XLA and GPUs\" (" + XLAScript + " installs the CPU one)"
}

// elfMachine is this architecture's ELF machine.
var elfMachine = map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[runtime.GOARCH]

// checkPluginFile checks, without loading it, that path is a complete shared library for
// this machine that exports the PJRT entry point GetPjrtApi: every segment and section lies
// inside the file (a truncated library makes dlopen die with SIGBUS), and a library of
// another kind (no GetPjrtApi) is refused by name.
func checkPluginFile(path string) error {
	bad := func(why string) error {
		return fmt.Errorf("xla: PJRT plugin %s %s: reinstall it with %s", path, why, XLAScript)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return bad(fmt.Sprintf("cannot be read (%v)", unwrapPath(err)))
	}
	if !fi.Mode().IsRegular() {
		return bad("is not a file")
	}
	f, err := elf.Open(path)
	if err != nil {
		return bad("is not a shared library (corrupt or not a plugin)")
	}
	defer f.Close()
	if f.Type != elf.ET_DYN || f.Class != elf.ELFCLASS64 || (elfMachine != elf.EM_NONE && f.Machine != elfMachine) {
		return bad(fmt.Sprintf("is not a shared library for this machine (%s, %s, %s)", f.Type, f.Class, f.Machine))
	}
	size := uint64(fi.Size())
	for _, p := range f.Progs {
		if p.Off+p.Filesz > size {
			return bad(fmt.Sprintf("is truncated (%d bytes, a segment ends at %d)", size, p.Off+p.Filesz))
		}
	}
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOBITS && s.Offset+s.FileSize > size {
			return bad(fmt.Sprintf("is truncated (%d bytes, section %s ends at %d)", size, s.Name, s.Offset+s.FileSize))
		}
	}
	syms, err := f.DynamicSymbols()
	if err != nil {
		return bad(fmt.Sprintf("has no readable symbol table (%v)", err))
	}
	for _, s := range syms {
		if s.Name == "GetPjrtApi" && elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Section != elf.SHN_UNDEF {
			return nil
		}
	}
	return bad("is a shared library of another kind (it exports no GetPjrtApi, the PJRT entry point)")
}

// unwrapPath drops an *os.PathError's repetition of the path.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
