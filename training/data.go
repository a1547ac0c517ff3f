package training

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// LoadSamples reads every step of an Arrow dataset directory (written by the datasets
// package) into memory: about 3.2 KB a decision at 773 features. Training streams datasets
// instead (OpenStream); this form serves tests and small in-memory runs. Value targets are the per-seat returns rotated so that seat 0 is the
// decider, matching the observation's seat order.
func LoadSamples(dir string) (*Samples, error) { return LoadSamplesFrom([]string{dir}) }

// LoadSamplesFrom reads the steps of several datasets into one set of samples (e.g. the
// generations of a train exit replay buffer, each a dataset of its own). They must share the
// encoding, sizes and rules options (ErrIncompatible names the first that differs); games keep
// apart in the train/validation split (dataset k's game ids are offset by k<<40, the first
// dataset's unchanged), and Source lists every dataset, so a run resumes only on the same data.
func LoadSamplesFrom(dirs []string) (*Samples, error) {
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%w: no dataset named", ErrConfig)
	}
	var all *Samples
	var sources []string
	for k, dir := range dirs {
		s, err := loadSamples(dir, uint64(k)<<40)
		if err != nil {
			return nil, err
		}
		sources = append(sources, s.Source)
		if all == nil {
			all = s
			continue
		}
		if err := sameData(all, s, dirs[0], dir); err != nil {
			return nil, err
		}
		all.Obs = append(all.Obs, s.Obs...)
		all.Mask = append(all.Mask, s.Mask...)
		all.Actions = append(all.Actions, s.Actions...)
		all.Values = append(all.Values, s.Values...)
		all.Games = append(all.Games, s.Games...)
	}
	if len(dirs) > 1 {
		all.Source = strings.Join(sources, " + ")
	}
	return all, all.Check()
}

// loadSamples reads one dataset; gameOffset is added to its game ids.
func loadSamples(dir string, gameOffset uint64) (*Samples, error) {
	ds, err := datasets.Open(dir, datasets.AcceptEncodings(encoding.Versions()...))
	if err != nil {
		return nil, err
	}
	s, err := datasetHeader(ds, dir)
	if err != nil {
		return nil, err
	}
	m := ds.Meta
	P := m.Seats
	for c, err := range ds.StepBatches() {
		if err != nil {
			return nil, err
		}
		n := c.Len()
		s.Obs = append(s.Obs, c.Obs[:n*m.ObsDim]...)
		for i := range n {
			s.Mask = append(s.Mask, c.Mask.Value(i)...)
			s.Actions = append(s.Actions, c.Action.Value(i))
			s.Games = append(s.Games, c.GameID.Value(i)+gameOffset)
			d := int(c.Decider.Value(i))
			for k := range P {
				s.Values = append(s.Values, c.Returns[i*P+(d+k)%P])
			}
		}
	}
	if s.Len() == 0 {
		return nil, fmt.Errorf("training: dataset %s has no steps", dir)
	}
	return s, nil
}

// CollectSamples plays games between the named bots (in game g, seat i plays
// teachers[(i+g) mod len], so every teacher sits in every seat) and
// records every decision of the seats whose bot is listed in record (all seats when record
// is empty). Value targets are each seat's final reward under scheme, seat 0 = the decider.
// Games are spread over workers goroutines; the result depends only on the arguments.
func CollectSamples(teachers, record []string, games int, opts rules.Options, scheme env.RewardScheme, seed uint64, workers int) (*Samples, error) {
	return CollectSamplesProgress(context.Background(), teachers, record, games, opts, scheme, seed, workers, nil)
}

// CollectSamplesProgress is CollectSamples that calls onGame (when set; from any worker
// goroutine) after every finished game, a progress bar for teachers that search, and stops
// with ctx's error (within a few decisions) when ctx is cancelled.
func CollectSamplesProgress(ctx context.Context, teachers, record []string, games int, opts rules.Options, scheme env.RewardScheme, seed uint64, workers int, onGame func()) (*Samples, error) {
	g, err := rules.NewGame(opts)
	if err != nil {
		return nil, fmt.Errorf("training: %w", err)
	}
	if len(teachers) == 0 || games < 1 {
		return nil, fmt.Errorf("%w: %d teachers, %d games", ErrConfig, len(teachers), games)
	}
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	enc := encoding.NewEncoder(g)
	P := opts.Players
	parts := make([]*Samples, games)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			enc := encoding.NewEncoder(g)
			for i := w; i < games; i += workers {
				s, err := playRecorded(ctx, g, enc, teachers, record, P, scheme, env.GameSeed(seed, i, 0), uint64(i))
				if err != nil {
					errs[w] = err
					return
				}
				parts[i] = s
				if onGame != nil {
					onGame()
				}
			}
		}(w)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	all := &Samples{EncodingVersion: encoding.Version, Rules: opts,
		Source: fmt.Sprintf("%d games of teachers %s (learning from %s) from seed %d, reward %s", games,
			strings.Join(teachers, ","), recordedSeats(record), seed, scheme), ObsDim: enc.Size(), NumActions: enc.NumActions(), ValueDim: P}
	// One copy into arrays of the final size; each game's rows are dropped once copied.
	n := 0
	for _, p := range parts {
		n += p.Len()
	}
	all.Obs = make([]float32, 0, n*all.ObsDim)
	all.Mask = make([]byte, 0, n*all.MaskBytes())
	all.Actions = make([]int32, 0, n)
	all.Values = make([]float32, 0, n*P)
	all.Games = make([]uint64, 0, n)
	for i, p := range parts {
		all.Obs = append(all.Obs, p.Obs...)
		all.Mask = append(all.Mask, p.Mask...)
		all.Actions = append(all.Actions, p.Actions...)
		all.Values = append(all.Values, p.Values...)
		all.Games = append(all.Games, p.Games...)
		parts[i] = nil
	}
	return all, all.Check()
}

func playRecorded(ctx context.Context, g *rules.Game, enc *encoding.Encoder, teachers, record []string, P int, scheme env.RewardScheme, seed, gameID uint64) (*Samples, error) {
	st := g.NewInitialStateSeed(seed)
	players := make([]bots.Bot, P)
	rec := make([]bool, P)
	for s := range P {
		name := teachers[(s+int(gameID%uint64(len(teachers))))%len(teachers)]
		b, err := bots.New(name, g.Options(), seed+uint64(s)*0x9e37)
		if err != nil {
			return nil, err
		}
		players[s] = b
		rec[s] = len(record) == 0
		for _, r := range record {
			rec[s] = rec[s] || r == name
		}
	}
	out := &Samples{ObsDim: enc.Size(), NumActions: enc.NumActions(), ValueDim: P}
	var deciders []int
	var s bots.Seat
	obs := make([]float32, enc.Size())
	maxLen := g.MaxGameLength()
	for steps := 0; !st.IsTerminal(); steps++ {
		if steps > maxLen {
			return nil, fmt.Errorf("training: game %d longer than %d decisions", gameID, maxLen)
		}
		if steps&15 == 0 && ctx.Err() != nil { // a searching teacher spends up to seconds a decision
			return nil, ctx.Err()
		}
		s.Bot = players[st.CurrentPlayer()]
		a, err := s.Act(st)
		if err != nil {
			return nil, fmt.Errorf("training: game %d: %w", gameID, err)
		}
		if seat := s.Decider(); rec[seat] {
			view := s.View()
			if err := enc.Encode(view, seat, view.Decision(), obs); err != nil {
				return nil, fmt.Errorf("training: %w", err)
			}
			out.Append(gameID, obs, s.Legal(), a, make([]float32, P))
			deciders = append(deciders, seat)
		}
		st.Apply(a) // legal: the seat checked it
	}
	final := make([]float32, P)
	env.FinalRewards(scheme, 0, st.Scores(), final)
	for r, d := range deciders {
		for k := range P {
			out.Values[r*P+k] = final[(d+k)%P]
		}
	}
	return out, nil
}

func recordedSeats(record []string) string {
	if len(record) == 0 {
		return "every seat"
	}
	return strings.Join(record, ",")
}
