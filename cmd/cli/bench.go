package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/training"
	"github.com/spf13/cobra"
)

// ErrBenchOptions is wrapped by every bench option error.
var ErrBenchOptions = errors.New("bench: invalid options")

type benchOptions struct {
	gameFlags
	games   int
	workers int
	seed    uint64
	json    bool
	encode  bool
	train   bool
	batch   int
	steps   int
	width   int
}

func newBenchCmd() *cobra.Command {
	o := benchOptions{}
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure the rules engine (games and decisions per second, allocations) or training speed (--train)",
		Long: `Play uniformly random legal games with the unchecked hot path (LegalActions + Apply) and report
games and decisions (steps) per second and heap allocations per step (runtime.MemStats
Mallocs over the run divided by the steps). Game i uses seed --seed + i, so runs are
reproducible whatever --workers is.

--train measures training instead, on the GoMLX backend --backend selects (go, the default,
or xla in a build made by scripts/xla-cpu.sh; the flag wins over GOMLX_BACKEND):
behaviour-cloning samples per second for a network of --width (--steps timed optimisation
steps of --batch rows drawn from real decisions of scripted games, after 20 warm-up steps),
batched trained-bot decisions per second (256 positions per call, encoding included; bots
run the Go forward pass on any backend), and the network's forward pass on the backend
(--batch rows per call, rows per second).`,
		Example: `  container bench --players 4 --games 2000
  container bench --players 5 --rules classic --games 500 --workers 2 --json
  container bench --players 4 --games 600 --workers 1 --encode
  container bench --train
  container bench --train --modules all --batch 1024 --json
  container bench --train --backend xla --batch 1024 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBench(o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	addGameFlags(cmd, &o.gameFlags, gameFlagSet{turnLimit: true})
	f.IntVar(&o.games, "games", 1000, "games to play")
	f.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "parallel workers (one game per worker at a time)")
	f.Uint64Var(&o.seed, "seed", 1, "seed of the first game")
	f.BoolVar(&o.json, "json", false, "print one JSON object")
	f.BoolVar(&o.encode, "encode", false, "also encode the decider's observation and legal-action mask before every move")
	f.BoolVar(&o.train, "train", false, "measure training (BC samples/s) and batched bot inference (decisions/s) instead")
	f.IntVar(&o.batch, "batch", 256, "with --train: BC minibatch rows")
	f.IntVar(&o.steps, "steps", 100, "with --train: timed BC steps")
	f.IntVar(&o.width, "width", 128, "with --train: network width (depth 2, layer norm)")
	return cmd
}

func init() { register(newBenchCmd) }

// BenchResult is what bench measures.
type BenchResult struct {
	Games         int     `json:"games"`
	Players       int     `json:"players"`
	Steps         int64   `json:"steps"`
	Seconds       float64 `json:"seconds"`
	GamesPerS     float64 `json:"games_per_s"`
	StepsPerS     float64 `json:"steps_per_s"`
	AllocsPerStep float64 `json:"allocs_per_step"`
}

// BenchStep, when not nil, is called by BenchGames before every move with the worker index,
// the position and the chosen action id (for instance to encode observations: bench
// --encode). It runs on the worker's goroutine and must not keep or modify s.
type BenchStep func(worker int, s *rules.State, id int)

// BenchGames plays games random games of opts (game i from seed+i) on workers goroutines,
// calling step before every move, and measures them.
func BenchGames(opts rules.Options, games, workers int, seed uint64, step BenchStep) (BenchResult, error) {
	g, err := rules.NewGame(opts)
	if err != nil {
		return BenchResult{}, err
	}
	if games < 1 || workers < 1 {
		return BenchResult{}, fmt.Errorf("%w: need at least one game and one worker", ErrBenchOptions)
	}
	workers = min(workers, games)
	var (
		mu     sync.Mutex
		steps  int64
		next   int
		wg     sync.WaitGroup
		ms0    runtime.MemStats
		ms1    runtime.MemStats
		failed error
	)
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			ids := make([]int, 0, rules.NumDistinctActions())
			var local int64
			src := rand.NewPCG(0, 0)
			r := rand.New(src)
			limit := g.MaxGameLength()
			s := g.NewInitialStateSeed(seed) // reset in place for every game: no garbage per game
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= games {
					break
				}
				g.ResetState(s, seed+uint64(i))
				src.Seed(seed+uint64(i), 0x62656e6368) // "bench"
				n := 0
				for !s.IsTerminal() {
					if n > limit {
						mu.Lock()
						failed = fmt.Errorf("bench: game %d ran past MaxGameLength %d", i, limit)
						mu.Unlock()
						break
					}
					ids = s.LegalActions(ids)
					id := ids[r.IntN(len(ids))]
					if step != nil {
						step(w, s, id)
					}
					s.Apply(id)
					n++
				}
				local += int64(n)
			}
			mu.Lock()
			steps += local
			mu.Unlock()
		}(w)
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	runtime.ReadMemStats(&ms1)
	if failed != nil {
		return BenchResult{}, failed
	}
	res := BenchResult{Games: games, Players: opts.Players, Steps: steps, Seconds: secs}
	if secs > 0 {
		res.GamesPerS = float64(games) / secs
		res.StepsPerS = float64(steps) / secs
	}
	if steps > 0 {
		res.AllocsPerStep = float64(ms1.Mallocs-ms0.Mallocs) / float64(steps)
	}
	return res, nil
}

func runBench(o benchOptions, out io.Writer) error {
	flags := []intFlag{intIn("bench", "games", o.games), intIn("bench", "workers", o.workers)}
	if o.train {
		flags = append(flags, intIn("bench", "batch", o.batch), intIn("bench", "steps", o.steps),
			intIn("bench", "width", o.width))
	}
	if err := checkIntFlags(flags...); err != nil {
		return fmt.Errorf("%w: %w", ErrBenchOptions, err)
	}
	ro, err := o.rulesOptions(0)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBenchOptions, err)
	}
	if o.train {
		return runBenchTrain(o, ro, out)
	}
	if o.games < 1 {
		return fmt.Errorf("%w: --games %d; need at least 1", ErrBenchOptions, o.games)
	}
	if o.workers < 1 {
		return fmt.Errorf("%w: --workers %d; need at least 1", ErrBenchOptions, o.workers)
	}
	var step BenchStep
	if o.encode {
		g, err := rules.NewGame(ro)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrBenchOptions, err)
		}
		pool := encoding.NewPool(g, o.workers)
		step = func(w int, s *rules.State, _ int) { pool.Encode(w, s) }
	}
	res, err := BenchGames(ro, o.games, o.workers, o.seed, step)
	if err != nil {
		return err
	}
	if o.json {
		return writeJSONLine(out, res)
	}
	_, err = fmt.Fprintf(out, "%d games, %d players (%s): %d steps in %.2fs = %.0f games/s, %.0f steps/s, %.2f allocs/step (%.0f steps/game)\n",
		res.Games, res.Players, ro.Variant, res.Steps, res.Seconds, res.GamesPerS, res.StepsPerS, res.AllocsPerStep, float64(res.Steps)/float64(res.Games))
	return err
}

// runBenchTrain is bench --train.
func runBenchTrain(o benchOptions, ro rules.Options, out io.Writer) error {
	if o.encode {
		return fmt.Errorf("%w: --encode and --train are exclusive", ErrBenchOptions)
	}
	if o.batch < 1 || o.steps < 1 || o.width < 1 {
		return fmt.Errorf("%w: --batch %d, --steps %d, --width %d; each must be at least 1", ErrBenchOptions, o.batch, o.steps, o.width)
	}
	m := training.DefaultMeasureOptions()
	m.Batch, m.Steps, m.Width, m.Seed = o.batch, o.steps, o.width, o.seed
	res, err := training.MeasureTraining(ro, m)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if o.json {
		return writeJSONLine(out, res)
	}
	_, err = fmt.Fprintf(out, "backend %s, %d players, %d features, network width %d depth %d\n"+
		"behaviour cloning: %d steps of %d rows in %.2fs = %.0f samples/s\n"+
		"batched bot inference: %d decisions (%d positions per call) = %.0f decisions/s\n"+
		"network forward on the backend: %d rows per call = %.0f rows/s\n",
		res.Backend, res.Players, res.ObsDim, res.Width, res.Depth, res.Steps, res.Batch, res.BCSeconds, res.BCSamplesPerS,
		res.Decisions, res.DecisionsBatch, res.DecisionsPerS, res.Batch, res.ForwardRowsPerS)
	if err == nil && res.BCSamplesPerCPUS > 0 && res.DecisionsPerCPUS > 0 {
		_, err = fmt.Fprintf(out, "per CPU-second (what the cores did; less distorted on a shared machine): %.0f samples, %.0f decisions\n",
			res.BCSamplesPerCPUS, res.DecisionsPerCPUS)
	}
	return err
}

// writeJSONLine prints v as one line of JSON.
func writeJSONLine(out io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s\n", b)
	return err
}
