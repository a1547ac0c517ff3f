package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/progress"
	"github.com/container-rl/container/internal/rundir"
	"github.com/container-rl/container/training"
	"github.com/schollz/progressbar/v3"
)

// ErrTrainOptions is wrapped by every train option error.
var ErrTrainOptions = errors.New("train: invalid options")

// netFlags are the network and optimiser flags bc and ppo share.
type netFlags struct {
	width, depth int
	norm         string
	lr           float64
	valueCoef    float64
	seed         uint64
}

func addNetFlags(cmd *cobra.Command, o *netFlags) {
	f, net := cmd.Flags(), training.DefaultNetConfig(0, 0, 0)
	f.IntVar(&o.width, "width", net.Width, "hidden units per trunk layer")
	f.IntVar(&o.depth, "depth", net.Depth, "trunk layers")
	f.StringVar(&o.norm, "norm", net.Norm, "trunk normalisation: layer or none")
	f.Float64Var(&o.lr, "lr", 1e-3, "Adam learning rate")
	f.Float64Var(&o.valueCoef, "value-coef", 0.5, "weight of the value loss")
	f.Uint64Var(&o.seed, "seed", 1, "seed for initialisation, batch sampling and games")
}

func (o netFlags) check() error {
	if err := checkIntFlags(netRange("width").with(o.width), netRange("depth").with(o.depth)); err != nil {
		return fmt.Errorf("%w: %w", ErrTrainOptions, err)
	}
	if err := checkFloatFlags(netRange("lr").withFloat(o.lr), netRange("value-coef").withFloat(o.valueCoef)); err != nil {
		return fmt.Errorf("%w: %w", ErrTrainOptions, err)
	}
	if o.width < 1 || o.width > training.MaxWidth || o.depth < 0 || o.depth > training.MaxDepth {
		return fmt.Errorf("%w: --width %d / --depth %d outside 1..%d / 0..%d", ErrTrainOptions, o.width, o.depth, training.MaxWidth, training.MaxDepth)
	}
	if o.norm != training.NormLayer && o.norm != training.NormNone {
		return fmt.Errorf("%w: --norm %s (want layer or none)", ErrTrainOptions, rules.Quote(o.norm))
	}
	if !(o.lr > 0) || o.valueCoef < 0 {
		return fmt.Errorf("%w: --lr %g must be positive and --value-coef %g not negative", ErrTrainOptions, o.lr, o.valueCoef)
	}
	return nil
}

type trainBCOptions struct {
	netFlags
	data            []string
	init            string
	out             string
	steps, batch    int
	logEvery        int
	checkpointEvery int
	valPercent      int
	buffer          int
	teachers        string
	record          string
	games           int
	valueOnly       bool
	progress        io.Writer
}

func newTrainCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "train",
		Short: "Train policy/value networks: behaviour cloning (bc), self-play PPO (ppo) or search-guided self-play (exit)",
		Long: `Train a policy/value network (MLP trunk, masked policy head over every action id, value head
predicting every seat's outcome) with GoMLX on the pure-Go backend (--backend xla, in a build
made by scripts/xla-cpu.sh, or GOMLX_BACKEND selects another). A run directory holds the
latest checkpoint, run.json and metrics.csv/json; running the same command again resumes from
the checkpoint with nothing lost.`,
		Example: `  container train bc --data runs/valuer-data --out runs/bc --steps 3000
  container train ppo --out runs/ppo --init runs/bc --iterations 50
  container train exit --out runs/exit --init default --generations 10`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newTrainBCCmd(), newTrainPPOCmd(), newTrainExItCmd())
	return cmd
}

func init() { register(newTrainCmd) }

func newTrainBCCmd() *cobra.Command {
	o := trainBCOptions{}
	cmd := &cobra.Command{
		Use:   "bc",
		Short: "Behaviour cloning from an Arrow dataset (or from games played by teacher bots)",
		Long: `Behaviour cloning: cross-entropy of the masked policy against the recorded action plus
--value-coef times the squared error of the value head against every seat's return. Rows are
split into training and validation sets by game. --data is streamed: each epoch reads the
datasets' record batches in an order drawn from --seed into a shuffle buffer of --buffer
decisions, whose rows are served in an order drawn from --seed, so memory is bounded by
--buffer, not by the data; validation uses the first 4096 decisions of held-out games. Every --log-every steps the training loss,
accuracy over legal actions, value error and the same on the validation set are logged to
RUN/metrics.csv and RUN/metrics.json; every --checkpoint-every steps RUN/checkpoint.ckpt is
replaced. Instead of --data, --teachers plays --games games between scripted bots in memory
(--record picks whose decisions are learned). --data may be repeated: the datasets must share
the encoding and rules options. --init starts from a trained network (a run directory, a .bot
file or "default") made for the data's games instead of a fresh one: fine-tuning.
--value-only trains a value network: the loss is the value error alone (--value-coef is then
unused), for a search that takes its prior from one network and its leaf values from this one
(ismcts:net=default,value=RUN.bot).

--out must be a new or empty directory or a behaviour-cloning run directory; it is locked
while the run trains. Running the same command again resumes from the checkpoint, where the
data stream stood; only --steps may change (to extend the run), every other setting and the
data (its rules options, encoding, source and shard files) must be the ones the run started
with. A shard deleted or changed while the run streams it stops the run with one line naming
it, after checkpointing the last step trained. Ctrl-C stops training at the
next --log-every step, checkpoints it and exits with status 130; the same command resumes.`,
		Example: `  container train bc --data runs/valuer-data --out runs/bc --steps 3000 --batch 256
  container train bc --teachers valuer --games 400 --out runs/bc-valuer --steps 5000
  container train bc --init default --data runs/exit/buffer/gen-000001 --data runs/exit/buffer/gen-000002 --out runs/ft --lr 0.0003`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.progress = cmd.ErrOrStderr()
			ctx, stop := interruptible(cmd)
			defer stop()
			return runTrainBC(ctx, o, cmd.OutOrStdout())
		},
	}
	addNetFlags(cmd, &o.netFlags)
	f := cmd.Flags()
	f.StringArrayVar(&o.data, "data", nil, "dataset directory (container selfplay output); repeat it to train on several datasets of the same games (e.g. the generations of a train exit buffer)")
	f.StringVar(&o.init, "init", "", "initial network: a run directory, a .bot file or \"default\" for the data's games (none: fresh; --width, --depth and --norm then come from it)")
	f.StringVar(&o.out, "out", "", "run directory (created; resumed when it has a checkpoint); required")
	f.IntVar(&o.steps, "steps", 2000, "total optimisation steps")
	f.IntVar(&o.batch, "batch", 256, "rows per step")
	f.IntVar(&o.logEvery, "log-every", 100, "steps between metric rows")
	f.IntVar(&o.checkpointEvery, "checkpoint-every", 500, "steps between checkpoints (a multiple of --log-every)")
	f.IntVar(&o.valPercent, "val-percent", 10, "percentage of games held out for validation")
	f.IntVar(&o.buffer, "buffer", training.DefaultStreamBuffer, "with --data: decisions held in memory at once, the shuffle buffer (about 3.2 KB each at 773 features)")
	f.StringVar(&o.teachers, "teachers", "", "instead of --data: comma-separated bots whose games are played in memory")
	f.IntVar(&o.games, "games", 200, "games to play with --teachers")
	f.StringVar(&o.record, "record", "", "with --teachers: learn only from these bots' decisions (default: all seats)")
	f.BoolVar(&o.valueOnly, "value-only", false, "train the value head alone (loss: the value error; the policy head is left untrained): a value network for ismcts:net=default,value=FILE.bot")
	return cmd
}

// runTrainBC runs train bc; cancelling ctx (Ctrl-C) stops the teacher games (nothing
// written) or the training (checkpointed at the step reached) with an ErrInterrupted error.
func runTrainBC(ctx context.Context, o trainBCOptions, out io.Writer) error {
	if o.out == "" {
		return fmt.Errorf("%w: --out is required", ErrTrainOptions)
	}
	if (len(o.data) == 0) == (o.teachers == "") {
		return fmt.Errorf("%w: give exactly one of --data and --teachers", ErrTrainOptions)
	}
	if len(o.data) > 0 && o.record != "" {
		return fmt.Errorf("%w: --record selects teachers' decisions and needs --teachers; with --data every recorded decision is learned", ErrTrainOptions)
	}
	if err := o.netFlags.check(); err != nil {
		return err
	}
	if err := checkIntFlags(intIn("train bc", "steps", o.steps), intIn("train bc", "batch", o.batch),
		intIn("train bc", "log-every", o.logEvery), intIn("train bc", "checkpoint-every", o.checkpointEvery),
		intIn("train bc", "val-percent", o.valPercent), intIn("train bc", "buffer", o.buffer)); err != nil {
		return fmt.Errorf("%w: %w", ErrTrainOptions, err)
	}
	// A backend that cannot run is refused before the data is read or teacher games are played.
	if err := training.CheckBackend(); err != nil {
		return err
	}
	// Refuse a directory that is not a behaviour-cloning run before loading any data.
	if err := rundir.Check(o.out, rundir.TrainBC); err != nil {
		return fmt.Errorf("train bc: --out: %w", err)
	}
	if o.steps < 1 || o.batch < 1 || o.logEvery < 1 || o.checkpointEvery < o.logEvery || o.checkpointEvery%o.logEvery != 0 {
		return fmt.Errorf("%w: --steps %d, --batch %d, --log-every %d, --checkpoint-every %d (positive; checkpoint a multiple of log)",
			ErrTrainOptions, o.steps, o.batch, o.logEvery, o.checkpointEvery)
	}
	if o.valPercent < 0 || o.valPercent > 50 {
		return fmt.Errorf("%w: --val-percent %d outside 0..50", ErrTrainOptions, o.valPercent)
	}
	// A network file or run given as --init is read before the data (teacher games take
	// minutes); the shipped one, which depends on the data's games, after it.
	bo := training.DefaultBCOptions()
	var err error
	if o.init != bots.DefaultName {
		if bo.Init, bo.InitEncoding, bo.InitRules, err = readInit(o.init, o.out, rules.Options{}); err != nil {
			return err
		}
	}
	var data *training.Samples
	var stream *training.Stream
	if len(o.data) > 0 {
		for _, d := range o.data {
			if d == "" {
				return fmt.Errorf("%w: --data \"\" names no directory", ErrTrainOptions)
			}
		}
		rp := newReadProgress(o.progress)
		stream, err = training.OpenStream(o.data, training.StreamOptions{Buffer: o.buffer, ValPercent: o.valPercent,
			ValRows: bo.ValRows, Seed: o.seed, Progress: rp.report, Ctx: ctx})
		rp.end()
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("train bc: %w while reading the data; nothing was written (run the command again)", ErrInterrupted)
		}
		if err != nil {
			return err
		}
		defer stream.Close()
		data = stream.Header
	} else {
		teachers := bots.SplitAgents(o.teachers)
		if err := checkIntFlags(intIn("train bc", "games", o.games)); err != nil {
			return fmt.Errorf("%w: %w", ErrTrainOptions, err)
		}
		var mu sync.Mutex
		done := 0
		var bar *progress.Bar
		if o.progress != nil {
			bar = gamesBar(o.progress, o.games, "teacher games")
		}
		onGame := func() {
			mu.Lock()
			defer mu.Unlock()
			done++
			if bar != nil {
				_ = bar.Add(1)
			}
		}
		// Ctrl-C while the teachers play (minutes with a search among them) stops cleanly;
		// nothing is written before the games are in.
		data, err = training.CollectSamplesProgress(ctx, teachers, splitList(o.record), o.games, rules.DefaultOptions(), env.Rank, o.seed, 0, onGame)
		if err == nil {
			_ = bar.Finish()
		}
		bar.Close() // a stopped bar's line is ended before the error
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("train bc: %w after %d of %d teacher games; nothing was written (run the command again)", ErrInterrupted, done, o.games)
		}
	}
	if err != nil {
		return err
	}
	if stream != nil {
		fmt.Fprintf(out, "data: %d decisions in %d shards, %d features, %d actions, %d seats (encoding %s); streamed through a buffer of %d decisions, %d validation decisions\n",
			stream.Decisions, stream.Shards, data.ObsDim, data.NumActions, data.ValueDim, data.EncodingVersion, o.buffer, stream.Val.Len())
	} else {
		fmt.Fprintf(out, "data: %d decisions, %d features, %d actions, %d seats (encoding %s)\n",
			data.Len(), data.ObsDim, data.NumActions, data.ValueDim, data.EncodingVersion)
	}
	bo.Out, bo.Steps, bo.Batch = o.out, int64(o.steps), o.batch
	bo.LogEvery, bo.CheckpointEvery, bo.ValPercent, bo.Seed = int64(o.logEvery), int64(o.checkpointEvery), o.valPercent, o.seed
	bo.Net = training.NetConfig{Width: o.width, Depth: o.depth, Norm: o.norm}
	bo.Hyper.LearningRate, bo.Hyper.ValueCoef, bo.Hyper.ValueOnly = o.lr, o.valueCoef, o.valueOnly
	bo.Progress, bo.Log = o.progress, out
	bo.InitFrom = o.init
	if o.init == bots.DefaultName {
		if bo.Init, bo.InitEncoding, bo.InitRules, err = readInit(o.init, o.out, data.Rules); err != nil {
			return err
		}
	}
	var res *training.BCResult
	if stream != nil {
		res, err = training.TrainBCStream(ctx, stream, bo)
	} else {
		res, err = training.TrainBC(ctx, data, bo)
	}
	if stopped := (*training.StoppedError)(nil); errors.As(err, &stopped) {
		return stoppedError("train bc", "step", stopped)
	}
	if err != nil {
		return err
	}
	if res.Resumed {
		fmt.Fprintf(out, "resumed from the checkpoint in %s\n", o.out)
	}
	if n := len(res.Metrics); n > 0 {
		last := res.Metrics[n-1]
		fmt.Fprintf(out, "done: %d steps in %.1fs; loss %.4f, accuracy %.3f; validation loss %.4f, accuracy %.3f, value mse %.4f\n",
			res.Steps, res.Seconds, last[4], last[7], last[8], last[11], last[10])
	}
	fmt.Fprintf(out, "run: %s (export with: container export --run %s --out NAME.bot)\n", o.out, o.out)
	return nil
}

// stoppedError is the one line of a training run stopped by Ctrl-C: how far it got, and
// that the same command resumes it from the checkpoint it wrote.
func stoppedError(command, unit string, s *training.StoppedError) error {
	if s.Step == 0 {
		return fmt.Errorf("%s: %w before the first %s finished; nothing trained (run the same command again to start)", command, ErrInterrupted, unit)
	}
	return fmt.Errorf("%s: %w after %s %d of %d; checkpoint written (run the same command again to resume)", command, ErrInterrupted, unit, s.Step, s.Steps)
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// readProgress shows train bc reading its data: a bar per stage on a terminal, a line per
// stage (and every few seconds) otherwise.
type readProgress struct {
	w        io.Writer
	terminal bool
	stage    string
	bar      *progressbar.ProgressBar
	last     time.Time
}

func newReadProgress(w io.Writer) *readProgress {
	return &readProgress{w: w, terminal: progress.IsTerminal(w)}
}

func (p *readProgress) report(stage string, done, total int64) {
	if p.w == nil {
		return
	}
	if stage != p.stage {
		p.end()
		p.stage = stage
		if p.terminal {
			p.bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(p.w), progressbar.OptionSetDescription("reading: "+stage),
				progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
				progressbar.OptionThrottle(250*time.Millisecond), progressbar.OptionClearOnFinish())
		}
		p.last = time.Time{}
	}
	if p.bar != nil {
		_ = p.bar.Set64(done)
		return
	}
	// Nothing before the first item (as internal/progress): a stage refused at once prints no line.
	if now := time.Now(); done > 0 && (now.Sub(p.last) >= 5*time.Second || done == total) {
		p.last = now
		fmt.Fprintf(p.w, "reading: %s %d/%d\n", stage, done, total)
	}
}

// end finishes the current stage's bar.
func (p *readProgress) end() {
	if p.bar != nil {
		_ = p.bar.Finish()
		p.bar = nil
	}
}
