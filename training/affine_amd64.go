//go:build amd64 && !purego

package training

import "golang.org/x/sys/cpu"

// hasAVX reports whether the assembly kernels can run (AVX, with the OS saving the YMM
// registers). Tests turn it off to compare against the pure-Go loops.
var hasAVX = cpu.X86.HasAVX

// affine64 and affine8 are sparseAffine for 64 and 8 consecutive outputs (affine_amd64.s):
// w points at the first output's column of input row 0, b at the bias of the first output and
// out at the first output. idx must hold valid input rows and val at least len(idx) values.
//
//go:noescape
func affine64(idx []int32, val []float32, w *float32, stride int, b *float32, out *float32)

//go:noescape
func affine8(idx []int32, val []float32, w *float32, stride int, b *float32, out *float32)

// sparseAffineAsm does the first columns of sparseAffine (a multiple of 8) with the AVX
// kernels and returns how many it did. idx must be ascending (each caller gathers it so).
func sparseAffineAsm(idx []int32, val []float32, w []float32, stride int, b, out []float32) int {
	if !hasAVX || len(out) < 8 || len(idx) == 0 {
		return 0
	}
	// The kernels read weight rows idx[k] (the last is the largest) at columns < len(out).
	if len(val) < len(idx) || len(b) < len(out) || int(idx[len(idx)-1])*stride+len(out) > len(w) ||
		idx[0] < 0 || len(out) > stride {
		panic("training: sparseAffine: inputs out of range")
	}
	c := 0
	for ; c+64 <= len(out); c += 64 {
		affine64(idx, val, &w[c], stride, &b[c], &out[c])
	}
	for ; c+8 <= len(out); c += 8 {
		affine8(idx, val, &w[c], stride, &b[c], &out[c])
	}
	return c
}

// gatherNonzero8 is gatherNonzero for the first len(x)/8*8 entries (affine_amd64.s).
//
//go:noescape
func gatherNonzero8(x []float32, idx []int32, val []float32) int

// gatherNonzeroAsm does the first len(x)/8*8 entries of gatherNonzero with AVX and returns
// how many entries it looked at and how many of them were non-zero.
func gatherNonzeroAsm(x []float32, idx []int32, val []float32) (done, k int) {
	if !hasAVX || len(x) < 8 {
		return 0, 0
	}
	if len(idx) < len(x) || len(val) < len(x) {
		panic("training: gatherNonzero: output shorter than the input")
	}
	return len(x) / 8 * 8, gatherNonzero8(x, idx, val)
}
