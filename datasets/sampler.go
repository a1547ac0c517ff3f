package datasets

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
)

// Sampler draws random minibatches from a dataset without loading it: it keeps a pool of
// record batches (Arrow) or row groups (Parquet) chosen at random across every shard, draws
// rows from the pool, and swaps some pool entries for fresh random ones after every draw.
// Pool entries are chosen with probability proportional to their row count and rows within
// the pool uniformly, so every step is equally likely to be drawn; consecutive minibatches
// are correlated through the pool, as with any shuffle buffer. Use Replay when the dataset
// fits in memory.
type Sampler struct {
	d       *Dataset
	rng     *rand.Rand
	tables  []*Table // one open steps file per shard
	units   []unit   // every batch / row group of the dataset
	cum     []int64  // cum[i] = rows in units[:i+1]
	pool    []pooled
	refresh int
}

type unit struct {
	table, index int
	rows         int64
}

type pooled struct {
	rec  arrow.RecordBatch
	cols *StepColumns
}

// NewSampler opens every shard's steps file (verifying checksums) and fills a pool of
// poolSize record batches; refresh of them are replaced after each Sample (at least 1).
func (d *Dataset) NewSampler(rng *rand.Rand, poolSize, refresh int) (*Sampler, error) {
	if poolSize < 1 || refresh < 1 || refresh > poolSize {
		return nil, fmt.Errorf("%w: sampler pool %d, refresh %d", ErrInvalid, poolSize, refresh)
	}
	s := &Sampler{d: d, rng: rng, refresh: refresh}
	var total int64
	for _, sh := range d.Manifest.Shards {
		t, err := d.openShardTable(sh, "steps", nil)
		if err != nil {
			s.Close()
			return nil, err
		}
		s.tables = append(s.tables, t)
		ti := len(s.tables) - 1
		for i := 0; i < t.NumUnits(); i++ {
			rows, err := t.unitRows(i)
			if err != nil {
				s.Close()
				return nil, err
			}
			if rows == 0 {
				continue
			}
			s.units = append(s.units, unit{table: ti, index: i, rows: rows})
			total += rows
			s.cum = append(s.cum, total)
		}
	}
	if total == 0 {
		s.Close()
		return nil, fmt.Errorf("%w: sampling from a dataset with no steps", ErrInvalid)
	}
	s.pool = make([]pooled, poolSize)
	for i := range s.pool {
		if err := s.load(i); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// unitRows returns the row count of piece i without reading its data where the format allows.
func (t *Table) unitRows(i int) (int64, error) {
	if t.pq != nil {
		return t.pq.MetaData().RowGroup(i).NumRows(), nil
	}
	rec, err := t.ReadUnit(i)
	if err != nil {
		return 0, err
	}
	defer rec.Release()
	return rec.NumRows(), nil
}

// load replaces pool entry i with a unit drawn proportionally to its rows.
func (s *Sampler) load(i int) error {
	r := s.rng.Int64N(s.cum[len(s.cum)-1])
	u := s.units[sort.Search(len(s.cum), func(k int) bool { return s.cum[k] > r })]
	rec, err := s.tables[u.table].ReadUnit(u.index)
	if err != nil {
		return err
	}
	cols, err := NewStepColumns(rec, s.d.Meta)
	if err != nil {
		rec.Release()
		return err
	}
	if s.pool[i].rec != nil {
		s.pool[i].rec.Release()
	}
	s.pool[i] = pooled{rec: rec, cols: cols}
	return nil
}

// Sample fills b with size rows drawn at random, then refreshes part of the pool.
func (s *Sampler) Sample(size int, b *Batch) error {
	if size <= 0 {
		return fmt.Errorf("%w: batch size %d", ErrInvalid, size)
	}
	b.resize(size, s.d.Meta)
	var rows int64
	for _, p := range s.pool {
		rows += int64(p.cols.Len())
	}
	for r := 0; r < size; r++ {
		k := s.rng.Int64N(rows)
		for _, p := range s.pool {
			if n := int64(p.cols.Len()); k >= n {
				k -= n
				continue
			}
			b.setRow(r, p.cols, int(k))
			break
		}
	}
	for i := 0; i < s.refresh; i++ {
		if err := s.load(s.rng.IntN(len(s.pool))); err != nil {
			return err
		}
	}
	return nil
}

// Close releases the pool and closes the files.
func (s *Sampler) Close() error {
	var errs []error
	for i := range s.pool {
		if s.pool[i].rec != nil {
			s.pool[i].rec.Release()
			s.pool[i] = pooled{}
		}
	}
	for _, t := range s.tables {
		errs = append(errs, t.Close())
	}
	s.tables = nil
	return errors.Join(errs...)
}
