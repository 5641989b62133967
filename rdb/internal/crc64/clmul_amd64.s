//go:build amd64 && !purego

#include "textflag.h"

// func hasPCLMULQDQ() bool
TEXT ·hasPCLMULQDQ(SB), NOSPLIT, $0-1
	MOVL $1, AX
	XORL CX, CX
	CPUID
	SHRL $1, CX // PCLMULQDQ is bit 1 of ECX for leaf 1
	ANDL $1, CX
	MOVB CX, ret+0(FP)
	RET

// FOLD moves the block in X1 forward by the distance whose constants are in X0 (x^(8d+63)
// in the low word, x^(8d-1) in the high) and adds the block in add: X1 = lo·k0 ⊕ hi·k1 ⊕ add.
#define FOLD(add) \
	MOVO      X1, X5    \
	PCLMULQDQ $0x00, X0, X1 \
	PCLMULQDQ $0x11, X0, X5 \
	PXOR      X5, X1    \
	PXOR      add, X1

// func foldCLMUL(crc uint64, p []byte, keys *[4]uint64) (lo, hi uint64)
TEXT ·foldCLMUL(SB), NOSPLIT, $0-56
	MOVQ  crc+0(FP), AX
	MOVQ  p_base+8(FP), SI
	MOVQ  p_len+16(FP), CX
	MOVQ  keys+32(FP), DX

	MOVQ  AX, X0 // crc, added to the first 8 bytes
	MOVOU (SI), X1
	PXOR  X0, X1
	ADDQ  $16, SI
	SUBQ  $16, CX
	CMPQ  CX, $48
	JB    single

	// Four blocks side by side, each moved forward by 64 bytes at a time.
	MOVOU 0(SI), X2
	MOVOU 16(SI), X3
	MOVOU 32(SI), X4
	ADDQ  $48, SI
	SUBQ  $48, CX
	MOVOU 16(DX), X0 // keys[2:4]: 64 bytes forward

loop64:
	CMPQ      CX, $64
	JB        merge
	MOVO      X1, X5
	MOVO      X2, X6
	MOVO      X3, X7
	MOVO      X4, X8
	PCLMULQDQ $0x00, X0, X1
	PCLMULQDQ $0x00, X0, X2
	PCLMULQDQ $0x00, X0, X3
	PCLMULQDQ $0x00, X0, X4
	MOVOU     0(SI), X11
	MOVOU     16(SI), X12
	MOVOU     32(SI), X13
	MOVOU     48(SI), X14
	PCLMULQDQ $0x11, X0, X5
	PCLMULQDQ $0x11, X0, X6
	PCLMULQDQ $0x11, X0, X7
	PCLMULQDQ $0x11, X0, X8
	PXOR      X5, X1
	PXOR      X6, X2
	PXOR      X7, X3
	PXOR      X8, X4
	PXOR      X11, X1
	PXOR      X12, X2
	PXOR      X13, X3
	PXOR      X14, X4
	ADDQ      $64, SI
	SUBQ      $64, CX
	JMP       loop64

merge:
	// The four blocks into one, 16 bytes forward at a time.
	MOVOU (DX), X0 // keys[0:2]: 16 bytes forward
	FOLD(X2)
	FOLD(X3)
	FOLD(X4)
	JMP   loop16

single:
	MOVOU (DX), X0

loop16:
	CMPQ  CX, $16
	JB    done
	MOVOU (SI), X2
	FOLD(X2)
	ADDQ  $16, SI
	SUBQ  $16, CX
	JMP   loop16

done:
	MOVQ   X1, AX
	PSRLDQ $8, X1
	MOVQ   X1, BX
	MOVQ   AX, lo+40(FP)
	MOVQ   BX, hi+48(FP)
	RET
