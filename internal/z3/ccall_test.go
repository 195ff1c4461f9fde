package z3

import (
	"testing"

	"github.com/ebitengine/purego"
)

// ccall returns what purego.SyscallN returns for the same call, with
// integer, handle and boolean arguments and results.
func TestCcallAgreesWithSyscallN(t *testing.T) {
	c := newTestContext(t)
	x, _ := c.IntConst("x")
	y, _ := c.IntConst("y")
	for _, a := range []*Term{x, y} {
		fn := lib().fn[iZ3_get_ast_id]
		want, _, _ := purego.SyscallN(fn, uintptr(c.z), uintptr(a.ast))
		if got := ccall(fn, uintptr(c.z), uintptr(a.ast), 0, 0, 0, 0); uint32(got) != uint32(want) {
			t.Fatalf("ast id: ccall %d, SyscallN %d", got, want)
		}
	}
	fn := lib().fn[iZ3_is_eq_ast]
	if r := ccall(fn, uintptr(c.z), uintptr(x.ast), uintptr(y.ast), 0, 0, 0); r&0xff != 0 {
		t.Error("x and y are one term")
	}
	if r := ccall(fn, uintptr(c.z), uintptr(x.ast), uintptr(x.ast), 0, 0, 0); r&0xff == 0 {
		t.Error("x and x are two terms")
	}
	// six arguments, the most ccall passes: ite(x <= y, x, y) built
	// through it evaluates as built through the API
	le, _ := c.Le(x, y)
	ite := z3_ast(ccall(lib().fn[iZ3_mk_ite], uintptr(c.z), uintptr(le.ast), uintptr(x.ast), uintptr(y.ast), 0, 0))
	want, _ := c.Ite(le, x, y)
	if !z3_is_eq_ast(c.z, ite, want.ast) {
		t.Error("ite built through ccall differs")
	}
}

// A call into libz3 allocates nothing: through purego.SyscallN each one
// allocated its arguments on the heap.
func TestCallsDoNotAllocate(t *testing.T) {
	c := newTestContext(t)
	x, _ := c.IntConst("x")
	if n := testing.AllocsPerRun(1000, func() { z3_get_ast_id(c.z, x.ast) }); n != 0 {
		t.Errorf("z3_get_ast_id: %v allocations per call", n)
	}
	args := []z3_ast{x.ast, x.ast}
	if n := testing.AllocsPerRun(1000, func() { z3_mk_add(c.z, 2, &args[0]) }); n != 0 {
		t.Errorf("z3_mk_add: %v allocations per call", n)
	}
}

// BenchmarkCall is the cost of one call into libz3.
func BenchmarkCall(b *testing.B) {
	c := newTestContext(b)
	x, _ := c.IntConst("x")
	for b.Loop() {
		z3_get_ast_id(c.z, x.ast)
	}
}
