package eval

import (
	"context"
	"errors"
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
	g        int
	seed     uint64
	st       *rules.State
	seats    []int       // agent of every seat
	deciders []bots.Seat // every seat's buffers; Bot is nil for a seat of a batch agent
	steps    int
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
		lg := &lockstepGame{g: g, seed: GameSeed(p.cfg.Seed, g)}
		lg.seats = p.cfg.Schedule.Seats(g, agents, p.opts.Players, nil)
		lg.deciders = make([]bots.Seat, len(lg.seats))
		for s, a := range lg.seats {
			if batch[a] != nil {
				continue
			}
			b, err := p.newBot(p.cfg.Agents[a], p.opts, BotSeed(lg.seed, s))
			if err != nil {
				return nil, err
			}
			lg.deciders[s].Bot = b
		}
		lg.st = p.game.NewInitialStateSeed(lg.seed)
		games = append(games, lg)
	}
	maxLen := p.game.MaxGameLength()
	batches := make([]bots.Batch, agents)
	owners := make([][]int, agents) // index in live of each batched decision
	chosen := make([]int, len(games))
	results := make([]GameResult, 0, len(games))
	for live := games; len(live) > 0; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for a := range batches {
			batches[a].Reset()
			owners[a] = owners[a][:0]
		}
		for i, lg := range live {
			if lg.steps >= maxLen {
				return nil, fmt.Errorf("%w: game %d (seed %d) after %d decisions", ErrGameTooLong, lg.g, lg.seed, lg.steps)
			}
			seat := lg.st.CurrentPlayer()
			d := &lg.deciders[seat]
			var err error
			if d.Bot != nil {
				chosen[i], err = d.Act(lg.st)
			} else if err = d.Prepare(lg.st); err == nil {
				a := lg.seats[seat]
				batches[a].Add(d)
				owners[a] = append(owners[a], i)
			}
			if err != nil {
				return nil, p.decisionError(err, seat, lg.seats, lg.g, lg.seed, lg.steps)
			}
		}
		for a, bb := range batch {
			if bb == nil || batches[a].Len() == 0 {
				continue
			}
			outs, err := batches[a].Act(bb)
			if be := (*bots.BatchError)(nil); errors.As(err, &be) {
				lg := live[owners[a][be.Index]]
				seat := lg.st.CurrentPlayer()
				return nil, p.decisionError(err, seat, lg.seats, lg.g, lg.seed, lg.steps)
			} else if err != nil {
				return nil, fmt.Errorf("eval: agent %s: %w", p.cfg.Agents[a], err)
			}
			for k, i := range owners[a] {
				chosen[i] = outs[k]
			}
		}
		next := live[:0]
		for i, lg := range live {
			lg.st.Apply(chosen[i])
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
