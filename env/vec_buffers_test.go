package env

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// TestNewVecIntoWritesTheCallersBuffers: a VecEnv made with caller buffers writes into them
// (the caller sees every step without a copy), and the optional legal list, count and byte
// mask agree with each game's own Legal() and float mask after resets and auto-resets.
func TestNewVecIntoWritesTheCallersBuffers(t *testing.T) {
	const n = 6
	o := DefaultOptions()
	o.MaxSteps = 40 // force auto-resets within the test
	d, _ := ObsSize(o.Rules)
	a, p := NumActions(), o.Rules.Players
	b := VecBuffers{Obs: make([]float32, n*d), Mask: make([]float32, n*a), Rewards: make([]float32, n*p),
		Agents: make([]int, n), Terminated: make([]bool, n), Truncated: make([]bool, n),
		Legal: make([]int32, n*a), NumLegal: make([]int32, n), Mask8: make([]int8, n*a)}
	v, err := NewVecInto(n, o, 9, 2, b)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if &v.Obs[0] != &b.Obs[0] || &v.Mask[0] != &b.Mask[0] || &v.Agents[0] != &b.Agents[0] || &v.Terminated[0] != &b.Terminated[0] {
		t.Fatal("the VecEnv does not use the caller's buffers")
	}
	rng := rand.New(rand.NewPCG(1, 1))
	actions := make([]int, n)
	resets := 0
	for step := 0; step < 120; step++ {
		for i := 0; i < n; i++ {
			legal := v.Env(i).Legal()
			if int(b.NumLegal[i]) != len(legal) {
				t.Fatalf("step %d game %d: count %d, Legal() has %d", step, i, b.NumLegal[i], len(legal))
			}
			for k := 0; k < a; k++ {
				want := int32(-1)
				if k < len(legal) {
					want = int32(legal[k])
				}
				if b.Legal[i*a+k] != want {
					t.Fatalf("step %d game %d: legal[%d] = %d, want %d", step, i, k, b.Legal[i*a+k], want)
				}
				if float32(b.Mask8[i*a+k]) != b.Mask[i*a+k] {
					t.Fatalf("step %d game %d: byte mask differs from the float mask at %d", step, i, k)
				}
			}
			actions[i] = legal[rng.IntN(len(legal))]
		}
		if err := v.Step(actions); err != nil {
			t.Fatal(err)
		}
		for i := range b.Truncated {
			if b.Truncated[i] {
				resets++
			}
		}
	}
	if resets == 0 {
		t.Fatal("no game was auto-reset; the test does not cover resets")
	}
}

func TestNewVecIntoRefusesWrongSizes(t *testing.T) {
	o := DefaultOptions()
	d, _ := ObsSize(o.Rules)
	if _, err := NewVecInto(2, o, 1, 1, VecBuffers{Obs: make([]float32, d)}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("observation buffer for 1 game of 2: got %v", err)
	}
	if _, err := NewVecInto(2, o, 1, 1, VecBuffers{Legal: make([]int32, 2*NumActions())}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("legal without count: got %v", err)
	}
}

// A VecEnv given only one of the optional outputs (the legal ids with their counts, or the
// byte mask) keeps it current at every step, not only at Reset: each row always matches the
// game's legal actions after the step.
func TestVecOptionalLegalOutputsAloneAreWrittenAtEveryStep(t *testing.T) {
	const n = 3
	o := Options{Rules: rules.Options{Players: 3}}
	a := NumActions()
	for _, only := range []string{"legal ids", "byte mask"} {
		t.Run(only, func(t *testing.T) {
			var b VecBuffers
			if only == "legal ids" {
				b = VecBuffers{Legal: make([]int32, n*a), NumLegal: make([]int32, n)}
			} else {
				b = VecBuffers{Mask8: make([]int8, n*a)}
			}
			v, err := NewVecInto(n, o, 9, 1, b)
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			var acts []int
			for step := 0; step < 300; step++ {
				acts = vecActions(v, step, acts)
				if err := v.Step(acts); err != nil {
					t.Fatal(err)
				}
				for i := 0; i < n; i++ {
					legal := v.Env(i).Legal()
					if b.Mask8 != nil {
						want := make([]int8, a)
						for _, id := range legal {
							want[id] = 1
						}
						for id := range want {
							if b.Mask8[i*a+id] != want[id] {
								t.Fatalf("step %d game %d: byte mask[%d] = %d, want %d", step, i, id, b.Mask8[i*a+id], want[id])
							}
						}
						continue
					}
					if int(b.NumLegal[i]) != len(legal) {
						t.Fatalf("step %d game %d: count %d, Legal() has %d", step, i, b.NumLegal[i], len(legal))
					}
					for k := 0; k < a; k++ {
						want := int32(-1)
						if k < len(legal) {
							want = int32(legal[k])
						}
						if b.Legal[i*a+k] != want {
							t.Fatalf("step %d game %d: legal[%d] = %d, want %d", step, i, k, b.Legal[i*a+k], want)
						}
					}
				}
			}
		})
	}
}

// TestVecLegalIdsWithoutAByteMaskAreWrittenAtReset: a VecEnv given the legal-id buffers but
// no byte mask fills them for the first decision of every game too (at creation and Reset).
func TestVecLegalIdsWithoutAByteMaskAreWrittenAtReset(t *testing.T) {
	const n = 3
	o := Options{Rules: rules.Options{Players: 3}}
	a := NumActions()
	b := VecBuffers{Legal: make([]int32, n*a), NumLegal: make([]int32, n)}
	v, err := NewVecInto(n, o, 4, 1, b)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for round := 0; round < 2; round++ {
		for i := 0; i < n; i++ {
			legal := v.Env(i).Legal()
			if int(b.NumLegal[i]) != len(legal) || len(legal) == 0 {
				t.Fatalf("round %d game %d: count %d, Legal() has %d", round, i, b.NumLegal[i], len(legal))
			}
			for k, id := range legal {
				if b.Legal[i*a+k] != int32(id) {
					t.Fatalf("round %d game %d: legal[%d] = %d, want %d", round, i, k, b.Legal[i*a+k], id)
				}
			}
		}
		clear(b.Legal)
		clear(b.NumLegal)
		v.Reset()
	}
}

// TestVecByteMaskWithoutLegalIdsIsWrittenAtReset: a VecEnv given only the byte-mask buffer
// fills it for the first decision of every game too (at creation and Reset).
func TestVecByteMaskWithoutLegalIdsIsWrittenAtReset(t *testing.T) {
	const n = 3
	o := Options{Rules: rules.Options{Players: 3}}
	a := NumActions()
	b := VecBuffers{Mask8: make([]int8, n*a)}
	v, err := NewVecInto(n, o, 4, 1, b)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for round := 0; round < 2; round++ {
		for i := 0; i < n; i++ {
			for k := 0; k < a; k++ {
				if float32(b.Mask8[i*a+k]) != v.Mask[i*a+k] {
					t.Fatalf("round %d game %d: byte mask differs from the mask at %d", round, i, k)
				}
			}
		}
		clear(b.Mask8)
		v.Reset()
	}
}
