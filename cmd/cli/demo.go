package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/container-rl/container/internal/progress"
	"github.com/container-rl/container/internal/rundir"
)

// ErrDemoStep is wrapped when a step of the demo fails.
var ErrDemoStep = errors.New("demo: step failed")

type demoOptions struct {
	out        string
	games      int
	evalGames  int
	trainSteps int
	seed       uint64
	strict     bool
	// progress receives the steps' progress bars (nil: not shown).
	progress io.Writer
}

// demoDefaults are sized so the whole demo runs in well under five minutes on two cores.
func demoDefaults() demoOptions {
	return demoOptions{out: filepath.Join("runs", "demo"), games: 400, evalGames: 200, trainSteps: 800, seed: 1}
}

func newDemoCmd() *cobra.Command {
	o := demoDefaults()
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the whole pipeline on small defaults: self-play, dataset, training, export, evaluation",
		Long: `Run the toolkit end to end on embedded defaults, in a few minutes on a laptop:

  1. self-play games between the scripted bots, written as an Arrow dataset;
  2. dataset statistics;
  3. a short behaviour-cloning run on that dataset;
  4. export of the trained network as a bot file;
  5. an evaluation table of the exported bot against the scripted bots.

Each step is an ordinary container command; the demo prints its command line so you can rerun
or scale any step yourself, and ends with where every artifact was written.`,
		Example: `  container demo
  container demo --out /tmp/demo --games 50 --eval-games 20`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if progress.IsTerminal(cmd.ErrOrStderr()) {
				o.progress = cmd.ErrOrStderr()
			}
			return runDemo(o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", o.out, "directory for every artifact (created; must be new, empty or an earlier demo's, whose artifacts are replaced)")
	f.IntVar(&o.games, "games", o.games, "self-play games for the dataset")
	f.IntVar(&o.evalGames, "eval-games", o.evalGames, "games of the evaluation tournament (the trained bot and the three scripted bots, seats rotated)")
	f.IntVar(&o.trainSteps, "train-steps", o.trainSteps, "behaviour-cloning training steps")
	f.Uint64Var(&o.seed, "seed", o.seed, "seed for self-play, training and evaluation")
	f.BoolVar(&o.strict, "strict", false, "fail when a step's command is not part of this build instead of skipping it")
	return cmd
}

func init() { register(newDemoCmd) }

// demoStep is one stage of the pipeline: a container command line and the artifact it makes.
type demoStep struct {
	title    string
	label    string // what the artifact is, for the closing summary
	args     []string
	artifact string // path written by the step ("" if it only prints)
	needs    string // artifact of an earlier step this one reads ("" if none)
}

// demoPaths are where the demo writes its artifacts under the output directory.
type demoPaths struct {
	dataset, train, bot, eval string
}

func demoLayout(out string) demoPaths {
	return demoPaths{
		dataset: filepath.Join(out, "dataset"),
		train:   filepath.Join(out, "train"),
		bot:     filepath.Join(out, "demo.bot"),
		eval:    filepath.Join(out, "eval.csv"),
	}
}

// demoTeachers are the scripted bots whose games the network learns from and plays against.
var demoTeachers = []string{"valuer", "shipper", "manufacturer"}

func demoSteps(o demoOptions) []demoStep {
	p := demoLayout(o.out)
	seed := strconv.FormatUint(o.seed, 10)
	seats := append(append([]string{}, demoTeachers...), demoTeachers[0])
	// About twenty metrics rows for the learning curves; one checkpoint at the end.
	logEvery := max(1, o.trainSteps/20)
	checkpointEvery := logEvery * ((o.trainSteps + logEvery - 1) / logEvery)
	return []demoStep{
		{
			title: "self-play between the scripted bots",
			args: []string{"selfplay", "--agents", strings.Join(seats, ","), "--games", strconv.Itoa(o.games),
				"--seed", seed, "--shard-games", strconv.Itoa(shardGames(o.games)), "--quiet", "--out", p.dataset},
			artifact: p.dataset,
			label:    "self-play dataset (Arrow shards + manifest.json)",
		},
		{
			title: "dataset statistics",
			args:  []string{"dataset", "stats", p.dataset},
			needs: p.dataset,
		},
		{
			title: "behaviour cloning",
			args: []string{"train", "bc", "--data", p.dataset, "--steps", strconv.Itoa(o.trainSteps),
				"--log-every", strconv.Itoa(logEvery), "--checkpoint-every", strconv.Itoa(checkpointEvery),
				"--seed", seed, "--out", p.train},
			artifact: p.train,
			label:    "training run (metrics.csv, checkpoints)",
			needs:    p.dataset,
		},
		{
			title:    "export the trained bot",
			args:     []string{"export", "--run", p.train, "--out", p.bot, "--notes", "container demo: behaviour cloning of the scripted bots"},
			artifact: p.bot,
			label:    "trained bot",
			needs:    p.train,
		},
		{
			title: "evaluation against the scripted bots",
			args: []string{"eval", "--agents", strings.Join(append([]string{p.bot}, demoTeachers...), ","),
				"--games", strconv.Itoa(o.evalGames), "--seed", seed, "--csv", p.eval},
			artifact: p.eval,
			label:    "evaluation table (CSV)",
			needs:    p.bot,
		},
	}
}

// shardGames splits the self-play games into at least four shards so both cores of a small
// machine work (a shard is one worker's unit).
func shardGames(games int) int { return max(1, (games+3)/4) }

func (o demoOptions) validate() error {
	if err := checkIntFlags(intIn("demo", "games", o.games), intIn("demo", "eval-games", o.evalGames),
		intIn("demo", "train-steps", o.trainSteps)); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	switch {
	case o.out == "":
		return errors.New("demo: --out is empty")
	case o.games < 1:
		return fmt.Errorf("demo: --games %d is less than 1", o.games)
	case o.evalGames < 1:
		return fmt.Errorf("demo: --eval-games %d is less than 1", o.evalGames)
	case o.trainSteps < 1:
		return fmt.Errorf("demo: --train-steps %d is less than 1", o.trainSteps)
	}
	return nil
}

// demoRunner runs the demo's command lines; tests replace it.
type demoRunner struct {
	has func(args []string) bool                           // whether the build has the command args names
	run func(args []string, out, progress io.Writer) error // runs one command line
}

// cobraRunner runs command lines on this build's command tree.
var cobraRunner = demoRunner{has: hasCommand, run: runCommand}

// runDemo runs the pipeline. A step whose command is not registered in this build is skipped
// (an error with strict), and so is every step that needs its artifact.
func runDemo(o demoOptions, out io.Writer) error { return runDemoWith(o, out, cobraRunner) }

func runDemoWith(o demoOptions, out io.Writer, r demoRunner) error {
	if err := o.validate(); err != nil {
		return err
	}
	// --out must be new, empty or an earlier demo's; it is locked while the demo runs.
	dir, err := rundir.Open(o.out, rundir.Demo)
	if err != nil {
		return fmt.Errorf("demo: --out: %w", err)
	}
	defer dir.Close()
	steps := demoSteps(o)
	// A rerun starts afresh: the commands refuse to overwrite a dataset and would resume a
	// finished training run. Only the demo's own artifacts are removed, each only when it is
	// what the step writes, holding nothing else (checked for all before any is removed).
	if err := removeDemoArtifacts(demoLayout(o.out)); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	start := time.Now()
	made := map[string]bool{}
	var skipped []string
	var artifacts []demoStep
	for i, s := range steps {
		fmt.Fprintf(out, "\n== %d. %s\n$ container %s\n", i+1, s.title, shellJoin(s.args))
		if s.needs != "" && !made[s.needs] {
			fmt.Fprintf(out, "skipped: it needs %s, which an earlier step did not make\n", s.needs)
			skipped = append(skipped, s.title)
			continue
		}
		if !r.has(s.args) {
			if o.strict {
				return fmt.Errorf("%w: %s: container %s is not part of this build", ErrDemoStep, s.title, s.args[0])
			}
			fmt.Fprintf(out, "skipped: container %s is not part of this build yet\n", strings.Join(s.args[:commandDepth(s.args)], " "))
			skipped = append(skipped, s.title)
			continue
		}
		t0 := time.Now()
		if err := r.run(s.args, out, o.progress); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrDemoStep, s.title, err)
		}
		fmt.Fprintf(out, "(%s in %.1fs)\n", s.title, time.Since(t0).Seconds())
		if s.artifact != "" {
			if _, err := os.Stat(s.artifact); err != nil {
				return fmt.Errorf("%w: %s did not write %s", ErrDemoStep, s.title, s.artifact)
			}
			made[s.artifact] = true
			artifacts = append(artifacts, s)
		}
	}
	fmt.Fprintf(out, "\nDemo finished in %.0fs.\n", time.Since(start).Seconds())
	if len(artifacts) > 0 {
		fmt.Fprintln(out, "Artifacts:")
		for _, a := range artifacts {
			fmt.Fprintf(out, "  %-50s %s\n", a.label, a.artifact)
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(out, "Skipped (not in this build yet): %s\n", strings.Join(skipped, "; "))
	}
	if p := demoLayout(o.out); made[p.bot] {
		fmt.Fprintf(out, "\nNext: play against the trained bot with\n  container play --players 4 --opponents %s\n", shellJoin([]string{p.bot}))
		fmt.Fprintf(out, "or open notebooks/ in Jupyter (GoNB kernel) with CONTAINER_DEMO=%s.\n", shellJoin([]string{o.out}))
	}
	return nil
}

// removeDemoArtifacts removes an earlier demo's artifacts: the dataset and the training run
// when they are directories of their kinds holding only their own files, the bot file and
// the CSV when they are a bot file and an eval CSV. Anything else refuses before any removal.
func removeDemoArtifacts(p demoPaths) error {
	dirs := []struct {
		path string
		kind *rundir.Kind
	}{{p.dataset, rundir.Selfplay}, {p.train, rundir.TrainBC}}
	files := []struct {
		path, what, prefix string
	}{{p.bot, "a bot file", rundir.BotMagic}, {p.eval, "an eval CSV", evalCSVHeader}}
	for _, d := range dirs {
		if err := rundir.Removable(d.path, d.kind); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := rundir.CheckFile(f.path, f.what, rundir.HasPrefix(f.prefix), false); err != nil {
			return fmt.Errorf("%w (the demo writes %s there)", err, f.what)
		}
	}
	for _, d := range dirs {
		if err := rundir.Remove(d.path, d.kind); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := os.Remove(f.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// hasCommand reports whether this build has a runnable command for args.
func hasCommand(args []string) bool {
	root := NewRoot()
	c, _, err := root.Find(args)
	return err == nil && c != root && (c.RunE != nil || c.Run != nil)
}

// runCommand runs one container command line on a fresh command tree (flags never leak from
// one step into the next). The commands write progress bars to their error stream, which goes
// to progress (dropped when nil, so logs stay readable); errors come back as values.
func runCommand(args []string, out, progress io.Writer) error {
	if progress == nil {
		progress = io.Discard
	}
	root := NewRoot()
	root.SetArgs(args)
	root.SetIn(strings.NewReader(""))
	root.SetOut(out)
	root.SetErr(progress)
	return root.Execute()
}

// commandDepth is the number of leading words of args that name the command (not flags or
// positional arguments): "train bc --data x" has depth 2.
func commandDepth(args []string) int {
	n := 0
	for _, a := range args {
		if strings.HasPrefix(a, "-") || strings.ContainsAny(a, "/.") {
			break
		}
		n++
	}
	return max(n, 1)
}

// shellJoin quotes args for display as a shell command line.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"$\\*?;&|<>()") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}
