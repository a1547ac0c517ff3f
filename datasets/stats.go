package datasets

import (
	"math"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Stats summarises a dataset (container dataset stats).
type Stats struct {
	Format          Format  `json:"format"`
	EncodingVersion string  `json:"encoding_version"`
	Seats           int     `json:"seats"`
	Shards          int     `json:"shards"`
	PlannedGames    int     `json:"planned_games"`
	Games           int     `json:"games"`
	Steps           int64   `json:"steps"`
	MeanLength      float64 `json:"mean_length"` // decisions per game
	MeanTurns       float64 `json:"mean_turns"`
	// WinsBySeat counts games each seat won (a shared win counts for every winner);
	// WinRateBySeat divides by Games.
	WinsBySeat    []int     `json:"wins_by_seat"`
	WinRateBySeat []float64 `json:"win_rate_by_seat"`
	// ByAgent is keyed by agent name.
	ByAgent map[string]*AgentStats `json:"by_agent"`
	// EndReasons counts games by why they ended.
	EndReasons map[string]int `json:"end_reasons"`
	// ActionsByPhase counts actions taken, by phase name then action name.
	ActionsByPhase map[string]map[string]int64 `json:"actions_by_phase"`
	// ProducedPrices counts the prices (in dollars) at which produced containers were first
	// placed: the place:$N actions that follow a produce action.
	ProducedPrices map[int]int64 `json:"produced_prices"`
	// Policy summarises the policy column (nil when the dataset has none).
	Policy *PolicyStats `json:"policy,omitempty"`
}

// PolicyStats summarises a policy column: a trained bot's behaviour probabilities, or a
// search's root visit shares (container train exit's buffer), over the decisions with at
// least two legal actions. A flat target (a low top probability, a high entropy) teaches a
// network which moves are common rather than which is best.
type PolicyStats struct {
	PolicyPhaseStats
	ByPhase map[string]*PolicyPhaseStats `json:"by_phase"`
}

// PolicyPhaseStats are the policy statistics of one phase (or of all).
type PolicyPhaseStats struct {
	Rows int64 `json:"rows"` // decisions with a choice
	// MeanTop is the mean probability of the most likely action; MeanEntropy the mean
	// entropy of the distribution in nats.
	MeanTop     float64 `json:"mean_top"`
	MeanEntropy float64 `json:"mean_entropy"`
	// TakenTop is the share of the decisions whose action taken has the top probability
	// (ties count): below 1 for a bot that samples or a search that breaks ties by value.
	TakenTop float64 `json:"taken_top"`
	taken    int64
}

func (p *PolicyPhaseStats) add(top, entropy float64, takenTop bool) {
	p.Rows++
	p.MeanTop += top
	p.MeanEntropy += entropy
	if takenTop {
		p.taken++
	}
}

func (p *PolicyPhaseStats) finish() {
	if p.Rows > 0 {
		p.MeanTop /= float64(p.Rows)
		p.MeanEntropy /= float64(p.Rows)
		p.TakenTop = float64(p.taken) / float64(p.Rows)
	}
}

// AgentStats is one agent's record across its seats.
type AgentStats struct {
	Seats     int     `json:"seats"` // seat-games played
	Wins      int     `json:"wins"`
	WinRate   float64 `json:"win_rate"`
	MeanScore float64 `json:"mean_score"`
	sumScore  float64
}

// Names of the actions and phases the price statistic follows (encoding's generic names).
const (
	produceAction = "produce"
	placePrefix   = "place:$"
	phasePlace    = "place"
	phaseProduce  = "produce-colour"
)

// ComputeStats reads the whole dataset once.
func (d *Dataset) ComputeStats() (*Stats, error) {
	m := d.Meta
	st := &Stats{
		Format: d.Manifest.Format, EncodingVersion: m.EncodingVersion, Seats: m.Seats,
		Shards: len(d.Manifest.Shards), PlannedGames: d.Manifest.Games,
		WinsBySeat: make([]int, m.Seats), WinRateBySeat: make([]float64, m.Seats),
		ByAgent: map[string]*AgentStats{}, EndReasons: map[string]int{},
		ActionsByPhase: map[string]map[string]int64{}, ProducedPrices: map[int]int64{},
	}
	var turns int64
	for g, err := range d.Games() {
		if err != nil {
			return nil, err
		}
		st.Games++
		turns += int64(g.Turns)
		st.EndReasons[g.EndReason]++
		for s, name := range g.Agents {
			a := st.ByAgent[name]
			if a == nil {
				a = &AgentStats{}
				st.ByAgent[name] = a
			}
			a.Seats++
			a.sumScore += float64(g.Scores[s].Total)
		}
		for _, w := range g.Winners {
			st.WinsBySeat[w]++
			st.ByAgent[g.Agents[w]].Wins++
		}
	}
	phaseName := func(p uint8) string {
		if int(p) < len(m.PhaseNames) {
			return m.PhaseNames[p]
		}
		return "phase:" + strconv.Itoa(int(p))
	}
	actionName := func(a int32) string {
		if int(a) < len(m.ActionNames) {
			return m.ActionNames[a]
		}
		return "action:" + strconv.Itoa(int(a))
	}
	// Counting by small integer keys first keeps map work out of the per-step loop.
	counts := map[[2]int32]int64{}
	var lastGame uint64
	producing := false
	cols := []string{ColGameID, ColPhase, ColAction}
	var pol map[uint8]*PolicyPhaseStats
	if m.Policy {
		cols = append(cols, ColLegalMask, ColPolicy)
		st.Policy = &PolicyStats{ByPhase: map[string]*PolicyPhaseStats{}}
		pol = map[uint8]*PolicyPhaseStats{}
	}
	for rec, err := range d.StepRecords(cols...) {
		if err != nil {
			return nil, err
		}
		gameIDs, err := column[*array.Uint64](rec, ColGameID)
		if err != nil {
			return nil, err
		}
		phases, err := phaseCodes(rec, m.PhaseNames)
		if err != nil {
			return nil, err
		}
		actions, err := column[*array.Int32](rec, ColAction)
		if err != nil {
			return nil, err
		}
		if m.Policy {
			if err := policyStats(rec, m.NumActions, phases, actions, pol, &st.Policy.PolicyPhaseStats); err != nil {
				return nil, err
			}
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			st.Steps++
			ph, a := phases.Value(i), actions.Value(i)
			counts[[2]int32{int32(ph), a}]++
			if g := gameIDs.Value(i); g != lastGame {
				lastGame, producing = g, false
			}
			name := actionName(a)
			switch pn := phaseName(ph); {
			case name == produceAction:
				producing = true
			case producing && pn == phasePlace && strings.HasPrefix(name, placePrefix):
				if p, err := strconv.Atoi(name[len(placePrefix):]); err == nil {
					st.ProducedPrices[p]++
				}
			case producing && pn == phaseProduce:
			default:
				producing = false
			}
		}
	}
	for k, n := range counts {
		pn := phaseName(uint8(k[0]))
		if st.ActionsByPhase[pn] == nil {
			st.ActionsByPhase[pn] = map[string]int64{}
		}
		st.ActionsByPhase[pn][actionName(k[1])] += n
	}
	if st.Games > 0 {
		st.MeanLength = float64(st.Steps) / float64(st.Games)
		st.MeanTurns = float64(turns) / float64(st.Games)
		for s := range st.WinsBySeat {
			st.WinRateBySeat[s] = float64(st.WinsBySeat[s]) / float64(st.Games)
		}
	}
	for _, a := range st.ByAgent {
		a.WinRate = float64(a.Wins) / float64(a.Seats)
		a.MeanScore = a.sumScore / float64(a.Seats)
	}
	if st.Policy != nil {
		st.Policy.finish()
		for ph, p := range pol {
			p.finish()
			st.Policy.ByPhase[phaseName(ph)] = p
		}
	}
	return st, nil
}

// policyStats adds one steps record's decisions with a choice to the policy statistics
// (by phase code, and all).
func policyStats(rec arrow.RecordBatch, numActions int, codes PhaseCodes, actions *array.Int32, byPhase map[uint8]*PolicyPhaseStats, all *PolicyPhaseStats) error {
	masks, err := column[*array.FixedSizeBinary](rec, ColLegalMask)
	if err != nil {
		return err
	}
	probs, err := flatFloats(rec, ColPolicy, numActions)
	if err != nil {
		return err
	}
	for i := 0; i < int(rec.NumRows()); i++ {
		legal := 0
		for _, b := range masks.Value(i) {
			legal += bits.OnesCount8(b)
		}
		if legal < 2 {
			continue
		}
		row := probs[i*numActions : (i+1)*numActions]
		top, entropy := 0.0, 0.0
		for _, p := range row {
			q := float64(p)
			top = max(top, q)
			if q > 0 {
				entropy -= q * math.Log(q)
			}
		}
		taken := false
		if a := int(actions.Value(i)); a >= 0 && a < numActions {
			taken = float64(row[a]) >= top-1e-6
		}
		ph := codes[i]
		p := byPhase[ph]
		if p == nil {
			p = &PolicyPhaseStats{}
			byPhase[ph] = p
		}
		p.add(top, entropy, taken)
		all.add(top, entropy, taken)
	}
	return nil
}

// AgentNames returns the agents in Stats.ByAgent, sorted.
func (st *Stats) AgentNames() []string {
	out := make([]string, 0, len(st.ByAgent))
	for n := range st.ByAgent {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
