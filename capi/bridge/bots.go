package bridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	// The training package registers the shipped trained bot ("default") and the loader of
	// .bot files; every other bot registers itself in env/bots (or, later, its own package,
	// imported here).
	_ "github.com/container-rl/container/training"
)

// BotsJSON lists the registered bots: [{"name": ..., "description": ...}].
func BotsJSON() (string, error) {
	type info struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	var out []info
	for _, i := range bots.List() {
		out = append(out, info{i.Name, i.Description})
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// Bot is one bot for the C caller.
type Bot struct {
	busy
	b    bots.Bot
	opts rules.Options
	seat bots.Seat
}

// NewBot makes the bot spec (a registered name, a path/to/file.bot, either with an optional
// @T temperature) for games with the options, seeded by seed.
func NewBot(spec, optsJSON string, seed uint64) (int64, error) {
	o, err := ParseOptions(optsJSON, env.DefaultOptions())
	if err != nil {
		return 0, err
	}
	b, err := bots.New(spec, o.Rules, seed)
	if err != nil {
		return 0, err
	}
	return put(&Bot{b: b, opts: o.Rules, seat: bots.Seat{Bot: b}}), nil
}

func getBot(h int64) (*Bot, error) {
	x, err := get[*Bot](h, "bot")
	if err != nil {
		return nil, err
	}
	return x, x.enter("bot", h)
}

// act asks seat's bot for the decider's action in s (legal: s's legal ids, the env's), from
// the decider's redacted view.
func act(seat *bots.Seat, s *rules.State, legal []int) (int, error) {
	if s.IsTerminal() || len(legal) == 0 {
		return 0, fmt.Errorf("%w: the game is over; a bot has nothing to decide", env.ErrEpisodeOver)
	}
	a, err := seat.ActLegal(s, legal)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrInternal, err)
	}
	return a, nil
}

func sameRules(b rules.Options, e rules.Options) error {
	b.Seed, e.Seed = 0, 0
	if b != e {
		return fmt.Errorf("%w: the bot was made for %d players (%s, %s, modules %q), the game is %d players (%s, %s, modules %q)",
			ErrInvalid, b.Players, b.Variant, b.Length, b.Modules.String(), e.Players, e.Variant, e.Length, e.Modules.String())
	}
	return nil
}

// BotActEnv returns the bot's action for the current decider of env h (not applied).
func BotActEnv(bh, eh int64) (int, error) {
	b, err := getBot(bh)
	if err != nil {
		return 0, err
	}
	defer b.leave()
	x, err := getEnv(eh)
	if err != nil {
		return 0, err
	}
	defer x.leave()
	if x.e.State() == nil {
		return 0, env.ErrNotReset
	}
	if err := sameRules(b.opts, x.e.Options().Rules); err != nil {
		return 0, err
	}
	return act(&b.seat, x.e.State(), x.e.Legal())
}

// BotActVec returns the bot's action for the current decider of game i of vector env vh.
func BotActVec(bh, vh int64, i int) (int, error) {
	b, err := getBot(bh)
	if err != nil {
		return 0, err
	}
	defer b.leave()
	x, err := getVec(vh)
	if err != nil {
		return 0, err
	}
	defer x.leave()
	if i < 0 || i >= x.v.N {
		return 0, fmt.Errorf("%w: game %d; the vector env has games 0 to %d", ErrInvalid, i, x.v.N-1)
	}
	if err := sameRules(b.opts, x.v.Env(i).Options().Rules); err != nil {
		return 0, err
	}
	return act(&b.seat, x.v.State(i), x.v.Env(i).Legal())
}

// Table seats bots in every game of a vector env: seat s of game i is played by its own
// instance of specs[s] (a bot that decides in batches, such as a trained network, is one
// instance for all games), or by the caller where specs[s] is "".
type Table struct {
	busy
	vec      int64
	n, p     int
	perGame  [][]bots.Bot    // [seat][game]
	batch    []bots.BatchBot // [seat]
	deciders []bots.Seat     // [game]: the decision buffers of its current decider
	workers  int
}

// NewTable seats the bots specs (one per seat, "" for the caller's seats) in every game of
// vector env vh; game i's bot in seat s is seeded with env.GameSeed(seed, i, s).
func NewTable(vh int64, specs []string, seed uint64) (int64, error) {
	x, err := getVec(vh)
	if err != nil {
		return 0, err
	}
	defer x.leave()
	if len(specs) != x.v.P {
		return 0, fmt.Errorf("%w: %d bot specs for %d seats (use \"\" for the seats you play)", ErrInvalid, len(specs), x.v.P)
	}
	o := x.v.Env(0).Options().Rules
	t := &Table{vec: vh, n: x.v.N, p: x.v.P, perGame: make([][]bots.Bot, x.v.P), batch: make([]bots.BatchBot, x.v.P),
		deciders: make([]bots.Seat, x.v.N), workers: defaultWorkers()}
	for s, spec := range specs {
		if spec == "" {
			continue
		}
		first, err := bots.New(spec, o, env.GameSeed(seed, 0, s))
		if err != nil {
			return 0, err
		}
		if bb, ok := first.(bots.BatchBot); ok {
			t.batch[s] = bb
			continue
		}
		t.perGame[s] = make([]bots.Bot, x.v.N)
		t.perGame[s][0] = first
		for i := 1; i < x.v.N; i++ {
			if t.perGame[s][i], err = bots.New(spec, o, env.GameSeed(seed, i, s)); err != nil {
				return 0, err
			}
		}
	}
	return put(t), nil
}

// TableAct writes, for every game whose decider is a bot seat, the bot's action into
// actions[i] and 1 into isBot[i]; the other games get isBot[i] = 0 and keep their action.
func TableAct(th int64, actions []int, isBot []int8) error {
	t, err := get[*Table](th, "bot table")
	if err != nil {
		return err
	}
	if err := t.enter("bot table", th); err != nil {
		return err
	}
	defer t.leave()
	x, err := getVec(t.vec)
	if err != nil {
		return err
	}
	defer x.leave()
	if len(actions) != t.n {
		return errBuf("action", len(actions), t.n)
	}
	if len(isBot) != t.n {
		return errBuf("is-bot", len(isBot), t.n)
	}
	v := x.v
	errs := make([]error, t.workers)
	var wg sync.WaitGroup
	for w := 0; w < t.workers; w++ {
		lo, hi := w*t.n/t.workers, (w+1)*t.n/t.workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = Guard(func() error {
				for i := lo; i < hi; i++ {
					seat := v.Agents[i]
					isBot[i] = 0
					if seat < 0 || t.perGame[seat] == nil {
						continue
					}
					d := &t.deciders[i]
					d.Bot = t.perGame[seat][i]
					a, err := act(d, v.State(i), v.Env(i).Legal())
					if err != nil {
						return fmt.Errorf("game %d: %w", i, err)
					}
					actions[i], isBot[i] = a, 1
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
	var batch bots.Batch
	var owners []int
	for s, bb := range t.batch {
		if bb == nil {
			continue
		}
		batch.Reset()
		owners = owners[:0]
		for i := 0; i < t.n; i++ {
			if v.Agents[i] != s {
				continue
			}
			d := &t.deciders[i]
			d.Bot = nil
			if err := d.PrepareLegal(v.State(i), v.Env(i).Legal()); err != nil {
				return fmt.Errorf("%w: game %d: %w", ErrInternal, i, err)
			}
			batch.Add(d)
			owners = append(owners, i)
		}
		if batch.Len() == 0 {
			continue
		}
		out, err := batch.Act(bb)
		if be := (*bots.BatchError)(nil); errors.As(err, &be) {
			return fmt.Errorf("%w: game %d: %w", ErrInternal, owners[be.Index], err)
		} else if err != nil {
			return fmt.Errorf("%w: %w", ErrInternal, err)
		}
		for k, i := range owners {
			actions[i], isBot[i] = out[k], 1
		}
	}
	return nil
}
