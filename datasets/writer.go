package datasets

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// Format is a shard file format.
type Format string

const (
	// Arrow is the Arrow IPC file format (extension .arrow).
	Arrow Format = "arrow"
	// Parquet is Apache Parquet written through pqarrow (extension .parquet).
	Parquet Format = "parquet"
)

// ParseFormat reads "arrow" or "parquet".
func ParseFormat(s string) (Format, error) {
	switch Format(strings.ToLower(s)) {
	case Arrow, "ipc", "":
		return Arrow, nil
	case Parquet:
		return Parquet, nil
	}
	return "", fmt.Errorf("%w: unknown format %q (want arrow or parquet)", ErrInvalid, s)
}

// Compression names a codec: "none", "zstd", "lz4" (both formats) or "snappy" (Parquet only).
type Compression string

// WriteOptions configure shard writers. The zero value writes zstd-compressed Arrow IPC;
// Parquet defaults to snappy.
type WriteOptions struct {
	Format      Format
	Compression Compression
	// BatchRows is the number of steps per record batch (Parquet: per row group); 0 means 8192.
	BatchRows int
	// Allocator for the builders; nil means memory.DefaultAllocator.
	Allocator memory.Allocator
	// CompressConcurrency compresses an Arrow batch's columns on this many goroutines (0 or
	// 1: the writer's own). Worth raising for one writer on an otherwise idle machine; self-play
	// workers already keep every core busy.
	CompressConcurrency int
}

func (o WriteOptions) normalize() (WriteOptions, error) {
	var err error
	if o.Format, err = ParseFormat(string(o.Format)); err != nil {
		return o, err
	}
	switch strings.ToLower(string(o.Compression)) {
	case "":
		// Each format's fastest good codec here: zstd for Arrow IPC, snappy for Parquet
		// (arrow-go's Parquet zstd is about half as fast).
		o.Compression = "zstd"
		if o.Format == Parquet {
			o.Compression = "snappy"
		}
	case "none", "zstd", "lz4":
		o.Compression = Compression(strings.ToLower(string(o.Compression)))
	case "snappy":
		if o.Format != Parquet {
			return o, fmt.Errorf("%w: snappy compression is for parquet only (arrow takes none, zstd or lz4)", ErrInvalid)
		}
		o.Compression = "snappy"
	default:
		return o, fmt.Errorf("%w: unknown compression %q (want none, zstd, lz4 or snappy)", ErrInvalid, o.Compression)
	}
	if o.BatchRows <= 0 {
		o.BatchRows = 8192
	}
	if o.Allocator == nil {
		o.Allocator = memory.DefaultAllocator
	}
	return o, nil
}

// ShardFileNames returns the file names of shard index's steps and games tables.
func ShardFileNames(index int, f Format) (steps, games string) {
	return fmt.Sprintf("steps-%05d.%s", index, f), fmt.Sprintf("games-%05d.%s", index, f)
}

// tmpSuffix marks a file still being written.
const tmpSuffix = ".tmp"

// tableSink writes record batches of one schema to one file.
type tableSink interface {
	write(rec arrow.RecordBatch) error
	close() error
}

type ipcSink struct{ w *ipc.FileWriter }

func (s ipcSink) write(rec arrow.RecordBatch) error { return s.w.Write(rec) }
func (s ipcSink) close() error                      { return s.w.Close() }

type parquetSink struct{ w *pqarrow.FileWriter }

func (s parquetSink) write(rec arrow.RecordBatch) error { return s.w.Write(rec) }
func (s parquetSink) close() error                      { return s.w.Close() }

// scalarColumns get Parquet statistics (min/max), which lets query engines skip row groups.
var scalarColumns = []string{ColGameID, ColStep, ColTurn, ColDecider, ColPhase, ColAction, ColSeed, ColLength}

func newSink(w io.Writer, schema *arrow.Schema, o WriteOptions) (tableSink, error) {
	switch o.Format {
	case Parquet:
		codec := compress.Codecs.Uncompressed
		switch o.Compression {
		case "zstd":
			codec = compress.Codecs.Zstd
		case "lz4":
			codec = compress.Codecs.Lz4Raw
		case "snappy":
			codec = compress.Codecs.Snappy
		}
		props := []parquet.WriterProperty{
			parquet.WithAllocator(o.Allocator),
			parquet.WithCompression(codec),
			parquet.WithDictionaryDefault(false),
			parquet.WithDictionaryFor(ColActionText, true),
			parquet.WithDictionaryFor(ColPhase, true),
			parquet.WithDictionaryFor(ColOptions, true),
			parquet.WithStats(false),
			parquet.WithMaxRowGroupLength(int64(o.BatchRows)),
			parquet.WithCreatedBy("github.com/container-rl/container/datasets"),
		}
		if o.Compression == "zstd" {
			props = append(props, parquet.WithCompressionLevel(1))
		}
		for _, c := range scalarColumns {
			props = append(props, parquet.WithStatsFor(c, true))
		}
		fw, err := pqarrow.NewFileWriter(schema, w, parquet.NewWriterProperties(props...),
			pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(o.Allocator)))
		if err != nil {
			return nil, fmt.Errorf("datasets: parquet writer: %w", err)
		}
		return parquetSink{fw}, nil
	default:
		opts := []ipc.Option{ipc.WithSchema(schema), ipc.WithAllocator(o.Allocator)}
		if o.CompressConcurrency > 1 {
			opts = append(opts, ipc.WithCompressConcurrency(o.CompressConcurrency))
		}
		switch o.Compression {
		case "zstd":
			opts = append(opts, ipc.WithZstd())
		case "lz4":
			opts = append(opts, ipc.WithLZ4())
		}
		fw, err := ipc.NewFileWriter(w, opts...)
		if err != nil {
			return nil, fmt.Errorf("datasets: arrow writer: %w", err)
		}
		return ipcSink{fw}, nil
	}
}

// tableFile is one file being written under a temporary name.
type tableFile struct {
	final, tmp string
	f          *os.File
	buf        *bufio.Writer
	hash       hash.Hash // SHA-256 of every byte written
	sink       tableSink
}

func createTable(path string, schema *arrow.Schema, o WriteOptions) (*tableFile, error) {
	t := &tableFile{final: path, tmp: path + tmpSuffix}
	var err error
	if t.f, err = os.Create(t.tmp); err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	// The Parquet writer closes an io.Closer it is given; it gets only the buffer's Write.
	t.hash = sha256.New()
	t.buf = bufio.NewWriterSize(io.MultiWriter(t.f, t.hash), 1<<20)
	if t.sink, err = newSink(struct{ io.Writer }{t.buf}, schema, o); err != nil {
		t.f.Close()
		os.Remove(t.tmp)
		return nil, err
	}
	return t, nil
}

// sum is the hex SHA-256 of the file, valid after finish.
func (t *tableFile) sum() string { return hex.EncodeToString(t.hash.Sum(nil)) }

// finish closes the writer and the file, syncs it and returns its size; the file keeps its
// temporary name.
func (t *tableFile) finish() (int64, error) {
	err := t.sink.close()
	if err == nil {
		err = t.buf.Flush()
	}
	if err == nil {
		err = t.f.Sync()
	}
	var size int64
	if err == nil {
		var st os.FileInfo
		if st, err = t.f.Stat(); err == nil {
			size = st.Size()
		}
	}
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	return size, err
}

func (t *tableFile) abort() {
	t.sink.close() // release the writer's buffers; the file is discarded anyway
	t.f.Close()
	os.Remove(t.tmp)
}

// ShardWriter writes one shard: a steps file and a games file. Files are written under
// temporary names and renamed by Close once both are complete, so a crash never leaves a
// partial shard under its final name.
//
// The wide step columns (obs, legal_mask, returns, policy) are appended to plain Go buffers
// that are reused from batch to batch and handed to Arrow without a copy; the narrow ones go
// through typed builders.
type ShardWriter struct {
	meta  *Meta
	opts  WriteOptions
	index int

	stepsFile, gamesFile *tableFile
	stepsSchema          *arrow.Schema
	games                *array.RecordBuilder
	stepRows, gameRows   int

	// Builders of the narrow steps columns, by schema position (nil for the raw columns).
	cols       []array.Builder
	gameID     *array.Uint64Builder
	step, turn *array.Int32Builder
	action     *array.Int32Builder
	decider    *array.Int8Builder
	phase      *array.Uint8Builder // phase indices; phaseDict holds Meta.PhaseNames
	phaseDict  arrow.Array
	actionText *array.StringBuilder
	reward     *array.Float32Builder
	value      *array.Float32Builder
	done       *array.BooleanBuilder

	// Raw columns.
	obs, returns, policy rawFloats
	mask                 []byte

	info   ShardInfo
	closed bool
}

// rawFloats accumulates a FixedSizeList<float32>[width] column.
type rawFloats struct {
	width int
	buf   []float32
}

// array wraps the buffer (no copy) as an n-row column of type dt; the buffer must not change
// until the array is released.
func (r *rawFloats) array(dt arrow.DataType, n int) arrow.Array {
	vals := array.NewData(arrow.PrimitiveTypes.Float32, n*r.width,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Float32Traits.CastToBytes(r.buf))}, nil, 0, 0)
	defer vals.Release()
	d := array.NewData(dt, n, []*memory.Buffer{nil}, []arrow.ArrayData{vals}, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// ShardInfo describes a complete shard; the manifest lists one per shard.
type ShardInfo struct {
	Index      int    `json:"index"`
	FirstGame  uint64 `json:"first_game"`
	Games      int    `json:"games"`
	Steps      int64  `json:"steps"`
	StepsFile  string `json:"steps_file"`
	GamesFile  string `json:"games_file"`
	StepsBytes int64  `json:"steps_bytes"`
	GamesBytes int64  `json:"games_bytes"`
	// StepsSHA256 and GamesSHA256 are the files' SHA-256 digests (hex, as sha256sum prints
	// them); readers verify them before parsing a file. Empty means not recorded.
	StepsSHA256 string `json:"steps_sha256,omitempty"`
	GamesSHA256 string `json:"games_sha256,omitempty"`
}

// NewShardWriter starts shard index in dir (which must exist). firstGame is the id of the
// shard's first game (recorded in ShardInfo).
func NewShardWriter(dir string, index int, firstGame uint64, meta *Meta, opts WriteOptions) (*ShardWriter, error) {
	if err := meta.Validate(); err != nil {
		return nil, err
	}
	o, err := opts.normalize()
	if err != nil {
		return nil, err
	}
	// Files are written in the current layout, whatever layout meta was read from.
	mc := *meta
	mc.FormatVersion = 0
	meta = &mc
	sName, gName := ShardFileNames(index, o.Format)
	w := &ShardWriter{meta: meta, opts: o, index: index}
	w.info = ShardInfo{Index: index, FirstGame: firstGame, StepsFile: sName, GamesFile: gName}
	ss, gs := StepsSchema(meta), GamesSchema(meta)
	if w.stepsFile, err = createTable(filepath.Join(dir, sName), ss, o); err != nil {
		return nil, err
	}
	if w.gamesFile, err = createTable(filepath.Join(dir, gName), gs, o); err != nil {
		w.stepsFile.abort()
		return nil, err
	}
	w.stepsSchema = ss
	w.games = array.NewRecordBuilder(o.Allocator, gs)
	w.newStepBuilders()
	// The raw buffers hold one batch and are reused for every batch.
	w.obs = rawFloats{width: meta.ObsDim, buf: make([]float32, 0, o.BatchRows*meta.ObsDim)}
	w.returns = rawFloats{width: meta.Seats, buf: make([]float32, 0, o.BatchRows*meta.Seats)}
	w.mask = make([]byte, 0, o.BatchRows*meta.MaskBytes())
	w.policy = rawFloats{width: meta.NumActions}
	if meta.Policy {
		w.policy.buf = make([]float32, 0, o.BatchRows*meta.NumActions)
	}
	return w, nil
}

// newStepBuilders makes the builders of the narrow steps columns.
func (w *ShardWriter) newStepBuilders() {
	mem := w.opts.Allocator
	w.cols = make([]array.Builder, w.stepsSchema.NumFields())
	for i, f := range w.stepsSchema.Fields() {
		switch f.Name {
		case ColObs, ColLegalMask, ColReturns, ColPolicy:
			continue
		}
		if f.Name == ColPhase {
			// Indices into one dictionary shared by every batch (the IPC file format allows
			// one dictionary per field): the phase names, so an index is the phase's code.
			w.cols[i] = array.NewUint8Builder(mem)
			sb := array.NewStringBuilder(mem)
			sb.AppendValues(w.meta.PhaseNames, nil)
			w.phaseDict = sb.NewArray()
			sb.Release()
		} else {
			w.cols[i] = array.NewBuilder(mem, f.Type)
		}
		w.cols[i].Reserve(w.opts.BatchRows)
		switch f.Name {
		case ColGameID:
			w.gameID = w.cols[i].(*array.Uint64Builder)
		case ColStep:
			w.step = w.cols[i].(*array.Int32Builder)
		case ColTurn:
			w.turn = w.cols[i].(*array.Int32Builder)
		case ColDecider:
			w.decider = w.cols[i].(*array.Int8Builder)
		case ColPhase:
			w.phase = w.cols[i].(*array.Uint8Builder)
		case ColAction:
			w.action = w.cols[i].(*array.Int32Builder)
		case ColActionText:
			w.actionText = w.cols[i].(*array.StringBuilder)
		case ColReward:
			w.reward = w.cols[i].(*array.Float32Builder)
		case ColDone:
			w.done = w.cols[i].(*array.BooleanBuilder)
		case ColValue:
			w.value = w.cols[i].(*array.Float32Builder)
		}
	}
}

// checkGame validates a game and its steps against the dataset's shapes before anything is
// appended, so a bad game never leaves half its rows behind.
func (w *ShardWriter) checkGame(g *Game, steps []Step) error {
	m := w.meta
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: game %d: %s", ErrInvalid, g.GameID, fmt.Sprintf(format, args...))
	}
	if len(g.Agents) != m.Seats || len(g.Scores) != m.Seats {
		return bad("%d agents and %d scores for %d seats", len(g.Agents), len(g.Scores), m.Seats)
	}
	if int(g.Length) != len(steps) {
		return bad("length %d but %d steps", g.Length, len(steps))
	}
	for _, s := range g.Winners {
		if s < 0 || int(s) >= m.Seats {
			return bad("winner seat %d", s)
		}
	}
	for i := range steps {
		s := &steps[i]
		switch {
		case s.GameID != g.GameID:
			return bad("step %d has game id %d", i, s.GameID)
		case len(s.Obs) != m.ObsDim:
			return bad("step %d: observation has %d floats, want %d", i, len(s.Obs), m.ObsDim)
		case len(s.Returns) != m.Seats:
			return bad("step %d: %d returns for %d seats", i, len(s.Returns), m.Seats)
		case s.Action < 0 || int(s.Action) >= m.NumActions:
			return bad("step %d: action %d outside [0,%d)", i, s.Action, m.NumActions)
		case s.Decider < 0 || int(s.Decider) >= m.Seats:
			return bad("step %d: decider %d", i, s.Decider)
		case int(s.Phase) >= len(m.PhaseNames):
			return bad("step %d: phase %d outside the %d phase names", i, s.Phase, len(m.PhaseNames))
		case m.Policy && len(s.Policy) != m.NumActions:
			return bad("step %d: policy has %d probabilities, want %d", i, len(s.Policy), m.NumActions)
		}
		for _, a := range s.Legal {
			if a < 0 || a >= m.NumActions {
				return bad("step %d: legal action %d outside [0,%d)", i, a, m.NumActions)
			}
		}
	}
	return nil
}

// WriteGame appends one finished game and all its steps. Slices are copied; the caller may
// reuse them.
func (w *ShardWriter) WriteGame(g *Game, steps []Step) error {
	if w.closed {
		return fmt.Errorf("%w: shard %d is closed", ErrInvalid, w.index)
	}
	if err := w.checkGame(g, steps); err != nil {
		return err
	}
	for i := range steps {
		w.appendStep(&steps[i])
		if w.stepRows >= w.opts.BatchRows {
			if err := w.flushSteps(); err != nil {
				return err
			}
		}
	}
	w.appendGame(g)
	if w.gameRows >= w.opts.BatchRows {
		if err := w.flushGames(); err != nil {
			return err
		}
	}
	w.info.Games++
	w.info.Steps += int64(len(steps))
	return nil
}

func (w *ShardWriter) appendStep(s *Step) {
	w.gameID.Append(s.GameID)
	w.step.Append(s.Step)
	w.turn.Append(s.Turn)
	w.decider.Append(s.Decider)
	w.phase.Append(s.Phase)
	w.obs.buf = append(w.obs.buf, s.Obs...)
	n := len(w.mask)
	w.mask = slices.Grow(w.mask, w.meta.MaskBytes())[:n+w.meta.MaskBytes()]
	bits := w.mask[n:]
	clear(bits)
	for _, a := range s.Legal {
		bits[a>>3] |= 1 << (a & 7)
	}
	w.action.Append(s.Action)
	w.actionText.Append(s.ActionText)
	w.reward.Append(s.Reward)
	w.done.Append(s.Done)
	w.returns.buf = append(w.returns.buf, s.Returns...)
	if w.meta.Policy {
		w.policy.buf = append(w.policy.buf, s.Policy...)
	}
	if w.value != nil {
		w.value.Append(s.Value)
	}
	w.stepRows++
}

func (w *ShardWriter) appendGame(g *Game) {
	f := w.games.Fields()
	f[0].(*array.Uint64Builder).Append(g.GameID)
	f[1].(*array.Uint64Builder).Append(g.Seed)
	f[2].(*array.StringBuilder).Append(g.Options)
	agents := f[3].(*array.FixedSizeListBuilder)
	agents.Append(true)
	av := agents.ValueBuilder().(*array.StringBuilder)
	for _, a := range g.Agents {
		av.Append(a)
	}
	cash := f[4].(*array.FixedSizeListBuilder)
	cash.Append(true)
	total := f[5].(*array.FixedSizeListBuilder)
	total.Append(true)
	br := f[6].(*array.FixedSizeListBuilder)
	br.Append(true)
	st := br.ValueBuilder().(*array.StructBuilder)
	for _, s := range g.Scores {
		cash.ValueBuilder().(*array.Int32Builder).Append(s.Cash)
		total.ValueBuilder().(*array.Int32Builder).Append(s.Total)
		st.Append(true)
		st.FieldBuilder(0).(*array.Int32Builder).Append(s.Cash)
		st.FieldBuilder(1).(*array.Int32Builder).Append(s.Island)
		st.FieldBuilder(2).(*array.Int32Builder).Append(s.Leftover)
		st.FieldBuilder(3).(*array.Int32Builder).Append(s.Loans)
		st.FieldBuilder(4).(*array.Int32Builder).Append(s.Total)
		st.FieldBuilder(5).(*array.StringBuilder).Append(s.Discarded)
		st.FieldBuilder(6).(*array.Int32Builder).Append(s.DiscardedCount)
		st.FieldBuilder(7).(*array.StringBuilder).Append(s.GoldAs)
		st.FieldBuilder(8).(*array.BooleanBuilder).Append(s.AllColours)
		st.FieldBuilder(9).(*array.Int32Builder).Append(s.FactoryContainers)
		st.FieldBuilder(10).(*array.Int8Builder).Append(s.Rank)
		st.FieldBuilder(11).(*array.BooleanBuilder).Append(s.Winner)
	}
	win := f[7].(*array.ListBuilder)
	win.Append(true)
	win.ValueBuilder().(*array.Int8Builder).AppendValues(g.Winners, nil)
	f[8].(*array.Int32Builder).Append(g.Length)
	f[9].(*array.Int32Builder).Append(g.Turns)
	f[10].(*array.StringBuilder).Append(g.EndReason)
	f[11].(*array.Int64Builder).Append(g.Duration.Microseconds())
	w.gameRows++
}

func (w *ShardWriter) flushSteps() error {
	n := w.stepRows
	if n == 0 {
		return nil
	}
	cols := make([]arrow.Array, len(w.cols))
	for i, f := range w.stepsSchema.Fields() {
		switch f.Name {
		case ColObs:
			cols[i] = w.obs.array(f.Type, n)
		case ColReturns:
			cols[i] = w.returns.array(f.Type, n)
		case ColPolicy:
			cols[i] = w.policy.array(f.Type, n)
		case ColLegalMask:
			d := array.NewData(f.Type, n, []*memory.Buffer{nil, memory.NewBufferBytes(w.mask)}, nil, 0, 0)
			cols[i] = array.MakeFromData(d)
			d.Release()
		case ColPhase:
			idx := w.phase.NewArray()
			cols[i] = array.NewDictionaryArray(f.Type, idx, w.phaseDict)
			idx.Release()
			w.phase.Reserve(w.opts.BatchRows)
		default:
			cols[i] = w.cols[i].NewArray()
			w.cols[i].Reserve(w.opts.BatchRows)
		}
	}
	rec := array.NewRecordBatch(w.stepsSchema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	err := w.stepsFile.sink.write(rec)
	rec.Release()
	// The writer has consumed the batch: the raw buffers can be refilled.
	w.stepRows = 0
	w.obs.buf, w.returns.buf, w.policy.buf, w.mask = w.obs.buf[:0], w.returns.buf[:0], w.policy.buf[:0], w.mask[:0]
	if err != nil {
		return fmt.Errorf("datasets: shard %d: writing steps: %w", w.index, err)
	}
	return nil
}

func (w *ShardWriter) flushGames() error {
	if w.gameRows == 0 {
		return nil
	}
	rec := w.games.NewRecordBatch()
	defer rec.Release()
	w.gameRows = 0
	if err := w.gamesFile.sink.write(rec); err != nil {
		return fmt.Errorf("datasets: shard %d: writing games: %w", w.index, err)
	}
	return nil
}

// Close flushes, closes and syncs both files, then renames them to their final names (steps
// first, games last). On error the temporary files are removed.
func (w *ShardWriter) Close() (ShardInfo, error) {
	if w.closed {
		return w.info, fmt.Errorf("%w: shard %d closed twice", ErrInvalid, w.index)
	}
	// Both files fail together when the disk is full: one error (the first) says it once.
	err := cmp.Or(w.flushSteps(), w.flushGames())
	w.release()
	if err != nil {
		w.stepsFile.abort()
		w.gamesFile.abort()
		return w.info, err
	}
	var e1, e2 error
	w.info.StepsBytes, e1 = w.stepsFile.finish()
	w.info.GamesBytes, e2 = w.gamesFile.finish()
	w.info.StepsSHA256, w.info.GamesSHA256 = w.stepsFile.sum(), w.gamesFile.sum()
	if err := cmp.Or(e1, e2); err != nil {
		os.Remove(w.stepsFile.tmp)
		os.Remove(w.gamesFile.tmp)
		return w.info, fmt.Errorf("datasets: shard %d: %w", w.index, err)
	}
	for _, t := range []*tableFile{w.stepsFile, w.gamesFile} {
		if err := os.Rename(t.tmp, t.final); err != nil {
			return w.info, fmt.Errorf("datasets: shard %d: %w", w.index, err)
		}
	}
	return w.info, nil
}

// Abort stops writing and removes the temporary files. It is a no-op after Close.
func (w *ShardWriter) Abort() {
	if w.closed {
		return
	}
	w.release()
	w.stepsFile.abort()
	w.gamesFile.abort()
}

func (w *ShardWriter) release() {
	w.closed = true
	for _, b := range w.cols {
		if b != nil {
			b.Release()
		}
	}
	w.games.Release()
	if w.phaseDict != nil {
		w.phaseDict.Release()
		w.phaseDict = nil
	}
}

// CheckWriteOptions normalises and checks write options without writing anything
// (command lines use it to reject a bad --format/--compression pair early).
func CheckWriteOptions(o WriteOptions) (WriteOptions, error) { return o.normalize() }
