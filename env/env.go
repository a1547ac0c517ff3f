package env

import (
	"errors"
	"fmt"
	"math"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

// ErrInvalidOptions is wrapped by errors for bad environment options.
var ErrInvalidOptions = errors.New("env: invalid options")

// ErrEpisodeOver is wrapped by Step errors after the episode has terminated or been truncated.
var ErrEpisodeOver = errors.New("env: episode is over; call Reset")

// ErrNotReset is wrapped by errors for stepping or observing before the first Reset.
var ErrNotReset = errors.New("env: no episode yet; call Reset")

// DefaultMarginScale is the CashMargin divisor used when Options.MarginScale is 0.
const DefaultMarginScale = 100

// Options configure an environment.
type Options struct {
	// Rules are the game options (players, variant, modules, length, supply overrides).
	// Rules.Seed is not used: Reset takes the seed.
	Rules rules.Options `json:"rules"`
	// Reward selects the reward scheme (default WinLoss).
	Reward RewardScheme `json:"reward"`
	// MarginScale is the CashMargin divisor in dollars (0 means DefaultMarginScale).
	MarginScale float64 `json:"margin_scale,omitempty"`
	// Dense pays the scheme's reward as it changes instead of at the end: after every step
	// each seat receives phi(now) - phi(before), where phi is the scheme applied to the
	// scores as if the game ended now (State.Scores) and phi is 0 before the first step. The
	// rewards of a finished episode therefore add up to the sparse final rewards. It costs a
	// scoring pass (and an allocation) per step.
	Dense bool `json:"dense,omitempty"`
	// MaxSteps truncates an episode after this many decisions (0: never; the rules' turn
	// limit still ends every game). A truncated episode gives zero rewards.
	MaxSteps int `json:"max_steps,omitempty"`
	// HideOpponentCash leaves the other players' cash out of every observation (observation
	// version encoding.HiddenCashVersion); scripted bots, which read the rules' redacted view,
	// still see it. See encoding.Options.
	HideOpponentCash bool `json:"hide_opponent_cash,omitempty"`
}

// Encoding is the observation variant the options select.
func (o Options) Encoding() encoding.Options {
	return encoding.Options{HideOpponentCash: o.HideOpponentCash}
}

// DefaultOptions is a 4-player base game with win/loss rewards.
func DefaultOptions() Options { return Options{Rules: rules.DefaultOptions()} }

// Validate checks the options.
func (o Options) Validate() error {
	if err := o.Rules.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidOptions, err)
	}
	if o.Reward >= numRewardSchemes {
		return fmt.Errorf("%w: reward scheme %d", ErrInvalidOptions, o.Reward)
	}
	if o.MarginScale < 0 || math.IsNaN(o.MarginScale) || math.IsInf(o.MarginScale, 0) {
		return fmt.Errorf("%w: margin scale %g must be a positive number of dollars", ErrInvalidOptions, o.MarginScale)
	}
	if o.MaxSteps < 0 {
		return fmt.Errorf("%w: max steps %d is negative", ErrInvalidOptions, o.MaxSteps)
	}
	return nil
}

// Info describes the position after a step.
type Info struct {
	Phase    rules.Phase // pending decision (PhaseTerminal at the end)
	Decider  int         // seat deciding now, -1 at the end
	NumLegal int         // legal actions of the decider (0 at the end)
	Turn     int         // turns begun, minus one
	Steps    int         // decisions applied in this episode
	// Scores is every seat's final-scoring breakdown, set only on the step that terminates
	// or truncates the episode (for a truncation: as if the game ended then).
	Scores []rules.Score
}

// StepResult is what Step returns. Its slices alias the environment's buffers and stay valid
// until the next Step or Reset.
type StepResult struct {
	// Obs is the observation of the next decider (after the game's end: of the seat that
	// moved last). After a truncation Obs, Mask and Agent describe the position where the
	// episode stopped, so a learner can bootstrap from it.
	Obs []float32
	// Mask is the next decider's legal-action mask (all zero after the game's end).
	Mask []float32
	// Agent is the next decider, or -1 after the game's end.
	Agent int
	// Rewards holds this step's reward for every seat (length Players).
	Rewards    []float32
	Terminated bool
	Truncated  bool
	Info       Info
}

// Env is one game as an agent-by-agent (PettingZoo AEC style) environment: Agent says which
// seat decides now, Step applies that seat's action and returns the next decider's
// observation and every seat's reward. An Env is not safe for concurrent use.
type Env struct {
	opts  Options
	game  *rules.Game
	enc   *encoding.Encoder
	state *rules.State

	obs, mask    []float32
	rewards, cum []float32
	phi          []float32 // Dense: potential after the last step
	scores       []rules.Score

	agent, lastAgent      int
	terminated, truncated bool
	numLegal              int
	seed                  uint64
}

// New returns an environment; call Reset before Step.
func New(o Options) (*Env, error) {
	return newEnv(o, nil, nil, nil)
}

// newEnv lets VecEnv hand in slices of its contiguous buffers (nil: allocate).
func newEnv(o Options, obs, mask, rewards []float32) (*Env, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	g, err := rules.NewGame(o.Rules)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidOptions, err)
	}
	enc := encoding.NewEncoderWith(g, o.Encoding())
	if obs == nil {
		obs = make([]float32, enc.Size())
	}
	if mask == nil {
		mask = make([]float32, enc.NumActions())
	}
	if rewards == nil {
		rewards = make([]float32, o.Rules.Players)
	}
	e := &Env{opts: o, game: g, enc: enc, obs: obs, mask: mask, rewards: rewards,
		cum: make([]float32, o.Rules.Players), phi: make([]float32, o.Rules.Players), agent: -1, lastAgent: -1, terminated: true}
	return e, nil
}

// ObsSize is the observation length D for the rules options (the same for 3, 4 and 5
// players; modules add features).
func ObsSize(o rules.Options) (int, error) {
	s, err := encoding.NewSpec(o)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrInvalidOptions, err)
	}
	return s.Size, nil
}

// NumActions is the action-space size A, the same for every option set.
func NumActions() int { return rules.NumDistinctActions() }

// Options returns the environment's options.
func (e *Env) Options() Options { return e.opts }

// Game returns the rules' game facts.
func (e *Env) Game() *rules.Game { return e.game }

// Encoder returns the environment's encoder (its Spec names the observation features).
func (e *Env) Encoder() *encoding.Encoder { return e.enc }

// Spec returns the observation spec.
func (e *Env) Spec() *encoding.Spec { return e.enc.Spec() }

// ObsSize is the observation length D.
func (e *Env) ObsSize() int { return e.enc.Size() }

// NumActions is the action-space size A (the mask length).
func (e *Env) NumActions() int { return rules.NumDistinctActions() }

// NumPlayers is the number of seats.
func (e *Env) NumPlayers() int { return e.opts.Rules.Players }

// State returns the current position. Bots decide from a redacted view of it
// (State.Redact); callers must not modify it.
func (e *Env) State() *rules.State { return e.state }

// Seed returns the seed of the current episode.
func (e *Env) Seed() uint64 { return e.seed }

// Agent is the seat deciding now, or -1 when the episode is over.
func (e *Env) Agent() int { return e.agent }

// Done reports whether the episode has terminated or been truncated.
func (e *Env) Done() bool { return e.terminated || e.truncated }

// Reset starts a new game from seed and returns the first decider's observation (aliasing
// the env's buffer) and info. It sets the new game up in the previous game's State (the
// pointer State returns stays the same), allocating nothing after the first Reset.
func (e *Env) Reset(seed uint64) ([]float32, Info) {
	if e.state == nil {
		e.state = e.game.NewInitialStateSeed(seed)
	} else {
		e.game.ResetState(e.state, seed)
	}
	e.seed = seed
	e.terminated, e.truncated = false, false
	clear(e.rewards)
	clear(e.cum)
	clear(e.phi)
	e.scores = nil
	e.lastAgent = -1
	e.refresh()
	return e.obs, e.info()
}

// refresh encodes the observation and mask of the current decider.
func (e *Env) refresh() {
	s := e.state
	if s.IsTerminal() {
		e.agent = -1
		e.numLegal = 0
		clear(e.mask)
		if e.lastAgent >= 0 {
			_ = e.enc.Observe(s, e.lastAgent, e.obs)
		}
		return
	}
	e.agent = s.CurrentPlayer()
	e.lastAgent = e.agent
	_ = e.enc.Observe(s, e.agent, e.obs)
	e.numLegal, _ = e.enc.Mask(s, e.mask)
}

func (e *Env) info() Info {
	return Info{Phase: e.state.Phase(), Decider: e.agent, NumLegal: e.numLegal, Turn: int(e.state.Turn),
		Steps: int(e.state.Steps), Scores: e.scores}
}

// Step applies the current decider's action. An out-of-range or illegal action returns an
// error wrapping rules.ErrIllegalAction and changes nothing; stepping a finished episode
// returns an error wrapping ErrEpisodeOver.
func (e *Env) Step(action int) (StepResult, error) {
	if e.state == nil {
		return StepResult{}, ErrNotReset
	}
	if e.Done() {
		return StepResult{}, ErrEpisodeOver
	}
	if action < 0 || action >= len(e.mask) || e.mask[action] == 0 {
		return StepResult{}, fmt.Errorf("env: action %d (%s) for seat %d in phase %s: %w",
			action, encoding.ActionName(action), e.agent, e.state.Decision().Phase, rules.ErrIllegalAction)
	}
	e.step(action)
	return e.result(), nil
}

// step applies a known-legal action.
func (e *Env) step(action int) {
	e.state.Apply(action)
	clear(e.rewards)
	e.refresh()
	if e.state.IsTerminal() {
		e.terminated = true
		e.scores = e.state.Scores()
		FinalRewards(e.opts.Reward, e.opts.MarginScale, e.scores, e.rewards)
		if e.opts.Dense {
			for i := range e.rewards {
				e.rewards[i], e.phi[i] = e.rewards[i]-e.phi[i], e.rewards[i]
			}
		}
	} else if e.opts.Dense {
		FinalRewards(e.opts.Reward, e.opts.MarginScale, e.state.Scores(), e.rewards)
		for i := range e.rewards {
			e.rewards[i], e.phi[i] = e.rewards[i]-e.phi[i], e.rewards[i]
		}
	}
	for i, r := range e.rewards {
		e.cum[i] += r
	}
	if !e.terminated && e.opts.MaxSteps > 0 && int(e.state.Steps) >= e.opts.MaxSteps {
		e.truncated = true
		e.scores = e.state.Scores()
	}
}

func (e *Env) result() StepResult {
	return StepResult{Obs: e.obs, Mask: e.mask, Agent: e.agent, Rewards: e.rewards,
		Terminated: e.terminated, Truncated: e.truncated, Info: e.info()}
}

// Last returns, PettingZoo style, what the current decider needs: its observation, its
// cumulative reward so far in the episode, whether the episode terminated or was truncated,
// and the info. After the end it describes the seat that moved last.
func (e *Env) Last() (obs []float32, cumReward float32, terminated, truncated bool, info Info) {
	seat := e.agent
	if seat < 0 {
		seat = e.lastAgent
	}
	var r float32
	if seat >= 0 {
		r = e.cum[seat]
	}
	return e.obs, r, e.terminated, e.truncated, e.info()
}

// Obs returns the current decider's observation (aliasing the env's buffer).
func (e *Env) Obs() []float32 { return e.obs }

// Mask returns the current decider's legal-action mask (aliasing the env's buffer).
func (e *Env) Mask() []float32 { return e.mask }

// Legal returns the current decider's legal action ids, ascending (aliasing a buffer valid
// until the next Step or Reset; empty when the episode is over).
func (e *Env) Legal() []int {
	if e.Done() {
		return nil
	}
	return e.enc.Legal()
}

// Rewards returns the last step's reward per seat (aliasing the env's buffer).
func (e *Env) Rewards() []float32 { return e.rewards }

// CumulativeRewards returns each seat's total reward in this episode (aliasing).
func (e *Env) CumulativeRewards() []float32 { return e.cum }

// Observe writes seat's observation of the current position into dst (length ObsSize).
func (e *Env) Observe(seat int, dst []float32) error {
	if e.state == nil {
		return ErrNotReset
	}
	return e.enc.Observe(e.state, seat, dst)
}

// ObserveOracle writes the all-information encoding, rotated for seat, into dst (length
// ObsSize): the observation layout read from the unredacted state, so every scoring card,
// sealed bid and player's cash is visible (version encoding.OracleVersion). It is for
// centralised critics and analysis, never a policy's input.
func (e *Env) ObserveOracle(seat int, dst []float32) error {
	if e.state == nil {
		return ErrNotReset
	}
	return e.enc.EncodeOracle(e.state, seat, dst)
}
