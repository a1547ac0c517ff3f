// Package atomicfile writes files so that readers see either the old content or the whole
// new content: a temporary file in the same directory, synced, then renamed over the target.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces path with data atomically. The file is readable by everyone and writable by
// its owner (0644, as most tools write their output; a temporary file alone would be 0600).
// On error the temporary file is removed and the old file, if any, is left as it was.
func Write(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = f.Chmod(0o644)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
