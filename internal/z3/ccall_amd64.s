//go:build linux || darwin

#include "textflag.h"

// ccallABI0 is the address of ccall6, the function runtime.cgocall runs.
GLOBL ·ccallABI0(SB), NOPTR|RODATA, $8
DATA ·ccallABI0(SB)/8, $ccall6<>(SB)

// ccall6 calls f.fn(f.a[0], ..., f.a[5]) with the C calling convention
// and stores what it returns in f.r, for f a *cframe in DI (runtime.cgocall
// calls it so, on the system stack). The frame of 16 bytes keeps the stack
// 16-byte aligned at the call, as the C convention requires; 8(SP) holds f
// across it.
TEXT ccall6<>(SB), NOSPLIT, $16
	MOVQ DI, 8(SP)
	MOVQ DI, R11
	MOVQ 8(R11), DI
	MOVQ 16(R11), SI
	MOVQ 24(R11), DX
	MOVQ 32(R11), CX
	MOVQ 40(R11), R8
	MOVQ 48(R11), R9
	MOVQ 0(R11), R10
	XORL AX, AX // no vector registers hold arguments (for variadic callees)
	CALL R10
	MOVQ 8(SP), DI
	MOVQ AX, 56(DI)
	RET
