package web

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/env/rules"
)

// dataDir is the --data directory: every path a client names is resolved inside it.
type dataDir struct {
	root string // absolute, symbolic links resolved
}

func openDataDir(dir string) (*dataDir, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("web: --data %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("web: --data %s: %w", dir, err)
	}
	st, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("web: --data %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("web: --data %s is not a directory", dir)
	}
	return &dataDir{root: real}, nil
}

// resolve turns a client's path (relative to the data directory, "/" separated) into a real
// path inside it. Absolute paths, ".." leaving the directory and symbolic links leading out
// of it are refused with 400 or 403; a missing file is 404.
func (d *dataDir) resolve(rel string) (string, error) {
	if d == nil {
		return "", errorf(http.StatusNotFound, "no data directory: start the server with --data DIR to open files")
	}
	if rel == "" {
		return "", errorf(http.StatusBadRequest, "empty path")
	}
	if strings.ContainsRune(rel, 0) || len(rel) > 4096 {
		return "", errorf(http.StatusBadRequest, "path %s is not a usable file name", rules.Quote(rel))
	}
	if filepath.IsAbs(rel) || strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, `\`) || filepath.VolumeName(rel) != "" {
		return "", errorf(http.StatusBadRequest, "path %s is absolute; give a path relative to the data directory", rules.Quote(rel))
	}
	clean := filepath.Clean(filepath.FromSlash(rel))
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", errorf(http.StatusBadRequest, "path %s leaves the data directory", rules.Quote(rel))
	}
	real, err := filepath.EvalSymlinks(filepath.Join(d.root, clean))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", errorf(http.StatusNotFound, "no file %s in the data directory", rules.Quote(rel))
		}
		return "", errorf(http.StatusBadRequest, "path %s: %v", rules.Quote(rel), err)
	}
	if real != d.root && !strings.HasPrefix(real, d.root+string(filepath.Separator)) {
		return "", errorf(http.StatusForbidden, "path %s leads outside the data directory (symbolic link)", rules.Quote(rel))
	}
	return real, nil
}

// readLimited reads a resolved regular file of at most limit bytes.
func readLimited(path, rel string, limit int64) ([]byte, error) {
	// Stat before opening: opening a named pipe blocks until a writer comes, forever.
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, errorf(http.StatusBadRequest, "%q is not a regular file", rel)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, errorf(http.StatusNotFound, "cannot open %s: %v", rules.Quote(rel), err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, errorf(http.StatusBadRequest, "%s is not a regular file", rules.Quote(rel))
	}
	if st.Size() > limit {
		return nil, errorf(http.StatusRequestEntityTooLarge, "%s has %d bytes; the limit is %d", rules.Quote(rel), st.Size(), limit)
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

// FileList is what the data directory offers.
type FileList struct {
	Records  []string      `json:"records"`  // game records (JSON or binary)
	Datasets []DatasetInfo `json:"datasets"` // self-play dataset directories
	Bots     []string      `json:"bots"`     // trained .bot files
}

// DatasetInfo names a dataset directory and its games.
type DatasetInfo struct {
	Path   string   `json:"path"`
	Games  int      `json:"games"`
	Agents []string `json:"agents"`
}

const maxListed = 2000

// list walks the data directory (not following symbolic links, at most 5 levels deep).
func (d *dataDir) list() FileList {
	out := FileList{Records: []string{}, Datasets: []DatasetInfo{}, Bots: []string{}}
	if d == nil {
		return out
	}
	seen := 0
	_ = filepath.WalkDir(d.root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(d.root, path)
		rel = filepath.ToSlash(rel)
		if seen++; seen > maxListed {
			return fs.SkipAll
		}
		if e.IsDir() {
			if rel != "." && (strings.HasPrefix(e.Name(), ".") || e.Name() == "node_modules" || strings.Count(rel, "/") >= 5) {
				return fs.SkipDir
			}
			if m, err := datasets.ReadManifest(path); err == nil {
				g, _ := m.GamesDone()
				out.Datasets = append(out.Datasets, DatasetInfo{Path: rel, Games: g, Agents: m.Agents})
				return fs.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() {
			return nil
		}
		switch {
		case strings.HasSuffix(e.Name(), ".bot"):
			out.Bots = append(out.Bots, rel)
		case isRecordFile(path):
			out.Records = append(out.Records, rel)
		}
		return nil
	})
	sort.Strings(out.Records)
	sort.Strings(out.Bots)
	return out
}

// isRecordFile peeks at a file's start for a game record's magic or format field.
func isRecordFile(path string) bool {
	if !strings.HasSuffix(path, ".json") && !strings.HasSuffix(path, ".ctnr") {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	return bytes.HasPrefix(head, []byte("CTNR")) || bytes.Contains(head, []byte(`"`+rules.RecordFormat+`"`))
}

func (s *Server) handleFiles(w http.ResponseWriter, r *http.Request) {
	reply(w, s.data.list(), nil)
}
