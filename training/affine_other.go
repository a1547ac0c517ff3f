//go:build !amd64 || purego

package training

// hasAVX is false where there are no assembly kernels: sparseAffine runs in pure Go.
var hasAVX = false

func sparseAffineAsm(idx []int32, val []float32, w []float32, stride int, b, out []float32) int {
	return 0
}

func gatherNonzeroAsm(x []float32, idx []int32, val []float32) (done, k int) { return 0, 0 }
