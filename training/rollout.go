package training

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// PPO rollouts: one iteration's games, played in lockstep in one VecEnv, with the learner's
// decisions and their advantages and value targets.

// rollout is one iteration's learner decisions with advantages and value targets.
type rollout struct {
	b                   Batch
	rows, games         int
	envSteps            int
	meanReward, winRate float64
	// Per game: the learner's seat and rows, and every seat's final reward.
	trajs  []gameTraj
	finals [][]float32
	vals   []float32 // the network's value estimate of each decision (index 0)
}

// collector plays the games of an iteration.
type collector struct {
	opts   *PPOOptions
	game   *rules.Game
	scheme env.RewardScheme
	ctx    context.Context // nil: never cancelled
}

type gameTraj struct {
	seat     int
	done     bool
	rows     []int // indices into the rollout buffers
	opp      []bots.Bot
	oppBatch []int // per seat: index of the snapshot bot (-1: scripted)
}

// collect plays opts.Games games in one VecEnv (each once, to its end) with the learner in a
// random seat of each and opponents drawn from the pool; learner decisions are made in one
// batched forward pass per step.
func (c *collector) collect(net *Net, pool []*BotFile, rng *rand.Rand, it int64) (*rollout, error) {
	o := c.opts
	v, err := c.newVec(net, it)
	if err != nil {
		return nil, err
	}
	defer v.Close()
	snap, err := c.snapshotBots(pool, rng)
	if err != nil {
		return nil, err
	}
	trajs, err := c.seatGames(len(snap), rng)
	if err != nil {
		return nil, err
	}
	p := newRolloutPlay(v, net, snap, trajs, o.Rules.Players)
	maxLen := c.game.MaxGameLength() + 1
	for step := 0; p.remaining > 0; step++ {
		if step > maxLen {
			return nil, fmt.Errorf("training: ppo: games longer than %d decisions", maxLen)
		}
		if c.ctx != nil && step&15 == 0 && c.ctx.Err() != nil {
			return nil, fmt.Errorf("training: ppo: games of iteration %d: %w", it, c.ctx.Err())
		}
		if err := p.opponentsAct(); err != nil {
			return nil, err
		}
		if err := p.snapshotsAct(); err != nil {
			return nil, err
		}
		p.learnerActs(rng)
		if err := v.Step(p.actions); err != nil {
			return nil, fmt.Errorf("training: ppo: %w", err)
		}
		p.envSteps += p.remaining
		p.endGames()
	}
	ro := p.rollout()
	ro.advantages(o.Gamma, o.Lambda)
	return ro, nil
}

// newVec starts the iteration's games, seeded by the run's seed and the iteration, and
// checks that they are observed as the network reads.
func (c *collector) newVec(net *Net, it int64) (*env.VecEnv, error) {
	o := c.opts
	workers := o.Workers
	if workers <= 0 {
		workers = 2
	}
	v, err := env.NewVec(o.Games, env.Options{Rules: o.Rules, Reward: c.scheme, HideOpponentCash: o.HideOpponentCash, MaxSteps: o.MaxSteps}, o.Seed^uint64(it)*0x9e3779b97f4a7c15, workers)
	if err != nil {
		return nil, err
	}
	if cfg := net.Config(); v.D != cfg.ObsDim || v.A != cfg.NumActions {
		v.Close()
		return nil, fmt.Errorf("%w: network %d features/%d actions, games %d/%d", ErrIncompatible, cfg.ObsDim, cfg.NumActions, v.D, v.A)
	}
	return v, nil
}

// snapshotBots makes a bot of each pool snapshot.
func (c *collector) snapshotBots(pool []*BotFile, rng *rand.Rand) ([]*NetBot, error) {
	snap := make([]*NetBot, len(pool))
	for i, f := range pool {
		var err error
		if snap[i], err = NewNetBot(f.Header.Name, f, &c.opts.Rules, rng.Uint64()); err != nil {
			return nil, err
		}
	}
	return snap, nil
}

// seatGames seats the learner in a random seat of each game and fills the others: a pool
// snapshot (of snapshots) with probability SnapshotShare, else a scripted opponent.
func (c *collector) seatGames(snapshots int, rng *rand.Rand) ([]gameTraj, error) {
	o := c.opts
	P := o.Rules.Players
	trajs := make([]gameTraj, o.Games)
	for g := range trajs {
		t := &trajs[g]
		t.seat = rng.IntN(P)
		t.opp = make([]bots.Bot, P)
		t.oppBatch = make([]int, P)
		for s := range P {
			t.oppBatch[s] = -1
			if s == t.seat {
				continue
			}
			if snapshots > 0 && rng.Float64() < o.SnapshotShare {
				t.oppBatch[s] = rng.IntN(snapshots)
				continue
			}
			b, err := bots.New(o.Opponents[rng.IntN(len(o.Opponents))], o.Rules, rng.Uint64())
			if err != nil {
				return nil, err
			}
			t.opp[s] = b
		}
	}
	return trajs, nil
}

// rolloutPlay is one collect call's games in progress: the learner's decisions so far and
// the buffers of one lockstep step.
type rolloutPlay struct {
	v          *env.VecEnv
	net        *Net
	snap       []*NetBot
	trajs      []gameTraj
	D, A, V, P int

	// The learner's decisions, in the order made.
	obs, mask, logp, vals []float32
	acts                  []int32

	// One step: the action of each game, and the learner's rows (games) to decide.
	actions         []int
	learnerRows     []int
	rowObs, rowMask []float32
	logits, values  []float32
	wss             []Workspace
	seats           []bots.Seat  // per game: the opponent deciding (view, legal actions, check)
	batches         []bots.Batch // per snapshot: the seats it decides this step, in one batch
	batchGames      [][]int      // and their games

	finals          [][]float32 // per game: every seat's final reward
	wins, rewardSum float64     // the learner's, over finished games
	remaining       int         // games not finished
	envSteps        int
}

func newRolloutPlay(v *env.VecEnv, net *Net, snap []*NetBot, trajs []gameTraj, players int) *rolloutPlay {
	cfg := net.Config()
	n := len(trajs)
	p := &rolloutPlay{v: v, net: net, snap: snap, trajs: trajs, D: cfg.ObsDim, A: cfg.NumActions, V: cfg.ValueDim,
		P: players, remaining: n}
	p.logits, p.values = make([]float32, n*p.A), make([]float32, n*p.V)
	p.wss = make([]Workspace, 2)
	p.actions, p.seats, p.finals = make([]int, n), make([]bots.Seat, n), make([][]float32, n)
	p.rowObs, p.rowMask = make([]float32, n*p.D), make([]float32, n*p.A)
	p.batches, p.batchGames = make([]bots.Batch, len(snap)), make([][]int, len(snap))
	return p
}

// opponentsAct decides every game's step except the learner's and the snapshots': a
// finished game (or one between turns) takes its first legal action, the learner's
// decisions are queued for one forward pass, a snapshot's for its batch, and a scripted
// opponent acts through the game's seat (redacted view, checked action).
func (p *rolloutPlay) opponentsAct() error {
	v, D, A := p.v, p.D, p.A
	p.learnerRows = p.learnerRows[:0]
	for i := range p.batches {
		p.batches[i].Reset()
		p.batchGames[i] = p.batchGames[i][:0]
	}
	for g := range p.trajs {
		t := &p.trajs[g]
		agent := v.Agents[g]
		m := v.Mask[g*A : (g+1)*A]
		if t.done || agent < 0 {
			p.actions[g] = firstLegal(m)
			continue
		}
		if agent == t.seat {
			k := len(p.learnerRows)
			copy(p.rowObs[k*D:(k+1)*D], v.Obs[g*D:(g+1)*D])
			copy(p.rowMask[k*A:(k+1)*A], m)
			p.learnerRows = append(p.learnerRows, g)
			continue
		}
		s := &p.seats[g]
		if err := s.PrepareLegal(v.State(g), v.Env(g).Legal()); err != nil {
			return fmt.Errorf("training: ppo: game %d: %w", g, err)
		}
		if bi := t.oppBatch[agent]; bi >= 0 {
			p.batches[bi].Add(s)
			p.batchGames[bi] = append(p.batchGames[bi], g)
			continue
		}
		s.Bot = t.opp[agent]
		a, err := s.Decide()
		if err != nil {
			return fmt.Errorf("training: ppo: game %d: %w", g, err)
		}
		p.actions[g] = a
	}
	return nil
}

// snapshotsAct decides the queued snapshot decisions, one batch per snapshot.
func (p *rolloutPlay) snapshotsAct() error {
	for i := range p.batches {
		b := &p.batches[i]
		if b.Len() == 0 {
			continue
		}
		out, err := b.Act(p.snap[i])
		if err != nil {
			return fmt.Errorf("training: ppo: snapshot %s: %w", p.snap[i].Name(), err)
		}
		for j, g := range p.batchGames[i] {
			p.actions[g] = out[j]
		}
	}
	return nil
}

// learnerActs samples the learner's queued decisions from one batched forward pass and
// records each with its observation, mask, log-probability and value estimate.
func (p *rolloutPlay) learnerActs(rng *rand.Rand) {
	n := len(p.learnerRows)
	if n == 0 {
		return
	}
	D, A, V := p.D, p.A, p.V
	p.net.ForwardParallel(p.wss, n, p.rowObs, p.rowMask, p.logits, p.values)
	for k, g := range p.learnerRows {
		a, lp := sampleLogits(p.logits[k*A:(k+1)*A], rng)
		p.actions[g] = a
		p.trajs[g].rows = append(p.trajs[g].rows, len(p.acts))
		p.obs = append(p.obs, p.rowObs[k*D:(k+1)*D]...)
		p.mask = append(p.mask, p.rowMask[k*A:(k+1)*A]...)
		p.acts = append(p.acts, int32(a))
		p.logp = append(p.logp, lp)
		p.vals = append(p.vals, p.values[k*V])
	}
}

// endGames records the final rewards of the games the step ended, and the learner's
// reward and win (a shared win split).
func (p *rolloutPlay) endGames() {
	v, P := p.v, p.P
	for g := range p.trajs {
		t := &p.trajs[g]
		if t.done || !(v.Terminated[g] || v.Truncated[g]) {
			continue
		}
		t.done = true
		p.remaining--
		f := make([]float32, P)
		copy(f, v.Rewards[g*P:(g+1)*P])
		p.finals[g] = f
		p.rewardSum += float64(f[t.seat])
		if sc := v.Scores[g]; v.Terminated[g] && len(sc) == P && sc[t.seat].Winner {
			k := 0
			for _, s := range sc {
				if s.Winner {
					k++
				}
			}
			p.wins += 1 / float64(k)
		}
	}
}

// rollout returns the finished games' learner decisions with their value targets: each
// seat's final reward, rotated so that index 0 is the learner.
func (p *rolloutPlay) rollout() *rollout {
	games, n, V, P := len(p.trajs), len(p.acts), p.V, p.P
	ro := &rollout{games: games, rows: n, envSteps: p.envSteps, trajs: p.trajs, finals: p.finals,
		meanReward: p.rewardSum / float64(games), winRate: p.wins / float64(games)}
	b := &ro.b
	b.Rows, b.Obs, b.Mask, b.Actions, b.OldLogp = n, p.obs, p.mask, p.acts, p.logp
	b.Values = make([]float32, n*V)
	for g := range p.trajs {
		t := &p.trajs[g]
		for _, r := range t.rows {
			for k := range V {
				b.Values[r*V+k] = p.finals[g][(t.seat+k)%P]
			}
		}
	}
	ro.vals = p.vals
	return ro
}

// advantages sets the normalised GAE advantages of the learner's decisions; the reward is
// the final one, on each game's last decision.
func (ro *rollout) advantages(gamma, lambda float64) {
	b := &ro.b
	b.Advantages = make([]float32, ro.rows)
	for g := range ro.trajs {
		t := &ro.trajs[g]
		rows := t.rows
		var gae float64
		for j := len(rows) - 1; j >= 0; j-- {
			r := rows[j]
			var reward, next float64
			if j == len(rows)-1 {
				reward = float64(ro.finals[g][t.seat])
			} else {
				next = float64(ro.vals[rows[j+1]])
			}
			delta := reward + gamma*next - float64(ro.vals[r])
			gae = delta + gamma*lambda*gae
			b.Advantages[r] = float32(gae)
		}
	}
	normalise(b.Advantages)
}

// normalise scales x to mean 0 and standard deviation 1.
func normalise(x []float32) {
	n := float64(max(len(x), 1))
	var mean, sq float64
	for _, a := range x {
		mean += float64(a)
	}
	mean /= n
	for _, a := range x {
		sq += (float64(a) - mean) * (float64(a) - mean)
	}
	std := math.Sqrt(sq/n) + 1e-8
	for i, a := range x {
		x[i] = float32((float64(a) - mean) / std)
	}
}

func firstLegal(m []float32) int {
	for a, x := range m {
		if x != 0 {
			return a
		}
	}
	return 0
}

// sampleLogits samples an action from one row of masked logits and returns it with its
// log-probability.
func sampleLogits(l []float32, rng *rand.Rand) (int, float32) {
	maxv := float32(math.Inf(-1))
	for _, x := range l {
		maxv = max(maxv, x)
	}
	var sum float64
	for _, x := range l {
		if x > maskedLogit/2 {
			sum += math.Exp(float64(x - maxv))
		}
	}
	u := rng.Float64() * sum
	last := -1
	for a, x := range l {
		if x <= maskedLogit/2 {
			continue
		}
		last = a
		u -= math.Exp(float64(x - maxv))
		if u <= 0 {
			break
		}
	}
	return last, float32(float64(l[last]-maxv) - math.Log(sum))
}
