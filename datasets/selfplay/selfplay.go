// Package selfplay plays games between bots and writes every decision to a dataset (package
// datasets). It is the only part of the datasets tree that knows the rules, the environment,
// the encoding and the bots; the datasets package itself takes plain records.
//
// A run of N games from seed S plays game i from seed env.GameSeed(S, i, 0) with bots seeded
// from that game seed, and shard k always holds games [k*G, (k+1)*G). Workers take whole
// shards, so every column except games.duration_us is the same whatever the worker count,
// and a resumed run writes exactly the shards the manifest does not list yet.
package selfplay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/rundir"
)

// ErrExists is returned when the output directory already holds a dataset and Resume is off.
var ErrExists = errors.New("selfplay: output directory already holds a dataset")

// ErrBusy is returned when another run is writing the same output directory.
var ErrBusy = rundir.ErrBusy

// ErrPlanMismatch is returned when resuming with settings that differ from the manifest's.
var ErrPlanMismatch = errors.New("selfplay: resume settings differ from the dataset's manifest")

// DefaultGamesPerShard is the shard size used when Config.GamesPerShard is 0.
const DefaultGamesPerShard = 256

// PolicyBot is a bot that reports the action distribution it played from and its value
// estimate (a trained bot). When Config.RecordPolicy is set every seat's bot must be one, and
// the dataset gets the policy and value columns.
type PolicyBot = bots.PolicyBot

// Config describes a self-play run.
type Config struct {
	// Agents names the bot of every seat (len = Env.Rules.Players).
	Agents []string
	// Env holds the rules options and reward scheme (Env.Rules.Seed is ignored).
	Env   env.Options
	Games int
	Seed  uint64
	Out   string
	Write datasets.WriteOptions
	// Workers play shards in parallel (0 means 1).
	Workers int
	// GamesPerShard fixes the shard ranges (0 means DefaultGamesPerShard).
	GamesPerShard int
	// Resume continues a dataset already in Out; without it a manifest in Out is an error.
	Resume bool
	// Part, if set, makes Out hold only that part of the run (datasets.Part): the same games,
	// seeds and shard ranges as the whole run, for datasets.Merge to join.
	Part *datasets.Part
	// ToolVersion is recorded in the metadata.
	ToolVersion string
	// RecordPolicy records every decision's behaviour policy and value estimate (columns
	// policy and value); every agent must be a PolicyBot.
	RecordPolicy bool
	// OnGame, if set, is called after every finished game with its number of steps. It is
	// called from worker goroutines.
	OnGame func(steps int)
	// BotSpec, if set, maps an agent as recorded (in the manifest and the games table) to the
	// spec its bots are made from. A run whose agents name files by where they lie now can
	// record names that do not depend on it: train exit records its network relative to the
	// run directory, so the run can be moved and still resume.
	BotSpec func(agent string) string
	// GameAgents, if set, gives the agents of game id (its number in the dataset) where they
	// differ from Agents, or nil for Agents: a league, where some seats of some games are
	// played by opponents. A seat whose agent differs from Agents[seat] is an opponent seat;
	// with RecordPolicy an opponent that does not report its policy records the move it
	// played with probability 1 and value 0. Agents (the manifest's) stay the plan a resumed
	// run is compared with; the games table records each game's own agents.
	GameAgents func(game uint64) []string
}

// spec is the spec agent's bots are made from (Config.BotSpec).
func (c *Config) spec(agent string) string {
	if c.BotSpec == nil {
		return agent
	}
	return c.BotSpec(agent)
}

// Result summarises a run.
type Result struct {
	Manifest *datasets.Manifest
	// Games and Steps count what this call played (resumed shards excluded).
	Games   int
	Steps   int64
	Elapsed time.Duration
}

// NewMeta describes the dataset a run with these environment options writes.
func NewMeta(o env.Options, toolVersion string) (*datasets.Meta, error) {
	spec, err := encoding.NewSpecWith(o.Rules, o.Encoding())
	if err != nil {
		return nil, err
	}
	ro := o.Rules
	ro.Seed = 0
	opts, err := json.Marshal(ro)
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	reward := o.Reward.String()
	if o.MarginScale != 0 {
		reward += fmt.Sprintf(" scale=%g", o.MarginScale)
	}
	if o.MaxSteps != 0 {
		reward += fmt.Sprintf(" max-steps=%d", o.MaxSteps)
	}
	m := &datasets.Meta{
		EncodingVersion: spec.Version,
		ObsDim:          spec.Size,
		NumActions:      rules.NumDistinctActions(),
		ActionNames:     encoding.ActionNames(),
		Seats:           o.Rules.Players,
		RulesOptions:    opts,
		Reward:          reward,
		ToolVersion:     toolVersion,
	}
	for _, f := range spec.Features {
		m.Features = append(m.Features, datasets.Feature{Name: f.Name, Offset: f.Offset, Size: f.Size})
	}
	for p := rules.Phase(0); p < rules.NumPhases; p++ {
		m.PhaseNames = append(m.PhaseNames, p.String())
	}
	return m, nil
}

func init() {
	for _, v := range encoding.Versions() {
		datasets.RegisterEncoding(v)
	}
}

func (c *Config) check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("selfplay: %s", fmt.Sprintf(format, args...))
	}
	if err := c.Env.Validate(); err != nil {
		return err
	}
	if len(c.Agents) != c.Env.Rules.Players {
		return bad("%d agents for %d players", len(c.Agents), c.Env.Rules.Players)
	}
	for _, a := range c.Agents {
		if err := bots.Resolve(c.spec(a)); err != nil {
			return err
		}
		// Make each agent once so a bot that cannot play these options (a trained network made
		// for others) fails here, before any shard is written.
		b, err := bots.New(c.spec(a), c.Env.Rules, 0)
		if err != nil {
			return fmt.Errorf("selfplay: %w", err)
		}
		if _, ok := b.(PolicyBot); c.RecordPolicy && !ok {
			return bad("recording the behaviour policy (--record-policy) needs bots that report it, such as trained bots; %s does not", a)
		}
	}
	if c.Games < 1 {
		return bad("%d games; want at least 1", c.Games)
	}
	if c.Out == "" {
		return bad("no output directory")
	}
	if c.Workers < 1 {
		c.Workers = 1
	}
	if c.GamesPerShard < 1 {
		c.GamesPerShard = DefaultGamesPerShard
	}
	if c.Part != nil {
		if err := c.Part.Validate(); err != nil {
			return fmt.Errorf("selfplay: %w", err)
		}
	}
	return nil
}

// planFor returns the manifest a fresh run would start with.
func (c *Config) planFor(meta *datasets.Meta) (*datasets.Manifest, error) {
	files, err := agentFiles(c.Agents, c.spec, c.Env.Rules)
	if err != nil {
		return nil, err
	}
	return &datasets.Manifest{
		Version: datasets.ManifestVersion, Format: c.Write.Format, Compression: c.Write.Compression,
		Seed: c.Seed, Games: c.Games, GamesPerShard: c.GamesPerShard,
		Agents: slices.Clone(c.Agents), AgentFiles: files, Meta: *meta, Part: c.Part,
	}, nil
}

// agentFiles records a content hash of every agent whose play depends on more than its
// name: a bot file (the SHA-256 of the file, as sha256sum prints it) or a registered bot that
// reports a fingerprint (the shipped trained network). Once each, in seat order, under the
// agent's recorded name; spec gives what to read or make.
func agentFiles(agents []string, spec func(string) string, opts rules.Options) ([]datasets.AgentFile, error) {
	var out []datasets.AgentFile
	seen := map[string]bool{}
	for _, a := range agents {
		name, _, _, err := bots.SplitTemperature(a)
		if err != nil || seen[name] {
			continue
		}
		seen[name] = true
		if bots.IsFileName(name) && !bots.IsParamSpec(name) {
			b, err := os.ReadFile(spec(name))
			if err != nil {
				return nil, fmt.Errorf("selfplay: agent %s: %w", a, err)
			}
			h := sha256.Sum256(b)
			out = append(out, datasets.AgentFile{Agent: name, SHA256: hex.EncodeToString(h[:])})
			continue
		}
		b, err := bots.New(spec(name), opts, 0)
		if err != nil {
			return nil, fmt.Errorf("selfplay: %w", err)
		}
		if f, ok := b.(bots.Fingerprinter); ok {
			out = append(out, datasets.AgentFile{Agent: name, SHA256: f.Fingerprint()})
		}
	}
	return out, nil
}

// samePlan reports how an existing manifest differs from the run's plan ("" if it does not).
func samePlan(old, plan *datasets.Manifest) string {
	switch {
	case old.Format != plan.Format:
		return fmt.Sprintf("format %s, not %s", old.Format, plan.Format)
	case old.Compression != plan.Compression:
		return fmt.Sprintf("compression %s, not %s (give --compression %s)", old.Compression, plan.Compression, old.Compression)
	case old.Seed != plan.Seed:
		return fmt.Sprintf("seed %d, not %d", old.Seed, plan.Seed)
	case old.Games != plan.Games:
		return fmt.Sprintf("%d games, not %d", old.Games, plan.Games)
	case old.GamesPerShard != plan.GamesPerShard:
		return fmt.Sprintf("%d games per shard, not %d", old.GamesPerShard, plan.GamesPerShard)
	case !slices.Equal(old.Agents, plan.Agents):
		return fmt.Sprintf("agents %v, not %v", old.Agents, plan.Agents)
	case old.AgentFiles != nil && !slices.Equal(old.AgentFiles, plan.AgentFiles):
		for i, f := range old.AgentFiles {
			if i < len(plan.AgentFiles) && plan.AgentFiles[i] != f {
				return fmt.Sprintf("agent %s with SHA-256 %.12s..., which now has %.12s... (another network under the same name)", f.Agent, f.SHA256, plan.AgentFiles[i].SHA256)
			}
		}
		return fmt.Sprintf("bot files %v, not %v", old.AgentFiles, plan.AgentFiles)
	case old.Meta.EncodingVersion != plan.Meta.EncodingVersion || old.Meta.ObsDim != plan.Meta.ObsDim:
		return fmt.Sprintf("encoding %s/%d, not %s/%d", old.Meta.EncodingVersion, old.Meta.ObsDim, plan.Meta.EncodingVersion, plan.Meta.ObsDim)
	case string(old.Meta.RulesOptions) != string(plan.Meta.RulesOptions):
		return fmt.Sprintf("options %s, not %s", old.Meta.RulesOptions, plan.Meta.RulesOptions)
	case old.Meta.Policy != plan.Meta.Policy:
		return fmt.Sprintf("policy columns %v, not %v", old.Meta.Policy, plan.Meta.Policy)
	case old.Meta.Reward != plan.Meta.Reward:
		return fmt.Sprintf("reward %q, not %q", old.Meta.Reward, plan.Meta.Reward)
	case (old.Part == nil) != (plan.Part == nil) || (old.Part != nil && *old.Part != *plan.Part):
		return fmt.Sprintf("part %s, not %s", partName(old.Part), partName(plan.Part))
	}
	return ""
}

// Run plays the configured games (or, with Resume, those still missing) and writes them.
// On cancellation or error, complete shards stay listed in the manifest and the shard in
// progress is discarded.
func Run(ctx context.Context, c Config) (*Result, error) {
	start := time.Now()
	if err := c.check(); err != nil {
		return nil, err
	}
	var err error
	if c.Write, err = datasets.CheckWriteOptions(c.Write); err != nil {
		return nil, err
	}
	meta, err := NewMeta(c.Env, c.ToolVersion)
	if err != nil {
		return nil, err
	}
	meta.Policy, meta.Value = c.RecordPolicy, c.RecordPolicy
	plan, err := c.planFor(meta)
	if err != nil {
		return nil, err
	}
	// The directory must be empty, missing or a dataset; it is locked while the run writes.
	dir, err := rundir.Open(c.Out, rundir.Selfplay)
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	defer dir.Close()
	man := plan
	old, err := datasets.ReadManifest(c.Out)
	fresh := false
	switch {
	case err == nil && !c.Resume:
		return nil, fmt.Errorf("%w: %s", ErrExists, c.Out)
	case err == nil:
		if d := samePlan(old, plan); d != "" {
			return nil, fmt.Errorf("%w: the dataset has %s", ErrPlanMismatch, d)
		}
		man = old
		// Every shard already listed is checked again; one whose file was deleted is played
		// again (the data is the same), one that was altered stops the run.
		missing, err := datasets.VerifyShards(c.Out, man)
		if err != nil {
			return nil, fmt.Errorf("selfplay: resume: %w (delete the damaged shard's files to have it played again)", err)
		}
		for _, k := range missing {
			man.RemoveShard(k)
		}
	case errors.Is(err, datasets.ErrNoManifest):
		fresh = true
		if err := datasets.WriteManifest(c.Out, man); err != nil {
			abandon(dir)
			return nil, err
		}
	default:
		return nil, err
	}
	if err := dir.RemoveTemps(); err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}

	lo, hi := man.OwnedShards()
	todo := make(chan int, hi-lo)
	for k := lo; k < hi; k++ {
		if !man.HasShard(k) {
			todo <- k
		}
	}
	close(todo)

	outer := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		firstErr error
		games    atomic.Int64
		steps    atomic.Int64
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	for w := 0; w < c.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := newPlayer(&c, meta)
			if err != nil {
				fail(err)
				return
			}
			for k := range todo {
				if ctx.Err() != nil {
					return
				}
				info, err := p.playShard(ctx, man, k)
				if err != nil {
					fail(err)
					return
				}
				games.Add(int64(info.Games))
				steps.Add(info.Steps)
				mu.Lock()
				man.AddShard(info)
				err = datasets.WriteManifest(c.Out, man)
				mu.Unlock()
				if err != nil {
					fail(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if fresh && len(man.Shards) == 0 && firstErr != nil && outer.Err() == nil {
		// A fresh run that failed before its first shard leaves nothing behind.
		abandon(dir)
		return nil, firstErr
	}
	res := &Result{Manifest: man, Games: int(games.Load()), Steps: steps.Load(), Elapsed: time.Since(start)}
	if firstErr == nil && !man.Complete() {
		firstErr = fmt.Errorf("selfplay: stopped with %d of %d shards written: %w", len(man.Shards), hi-lo, context.Cause(outer))
	}
	return res, firstErr
}

// player is one worker's environment, bots and per-game buffers.
type player struct {
	cfg   *Config
	meta  *datasets.Meta
	e     *env.Env
	seats []bots.Seat // every seat's bot and decision buffers
	names []string    // the agent each seat's bot was made for
	cache map[seatAgent]bots.Bot

	obs      []float32
	legal    []int
	legalEnd []int
	rewards  []float32
	returns  []float32
	texts    []string
	phases   []uint8
	turns    []int32
	deciders []int8
	actions  []int32
	probs    []float32 // T*A behaviour probabilities (RecordPolicy)
	values   []float32 // T value estimates (RecordPolicy)
	steps    []datasets.Step
	scores   []datasets.Score
	// moveText caches Move.String of action id a decided by seat s at [s][a]: a move's text
	// depends only on the id and the decider, so after warm-up no step allocates a string.
	moveText [][]string
}

func newPlayer(c *Config, meta *datasets.Meta) (*player, error) {
	e, err := env.New(c.Env)
	if err != nil {
		return nil, err
	}
	if e.ObsSize() != meta.ObsDim {
		return nil, fmt.Errorf("selfplay: environment observes %d floats, the spec says %d", e.ObsSize(), meta.ObsDim)
	}
	p := &player{cfg: c, meta: meta, e: e, seats: make([]bots.Seat, len(c.Agents)), names: make([]string, len(c.Agents))}
	p.moveText = make([][]string, meta.Seats)
	for s := range p.moveText {
		p.moveText[s] = make([]string, meta.NumActions)
	}
	return p, nil
}

// text returns the notation of action a for the current decider seat of st.
func (p *player) text(st *rules.State, seat, a int) string {
	t := p.moveText[seat][a]
	if t == "" {
		t = st.ActionToMove(a).String()
		p.moveText[seat][a] = t
	}
	return t
}

// botSeed derives seat's bot seed from the game seed.
func botSeed(gameSeed uint64, seat int) uint64 { return env.GameSeed(gameSeed, seat+1, 1) }

func (p *player) playShard(ctx context.Context, man *datasets.Manifest, k int) (datasets.ShardInfo, error) {
	first, n := man.ShardRange(k)
	w, err := datasets.NewShardWriter(p.cfg.Out, k, first, p.meta, p.cfg.Write)
	if err != nil {
		return datasets.ShardInfo{}, err
	}
	for i := 0; i < n; i++ {
		if ctx.Err() != nil {
			w.Abort()
			return datasets.ShardInfo{}, fmt.Errorf("selfplay: %w", context.Cause(ctx))
		}
		g, steps, err := p.playGame(first+uint64(i), env.GameSeed(man.Seed, int(first)+i, 0))
		if err == nil {
			err = w.WriteGame(g, steps)
		}
		if err != nil {
			w.Abort()
			return datasets.ShardInfo{}, err
		}
		if p.cfg.OnGame != nil {
			p.cfg.OnGame(len(steps))
		}
	}
	return w.Close()
}

// playGame plays one game and returns its records; the steps alias the player's buffers.
func (p *player) playGame(id, seed uint64) (*datasets.Game, []datasets.Step, error) {
	start := time.Now()
	P, D := p.meta.Seats, p.meta.ObsDim
	agents := p.cfg.Agents
	if p.cfg.GameAgents != nil {
		if a := p.cfg.GameAgents(id); a != nil {
			if len(a) != len(agents) {
				return nil, nil, fmt.Errorf("selfplay: game %d has %d agents for %d seats", id, len(a), len(agents))
			}
			agents = a
		}
	}
	for s, name := range agents {
		if err := p.seatBot(s, name, seed); err != nil {
			return nil, nil, err
		}
	}
	A := p.meta.NumActions
	p.probs, p.values = p.probs[:0], p.values[:0]
	p.obs, p.legal, p.legalEnd, p.rewards = p.obs[:0], p.legal[:0], p.legalEnd[:0], p.rewards[:0]
	p.texts, p.phases, p.turns, p.deciders, p.actions = p.texts[:0], p.phases[:0], p.turns[:0], p.deciders[:0], p.actions[:0]

	obs, info := p.e.Reset(seed)
	var res env.StepResult
	for !p.e.Done() {
		seat := p.e.Agent()
		st := p.e.State()
		lo := len(p.legal)
		p.legal = append(p.legal, p.e.Encoder().Legal()...)
		p.legalEnd = append(p.legalEnd, len(p.legal))
		legal := p.legal[lo:]
		var a int
		var err error
		if p.cfg.RecordPolicy {
			n := len(p.probs)
			p.probs = slices.Grow(p.probs, A)[:n+A]
			probs := p.probs[n:]
			clear(probs)
			var v float32
			if _, ok := p.seats[seat].Bot.(PolicyBot); ok {
				a, v, err = p.seats[seat].ActPolicy(st, legal, probs)
			} else if a, err = p.seats[seat].ActLegal(st, legal); err == nil {
				probs[a] = 1 // an opponent seat's move (seatBot lets only those through)
			}
			p.values = append(p.values, v)
		} else {
			a, err = p.seats[seat].ActLegal(st, legal)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("selfplay: game %d (seed %d) step %d: agent %s: %w", id, seed, len(p.actions), agents[seat], err)
		}
		p.texts = append(p.texts, p.text(st, seat, a))
		p.obs = append(p.obs, obs...)
		p.phases = append(p.phases, uint8(info.Phase))
		p.turns = append(p.turns, int32(info.Turn))
		p.deciders = append(p.deciders, int8(seat))
		p.actions = append(p.actions, int32(a))
		if res, err = p.e.Step(a); err != nil {
			return nil, nil, fmt.Errorf("selfplay: game %d (seed %d): %w", id, seed, err)
		}
		p.rewards = append(p.rewards, res.Rewards...)
		obs, info = res.Obs, res.Info
	}
	T := len(p.actions)
	if cap(p.returns) < T*P {
		p.returns = make([]float32, T*P)
	}
	p.returns = p.returns[:T*P]
	datasets.ReturnsToGo(p.rewards, P, p.returns)
	if cap(p.steps) < T {
		p.steps = make([]datasets.Step, T)
	}
	p.steps = p.steps[:T]
	lo := 0
	for t := range p.steps {
		d := p.deciders[t]
		p.steps[t] = datasets.Step{
			GameID: id, Step: int32(t), Turn: p.turns[t], Decider: d, Phase: p.phases[t],
			Obs: p.obs[t*D : (t+1)*D], Legal: p.legal[lo:p.legalEnd[t]],
			Action: p.actions[t], ActionText: p.texts[t], Reward: p.rewards[t*P+int(d)],
			Done: t == T-1, Returns: p.returns[t*P : (t+1)*P],
		}
		if p.cfg.RecordPolicy {
			p.steps[t].Policy = p.probs[t*A : (t+1)*A]
			p.steps[t].Value = p.values[t]
		}
		lo = p.legalEnd[t]
	}
	st := p.e.State()
	g := &datasets.Game{
		GameID: id, Seed: seed, Agents: agents, Length: int32(T), Turns: st.Turn + 1,
		EndReason: endReason(st, res.Truncated), Duration: time.Since(start),
	}
	o := p.cfg.Env.Rules
	o.Seed = seed
	if b, err := json.Marshal(o); err == nil {
		g.Options = string(b)
	}
	scores := res.Info.Scores
	if len(scores) != P {
		return nil, nil, fmt.Errorf("selfplay: game %d (seed %d) ended with %d scores for %d seats", id, seed, len(scores), P)
	}
	p.scores = p.scores[:0]
	for s, sc := range scores {
		p.scores = append(p.scores, convertScore(sc))
		if sc.Winner {
			g.Winners = append(g.Winners, int8(s))
		}
	}
	g.Scores = p.scores
	return g, p.steps, nil
}

// seatAgent keys a worker's bots: one per seat and agent.
type seatAgent struct {
	seat  int
	agent string
}

// seatBot gives seat the bot of agent for a game of this seed: the seat's bot of an earlier
// game reseeded when it has one (a Seeder), else a new one. With RecordPolicy the seat's bot
// must report its policy unless it is an opponent seat (GameAgents).
func (p *player) seatBot(s int, name string, seed uint64) error {
	if p.names[s] == name && p.seats[s].Bot != nil {
		if sd, ok := p.seats[s].Bot.(bots.Seeder); ok {
			sd.Seed(botSeed(seed, s))
			return nil
		}
	}
	key := seatAgent{s, name}
	if b, ok := p.cache[key]; ok {
		if sd, ok := b.(bots.Seeder); ok {
			sd.Seed(botSeed(seed, s))
			p.seats[s].Bot, p.names[s] = b, name
			return nil
		}
	}
	b, err := bots.New(p.cfg.spec(name), p.cfg.Env.Rules, botSeed(seed, s))
	if err != nil {
		return err
	}
	if _, ok := b.(PolicyBot); p.cfg.RecordPolicy && !ok && name == p.cfg.Agents[s] {
		return fmt.Errorf("selfplay: recording the behaviour policy needs bots that report it; %s does not", name)
	}
	if p.cache == nil {
		p.cache = map[seatAgent]bots.Bot{}
	}
	p.cache[key] = b
	p.seats[s].Bot, p.names[s] = b, name
	return nil
}

func colourName(c rules.Colour) string {
	if c >= rules.NumColours {
		return ""
	}
	return c.String()
}

func convertScore(s rules.Score) datasets.Score {
	return datasets.Score{
		Cash: int32(s.Cash), Island: int32(s.Island), Leftover: int32(s.Leftover), Loans: int32(s.Loans),
		Total: int32(s.Total), Discarded: colourName(s.Discarded), DiscardedCount: int32(s.DiscardedCount),
		GoldAs: colourName(s.GoldAs), AllColours: s.AllColours, FactoryContainers: int32(s.FactoryContainers),
		Rank: int8(s.Rank), Winner: s.Winner,
	}
}

func endReason(s *rules.State, truncated bool) string {
	switch {
	case truncated:
		return "truncated"
	case s.Ended == rules.EndTwoColours:
		return "two-colours"
	case s.Ended == rules.EndTurnLimit:
		return "turn-limit"
	}
	return "unknown"
}

// abandon undoes a start that wrote no shard: the manifest it wrote goes, and so do the
// marker, the lock and the directory when Open made them.
func abandon(dir *rundir.Dir) {
	_ = dir.RemoveFiles(datasets.ManifestName)
	dir.Abandon()
}

func partName(p *datasets.Part) string {
	if p == nil {
		return "none (the whole run)"
	}
	return p.String()
}
