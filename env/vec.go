package env

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

// VecEnv runs N games in lockstep, each step shared among worker goroutines, and writes every
// game's next observation and mask into contiguous [N x D] and [N x A] float32 buffers ready
// for one batched network call. A finished game is reset at once with the next seed of its
// own sequence (GameSeed), so the buffers always describe N live positions.
//
// The exported slices alias internal buffers: read them between Steps, do not keep them
// across a Step. A VecEnv is not safe for concurrent use; Close stops its workers.
type VecEnv struct {
	// N games, D observation entries, A actions, P seats per game.
	N, D, A, P int
	// Obs is [N x D]: row i is the observation of game i's next decider.
	Obs []float32
	// Mask is [N x A]: row i is the legal-action mask of game i's next decider.
	Mask []float32
	// Rewards is [N x P]: row i is the last step's reward for every seat of game i (the final
	// rewards when the step ended the game).
	Rewards []float32
	// Agents[i] is the seat deciding next in game i.
	Agents []int
	// Terminated and Truncated say whether the last step ended game i (it has been reset
	// since: Obs/Mask/Agents already describe the next episode).
	Terminated, Truncated []bool
	// Scores[i] is the final-scoring breakdown of game i's last finished episode.
	Scores [][]rules.Score
	// Episodes[i] counts the episodes game i has finished.
	Episodes []int

	envs     []*Env
	baseSeed uint64
	workers  int
	actions  []int
	start    []chan struct{}
	// Work sharing: worker w owns games [home[w], home[w+1]) and claims batches of them from
	// cursors[w]; a worker out of its own games claims batches from the others' cursors, so
	// a worker the OS delays holds up at most one batch, while in the steady state every
	// game stays on one core (its data stays in that core's cache). done counts the games
	// stepped in this step.
	home     []int
	cursors  []paddedCounter
	done     atomic.Int64
	finished chan struct{} // a helper that finishes a step's last game tells the caller
	helped   atomic.Int64  // game steps taken by helpers (benchmarks report the share)
	closed   atomic.Bool

	// Optional outputs (VecBuffers): legal ids and counts, and a byte mask.
	legal, numLegal []int32
	mask8           []int8
}

// GameSeed is the seed of game i's episode-th episode (0-based) in a VecEnv or dataset run
// started from base: a splitmix64 mix, so nearby bases and games give unrelated seeds.
func GameSeed(base uint64, game, episode int) uint64 {
	x := base ^ 0x9e3779b97f4a7c15*uint64(game+1) ^ 0xbf58476d1ce4e5b9*uint64(episode+1)
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// NewVec returns n games with options o on workers goroutines (0 or 1: the caller's
// goroutine), reset from seeds derived from baseSeed.
func NewVec(n int, o Options, baseSeed uint64, workers int) (*VecEnv, error) {
	return newVec(n, o, baseSeed, workers, VecBuffers{})
}

func newVec(n int, o Options, baseSeed uint64, workers int, b VecBuffers) (*VecEnv, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: %d games; want at least 1", ErrInvalidOptions, n)
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if workers < 1 {
		workers = 1
	}
	if workers > n {
		workers = n
	}
	g, err := rules.NewGame(o.Rules)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidOptions, err)
	}
	d := encoding.NewEncoder(g).Size()
	a := rules.NumDistinctActions()
	p := o.Rules.Players
	v := &VecEnv{N: n, D: d, A: a, P: p, Scores: make([][]rules.Score, n), Episodes: make([]int, n),
		envs: make([]*Env, n), baseSeed: baseSeed, workers: workers}
	if err := v.useBuffers(b); err != nil {
		return nil, err
	}
	for i := range v.envs {
		e, err := newEnv(o, v.Obs[i*d:(i+1)*d:(i+1)*d], v.Mask[i*a:(i+1)*a:(i+1)*a], v.Rewards[i*p:(i+1)*p:(i+1)*p])
		if err != nil {
			return nil, err
		}
		v.envs[i] = e
	}
	v.Reset()
	if workers > 1 {
		// The caller's goroutine works too (worker 0); workers-1 helpers join it.
		v.home = make([]int, workers+1)
		v.cursors = make([]paddedCounter, workers)
		for w := range v.cursors {
			v.home[w+1] = (w + 1) * n / workers
			v.cursors[w].Store(int64(v.home[w+1] - v.home[w])) // nothing to claim yet
		}
		v.finished = make(chan struct{}, 1)
		v.start = make([]chan struct{}, workers-1)
		for w := range v.start {
			v.start[w] = make(chan struct{}, 1)
			go v.helper(w+1, v.start[w])
		}
	}
	return v, nil
}

// Reset restarts every game at episode 0 of its seed sequence.
func (v *VecEnv) Reset() {
	for i, e := range v.envs {
		v.Episodes[i] = 0
		v.Scores[i] = nil
		v.Terminated[i], v.Truncated[i] = false, false
		e.Reset(GameSeed(v.baseSeed, i, 0))
		v.Agents[i] = e.agent
		if v.legal != nil || v.mask8 != nil {
			v.writeLegal(i, e, true)
		}
	}
}

// Env returns game i's environment (for its State, Spec or per-seat observations).
func (v *VecEnv) Env(i int) *Env { return v.envs[i] }

// State returns game i's current position; bots decide from its redacted view.
func (v *VecEnv) State(i int) *rules.State { return v.envs[i].state }

// Spec returns the observation spec.
func (v *VecEnv) Spec() *encoding.Spec { return v.envs[0].Spec() }

// Step applies actions[i] for game i's current decider in every game. Every action is
// checked against its mask first: an illegal one returns an error wrapping
// rules.ErrIllegalAction and no game moves.
func (v *VecEnv) Step(actions []int) error {
	if v.closed.Load() {
		return fmt.Errorf("env: step on a closed VecEnv")
	}
	if len(actions) != v.N {
		return fmt.Errorf("%w: %d actions for %d games", ErrInvalidOptions, len(actions), v.N)
	}
	for i, a := range actions {
		if a < 0 || a >= v.A || v.Mask[i*v.A+a] == 0 {
			return fmt.Errorf("env: game %d: action %d (%s) for seat %d: %w",
				i, a, encoding.ActionName(a), v.Agents[i], rules.ErrIllegalAction)
		}
	}
	v.actions = actions
	if v.workers <= 1 {
		v.run(0, v.N)
	} else {
		v.done.Store(0)
		for w := range v.cursors {
			v.cursors[w].Store(0) // publishes v.actions to whoever claims from it
		}
		for _, c := range v.start {
			select {
			case c <- struct{}{}:
			default: // already signalled: it will look for work anyway
			}
		}
		if !v.work(0) {
			<-v.finished
		}
	}
	v.actions = nil
	return nil
}

// vecBatch is the number of games a worker claims at a time.
const vecBatch = 8

// vecSpin is how long a helper keeps polling for the next step before it sleeps: waking a
// sleeping thread costs tens of microseconds, as much as stepping dozens of games, so a
// helper that sleeps between steps joins each step too late to share it. Polling costs at
// most this much CPU per step while the caller runs its policy.
const vecSpin = 50 * time.Microsecond

// helper is worker w: it steps games whenever its own games are waiting, until Close.
func (v *VecEnv) helper(w int, start chan struct{}) {
	for {
		// Poll for the next step for a while, then sleep until signalled. A signal left
		// over from a step already joined by polling only makes work look once more.
		if !v.poll(w) {
			if _, ok := <-start; !ok {
				return
			}
		}
		if v.work(w) {
			v.finished <- struct{}{}
		}
	}
}

// poll spins until worker w's own games are waiting (true) or vecSpin has passed (false).
func (v *VecEnv) poll(w int) bool {
	size := int64(v.home[w+1] - v.home[w])
	deadline := time.Now().Add(vecSpin)
	for i := 0; ; i++ {
		if v.cursors[w].Load() < size {
			return true
		}
		if i%64 == 63 {
			if v.closed.Load() || time.Now().After(deadline) {
				return false
			}
			runtime.Gosched()
		}
	}
}

// work steps worker w's own games, then whatever is left of the others'. It reports whether
// it stepped the step's last game (exactly one work call per step does).
func (v *VecEnv) work(w int) (last bool) {
	for k := 0; k < v.workers; k++ {
		if v.claim((w+k)%v.workers, w) {
			last = true
		}
	}
	return last
}

// claim steps batches of chunk c's games for worker w until the chunk is exhausted.
func (v *VecEnv) claim(c, w int) (last bool) {
	lo0, size := v.home[c], int64(v.home[c+1]-v.home[c])
	n := int64(v.N)
	for {
		off := v.cursors[c].Add(vecBatch) - vecBatch
		if off >= size {
			return last
		}
		lo, hi := lo0+int(off), lo0+int(min(off+vecBatch, size))
		v.run(lo, hi)
		if w > 0 {
			v.helped.Add(int64(hi - lo))
		}
		if v.done.Add(int64(hi-lo)) == n {
			last = true
		}
	}
}

// paddedCounter keeps each worker's cursor on its own cache line.
type paddedCounter struct {
	atomic.Int64
	_ [56]byte
}

func (v *VecEnv) run(lo, hi int) {
	for i := lo; i < hi; i++ {
		e := v.envs[i]
		e.step(v.actions[i])
		v.Terminated[i], v.Truncated[i] = e.terminated, e.truncated
		if e.Done() {
			v.Scores[i] = e.scores
			v.Episodes[i]++
			// Keep the final rewards in the row across the reset.
			var keep [rules.MaxPlayers]float32
			copy(keep[:], e.rewards)
			e.Reset(GameSeed(v.baseSeed, i, v.Episodes[i]))
			copy(e.rewards, keep[:v.P])
		}
		v.Agents[i] = e.agent
		if v.legal != nil || v.mask8 != nil {
			v.writeLegal(i, e, false)
		}
	}
}

// Close stops the worker goroutines. The VecEnv cannot step afterwards.
func (v *VecEnv) Close() {
	if v.closed.Swap(true) {
		return
	}
	for _, c := range v.start {
		close(c)
	}
}
