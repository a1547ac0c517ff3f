package cli

import (
	"io"

	"github.com/container-rl/container/internal/atomicfile"
)

// writeOutputFile writes data to an output file the user named (eval --csv, export --out):
// "-" is standard output (stdout); anything else goes through atomicfile.WriteOutput, which
// replaces a regular file atomically, follows symbolic links, writes through character
// devices and named pipes and never replaces anything but a regular file (docs/FILES.md).
// Check the path first with rundir.CheckFile.
func writeOutputFile(path string, data []byte, stdout io.Writer) error {
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	return atomicfile.WriteOutput(path, data)
}
