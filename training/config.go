package training

import (
	"errors"
	"fmt"
)

// ErrConfig is wrapped by every error about an invalid network or training configuration.
var ErrConfig = errors.New("training: invalid configuration")

// Normalisation choices for the trunk.
const (
	NormNone  = "none"
	NormLayer = "layer"
)

// Limits that bound what a configuration (and so a bot file) may ask for.
const (
	MaxWidth      = 4096
	MaxDepth      = 16
	MaxObsDim     = 1 << 20
	MaxNumActions = 1 << 16
	MaxValueDim   = 16
	// MaxParams bounds the number of float32 weights of one network (256 MiB).
	MaxParams = 64 << 20
)

// NetConfig describes the policy/value network. It is saved with checkpoints and bot files.
type NetConfig struct {
	ObsDim     int    `json:"obs_dim"`     // observation features D
	NumActions int    `json:"num_actions"` // policy outputs A (rules.NumDistinctActions)
	ValueDim   int    `json:"value_dim"`   // value outputs: one per seat, relative to the decider
	Width      int    `json:"width"`       // hidden units per trunk layer
	Depth      int    `json:"depth"`       // number of trunk layers
	Norm       string `json:"norm"`        // "none" or "layer"
}

// DefaultNetConfig returns the default network for the given observation and action sizes
// (the trunk that BC, PPO and the CLI start from unless told otherwise).
func DefaultNetConfig(obsDim, numActions, valueDim int) NetConfig {
	return NetConfig{ObsDim: obsDim, NumActions: numActions, ValueDim: valueDim, Width: 128, Depth: 2, Norm: NormLayer}
}

// Validate checks the configuration against the limits.
func (c NetConfig) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...))
	}
	switch {
	case c.ObsDim < 1 || c.ObsDim > MaxObsDim:
		return bad("obs_dim %d is outside 1..%d", c.ObsDim, MaxObsDim)
	case c.NumActions < 1 || c.NumActions > MaxNumActions:
		return bad("num_actions %d is outside 1..%d", c.NumActions, MaxNumActions)
	case c.ValueDim < 1 || c.ValueDim > MaxValueDim:
		return bad("value_dim %d is outside 1..%d", c.ValueDim, MaxValueDim)
	case c.Width < 1 || c.Width > MaxWidth:
		return bad("width %d is outside 1..%d", c.Width, MaxWidth)
	case c.Depth < 0 || c.Depth > MaxDepth:
		return bad("depth %d is outside 0..%d", c.Depth, MaxDepth)
	case c.Norm != NormNone && c.Norm != NormLayer:
		return bad("norm %q (want none or layer)", c.Norm)
	}
	if n := c.NumParams(); n > MaxParams {
		return bad("%d parameters is more than the limit %d", n, MaxParams)
	}
	return nil
}

// ParamSpec names one weight tensor of the network and its shape.
type ParamSpec struct {
	Name  string `json:"name"`
	Shape []int  `json:"shape"`
}

// Size is the number of elements of the tensor.
func (p ParamSpec) Size() int {
	n := 1
	for _, d := range p.Shape {
		n *= d
	}
	return n
}

// Params lists the network's weight tensors in a fixed order: for each trunk layer i the
// weights "trunk<i>_w" [in, width] and biases "trunk<i>_b" [width] (plus the layer-norm gain
// "trunk<i>_g" and bias "trunk<i>_beta" with norm=layer), then "policy_w" [width, A],
// "policy_b" [A], "value_w" [width, V], "value_b" [V]. With depth 0 the heads read the
// observation directly.
func (c NetConfig) Params() []ParamSpec {
	var ps []ParamSpec
	in := c.ObsDim
	for i := range c.Depth {
		ps = append(ps, ParamSpec{fmt.Sprintf("trunk%d_w", i), []int{in, c.Width}},
			ParamSpec{fmt.Sprintf("trunk%d_b", i), []int{c.Width}})
		if c.Norm == NormLayer {
			ps = append(ps, ParamSpec{fmt.Sprintf("trunk%d_g", i), []int{c.Width}},
				ParamSpec{fmt.Sprintf("trunk%d_beta", i), []int{c.Width}})
		}
		in = c.Width
	}
	return append(ps, ParamSpec{"policy_w", []int{in, c.NumActions}}, ParamSpec{"policy_b", []int{c.NumActions}},
		ParamSpec{"value_w", []int{in, c.ValueDim}}, ParamSpec{"value_b", []int{c.ValueDim}})
}

// NumParams is the total number of weights, computed without overflow for valid dimensions.
func (c NetConfig) NumParams() int {
	n := 0
	for _, p := range c.Params() {
		n += p.Size()
	}
	return n
}

// trunkOut is the width of the trunk's output.
func (c NetConfig) trunkOut() int {
	if c.Depth == 0 {
		return c.ObsDim
	}
	return c.Width
}
