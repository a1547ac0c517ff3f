package bridge

import (
	"fmt"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// opponents are Go bots seated in some seats of an Env: while one of them decides, EnvPlay
// and EnvStepPlay step the game in Go, so a single-agent host pays no round trip for the
// other seats' turns.
type opponents struct {
	specs []string   // [seat]: the bot spec, "" for a seat the caller plays
	bots  []bots.Bot // [seat]: nil for the caller's seats
	// pool keeps the bots made for each spec across EnvSetOpponents calls (a host rotating
	// its own seat every episode reseats the same bots instead of loading them again).
	pool  map[string][]bots.Bot
	rules rules.Options
	seat  bots.Seat
}

// botSeed is the seed of the bot in seat s for the game seeded with seed.
func botSeed(seed uint64, s int) uint64 { return env.GameSeed(seed, 1+s, 0) }

// EnvSetOpponents seats Go bots in env h: specs[s] is seat s's bot (a registered name or a
// .bot file, optionally with @T), "" for the seats the caller plays; at least one seat must
// be the caller's. Bots are reseeded at every EnvReset from the game's seed (so a reset with
// the same seed replays the same game); bots already made for a spec are reused. An empty
// specs list removes the bots.
func EnvSetOpponents(h int64, specs []string) error {
	x, err := getEnv(h)
	if err != nil {
		return err
	}
	defer x.leave()
	return x.setOpponents(specs)
}

func (x *Env) setOpponents(specs []string) error {
	if len(specs) == 0 {
		x.opp = nil
		return nil
	}
	if len(specs) != x.sizes.Players {
		return fmt.Errorf("%w: %d bot specs for %d seats (use \"\" for the seats you play)", ErrInvalid, len(specs), x.sizes.Players)
	}
	caller := false
	for _, s := range specs {
		if s == "" {
			caller = true
		}
	}
	if !caller {
		return fmt.Errorf("%w: every seat has a bot; leave at least one seat \"\" for the caller", ErrInvalid)
	}
	o := x.opp
	if o == nil {
		o = &opponents{pool: map[string][]bots.Bot{}, rules: x.e.Options().Rules}
	}
	next := &opponents{specs: append([]string(nil), specs...), bots: make([]bots.Bot, len(specs)), pool: o.pool, rules: o.rules}
	used := map[string]int{}
	var seed uint64
	if x.e.State() != nil {
		seed = x.e.Seed()
	}
	for s, spec := range specs {
		if spec == "" {
			continue
		}
		k := used[spec]
		used[spec]++
		if k < len(next.pool[spec]) {
			next.bots[s] = next.pool[spec][k]
			continue
		}
		b, err := bots.New(spec, next.rules, botSeed(seed, s))
		if err != nil {
			return err
		}
		next.pool[spec] = append(next.pool[spec], b)
		next.bots[s] = b
	}
	x.opp = next
	return nil
}

// remake makes every bot again for new rules (a reset that changed the options).
func (o *opponents) remake(r rules.Options) error {
	o.rules = r
	o.pool = map[string][]bots.Bot{}
	for s, spec := range o.specs {
		if spec == "" {
			continue
		}
		b, err := bots.New(spec, r, 0)
		if err != nil {
			return err
		}
		o.pool[spec] = append(o.pool[spec], b)
		o.bots[s] = b
	}
	return nil
}

// reseed gives every bot the seed its seat gets in the game seeded with seed: a bot that
// cannot be reseeded is made again.
func (o *opponents) reseed(seed uint64) error {
	for s, b := range o.bots {
		if b == nil {
			continue
		}
		if sd, ok := b.(bots.Seeder); ok {
			sd.Seed(botSeed(seed, s))
			continue
		}
		nb, err := bots.New(o.specs[s], o.rules, botSeed(seed, s))
		if err != nil {
			return err
		}
		for i, pb := range o.pool[o.specs[s]] {
			if pb == b {
				o.pool[o.specs[s]][i] = nb
			}
		}
		o.bots[s] = nb
	}
	return nil
}

// play steps the game with the bots' actions until a caller's seat decides or the game is
// over; the caller writes the outputs. It returns the number of bot moves.
func (x *Env) play() (int, error) {
	o := x.opp
	if o == nil || x.e.State() == nil {
		return 0, nil
	}
	n := 0
	for !x.e.Done() {
		s := x.e.Agent()
		b := o.bots[s]
		if b == nil {
			break
		}
		o.seat.Bot = b
		a, err := o.seat.ActLegal(x.e.State(), x.e.Legal())
		if err != nil {
			return n, fmt.Errorf("%w: seat %d (%s): %w", ErrInternal, s, o.specs[s], err)
		}
		if err := x.step(a); err != nil {
			return n, fmt.Errorf("%w: seat %d (%s): %w", ErrInternal, s, o.specs[s], err)
		}
		n++
	}
	return n, nil
}

// EnvPlay lets the Go bots of env h (EnvSetOpponents) decide until one of the caller's seats
// decides or the game is over (call it after EnvReset). It returns the number of bot moves.
func EnvPlay(h int64) (int, error) {
	x, err := getEnv(h)
	if err != nil {
		return 0, err
	}
	defer x.leave()
	if x.e.State() == nil {
		return 0, env.ErrNotReset
	}
	n, err := x.play()
	x.write()
	return n, err
}

// EnvStepPlay is EnvStep followed by EnvPlay in one call: the caller's action, then the
// bots' until the caller decides again or the game is over. An illegal action changes
// nothing. Since[seat] then holds the reward the caller's seat collected over all these
// moves.
func EnvStepPlay(h int64, action int) (int, error) {
	x, err := getEnv(h)
	if err != nil {
		return 0, err
	}
	defer x.leave()
	if err := x.step(action); err != nil {
		return 0, err
	}
	n, err := x.play()
	x.write()
	return n, err
}
