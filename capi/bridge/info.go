package bridge

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
)

// ABIVersion is bumped whenever a function's signature or a buffer layout of the C ABI
// changes; the Python package refuses a library with another version.
const ABIVersion = 3

// SpecJSON is the observation spec of the options (encoding.Spec as JSON: version, size,
// features with offsets, labels and bounds, and the action names), plus the phase names
// indexed by the status's phase entry and the status layout.
func SpecJSON(optsJSON string) (string, error) {
	o, err := ParseOptions(optsJSON, env.DefaultOptions())
	if err != nil {
		return "", err
	}
	s, err := encoding.NewSpecWith(o.Rules, o.Encoding())
	if err != nil {
		return "", err
	}
	phases := make([]string, rules.NumPhases)
	for p := range phases {
		phases[p] = rules.Phase(p).String()
	}
	b, err := json.Marshal(struct {
		encoding.Spec
		Phases  []string       `json:"phases"`
		Options map[string]any `json:"env_options"`
	}{s, phases, optionsOut(o)})
	return string(b), err
}

// ScoreJSON scores a position (container-position/1 JSON) or a game record's final
// position (container-game/1 JSON) as if the game ended now: every seat's breakdown.
func ScoreJSON(text string) (string, error) {
	s, _, err := rules.Load([]byte(text))
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	b, err := json.Marshal(s.Scores())
	return string(b), err
}

// ObservePositionJSON encodes a position (container-position/1 JSON) from seat's view into
// obs, with hideCash selecting the hidden-cash variant; it returns the decider (-1 at the
// end).
func ObservePositionJSON(text string, seat int, hideCash bool, obs []float32) (int, error) {
	s, err := rules.LoadPosition([]byte(text))
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	enc := encoding.NewEncoderWith(s.Game(), encoding.Options{HideOpponentCash: hideCash})
	if len(obs) != enc.Size() {
		return 0, errBuf("observation", len(obs), enc.Size())
	}
	if seat < 0 || seat >= s.Game().Options().Players {
		return 0, fmt.Errorf("%w: seat %d; the position has seats 0 to %d", ErrInvalid, seat, s.Game().Options().Players-1)
	}
	if err := enc.Observe(s, seat, obs); err != nil {
		return 0, err
	}
	if s.IsTerminal() {
		return -1, nil
	}
	return s.CurrentPlayer(), nil
}

// ActionName is the generic name of action id.
func ActionName(id int) string { return encoding.ActionName(id) }

// WriteString copies s into dst as a NUL-terminated string; a dst too small is an error
// wrapping ErrBufferSmall and need is the size to retry with.
func WriteString(s string, dst []byte) (need int, err error) {
	need = len(s) + 1
	if strings.IndexByte(s, 0) >= 0 {
		return need, fmt.Errorf("%w: string holds a NUL byte", ErrInternal)
	}
	if len(dst) < need {
		return need, fmt.Errorf("%w: need %d bytes, have %d", ErrBufferSmall, need, len(dst))
	}
	copy(dst, s)
	dst[len(s)] = 0
	return need, nil
}
