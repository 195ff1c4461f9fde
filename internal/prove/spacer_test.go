package prove

import (
	"os"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/z3"
)

// A query with a clause-local variable cannot be lifted onto its node, so
// the property is that the node `false` is unreachable. Spacer's model
// then has no formula for `false`; its RSC is false by construction and
// the re-check must accept Spacer's (correct) answer.
func TestSpacerQueryIntoFalse(t *testing.T) {
	p := chcProblem(t, `
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (+ x 2))) (inv y))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (+ x 1)) (< y 0)) false)))`)
	if p.Props[0].Node != p.Graph.ErrorNode {
		t.Fatalf("the property should stay at the error node: %+v", p.Props)
	}
	r := mustProve(t, p, Options{Layers: []string{"spacer"}})
	if r.Verdict != "proved" || r.Props[0].Method != "spacer" {
		t.Fatalf("%s by %s: %+v", r.Verdict, r.Props[0].Method, r.Layers)
	}
	for _, c := range r.Certificate {
		if c.Node == "false" && c.RSC != "false" {
			t.Errorf("RSC of false = %s", c.RSC)
		}
	}
}

// Z3 inlines q (one rule in, one out) and reconstructs its interpretation
// with an existential quantifier; the quantifier is eliminated and the
// answer re-checked instead of being thrown away.
func TestSpacerQuantifiedInterpretation(t *testing.T) {
	p := chcProblem(t, `
(declare-fun p (Int Int) Bool)
(declare-fun q (Int) Bool)
(declare-fun r (Int) Bool)
(assert (forall ((x Int) (n Int)) (=> (and (= x 0) (> n 0)) (p x n))))
(assert (forall ((x Int) (n Int)) (=> (and (p x n) (< x n)) (p (+ x 1) n))))
(assert (forall ((x Int) (n Int) (y Int)) (=> (and (p x n) (>= x n) (= y (- x n))) (q y))))
(assert (forall ((y Int) (z Int)) (=> (and (q y) (= z (* 2 y))) (r z))))
(assert (forall ((z Int)) (=> (and (r z) (< z 0)) false)))`)
	r := mustProve(t, p, Options{Layers: []string{"spacer"}})
	if r.Verdict != "proved" || r.Props[0].Method != "spacer" {
		t.Fatalf("%s by %s: %+v", r.Verdict, r.Props[0].Method, r.Layers)
	}
	for _, c := range r.Certificate {
		if strings.Contains(c.RSC, "exists") {
			t.Errorf("certificate keeps a quantifier: %s: %s", c.Node, c.RSC)
		}
	}
}

// Spacer runs in the problem's own context: a problem it proves during its
// head start (or its first slice, when layers run in turn) costs no second
// context (and no second parse).
func TestSpacerSharesTheContext(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(map[int]string{1: "in turn", 2: "parallel"}[workers], func(t *testing.T) { spacerSharesTheContext(t, workers) })
	}
}

func spacerSharesTheContext(t *testing.T, workers int) {
	p := chcProblem(t, `
(declare-fun inv (Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (n Int)) (=> (and (= x 0) (= y n) (>= n 0)) (inv x y n))))
(assert (forall ((x Int) (y Int) (n Int)) (=> (and (inv x y n) (< x n)) (inv (+ x 1) (- y 1) n))))
(assert (forall ((x Int) (y Int) (n Int)) (=> (and (inv x y n) (< y 0)) false)))`)
	r := mustProve(t, p, Options{Workers: workers})
	if r.Verdict != "proved" || r.Props[0].Method != "spacer" {
		t.Fatalf("%s by %s: %+v", r.Verdict, r.Props[0].Method, r.Layers)
	}
	if r.contexts != 0 {
		t.Errorf("Prove made %d contexts, want none", r.contexts)
	}
}

// When Spacer has not answered within its head start, the other layers
// move to a context of their own and one of them proves the problem;
// Prove returns only after Spacer has left the problem's context, which
// the caller can then use (the race detector watches this). Layers run in
// turn share the problem's context throughout.
func TestSpacerLeftItsContext(t *testing.T) {
	src, err := os.ReadFile("testdata/lia-lin/seq_loops.smt2")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ workers, contexts int }{{1, 0}, {2, 1}} {
		p := chcProblem(t, string(src))
		r := mustProve(t, p, Options{Workers: tc.workers, TimeoutMS: 5000})
		if r.Verdict != "proved" || r.Props[0].Method == "spacer" {
			t.Fatalf("workers %d: %s by %s: %+v", tc.workers, r.Verdict, r.Props[0].Method, r.Layers)
		}
		if r.contexts != tc.contexts {
			t.Errorf("workers %d: Prove made %d contexts, want %d", tc.workers, r.contexts, tc.contexts)
		}
		s, err := p.Graph.Ctx.NewSolver()
		if err != nil {
			t.Fatal(err)
		}
		if res, err := s.Check(); err != nil || res != z3.Sat {
			t.Errorf("workers %d: the problem's context after Prove: %v, %v", tc.workers, res, err)
		}
	}
}
