package training

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gomlx/gomlx/backends"
)

// XLAScript installs the XLA CPU plugin and builds container with the xla tag; every error
// about a missing or unloadable XLA backend names it.
const XLAScript = "scripts/xla-cpu.sh"

// backendChoice is SetBackend's configuration ("" = the environment's).
var backendChoice string

// SetBackend selects the GoMLX backend that NewBackend creates from now on: "go" (pure Go,
// the default), "xla" (XLA through a PJRT plugin; needs a build with the xla tag) or either
// with its options after a colon ("xla:cuda"). It overrides $GOMLX_BACKEND; when that names
// the same backend with options ("xla:cuda") and config gives none, its options are kept.
// An empty config returns to $GOMLX_BACKEND.
func SetBackend(config string) error {
	name, _, _ := strings.Cut(config, ":")
	if config != "" && name != "go" && name != "xla" {
		return fmt.Errorf("%w: unknown backend %q (want go or xla)", ErrBackend, config)
	}
	backendChoice = config
	return nil
}

// BackendConfig is the configuration NewBackend uses: SetBackend's, else $GOMLX_BACKEND's,
// else DefaultBackend.
func BackendConfig() string {
	env := os.Getenv(backends.ConfigEnvVar)
	switch {
	case backendChoice == "":
		if env == "" {
			return DefaultBackend
		}
		return env
	case !strings.Contains(backendChoice, ":") && strings.HasPrefix(env, backendChoice+":"):
		return env
	}
	return backendChoice
}

// PluginDir is the folder scripts/xla-cpu.sh installs PJRT plugins into, and the first place
// an XLA backend looks for one when $PJRT_PLUGIN_LIBRARY_PATH is unset:
// $XDG_DATA_HOME/container/pjrt, by default ~/.local/share/container/pjrt.
func PluginDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "container", "pjrt")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".local", "share", "container", "pjrt")
}

// xlaConfig, set where the xla backend is compiled in (backend_xla.go), turns an xla
// configuration into the one to create (the plugin found and checked) or says in one line
// why there is none.
var xlaConfig func(config string) (string, error)

// xlaQuiet, set with xlaConfig, runs the creation of an xla backend (loading the plugin,
// starting its client) with the plugin's own log lines held back, and shows them only if it
// succeeds: a plugin that fails is then one error line, not a screen of C++ logging.
var xlaQuiet func(create func())

// errNoXLA is returned for the xla backend by a build without it.
var errNoXLA = errors.New("xla is not compiled into this container (a pure-Go build): " + XLAScript + " installs its plugin and builds one with it")
