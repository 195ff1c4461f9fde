package prove

import (
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/z3"
)

// Clauses that are not Horn (a disjunction of predicates in a head, a
// predicate under a negation in a body) were read as if they were, and a
// satisfiable problem answered violated. Each must be refused, with the
// clause's number and the reason.
func TestParseCHCRefusesNonHorn(t *testing.T) {
	for name, c := range map[string]struct {
		src, clause, why string
	}{
		"disjunction of predicates in the head": {`
(declare-fun p (Int) Bool)
(declare-fun q (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (or (p x) (q x)))))
(assert (forall ((x Int)) (=> (and (p x) (< x 0)) false)))`, "clause 1", "2 predicate applications in the head"},
		"negated predicate in a body": {`
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (p x))))
(assert (forall ((x Int)) (=> (and (not (p x)) (= x 1)) false)))`, "clause 2", "negated"},
		"negated predicate as the whole body": {`
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int)) (=> (not (inv x)) (inv (+ x 1)))))
(assert (forall ((x Int)) (=> (and (inv x) (< x 0)) false)))`, "clause 2", "negated"},
		"predicate inside a constraint": {`
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (p x))))
(assert (forall ((x Int)) (=> (and (or (p x) (= x 2)) (= x 1)) false)))`, "clause 2", "inside"},
		"predicate as a predicate's argument": {`
(declare-fun p (Int) Bool)
(declare-fun b (Bool) Bool)
(assert (forall ((x Int)) (=> (= x 0) (p x))))
(assert (forall ((x Int)) (=> (p x) (b (p x)))))`, "clause 2", "argument"},
		"conjunction of predicates in the head": {`
(declare-fun p (Int) Bool)
(declare-fun q (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (and (p x) (q x)))))`, "clause 1", "inside"},
	} {
		t.Run(name, func(t *testing.T) {
			ctx, err := z3.NewContext()
			if err != nil {
				t.Fatal(err)
			}
			defer ctx.Close()
			_, err = CHCProblem(ctx, "t.smt2", c.src)
			if err == nil {
				t.Fatal("accepted a clause that is not Horn")
			}
			msg := err.Error()
			if !strings.Contains(msg, c.clause+":") || !strings.Contains(msg, "not a Horn clause") || !strings.Contains(msg, c.why) {
				t.Errorf("error %q: want %q, %q and the reason %q", msg, c.clause, "not a Horn clause", c.why)
			}
		})
	}
}

// Horn clauses written as disjunctions or with nested implications are
// normalised, not refused, and mean what they say.
func TestParseCHCNormalisesHornShapes(t *testing.T) {
	for name, c := range map[string]struct {
		src     string
		verdict string
	}{
		"clause as a disjunction": {`
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (or (not (= x 0)) (p x))))
(assert (forall ((x Int) (y Int)) (or (not (p x)) (not (< x 3)) (not (= y (+ x 1))) (p y))))
(assert (forall ((x Int)) (or (not (p x)) (<= x 3))))`, "proved"},
		"nested implication": {`
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (p x))))
(assert (forall ((x Int) (y Int)) (=> (p x) (=> (= y (+ x 1)) (p y)))))
(assert (forall ((x Int)) (=> (p x) (=> (= x 5) false))))`, "violated"},
		"negated body as a query": {`
(declare-fun p (Int) Bool)
(assert (p 0))
(assert (not (p 0)))`, "violated"},
	} {
		t.Run(name, func(t *testing.T) {
			r := mustProve(t, chcProblem(t, c.src), Options{TimeoutMS: 5000})
			if r.Verdict != c.verdict {
				t.Errorf("verdict %s, want %s; layers %+v", r.Verdict, c.verdict, r.Layers)
			}
		})
	}
}
