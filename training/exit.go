package training

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/datasets/selfplay"
	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/eval"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/env/search"
	"github.com/container-rl/container/internal/cputime"
	"github.com/container-rl/container/internal/progress"
	"github.com/container-rl/container/internal/rundir"
)

// The search bot reports its root visits and value, so self-play records them.
var _ selfplay.PolicyBot = (*search.Bot)(nil)

// ExItOptions configure a search-guided training run (Expert Iteration; Anthony, Tian and
// Barber 2017; AlphaZero). Each generation plays Games self-play games in which every seat
// is the ismcts search guided by the best network so far (PUCT: its policy is the prior,
// its value head scores the leaves), writes them as one dataset of the replay buffer (the
// root visit shares in the policy column, the search's value in the value column), trains
// the network on the last Window generations (policy: cross-entropy against the visit
// shares; value: the game's outcome), and now and then gates the new network against the
// best one and against plain ismcts. Everything except Generations, Workers, KeepBuffer,
// Progress and Log is fixed when the run starts; a resumed run takes it from its checkpoint.
type ExItOptions struct {
	Out         string        `json:"out"`
	Generations int64         `json:"generations"`
	Rules       rules.Options `json:"rules"` // the games the network plays (and is gated on)
	// SelfplayTurnLimit is the turn limit of the self-play games (rules.Options.TurnLimit;
	// 0: the rules' own). A game that reaches it is a loss for every seat in the value
	// targets, so that no seat learns to drag a game it leads out to the limit.
	SelfplayTurnLimit int `json:"selfplay_turn_limit"`
	Games             int `json:"games"`       // self-play games per generation
	ShardGames        int `json:"shard_games"` // games per buffer shard (the unit a killed run replays)
	// Sims, C and Explore are the self-play search's settings (search.Config): simulations
	// per decision, the PUCT constant, and the turns during which the move played is drawn in
	// proportion to the root visits (after that, the most visited).
	Sims    int     `json:"sims"`
	C       float64 `json:"c"`
	Explore int     `json:"explore"`
	// Rollout, when set, is a rollout policy of the self-play search (search.Rollouts): the
	// network's policy stays the PUCT prior, but rollouts by this policy score the leaves
	// instead of the value head (ismcts:net=...,rollout=valuer). Slower per simulation, and a
	// stronger teacher while the value head is weak. "": the value head. Recorded even when
	// empty; a run saved without it (an earlier build) was started without one.
	Rollout string `json:"rollout"`
	// Expert, when set, is a fixed search that plays every self-play seat instead of the
	// network-guided one: a plain ismcts spec ("ismcts", "ismcts:sims=400"), or one guided by
	// fixed networks that training does not change ("ismcts:sims=300,net=default,
	// value=value-4p,leaf=mix,depth=40": default's prior, a value network's leaves). This is
	// the first step of Expert Iteration (the apprentice learns to imitate a stronger search;
	// Anthony, Tian and Barber 2017), for when the network is still weaker than that search:
	// its root visit shares are the policy targets and the games' outcomes the value targets
	// as before. Sims, C and Rollout are then unused (Rollout must be empty);
	// the spec's workers is set to 1 (Workers games run in parallel instead) and its explore
	// to Explore. Recorded even when empty, as Rollout.
	Expert string `json:"expert"`
	// League, when set, mixes league opponents into self-play: each game's entry is drawn
	// (from the seed, generation and game) in proportion to the weights; an entry other than
	// LeagueSelf puts the learner's search in one seat (drawn too) and the opponent in the
	// others. Only the learner's decisions are trained on. Empty: every game LeagueSelf.
	League []LeagueEntry `json:"league,omitempty"`
	Window int           `json:"window"` // generations of the buffer trained on
	// Buffer is the number of the window's decisions held in memory at once (the window is
	// streamed from the buffer's files through this shuffle buffer).
	Buffer int `json:"buffer,omitempty"`
	Steps  int `json:"steps"` // optimisation steps per generation
	Batch  int `json:"batch"`
	// ValueMix weighs the search's value into the decider's value target (0: the outcome).
	ValueMix float64 `json:"value_mix"`
	// GateEvery is the number of generations between gating evaluations (and the last
	// generation is gated); 0: no gating, every new network becomes the best at once.
	GateEvery int64 `json:"gate_every"`
	GateGames int   `json:"gate_games"`
	// GateOpponent is the outside yardstick the new network (policy only) plays against in
	// players-1 seats ("" for none): a plain ismcts spec by default.
	GateOpponent string `json:"gate_opponent"`
	// A gated network becomes the best one when its win rate against players-1 copies of the
	// best is at least 1/players + GateMargin and at most GateTurnLimitShare of its games
	// against GateOpponent (against the best when there is no opponent) ended at the turn
	// limit.
	GateMargin         float64 `json:"gate_margin"`
	GateTurnLimitShare float64 `json:"gate_turn_limit_share"`
	// GateOpponentDrop, when above 0, also refuses a network whose win rate against
	// GateOpponent is more than GateOpponentDrop below the best's (a plain threshold, see
	// gateDecision). The best's rate is the one measured when it was promoted; generation 0's
	// is measured against GateOpponent (the same games' seeds) at the first gating that needs
	// it. 0: off. Recorded only when set.
	GateOpponentDrop float64   `json:"gate_opponent_drop,omitempty"`
	KeepBuffer       bool      `json:"keep_buffer,omitempty"` // keep generations that left the window
	Seed             uint64    `json:"seed"`
	Workers          int       `json:"workers"` // self-play and gating games in parallel
	Net              NetConfig `json:"net"`
	Hyper            Hyper     `json:"hyper"`
	InitFrom         string    `json:"init_from,omitempty"`
	Init             *Weights  `json:"-"`
	// InitEncoding and InitRules say what Init was trained for (refused when they differ).
	InitEncoding string         `json:"-"`
	InitRules    *rules.Options `json:"-"`

	Progress io.Writer `json:"-"`
	Log      io.Writer `json:"-"`

	// onGame, if set, is called after every self-play game (tests cancel a run with it).
	onGame func(gen int64, games int)
}

// DefaultExItOptions returns the defaults of container train exit (4-player base games).
func DefaultExItOptions() ExItOptions {
	return ExItOptions{Generations: 20, Rules: rules.DefaultOptions(), SelfplayTurnLimit: 200, Games: 32, ShardGames: 4,
		Sims: 64, C: search.DefaultNetC, Explore: 15, Window: 4, Buffer: DefaultStreamBuffer, Steps: 200, Batch: 256, GateEvery: 2, GateGames: 40,
		GateOpponent: "ismcts:sims=50,workers=1", GateMargin: 0.02, GateTurnLimitShare: 0.01, Seed: 1, Workers: 2,
		Net:   NetConfig{Width: 128, Depth: 2, Norm: NormLayer},
		Hyper: Hyper{LearningRate: 3e-4, ValueCoef: 0.5}}
}

// ExItMetricNames are the columns of a train exit run's metrics (-1: not measured in that
// generation). gate_best_* is the new network against players-1 copies of the best one,
// gate_opp_* against players-1 copies of GateOpponent; rates are win rates (shared wins
// split) with their 95% Wilson interval, *_turn_limit the share of games that ended at the
// turn limit.
var ExItMetricNames = []string{"generation", "seconds", "selfplay_games", "selfplay_decisions", "selfplay_seconds",
	"selfplay_turn_limit", "selfplay_mean_turns", "window_rows", "loss", "policy_loss", "value_mse", "accuracy", "entropy",
	"gate_games", "gate_best_rate", "gate_best_lo", "gate_best_hi", "gate_best_turn_limit",
	"gate_opp_rate", "gate_opp_lo", "gate_opp_hi", "gate_opp_turn_limit", "promoted", "best_generation",
	"league_games", "gen_seconds", "cpu_seconds"}

// ExItMayChange lists the settings a resumed run may change.
var ExItMayChange = []string{"generations", "workers", "keep_buffer"}

// ExItResult summarises a run.
type ExItResult struct {
	Generations int64
	Metrics     [][]float64
	Seconds     float64
	Resumed     bool
	Best        string // the best network's file, relative to the run directory
}

// exitState is the train-exit part of a checkpoint.
type exitState struct {
	Best           string `json:"best"` // nets/gen-NNNNNN.bot
	BestGeneration int64  `json:"best_generation"`
	// BestOppRate is the best network's win rate against the gate opponent when the metrics
	// do not hold it (generation 0): measured at the first gating with GateOpponentDrop set,
	// forgotten when another network is promoted.
	BestOppRate *float64 `json:"best_opp_rate,omitempty"`
}

func init() {
	for k, v := range map[string]string{"generations": "--generations", "sims": "--sims", "c": "--c", "explore": "--explore",
		"window": "--window", "steps": "--steps", "value_mix": "--value-mix", "gate_every": "--gate-every",
		"gate_games": "--gate-games", "gate_opponent": "--gate-opponent", "gate_margin": "--gate-margin",
		"gate_turn_limit_share": "--gate-turn-limit-share", "gate_opponent_drop": "--gate-opponent-drop", "selfplay_turn_limit": "--selfplay-turn-limit",
		"shard_games": "--shard-games", "expert": "--expert", "rollout": "--rollout", "workers": "--workers",
		"keep_buffer": "--keep-buffer", "league": "--league"} {
		if _, ok := settingFlags[k]; !ok {
			settingFlags[k] = v
		}
	}
}

// genName names generation g's network file and buffer directory.
func genName(g int64) string { return fmt.Sprintf("gen-%06d", g) }

func (o *ExItOptions) check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...))
	}
	switch {
	case o.Generations < 1:
		return bad("%d generations; want at least 1", o.Generations)
	case o.Games < 1 || o.ShardGames < 1:
		return bad("%d games per generation in shards of %d; want at least 1", o.Games, o.ShardGames)
	case o.Sims < 1 || o.Sims > search.MaxSims:
		return bad("sims %d outside 1..%d", o.Sims, search.MaxSims)
	case !(o.C >= 0 && o.C <= 100):
		return bad("c %g outside 0..100", o.C)
	case o.Explore < 0 || o.Explore > search.MaxExplore:
		return bad("explore %d outside 0..%d", o.Explore, search.MaxExplore)
	case o.Rollout != "" && !slices.Contains(search.Rollouts, o.Rollout):
		return bad("rollout %s; want one of %s (or none: the value head)", rules.Quote(o.Rollout), strings.Join(search.Rollouts, ", "))
	case o.Window < 1 || o.Steps < 1 || o.Batch < 1 || o.Buffer < 1:
		return bad("window %d, buffer %d, steps %d, batch %d; want at least 1", o.Window, o.Buffer, o.Steps, o.Batch)
	case !(o.ValueMix >= 0 && o.ValueMix <= 1):
		return bad("value mix %g outside 0..1", o.ValueMix)
	case o.GateEvery < 0 || (o.GateEvery > 0 && o.GateGames < 1):
		return bad("gate every %d with %d games; want gate every >= 0 and, when gating, at least 1 game", o.GateEvery, o.GateGames)
	case !(o.GateMargin >= -1 && o.GateMargin <= 1) || !(o.GateTurnLimitShare >= 0 && o.GateTurnLimitShare <= 1):
		return bad("gate margin %g outside -1..1 or turn-limit share %g outside 0..1", o.GateMargin, o.GateTurnLimitShare)
	case !(o.GateOpponentDrop >= 0 && o.GateOpponentDrop <= 1):
		return bad("gate opponent drop %g outside 0..1 (0: off)", o.GateOpponentDrop)
	case o.GateOpponentDrop > 0 && (o.GateEvery == 0 || o.GateOpponent == ""):
		return bad("gate opponent drop %g needs gating (gate every above 0) and a gate opponent", o.GateOpponentDrop)
	case o.SelfplayTurnLimit < 0 || o.SelfplayTurnLimit > rules.MaxTurnLimit:
		return bad("self-play turn limit %d outside 0..%d", o.SelfplayTurnLimit, rules.MaxTurnLimit)
	}
	if o.GateOpponent != "" {
		if err := bots.Resolve(o.GateOpponent); err != nil {
			return err
		}
	}
	learner := ""
	if o.Expert != "" {
		cfg, err := expertConfig(o.Expert, o.Explore)
		if err != nil {
			return err
		}
		learner = search.Name + ":" + cfg.String()
		// made once here, so that a network it names that cannot play these games (or does
		// not exist) is refused before the run directory is made
		if _, err := bots.New(learner, o.Rules, 0); err != nil {
			return fmt.Errorf("%w: expert %s: %w", ErrConfig, rules.Quote(o.Expert), err)
		}
	}
	if err := checkLeague(o.League, o.Rules, learner); err != nil {
		return err
	}
	if o.Expert != "" {
		if o.Rollout != "" {
			return bad("rollout %s and expert %s both given; the rollout belongs to the network-guided search, an expert names its own (rollout=...)",
				rules.Quote(o.Rollout), rules.Quote(o.Expert))
		}
		if _, err := expertConfig(o.Expert, o.Explore); err != nil {
			return err
		}
	}
	return nil
}

// expertConfig reads an ExItOptions.Expert spec: an ismcts search, plain or guided by fixed
// networks (net=, value=), played with one worker (self-play runs games in parallel) and the
// run's explore turns.
func expertConfig(spec string, explore int) (search.Config, error) {
	name, params, _ := strings.Cut(spec, ":")
	if !strings.EqualFold(strings.TrimSpace(name), search.Name) {
		return search.Config{}, fmt.Errorf("%w: expert %s: want an %s spec (e.g. %s, %s:sims=400 or %s:sims=300,net=default,value=value-4p,leaf=mix,depth=40)",
			ErrConfig, rules.Quote(spec), search.Name, search.Name, search.Name, search.Name)
	}
	cfg, err := search.Parse(params)
	if err != nil {
		return cfg, fmt.Errorf("%w: expert: %w", ErrConfig, err)
	}
	cfg.Workers, cfg.Explore = 1, explore
	return cfg, nil
}

// exitRun is the train exit method of a run (the run lifecycle of run.go): each step is one
// generation.
type exitRun struct {
	opts    *ExItOptions
	ctx     context.Context
	st      exitState
	gens    map[int64]exitGen // the window's generations, read once
	stepper *exitStepper
	bar     *progress.Bar
	played  int64     // self-play games finished, all generations
	row     []float64 // the last generation's metrics
	log     string    // and its log line
}

// TrainExIt trains (or resumes) a search-guided run in opts.Out. ctx stops it: the
// generation in progress keeps its finished buffer shards and the run resumes from its last
// checkpoint (one per generation) with nothing lost or mixed. On a stop the result counts
// the generations finished.
//
// The run directory must be new, empty or a train exit run (internal/rundir); it is locked
// while the run trains. A resumed run must be given the settings it was started with (only
// ExItMayChange may change, and InitFrom may be left empty; ErrResumeMismatch names the
// first that differs).
func TrainExIt(ctx context.Context, opts ExItOptions) (*ExItResult, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	// The progress bar counts self-play games (a generation takes minutes), so the lifecycle's
	// own bar of steps is not used.
	r, err := openRun(runSpec{Out: opts.Out, Kind: rundir.TrainExIt, Method: "exit", Steps: opts.Generations,
		LogEvery: 1, CheckpointEvery: 1, MetricNames: ExItMetricNames})
	if err != nil {
		return nil, err
	}
	defer r.close()
	e := &exitRun{opts: &opts, ctx: ctx, gens: map[int64]exitGen{}}
	if err := r.prepare(e); err != nil {
		return nil, err
	}
	if p, err := filepath.Abs(opts.Out); err != nil || strings.Contains(p, ",") {
		return nil, fmt.Errorf("%w: the run directory's path %q holds a comma, which a search spec cannot name; pick another --out", ErrConfig, p)
	}
	if e.stepper, err = newExitStepper(r.tr); err != nil {
		return nil, err
	}
	if err := r.begin(&opts); err != nil {
		return nil, err
	}
	for _, d := range []string{"nets", "buffer"} {
		if err := os.MkdirAll(filepath.Join(opts.Out, d), 0o755); err != nil {
			return nil, fmt.Errorf("training: %w", err)
		}
	}
	if !r.Resumed {
		w, err := r.tr.Weights()
		if err != nil {
			return nil, err
		}
		if err := e.writeNet(0, w); err != nil {
			return nil, err
		}
	}
	if opts.Progress != nil {
		e.bar = progress.New(opts.Progress, opts.Generations*int64(opts.Games), "exit", progress.Options{})
		e.played = r.Step * int64(opts.Games)
		e.bar.SetStart(e.played)
	}
	err = r.loop(e)
	if e.bar != nil {
		if err == nil {
			_ = e.bar.Finish()
		} else {
			e.bar.Close() // the error that follows starts on its own line
		}
	}
	return &ExItResult{Generations: r.Step, Metrics: r.Metrics, Seconds: r.seconds(), Resumed: r.Resumed, Best: e.st.Best}, err
}

// resume continues the run with the options it was started with (only ExItMayChange and the
// output directory come from the command) and its best network.
func (e *exitRun) resume(r *run) error {
	opts := *e.opts
	var saved ExItOptions
	if err := r.savedOptions(&saved); err != nil {
		return err
	}
	given := opts
	resumeInit(&given.InitFrom, &given.Net, given.Init, saved.InitFrom, saved.Net)
	saved = ExItOptions{}
	if err := r.resume(given, &saved, ExItMayChange...); err != nil {
		return err
	}
	for i, row := range r.Metrics { // rows of an earlier build lack the later columns
		for len(row) < len(ExItMetricNames) {
			row = append(row, -1)
		}
		r.Metrics[i] = row
	}
	if err := json.Unmarshal(r.ckpt.Extra, &e.st); err != nil {
		return fmt.Errorf("%w: run state: %v", ErrCorrupt, err)
	}
	if !strings.HasPrefix(e.st.Best, "nets/gen-") || !strings.HasSuffix(e.st.Best, ".bot") || strings.Contains(e.st.Best, "..") {
		return fmt.Errorf("%w: run state names best network %q", ErrCorrupt, e.st.Best)
	}
	saved.Out, saved.Generations, saved.Workers, saved.KeepBuffer = opts.Out, opts.Generations, opts.Workers, opts.KeepBuffer
	saved.Progress, saved.Log, saved.onGame = opts.Progress, opts.Log, opts.onGame
	*e.opts = saved
	return nil
}

// start checks the options of a new run, sizes the network for its games and refuses an
// initial network made for others.
func (e *exitRun) start(r *run) error {
	opts := e.opts
	if err := opts.check(); err != nil {
		return err
	}
	game, err := rules.NewGame(opts.Rules)
	if err != nil {
		return fmt.Errorf("training: %w", err)
	}
	enc := encoding.NewEncoder(game)
	opts.Net.ObsDim, opts.Net.NumActions, opts.Net.ValueDim = enc.Size(), enc.NumActions(), opts.Rules.Players
	if opts.Init != nil {
		if err := checkInit(opts.InitFrom, opts.InitEncoding, opts.InitRules, encoding.Version, "train exit observes games as", opts.Rules); err != nil {
			return err
		}
	}
	e.st = exitState{Best: "nets/" + genName(0) + ".bot"}
	return r.fresh(opts.Init, &opts.Net, opts.Seed, opts.Hyper, "these games need")
}

// step plays, trains and gates generation g.
func (e *exitRun) step(r *run, g int64) error {
	row, err := e.generation(e.ctx, r.tr, e.stepper, g, pastNets(r.Metrics, e.st.Best), bestOppRate(r.Metrics, e.st))
	if err != nil {
		return err
	}
	row[1] = r.seconds()
	e.row = row
	return nil
}

// record writes the generation's log line, forgets (and unless KeepBuffer deletes) the
// buffer generations that left the window, and returns the metrics row. Generations before
// the window are never read again, also not by a run resumed from the previous checkpoint.
func (e *exitRun) record(r *run) ([]float64, error) {
	if e.opts.Log != nil {
		e.bar.Clear() // the line is not written after the bar
		fmt.Fprint(e.opts.Log, e.log)
	}
	return e.row, e.prune(r.Step)
}

// save adds the run's encoding, rules options and best network.
func (e *exitRun) save(h *checkpointHeader) {
	h.EncodingVersion, h.Rules = encoding.Version, e.opts.Rules
	h.Extra, _ = json.Marshal(e.st)
}

// writeNet writes generation g's network as RUN/nets/gen-NNNNNN.bot (the same bytes when a
// resumed run writes it again).
func (e *exitRun) writeNet(g int64, w *Weights) error {
	name := genName(g)
	b := newBotFile(name, encoding.Version, e.opts.Rules, w, TrainingInfo{Method: "exit", Steps: g})
	return b.WriteFile(filepath.Join(e.opts.Out, "nets", name+".bot"))
}

func (e *exitRun) describe(s string) {
	if e.bar != nil {
		e.bar.Describe(s)
	}
}

// searchSpec is the ismcts spec every self-play seat plays: the expert when there is one,
// otherwise the search guided by the network file.
func (e *exitRun) searchSpec(net string) (string, error) {
	o := e.opts
	if o.Expert != "" {
		cfg, err := expertConfig(o.Expert, o.Explore)
		if err != nil {
			return "", err
		}
		return search.Name + ":" + cfg.String(), nil
	}
	spec := fmt.Sprintf("%s:sims=%d,workers=1,c=%g,explore=%d", search.Name, o.Sims, o.C, o.Explore)
	if o.Rollout != "" {
		spec += ",rollout=" + o.Rollout
	}
	return spec + ",net=" + net, nil
}

// bufferAgent is the agent a generation's buffer records and how to make its bots: the search
// spec with the network named relative to the run directory (nets/gen-NNNNNN.bot), so the
// run directory can be moved or copied and still resume, and its bots made from the file
// where it is now. A buffer begun by an earlier build, which recorded the network's absolute
// path, keeps that name (resuming compares it) while its bots are made from the network in
// this run directory.
func (e *exitRun) bufferAgent(old *datasets.Manifest) (agent string, botSpec func(string) string, err error) {
	agent, err = e.searchSpec(e.st.Best)
	if err != nil || e.opts.Expert != "" {
		return agent, nil, err
	}
	abs, err := filepath.Abs(filepath.Join(e.opts.Out, e.st.Best))
	if err != nil {
		return "", nil, fmt.Errorf("training: %w", err)
	}
	recorded := e.st.Best
	if old != nil && len(old.Agents) > 0 {
		base := strings.TrimSuffix(agent, e.st.Best)
		if p, ok := strings.CutPrefix(old.Agents[0], base); ok && filepath.IsAbs(p) && filepath.Base(p) == filepath.Base(e.st.Best) {
			agent, recorded = old.Agents[0], p
		}
	}
	return agent, func(a string) string { return strings.Replace(a, ",net="+recorded, ",net="+abs, 1) }, nil
}

// netSpec maps the agents a buffer records to the specs their bots are made from: the
// learner's through botSpec, and a league opponent's network (nets/gen-NNNNNN.bot, relative
// to the run directory) to the file in the run directory.
func (e *exitRun) netSpec(botSpec func(string) string) func(string) string {
	return func(a string) string {
		if strings.HasPrefix(a, "nets/gen-") && strings.HasSuffix(a, ".bot") && !strings.Contains(a, "..") {
			if abs, err := filepath.Abs(filepath.Join(e.opts.Out, a)); err == nil {
				return abs
			}
		}
		if botSpec != nil {
			return botSpec(a)
		}
		return a
	}
}

// generation plays, trains and gates generation g and returns its metrics row.
//
// bestOpp is the best network's win rate against the gate opponent (-1: unknown).
func (e *exitRun) generation(ctx context.Context, tr *Trainer, stepper *exitStepper, g int64, past []string, bestOpp float64) ([]float64, error) {
	o := e.opts
	row := make([]float64, len(ExItMetricNames))
	for i := range row {
		row[i] = -1
	}
	row[0] = float64(g)
	// 1. Self-play with the best network into buffer/gen-g.
	t0, cpu0 := time.Now(), cputime.Process()
	if err := e.selfplay(ctx, g, past); err != nil {
		return nil, err
	}
	row[4] = time.Since(t0).Seconds()
	// 2. Train on the window.
	e.describe(fmt.Sprintf("exit gen %d/%d train", g, o.Generations))
	var windowRows int64
	var dirs []string
	for k := max(1, g-int64(o.Window)+1); k <= g; k++ {
		gen, err := e.gen(k)
		if err != nil {
			return nil, err
		}
		windowRows += gen.rows
		dirs = append(dirs, e.genDir(k))
	}
	cur := e.gens[g]
	row[2], row[3] = float64(cur.Games), float64(cur.Decisions)
	row[5] = float64(cur.TurnLimitGames) / float64(max(cur.Games, 1))
	row[6] = float64(cur.Turns) / float64(max(cur.Games, 1))
	row[7] = float64(windowRows)
	if windowRows == 0 {
		return nil, fmt.Errorf("training: generation %d: the window holds no decision with a choice", g)
	}
	// The window streams from the buffer's files: batches drawn without replacement through
	// a shuffle buffer of o.Buffer decisions, in an order fixed by the seed and generation.
	s, err := openExitStream(dirs, o.Net.ObsDim, o.Net.NumActions, o.Rules.Players, o.ValueMix, o.Buffer, o.Seed^uint64(g)<<32, ctx)
	if err != nil {
		return nil, fmt.Errorf("training: replay buffer window of generation %d: %w", g, err)
	}
	defer s.Close()
	var tb Batch
	var b exitBatch
	var acc StepMetrics
	for range o.Steps {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("training: generation %d: %w", g, err)
		}
		if err := s.Next(&tb, o.Batch); err != nil {
			return nil, fmt.Errorf("training: replay buffer window of generation %d: %w", g, err)
		}
		b = exitBatch{Rows: tb.Rows, Obs: tb.Obs, Mask: tb.Mask, Policy: tb.Policy, Values: tb.Values}
		m, err := stepper.Step(&b)
		if err != nil {
			return nil, err
		}
		acc.Loss += m.Loss
		acc.PolicyLoss += m.PolicyLoss
		acc.ValueLoss += m.ValueLoss
		acc.Accuracy += m.Accuracy
		acc.Entropy += m.Entropy
	}
	n := float64(o.Steps)
	row[8], row[9], row[10], row[11], row[12] = acc.Loss/n, acc.PolicyLoss/n, acc.ValueLoss/n, acc.Accuracy/n, acc.Entropy/n
	w, err := tr.Weights()
	if err != nil {
		return nil, err
	}
	if err := e.writeNet(g, w); err != nil {
		return nil, err
	}
	// 3. Gate.
	promoted := false
	var gateLine, refusal string
	if o.GateEvery == 0 {
		promoted = true
	} else if g%o.GateEvery == 0 || g == o.Generations {
		e.describe(fmt.Sprintf("exit gen %d/%d gate", g, o.Generations))
		cand := newBotFile(genName(g), encoding.Version, o.Rules, w, TrainingInfo{Method: "exit", Steps: g})
		best, err := ReadBotFile(filepath.Join(o.Out, e.st.Best))
		if err != nil {
			return nil, err
		}
		seed := env.GameSeed(o.Seed, int(g), 3)
		vsBest, err := gateGames(ctx, cand, best, "", o.Rules, o.GateGames, seed, o.Workers)
		if err != nil {
			return nil, fmt.Errorf("training: generation %d: gating against the best network: %w", g, err)
		}
		row[13] = float64(o.GateGames)
		row[14], row[15], row[16], row[17] = vsBest.Rate.Rate, vsBest.Rate.Lo, vsBest.Rate.Hi, vsBest.turnLimitShare()
		// The stalling test: the games against the outside opponent (the best network plays
		// players-1 seats of the others, so their endings are mostly its doing).
		stalls := vsBest.turnLimitShare()
		gateLine = fmt.Sprintf(" | vs best (%s): %s", e.st.Best, vsBest)
		candOpp := -1.0
		if o.GateOpponent != "" {
			vsOpp, err := gateGames(ctx, cand, nil, o.GateOpponent, o.Rules, o.GateGames, seed+1, o.Workers)
			if err != nil {
				return nil, fmt.Errorf("training: generation %d: gating against %s: %w", g, o.GateOpponent, err)
			}
			row[18], row[19], row[20], row[21] = vsOpp.Rate.Rate, vsOpp.Rate.Lo, vsOpp.Rate.Hi, vsOpp.turnLimitShare()
			stalls, candOpp = vsOpp.turnLimitShare(), vsOpp.Rate.Rate
			gateLine += fmt.Sprintf(" | vs %s: %s", o.GateOpponent, vsOpp)
		}
		if o.GateOpponentDrop > 0 && bestOpp < 0 {
			// The best's rate is unknown (generation 0): measure it once, with the games'
			// seeds the candidate just played.
			vs, err := gateGames(ctx, best, nil, o.GateOpponent, o.Rules, o.GateGames, seed+1, o.Workers)
			if err != nil {
				return nil, fmt.Errorf("training: generation %d: gating %s against %s: %w", g, e.st.Best, o.GateOpponent, err)
			}
			bestOpp = vs.Rate.Rate
			e.st.BestOppRate = &bestOpp
			gateLine += fmt.Sprintf(" | best (%s) vs %s: %s", e.st.Best, o.GateOpponent, vs)
		}
		promoted, refusal = gateDecision(o, vsBest.Rate.Rate, stalls, candOpp, bestOpp)
	}
	if promoted {
		e.st.Best, e.st.BestGeneration, e.st.BestOppRate = "nets/"+genName(g)+".bot", g, nil
	}
	row[22] = 0
	if promoted {
		row[22] = 1
	}
	row[23] = float64(e.st.BestGeneration)
	row[24] = float64(cur.LeagueGames)
	row[25], row[26] = time.Since(t0).Seconds(), (cputime.Process() - cpu0).Seconds()
	{
		verdict := ""
		if o.GateEvery > 0 && gateLine != "" {
			verdict = " | kept " + e.st.Best
			if refusal != "" {
				verdict = " | not promoted: " + refusal + "; kept " + e.st.Best
			}
			if promoted {
				verdict = " | promoted to best"
			}
		}
		league := ""
		if len(o.League) > 0 {
			league = fmt.Sprintf(", %d with league opponents", cur.LeagueGames)
		}
		e.log = fmt.Sprintf("generation %d: %d self-play games%s (%.0f turns on average, %.1f%% at the turn limit) in %.0fs; %d decisions in the window; policy loss %.4f, value mse %.4f, accuracy %.3f, entropy %.3f%s%s | %.0f CPU-seconds, %.0fs wall\n",
			g, cur.Games, league, row[6], 100*row[5], row[4], windowRows, row[9], row[10], row[11], row[12], gateLine, verdict, row[26], row[25])
	}
	return row, nil
}

// selfplay plays (or completes) generation g's buffer dataset with the best network.
func (e *exitRun) selfplay(ctx context.Context, g int64, past []string) error {
	o := e.opts
	ro := o.Rules
	ro.TurnLimit = o.SelfplayTurnLimit
	out := filepath.Join(o.Out, "buffer", genName(g))
	done := 0
	old, err := datasets.ReadManifest(out)
	if err == nil {
		done, _ = old.GamesDone()
	} else {
		old = nil
	}
	spec, botSpec, err := e.bufferAgent(old)
	if err != nil {
		return err
	}
	agents := make([]string, o.Rules.Players)
	for i := range agents {
		agents[i] = spec
	}
	e.describe(fmt.Sprintf("exit gen %d/%d self-play", g, o.Generations))
	if e.bar != nil {
		_ = e.bar.Set64(e.played + int64(done))
	}
	var finished atomic.Int64
	cfg := selfplay.Config{Agents: agents, Env: env.Options{Rules: ro, Reward: env.Rank}, Games: o.Games,
		Seed: env.GameSeed(o.Seed, int(g), 2), Out: out, Workers: max(o.Workers, 1), GamesPerShard: o.ShardGames,
		Resume: true, ToolVersion: "container train exit", RecordPolicy: true, BotSpec: e.netSpec(botSpec),
		GameAgents: func(id uint64) []string { return e.leagueAgents(spec, g, id, past) },
		OnGame: func(int) {
			n := int(finished.Add(1))
			if e.bar != nil {
				_ = e.bar.Add(1)
			}
			if o.onGame != nil {
				o.onGame(g, done+n)
			}
		}}
	if _, err := selfplay.Run(ctx, cfg); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("training: generation %d self-play: %w", g, ctx.Err())
		}
		return fmt.Errorf("training: generation %d self-play: %w", g, err)
	}
	e.played += int64(o.Games)
	if e.bar != nil {
		_ = e.bar.Set64(e.played)
	}
	return nil
}

// exitGen is what the run keeps of one buffer generation: its games and its decisions with
// a choice (the rows trained on).
type exitGen struct {
	GameStats
	rows int64
}

func (e *exitRun) genDir(k int64) string { return filepath.Join(e.opts.Out, "buffer", genName(k)) }

// gen counts generation k's games and rows (read once, one record batch at a time).
func (e *exitRun) gen(k int64) (exitGen, error) {
	if g, ok := e.gens[k]; ok {
		return g, nil
	}
	o := e.opts
	s, err := openExitStream([]string{e.genDir(k)}, o.Net.ObsDim, o.Net.NumActions, o.Rules.Players, o.ValueMix, 1, 0, e.ctx)
	if err != nil {
		return exitGen{}, fmt.Errorf("training: replay buffer generation %d: %w", k, err)
	}
	defer s.Close()
	n, err := s.CountRows()
	if err != nil {
		return exitGen{}, fmt.Errorf("training: replay buffer generation %d: %w", k, err)
	}
	g := exitGen{GameStats: s.Games[0], rows: n}
	e.gens[k] = g
	return g, nil
}

// prune forgets the generations that left the window after generation g and, unless
// KeepBuffer, deletes their buffer directories (only when they are self-play datasets
// holding nothing else).
func (e *exitRun) prune(g int64) error {
	first := g - int64(e.opts.Window) + 1
	for k := range e.gens {
		if k < first {
			delete(e.gens, k)
		}
	}
	if e.opts.KeepBuffer {
		return nil
	}
	for k := first - 1; k >= 1; k-- {
		d := filepath.Join(e.opts.Out, "buffer", genName(k))
		if _, err := os.Stat(d); errors.Is(err, os.ErrNotExist) {
			break // older ones went earlier
		}
		if err := rundir.Remove(d, rundir.Selfplay); err != nil {
			return fmt.Errorf("training: pruning the replay buffer: %w", err)
		}
	}
	return nil
}

// gateDecision is the gating rule: whether the new network becomes the best, and when only
// the drop against the gate opponent refuses it, why. It needs a win rate against the best
// of at least 1/players + GateMargin and a turn-limit share (stalls) of at most
// GateTurnLimitShare; with GateOpponentDrop set, also a win rate against the gate opponent
// (candOpp) at most GateOpponentDrop below the best's (bestOpp; a negative one is unknown and
// not compared).
//
// The drop is a plain threshold on the two rates, not an interval test: at 40 games a
// Wilson interval is about 28 points wide, so "the candidate's upper bound below the best's
// rate" lets a policy slide a few points per promotion, each step inside the noise (the
// league run of 2026-12-07 fell 27.5% -> 25.0% -> 18.8% -> 7.5% -> 5.0%, and no step's upper
// bound was below the previous best's rate). A refusal only keeps the best playing
// self-play while training goes on, so the threshold errs on the side of refusing; more
// gate games make both rates, and so the rule, sharper.
func gateDecision(o *ExItOptions, vsBest, stalls, candOpp, bestOpp float64) (bool, string) {
	if vsBest < 1/float64(o.Rules.Players)+o.GateMargin || stalls > o.GateTurnLimitShare {
		return false, ""
	}
	// A small slack keeps rates of whole games exactly X apart on the allowed side.
	if o.GateOpponentDrop > 0 && bestOpp >= 0 && candOpp >= 0 && bestOpp-candOpp > o.GateOpponentDrop+1e-9 {
		return false, fmt.Sprintf("dropped against %s from %.1f%% to %.1f%%", o.GateOpponent, 100*bestOpp, 100*candOpp)
	}
	return true, ""
}

// bestOppRate is the best network's win rate against the gate opponent: the one measured
// when it was promoted (its generation's gate_opp_rate), or for generation 0 the one
// measured for it; -1 when unknown.
func bestOppRate(metrics [][]float64, st exitState) float64 {
	if st.BestOppRate != nil {
		return *st.BestOppRate
	}
	for _, row := range metrics {
		if len(row) > 18 && int64(row[0]) == st.BestGeneration && st.BestGeneration > 0 {
			return row[18]
		}
	}
	return -1
}

// gateResult is one gating evaluation: the new network's win rate and why games ended.
type gateResult struct {
	Rate  eval.Rate
	Games int
	Ends  map[string]int
}

func (g gateResult) turnLimitShare() float64 {
	return float64(g.Ends["turn-limit"]) / float64(max(g.Games, 1))
}

func (g gateResult) String() string {
	reasons := make([]string, 0, len(g.Ends))
	for r := range g.Ends {
		reasons = append(reasons, r)
	}
	slices.Sort(reasons)
	ends := make([]string, len(reasons))
	for i, r := range reasons {
		ends[i] = fmt.Sprintf("%s %d", r, g.Ends[r])
	}
	return fmt.Sprintf("%.1f%% [%.1f%%, %.1f%%] of %d games, %d at the turn limit (ends: %s)", 100*g.Rate.Rate, 100*g.Rate.Lo, 100*g.Rate.Hi,
		g.Games, g.Ends["turn-limit"], strings.Join(ends, ", "))
}

// gateGames plays the candidate network (most likely move, no search) in one seat against
// players-1 copies of the best network (when best is set) or of the opponent bot, seats
// rotated, and returns its win rate with the end reasons.
func gateGames(ctx context.Context, cand, best *BotFile, opponent string, opts rules.Options, games int, seed uint64, workers int) (gateResult, error) {
	const candName, bestName = "candidate", "best"
	other := opponent
	if best != nil {
		other = bestName
	}
	agents := []string{candName}
	for len(agents) < opts.Players {
		agents = append(agents, other)
	}
	cfg := eval.Config{Agents: agents, Games: games, Options: opts, Seed: seed, Workers: max(workers, 1),
		NewBot: func(name string, o rules.Options, s uint64) (bots.Bot, error) {
			switch {
			case name == candName:
				return NewNetBot(candName, cand, &o, s)
			case name == bestName && best != nil:
				return NewNetBot(bestName, best, &o, s)
			}
			return bots.New(name, o, s)
		}}
	res, err := eval.Run(ctx, cfg)
	if err != nil {
		return gateResult{}, err
	}
	sum := eval.Summarize(res)
	return gateResult{Rate: sum.Agents[0].Rate, Games: sum.Games, Ends: sum.EndReason}, nil
}
