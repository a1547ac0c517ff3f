package training

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// withAVX runs fn with the assembly kernels switched on or off (on only where available).
func withAVX(on bool, fn func()) {
	saved := hasAVX
	hasAVX = on && saved
	defer func() { hasAVX = saved }()
	fn()
}

// plainAffine is sparseAffine written out: out[j] = b[j] + the products val[k]*w[idx[k]*stride+j]
// in the order of idx, each product rounded to float32 before it is added.
func plainAffine(idx []int32, val, w []float32, stride int, b []float32, n int) []float32 {
	out := make([]float32, n)
	for j := range n {
		s := b[j]
		for k, i := range idx {
			s += float32(val[k] * w[int(i)*stride+j])
		}
		out[j] = s
	}
	return out
}

// TestSparseAffineIsThePlainSumForEveryOutputCount: for every output count from 0 to 140
// (the AVX kernels' 64- and 8-column blocks, the pure-Go 8-, 4- and 1-column loops, and every
// mix of them), with and without the assembly kernels, sparseAffine gives exactly the bits of
// the plain sums, for none, one, some and all of the inputs.
func TestSparseAffineIsThePlainSumForEveryOutputCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 5))
	const inputs = 11
	for n := 0; n <= 140; n++ {
		for _, extra := range []int{0, 3} {
			stride := n + extra
			w := make([]float32, inputs*stride)
			for i := range w {
				w[i] = float32(rng.NormFloat64())
			}
			b := make([]float32, n)
			for i := range b {
				b[i] = float32(rng.NormFloat64())
			}
			for _, idx := range [][]int32{nil, {0}, {10}, {1, 4, 5, 9}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}} {
				val := make([]float32, len(idx))
				for k := range val {
					val[k] = float32(rng.NormFloat64() * 3)
				}
				want := plainAffine(idx, val, w, stride, b, n)
				for _, asm := range []bool{false, true} {
					withAVX(asm, func() {
						out := make([]float32, n)
						sparseAffine(idx, val, w, stride, b, out)
						sameBits(t, fmt.Sprintf("%d outputs, stride %d, inputs %v, avx %v: output", n, stride, idx, hasAVX), out, want)
					})
				}
			}
		}
	}
}

// TestGatherNonzeroFindsEveryNonzeroForEveryLength: for every length from 0 to 40, with and
// without the assembly kernel, gatherNonzero returns the positions and values of exactly the
// non-zero entries in ascending order (±0 skipped, tiny and negative values kept).
func TestGatherNonzeroFindsEveryNonzeroForEveryLength(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 6))
	specials := []float32{0, negZero(), 1e-45, -1e-45, -2, 3.5}
	for n := 0; n <= 40; n++ {
		for trial := range 4 {
			x := make([]float32, n)
			for i := range x {
				if trial > 0 && rng.IntN(trial+1) == 0 {
					x[i] = specials[rng.IntN(len(specials))]
				}
			}
			var wantIdx []int32
			var wantVal []float32
			for i, v := range x {
				if v != 0 {
					wantIdx = append(wantIdx, int32(i))
					wantVal = append(wantVal, v)
				}
			}
			for _, asm := range []bool{false, true} {
				withAVX(asm, func() {
					idx, val := make([]int32, n), make([]float32, n)
					k := gatherNonzero(x, idx, val)
					if k != len(wantIdx) || fmt.Sprint(idx[:k]) != fmt.Sprint(wantIdx) || fmt.Sprint(val[:k]) != fmt.Sprint(wantVal) {
						t.Fatalf("len %d, avx %v: %v: got %v %v, want %v %v", n, hasAVX, x, idx[:k], val[:k], wantIdx, wantVal)
					}
				})
			}
		}
	}
}

func negZero() float32 { z := float32(0); return -z }

// TestAVXKernelsDoEveryWholeGroupOfEight: where AVX is available the assembly kernels take
// every whole group of eight outputs (policy heads of 8 actions, hidden layers of 64 units
// included) and of eight observation features, leaving the pure-Go loops only the last
// len%8, so `container bench --train` measures the kernels.
func TestAVXKernelsDoEveryWholeGroupOfEight(t *testing.T) {
	if !hasAVX {
		t.Skip("no AVX kernels in this build or on this processor: pure Go only")
	}
	idx, val := []int32{0, 1}, []float32{1, 2}
	for n := 1; n <= 136; n++ {
		w, b, out := make([]float32, 2*n), make([]float32, n), make([]float32, n)
		if c := sparseAffineAsm(idx, val, w, n, b, out); c != n/8*8 {
			t.Errorf("sparseAffineAsm on %d outputs did %d, want %d", n, c, n/8*8)
		}
	}
	for n := 0; n <= 40; n++ {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(i % 3)
		}
		done, k := gatherNonzeroAsm(x, make([]int32, n), make([]float32, n))
		want := 0
		for _, v := range x[:n/8*8] {
			if v != 0 {
				want++
			}
		}
		if done != n/8*8 || k != want {
			t.Errorf("gatherNonzeroAsm on %d features: did %d with %d non-zero, want %d with %d", n, done, k, n/8*8, want)
		}
	}
}

// TestSparseAffineNeverReadsPastTheWeights: weights one value too short for the last input
// row are refused with a panic (a programming error) before anything is read past their end,
// with and without the assembly kernels.
func TestSparseAffineNeverReadsPastTheWeights(t *testing.T) {
	const stride = 8
	idx, val := []int32{0, 2}, []float32{1, 1}
	b := make([]float32, stride)
	for _, asm := range []bool{false, true} {
		withAVX(asm, func() {
			// One value short of 2*stride+8, with the missing value still in the allocation so
			// that a read past the end would go unnoticed by the hardware.
			w := make([]float32, 3*stride)[: 3*stride-1 : 3*stride-1]
			out := make([]float32, stride)
			msg := func() (msg string) {
				defer func() { msg = fmt.Sprint(recover()) }()
				sparseAffine(idx, val, w, stride, b, out)
				return ""
			}()
			if msg == "" || msg == "<nil>" {
				t.Fatalf("avx %v: sparseAffine with short weights did not panic", hasAVX)
			}
			if hasAVX && !strings.Contains(msg, "out of range") {
				t.Fatalf("avx %v: panic %q", hasAVX, msg)
			}
		})
	}
}
