package datasets

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/container-rl/container/env/rules"
)

var (
	knownMu        sync.RWMutex
	knownEncodings = map[string]bool{}
)

// RegisterEncoding marks an observation encoding version as known to readers. The program
// that owns the encoding registers its version (the self-play driver registers the current
// one); readers refuse data whose version was never registered nor passed to
// AcceptEncodings.
func RegisterEncoding(version string) {
	knownMu.Lock()
	defer knownMu.Unlock()
	knownEncodings[version] = true
}

func knownEncodingList() []string {
	knownMu.RLock()
	defer knownMu.RUnlock()
	out := make([]string, 0, len(knownEncodings))
	for v := range knownEncodings {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// OpenOption configures Open and OpenTable.
type OpenOption func(*openConfig)

type openConfig struct {
	mem       memory.Allocator
	encodings []string
	columns   []string
}

// WithColumns asks OpenTable for these columns only. Parquet files then decode nothing else
// (the rest are skipped on disk); Arrow IPC files still return every column.
func WithColumns(names ...string) OpenOption { return func(c *openConfig) { c.columns = names } }

// WithAllocator sets the allocator for the arrays readers return.
func WithAllocator(mem memory.Allocator) OpenOption { return func(c *openConfig) { c.mem = mem } }

// AcceptEncodings makes readers accept exactly these encoding versions instead of the
// registered ones (see RegisterEncoding).
func AcceptEncodings(versions ...string) OpenOption {
	return func(c *openConfig) { c.encodings = versions }
}

func newOpenConfig(opts []OpenOption) *openConfig {
	c := &openConfig{mem: memory.DefaultAllocator}
	for _, o := range opts {
		o(c)
	}
	if c.encodings == nil {
		c.encodings = knownEncodingList()
	}
	return c
}

func (c *openConfig) checkEncoding(v, where string) error {
	for _, k := range c.encodings {
		if k == v {
			return nil
		}
	}
	known := strings.Join(c.encodings, ", ")
	if known == "" {
		known = "none registered"
	}
	return fmt.Errorf("%w: %s was written with observation encoding %s; this reader knows %s", ErrEncodingVersion, where, rules.Quote(v), known)
}

// Dataset is an opened dataset directory. It holds no open files: every iteration opens
// the shards it reads and closes them when done.
type Dataset struct {
	Dir      string
	Manifest *Manifest
	Meta     *Meta
	cfg      *openConfig
}

// Open reads dir's manifest and checks its format and encoding versions. Only complete
// shards (those the manifest lists) are read; an unfinished run can be read as it stands.
func Open(dir string, opts ...OpenOption) (*Dataset, error) {
	cfg := newOpenConfig(opts)
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if err := cfg.checkEncoding(m.Meta.EncodingVersion, dir); err != nil {
		return nil, err
	}
	meta := m.Meta
	return &Dataset{Dir: dir, Manifest: m, Meta: &meta, cfg: cfg}, nil
}

// recordSource is what the Arrow IPC and Parquet readers have in common.
type recordSource interface {
	Read() (arrow.RecordBatch, error)
}

// Table is one open steps or games file.
type Table struct {
	Path   string
	Meta   *Meta
	Schema *arrow.Schema
	f      *os.File
	ipc    *ipc.FileReader
	pq     *file.Reader
	fr     *pqarrow.FileReader
	leaves []int // Parquet leaf columns read (nil: all)
	rr     pqarrow.RecordReader
	src    recordSource
}

// OpenTable opens one file of a dataset; table is "steps" or "games". The file's format is
// read from its extension. The schema metadata is checked (format version, table kind,
// encoding version) and the schema must be the one Meta describes.
//
// OpenTable trusts the file's structure: Arrow's IPC and Parquet readers believe the lengths
// a file declares, and a damaged file can make them exhaust memory. Dataset reads verify
// each file's SHA-256 against the manifest first; use OpenTable alone only on trusted files.
func OpenTable(path, table string, opts ...OpenOption) (t *Table, err error) {
	err = guard(path, func() error {
		var e error
		t, e = openTable(path, table, opts)
		return e
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

func openTable(path, table string, opts []OpenOption) (*Table, error) {
	cfg := newOpenConfig(opts)
	t := &Table{Path: path}
	var err error
	corrupt := func(err error) error {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, path, err)
	}
	var schema *arrow.Schema
	switch {
	case strings.HasSuffix(path, "."+string(Parquet)):
		if t.pq, err = file.OpenParquetFile(path, false); err != nil {
			return nil, corrupt(err)
		}
		// Batches as large as the largest row group, so ReadUnit gets a row group in one batch.
		batch := int64(8192)
		for i := 0; i < t.pq.NumRowGroups(); i++ {
			batch = max(batch, t.pq.MetaData().RowGroup(i).NumRows())
		}
		fr, err := pqarrow.NewFileReader(t.pq, pqarrow.ArrowReadProperties{BatchSize: batch}, cfg.mem)
		if err != nil {
			t.pq.Close()
			return nil, corrupt(err)
		}
		if schema, err = fr.Schema(); err != nil {
			t.pq.Close()
			return nil, corrupt(err)
		}
		t.fr = fr
		t.Schema = schema
		if err := t.checkSchema(table, cfg); err != nil {
			t.pq.Close()
			return nil, err
		}
		if len(cfg.columns) > 0 {
			t.leaves = leafColumns(fr.Manifest, cfg.columns)
		}
		if t.rr, err = fr.GetRecordReader(context.Background(), t.leaves, nil); err != nil {
			t.pq.Close()
			return nil, corrupt(err)
		}
		t.src = t.rr
	case strings.HasSuffix(path, "."+string(Arrow)):
		if t.f, err = os.Open(path); err != nil {
			return nil, fmt.Errorf("datasets: %w", err)
		}
		if t.ipc, err = ipc.NewFileReader(t.f, ipc.WithAllocator(cfg.mem)); err != nil {
			t.f.Close()
			return nil, corrupt(err)
		}
		t.Schema = t.ipc.Schema()
		if err := t.checkSchema(table, cfg); err != nil {
			t.ipc.Close()
			t.f.Close()
			return nil, err
		}
		t.src = t.ipc
	default:
		return nil, fmt.Errorf("%w: %s: unknown file extension (want .arrow or .parquet)", ErrInvalid, path)
	}
	return t, nil
}

// leafColumns returns the Parquet leaf column indices of the named top-level fields.
func leafColumns(m *pqarrow.SchemaManifest, names []string) []int {
	var out []int
	var walk func(f *pqarrow.SchemaField)
	walk = func(f *pqarrow.SchemaField) {
		if f.IsLeaf() {
			out = append(out, f.ColIndex)
		}
		for i := range f.Children {
			walk(&f.Children[i])
		}
	}
	for i := range m.Fields {
		for _, n := range names {
			if m.Fields[i].Field.Name == n {
				walk(&m.Fields[i])
			}
		}
	}
	sort.Ints(out)
	return out
}

func (t *Table) checkSchema(table string, cfg *openConfig) error {
	m, err := metaFromSchema(t.Schema.Metadata(), table)
	if err != nil {
		return fmt.Errorf("%w (in %s)", err, t.Path)
	}
	if err := cfg.checkEncoding(m.EncodingVersion, t.Path); err != nil {
		return err
	}
	want := StepsSchema(m)
	if table == "games" {
		want = GamesSchema(m)
	}
	if !sameFields(want, t.Schema) {
		return fmt.Errorf("%w: %s: columns do not match the metadata:\n got %s\nwant %s", ErrCorrupt, t.Path, t.Schema, want)
	}
	t.Meta = m
	return nil
}

func sameFields(a, b *arrow.Schema) bool {
	if a.NumFields() != b.NumFields() {
		return false
	}
	for i := 0; i < a.NumFields(); i++ {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || !arrow.TypeEqual(fa.Type, fb.Type) {
			return false
		}
	}
	return true
}

// Read returns the next record batch, or io.EOF after the last. The batch is valid until the
// next Read or Close; Retain it to keep it longer.
// Every batch is validated (offsets, buffer sizes) before it is returned, so accessing its
// values cannot panic even when the file was damaged.
func (t *Table) Read() (rec arrow.RecordBatch, err error) {
	err = guard(t.Path, func() error {
		var e error
		rec, e = t.src.Read()
		if e == nil && rec == nil {
			e = io.EOF
		}
		if e == nil {
			if verr := validateRecord(rec); verr != nil {
				e = verr
			}
		}
		return e
	})
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, ErrCorrupt) {
		err = fmt.Errorf("%w: %s: %v", ErrCorrupt, t.Path, err)
	}
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// NumUnits is the number of pieces ReadUnit can read at random: record batches of an Arrow
// IPC file, row groups of a Parquet file.
func (t *Table) NumUnits() int {
	if t.ipc != nil {
		return t.ipc.NumRecords()
	}
	return t.pq.NumRowGroups()
}

// ReadUnit reads piece i (see NumUnits), validated; the caller must Release it. It does not
// disturb Read's position.
func (t *Table) ReadUnit(i int) (rec arrow.RecordBatch, err error) {
	if i < 0 || i >= t.NumUnits() {
		return nil, fmt.Errorf("%w: %s: piece %d of %d", ErrInvalid, t.Path, i, t.NumUnits())
	}
	err = guard(t.Path, func() error {
		if t.ipc != nil {
			var e error
			if rec, e = t.ipc.RecordBatchAt(i); e != nil {
				return e
			}
		} else {
			rr, e := t.fr.GetRecordReader(context.Background(), t.leaves, []int{i})
			if e != nil {
				return e
			}
			defer rr.Release()
			r, e := rr.Read()
			if e != nil {
				return e
			}
			r.Retain()
			rec = r
		}
		if e := validateRecord(rec); e != nil {
			rec.Release()
			rec = nil
			return e
		}
		return nil
	})
	if err != nil && !errors.Is(err, ErrCorrupt) {
		err = fmt.Errorf("%w: %s: piece %d: %v", ErrCorrupt, t.Path, i, err)
	}
	return rec, err
}

// Close releases the reader and closes the file.
func (t *Table) Close() error {
	var err error
	if t.rr != nil {
		t.rr.Release()
	}
	if t.pq != nil {
		err = t.pq.Close()
	}
	if t.ipc != nil {
		err = t.ipc.Close()
	}
	if t.f != nil {
		if cerr := t.f.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// openShardTable opens one table of a listed shard and checks it against the manifest.
func (d *Dataset) openShardTable(s ShardInfo, table string, columns []string) (*Table, error) {
	return d.openShardTableVerified(s, table, true, columns)
}

// OpenShardSteps opens the steps file of shard s (one the manifest lists) for ReadUnit,
// decoding only the named columns of a Parquet file (all when none are named). With verify,
// the file's size and SHA-256 are checked against the manifest first, which reads it once;
// a caller that verified the file earlier in the same process and saw it unchanged since
// (size and modification time) may skip that.
func (d *Dataset) OpenShardSteps(s ShardInfo, verify bool, columns ...string) (*Table, error) {
	return d.openShardTableVerified(s, "steps", verify, columns)
}

// VerifyShardSteps checks the steps file of shard s against the manifest's size and SHA-256.
func (d *Dataset) VerifyShardSteps(s ShardInfo) error {
	return verifyFile(filepath.Join(d.Dir, s.StepsFile), s.StepsBytes, s.StepsSHA256)
}

func (d *Dataset) openShardTableVerified(s ShardInfo, table string, verify bool, columns []string) (*Table, error) {
	name, sum, size := s.StepsFile, s.StepsSHA256, s.StepsBytes
	if table == "games" {
		name, sum, size = s.GamesFile, s.GamesSHA256, s.GamesBytes
	}
	if verify {
		if err := verifyFile(filepath.Join(d.Dir, name), size, sum); err != nil {
			return nil, err
		}
	}
	t, err := OpenTable(filepath.Join(d.Dir, name), table, WithAllocator(d.cfg.mem), AcceptEncodings(d.cfg.encodings...), WithColumns(columns...))
	if err != nil {
		return nil, err
	}
	if !t.Meta.sameShape(d.Meta) {
		t.Close()
		return nil, fmt.Errorf("%w: %s: shapes differ from the manifest's", ErrCorrupt, t.Path)
	}
	return t, nil
}

// verifyFile checks a shard file's size and SHA-256 against the manifest before any parser
// sees it (Arrow's readers trust the file's own lengths and can exhaust memory on a damaged
// one). An empty sum skips the check.
func verifyFile(path string, size int64, sum string) error {
	if sum == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return fmt.Errorf("datasets: %s: %w", path, err)
	}
	if n != size {
		return fmt.Errorf("%w: %s has %d bytes, the manifest says %d (truncated or overwritten)", ErrCorrupt, path, n, size)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != sum {
		return fmt.Errorf("%w: %s: SHA-256 %s does not match the manifest's %s", ErrCorrupt, path, got, sum)
	}
	return nil
}

// records iterates over the record batches of one table across every listed shard, checking
// row counts against the manifest. Each batch is released when the loop body returns. With
// columns, Parquet shards decode only those (see WithColumns).
func (d *Dataset) records(table string, columns ...string) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		for _, s := range d.Manifest.Shards {
			t, err := d.openShardTable(s, table, columns)
			if err != nil {
				yield(nil, err)
				return
			}
			var rows int64
			for {
				rec, err := t.Read()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Close()
					yield(nil, err)
					return
				}
				rows += rec.NumRows()
				if !yield(rec, nil) {
					t.Close()
					return
				}
			}
			t.Close()
			want := s.Steps
			if table == "games" {
				want = int64(s.Games)
			}
			if rows != want {
				yield(nil, fmt.Errorf("%w: %s of shard %d has %d rows, the manifest says %d", ErrCorrupt, table, s.Index, rows, want))
				return
			}
		}
	}
}

// StepRecords iterates over the steps table's record batches with at least the named
// columns (all of them when none are named); look columns up by name. Parquet shards decode
// only the named columns, which makes scans of a few narrow columns much faster.
func (d *Dataset) StepRecords(columns ...string) iter.Seq2[arrow.RecordBatch, error] {
	return d.records("steps", columns...)
}

// StepBatches iterates over the steps table, one record batch at a time, shard by shard in
// game order. Each StepColumns is valid only inside the loop body.
func (d *Dataset) StepBatches() iter.Seq2[*StepColumns, error] {
	return func(yield func(*StepColumns, error) bool) {
		for rec, err := range d.records("steps") {
			if err != nil {
				yield(nil, err)
				return
			}
			c, err := NewStepColumns(rec, d.Meta)
			if !yield(c, err) || err != nil {
				return
			}
		}
	}
}

// Games iterates over the games table in game order. Each Game is freshly allocated.
func (d *Dataset) Games() iter.Seq2[*Game, error] {
	return func(yield func(*Game, error) bool) {
		for rec, err := range d.records("games") {
			if err != nil {
				yield(nil, err)
				return
			}
			c, err := NewGameColumns(rec, d.Meta)
			if err != nil {
				yield(nil, err)
				return
			}
			for i := 0; i < c.Len(); i++ {
				if !yield(c.Game(i), nil) {
					return
				}
			}
		}
	}
}

// StepColumns is typed access to one steps record batch.
type StepColumns struct {
	// LearnerStepColumns are the columns a learner reads: GameID, Decider, Obs (flattened:
	// row i is Obs[i*ObsDim:(i+1)*ObsDim]), Mask, Action, Returns (Meta.Seats floats per
	// row), Policy and Value (nil unless the dataset has them).
	LearnerStepColumns
	Meta       *Meta
	Step, Turn *array.Int32
	// Phase holds each row's phase code, the index of its name in Meta.PhaseNames (read
	// from the dictionary-encoded phase names, or from layout version 1's bare codes).
	Phase      PhaseCodes
	ActionText *array.String
	Reward     *array.Float32
	Done       *array.Boolean
}

// PhaseCodes are the phase codes of a batch's rows: indices into Meta.PhaseNames.
type PhaseCodes []uint8

// Value returns row i's phase code.
func (p PhaseCodes) Value(i int) uint8 { return p[i] }

// phaseCodes reads the phase column of a steps batch as codes into names. Layout version 2
// stores the names dictionary-encoded (a Parquet reader builds each batch's dictionary from
// the values present, so the dictionary is mapped onto names); version 1 stored the codes.
func phaseCodes(rec arrow.RecordBatch, names []string) (PhaseCodes, error) {
	idx := rec.Schema().FieldIndices(ColPhase)
	if len(idx) != 1 {
		return nil, fmt.Errorf("%w: no column %q", ErrCorrupt, ColPhase)
	}
	switch a := rec.Column(idx[0]).(type) {
	case *array.Uint8:
		return a.Values(), nil
	case *array.Dictionary:
		ind, okI := a.Indices().(*array.Uint8)
		dict, okD := a.Dictionary().(*array.String)
		if !okI || !okD {
			return nil, fmt.Errorf("%w: column %q is not a dictionary of strings with uint8 indices", ErrCorrupt, ColPhase)
		}
		codes := make([]uint8, dict.Len())
		same := true
		for j := range codes {
			k := slices.Index(names, dict.Value(j))
			if k < 0 {
				return nil, fmt.Errorf("%w: phase %s is not among the dataset's phase names", ErrCorrupt, rules.Quote(dict.Value(j)))
			}
			codes[j], same = uint8(k), same && k == j
		}
		vals := ind.Values()
		if same {
			return vals, nil
		}
		out := make([]uint8, len(vals))
		for i, v := range vals {
			if int(v) >= len(codes) {
				return nil, fmt.Errorf("%w: column %q: index %d outside its dictionary", ErrCorrupt, ColPhase, v)
			}
			out[i] = codes[v]
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: column %q does not hold phases", ErrCorrupt, ColPhase)
}

func column[T arrow.Array](rec arrow.RecordBatch, name string) (T, error) {
	var zero T
	idx := rec.Schema().FieldIndices(name)
	if len(idx) != 1 {
		return zero, fmt.Errorf("%w: no column %q", ErrCorrupt, name)
	}
	c, ok := rec.Column(idx[0]).(T)
	if !ok {
		return zero, fmt.Errorf("%w: column %q has type %s", ErrCorrupt, name, rec.Column(idx[0]).DataType())
	}
	if c.NullN() != 0 {
		return zero, fmt.Errorf("%w: column %q has %d nulls", ErrCorrupt, name, c.NullN())
	}
	return c, nil
}

// flatFloats returns the values of a FixedSizeList<float32>[width] column as one slice.
func flatFloats(rec arrow.RecordBatch, name string, width int) ([]float32, error) {
	return flatValues[float32, *array.Float32](rec, name, width, "float32")
}

// flatInts returns the values of a FixedSizeList<int32>[width] column as one slice.
func flatInts(rec arrow.RecordBatch, name string, width int) ([]int32, error) {
	return flatValues[int32, *array.Int32](rec, name, width, "int32")
}

// flatValues returns the values of a FixedSizeList<T>[width] column (element array type A)
// as one slice, checking the element type and the length.
func flatValues[T any, A interface{ Values() []T }](rec arrow.RecordBatch, name string, width int, typeName string) ([]T, error) {
	l, err := column[*array.FixedSizeList](rec, name)
	if err != nil {
		return nil, err
	}
	v, ok := l.ListValues().(A)
	if !ok {
		return nil, fmt.Errorf("%w: column %q does not hold %s", ErrCorrupt, name, typeName)
	}
	vals := v.Values()
	lo, hi := l.Offset()*width, (l.Offset()+l.Len())*width
	if hi > len(vals) {
		return nil, fmt.Errorf("%w: column %q is short", ErrCorrupt, name)
	}
	return vals[lo:hi], nil
}

// columns resolves the columns of one record batch, keeping the first error.
type columns struct {
	rec arrow.RecordBatch
	err error
}

func (r *columns) keep(e error) {
	if r.err == nil {
		r.err = e
	}
}

func (r *columns) keepFloats(v []float32, e error) []float32 { r.keep(e); return v }
func (r *columns) keepInts(v []int32, e error) []int32       { r.keep(e); return v }

// get returns the named column as T, recording the first error in r.
func get[T arrow.Array](r *columns, name string) T {
	v, e := column[T](r.rec, name)
	r.keep(e)
	return v
}

// NewStepColumns resolves the columns of a steps record batch: the learner's
// (NewLearnerStepColumns, checked the same way) and the rest.
func NewStepColumns(rec arrow.RecordBatch, m *Meta) (*StepColumns, error) {
	l, err := NewLearnerStepColumns(rec, m)
	if err != nil {
		return nil, err
	}
	c := &StepColumns{LearnerStepColumns: *l, Meta: m}
	r := columns{rec: rec}
	c.Step = get[*array.Int32](&r, ColStep)
	c.Turn = get[*array.Int32](&r, ColTurn)
	c.Phase, err = phaseCodes(rec, m.PhaseNames)
	r.keep(err)
	c.ActionText = get[*array.String](&r, ColActionText)
	c.Reward = get[*array.Float32](&r, ColReward)
	c.Done = get[*array.Boolean](&r, ColDone)
	if r.err != nil {
		return nil, r.err
	}
	return c, nil
}

// LearnerColumns are the step columns a learner reads: OpenShardSteps(s, verify,
// LearnerColumns...) decodes only these from a Parquet file.
var LearnerColumns = []string{ColGameID, ColDecider, ColObs, ColLegalMask, ColAction, ColReturns, ColPolicy, ColValue}

// LearnerStepColumns is typed access to the LearnerColumns of a steps record batch.
type LearnerStepColumns struct {
	Rec     arrow.RecordBatch
	GameID  *array.Uint64
	Decider *array.Int8
	Obs     []float32 // flattened, Meta.ObsDim per row
	Mask    *array.FixedSizeBinary
	Action  *array.Int32
	Returns []float32 // flattened, Meta.Seats per row
	// Policy (Meta.NumActions per row) and Value are nil unless the dataset has them.
	Policy []float32
	Value  *array.Float32
}

// NewLearnerStepColumns resolves the LearnerColumns of a steps record batch (one read with
// or without the other columns), checking their types and lengths.
func NewLearnerStepColumns(rec arrow.RecordBatch, m *Meta) (*LearnerStepColumns, error) {
	c := &LearnerStepColumns{Rec: rec}
	r := columns{rec: rec}
	c.GameID = get[*array.Uint64](&r, ColGameID)
	c.Decider = get[*array.Int8](&r, ColDecider)
	c.Obs = r.keepFloats(flatFloats(rec, ColObs, m.ObsDim))
	c.Mask = get[*array.FixedSizeBinary](&r, ColLegalMask)
	c.Action = get[*array.Int32](&r, ColAction)
	c.Returns = r.keepFloats(flatFloats(rec, ColReturns, m.Seats))
	if m.Policy {
		c.Policy = r.keepFloats(flatFloats(rec, ColPolicy, m.NumActions))
	}
	if m.Value {
		c.Value = get[*array.Float32](&r, ColValue)
	}
	if r.err != nil {
		return nil, r.err
	}
	if n := int(rec.NumRows()); c.Mask.Len() != n || len(c.Obs) != n*m.ObsDim || len(c.Returns) != n*m.Seats || c.Mask.DataType().(*arrow.FixedSizeBinaryType).ByteWidth != m.MaskBytes() {
		return nil, fmt.Errorf("%w: steps batch of %d rows has columns of other lengths", ErrCorrupt, n)
	}
	return c, nil
}

// Len is the number of rows.
func (c *LearnerStepColumns) Len() int { return int(c.Rec.NumRows()) }

// Legal reports whether action a was legal at row i.
func (c *StepColumns) Legal(i, a int) bool { return c.Mask.Value(i)[a>>3]&(1<<(a&7)) != 0 }

// Row fills dst with row i. dst.Obs, dst.Returns and dst.Policy point into the batch (valid
// while it is); dst.Legal is rebuilt in its own backing array.
func (c *StepColumns) Row(i int, dst *Step) {
	m := c.Meta
	dst.GameID = c.GameID.Value(i)
	dst.Step = c.Step.Value(i)
	dst.Turn = c.Turn.Value(i)
	dst.Decider = c.Decider.Value(i)
	dst.Phase = c.Phase.Value(i)
	dst.Obs = c.Obs[i*m.ObsDim : (i+1)*m.ObsDim : (i+1)*m.ObsDim]
	dst.Legal = dst.Legal[:0]
	mask := c.Mask.Value(i)
	for a := 0; a < m.NumActions; a++ {
		if mask[a>>3]&(1<<(a&7)) != 0 {
			dst.Legal = append(dst.Legal, a)
		}
	}
	dst.Action = c.Action.Value(i)
	dst.ActionText = c.ActionText.Value(i)
	dst.Reward = c.Reward.Value(i)
	dst.Done = c.Done.Value(i)
	dst.Returns = c.Returns[i*m.Seats : (i+1)*m.Seats : (i+1)*m.Seats]
	dst.Policy = nil
	if c.Policy != nil {
		dst.Policy = c.Policy[i*m.NumActions : (i+1)*m.NumActions : (i+1)*m.NumActions]
	}
	dst.Value = 0
	if c.Value != nil {
		dst.Value = c.Value.Value(i)
	}
}

// GameColumns is typed access to one games record batch.
type GameColumns struct {
	Rec                    arrow.RecordBatch
	Meta                   *Meta
	GameID, Seed           *array.Uint64
	Options, EndReason     *array.String
	Agents                 *array.String // flattened, Meta.Seats per row
	FinalCash, FinalScore  []int32       // flattened, Meta.Seats per row
	Breakdown              *array.Struct // flattened, Meta.Seats per row
	winners                *array.List
	winnerVals             *array.Int8
	Length, Turns          *array.Int32
	DurationUS             *array.Int64
	agentOff, breakdownOff int
}

// NewGameColumns resolves the columns of a games record batch.
func NewGameColumns(rec arrow.RecordBatch, m *Meta) (*GameColumns, error) {
	c := &GameColumns{Rec: rec, Meta: m}
	r := columns{rec: rec}
	c.GameID = get[*array.Uint64](&r, ColGameID)
	c.Seed = get[*array.Uint64](&r, ColSeed)
	c.Options = get[*array.String](&r, ColOptions)
	c.EndReason = get[*array.String](&r, ColEndReason)
	c.Length = get[*array.Int32](&r, ColLength)
	c.Turns = get[*array.Int32](&r, ColTurns)
	c.DurationUS = get[*array.Int64](&r, ColDurationUS)
	c.FinalCash = r.keepInts(flatInts(rec, ColFinalCash, m.Seats))
	c.FinalScore = r.keepInts(flatInts(rec, ColFinalScore, m.Seats))
	if agents, e := column[*array.FixedSizeList](rec, ColAgents); e != nil {
		r.keep(e)
	} else if c.Agents, _ = agents.ListValues().(*array.String); c.Agents == nil {
		r.keep(fmt.Errorf("%w: column %q does not hold strings", ErrCorrupt, ColAgents))
	} else {
		c.agentOff = agents.Offset() * m.Seats
	}
	if br, e := column[*array.FixedSizeList](rec, ColScoreBreakdown); e != nil {
		r.keep(e)
	} else if c.Breakdown, _ = br.ListValues().(*array.Struct); c.Breakdown == nil || !arrow.TypeEqual(c.Breakdown.DataType(), scoreType) {
		r.keep(fmt.Errorf("%w: column %q does not hold score structs", ErrCorrupt, ColScoreBreakdown))
	} else {
		c.breakdownOff = br.Offset() * m.Seats
	}
	var e error
	if c.winners, e = column[*array.List](rec, ColWinners); e != nil {
		r.keep(e)
	} else if c.winnerVals, _ = c.winners.ListValues().(*array.Int8); c.winnerVals == nil {
		r.keep(fmt.Errorf("%w: column %q does not hold int8", ErrCorrupt, ColWinners))
	}
	if r.err != nil {
		return nil, r.err
	}
	return c, nil
}

// Len is the number of rows.
func (c *GameColumns) Len() int { return int(c.Rec.NumRows()) }

// Winners returns the winning seats of row i (a view into the batch).
func (c *GameColumns) Winners(i int) []int8 {
	lo, hi := c.winners.ValueOffsets(i)
	return c.winnerVals.Int8Values()[lo:hi]
}

// Game returns row i as a freshly allocated Game.
func (c *GameColumns) Game(i int) *Game {
	n := c.Meta.Seats
	g := &Game{
		GameID:    c.GameID.Value(i),
		Seed:      c.Seed.Value(i),
		Options:   c.Options.Value(i),
		Agents:    make([]string, n),
		Scores:    make([]Score, n),
		Winners:   append([]int8{}, c.Winners(i)...),
		Length:    c.Length.Value(i),
		Turns:     c.Turns.Value(i),
		EndReason: c.EndReason.Value(i),
		Duration:  durationUS(c.DurationUS.Value(i)),
	}
	b := c.Breakdown
	i32 := func(f, j int) int32 { return b.Field(f).(*array.Int32).Value(j) }
	str := func(f, j int) string { return b.Field(f).(*array.String).Value(j) }
	bl := func(f, j int) bool { return b.Field(f).(*array.Boolean).Value(j) }
	for s := 0; s < n; s++ {
		g.Agents[s] = c.Agents.Value(c.agentOff + i*n + s)
		j := c.breakdownOff + i*n + s
		g.Scores[s] = Score{
			Cash: i32(0, j), Island: i32(1, j), Leftover: i32(2, j), Loans: i32(3, j), Total: i32(4, j),
			Discarded: str(5, j), DiscardedCount: i32(6, j), GoldAs: str(7, j), AllColours: bl(8, j),
			FactoryContainers: i32(9, j), Rank: b.Field(10).(*array.Int8).Value(j), Winner: bl(11, j),
		}
	}
	return g
}
