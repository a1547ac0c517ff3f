package bridge

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
)

// SoloBuffers are the caller-owned outputs of a Solo: per game the learner's observation
// (N x D) and byte mask (N x A), its reward from the last step (N), whether that step ended
// the episode (N each) and the learner's seat in the current episode (N).
type SoloBuffers struct {
	Obs                   []float32
	Mask                  []int8
	Reward                []float32
	Terminated, Truncated []bool
	Seat                  []int64
}

// Solo is N single-agent games: in each, one learning seat is the caller's and Go bots play
// the others, moving inside Step until the learner decides again. A finished game is reset
// in the same Step with the next seed of its sequence (env.GameSeed), so the buffers always
// describe N positions where the learner decides.
type Solo struct {
	busy
	games     []*Env
	out       SoloBuffers
	n, d, a   int
	opponents []string
	fixedSeat int // -1: game i's episode k seats the learner in seat (i+k) mod P
	base      uint64
	episodes  []int
	scores    [][]rules.Score
	workers   int
}

// NewSolo makes n single-agent games with the options: opponents are the bots of the other
// seats (P-1 specs, clockwise from the learner's left), seat the learner's seat or -1 to
// rotate it every episode, workers the goroutines stepping them (0: one per core).
func NewSolo(n int, optsJSON string, opponents []string, seat int, seed uint64, workers int, b SoloBuffers) (int64, error) {
	s, err := VecSizes(n, optsJSON)
	if err != nil {
		return 0, err
	}
	if len(opponents) != s.Players-1 {
		return 0, fmt.Errorf("%w: %d opponents for %d players; want one bot per other seat", ErrInvalid, len(opponents), s.Players)
	}
	for _, o := range opponents {
		if o == "" {
			return 0, fmt.Errorf("%w: an empty opponent name", ErrInvalid)
		}
	}
	if seat < -1 || seat >= s.Players {
		return 0, fmt.Errorf("%w: seat %d; want -1 (rotate) or 0 to %d", ErrInvalid, seat, s.Players-1)
	}
	if workers < 0 || workers > 1024 {
		return 0, fmt.Errorf("%w: %d workers; want 0 (one per core) to 1024", ErrInvalid, workers)
	}
	if workers == 0 {
		workers = defaultWorkers()
	}
	workers = min(workers, n)
	for _, c := range []struct {
		name      string
		got, want int
	}{{"observation", len(b.Obs), n * s.Obs}, {"mask", len(b.Mask), n * s.Actions}, {"reward", len(b.Reward), n},
		{"terminated", len(b.Terminated), n}, {"truncated", len(b.Truncated), n}, {"seat", len(b.Seat), n}} {
		if c.got != c.want {
			return 0, errBuf(c.name, c.got, c.want)
		}
	}
	o, err := ParseOptions(optsJSON, env.DefaultOptions())
	if err != nil {
		return 0, err
	}
	x := &Solo{games: make([]*Env, n), out: b, n: n, d: s.Obs, a: s.Actions, opponents: append([]string(nil), opponents...),
		fixedSeat: seat, base: seed, episodes: make([]int, n), scores: make([][]rules.Score, n), workers: workers}
	for i := range x.games {
		e, err := env.New(o)
		if err != nil {
			return 0, err
		}
		p := s.Players
		x.games[i] = &Env{e: e, sizes: s, b: EnvBuffers{Obs: b.Obs[i*s.Obs : (i+1)*s.Obs : (i+1)*s.Obs],
			Mask: b.Mask[i*s.Actions : (i+1)*s.Actions : (i+1)*s.Actions], Legal: make([]int32, s.Actions),
			Rewards: make([]float32, p), Since: make([]float32, p), Total: make([]float32, p), Status: make([]int64, StatusLen)}}
	}
	if err := x.resetAll(); err != nil {
		return 0, err
	}
	return put(x), nil
}

// seatingFor returns the bot specs per seat with the learner in seat.
func (x *Solo) seatingFor(seat int) []string {
	p := len(x.opponents) + 1
	specs := make([]string, p)
	for j, o := range x.opponents {
		specs[(seat+1+j)%p] = o
	}
	return specs
}

// begin starts game i's current episode: seat the learner, reset, let the bots move until
// the learner decides. A game the bots finish before the learner decides (a tiny max_steps)
// counts as an episode and the next one starts.
func (x *Solo) begin(i int) error {
	g := x.games[i]
	for range 100 {
		k := x.episodes[i]
		seat := x.fixedSeat
		if seat < 0 {
			seat = (i + k) % (len(x.opponents) + 1)
		}
		if g.opp == nil || g.opp.specs[seat] != "" {
			if err := g.setOpponents(x.seatingFor(seat)); err != nil {
				return err
			}
		}
		seed := env.GameSeed(x.base, i, k)
		g.e.Reset(seed)
		if err := g.opp.reseed(seed); err != nil {
			return err
		}
		clear(g.b.Since)
		g.b.Status[StLastAgent] = -1
		if _, err := g.play(); err != nil {
			return fmt.Errorf("game %d: %w", i, err)
		}
		g.write()
		x.out.Seat[i] = int64(seat)
		if !g.e.Done() {
			return nil
		}
		x.episodes[i]++
	}
	return fmt.Errorf("%w: game %d: 100 games in a row ended before the learning seat decided; raise max_steps", ErrInvalid, i)
}

func (x *Solo) resetAll() error {
	for i := range x.games {
		x.episodes[i] = 0
		x.scores[i] = nil
		x.out.Reward[i] = 0
		x.out.Terminated[i], x.out.Truncated[i] = false, false
		if err := x.begin(i); err != nil {
			return err
		}
	}
	return nil
}

func getSolo(h int64) (*Solo, error) {
	x, err := get[*Solo](h, "single-agent vector env")
	if err != nil {
		return nil, err
	}
	return x, x.enter("single-agent vector env", h)
}

// SoloReset restarts every game at episode 0 of the seed sequence of seed.
func SoloReset(h int64, seed uint64) error {
	x, err := getSolo(h)
	if err != nil {
		return err
	}
	defer x.leave()
	x.base = seed
	return x.resetAll()
}

// SoloStep applies actions[i] for the learner of game i, then the bots' moves until the
// learner decides again; a finished game is reset at once. Every action is checked first:
// an illegal one changes nothing.
func SoloStep(h int64, actions []int) error {
	x, err := getSolo(h)
	if err != nil {
		return err
	}
	defer x.leave()
	if len(actions) != x.n {
		return fmt.Errorf("%w: %d actions for %d games", ErrInvalid, len(actions), x.n)
	}
	for i, a := range actions {
		if a < 0 || a >= x.a || x.out.Mask[i*x.a+a] == 0 {
			return fmt.Errorf("game %d: action %d for seat %d: %w", i, a, x.out.Seat[i], rules.ErrIllegalAction)
		}
	}
	errs := make([]error, x.workers)
	var wg sync.WaitGroup
	for w := range x.workers {
		lo, hi := w*x.n/x.workers, (w+1)*x.n/x.workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = Guard(func() error {
				for i := lo; i < hi; i++ {
					if err := x.stepGame(i, actions[i]); err != nil {
						return fmt.Errorf("game %d: %w", i, err)
					}
				}
				return nil
			})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (x *Solo) stepGame(i, action int) error {
	g := x.games[i]
	seat := int(x.out.Seat[i])
	if err := g.step(action); err != nil {
		return err
	}
	if _, err := g.play(); err != nil {
		return err
	}
	x.out.Reward[i] = g.b.Since[seat]
	done := g.e.Done()
	x.out.Terminated[i] = done && g.e.State().IsTerminal()
	x.out.Truncated[i] = done && !g.e.State().IsTerminal()
	if !done {
		g.write()
		return nil
	}
	x.scores[i] = g.e.State().Scores()
	x.episodes[i]++
	return x.begin(i)
}

// SoloGameJSON describes game i: finished episodes, current seed and learner seat, and the
// final scores of its last finished episode (null before one ends).
func SoloGameJSON(h int64, i int) (string, error) {
	x, err := getSolo(h)
	if err != nil {
		return "", err
	}
	defer x.leave()
	if i < 0 || i >= x.n {
		return "", fmt.Errorf("%w: game %d; the vector env has games 0 to %d", ErrInvalid, i, x.n-1)
	}
	b, err := json.Marshal(map[string]any{"episodes": x.episodes[i], "seed": x.games[i].e.Seed(),
		"seat": x.out.Seat[i], "scores": x.scores[i], "steps": x.games[i].e.State().Steps})
	return string(b), err
}
