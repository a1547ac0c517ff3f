package training

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/env/search"
)

// League opponents of train exit's self-play (ExItOptions.League): LeagueSelf is a game in
// which every seat is the learner's search; the others put the learner's search in one seat
// and the opponent in every other.
const (
	LeagueSelf = "self" // every seat the learner's search
	LeagueBest = "best" // the best network alone (its policy, no search)
	LeaguePast = "past" // an earlier best network (policy, no search), drawn per game
)

// MaxLeagueEntries bounds the entries of a league.
const MaxLeagueEntries = 16

// LeagueEntry is one kind of self-play game of a league and its weight in the mix: each
// game's entry is drawn with probability weight / (sum of weights).
type LeagueEntry struct {
	// Opponent is LeagueSelf, LeagueBest, LeaguePast or a bot spec (an ismcts search at
	// some budget, a scripted bot): the bot of every seat but the learner's.
	Opponent string  `json:"opponent"`
	Weight   float64 `json:"weight"`
}

// ParseLeagueEntry reads "OPPONENT@WEIGHT" (self@0.5, past@0.25, ismcts:sims=50@0.125).
// An ismcts opponent plays with one worker (games run in parallel instead).
func ParseLeagueEntry(s string) (LeagueEntry, error) {
	i := strings.LastIndexByte(s, '@')
	if i < 0 {
		return LeagueEntry{}, fmt.Errorf("%w: league entry %s: want OPPONENT@WEIGHT (self@0.5, past@0.25, best@0.1, ismcts:sims=50@0.15)", ErrConfig, rules.Quote(s))
	}
	w, err := strconv.ParseFloat(strings.TrimSpace(s[i+1:]), 64)
	if err != nil {
		return LeagueEntry{}, fmt.Errorf("%w: league entry %s: weight %s is not a number", ErrConfig, rules.Quote(s), rules.Quote(s[i+1:]))
	}
	e := LeagueEntry{Opponent: strings.TrimSpace(s[:i]), Weight: w}
	if err := e.check(); err != nil {
		return LeagueEntry{}, err
	}
	if name, params, _ := strings.Cut(e.Opponent, ":"); strings.EqualFold(name, search.Name) {
		cfg, err := search.Parse(params)
		if err != nil {
			return LeagueEntry{}, fmt.Errorf("%w: league entry %s: %w", ErrConfig, rules.Quote(s), err)
		}
		cfg.Workers = 1
		e.Opponent = search.Name + ":" + cfg.String()
	}
	return e, nil
}

func (e LeagueEntry) String() string {
	return e.Opponent + "@" + strconv.FormatFloat(e.Weight, 'g', -1, 64)
}

func (e LeagueEntry) check() error {
	if !(e.Weight > 0 && e.Weight <= 1e6) || math.IsInf(e.Weight, 0) {
		return fmt.Errorf("%w: league entry %s: weight %g outside (0, 1e6]", ErrConfig, rules.Quote(e.Opponent), e.Weight)
	}
	switch e.Opponent {
	case LeagueSelf, LeagueBest, LeaguePast:
		return nil
	case "":
		return fmt.Errorf("%w: league entry with no opponent: want self, best, past or a bot spec", ErrConfig)
	}
	if strings.Contains(e.Opponent, "@") {
		return fmt.Errorf("%w: league opponent %s holds an @", ErrConfig, rules.Quote(e.Opponent))
	}
	if err := bots.Resolve(e.Opponent); err != nil {
		return fmt.Errorf("%w: league opponent: %w", ErrConfig, err)
	}
	return nil
}

// checkLeague checks a league: at most MaxLeagueEntries entries, each once, with a
// positive weight and an opponent bots can make for these games, none the learner's spec.
func checkLeague(league []LeagueEntry, ro rules.Options, learner string) error {
	if len(league) > MaxLeagueEntries {
		return fmt.Errorf("%w: %d league entries; at most %d", ErrConfig, len(league), MaxLeagueEntries)
	}
	seen := map[string]bool{}
	for _, e := range league {
		if err := e.check(); err != nil {
			return err
		}
		if seen[e.Opponent] {
			return fmt.Errorf("%w: league opponent %s given twice", ErrConfig, rules.Quote(e.Opponent))
		}
		seen[e.Opponent] = true
		switch e.Opponent {
		case LeagueSelf, LeagueBest, LeaguePast:
			continue
		case learner:
			return fmt.Errorf("%w: league opponent %s is the self-play search itself (use self@WEIGHT)", ErrConfig, rules.Quote(e.Opponent))
		}
		if _, err := bots.New(e.Opponent, ro, 0); err != nil {
			return fmt.Errorf("%w: league opponent: %w", ErrConfig, err)
		}
	}
	return nil
}

// leagueDraw is one self-play game's place in the league: its entry (an index of the
// league), the learner's seat and, for LeaguePast, which of the past networks.
type leagueDraw struct {
	Entry, Seat, Past int
}

// drawLeague draws game i of generation g from the league: a function of (seed, g, i) only,
// so a resumed or re-sharded run plays the same games.
func drawLeague(league []LeagueEntry, seed uint64, g int64, i uint64, players, past int) leagueDraw {
	rng := rand.New(rand.NewPCG(env.GameSeed(env.GameSeed(seed, int(g), 4), int(i), 0), 0x6c65616775))
	var total float64
	for _, e := range league {
		total += e.Weight
	}
	u := rng.Float64() * total
	d := leagueDraw{Entry: len(league) - 1}
	for k, e := range league {
		if u < e.Weight {
			d.Entry = k
			break
		}
		u -= e.Weight
	}
	d.Seat = rng.IntN(max(players, 1))
	d.Past = rng.IntN(max(past, 1))
	return d
}

// pastNets lists the networks LeaguePast draws from: generation 0 and every promoted
// generation (from the metrics rows), except the current best, in generation order; the
// best alone when there is no other.
func pastNets(metrics [][]float64, best string) []string {
	names := []string{"nets/" + genName(0) + ".bot"}
	for _, row := range metrics {
		if len(row) > 22 && row[22] == 1 {
			names = append(names, "nets/"+genName(int64(row[0]))+".bot")
		}
	}
	out := names[:0]
	for _, n := range names {
		if n != best {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		out = append(out, best)
	}
	return out
}

// leagueAgents returns game i's agents (nil: every seat the learner, spec) for generation g.
func (e *exitRun) leagueAgents(spec string, g int64, i uint64, past []string) []string {
	o := e.opts
	if len(o.League) == 0 {
		return nil
	}
	d := drawLeague(o.League, o.Seed, g, i, o.Rules.Players, len(past))
	opp := o.League[d.Entry].Opponent
	switch opp {
	case LeagueSelf:
		return nil
	case LeagueBest:
		opp = e.st.Best
	case LeaguePast:
		opp = past[d.Past]
	}
	agents := make([]string, o.Rules.Players)
	for s := range agents {
		agents[s] = opp
	}
	agents[d.Seat] = spec
	return agents
}
