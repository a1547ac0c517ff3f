package training

import (
	"errors"
	"testing"
)

// The parameter limit is inclusive: a network of exactly MaxParams weights is accepted and
// one with more is refused with ErrConfig. Without hidden layers the count is
// (ObsDim+1)*(NumActions+ValueDim): 1024 * 65536 = 64 Mi.
func TestNetConfigAcceptsExactlyMaxParamsWeights(t *testing.T) {
	c := NetConfig{ObsDim: 1023, NumActions: 65535, ValueDim: 1, Width: 1, Depth: 0, Norm: NormNone}
	if n := c.NumParams(); n != MaxParams {
		t.Fatalf("%d parameters, want exactly %d", n, MaxParams)
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("exactly MaxParams refused: %v", err)
	}
	c.ObsDim++
	if err := c.Validate(); !errors.Is(err, ErrConfig) {
		t.Fatalf("%d parameters (over the limit): %v, want ErrConfig", c.NumParams(), err)
	}
}
