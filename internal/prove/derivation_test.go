package prove

import (
	"strings"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/z3"
)

// A query that holds only for some value of (div x 0), which SMT-LIB
// leaves unspecified: Z3 says unknown, and so must prove (it answered
// violated).
func TestDivisionByZeroIsUndecided(t *testing.T) {
	for name, src := range map[string]string{
		"div": `
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int)) (=> (and (inv x) (= (div x 0) 5)) false)))`,
		"mod by a variable": `
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 3) (= y 0)) (inv x y))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (= (mod x y) 2)) false)))`,
		"in a rule": `
(declare-fun inv (Int) Bool)
(declare-fun bad (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (div 7 x))) (bad y))))
(assert (forall ((y Int)) (=> (and (bad y) (= y 42)) false)))`,
	} {
		t.Run(name, func(t *testing.T) {
			r := mustProve(t, chcProblem(t, src), Options{TimeoutMS: 3000})
			if r.Verdict == "violated" || r.Verdict == "proved" {
				t.Fatalf("verdict %s, want undecided; props %+v", r.Verdict, r.Props)
			}
			if !strings.Contains(r.Props[0].Reason, "zero") {
				t.Errorf("reason %q does not say the derivation divides by zero", r.Props[0].Reason)
			}
		})
	}
}

// A division whose divisor is never zero on the derivation does not stop
// a violation, and the violation says it was re-checked.
func TestViolationWithNonzeroDivisorIsChecked(t *testing.T) {
	r := mustProve(t, chcProblem(t, `
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 4) (inv x))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (div 16 x))) (inv y))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (* 4 x))) (inv y))))
(assert (forall ((x Int)) (=> (and (inv x) (= x 1)) false)))`), Options{TimeoutMS: 3000})
	if r.Verdict != "violated" {
		t.Fatalf("verdict %s, want violated; %+v", r.Verdict, r.Props)
	}
	if !strings.Contains(r.Props[0].Replay, "re-checked") {
		t.Errorf("replay %q does not say the derivation was re-checked", r.Props[0].Replay)
	}
}

// checkDerivation refuses a derivation that the clauses do not derive: a
// value changed along the way, a clause swapped.
func TestCheckDerivationRefusesTamperedDerivations(t *testing.T) {
	p := benchProblem(t, "counter2-unsafe.smt2")
	deadline := time.Now().Add(5 * time.Second)
	c, err := newChecker(p.Graph.Ctx, p.Graph, 2000, deadline)
	if err != nil {
		t.Fatal(err)
	}
	phi := make([]expr.Expr, len(p.Graph.Nodes))
	for _, pr := range p.Props {
		phi[pr.Node] = pr.Formula
	}
	out, err := searchViolation(c, phi, 12)
	if err != nil || !out.Found {
		t.Fatalf("no violation found: %v %+v", err, out)
	}
	if ok, why, err := checkDerivation(p.Graph.Ctx, p.Graph, out.deriv, 2000, deadline, nil); err != nil || !ok {
		t.Fatalf("the found derivation does not check: %v %s", err, why)
	}
	d := *out.deriv
	d.values = append([][]*z3.Term(nil), d.values...)
	bump, err := p.Graph.Ctx.IntVal(1000)
	if err != nil {
		t.Fatal(err)
	}
	last := len(d.values) - 1
	row := append([]*z3.Term(nil), d.values[last]...)
	row[0] = bump
	d.values[last] = row
	if ok, _, err := checkDerivation(p.Graph.Ctx, p.Graph, &d, 2000, deadline, nil); err != nil || ok {
		t.Errorf("a tampered derivation checked (err %v)", err)
	}
}

// A proof holds for every value of (div x 0): the checks that certify it
// leave that value free, so it stays a proof.
func TestDivisionByZeroProofStands(t *testing.T) {
	r := mustProve(t, chcProblem(t, `
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int)) (=> (and (inv x) (= (div x 0) 5) (> x 10)) false)))`), Options{TimeoutMS: 3000})
	if r.Verdict != "proved" {
		t.Errorf("verdict %s, want proved; %+v", r.Verdict, r.Props)
	}
}
