package eval

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// Errors returned by Run.
var (
	// ErrConfig is wrapped by every error about a bad tournament configuration.
	ErrConfig = errors.New("eval: invalid tournament")
	// ErrIllegalBotAction is wrapped when a bot returns an action that is not legal (the
	// bots.Seat check).
	ErrIllegalBotAction = bots.ErrIllegalAction
	// ErrNoLegalAction is wrapped when the rules engine offers no legal action in a position
	// that is not terminal (an engine bug, reported with the game's seed and step).
	ErrNoLegalAction = bots.ErrNoLegalAction
	// ErrGameTooLong is wrapped when a game exceeds the game's maximum length.
	ErrGameTooLong = errors.New("eval: game exceeded its maximum length")
)

// NewBotFunc makes the bot called name for a game with the given options and seed.
type NewBotFunc func(name string, opts rules.Options, seed uint64) (bots.Bot, error)

// Config describes a tournament.
type Config struct {
	// Agents are bot names (see bots.New); 2 or more, each plays every seat equally often.
	Agents []string
	// Games is the number of games. Seat rotation is exactly balanced when Games is a
	// multiple of len(Agents).
	Games int
	// Options are the game options; Options.Seed is ignored (each game gets its own seed).
	Options rules.Options
	// Seed determines every game's setup and every bot's seed.
	Seed uint64
	// Workers is the number of parallel games; 0 means GOMAXPROCS.
	Workers int
	// KeepRecords keeps each game's record (rules.Record: options, seed, moves, checksum),
	// which rules.LoadRecord and container replay read back.
	KeepRecords bool
	// Progress, if set, is called after each finished game with the number done so far.
	Progress func(done, total int)
	// NewBot makes bots; nil means bots.New.
	NewBot NewBotFunc
	// Batch, when above 1, plays games in blocks of Batch consecutive games in lockstep on
	// one worker, so that agents whose bots implement bots.BatchBot decide for the whole
	// block in one ActBatch call (one shared bot per block and agent, seeded from the
	// tournament seed, the block and the agent). Results still do not depend on Workers;
	// they equal the unbatched results except for batch bots that sample.
	Batch int
	// Shard, if set, plays only that shard's games (Shard.Range): the same games, seeds and
	// seats as the whole tournament, for Merge to join.
	Shard *Shard
	// Schedule seats the agents when there are more of them than seats ("": ScheduleWindow,
	// the schedule before there was a choice; container eval and rate default to balanced).
	Schedule Schedule
}

// GameResult is one finished game.
type GameResult struct {
	Index     int             `json:"index"`
	Seed      uint64          `json:"seed"`
	Agents    []int           `json:"agents"` // agent index per seat
	Scores    []rules.Score   `json:"scores"`
	Steps     int             `json:"steps"`
	Turns     int             `json:"turns"`
	EndReason rules.EndReason `json:"end_reason"`
	Record    *rules.Record   `json:"-"`
}

// Result is a tournament's games, in game-index order.
type Result struct {
	Agents  []string      `json:"agents"`
	Options rules.Options `json:"options"`
	Seed    uint64        `json:"seed"`
	// Requested is Config.Games (a shard's game count for a shard); len(Games) is smaller when
	// the run was interrupted.
	Requested   int  `json:"requested"`
	Interrupted bool `json:"interrupted"`
	// Schedule is the seating schedule the games were played with (Config.Schedule).
	Schedule Schedule     `json:"schedule,omitempty"`
	Games    []GameResult `json:"games"`
}

// SeatAgents returns the agent index of each seat in game g: seat s plays agent
// (s+g) mod agents, so over any agents consecutive games every agent sits in every seat
// exactly once (an agent fills several seats of a game when there are fewer agents than seats).
func SeatAgents(g, agents, players int, dst []int) []int {
	dst = dst[:0]
	for s := 0; s < players; s++ {
		dst = append(dst, (s+g)%agents)
	}
	return dst
}

// mix is the SplitMix64 finaliser: independent-looking seeds from consecutive inputs.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// GameSeed is the setup seed of game g of a tournament with seed seed.
func GameSeed(seed uint64, g int) uint64 { return mix(seed ^ mix(uint64(g))) }

// BotSeed is the seed of the bot in seat s of a game with setup seed gameSeed.
func BotSeed(gameSeed uint64, s int) uint64 { return mix(gameSeed + uint64(s+1)*0xd1b54a32d192ed03) }

func (c *Config) check() (*rules.Game, error) {
	if len(c.Agents) < 1 {
		return nil, fmt.Errorf("%w: no agents", ErrConfig)
	}
	if c.Games < 1 {
		return nil, fmt.Errorf("%w: %d games; need at least 1", ErrConfig, c.Games)
	}
	if c.Batch < 0 {
		return nil, fmt.Errorf("%w: batch %d", ErrConfig, c.Batch)
	}
	if c.Workers < 0 {
		return nil, fmt.Errorf("%w: %d workers", ErrConfig, c.Workers)
	}
	if c.Shard != nil {
		if err := c.Shard.Validate(); err != nil {
			return nil, err
		}
	}
	if err := c.Schedule.check(len(c.Agents)); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if c.NewBot == nil {
		for _, a := range c.Agents {
			if err := bots.Resolve(a); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrConfig, err)
			}
		}
	}
	g, err := rules.NewGame(c.Options)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if c.NewBot == nil {
		// Make each agent once so a bot that cannot play these options (a trained network
		// made for others) fails before any game starts.
		for _, a := range c.Agents {
			if _, err := bots.New(a, g.Options(), 0); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrConfig, err)
			}
		}
	}
	return g, nil
}

// Run plays the tournament. When ctx is cancelled it stops starting games, finishes none of
// the games in progress, and returns the games finished so far with Interrupted set (and no
// error). A bot error or illegal action stops the tournament with an error.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	game, err := cfg.check()
	if err != nil {
		return nil, err
	}
	newBot := cfg.NewBot
	if newBot == nil {
		newBot = bots.New
	}
	workers := cfg.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	first, end := 0, cfg.Games
	if cfg.Shard != nil {
		first, end = cfg.Shard.Range(cfg.Games, cfg.Batch)
	}
	workers = min(workers, (end-first+max(cfg.Batch, 1)-1)/max(cfg.Batch, 1))
	opts := game.Options()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	block := max(cfg.Batch, 1)
	jobs := make(chan int) // first game of a block
	type out struct {
		r   GameResult
		err error
	}
	outs := make(chan out, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := newPlayer(game, cfg, newBot)
			for g := range jobs {
				if block == 1 {
					r, err := p.play(ctx, g)
					outs <- out{r, err}
					continue
				}
				rs, err := p.playBlock(ctx, g, min(g+block, cfg.Games))
				if err != nil {
					outs <- out{err: err}
					continue
				}
				for _, r := range rs {
					outs <- out{r: r}
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for g := first; g < end; g += block {
			select {
			case jobs <- g:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(outs) }()

	res := &Result{Agents: append([]string(nil), cfg.Agents...), Options: opts, Seed: cfg.Seed, Requested: end - first, Schedule: cfg.Schedule}
	var firstErr error
	for o := range outs {
		if o.err != nil {
			if firstErr == nil && !errors.Is(o.err, context.Canceled) {
				firstErr = o.err
				cancel()
			}
			continue
		}
		res.Games = append(res.Games, o.r)
		if cfg.Progress != nil {
			cfg.Progress(len(res.Games), end-first)
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	sort.Slice(res.Games, func(i, j int) bool { return res.Games[i].Index < res.Games[j].Index })
	res.Interrupted = len(res.Games) < end-first
	return res, nil
}

// player is one worker's game loop with its reusable buffers and bots.
type player struct {
	game     *rules.Game
	cfg      Config
	newBot   NewBotFunc
	opts     rules.Options
	seats    []int               // agent of every seat
	deciders []bots.Seat         // every seat's bot and decision buffers
	cache    map[[2]int]bots.Bot // reseedable bots by (agent, seat)
}

func newPlayer(game *rules.Game, cfg Config, newBot NewBotFunc) *player {
	return &player{
		game: game, cfg: cfg, newBot: newBot, opts: game.Options(),
		cache: map[[2]int]bots.Bot{}, deciders: make([]bots.Seat, game.Options().Players),
	}
}

func (p *player) botFor(agent, seat int, seed uint64) (bots.Bot, error) {
	key := [2]int{agent, seat}
	if b, ok := p.cache[key]; ok {
		b.(bots.Seeder).Seed(seed)
		return b, nil
	}
	b, err := p.newBot(p.cfg.Agents[agent], p.opts, seed)
	if err != nil {
		return nil, err
	}
	if _, ok := b.(bots.Seeder); ok {
		p.cache[key] = b
	}
	return b, nil
}

func (p *player) play(ctx context.Context, g int) (GameResult, error) {
	if err := ctx.Err(); err != nil {
		return GameResult{}, err
	}
	seed := GameSeed(p.cfg.Seed, g)
	p.seats = p.cfg.Schedule.Seats(g, len(p.cfg.Agents), p.opts.Players, p.seats)
	for s, a := range p.seats {
		b, err := p.botFor(a, s, BotSeed(seed, s))
		if err != nil {
			return GameResult{}, err
		}
		p.deciders[s].Bot = b
	}
	st := p.game.NewInitialStateSeed(seed)
	maxLen := p.game.MaxGameLength()
	steps := 0
	for !st.IsTerminal() {
		if steps >= maxLen {
			return GameResult{}, fmt.Errorf("%w: game %d (seed %d) after %d decisions", ErrGameTooLong, g, seed, steps)
		}
		// Checked often: a search bot spends up to seconds on one decision.
		if steps&15 == 0 && ctx.Err() != nil {
			return GameResult{}, ctx.Err()
		}
		seat := st.CurrentPlayer()
		a, err := p.deciders[seat].Act(st)
		if err != nil {
			return GameResult{}, p.decisionError(err, seat, p.seats, g, seed, steps)
		}
		st.Apply(a)
		steps++
	}
	return p.result(g, seed, p.seats, st, steps), nil
}

// decisionError says which agent, game and step a failed decision (bots.Seat's error) was.
func (p *player) decisionError(err error, seat int, seats []int, g int, seed uint64, steps int) error {
	return fmt.Errorf("eval: agent %s at seat %d, game %d (options %+v, seed %d), step %d: %w",
		p.cfg.Agents[seats[seat]], seat, g, p.opts, seed, steps, err)
}

// result records a finished game.
func (p *player) result(g int, seed uint64, seats []int, st *rules.State, steps int) GameResult {
	r := GameResult{
		Index: g, Seed: seed, Agents: append([]int(nil), seats...),
		Scores: st.Scores(), Steps: steps, Turns: int(st.Turn) + 1, EndReason: st.Ended,
	}
	if p.cfg.KeepRecords {
		r.Record = rules.NewRecord(st, seed)
	}
	return r
}

// Players returns the distinct agent names in order of first appearance and, for each entry
// of Agents, the index of its name: an agent listed several times (random,random,random) is
// one player for the statistics and ratings.
func (r *Result) Players() (names []string, of []int) {
	idx := map[string]int{}
	for _, a := range r.Agents {
		i, ok := idx[a]
		if !ok {
			i = len(names)
			idx[a] = i
			names = append(names, a)
		}
		of = append(of, i)
	}
	return names, of
}
