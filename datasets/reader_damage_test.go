package datasets

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// readEverything reads both tables of every shard and returns the first error.
func readEverything(ds *Dataset) error {
	for _, err := range ds.Games() {
		if err != nil {
			return err
		}
	}
	for _, err := range ds.StepBatches() {
		if err != nil {
			return err
		}
	}
	return nil
}

func TestTruncatedAndCorruptFilesGiveClearErrors(t *testing.T) {
	for _, f := range []Format{Arrow, Parquet} {
		for _, damage := range []string{"truncate-half", "truncate-footer", "zero-middle", "garbage", "empty", "missing"} {
			t.Run(string(f)+"-"+damage, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				dir := t.TempDir()
				writeFake(t, dir, testMeta(false, false), WriteOptions{Format: f, Compression: "zstd", BatchRows: 16, Allocator: mem}, 12, 4)
				sName, _ := ShardFileNames(1, f)
				path := filepath.Join(dir, sName)
				b, err := os.ReadFile(path)
				require.NoError(t, err)
				switch damage {
				case "truncate-half":
					b = b[:len(b)/2]
				case "truncate-footer":
					b = b[:len(b)-7]
				case "zero-middle":
					// Wipe a stretch of the data pages / record bodies, keeping the footer.
					for i := len(b) / 4; i < len(b)/2; i++ {
						b[i] = 0
					}
				case "garbage":
					b = []byte("this is not a dataset file at all, just some text")
				case "empty":
					b = nil
				}
				if damage == "missing" {
					require.NoError(t, os.Remove(path))
				} else {
					require.NoError(t, os.WriteFile(path, b, 0o644))
				}
				ds, err := Open(dir, WithAllocator(mem), AcceptEncodings(testEncoding))
				require.NoError(t, err)
				err = readEverything(ds)
				require.Error(t, err)
				if damage != "missing" {
					require.ErrorIs(t, err, ErrCorrupt)
				}
				require.Contains(t, err.Error(), sName)
			})
		}
	}
}

func TestUnknownEncodingVersionIsRefused(t *testing.T) {
	// The registry is global: start from (and leave) a registry without the test encoding,
	// so the test holds when run again in the same process (-count=N).
	forgetEncoding := func() {
		knownMu.Lock()
		delete(knownEncodings, testEncoding)
		knownMu.Unlock()
	}
	forgetEncoding()
	t.Cleanup(forgetEncoding)
	dir := t.TempDir()
	writeFake(t, dir, testMeta(false, false), WriteOptions{Format: Parquet}, 3, 2)
	_, err := Open(dir, AcceptEncodings("obs-v999"))
	require.ErrorIs(t, err, ErrEncodingVersion)
	require.Contains(t, err.Error(), `"test-enc-1"`)
	require.Contains(t, err.Error(), "obs-v999")

	// The file-level check refuses too, whatever the manifest says.
	sName, _ := ShardFileNames(0, Parquet)
	_, err = OpenTable(filepath.Join(dir, sName), "steps", AcceptEncodings("obs-v999"))
	require.ErrorIs(t, err, ErrEncodingVersion)

	// Registering the version makes it known.
	_, err = Open(dir)
	require.ErrorIs(t, err, ErrEncodingVersion)
	RegisterEncoding(testEncoding)
	_, err = Open(dir)
	require.NoError(t, err)
}

func TestWrongTableKindAndFormatVersion(t *testing.T) {
	dir := t.TempDir()
	writeFake(t, dir, testMeta(false, false), WriteOptions{Format: Arrow}, 2, 2)
	_, gName := ShardFileNames(0, Arrow)
	_, err := OpenTable(filepath.Join(dir, gName), "steps", AcceptEncodings(testEncoding))
	require.ErrorIs(t, err, ErrCorrupt)
	require.Contains(t, err.Error(), "expected a steps table")

	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	require.NoError(t, err)
	var raw map[string]any
	require.NoError(t, json.Unmarshal(b, &raw))
	raw["manifest_version"] = 99
	b, _ = json.Marshal(raw)
	require.NoError(t, os.WriteFile(filepath.Join(dir, ManifestName), b, 0o644))
	_, err = Open(dir, AcceptEncodings(testEncoding))
	require.ErrorIs(t, err, ErrFormatVersion)

	require.NoError(t, os.WriteFile(filepath.Join(dir, ManifestName), []byte(`{"manifest_version":1,`), 0o644))
	_, err = Open(dir, AcceptEncodings(testEncoding))
	require.ErrorIs(t, err, ErrCorrupt)

	_, err = Open(t.TempDir())
	require.ErrorIs(t, err, ErrNoManifest)
}

func TestManifestRowCountsAreChecked(t *testing.T) {
	dir := t.TempDir()
	writeFake(t, dir, testMeta(false, false), WriteOptions{Format: Arrow}, 4, 2)
	m, err := ReadManifest(dir)
	require.NoError(t, err)
	m.Shards[1].Steps++
	require.NoError(t, WriteManifest(dir, m))
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	err = readEverything(ds)
	require.ErrorIs(t, err, ErrCorrupt)
	require.Contains(t, err.Error(), "the manifest says")
}
