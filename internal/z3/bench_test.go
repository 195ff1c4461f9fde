package z3

import "testing"

// BenchmarkChain1000 builds the chain x0 = 0, x_{i+1} = x_i + 1 of 1000
// constraints in a fresh context and solves x_1000 < 1000 (unsat).
func BenchmarkChain1000(b *testing.B) {
	for b.Loop() {
		if err := solveChain(1000, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildTerm measures the cost of one constructor call (cgo,
// reference counting and cleanup registration).
func BenchmarkBuildTerm(b *testing.B) {
	c := newTestContext(b)
	x, err := c.IntConst("x")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := c.Add(x, x); err != nil {
			b.Fatal(err)
		}
	}
}
