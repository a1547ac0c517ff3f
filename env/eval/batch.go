package eval

import (
	"context"
	"fmt"
	"sort"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// BlockBotSeed is the seed of the shared batch bot of agent a in the block starting at game
// first.
func BlockBotSeed(seed uint64, first, a int) uint64 {
	return mix(GameSeed(seed, first) ^ mix(uint64(a)+0x9e37))
}

// lockstepGame is one game of a block.
type lockstepGame struct {
	g     int
	seed  uint64
	st    *rules.State
	seats []int
	bots  []bots.Bot // nil for a seat played by its agent's batch bot
	legal []int
	view  rules.State
	steps int
}

// playBlock plays games first..end-1 in lockstep: each round every unfinished game takes one
// decision; the decisions of batch agents go to their shared bot in one ActBatch call.
func (p *player) playBlock(ctx context.Context, first, end int) ([]GameResult, error) {
	agents := len(p.cfg.Agents)
	batch := make([]bots.BatchBot, agents)
	for a := 0; a < agents; a++ {
		b, err := p.newBot(p.cfg.Agents[a], p.opts, BlockBotSeed(p.cfg.Seed, first, a))
		if err != nil {
			return nil, err
		}
		if bb, ok := b.(bots.BatchBot); ok {
			batch[a] = bb
		}
	}
	games := make([]*lockstepGame, 0, end-first)
	for g := first; g < end; g++ {
		lg := &lockstepGame{g: g, seed: GameSeed(p.cfg.Seed, g), legal: make([]int, 0, 256)}
		lg.seats = SeatAgents(g, agents, p.opts.Players, nil)
		lg.bots = make([]bots.Bot, len(lg.seats))
		for s, a := range lg.seats {
			if batch[a] != nil {
				continue
			}
			b, err := p.newBot(p.cfg.Agents[a], p.opts, BotSeed(lg.seed, s))
			if err != nil {
				return nil, err
			}
			lg.bots[s] = b
		}
		lg.st = p.game.NewInitialStateSeed(lg.seed)
		games = append(games, lg)
	}
	maxLen := p.game.MaxGameLength()
	views := make([][]*rules.State, agents)
	legals := make([][][]int, agents)
	owners := make([][]int, agents) // index in live of each batched decision
	var outs []int
	chosen := make([]int, len(games))
	results := make([]GameResult, 0, len(games))
	for live := games; len(live) > 0; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for a := range views {
			views[a], legals[a], owners[a] = views[a][:0], legals[a][:0], owners[a][:0]
		}
		for i, lg := range live {
			if lg.steps >= maxLen {
				return nil, fmt.Errorf("%w: game %d (seed %d) after %d decisions", ErrGameTooLong, lg.g, lg.seed, lg.steps)
			}
			seat := lg.st.CurrentPlayer()
			lg.legal = lg.st.LegalActions(lg.legal)
			if len(lg.legal) == 0 {
				return nil, fmt.Errorf("%w: phase %s, seat %d, game %d (options %+v, seed %d), step %d",
					ErrNoLegalAction, lg.st.Decision().Phase, seat, lg.g, p.opts, lg.seed, lg.steps)
			}
			lg.st.Redact(seat, &lg.view)
			if b := lg.bots[seat]; b != nil {
				chosen[i] = b.Act(&lg.view, lg.legal)
				continue
			}
			a := lg.seats[seat]
			views[a] = append(views[a], &lg.view)
			legals[a] = append(legals[a], lg.legal)
			owners[a] = append(owners[a], i)
			chosen[i] = -2 // filled in below
		}
		for a, bb := range batch {
			if bb == nil || len(views[a]) == 0 {
				continue
			}
			if n := len(views[a]); cap(outs) < n {
				outs = make([]int, n)
			}
			outs = outs[:len(views[a])]
			bb.ActBatch(views[a], legals[a], outs)
			for k, i := range owners[a] {
				chosen[i] = outs[k]
			}
		}
		next := live[:0]
		for i, lg := range live {
			a := chosen[i]
			if k := sort.SearchInts(lg.legal, a); k >= len(lg.legal) || lg.legal[k] != a {
				seat := lg.st.CurrentPlayer()
				return nil, fmt.Errorf("%w: %s (seat %d) chose %d in phase %s of game %d (seed %d), step %d",
					ErrIllegalBotAction, p.cfg.Agents[lg.seats[seat]], seat, a, lg.st.Decision().Phase, lg.g, lg.seed, lg.steps)
			}
			lg.st.Apply(a)
			lg.steps++
			if lg.st.IsTerminal() {
				results = append(results, p.result(lg.g, lg.seed, lg.seats, lg.st, lg.steps))
				continue
			}
			next = append(next, lg)
		}
		live = next
	}
	sort.Slice(results, func(i, j int) bool { return results[i].Index < results[j].Index })
	return results, nil
}
