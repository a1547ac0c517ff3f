package datasets

import (
	"fmt"
	"math/bits"
)

// Part says that a dataset directory holds one part of a run split across machines: part
// Index of Count plays the contiguous block of the plan's shards that OwnedShards names, with
// the same per-game seeds and shard ranges as one run would. Merge joins the parts.
type Part struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// MaxParts bounds Part.Count (a typo such as 1/1000000000 is refused rather than planned).
const MaxParts = 1 << 20

// String is "index/count".
func (p Part) String() string { return fmt.Sprintf("%d/%d", p.Index, p.Count) }

// Validate checks 0 <= Index < Count <= MaxParts.
func (p Part) Validate() error {
	switch {
	case p.Count < 1:
		return fmt.Errorf("%w: part %s: the part count must be at least 1", ErrInvalid, p)
	case p.Count > MaxParts:
		return fmt.Errorf("%w: part %s: at most %d parts", ErrInvalid, p, MaxParts)
	case p.Index < 0 || p.Index >= p.Count:
		return fmt.Errorf("%w: part %s: the index must be 0 to %d", ErrInvalid, p, p.Count-1)
	}
	return nil
}

// PartShards returns the shards [lo, hi) that part index of count owns in a plan of
// numShards shards: contiguous blocks whose sizes differ by at most one (empty when there are
// fewer shards than parts).
func PartShards(numShards, index, count int) (lo, hi int) {
	return mulDiv(index, numShards, count), mulDiv(index+1, numShards, count)
}

// mulDiv is a*b/c for 0 <= a <= c, b >= 0 and c > 0, without overflow.
func mulDiv(a, b, c int) int {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c)) // a <= c, so the quotient fits
	return int(q)
}

// OwnedShards returns the shards [lo, hi) this directory is to hold: all of the plan's, or
// its part's block.
func (m *Manifest) OwnedShards() (lo, hi int) {
	if m.Part == nil {
		return 0, m.NumShards()
	}
	return PartShards(m.NumShards(), m.Part.Index, m.Part.Count)
}

// OwnedGames returns the games [first, end) of the shards this directory is to hold.
func (m *Manifest) OwnedGames() (first, end uint64) {
	lo, hi := m.OwnedShards()
	return uint64(min(lo*m.GamesPerShard, m.Games)), uint64(min(hi*m.GamesPerShard, m.Games))
}
