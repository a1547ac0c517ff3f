package datasets

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/container-rl/container/internal/atomicfile"
	"github.com/container-rl/container/internal/strictjson"
)

// ManifestName is the manifest's file name inside a dataset directory.
const ManifestName = "manifest.json"

// ManifestVersion is the version of the manifest layout.
const ManifestVersion = 1

// Manifest describes a dataset directory: the run that produced it and its complete shards.
// Shard k holds games [k*GamesPerShard, min((k+1)*GamesPerShard, Games)), so the plan alone
// says which games every shard must contain; Shards lists those already complete, sorted by
// index.
type Manifest struct {
	Version       int         `json:"manifest_version"`
	Format        Format      `json:"format"`
	Compression   Compression `json:"compression"`
	Seed          uint64      `json:"seed"`
	Games         int         `json:"games"`
	GamesPerShard int         `json:"games_per_shard"`
	Agents        []string    `json:"agents"`
	// AgentFiles records a content hash of every agent that is a bot file (its SHA-256) or a
	// trained network registered under a name (bots.Fingerprinter), so a resume after the
	// network behind a name changed is refused. Absent in datasets of earlier builds.
	AgentFiles []AgentFile `json:"agent_files,omitempty"`
	Meta       Meta        `json:"meta"`
	Shards     []ShardInfo `json:"shards"`
	// Part is set in the directory of one part of a split run (selfplay --shard); see Part.
	Part *Part `json:"part,omitempty"`
	// MergedFrom lists the part directories a merged manifest was made from (see Merge).
	MergedFrom []string `json:"merged_from,omitempty"`
	// Checksum is the SHA-256 of the manifest's canonical JSON with this field empty (see
	// manifestSum); ReadManifest refuses a manifest that does not match it. Manifests of
	// earlier builds have none.
	Checksum string `json:"checksum,omitempty"`
}

// AgentFile is the content hash of one bot-file agent.
type AgentFile struct {
	Agent  string `json:"agent"`
	SHA256 string `json:"sha256"`
}

// manifestSum is the hex SHA-256 of m's compact JSON with Checksum empty and the rules
// options compacted, the form that survives a write and a read unchanged.
func manifestSum(m *Manifest) (string, error) {
	c := *m
	c.Checksum = ""
	if len(c.Meta.RulesOptions) != 0 {
		var b bytes.Buffer
		if err := json.Compact(&b, c.Meta.RulesOptions); err == nil {
			c.Meta.RulesOptions = b.Bytes()
		}
	}
	b, err := json.Marshal(&c)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:]), nil
}

// NumShards is the number of shards the plan has.
func (m *Manifest) NumShards() int {
	return (m.Games + m.GamesPerShard - 1) / m.GamesPerShard
}

// ShardRange returns the first game and the number of games of shard k.
func (m *Manifest) ShardRange(k int) (first uint64, n int) {
	lo := k * m.GamesPerShard
	hi := min(lo+m.GamesPerShard, m.Games)
	return uint64(lo), hi - lo
}

// Complete reports whether every shard is written (every shard of its part, for a part).
func (m *Manifest) Complete() bool { lo, hi := m.OwnedShards(); return len(m.Shards) == hi-lo }

// HasShard reports whether shard k is complete.
func (m *Manifest) HasShard(k int) bool {
	i := sort.Search(len(m.Shards), func(i int) bool { return m.Shards[i].Index >= k })
	return i < len(m.Shards) && m.Shards[i].Index == k
}

// AddShard records a complete shard, keeping Shards sorted.
func (m *Manifest) AddShard(s ShardInfo) {
	i := sort.Search(len(m.Shards), func(i int) bool { return m.Shards[i].Index >= s.Index })
	if i < len(m.Shards) && m.Shards[i].Index == s.Index {
		m.Shards[i] = s
		return
	}
	m.Shards = append(m.Shards, ShardInfo{})
	copy(m.Shards[i+1:], m.Shards[i:])
	m.Shards[i] = s
}

// GamesDone and StepsDone count the games and steps in complete shards.
func (m *Manifest) GamesDone() (games int, steps int64) {
	for _, s := range m.Shards {
		games += s.Games
		steps += s.Steps
	}
	return games, steps
}

// Validate checks the manifest is self-consistent.
func (m *Manifest) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: manifest: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
	if m.Version != ManifestVersion {
		return fmt.Errorf("%w: manifest version %d, this reader reads %d", ErrFormatVersion, m.Version, ManifestVersion)
	}
	if _, err := ParseFormat(string(m.Format)); err != nil || m.Format == "" {
		return bad("format %q", m.Format)
	}
	if m.Games < 0 || m.GamesPerShard <= 0 {
		return bad("%d games in shards of %d", m.Games, m.GamesPerShard)
	}
	if err := m.Meta.Validate(); err != nil {
		return bad("%v", err)
	}
	if m.Part != nil {
		if err := m.Part.Validate(); err != nil {
			return bad("%v", err)
		}
	}
	lo, hi := m.OwnedShards()
	for i, s := range m.Shards {
		first, n := m.ShardRange(s.Index)
		if s.Index < lo || s.Index >= hi || (i > 0 && m.Shards[i-1].Index >= s.Index) {
			return bad("shard index %d out of order or outside the plan", s.Index)
		}
		if s.FirstGame != first || s.Games != n {
			return bad("shard %d holds games [%d,+%d), the plan says [%d,+%d)", s.Index, s.FirstGame, s.Games, first, n)
		}
		for _, f := range []string{s.StepsFile, s.GamesFile} {
			// A merged manifest names files in its parts' directories (part/steps-00000.arrow).
			if f == "" || !filepath.IsLocal(f) || filepath.Clean(f) != f || strings.Contains(f, "\\") {
				return bad("shard %d file name %q", s.Index, f)
			}
		}
	}
	return nil
}

// WriteManifest writes m to dir atomically (temporary file, sync, rename).
func WriteManifest(dir string, m *Manifest) error {
	sum, err := manifestSum(m)
	if err != nil {
		return fmt.Errorf("datasets: manifest: %w", err)
	}
	m.Checksum = sum
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("datasets: manifest: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, ManifestName), append(b, '\n')); err != nil {
		return fmt.Errorf("datasets: writing manifest: %w", err)
	}
	return nil
}

// ErrNoManifest: the directory has no manifest (not a dataset, or nothing was ever written).
var ErrNoManifest = errors.New("datasets: no manifest")

// ReadManifest reads and validates dir's manifest.
func ReadManifest(dir string) (*Manifest, error) {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("datasets: %s is a file, not a dataset directory", dir)
	}
	name := filepath.Join(dir, ManifestName)
	// A named pipe or device called manifest.json would block the read (or never end).
	st, err := os.Stat(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w in %s", ErrNoManifest, dir)
	}
	if err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a regular file", ErrCorrupt, name)
	}
	b, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w in %s", ErrNoManifest, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	m := &Manifest{}
	if err := strictjson.Decode(b, m); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, filepath.Join(dir, ManifestName), err)
	}
	if m.Checksum != "" && m.Version == ManifestVersion { // another version: Validate says so
		sum, err := manifestSum(m)
		if err != nil || sum != m.Checksum {
			return nil, fmt.Errorf("%w: %s: checksum mismatch (the file was edited or damaged after it was written)",
				ErrCorrupt, filepath.Join(dir, ManifestName))
		}
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if len(m.Meta.RulesOptions) != 0 {
		var b bytes.Buffer
		if err := json.Compact(&b, m.Meta.RulesOptions); err == nil {
			m.Meta.RulesOptions = b.Bytes()
		}
	}
	return m, nil
}

// shardTemp matches the temporary names of the shard writer (steps-NNNNN.FORMAT.tmp).
var shardTemp = regexp.MustCompile(`^(steps|games)-[0-9]{5,}\.(arrow|parquet)\.tmp$`)

// RemoveTemporaries deletes the shard files an interrupted run left under their temporary
// names (steps-NNNNN.FORMAT.tmp, games-NNNNN.FORMAT.tmp) in a dataset directory. No other
// file is touched.
func RemoveTemporaries(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	for _, e := range ents {
		if e.Type().IsRegular() && shardTemp.MatchString(e.Name()) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("datasets: %w", err)
			}
		}
	}
	return nil
}

// ErrMissingShard is wrapped by VerifyShards' error for a listed shard whose file is gone.
var ErrMissingShard = errors.New("datasets: a listed shard file is missing")

// VerifyShards checks every shard m lists in dir: both files exist with the recorded size
// and SHA-256. It returns the indices of shards with a missing file (the caller may play
// them again) and an error for the first file that exists but does not match.
func VerifyShards(dir string, m *Manifest) (missing []int, err error) {
	for _, s := range m.Shards {
		gone := false
		for _, f := range []struct {
			name string
			size int64
			sum  string
		}{{s.StepsFile, s.StepsBytes, s.StepsSHA256}, {s.GamesFile, s.GamesBytes, s.GamesSHA256}} {
			p := filepath.Join(dir, f.name)
			st, err := os.Stat(p)
			if errors.Is(err, os.ErrNotExist) {
				gone = true
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("datasets: %w", err)
			}
			if f.sum == "" && st.Size() != f.size {
				return nil, fmt.Errorf("%w: %s has %d bytes, the manifest says %d (truncated or overwritten)", ErrCorrupt, p, st.Size(), f.size)
			}
			if err := verifyFile(p, f.size, f.sum); err != nil {
				return nil, err
			}
		}
		if gone {
			missing = append(missing, s.Index)
		}
	}
	return missing, nil
}

// RemoveShard drops shard k from the list (its files are not touched).
func (m *Manifest) RemoveShard(k int) {
	m.Shards = slices.DeleteFunc(m.Shards, func(s ShardInfo) bool { return s.Index == k })
}
