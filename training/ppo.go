package training

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/eval"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/rundir"
)

// PPOOptions configure a self-play PPO run. Everything except Iterations, Progress and Log
// is fixed when the run starts; a resumed run takes them from its checkpoint.
type PPOOptions struct {
	Out        string        `json:"out"`
	Iterations int64         `json:"iterations"`
	Rules      rules.Options `json:"rules"`
	Reward     string        `json:"reward"` // env reward scheme name
	// Games is the number of games played in lockstep per iteration (one VecEnv); every game
	// is played to its end once, the learner in one random seat.
	Games         int      `json:"games"`
	Epochs        int      `json:"epochs"`
	Minibatch     int      `json:"minibatch"`
	Gamma         float64  `json:"gamma"`
	Lambda        float64  `json:"lambda"`
	Opponents     []string `json:"opponents"`      // scripted (or file) bots in the opponent pool
	PoolEvery     int64    `json:"pool_every"`     // add a snapshot of the learner every N iterations (0: never)
	PoolSize      int      `json:"pool_size"`      // snapshots kept
	SnapshotShare float64  `json:"snapshot_share"` // chance an opponent seat plays a snapshot (when any)
	// SnapshotEvery writes the learner as snapshots/iter-N.bot every N iterations (0: never),
	// outside the pool: the networks to compare and export afterwards when the pool is off
	// or keeps other iterations.
	SnapshotEvery   int64     `json:"snapshot_every,omitempty"`
	EvalEvery       int64     `json:"eval_every"` // iterations between evaluations (0: never)
	EvalGames       int       `json:"eval_games"`
	EvalOpponent    string    `json:"eval_opponent"` // the learner plays 1 seat against players-1 of these
	CheckpointEvery int64     `json:"checkpoint_every"`
	Seed            uint64    `json:"seed"`
	Workers         int       `json:"workers"`
	Net             NetConfig `json:"net"`
	Hyper           Hyper     `json:"hyper"`
	InitFrom        string    `json:"init_from,omitempty"`
	// HideOpponentCash trains on observations without the other players' cash (encoding
	// obs-v2-hidden-cash); the exported bot then reads that variant.
	HideOpponentCash bool `json:"hide_opponent_cash,omitempty"`
	// MaxSteps truncates a rollout game after this many decisions (0: never), with zero
	// rewards for every seat: a learner that drags won games out (bankrupting the others
	// until the rules' turn limit) gains nothing from it.
	MaxSteps int      `json:"max_steps,omitempty"`
	Init     *Weights `json:"-"`
	// InitEncoding and InitRules, when set, say what Init was trained for; a network for
	// another encoding (hidden cash) or other games (Classic, other modules, players or
	// length) is refused.
	InitEncoding string         `json:"-"`
	InitRules    *rules.Options `json:"-"`

	Progress io.Writer `json:"-"`
	Log      io.Writer `json:"-"`

	stopAfter int64 // tests: return errKilled after this iteration, as if the process died
}

// DefaultPPOOptions returns sensible defaults for 4-player base games against the valuer.
func DefaultPPOOptions() PPOOptions {
	return PPOOptions{Iterations: 50, Rules: rules.DefaultOptions(), Reward: env.Rank.String(), Games: 32, Epochs: 2,
		Minibatch: 512, Gamma: 1, Lambda: 0.95, Opponents: []string{"valuer", "shipper"}, PoolEvery: 5, PoolSize: 4,
		SnapshotShare: 0.3, EvalEvery: 5, EvalGames: 200, EvalOpponent: "valuer", CheckpointEvery: 1, Seed: 1,
		Net:   DefaultNetConfig(0, 0, 0), // the sizes come from the games
		Hyper: Hyper{LearningRate: 3e-4, ValueCoef: 0.5, EntropyCoef: 0.01, ClipEps: 0.2}}
}

// PPOMetricNames are the columns of a PPO run's metrics.
var PPOMetricNames = []string{"iteration", "seconds", "games", "env_steps", "learner_steps", "collect_steps_per_s",
	"learner_reward", "learner_win_rate", "loss", "policy_loss", "value_mse", "entropy", "clip_frac",
	"eval_win_rate", "eval_games"}

// ppoState is the PPO-specific part of a checkpoint.
type ppoState struct {
	Pool []string `json:"pool"` // snapshot bot files, relative to the run directory
}

// PPOResult summarises a run.
type PPOResult struct {
	Iterations int64
	Metrics    [][]float64
	Seconds    float64
	Resumed    bool
}

// PPOMayChange lists the settings a resumed PPO run may change.
var PPOMayChange = []string{"iterations", "snapshot_every"}

// TrainPPO trains (or resumes) a self-play PPO run in opts.Out. Cancelling ctx (nil:
// never) stops it within a few decisions of the games in play, before the iteration changes
// the network: the last finished iteration is checkpointed and the error is a
// *StoppedError wrapping context.Canceled, and the same call resumes the run.
//
// The run directory must be new, empty or a PPO run (internal/rundir); it is locked while
// the run trains. A resumed run must be given the settings it was started with (only
// Iterations may change, and InitFrom may be left empty; ErrResumeMismatch names the first
// that differs).
func TrainPPO(ctx context.Context, opts PPOOptions) (*PPOResult, error) {
	r, err := openRun(runSpec{Out: opts.Out, Kind: rundir.TrainPPO, Method: "ppo", Steps: opts.Iterations,
		MetricNames: PPOMetricNames, Progress: opts.Progress, stopAfter: opts.stopAfter, ctx: ctx})
	if err != nil {
		return nil, err
	}
	defer r.close()
	p := &ppoRun{opts: &opts}
	if p.game, err = rules.NewGame(opts.Rules); err != nil {
		return nil, fmt.Errorf("training: %w", err)
	}
	if err := r.prepare(p); err != nil {
		return nil, err
	}
	r.spec.LogEvery, r.spec.CheckpointEvery = 1, opts.CheckpointEvery
	scheme, err := env.ParseRewardScheme(opts.Reward)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(opts.Out, "pool"), 0o755); err != nil {
		return nil, fmt.Errorf("training: %w", err)
	}
	if opts.SnapshotEvery > 0 {
		if err := os.MkdirAll(filepath.Join(opts.Out, "snapshots"), 0o755); err != nil {
			return nil, fmt.Errorf("training: %w", err)
		}
	}
	if err := r.begin(&opts); err != nil {
		return nil, err
	}
	p.col = &collector{opts: &opts, game: p.game, scheme: scheme, ctx: r.spec.ctx}
	err = r.loop(p) // a stopped run still reports how far it got
	return &PPOResult{Iterations: r.Step, Metrics: r.Metrics, Seconds: r.seconds(), Resumed: r.Resumed}, err
}

// ppoRun is the PPO method of a run. Each iteration collects games with the current network
// against the opponent pool, updates the network on them, and now and then evaluates it and
// adds a snapshot of it to the pool.
type ppoRun struct {
	opts *PPOOptions
	game *rules.Game
	st   ppoState
	col  *collector
	row  []float64 // the last iteration's metrics
	log  string    // and its log line
}

// resume continues the run with the options it was started with (only the output
// directory and the iteration count come from the command) and its snapshot pool.
func (p *ppoRun) resume(r *run) error {
	opts := *p.opts
	var saved PPOOptions
	if err := r.savedOptions(&saved); err != nil {
		return err
	}
	given := opts
	resumeInit(&given.InitFrom, &given.Net, given.Init, saved.InitFrom, saved.Net)
	saved = PPOOptions{}
	if err := r.resume(given, &saved, PPOMayChange...); err != nil {
		return err
	}
	if err := json.Unmarshal(r.ckpt.Extra, &p.st); err != nil {
		return fmt.Errorf("%w: run state: %v", ErrCorrupt, err)
	}
	saved.Out, saved.Iterations, saved.Progress, saved.Log, saved.stopAfter = opts.Out, opts.Iterations, opts.Progress, opts.Log, opts.stopAfter
	saved.SnapshotEvery = opts.SnapshotEvery
	*p.opts = saved
	var err error
	if p.game, err = rules.NewGame(saved.Rules); err != nil {
		return fmt.Errorf("training: %w", err)
	}
	return nil
}

// start checks the options of a new run and sizes the network for its games.
func (p *ppoRun) start(r *run) error {
	opts := p.opts
	if opts.Games < 1 || opts.Epochs < 1 || opts.Minibatch < 1 || opts.CheckpointEvery < 1 || len(opts.Opponents) == 0 || opts.SnapshotEvery < 0 {
		return fmt.Errorf("%w: games %d, epochs %d, minibatch %d, checkpoint every %d, %d opponents, snapshot every %d",
			ErrConfig, opts.Games, opts.Epochs, opts.Minibatch, opts.CheckpointEvery, len(opts.Opponents), opts.SnapshotEvery)
	}
	// Every bot is made once now, before run.json is written, so that a bot file that cannot
	// be read or cannot play these games refuses the start and leaves nothing behind.
	for _, o := range opts.Opponents {
		if _, err := bots.New(o, opts.Rules, 0); err != nil {
			return fmt.Errorf("%w: opponent %w", ErrConfig, err)
		}
	}
	if opts.EvalEvery > 0 {
		if _, err := bots.New(opts.EvalOpponent, opts.Rules, 0); err != nil {
			return fmt.Errorf("%w: eval opponent %w", ErrConfig, err)
		}
	}
	enc := encoding.NewEncoder(p.game)
	opts.Net.ObsDim, opts.Net.NumActions, opts.Net.ValueDim = enc.Size(), enc.NumActions(), opts.Rules.Players
	if opts.Init != nil {
		if err := checkInit(opts.InitFrom, opts.InitEncoding, opts.InitRules, opts.encodingVersion(), "this run's games are observed as", opts.Rules); err != nil {
			return err
		}
	}
	return r.fresh(opts.Init, &opts.Net, opts.Seed, opts.Hyper, "these games need")
}

// step runs iteration it: collect games, update the network, evaluate it and add a
// snapshot to the pool when due.
func (p *ppoRun) step(r *run, it int64) error {
	opts := p.opts
	net, pool, err := p.players(r)
	if err != nil {
		return err
	}
	t0 := time.Now()
	ro, err := p.col.collect(net, pool, rand.New(rand.NewPCG(opts.Seed, uint64(it)*2+1)), it)
	if err != nil {
		return err
	}
	collectSecs := time.Since(t0).Seconds()
	m, err := ppoUpdate(r.tr, ro, opts, rand.New(rand.NewPCG(opts.Seed, uint64(it)*2+2)))
	if err != nil {
		return err
	}
	evalRate, evalGames, err := p.evaluate(r, it)
	if err != nil {
		return err
	}
	if err := p.snapshot(r, it); err != nil {
		return err
	}
	p.row = []float64{float64(it), r.seconds(), float64(ro.games), float64(ro.envSteps),
		float64(ro.rows), float64(ro.envSteps) / max(collectSecs, 1e-9), ro.meanReward, ro.winRate,
		m.Loss, m.PolicyLoss, m.ValueLoss, m.Entropy, m.ClipFrac, evalRate, evalGames}
	ev := ""
	if evalRate >= 0 {
		ev = fmt.Sprintf(" | eval vs %d %s: %.1f%% wins", opts.Rules.Players-1, opts.EvalOpponent, 100*evalRate)
	}
	p.log = fmt.Sprintf("iteration %d: %d learner steps, reward %.3f, win rate %.3f, policy loss %.4f, value mse %.4f, entropy %.3f, %.0f env steps/s%s\n",
		it, ro.rows, ro.meanReward, ro.winRate, m.PolicyLoss, m.ValueLoss, m.Entropy, p.row[5], ev)
	return nil
}

// players returns the learner's current network and the pool's snapshots.
func (p *ppoRun) players(r *run) (*Net, []*BotFile, error) {
	w, err := r.tr.Weights()
	if err != nil {
		return nil, nil, err
	}
	net, err := NewNet(w)
	if err != nil {
		return nil, nil, err
	}
	pool, err := loadPool(p.opts.Out, p.st.Pool)
	if err != nil {
		return nil, nil, err
	}
	return net, pool, nil
}

// evaluate plays the evaluation games when iteration it is due for them; the rate is -1
// (and the games 0) when it is not.
func (p *ppoRun) evaluate(r *run, it int64) (rate, games float64, err error) {
	opts := p.opts
	if opts.EvalEvery <= 0 || (it%opts.EvalEvery != 0 && it != opts.Iterations) {
		return -1, 0, nil
	}
	w, err := r.tr.Weights()
	if err != nil {
		return 0, 0, err
	}
	rate, err = evalWeights(w, opts.encodingVersion(), opts.Rules, opts.EvalOpponent, opts.EvalGames, opts.Seed+uint64(it), opts.Workers)
	if err != nil {
		return 0, 0, err
	}
	return rate, float64(opts.EvalGames), nil
}

// snapshot writes the learner as snapshots/iter-N.bot when iteration it is due for one, and
// adds it as pool/iter-N.bot to the pool when it is due for that, keeping the PoolSize latest.
func (p *ppoRun) snapshot(r *run, it int64) error {
	opts := p.opts
	keep := opts.SnapshotEvery > 0 && it%opts.SnapshotEvery == 0
	pool := opts.PoolEvery > 0 && it%opts.PoolEvery == 0
	if !keep && !pool {
		return nil
	}
	name := fmt.Sprintf("iter-%06d.bot", it)
	w, err := r.tr.Weights()
	if err != nil {
		return err
	}
	b := newBotFile(name, opts.encodingVersion(), opts.Rules, w, TrainingInfo{Method: "ppo", Steps: it, Seconds: r.seconds()})
	if keep {
		if err := b.WriteFile(filepath.Join(opts.Out, "snapshots", name)); err != nil {
			return err
		}
	}
	if !pool {
		return nil
	}
	if err := b.WriteFile(filepath.Join(opts.Out, "pool", name)); err != nil {
		return err
	}
	p.st.Pool = append(p.st.Pool, filepath.Join("pool", name))
	if len(p.st.Pool) > opts.PoolSize {
		p.st.Pool = p.st.Pool[len(p.st.Pool)-opts.PoolSize:]
	}
	return nil
}

// record returns the iteration's metrics and writes its log line.
func (p *ppoRun) record(r *run) ([]float64, error) {
	r.logf(p.opts.Log, "%s", p.log)
	return p.row, nil
}

// save adds the run's encoding, rules options and snapshot pool.
func (p *ppoRun) save(h *checkpointHeader) {
	h.EncodingVersion, h.Rules = p.opts.encodingVersion(), p.opts.Rules
	h.Extra, _ = json.Marshal(p.st)
}

func loadPool(dir string, names []string) ([]*BotFile, error) {
	var out []*BotFile
	for _, n := range names {
		b, err := ReadBotFile(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// ppoUpdate runs opts.Epochs passes of shuffled minibatches over the rollout.
func ppoUpdate(tr *Trainer, ro *rollout, o *PPOOptions, rng *rand.Rand) (StepMetrics, error) {
	var acc StepMetrics
	n := ro.rows
	if n == 0 {
		return acc, nil
	}
	cfg := tr.Config()
	D, A, V := cfg.ObsDim, cfg.NumActions, cfg.ValueDim
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	var mb Batch
	count := 0
	src := &ro.b
	for range o.Epochs {
		rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		// Every minibatch has exactly o.Minibatch rows, so one compiled graph serves the whole
		// run: the shuffled remainder (different rows each epoch) is left out, and a rollout
		// smaller than one minibatch is cycled through.
		size := o.Minibatch
		for lo := 0; lo == 0 || lo+size <= n; lo += size {
			rows := size
			mb.Rows = rows
			mb.Obs, mb.Mask, mb.Values = grow(mb.Obs, rows*D), grow(mb.Mask, rows*A), grow(mb.Values, rows*V)
			mb.OldLogp, mb.Advantages = grow(mb.OldLogp, rows), grow(mb.Advantages, rows)
			if cap(mb.Actions) < rows {
				mb.Actions = make([]int32, rows)
			}
			mb.Actions = mb.Actions[:rows]
			for k := range rows {
				i := perm[(lo+k)%n]
				copy(mb.Obs[k*D:(k+1)*D], src.Obs[i*D:(i+1)*D])
				copy(mb.Mask[k*A:(k+1)*A], src.Mask[i*A:(i+1)*A])
				copy(mb.Values[k*V:(k+1)*V], src.Values[i*V:(i+1)*V])
				mb.Actions[k], mb.OldLogp[k], mb.Advantages[k] = src.Actions[i], src.OldLogp[i], src.Advantages[i]
			}
			m, err := tr.PPOStep(&mb)
			if err != nil {
				return acc, err
			}
			acc.Loss += m.Loss
			acc.PolicyLoss += m.PolicyLoss
			acc.ValueLoss += m.ValueLoss
			acc.Entropy += m.Entropy
			acc.ClipFrac += m.ClipFrac
			count++
		}
	}
	k := float64(max(count, 1))
	acc.Loss, acc.PolicyLoss, acc.ValueLoss, acc.Entropy, acc.ClipFrac = acc.Loss/k, acc.PolicyLoss/k, acc.ValueLoss/k, acc.Entropy/k, acc.ClipFrac/k
	return acc, nil
}

// EvalWeights plays games of the network (argmax) in one seat against three (players-1)
// copies of opponent and returns its win rate (shared wins split).
func EvalWeights(w *Weights, opts rules.Options, opponent string, games int, seed uint64, workers int) (float64, error) {
	return evalWeights(w, encoding.Version, opts, opponent, games, seed, workers)
}

// encodingVersion is the observation version the run trains on.
func (o *PPOOptions) encodingVersion() string {
	return encoding.Options{HideOpponentCash: o.HideOpponentCash}.Version()
}

// evalWeights is EvalWeights for a network reading the given observation version.
func evalWeights(w *Weights, encodingVersion string, opts rules.Options, opponent string, games int, seed uint64, workers int) (float64, error) {
	f := newBotFile("learner", encodingVersion, opts, w, TrainingInfo{})
	agents := []string{"learner"}
	for len(agents) < opts.Players {
		agents = append(agents, opponent)
	}
	cfg := eval.Config{Agents: agents, Games: games, Options: opts, Seed: seed, Workers: workers,
		NewBot: func(name string, o rules.Options, s uint64) (bots.Bot, error) {
			if name == "learner" {
				return NewNetBot("learner", f, &o, s)
			}
			return bots.New(name, o, s)
		}}
	res, err := eval.Run(context.Background(), cfg)
	if err != nil {
		return 0, err
	}
	sum := eval.Summarize(res)
	return sum.Agents[0].Rate.Rate, nil
}
