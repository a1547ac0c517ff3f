package bridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/eval"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/env/search"
)

// OpenSpiel's player ids for the nodes that are not a seat's decision.
const (
	SpielChance   = -1
	SpielTerminal = -4
)

// Spiel is one game state for OpenSpiel (python/container_rl/openspiel.py): the setup's
// random choices are chance nodes (rules.Game.SetupOutcomes) before the game proper, and every
// other node is a seat's decision. Everything OpenSpiel asks of a state is answered here.
type Spiel struct {
	busy
	o     env.Options
	g     *rules.Game
	draws []int             // the setup draws made so far (all of them once the game is set up)
	s     *rules.State      // nil while the setup is being drawn
	enc   *encoding.Encoder // made at the first observation (cloned states rarely need one)
	view  rules.State       // scratch for redacted views
	legal []int
}

// SpielGame is what OpenSpiel's Game needs to know about an option set.
type SpielGame struct {
	Players       int     `json:"players"`
	NumActions    int     `json:"num_distinct_actions"`
	MaxChance     int     `json:"max_chance_outcomes"`
	ObsSize       int     `json:"observation_size"`
	MaxGameLength int     `json:"max_game_length"`
	SetupDraws    int     `json:"setup_draws"`
	MinUtility    float64 `json:"min_utility"`
	MaxUtility    float64 `json:"max_utility"`
	UtilitySum    float64 `json:"utility_sum"`
	Reward        string  `json:"reward"`
	Encoding      string  `json:"encoding"`
	Rules         string  `json:"rules"`
	Length        string  `json:"length"`
	Modules       string  `json:"modules"`
}

// spielOptions reads the options of an OpenSpiel game: rules options and a reward scheme
// with bounded utilities (win-loss or rank).
func spielOptions(optsJSON string) (env.Options, error) {
	o, err := ParseOptions(optsJSON, env.DefaultOptions())
	if err != nil {
		return o, err
	}
	if o.Reward != env.WinLoss && o.Reward != env.Rank {
		return o, fmt.Errorf("%w: option \"reward\": OpenSpiel needs bounded utilities: win-loss or rank, not %s", env.ErrInvalidOptions, o.Reward)
	}
	return o, nil
}

// SpielGameJSON describes the OpenSpiel game of an option set (SpielGame as JSON).
func SpielGameJSON(optsJSON string) (string, error) {
	o, err := spielOptions(optsJSON)
	if err != nil {
		return "", err
	}
	g, err := rules.NewGame(o.Rules)
	if err != nil {
		return "", err
	}
	enc := encoding.NewEncoderWith(g, o.Encoding())
	sg := SpielGame{Players: o.Rules.Players, NumActions: rules.NumDistinctActions(), MaxChance: rules.MaxSetupOutcomes,
		ObsSize: enc.Size(), MaxGameLength: g.MaxGameLength(), SetupDraws: g.NumSetupDraws(), MaxUtility: 1,
		UtilitySum: o.Reward.RewardSum(), Reward: o.Reward.String(), Encoding: enc.Spec().Version,
		Rules: o.Rules.Variant.String(), Length: o.Rules.Length.String(), Modules: o.Rules.Modules.String()}
	if o.Reward == env.Rank {
		sg.MinUtility = -1
	}
	b, err := json.Marshal(sg)
	return string(b), err
}

// NewSpiel makes the OpenSpiel root state of the options: the first setup draw is pending.
func NewSpiel(optsJSON string) (int64, error) {
	o, err := spielOptions(optsJSON)
	if err != nil {
		return 0, err
	}
	g, err := rules.NewGame(o.Rules)
	if err != nil {
		return 0, err
	}
	return put(newSpiel(o, g)), nil
}

func newSpiel(o env.Options, g *rules.Game) *Spiel {
	return &Spiel{o: o, g: g, legal: make([]int, 0, rules.NumDistinctActions())}
}

// NewSpielPosition makes an OpenSpiel state of the options from a position (container-
// position/1 JSON, hidden information included) whose rules are the options' rules: a game
// past its setup, with no history (OpenSpiel's resampled states are such positions).
func NewSpielPosition(optsJSON, position string) (int64, error) {
	o, err := spielOptions(optsJSON)
	if err != nil {
		return 0, err
	}
	s, err := rules.LoadPosition([]byte(position))
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	g, err := rules.NewGame(o.Rules)
	if err != nil {
		return 0, err
	}
	want, got := g.Options(), s.Game().Options()
	want.Seed, got.Seed = 0, 0
	if want != got {
		return 0, fmt.Errorf("%w: the position's options (%+v) are not the game's (%+v)", ErrInvalid, got, want)
	}
	x := newSpiel(o, s.Game())
	x.s = s // its setup draws are unknown and not needed: draws matter only until x.s is set
	return put(x), nil
}

func getSpiel(h int64) (*Spiel, error) {
	x, err := get[*Spiel](h, "openspiel state")
	if err != nil {
		return nil, err
	}
	return x, x.enter("openspiel state", h)
}

// SpielClone copies state h into a new handle.
func SpielClone(h int64) (int64, error) {
	x, err := getSpiel(h)
	if err != nil {
		return 0, err
	}
	defer x.leave()
	return put(x.clone()), nil
}

func (x *Spiel) clone() *Spiel {
	c := newSpiel(x.o, x.g)
	c.draws = append(make([]int, 0, x.g.NumSetupDraws()), x.draws...)
	if x.s != nil {
		c.s = x.s.Clone()
	}
	return c
}

// SpielStatus writes the node's player into out[0] (a seat, SpielChance or SpielTerminal)
// and the number of its legal actions (chance outcomes at a chance node) into out[1]; the
// actions go into legal and, at a chance node, their probabilities into probs.
func SpielStatus(h int64, legal []int32, probs []float64, out []int64) error {
	x, err := getSpiel(h)
	if err != nil {
		return err
	}
	defer x.leave()
	if len(legal) != rules.NumDistinctActions() || len(probs) != rules.NumDistinctActions() || len(out) != 2 {
		return fmt.Errorf("%w: status buffers have %d, %d and %d entries; want %d, %d and 2", ErrInvalid,
			len(legal), len(probs), len(out), rules.NumDistinctActions(), rules.NumDistinctActions())
	}
	player, acts, err := x.actions()
	if err != nil {
		return err
	}
	out[0], out[1] = int64(player), int64(len(acts))
	for i, a := range acts {
		legal[i] = int32(a)
		if player == SpielChance {
			probs[i] = 1 / float64(len(acts))
		}
	}
	return nil
}

// actions is the node's player and its legal actions (x.legal's memory).
func (x *Spiel) actions() (int, []int, error) {
	if x.s == nil {
		acts, err := x.g.SetupOutcomes(x.draws, x.legal[:0])
		x.legal = acts
		return SpielChance, acts, err
	}
	if x.s.IsTerminal() {
		return SpielTerminal, nil, nil
	}
	x.legal = x.s.LegalActions(x.legal[:0])
	return x.s.CurrentPlayer(), x.legal, nil
}

// SpielApply applies action (a chance outcome at a chance node). An action that is not legal
// is an error wrapping rules.ErrIllegalAction and changes nothing.
func SpielApply(h int64, action int) error {
	x, err := getSpiel(h)
	if err != nil {
		return err
	}
	defer x.leave()
	if x.s != nil {
		return x.s.ApplyChecked(action)
	}
	outs, err := x.g.SetupOutcomes(x.draws, x.legal[:0])
	if err != nil {
		return err
	}
	ok := false
	for _, v := range outs {
		ok = ok || v == action
	}
	if !ok {
		return fmt.Errorf("%w: chance outcome %d of %s; the outcomes are %v", rules.ErrIllegalAction, action,
			x.g.SetupDrawAt(len(x.draws)), outs)
	}
	x.draws = append(x.draws, action)
	if len(x.draws) == x.g.NumSetupDraws() {
		su, err := x.g.SetupFromDraws(x.draws)
		if err == nil {
			x.s, err = x.g.NewInitialStateSetup(su)
		}
		if err != nil {
			x.draws = x.draws[:len(x.draws)-1]
			return fmt.Errorf("%w: %w", ErrInternal, err)
		}
	}
	return nil
}

// SpielReturns writes every seat's return into out: the reward scheme's final rewards at the
// end, zero before.
func SpielReturns(h int64, out []float64) error {
	x, err := getSpiel(h)
	if err != nil {
		return err
	}
	defer x.leave()
	n := x.o.Rules.Players
	if len(out) != n {
		return errBuf("returns", len(out), n)
	}
	clear(out)
	if x.s == nil || !x.s.IsTerminal() {
		return nil
	}
	env.FinalRewards(x.o.Reward, x.o.MarginScale, x.s.Scores(), out)
	return nil
}

func (x *Spiel) checkSeat(seat int) error {
	if seat < 0 || seat >= x.o.Rules.Players {
		return fmt.Errorf("%w: seat %d; the game has seats 0 to %d", ErrInvalid, seat, x.o.Rules.Players-1)
	}
	return nil
}

// SpielObserve writes seat's observation (the options' encoding, obs-v2) into obs; during the
// setup, before there is a board, it is all zeros.
func SpielObserve(h int64, seat int, obs []float32) error {
	x, err := getSpiel(h)
	if err != nil {
		return err
	}
	defer x.leave()
	if err := x.checkSeat(seat); err != nil {
		return err
	}
	if x.enc == nil {
		x.enc = encoding.NewEncoderWith(x.g, x.o.Encoding())
	}
	if len(obs) != x.enc.Size() {
		return errBuf("observation", len(obs), x.enc.Size())
	}
	if x.s == nil {
		clear(obs)
		return nil
	}
	return x.enc.Observe(x.s, seat, obs)
}

// What SpielText writes.
const (
	TextInfoState   = iota // seat's information state: the setup it saw, then its view of the position (JSON)
	TextObservation        // seat's observation: the text board from seat's view
	TextFull               // the whole state, hidden information included (OpenSpiel's ToString)
	TextPosition           // the position JSON, hidden information included (serialisation)
)

// SpielText is one of the texts above (seat is ignored by TextFull and TextPosition).
func SpielText(h int64, seat, kind int) (string, error) {
	x, err := getSpiel(h)
	if err != nil {
		return "", err
	}
	defer x.leave()
	switch kind {
	case TextInfoState, TextObservation:
		if err := x.checkSeat(seat); err != nil {
			return "", err
		}
		if x.s == nil {
			return x.setupText(seat), nil
		}
		if kind == TextObservation {
			return x.s.Render(seat), nil
		}
		x.s.Redact(seat, &x.view)
		b, err := x.view.MarshalPosition()
		if err != nil {
			return "", fmt.Errorf("%w: %w", ErrInternal, err)
		}
		var c bytes.Buffer
		if err := json.Compact(&c, b); err != nil {
			return "", fmt.Errorf("%w: %w", ErrInternal, err)
		}
		return c.String(), nil
	case TextFull:
		if x.s == nil {
			return x.setupText(-1), nil
		}
		return x.s.Render(-1), nil
	case TextPosition:
		if x.s == nil {
			return "", fmt.Errorf("%w: the setup is still being drawn; there is no position yet", ErrInvalid)
		}
		b, err := x.s.MarshalPosition()
		if err != nil {
			return "", fmt.Errorf("%w: %w", ErrInternal, err)
		}
		return string(b), nil
	}
	return "", fmt.Errorf("%w: text kind %d", ErrInvalid, kind)
}

// setupText lists the setup draws made so far as viewer sees them (-1: all of them).
func (x *Spiel) setupText(viewer int) string {
	var b strings.Builder
	b.WriteString("setup")
	for k, v := range x.draws {
		d := x.g.SetupDrawAt(k)
		b.WriteString("\n")
		b.WriteString(d.String())
		b.WriteString(": ")
		if p := d.PrivateTo(); viewer >= 0 && p >= 0 && p != viewer {
			b.WriteString("?")
			continue
		}
		b.WriteString(drawText(d, v))
	}
	return b.String()
}

func drawText(d rules.SetupDraw, v int) string {
	switch d.Kind {
	case rules.DrawBank, rules.DrawFactory:
		return rules.Colour(v).String()
	case rules.DrawCard:
		return "card " + strconv.Itoa(v) // scoring cards are numbered 0 to 4, as on the board
	}
	return "p" + strconv.Itoa(v+1)
}

// SpielActionText is action in the project's move notation at this node (a chance outcome as
// the draw and its result). An action that is not legal here is described, not refused.
func SpielActionText(h int64, action int) (string, error) {
	x, err := getSpiel(h)
	if err != nil {
		return "", err
	}
	defer x.leave()
	if x.s == nil {
		d := x.g.SetupDrawAt(len(x.draws))
		if action < 0 || action >= rules.MaxSetupOutcomes || (d.Kind == rules.DrawFirst && action >= x.o.Rules.Players) {
			return fmt.Sprintf("%s: outcome %d (none such)", d, action), nil
		}
		return d.String() + ": " + drawText(d, action), nil
	}
	if action < 0 || action >= rules.NumDistinctActions() {
		return fmt.Sprintf("action %d (outside 0..%d)", action, rules.NumDistinctActions()-1), nil
	}
	if x.s.IsTerminal() {
		return encoding.ActionName(action), nil
	}
	return x.s.ActionToMove(action).String(), nil
}

// SpielResample makes a new state consistent with what seat knows of state h, by the ismcts
// bot's determinization (search.Determinize) of seat's view drawn with seed: the other
// seats' scoring cards and unrevealed sealed values are sampled. The new state is a position
// with no history (see NewSpielPosition).
func SpielResample(h int64, seat int, seed uint64) (int64, error) {
	x, err := getSpiel(h)
	if err != nil {
		return 0, err
	}
	defer x.leave()
	if err := x.checkSeat(seat); err != nil {
		return 0, err
	}
	if x.s == nil {
		return 0, fmt.Errorf("%w: resampling during the setup draws is not supported (no seat decides there)", ErrInvalid)
	}
	x.s.Redact(seat, &x.view)
	c := newSpiel(x.o, x.g)
	c.s = new(rules.State)
	search.Determinize(&x.view, seat, rand.New(rand.NewPCG(seed, uint64(seat))), c.s)
	return put(c), nil
}

// SpielSetupDraws is the setup of a seeded game (the container commands' --seed) as the
// sequence of chance outcomes that leads an OpenSpiel state to the same position.
func SpielSetupDraws(optsJSON string, seed uint64) (string, error) {
	o, err := spielOptions(optsJSON)
	if err != nil {
		return "", err
	}
	g, err := rules.NewGame(o.Rules)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(g.SetupDraws(g.DrawSetup(seed)))
	return string(b), err
}

// BotActSpiel returns bot bh's action for the deciding seat of OpenSpiel state sh (not
// applied), decided from that seat's redacted view.
func BotActSpiel(bh, sh int64) (int, error) {
	b, err := getBot(bh)
	if err != nil {
		return 0, err
	}
	defer b.leave()
	x, err := getSpiel(sh)
	if err != nil {
		return 0, err
	}
	defer x.leave()
	if x.s == nil {
		return 0, fmt.Errorf("%w: a chance node (the setup); no seat decides", ErrInvalid)
	}
	if err := sameRules(b.opts, x.o.Rules); err != nil {
		return 0, err
	}
	return act(&b.seat, x.s, x.s.LegalActions(x.legal[:0]))
}

// Wilson is the Wilson score interval of wins out of n at normal quantile z (eval.Wilson,
// the interval every tournament table of the project reports; z <= 0 means 95%).
func Wilson(wins float64, n int, z float64) (lo, hi float64) {
	if z <= 0 {
		z = eval.Z95
	}
	return eval.Wilson(wins, n, z)
}

// What SpielRollout writes.
const (
	RolloutReturns  = iota // the game's returns (its reward scheme)
	RolloutOutcomes        // the outcomes our ismcts backs up (search.Outcomes)
)

// SpielRollout plays state h (unchanged) to the end on a copy, every seat (and every setup
// draw) choosing uniformly among its legal actions with a generator seeded by seed, and writes
// into out the final returns (RolloutReturns: the random-rollout evaluation OpenSpiel's ISMCTS
// uses, run in Go) or our search's outcomes (RolloutOutcomes).
func SpielRollout(h int64, seed uint64, kind int, out []float64) error {
	x, err := getSpiel(h)
	if err != nil {
		return err
	}
	c := x.clone()
	x.leave()
	if len(out) != x.o.Rules.Players {
		return errBuf("returns", len(out), x.o.Rules.Players)
	}
	if kind != RolloutReturns && kind != RolloutOutcomes {
		return fmt.Errorf("%w: rollout kind %d", ErrInvalid, kind)
	}
	rng := rand.New(rand.NewPCG(seed, 0x726f6c6c6f7574)) // "rollout"
	for {
		player, acts, err := c.actions()
		if err != nil {
			return fmt.Errorf("%w: %w", ErrInternal, err)
		}
		if player == SpielTerminal {
			break
		}
		a := acts[rng.IntN(len(acts))]
		if c.s != nil {
			c.s.Apply(a)
			continue
		}
		c.draws = append(c.draws, a)
		if len(c.draws) == c.g.NumSetupDraws() {
			su, err := c.g.SetupFromDraws(c.draws)
			if err == nil {
				c.s, err = c.g.NewInitialStateSetup(su)
			}
			if err != nil {
				return fmt.Errorf("%w: %w", ErrInternal, err)
			}
		}
	}
	if kind == RolloutOutcomes {
		search.Outcomes(c.s, out)
		return nil
	}
	env.FinalRewards(c.o.Reward, c.o.MarginScale, c.s.Scores(), out)
	return nil
}

// BotStatsOf writes the search figures of bot bh's last decision into out: simulations, wall
// time in nanoseconds, tree nodes; zeros for a bot that does not search.
func BotStatsOf(bh int64, out []int64) error {
	b, err := getBot(bh)
	if err != nil {
		return err
	}
	defer b.leave()
	if len(out) != 3 {
		return errBuf("stats", len(out), 3)
	}
	clear(out)
	if s, ok := b.b.(interface{ LastStats() search.Stats }); ok {
		st := s.LastStats()
		out[0], out[1], out[2] = int64(st.Sims), st.Elapsed.Nanoseconds(), int64(st.Nodes)
	}
	return nil
}
