package prove

import (
	"strings"
	"testing"
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
