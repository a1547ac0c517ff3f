package training

import (
	"encoding/json"
	"fmt"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// Readings of a value head output v as a probability of winning.
const (
	// ReadWin reads v as the seat's expected win share, clamped to 0..1: what a head trained
	// on win-loss rewards (+1 for the winner, 1/k each for k tied winners, 0 otherwise)
	// predicts.
	ReadWin = "win"
	// ReadSearch reads v as the search does (SearchEvaluator): (v+1)/2 clamped to 0..1, right
	// for a head trained on rank rewards in [-1, 1].
	ReadSearch = "search"
	// ReadRank reads v as the search does ((v+1)/2) and scores it against the seat's rank
	// score instead of its win share: 1 for first place, 0 for last, (n-1-pos)/(n-1) for
	// position pos (tied seats share the mean of their positions), the rank reward mapped to
	// 0..1. What a head trained on rank rewards predicts.
	ReadRank = "rank"
)

// CalibrationPhases names the thirds of a game by the share of its decisions played.
var CalibrationPhases = []string{"opening", "middle", "end"}

// ReliabilityBin is one bin of predicted win probabilities: how many predictions fell into
// [Lo, Hi), their mean, and the mean win share of the seats they were about.
type ReliabilityBin struct {
	Lo, Hi    float64
	N         int
	Predicted float64
	Observed  float64
}

// PhaseCalibration is the calibration over one phase of the games (or all of them).
type PhaseCalibration struct {
	Phase       string
	Decisions   int // dataset rows
	Predictions int // rows times seats: every seat's value output is a prediction
	// Brier is the mean squared error of the predicted win probability (the reading's) against
	// each seat's win share (1/k for k tied winners, else 0), over every seat's output;
	// BrierDecider the same for the deciding seat's output only; BrierOther the other
	// reading's Brier over every seat; BrierBase that of predicting the base rate (the mean
	// win share, 1/players) everywhere. Skill is 1 - Brier/BrierBase (0: no better than the
	// base rate, 1: perfect; 0 when every outcome is the same).
	Brier, BrierDecider, BrierOther, BrierBase, Skill float64
	// MeanPredicted and MeanObserved are the mean predicted win probability and win share.
	MeanPredicted, MeanObserved float64
	Bins                        []ReliabilityBin
}

// Calibration is how well a network's value head predicts the winners of finished games.
type Calibration struct {
	Agent     string
	Data      string
	Reading   string
	Players   int
	Games     int
	Decisions int
	// Phases holds opening, middle and end (CalibrationPhases), then "all".
	Phases []PhaseCalibration
	// ByDecider holds the whole games' calibration split by the agent deciding (Phase is
	// the agent's name), in the order the agents first appear: a network trained on the
	// positions where it decided may read others' positions differently.
	ByDecider []PhaseCalibration
}

// CalibrateOptions are Calibrate's settings.
type CalibrateOptions struct {
	// Agent is "default" (the shipped model for the dataset's options) or a .bot file.
	Agent string
	// Reading is ReadWin or ReadSearch ("" means ReadWin).
	Reading string
	// Bins is the number of equal-width probability bins of the reliability table (0: 10).
	Bins int
}

// CalibrationBotFile returns the bot file an agent names for games with opts: the shipped
// model of "default" for opts, or a .bot file (checked against opts).
func CalibrationBotFile(agent string, opts rules.Options) (*BotFile, error) {
	if agent == bots.DefaultName {
		return DefaultBotFor(opts)
	}
	if !bots.IsFileName(agent) {
		return nil, fmt.Errorf("training: calibrate: agent %s: want %q or a path to a .bot file (a network with a value head)", rules.Quote(agent), bots.DefaultName)
	}
	b, err := LoadBotForGame(agent, opts, 0)
	if err != nil {
		return nil, err
	}
	return b.File(), nil
}

// Calibrate measures the value head of opts.Agent's network on every decision of the
// dataset in dir: each seat's value output (the head predicts every seat's outcome, relative
// to the decider) read as a probability of winning (opts.Reading) against that seat's win
// share in the game's result. The dataset's observations are fed to the network as they are,
// so its encoding must be the network's; its games should be ones the network was not
// trained on.
func Calibrate(dir string, opts CalibrateOptions) (*Calibration, error) {
	reading := opts.Reading
	if reading == "" {
		reading = ReadWin
	}
	if reading != ReadWin && reading != ReadSearch && reading != ReadRank {
		return nil, fmt.Errorf("training: calibrate: reading %s: want %s, %s or %s", rules.Quote(reading), ReadWin, ReadSearch, ReadRank)
	}
	nbins := opts.Bins
	if nbins == 0 {
		nbins = 10
	}
	if nbins < 1 || nbins > 1000 {
		return nil, fmt.Errorf("training: calibrate: %d bins: want 1 to 1000", nbins)
	}
	ds, err := datasets.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("training: calibrate: %w", err)
	}
	m := ds.Meta
	ro := rules.DefaultOptions()
	if len(m.RulesOptions) > 0 {
		if err := json.Unmarshal(m.RulesOptions, &ro); err != nil {
			return nil, fmt.Errorf("training: calibrate: %s: the dataset's rules options: %w", dir, err)
		}
	}
	f, err := CalibrationBotFile(opts.Agent, ro)
	if err != nil {
		return nil, fmt.Errorf("training: calibrate: %w", err)
	}
	if f.Header.EncodingVersion != m.EncodingVersion || f.Weights.Config.ObsDim != m.ObsDim {
		return nil, fmt.Errorf("training: calibrate: %w: %s was trained on observations %q (%d features), the dataset holds %q (%d features)",
			ErrIncompatible, opts.Agent, f.Header.EncodingVersion, f.Weights.Config.ObsDim, m.EncodingVersion, m.ObsDim)
	}
	if m.EncodingVersion != encoding.Version {
		return nil, fmt.Errorf("training: calibrate: %w: the dataset's observations are %q, this build reads %q", ErrIncompatible, m.EncodingVersion, encoding.Version)
	}
	net, err := NewNet(f.Weights)
	if err != nil {
		return nil, err
	}
	P, V := m.Seats, net.Config().ValueDim
	if V < P {
		return nil, fmt.Errorf("training: calibrate: %s has %d value outputs for %d seats", opts.Agent, V, P)
	}

	// Every game's result: each seat's win share, and the game's length in decisions.
	type result struct {
		share  []float64 // win share per seat
		rank   []float64 // rank score per seat (ReadRank's outcome)
		length int
		agents []string
	}
	results := map[uint64]result{}
	for g, err := range ds.Games() {
		if err != nil {
			return nil, fmt.Errorf("training: calibrate: %w", err)
		}
		r := result{share: make([]float64, P), rank: RankScores(g.Scores, P), length: int(g.Length), agents: g.Agents}
		for _, s := range g.Winners {
			if int(s) < P {
				r.share[s] = 1 / float64(len(g.Winners))
			}
		}
		results[g.GameID] = r
	}

	acc := make([]calAcc, len(CalibrationPhases)+1)
	for i := range acc {
		acc[i].bins = make([]ReliabilityBin, nbins)
	}
	byAgent := map[string]*calAcc{}
	var agentOrder []string
	var ws Workspace
	values := make([]float32, 0)
	rows := 0
	for c, err := range ds.StepBatches() {
		if err != nil {
			return nil, fmt.Errorf("training: calibrate: %w", err)
		}
		n := c.Rec.NumRows()
		if cap(values) < int(n)*V {
			values = make([]float32, int(n)*V)
		}
		values = values[:int(n)*V]
		net.Forward(&ws, int(n), c.Obs, nil, nil, values)
		for i := 0; i < int(n); i++ {
			r, ok := results[c.GameID.Value(i)]
			if !ok {
				return nil, fmt.Errorf("training: calibrate: %s: step of game %d, which the games table does not hold", dir, c.GameID.Value(i))
			}
			ph := 0
			if r.length > 0 {
				ph = min(len(CalibrationPhases)-1, int(c.Step.Value(i))*len(CalibrationPhases)/r.length)
			}
			d := int(c.Decider.Value(i))
			name := fmt.Sprintf("seat %d", d)
			if d < len(r.agents) {
				name = r.agents[d]
			}
			ag := byAgent[name]
			if ag == nil {
				ag = &calAcc{bins: make([]ReliabilityBin, nbins)}
				byAgent[name] = ag
				agentOrder = append(agentOrder, name)
			}
			ag.rows++
			for k := 0; k < P; k++ {
				v := float64(values[i*V+k])
				y := r.share[(d+k)%P]
				pw, ps := min(1, max(0, v)), min(1, max(0, (v+1)/2))
				p, other, yOther := pw, ps, y
				switch reading {
				case ReadSearch:
					p, other = ps, pw
				case ReadRank: // the other reading: the same output as a win probability
					p, other, y = ps, ps, r.rank[(d+k)%P]
				}
				for _, a := range []*calAcc{&acc[ph], &acc[len(acc)-1], ag} {
					a.add(p, other, y, yOther, k == 0)
				}
			}
			rows++
			acc[ph].rows++
			acc[len(acc)-1].rows++
		}
	}
	if rows == 0 {
		return nil, fmt.Errorf("training: calibrate: %s holds no decisions", dir)
	}
	out := &Calibration{Agent: opts.Agent, Data: dir, Reading: reading, Players: P, Games: len(results), Decisions: rows}
	for i, a := range acc {
		name := "all"
		if i < len(CalibrationPhases) {
			name = CalibrationPhases[i]
		}
		out.Phases = append(out.Phases, a.result(name, nbins))
	}
	for _, name := range agentOrder {
		out.ByDecider = append(out.ByDecider, byAgent[name].result(name, nbins))
	}
	return out, nil
}

// calAcc accumulates one phase's predictions.
type calAcc struct {
	rows, n, nDecider                      int
	sq, sqOther, sqDecider, sumP, sumY, y2 float64
	bins                                   []ReliabilityBin
}

// add records the prediction p of outcome y, and other, the other reading's prediction of
// its outcome yOther (y itself except for the rank reading, whose other is the win share).
func (a *calAcc) add(p, other, y, yOther float64, decider bool) {
	a.n++
	a.sq += (p - y) * (p - y)
	a.sqOther += (other - yOther) * (other - yOther)
	a.sumP += p
	a.sumY += y
	a.y2 += y * y
	if decider {
		a.nDecider++
		a.sqDecider += (p - y) * (p - y)
	}
	b := min(len(a.bins)-1, int(p*float64(len(a.bins))))
	a.bins[b].N++
	a.bins[b].Predicted += p
	a.bins[b].Observed += y
}

func (a *calAcc) result(phase string, nbins int) PhaseCalibration {
	r := PhaseCalibration{Phase: phase, Decisions: a.rows, Predictions: a.n}
	if a.n == 0 {
		return r
	}
	n := float64(a.n)
	r.Brier, r.BrierOther = a.sq/n, a.sqOther/n
	if a.nDecider > 0 {
		r.BrierDecider = a.sqDecider / float64(a.nDecider)
	}
	r.MeanPredicted, r.MeanObserved = a.sumP/n, a.sumY/n
	r.BrierBase = a.y2/n - r.MeanObserved*r.MeanObserved // the variance of the outcomes
	if r.BrierBase > 0 {
		r.Skill = 1 - r.Brier/r.BrierBase
	}
	for i, b := range a.bins {
		b.Lo, b.Hi = float64(i)/float64(nbins), float64(i+1)/float64(nbins)
		if b.N > 0 {
			b.Predicted /= float64(b.N)
			b.Observed /= float64(b.N)
		}
		r.Bins = append(r.Bins, b)
	}
	return r
}

// RankScores returns each seat's rank score in a finished game: (n-1-pos)/(n-1) for its
// finishing position pos from 0 (first) to n-1 (last), where seats of equal rank share the
// mean of their positions; the rank reward (env.Rank) mapped from -1..1 to 0..1.
func RankScores(scores []datasets.Score, players int) []float64 {
	out := make([]float64, players)
	n := min(players, len(scores))
	if n < 2 {
		return out
	}
	for i := range n {
		better, equal := 0, 0
		for j := range n {
			switch {
			case scores[j].Rank < scores[i].Rank:
				better++
			case scores[j].Rank == scores[i].Rank && j != i:
				equal++
			}
		}
		pos := float64(better) + float64(equal)/2
		out[i] = (float64(n-1) - pos) / float64(n-1)
	}
	return out
}
