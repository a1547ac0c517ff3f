package training

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/encoding"
)

// DefaultStreamBuffer is the number of training decisions a Stream holds at once unless
// told otherwise: about 310 MB at the current encoding's 773 features.
const DefaultStreamBuffer = 100_000

// maxOpenShards is how many shard files a Stream keeps open at once.
const maxOpenShards = 4

// ErrDataChanged is wrapped by the error of a stream whose shard was deleted or changed
// after the run first read it, and of a resume on data other than the run's.
var ErrDataChanged = errors.New("training: the data changed")

// StreamOptions configure a Stream.
type StreamOptions struct {
	// Buffer is the number of training decisions held at once (at least 1): the shuffle
	// buffer. Memory is about Buffer * (4*(features+seats) + mask bytes + 12) bytes.
	Buffer int
	// ValPercent is the percentage of games held out for validation, chosen by a hash of
	// the game id exactly as Samples.Split does.
	ValPercent int
	// ValRows is the number of validation decisions kept in memory: the first ValRows
	// decisions of held-out games in data order (the rows an in-memory run validates on).
	ValRows int
	// Seed fixes the shuffle: the order of the record batches in every epoch and of the rows
	// within each buffer load.
	Seed uint64
	// Progress, when set, is called as Open checks the shards (checked, total) and reads the
	// validation rows (rows, ValRows), from the first shard on.
	Progress func(stage string, done, total int64)
	// Ctx, when set, stops Open between shards and record batches with its error.
	Ctx context.Context
	// Search reads a search's targets (train exit's replay buffer, written with
	// --record-policy): the policy column becomes Samples.Policy, decisions with fewer than
	// two legal actions are left out (a forced move teaches nothing), every seat's value
	// target is -1 (a loss) in a game that ended at the turn limit or was truncated, and
	// ValueMix weighs the search's value estimate into the decider's target:
	// (1-ValueMix)*outcome + ValueMix*value. The datasets must be complete and have the
	// policy and value columns.
	Search   bool
	ValueMix float64
}

// GameStats count one dataset's games (Search streams read them when they open).
type GameStats struct {
	Games, TurnLimitGames int
	// LeagueGames counts the games in which league opponents played some seats.
	LeagueGames      int
	Decisions, Turns int64
}

// Stream reads the decisions of one or more datasets for training without holding them in
// memory: every epoch visits the datasets' record batches (Parquet row groups, Arrow IPC
// record batches) in an order drawn from the seed and epoch, and fills a buffer of
// Options.Buffer training decisions at a time whose rows are served in an order drawn from
// the seed and the buffer's position. Its position (epoch, where the buffer starts, rows
// served) is all a checkpoint needs to continue with the same batches.
//
// Game ids of dataset k are offset by k<<40 as in LoadSamplesFrom, so the train/validation
// split is the one of the same data loaded in memory.
type Stream struct {
	// Header describes the data (encoding, sizes, rules, source); it holds no rows.
	Header *Samples
	// Decisions is the number of decisions in every dataset (validation games included).
	Decisions int64
	// Shards is the number of shard files.
	Shards int
	// Val holds the validation decisions (at most ValRows).
	Val *Samples
	// Games counts each dataset's games (Search streams only).
	Games []GameStats

	opts   StreamOptions
	dirs   []string
	shards []*streamShard
	units  []unitRef // every record batch, in data order
	open   []*streamShard
	lost   map[uint64]bool // Search: games (ids offset) whose value targets are a loss
	// opp marks, per game (ids offset) of a Search stream, the seats played by league
	// opponents (bit s: seat s), whose decisions are not trained on.
	opp map[uint64]uint64

	pos        StreamPosition
	win        *Samples // the current buffer load
	winOK      bool
	perm       []int
	nextUnit   int // where the load after this one starts
	nextRow    int
	order      []int32 // the unit order of epoch orderEpoch
	orderEpoch int64
	maxWindow  int             // tests: the most rows one load held
	loads      int             // buffer loads so far
	beforeLoad func(loads int) // tests: called before each buffer load
}

type streamShard struct {
	set    int
	ds     *datasets.Dataset
	info   datasets.ShardInfo
	path   string
	offset uint64
	size   int64
	mod    time.Time
	table  *datasets.Table // open while among Stream.open
}

type unitRef struct{ shard, unit int32 }

// StreamPosition is where a Stream stands.
type StreamPosition struct {
	Epoch int64 `json:"epoch"`
	Unit  int   `json:"unit"`  // the buffer load starts at this place of the epoch's record batch order
	Row   int   `json:"row"`   // after this many of that batch's training rows
	Taken int   `json:"taken"` // rows of the load already served
}

// ShardID identifies one shard file a run streams, as its dataset's manifest lists it.
type ShardID struct {
	Data   int    `json:"data"` // which --data, from 0
	Index  int    `json:"index"`
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

// StreamState is what a checkpoint records of a Stream: its position and the shards it
// reads, so that a resume on other data is refused.
type StreamState struct {
	Position StreamPosition `json:"position"`
	Shards   []ShardID      `json:"shards"`
}

// OpenStream opens the datasets for streaming. They must share the encoding, sizes and
// rules options (ErrIncompatible names the first that differs). Every shard's steps file
// is checked against its manifest (size and SHA-256, which reads it once) and the
// validation rows are read; nothing else is held in memory.
func OpenStream(dirs []string, opts StreamOptions) (*Stream, error) {
	switch {
	case len(dirs) == 0:
		return nil, fmt.Errorf("%w: no dataset named", ErrConfig)
	case opts.Buffer < 1 || opts.ValPercent < 0 || opts.ValPercent > 100 || opts.ValRows < 0:
		return nil, fmt.Errorf("%w: stream buffer %d, validation %d%% and %d rows", ErrConfig, opts.Buffer, opts.ValPercent, opts.ValRows)
	}
	s := &Stream{opts: opts, dirs: dirs, orderEpoch: -1, lost: map[uint64]bool{}, opp: map[uint64]uint64{}}
	var sources []string
	for k, dir := range dirs {
		ds, err := datasets.Open(dir, datasets.AcceptEncodings(encoding.Versions()...))
		if err != nil {
			return nil, err
		}
		h, err := datasetHeader(ds, dir)
		if err != nil {
			return nil, err
		}
		if opts.Search {
			if err := s.readGames(ds, uint64(k)<<40); err != nil {
				return nil, err
			}
		}
		sources = append(sources, h.Source)
		if s.Header == nil {
			s.Header = h
		} else if err := sameData(s.Header, h, dirs[0], dir); err != nil {
			return nil, err
		}
		var steps int64
		for _, sh := range ds.Manifest.Shards {
			s.shards = append(s.shards, &streamShard{set: k, ds: ds, info: sh, path: filepath.Join(dir, sh.StepsFile), offset: uint64(k) << 40})
			steps += sh.Steps
		}
		if steps == 0 {
			return nil, fmt.Errorf("training: dataset %s has no steps", dir)
		}
		s.Decisions += steps
	}
	if len(dirs) > 1 {
		s.Header.Source = strings.Join(sources, " + ")
	}
	s.Shards = len(s.shards)
	for i, sh := range s.shards {
		if err := s.cancelled(); err != nil {
			return nil, err
		}
		if opts.Progress != nil {
			opts.Progress("checking shards", int64(i), int64(len(s.shards)))
		}
		t, err := sh.ds.OpenShardSteps(sh.info, true, datasets.LearnerColumns...)
		if err != nil {
			return nil, sh.failed(err)
		}
		n := t.NumUnits()
		t.Close()
		st, err := os.Stat(sh.path)
		if err != nil {
			return nil, sh.failed(err)
		}
		sh.size, sh.mod = st.Size(), st.ModTime()
		for u := range n {
			s.units = append(s.units, unitRef{int32(i), int32(u)})
		}
	}
	if opts.Progress != nil {
		opts.Progress("checking shards", int64(len(s.shards)), int64(len(s.shards)))
	}
	s.win = s.emptyRows(int(min(int64(opts.Buffer), s.Decisions)))
	if err := s.readValidation(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// readGames checks that ds holds search targets and reads its games: counts, and which
// ended at the turn limit (or were truncated).
func (s *Stream) readGames(ds *datasets.Dataset, offset uint64) error {
	m, dir := ds.Meta, ds.Dir
	switch {
	case !m.Policy || !m.Value:
		return fmt.Errorf("%w: buffer %s has no policy and value columns (not written by train exit)", ErrCorrupt, dir)
	case !ds.Manifest.Complete():
		return fmt.Errorf("%w: buffer %s is incomplete (%d of %d shards)", ErrCorrupt, dir, len(ds.Manifest.Shards), ds.Manifest.NumShards())
	}
	var st GameStats
	for g, err := range ds.Games() {
		if err != nil {
			return err
		}
		st.Games++
		st.Decisions += int64(g.Length)
		st.Turns += int64(g.Turns)
		if stalled(g.EndReason) {
			s.lost[g.GameID+offset] = true
			st.TurnLimitGames++
		}
		// A seat whose agent is not the manifest's (the plan's) was a league opponent. A
		// league game has the learner in at least one seat: a game none of whose agents is the
		// manifest's names the same learner otherwise (a manifest rewritten since) and is
		// trained on whole.
		var opp uint64
		n := min(len(g.Agents), len(ds.Manifest.Agents), 64)
		for k := range n {
			if g.Agents[k] != ds.Manifest.Agents[k] {
				opp |= 1 << k
			}
		}
		if opp != 0 && opp != 1<<n-1 {
			s.opp[g.GameID+offset] = opp
			st.LeagueGames++
		}
	}
	s.Games = append(s.Games, st)
	return nil
}

// datasetHeader describes one dataset as Samples without rows.
func datasetHeader(ds *datasets.Dataset, dir string) (*Samples, error) {
	m := ds.Meta
	s := &Samples{EncodingVersion: m.EncodingVersion, ObsDim: m.ObsDim, NumActions: m.NumActions, ValueDim: m.Seats}
	man := ds.Manifest
	s.Source = fmt.Sprintf("dataset of %d games from seed %d by %s, reward %s", man.Games, man.Seed, strings.Join(man.Agents, ","), m.Reward)
	if len(m.RulesOptions) > 0 {
		if err := json.Unmarshal(m.RulesOptions, &s.Rules); err != nil {
			return nil, fmt.Errorf("training: dataset %s: rules options: %w", dir, err)
		}
	}
	if m.MaskBytes() != s.MaskBytes() {
		return nil, fmt.Errorf("%w: dataset %s: mask width %d, want %d", ErrCorrupt, dir, m.MaskBytes(), s.MaskBytes())
	}
	return s, nil
}

// sameData checks that dataset dir (described by s) can be trained on with first (dataset
// dir0's): the same encoding, sizes and rules options.
func sameData(first, s *Samples, dir0, dir string) error {
	if s.EncodingVersion != first.EncodingVersion || s.ObsDim != first.ObsDim || s.NumActions != first.NumActions || s.ValueDim != first.ValueDim {
		return fmt.Errorf("%w: dataset %s is encoding %s (%d features, %d actions, %d seats), %s is %s (%d, %d, %d); samples of one run share them",
			ErrIncompatible, dir, s.EncodingVersion, s.ObsDim, s.NumActions, s.ValueDim, dir0, first.EncodingVersion, first.ObsDim, first.NumActions, first.ValueDim)
	}
	if d := sameGame(s.Rules, first.Rules, true); d != "" {
		return fmt.Errorf("%w: dataset %s was played with %s (as %s); samples of one run share the rules options",
			ErrIncompatible, dir, d, dir0)
	}
	return nil
}

// failed turns an error reading the shard into one line naming it: a missing or changed
// file wraps ErrDataChanged.
func (sh *streamShard) failed(err error) error {
	what := ""
	switch {
	case errors.Is(err, fs.ErrNotExist):
		what = "was deleted"
	case errors.Is(err, datasets.ErrCorrupt):
		what = "does not match its manifest (" + strings.TrimPrefix(err.Error(), datasets.ErrCorrupt.Error()+": ") + ")"
	default:
		return fmt.Errorf("training: dataset %s, shard %d: %w", sh.ds.Dir, sh.info.Index, err)
	}
	return fmt.Errorf("%w: %s (shard %d of dataset %s) %s", ErrDataChanged, sh.path, sh.info.Index, sh.ds.Dir, what)
}

// changed is the error of a shard file whose size or modification time differ from when it
// was checked.
func (sh *streamShard) changed() error {
	return fmt.Errorf("%w: %s (shard %d of dataset %s) was modified after the run checked it", ErrDataChanged, sh.path, sh.info.Index, sh.ds.Dir)
}

func (s *Stream) cancelled() error {
	if s.opts.Ctx == nil {
		return nil
	}
	return s.opts.Ctx.Err()
}

// Close closes the shard files the stream holds open.
func (s *Stream) Close() {
	for _, sh := range s.open {
		sh.table.Close()
		sh.table = nil
	}
	s.open = nil
}

// Options returns the options the stream was opened with.
func (s *Stream) Options() StreamOptions { return s.opts }

// Position returns where the stream stands.
func (s *Stream) Position() StreamPosition { return s.pos }

// State returns the stream's position and shards, for a checkpoint.
func (s *Stream) State() StreamState {
	st := StreamState{Position: s.pos}
	for _, sh := range s.shards {
		st.Shards = append(st.Shards, ShardID{Data: sh.set, Index: sh.info.Index, File: sh.info.StepsFile, SHA256: sh.info.StepsSHA256, Bytes: sh.info.StepsBytes})
	}
	return st
}

// Restore moves the stream to a checkpointed state; data other than the state's shards is
// refused with ErrDataChanged naming the first shard that differs.
func (s *Stream) Restore(st StreamState) error {
	now := s.State().Shards
	for i := range max(len(now), len(st.Shards)) {
		switch {
		case i >= len(now):
			w := st.Shards[i]
			return fmt.Errorf("%w: shard %d (%s) of dataset %s is gone; the run was trained on it", ErrDataChanged, w.Index, w.File, s.dirs[min(w.Data, len(s.dirs)-1)])
		case i >= len(st.Shards):
			g := now[i]
			return fmt.Errorf("%w: dataset %s has shard %d (%s), which the run was not trained on", ErrDataChanged, s.dirs[g.Data], g.Index, g.File)
		case now[i] != st.Shards[i]:
			g, w := now[i], st.Shards[i]
			return fmt.Errorf("%w: shard %d of dataset %s is %s (SHA-256 %.12s…), the run was trained on %s (SHA-256 %.12s…)",
				ErrDataChanged, g.Index, s.dirs[g.Data], g.File, g.SHA256, w.File, w.SHA256)
		}
	}
	p := st.Position
	if p.Epoch < 0 || p.Unit < 0 || p.Unit > len(s.units) || p.Row < 0 || p.Taken < 0 || p.Taken > s.opts.Buffer {
		return fmt.Errorf("%w: stream position %+v", ErrCorrupt, p)
	}
	s.pos, s.winOK = p, false
	return nil
}

// emptyRows returns Samples of the data's widths with room for n rows.
func (s *Stream) emptyRows(n int) *Samples {
	h := s.Header
	out := &Samples{EncodingVersion: h.EncodingVersion, Source: h.Source, Rules: h.Rules, ObsDim: h.ObsDim, NumActions: h.NumActions, ValueDim: h.ValueDim,
		Obs: make([]float32, 0, n*h.ObsDim), Mask: make([]byte, 0, n*h.MaskBytes()), Actions: make([]int32, 0, n),
		Values: make([]float32, 0, n*h.ValueDim), Games: make([]uint64, 0, n)}
	if s.opts.Search {
		out.Policy = make([]float32, 0, n*h.NumActions)
	}
	return out
}

// choice reports whether a legal-action mask has at least two legal actions.
// trained reports whether a Search stream trains on row i of c (game gid, ids offset): a
// decision with a choice made by a seat that was not a league opponent.
func (s *Stream) trained(c *datasets.LearnerStepColumns, i int, gid uint64) bool {
	if !s.opts.Search {
		return true
	}
	if o := s.opp[gid]; o != 0 && o&(1<<uint(c.Decider.Value(i)&63)) != 0 {
		return false
	}
	return choice(c.Mask.Value(i))
}

func choice(mask []byte) bool {
	n := 0
	for _, b := range mask {
		n += bits.OnesCount8(b)
	}
	return n >= 2
}

// table returns the open steps file of sh after checking that the file is still the one
// checked when the stream opened (size and modification time).
func (s *Stream) table(sh *streamShard) (*datasets.Table, error) {
	st, err := os.Stat(sh.path)
	if err != nil || st.Size() != sh.size || !st.ModTime().Equal(sh.mod) {
		s.closeShard(sh)
		if err != nil {
			return nil, sh.failed(err)
		}
		return nil, sh.changed()
	}
	for i, o := range s.open {
		if o == sh {
			s.open = append(append(s.open[:i:i], s.open[i+1:]...), sh)
			return sh.table, nil
		}
	}
	t, err := sh.ds.OpenShardSteps(sh.info, false, datasets.LearnerColumns...)
	if err != nil {
		return nil, sh.failed(err)
	}
	if len(s.open) == maxOpenShards {
		s.open[0].table.Close()
		s.open[0].table = nil
		s.open = s.open[1:]
	}
	sh.table = t
	s.open = append(s.open, sh)
	return t, nil
}

func (s *Stream) closeShard(sh *streamShard) {
	for i, o := range s.open {
		if o == sh {
			sh.table.Close()
			sh.table = nil
			s.open = append(s.open[:i:i], s.open[i+1:]...)
			return
		}
	}
}

// readUnit calls fn with one record batch's learner columns.
func (s *Stream) readUnit(ref unitRef, fn func(c *datasets.LearnerStepColumns, sh *streamShard) error) error {
	sh := s.shards[ref.shard]
	t, err := s.table(sh)
	if err != nil {
		return err
	}
	rec, err := t.ReadUnit(int(ref.unit))
	if err != nil {
		s.closeShard(sh)
		return sh.failed(err)
	}
	defer rec.Release()
	c, err := datasets.NewLearnerStepColumns(rec, sh.ds.Meta)
	if err != nil {
		return sh.failed(err)
	}
	return fn(c, sh)
}

// appendRow appends row i of c (its game id gid) to dst, value targets rotated so that seat
// 0 is the decider; a decider or action out of range is ErrCorrupt. A Search stream leaves
// out a forced decision (kept false) and adds the row's search targets.
func (s *Stream) appendRow(dst *Samples, c *datasets.LearnerStepColumns, i int, gid uint64, sh *streamShard) (kept bool, err error) {
	D, P, A := dst.ObsDim, dst.ValueDim, dst.NumActions
	mask := c.Mask.Value(i)
	a, d := c.Action.Value(i), int(c.Decider.Value(i))
	if d < 0 || d >= P || a < 0 || int(a) >= A || mask[a/8]&(1<<(a%8)) == 0 {
		return false, fmt.Errorf("%w: %s: game %d: decider %d, action %d (not legal or out of range)", ErrCorrupt, sh.path, c.GameID.Value(i), d, a)
	}
	var pol []float32
	if s.opts.Search {
		if o := s.opp[gid]; o != 0 && o&(1<<uint(d&63)) != 0 {
			return false, nil // a league opponent's decision
		}
		legal := 0
		for _, b := range mask {
			legal += bits.OnesCount8(b)
		}
		if legal < 2 {
			return false, nil
		}
		pol = c.Policy[i*A : (i+1)*A]
		var sum float32
		for a, p := range pol {
			if p < 0 || p > 1 || (p > 0 && mask[a/8]&(1<<(a%8)) == 0) {
				return false, fmt.Errorf("%w: buffer %s: game %d gives probability %g to action %d, which is not legal", ErrCorrupt, sh.ds.Dir, c.GameID.Value(i), p, a)
			}
			sum += p
		}
		if sum < 0.99 || sum > 1.01 {
			return false, fmt.Errorf("%w: buffer %s: a decision of game %d has a visit distribution summing to %g", ErrCorrupt, sh.ds.Dir, c.GameID.Value(i), sum)
		}
	}
	dst.Obs = append(dst.Obs, c.Obs[i*D:(i+1)*D]...)
	dst.Mask = append(dst.Mask, mask...)
	dst.Actions = append(dst.Actions, a)
	dst.Games = append(dst.Games, gid)
	stall := s.opts.Search && s.lost[gid]
	for k := range P {
		out := c.Returns[i*P+(d+k)%P]
		if stall {
			out = -1
		}
		if k == 0 && s.opts.Search && s.opts.ValueMix > 0 {
			out = float32((1-s.opts.ValueMix)*float64(out) + s.opts.ValueMix*float64(c.Value.Value(i)))
		}
		dst.Values = append(dst.Values, out)
	}
	if pol != nil {
		dst.Policy = append(dst.Policy, pol...)
	}
	return true, nil
}

// CountRows counts the training decisions (validation games and, for Search, forced moves
// left out) reading one record batch at a time.
func (s *Stream) CountRows() (int64, error) {
	var n int64
	for _, ref := range s.units {
		if err := s.cancelled(); err != nil {
			return 0, err
		}
		err := s.readUnit(ref, func(c *datasets.LearnerStepColumns, sh *streamShard) error {
			for i := range c.Len() {
				if gid := c.GameID.Value(i) + sh.offset; !heldOut(gid, s.opts.ValPercent) && s.trained(c, i, gid) {
					n++
				}
			}
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	return n, nil
}

// ReadAll returns every training decision (validation games left out) in data order, in
// memory: for tests and small data.
func (s *Stream) ReadAll() (*Samples, error) {
	out := s.emptyRows(0)
	for _, ref := range s.units {
		err := s.readUnit(ref, func(c *datasets.LearnerStepColumns, sh *streamShard) error {
			for i := range c.Len() {
				gid := c.GameID.Value(i) + sh.offset
				if heldOut(gid, s.opts.ValPercent) {
					continue
				}
				if _, err := s.appendRow(out, c, i, gid, sh); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readValidation reads the first ValRows rows of held-out games, in data order.
func (s *Stream) readValidation() error {
	o := s.opts
	s.Val = s.emptyRows(0)
	if o.ValPercent == 0 || o.ValRows == 0 {
		return nil
	}
	report := func() {
		if o.Progress != nil {
			o.Progress("reading validation rows", int64(s.Val.Len()), int64(o.ValRows))
		}
	}
	report()
	for _, ref := range s.units {
		if s.Val.Len() >= o.ValRows {
			break
		}
		if err := s.cancelled(); err != nil {
			return err
		}
		err := s.readUnit(ref, func(c *datasets.LearnerStepColumns, sh *streamShard) error {
			for i := range c.Len() {
				gid := c.GameID.Value(i) + sh.offset
				if !heldOut(gid, o.ValPercent) {
					continue
				}
				if _, err := s.appendRow(s.Val, c, i, gid, sh); err != nil {
					return err
				}
				if s.Val.Len() == o.ValRows {
					return nil
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		report()
	}
	return nil
}

// epochOrder returns epoch e's order of the record batches.
func (s *Stream) epochOrder(e int64) []int32 {
	if s.orderEpoch == e {
		return s.order
	}
	if s.order == nil {
		s.order = make([]int32, len(s.units))
	}
	for i := range s.order {
		s.order[i] = int32(i)
	}
	r := rand.New(rand.NewPCG(s.opts.Seed, 0x5eed_0000_0000_0000^uint64(e)))
	r.Shuffle(len(s.order), func(i, j int) { s.order[i], s.order[j] = s.order[j], s.order[i] })
	s.orderEpoch = e
	return s.order
}

// loadWindow fills the buffer with the training rows from s.pos (epoch, unit, row) on, up
// to Buffer rows, and draws the order they are served in.
func (s *Stream) loadWindow() error {
	if s.beforeLoad != nil {
		s.beforeLoad(s.loads)
	}
	s.loads++
	w := s.win
	w.Obs, w.Mask, w.Actions, w.Values, w.Games = w.Obs[:0], w.Mask[:0], w.Actions[:0], w.Values[:0], w.Games[:0]
	if w.Policy != nil {
		w.Policy = w.Policy[:0]
	}
	order := s.epochOrder(s.pos.Epoch)
	u, skip := s.pos.Unit, s.pos.Row
	for w.Len() < s.opts.Buffer && u < len(order) {
		seen, full := 0, false
		err := s.readUnit(s.units[order[u]], func(c *datasets.LearnerStepColumns, sh *streamShard) error {
			for i := range c.Len() {
				gid := c.GameID.Value(i) + sh.offset
				if heldOut(gid, s.opts.ValPercent) {
					continue
				}
				if seen < skip {
					if s.trained(c, i, gid) {
						seen++
					}
					continue
				}
				if w.Len() == s.opts.Buffer {
					full = true
					return nil
				}
				kept, err := s.appendRow(w, c, i, gid, sh)
				if err != nil {
					return err
				}
				if kept {
					seen++
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if full {
			skip = seen
			break
		}
		u, skip = u+1, 0
	}
	s.nextUnit, s.nextRow = u, skip
	s.maxWindow = max(s.maxWindow, w.Len())
	n := w.Len()
	if cap(s.perm) < n {
		s.perm = make([]int, n)
	}
	s.perm = s.perm[:n]
	for i := range s.perm {
		s.perm[i] = i
	}
	h := fnv.New64a()
	var b [8]byte
	for _, v := range []uint64{uint64(s.pos.Epoch), uint64(s.pos.Unit), uint64(s.pos.Row)} {
		putUint64(b[:], v)
		h.Write(b[:])
	}
	r := rand.New(rand.NewPCG(s.opts.Seed, h.Sum64()))
	r.Shuffle(n, func(i, j int) { s.perm[i], s.perm[j] = s.perm[j], s.perm[i] })
	s.winOK = true
	return nil
}

// Next fills b with the next rows training decisions, moving on to the next buffer load
// and epoch as needed. On an error the position stays where it was before the call, so a
// checkpoint taken then resumes with this batch.
func (s *Stream) Next(b *Batch, rows int) error {
	saved := s.pos
	if err := s.next(b, rows); err != nil {
		if s.pos != saved {
			s.pos, s.winOK = saved, false
		}
		return err
	}
	return nil
}

func (s *Stream) next(b *Batch, rows int) error {
	s.win.size(b, rows)
	for r := 0; r < rows; {
		if !s.winOK {
			if err := s.loadWindow(); err != nil {
				return err
			}
			if s.pos.Taken > s.win.Len() {
				return fmt.Errorf("%w: stream position %+v beyond a buffer load of %d rows", ErrCorrupt, s.pos, s.win.Len())
			}
		}
		if s.pos.Taken == s.win.Len() {
			if s.win.Len() == 0 && s.pos.Unit == 0 && s.pos.Row == 0 {
				return fmt.Errorf("%w: no training rows after the validation split", ErrConfig)
			}
			if s.nextUnit >= len(s.units) {
				s.pos = StreamPosition{Epoch: s.pos.Epoch + 1}
			} else {
				s.pos = StreamPosition{Epoch: s.pos.Epoch, Unit: s.nextUnit, Row: s.nextRow}
			}
			s.winOK = false
			continue
		}
		k := min(rows-r, s.win.Len()-s.pos.Taken)
		s.win.fillAt(b, r, s.perm[s.pos.Taken:s.pos.Taken+k])
		r += k
		s.pos.Taken += k
	}
	return nil
}
