package env

import (
	"testing"

	"github.com/container-rl/container/env/rules"
)

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
