package bridge

import (
	"encoding/json"
	"fmt"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
)

// Status entries an Env writes after every Reset and Step (int64 each).
const (
	StAgent      = iota // seat deciding now, -1 once the game is over
	StTerminated        // 1 when the game ended by the rules
	StTruncated         // 1 when Options.MaxSteps cut the episode
	StPhase             // the pending decision's rules.Phase (PhaseTerminal at the end)
	StNumLegal          // legal actions of the decider (the first entries of the legal buffer)
	StTurn              // turns begun, minus one
	StSteps             // decisions applied in this episode
	StLastAgent         // the seat that decided last (-1 before the first step)
	StatusLen
)

// Sizes are an option set's buffer sizes.
type Sizes struct {
	Obs, Actions, Players int
}

// EnvBuffers are the caller-owned outputs an Env writes: the current decider's observation
// (D) and byte mask (A), its legal ids (A, ascending, the first Status[StNumLegal] valid), the
// last step's reward per seat (P), each seat's reward since it last acted (P, PettingZoo's
// _cumulative_rewards), each seat's episode total (P) and the status (StatusLen).
type EnvBuffers struct {
	Obs                   []float32
	Mask                  []int8
	Legal                 []int32
	Rewards, Since, Total []float32
	Status                []int64
}

// Env is one game for the C caller.
type Env struct {
	busy
	e     *env.Env
	b     EnvBuffers
	sizes Sizes
	opp   *opponents // Go bots in some seats (EnvSetOpponents), or nil
}

// SizesOf returns the buffer sizes of an options JSON object (see ParseOptions).
func SizesOf(optsJSON string) (Sizes, error) {
	o, err := ParseOptions(optsJSON, env.DefaultOptions())
	if err != nil {
		return Sizes{}, err
	}
	d, err := env.ObsSize(o.Rules)
	if err != nil {
		return Sizes{}, err
	}
	return Sizes{Obs: d, Actions: env.NumActions(), Players: o.Rules.Players}, nil
}

func (s Sizes) check(b EnvBuffers) error {
	for _, c := range []struct {
		name      string
		got, want int
	}{{"observation", len(b.Obs), s.Obs}, {"mask", len(b.Mask), s.Actions}, {"legal", len(b.Legal), s.Actions},
		{"reward", len(b.Rewards), s.Players}, {"since", len(b.Since), s.Players}, {"total", len(b.Total), s.Players},
		{"status", len(b.Status), StatusLen}} {
		if c.got != c.want {
			return errBuf(c.name, c.got, c.want)
		}
	}
	return nil
}

// NewEnv makes an environment writing into b; call EnvReset before stepping.
func NewEnv(optsJSON string, b EnvBuffers) (int64, error) {
	o, err := ParseOptions(optsJSON, env.DefaultOptions())
	if err != nil {
		return 0, err
	}
	e, err := env.New(o)
	if err != nil {
		return 0, err
	}
	s := Sizes{Obs: e.ObsSize(), Actions: e.NumActions(), Players: e.NumPlayers()}
	if err := s.check(b); err != nil {
		return 0, err
	}
	for i := range b.Status {
		b.Status[i] = 0
	}
	b.Status[StAgent], b.Status[StLastAgent], b.Status[StTerminated] = -1, -1, 1
	return put(&Env{e: e, b: b, sizes: s}), nil
}

func getEnv(h int64) (*Env, error) {
	x, err := get[*Env](h, "env")
	if err != nil {
		return nil, err
	}
	return x, x.enter("env", h)
}

// EnvReset starts a new game from seed. optsJSON ("" for none) changes options for this and
// later games; it may not change the player count or the observation size.
func EnvReset(h int64, seed uint64, optsJSON string) error {
	x, err := getEnv(h)
	if err != nil {
		return err
	}
	defer x.leave()
	if optsJSON != "" {
		o, err := ParseOptions(optsJSON, x.e.Options())
		if err != nil {
			return err
		}
		e, err := env.New(o)
		if err != nil {
			return err
		}
		if e.NumPlayers() != x.sizes.Players || e.ObsSize() != x.sizes.Obs {
			return fmt.Errorf("%w: reset options may not change the players (%d) or the observation size (%d); make a new env",
				env.ErrInvalidOptions, x.sizes.Players, x.sizes.Obs)
		}
		x.e = e
		if x.opp != nil {
			if err := x.opp.remake(e.Options().Rules); err != nil {
				return err
			}
		}
	}
	x.e.Reset(seed)
	if x.opp != nil {
		if err := x.opp.reseed(seed); err != nil {
			return err
		}
	}
	clear(x.b.Since)
	x.write()
	x.b.Status[StLastAgent] = -1
	return nil
}

// EnvStep applies the current decider's action and writes the outputs. An illegal action or
// a finished episode is an error and changes nothing.
func EnvStep(h int64, action int) error {
	x, err := getEnv(h)
	if err != nil {
		return err
	}
	defer x.leave()
	if err := x.step(action); err != nil {
		return err
	}
	x.write()
	return nil
}

// step applies action for the current decider and adds the rewards to Since (the caller
// writes the rest of the outputs once it stops stepping).
func (x *Env) step(action int) error {
	agent := x.e.Agent()
	if _, err := x.e.Step(action); err != nil {
		return err
	}
	x.b.Since[agent] = 0
	for i, v := range x.e.Rewards() {
		x.b.Since[i] += v
	}
	x.b.Status[StLastAgent] = int64(agent)
	return nil
}

// write copies the env's position outputs into the caller's buffers (Since is kept up to
// date by step and EnvReset).
func (x *Env) write() {
	e, b := x.e, x.b
	copy(b.Obs, e.Obs())
	clear(b.Mask)
	legal := e.Legal()
	for i, id := range legal {
		b.Mask[id] = 1
		b.Legal[i] = int32(id)
	}
	copy(b.Rewards, e.Rewards())
	copy(b.Total, e.CumulativeRewards())
	st := e.State()
	b.Status[StAgent] = int64(e.Agent())
	if e.Done() {
		b.Status[StAgent] = -1 // a truncated episode keeps the decider in env.Env
	}
	b.Status[StTerminated] = boolInt(e.Done() && st.IsTerminal())
	b.Status[StTruncated] = boolInt(e.Done() && !st.IsTerminal())
	b.Status[StPhase] = int64(st.Phase())
	b.Status[StNumLegal] = int64(len(legal))
	b.Status[StTurn] = int64(st.Turn)
	b.Status[StSteps] = int64(st.Steps)
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// EnvObserve writes seat's observation of the current position into obs and its mask into
// mask (all zero unless seat decides now).
func EnvObserve(h int64, seat int, obs []float32, mask []int8) error {
	x, err := getEnv(h)
	if err != nil {
		return err
	}
	defer x.leave()
	if len(obs) != x.sizes.Obs {
		return errBuf("observation", len(obs), x.sizes.Obs)
	}
	if len(mask) != x.sizes.Actions {
		return errBuf("mask", len(mask), x.sizes.Actions)
	}
	if seat < 0 || seat >= x.sizes.Players {
		return fmt.Errorf("%w: seat %d; the game has seats 0 to %d", ErrInvalid, seat, x.sizes.Players-1)
	}
	if err := x.e.Observe(seat, obs); err != nil {
		return err
	}
	clear(mask)
	if seat == x.e.Agent() {
		for _, id := range x.e.Legal() {
			mask[id] = 1
		}
	}
	return nil
}

// EnvOracle writes the all-information encoding rotated for seat into obs (for centralised
// critics; never give it to a policy).
func EnvOracle(h int64, seat int, obs []float32) error {
	x, err := getEnv(h)
	if err != nil {
		return err
	}
	defer x.leave()
	if len(obs) != x.sizes.Obs {
		return errBuf("observation", len(obs), x.sizes.Obs)
	}
	if seat < 0 || seat >= x.sizes.Players {
		return fmt.Errorf("%w: seat %d; the game has seats 0 to %d", ErrInvalid, seat, x.sizes.Players-1)
	}
	return x.e.ObserveOracle(seat, obs)
}

// EnvInfoJSON describes the env: options, sizes, the current seed, phase names, and the last
// episode's final scores (null until an episode ends).
func EnvInfoJSON(h int64) (string, error) {
	x, err := getEnv(h)
	if err != nil {
		return "", err
	}
	defer x.leave()
	var scores []rules.Score
	if x.e.State() != nil && x.e.Done() {
		scores = x.e.State().Scores()
	}
	out := map[string]any{"options": optionsOut(x.e.Options()), "obs_size": x.sizes.Obs,
		"num_actions": x.sizes.Actions, "players": x.sizes.Players, "seed": x.e.Seed(),
		"encoding": x.e.Spec().Version, "scores": scores}
	if x.e.State() != nil {
		out["position"] = json.RawMessage(mustPosition(x.e.State()))
	}
	b, err := json.Marshal(out)
	return string(b), err
}

func mustPosition(s *rules.State) []byte {
	b, err := s.MarshalPosition()
	if err != nil {
		b, _ = json.Marshal(err.Error())
	}
	return b
}

// EnvRecordJSON is the current episode as a game record (container-game/1 JSON): options,
// seed and every action so far, for replay with the container command.
func EnvRecordJSON(h int64) (string, error) {
	x, err := getEnv(h)
	if err != nil {
		return "", err
	}
	defer x.leave()
	if x.e.State() == nil {
		return "", env.ErrNotReset
	}
	b, err := rules.NewRecord(x.e.State(), x.e.Seed()).MarshalRecord()
	return string(b), err
}

// EnvRenderText is the text board of the current position (rules.State.Render) as viewer
// sees it; viewer -1 draws the omniscient board.
func EnvRenderText(h int64, viewer int) (string, error) {
	x, err := getEnv(h)
	if err != nil {
		return "", err
	}
	defer x.leave()
	if x.e.State() == nil {
		return "", env.ErrNotReset
	}
	if viewer < -1 || viewer >= x.sizes.Players {
		return "", fmt.Errorf("%w: viewer %d; want -1 (everything) or a seat from 0 to %d", ErrInvalid, viewer, x.sizes.Players-1)
	}
	return x.e.State().Render(viewer), nil
}
