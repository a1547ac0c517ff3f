package datasets

import (
	"fmt"
	"iter"
	"math/rand/v2"
)

// Batch is a minibatch of steps in contiguous row-major buffers, ready to become tensors.
// Row r of a per-row matrix is buf[r*width:(r+1)*width]. Buffers are reused across fills
// (their capacity only grows), so a training loop allocates nothing per batch.
type Batch struct {
	Size       int // rows filled
	ObsDim     int // D
	NumActions int // A
	Seats      int // P

	Obs      []float32 // [Size*D] observations of the decider
	Mask     []bool    // [Size*A] legal-action mask
	Actions  []int32   // [Size] action taken
	Returns  []float32 // [Size*P] return-to-go of every seat (absolute seats)
	Rewards  []float32 // [Size] decider's step reward
	Deciders []int32   // [Size] deciding seat
	Phases   []int32   // [Size] phase index (Meta.PhaseNames)
	Done     []bool    // [Size] last step of its game
	GameIDs  []uint64  // [Size]
	Steps    []int32   // [Size] step index in the game
	// Policy [Size*A] and Values [Size] are empty unless the dataset records them.
	Policy []float32
	Values []float32
}

// DeciderReturns writes each row's return for its decider into dst[:Size] and returns it.
func (b *Batch) DeciderReturns(dst []float32) []float32 {
	dst = grow(dst, b.Size)
	for r := 0; r < b.Size; r++ {
		dst[r] = b.Returns[r*b.Seats+int(b.Deciders[r])]
	}
	return dst
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// resize sizes every buffer for n rows of m.
func (b *Batch) resize(n int, m *Meta) {
	b.Size, b.ObsDim, b.NumActions, b.Seats = n, m.ObsDim, m.NumActions, m.Seats
	b.Obs = grow(b.Obs, n*m.ObsDim)
	b.Mask = grow(b.Mask, n*m.NumActions)
	b.Actions = grow(b.Actions, n)
	b.Returns = grow(b.Returns, n*m.Seats)
	b.Rewards = grow(b.Rewards, n)
	b.Deciders = grow(b.Deciders, n)
	b.Phases = grow(b.Phases, n)
	b.Done = grow(b.Done, n)
	b.GameIDs = grow(b.GameIDs, n)
	b.Steps = grow(b.Steps, n)
	b.Policy = b.Policy[:0]
	if m.Policy {
		b.Policy = grow(b.Policy, n*m.NumActions)
	}
	b.Values = b.Values[:0]
	if m.Value {
		b.Values = grow(b.Values, n)
	}
}

// setRow copies row i of c into batch row r.
func (b *Batch) setRow(r int, c *StepColumns, i int) {
	m := c.Meta
	D, A, P := m.ObsDim, m.NumActions, m.Seats
	copy(b.Obs[r*D:(r+1)*D], c.Obs[i*D:(i+1)*D])
	unpackMask(b.Mask[r*A:(r+1)*A], c.Mask.Value(i))
	b.Actions[r] = c.Action.Value(i)
	copy(b.Returns[r*P:(r+1)*P], c.Returns[i*P:(i+1)*P])
	b.Rewards[r] = c.Reward.Value(i)
	b.Deciders[r] = int32(c.Decider.Value(i))
	b.Phases[r] = int32(c.Phase.Value(i))
	b.Done[r] = c.Done.Value(i)
	b.GameIDs[r] = c.GameID.Value(i)
	b.Steps[r] = c.Step.Value(i)
	if m.Policy {
		copy(b.Policy[r*A:(r+1)*A], c.Policy[i*A:(i+1)*A])
	}
	if m.Value {
		b.Values[r] = c.Value.Value(i)
	}
}

func unpackMask(dst []bool, bits []byte) {
	for a := range dst {
		dst[a] = bits[a>>3]&(1<<(a&7)) != 0
	}
}

// Batches streams the steps in dataset order as minibatches of size rows (the last may be
// smaller), reading one record batch at a time. The same *Batch is refilled on every
// iteration; copy what must outlive the loop body.
func (d *Dataset) Batches(size int) iter.Seq2[*Batch, error] {
	return func(yield func(*Batch, error) bool) {
		if size <= 0 {
			yield(nil, fmt.Errorf("%w: batch size %d", ErrInvalid, size))
			return
		}
		b := &Batch{}
		b.resize(size, d.Meta)
		r := 0
		for c, err := range d.StepBatches() {
			if err != nil {
				yield(nil, err)
				return
			}
			for i := 0; i < c.Len(); i++ {
				b.setRow(r, c, i)
				r++
				if r == size {
					if !yield(b, nil) {
						return
					}
					b.resize(size, d.Meta)
					r = 0
				}
			}
		}
		if r > 0 {
			b.resize(r, d.Meta) // shrinking keeps the rows already filled
			yield(b, nil)
		}
	}
}

// Replay holds every step of a dataset in memory, in contiguous columns, for uniform random
// minibatches across all shards. Memory is about 4*(D+P+A/32)+40 bytes per step (600 floats:
// 2.4 KB a step, 2.4 GB a million steps); stream with Dataset.Batches when that is too much.
type Replay struct {
	Meta *Meta
	n    int

	obs      []float32
	mask     []byte // MaskBytes per row, packed as in the files
	actions  []int32
	returns  []float32
	rewards  []float32
	deciders []int8
	phases   []uint8
	done     []bool
	gameIDs  []uint64
	steps    []int32
	policy   []float32
	values   []float32
}

// Load reads every step of the dataset into a Replay.
func (d *Dataset) Load() (*Replay, error) {
	_, total := d.Manifest.GamesDone()
	m := d.Meta
	r := &Replay{Meta: m}
	r.obs = make([]float32, 0, total*int64(m.ObsDim))
	r.mask = make([]byte, 0, total*int64(m.MaskBytes()))
	r.returns = make([]float32, 0, total*int64(m.Seats))
	for c, err := range d.StepBatches() {
		if err != nil {
			return nil, err
		}
		r.obs = append(r.obs, c.Obs...)
		for i := 0; i < c.Len(); i++ {
			r.mask = append(r.mask, c.Mask.Value(i)...)
			r.actions = append(r.actions, c.Action.Value(i))
			r.rewards = append(r.rewards, c.Reward.Value(i))
			r.deciders = append(r.deciders, c.Decider.Value(i))
			r.phases = append(r.phases, c.Phase.Value(i))
			r.done = append(r.done, c.Done.Value(i))
			r.gameIDs = append(r.gameIDs, c.GameID.Value(i))
			r.steps = append(r.steps, c.Step.Value(i))
			if m.Value {
				r.values = append(r.values, c.Value.Value(i))
			}
		}
		r.returns = append(r.returns, c.Returns...)
		r.policy = append(r.policy, c.Policy...)
		r.n += c.Len()
	}
	return r, nil
}

// Len is the number of steps.
func (r *Replay) Len() int { return r.n }

// Sample fills b with size steps drawn uniformly with replacement.
func (r *Replay) Sample(rng *rand.Rand, size int, b *Batch) error {
	if r.n == 0 {
		return fmt.Errorf("%w: sampling from an empty dataset", ErrInvalid)
	}
	b.resize(size, r.Meta)
	for i := 0; i < size; i++ {
		r.copyRow(i, rng.IntN(r.n), b)
	}
	return nil
}

// Slice fills b with steps [start, start+size) (fewer at the end).
func (r *Replay) Slice(start, size int, b *Batch) error {
	if start < 0 || start >= r.n || size <= 0 {
		return fmt.Errorf("%w: slice [%d,+%d) of %d steps", ErrInvalid, start, size, r.n)
	}
	size = min(size, r.n-start)
	b.resize(size, r.Meta)
	for i := 0; i < size; i++ {
		r.copyRow(i, start+i, b)
	}
	return nil
}

func (r *Replay) copyRow(dst, src int, b *Batch) {
	m := r.Meta
	D, A, P, MB := m.ObsDim, m.NumActions, m.Seats, m.MaskBytes()
	copy(b.Obs[dst*D:(dst+1)*D], r.obs[src*D:(src+1)*D])
	unpackMask(b.Mask[dst*A:(dst+1)*A], r.mask[src*MB:(src+1)*MB])
	b.Actions[dst] = r.actions[src]
	copy(b.Returns[dst*P:(dst+1)*P], r.returns[src*P:(src+1)*P])
	b.Rewards[dst] = r.rewards[src]
	b.Deciders[dst] = int32(r.deciders[src])
	b.Phases[dst] = int32(r.phases[src])
	b.Done[dst] = r.done[src]
	b.GameIDs[dst] = r.gameIDs[src]
	b.Steps[dst] = r.steps[src]
	if m.Policy {
		copy(b.Policy[dst*A:(dst+1)*A], r.policy[src*A:(src+1)*A])
	}
	if m.Value {
		b.Values[dst] = r.values[src]
	}
}
