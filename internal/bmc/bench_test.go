package bmc

import (
	"fmt"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/z3"
)

// benchCounter solves one reach query on the counter family per iteration,
// end to end from compilation (a fresh context each time).
func benchCounter(b *testing.B, bound int, body expr.Expr, want string) {
	res, sys := decodeModelB(b, gen.PauseCounter(100))
	_ = res
	for b.Loop() {
		ctx, err := z3.NewContext()
		if err != nil {
			b.Fatal(err)
		}
		r, err := Solve(ctx, sys, &query.Query{Check: query.Check{Kind: query.Reach, Bound: bound, Body: body}}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if r.Outcome != want {
			b.Fatalf("outcome %s, want %s", r.Outcome, want)
		}
		ctx.Close()
	}
}

func cmp(op expr.Op, name string, v int64) expr.Expr {
	return &expr.Binary{Op: op, X: &expr.Ident{Name: name}, Y: &expr.IntLit{Value: v}}
}

// BenchmarkCounterUnreachable: c > N cannot happen within N steps; Z3 has
// to prove the whole unrolling UNSAT (then the scenario check runs too).
func BenchmarkCounterUnreachable(b *testing.B) {
	for _, n := range []int{10, 20, 40, 80, 160} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchCounter(b, n, cmp(expr.Gt, "c", int64(n)), "no_witness") })
	}
}

// BenchmarkCounterReachable: Pause with c == N/2 - 1 needs N/2 steps.
func BenchmarkCounterReachable(b *testing.B) {
	for _, n := range []int{10, 20, 40, 80, 160} {
		body := &expr.Binary{Op: expr.Land, X: active("Pause"), Y: cmp(expr.Eq, "c", int64(n/2-1))}
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchCounter(b, n, body, "witness_found") })
	}
}
