//go:build xla

package training

// With the xla build tag the XLA backend is compiled in as well, so GOMLX_BACKEND=xla (or
// xla:cuda and so on) selects it. It needs the PJRT plugin on the machine; the default build
// uses only the pure-Go backend.
import _ "github.com/gomlx/gomlx/backends/xla"
