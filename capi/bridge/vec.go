package bridge

import (
	"encoding/json"
	"fmt"

	"github.com/container-rl/container/env"
)

// MaxVecGames bounds a vector env's game count (a typo such as 1e9 games is an error, not an
// out-of-memory crash of the host).
const MaxVecGames = 1 << 16

// Vec is a vector env for the C caller; it writes straight into the caller's buffers.
type Vec struct {
	busy
	v *env.VecEnv
}

func (x *Vec) close() { x.v.Close() }

// VecSizes returns N, D, A, P for n games with the options.
func VecSizes(n int, optsJSON string) (Sizes, error) {
	if n < 1 || n > MaxVecGames {
		return Sizes{}, fmt.Errorf("%w: %d games; want 1 to %d", env.ErrInvalidOptions, n, MaxVecGames)
	}
	return SizesOf(optsJSON)
}

// NewVec makes n games with the options on workers goroutines (0: one per core the process
// may use), reset from seeds derived from seed as env.GameSeed does, writing into b (every
// buffer of env.VecBuffers must be given).
func NewVec(n int, optsJSON string, seed uint64, workers int, b env.VecBuffers) (int64, error) {
	if _, err := VecSizes(n, optsJSON); err != nil {
		return 0, err
	}
	if b.Obs == nil || b.Mask == nil || b.Rewards == nil || b.Agents == nil || b.Terminated == nil ||
		b.Truncated == nil || b.Legal == nil || b.NumLegal == nil || b.Mask8 == nil {
		return 0, fmt.Errorf("%w: a vector env needs every output buffer", ErrInvalid)
	}
	if workers < 0 || workers > 1024 {
		return 0, fmt.Errorf("%w: %d workers; want 0 (one per core) to 1024", ErrInvalid, workers)
	}
	if workers == 0 {
		workers = defaultWorkers()
	}
	o, err := ParseOptions(optsJSON, env.DefaultOptions())
	if err != nil {
		return 0, err
	}
	v, err := env.NewVecInto(n, o, seed, workers, b)
	if err != nil {
		return 0, err
	}
	return put(&Vec{v: v}), nil
}

func getVec(h int64) (*Vec, error) {
	x, err := get[*Vec](h, "vector env")
	if err != nil {
		return nil, err
	}
	return x, x.enter("vector env", h)
}

// VecStep applies actions[i] in game i (all checked first; an illegal one changes nothing).
func VecStep(h int64, actions []int) error {
	x, err := getVec(h)
	if err != nil {
		return err
	}
	defer x.leave()
	return x.v.Step(actions)
}

// VecReset restarts every game at episode 0 of its seed sequence.
func VecReset(h int64) error {
	x, err := getVec(h)
	if err != nil {
		return err
	}
	defer x.leave()
	x.v.Reset()
	return nil
}

// VecGameJSON describes game i: its episode count, its current seed, and the final scores
// of its last finished episode (null before one ends).
func VecGameJSON(h int64, i int) (string, error) {
	x, err := getVec(h)
	if err != nil {
		return "", err
	}
	defer x.leave()
	if i < 0 || i >= x.v.N {
		return "", fmt.Errorf("%w: game %d; the vector env has games 0 to %d", ErrInvalid, i, x.v.N-1)
	}
	b, err := json.Marshal(map[string]any{"episodes": x.v.Episodes[i], "seed": x.v.Env(i).Seed(),
		"scores": x.v.Scores[i], "steps": x.v.State(i).Steps})
	return string(b), err
}

// VecObserve writes seat's observation of game i into obs (any seat, not only the decider).
func VecObserve(h int64, i, seat int, obs []float32) error {
	x, err := getVec(h)
	if err != nil {
		return err
	}
	defer x.leave()
	if i < 0 || i >= x.v.N {
		return fmt.Errorf("%w: game %d; the vector env has games 0 to %d", ErrInvalid, i, x.v.N-1)
	}
	if len(obs) != x.v.D {
		return errBuf("observation", len(obs), x.v.D)
	}
	if seat < 0 || seat >= x.v.P {
		return fmt.Errorf("%w: seat %d; the game has seats 0 to %d", ErrInvalid, seat, x.v.P-1)
	}
	return x.v.Env(i).Observe(seat, obs)
}
