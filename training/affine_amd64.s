//go:build amd64 && !purego

#include "textflag.h"

// Kernels of sparseAffine (see affine_amd64.go): for each k, add val[k] times the weight
// row at w + idx[k]*stride (in float32s) to accumulators that start as the bias b, then store
// them to out. Multiply and add are separate instructions (no FMA), so every lane rounds
// exactly as the scalar Go loop does and the results are bit for bit the same.

// func affine64(idx []int32, val []float32, w *float32, stride int, b *float32, out *float32)
TEXT ·affine64(SB), NOSPLIT, $0-80
	MOVQ idx_base+0(FP), SI
	MOVQ idx_len+8(FP), CX
	MOVQ val_base+24(FP), DI
	MOVQ w+48(FP), DX
	MOVQ stride+56(FP), R8
	SHLQ $2, R8
	MOVQ b+64(FP), AX
	VMOVUPS 0(AX), Y0
	VMOVUPS 32(AX), Y1
	VMOVUPS 64(AX), Y2
	VMOVUPS 96(AX), Y3
	VMOVUPS 128(AX), Y4
	VMOVUPS 160(AX), Y5
	VMOVUPS 192(AX), Y6
	VMOVUPS 224(AX), Y7
	TESTQ CX, CX
	JEQ affine64_done

affine64_loop:
	MOVLQSX (SI), R9
	IMULQ R8, R9
	ADDQ DX, R9
	VBROADCASTSS (DI), Y8
	VMULPS 0(R9), Y8, Y9
	VADDPS Y9, Y0, Y0
	VMULPS 32(R9), Y8, Y10
	VADDPS Y10, Y1, Y1
	VMULPS 64(R9), Y8, Y11
	VADDPS Y11, Y2, Y2
	VMULPS 96(R9), Y8, Y12
	VADDPS Y12, Y3, Y3
	VMULPS 128(R9), Y8, Y13
	VADDPS Y13, Y4, Y4
	VMULPS 160(R9), Y8, Y14
	VADDPS Y14, Y5, Y5
	VMULPS 192(R9), Y8, Y15
	VADDPS Y15, Y6, Y6
	VMULPS 224(R9), Y8, Y9
	VADDPS Y9, Y7, Y7
	ADDQ $4, SI
	ADDQ $4, DI
	DECQ CX
	JNE affine64_loop

affine64_done:
	MOVQ out+72(FP), AX
	VMOVUPS Y0, 0(AX)
	VMOVUPS Y1, 32(AX)
	VMOVUPS Y2, 64(AX)
	VMOVUPS Y3, 96(AX)
	VMOVUPS Y4, 128(AX)
	VMOVUPS Y5, 160(AX)
	VMOVUPS Y6, 192(AX)
	VMOVUPS Y7, 224(AX)
	VZEROUPPER
	RET

// func affine8(idx []int32, val []float32, w *float32, stride int, b *float32, out *float32)
TEXT ·affine8(SB), NOSPLIT, $0-80
	MOVQ idx_base+0(FP), SI
	MOVQ idx_len+8(FP), CX
	MOVQ val_base+24(FP), DI
	MOVQ w+48(FP), DX
	MOVQ stride+56(FP), R8
	SHLQ $2, R8
	MOVQ b+64(FP), AX
	VMOVUPS 0(AX), Y0
	TESTQ CX, CX
	JEQ affine8_done

affine8_loop:
	MOVLQSX (SI), R9
	IMULQ R8, R9
	ADDQ DX, R9
	VBROADCASTSS (DI), Y8
	VMULPS 0(R9), Y8, Y9
	VADDPS Y9, Y0, Y0
	ADDQ $4, SI
	ADDQ $4, DI
	DECQ CX
	JNE affine8_loop

affine8_done:
	MOVQ out+72(FP), AX
	VMOVUPS Y0, 0(AX)
	VZEROUPPER
	RET

// func gatherNonzero8(x []float32, idx []int32, val []float32) int
// Processes x in groups of eight (len(x)/8 of them): a compare and a bit mask find the
// non-zero entries (NaN counts as non-zero, -0 as zero, as v != 0 does in Go), whose
// indices and values go to idx and val in order. Returns how many.
TEXT ·gatherNonzero8(SB), NOSPLIT, $0-80
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	SHRQ $3, CX
	MOVQ idx_base+24(FP), DI
	MOVQ val_base+48(FP), R8
	XORQ R9, R9            // k
	XORQ R10, R10          // i, the group's first index
	VXORPS Y1, Y1, Y1
	TESTQ CX, CX
	JEQ gather_done

gather_loop:
	VMOVUPS (SI)(R10*4), Y0
	VCMPPS $4, Y1, Y0, Y2  // not equal (unordered): true for non-zero and NaN
	VMOVMSKPS Y2, AX
	TESTL AX, AX
	JEQ gather_next

gather_bits:
	BSFL AX, DX
	ADDQ R10, DX
	MOVL DX, (DI)(R9*4)
	MOVL (SI)(DX*4), R11
	MOVL R11, (R8)(R9*4)
	INCQ R9
	LEAL -1(AX), DX
	ANDL DX, AX
	JNE gather_bits

gather_next:
	ADDQ $8, R10
	DECQ CX
	JNE gather_loop

gather_done:
	VZEROUPPER
	MOVQ R9, ret+72(FP)
	RET
