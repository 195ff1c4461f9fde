package main

import (
	"strings"
	"testing"
)

// prove FILE.smt2 on clauses that are not Horn: exit 2 with the clause's
// number and why, never a verdict (these inputs answered VIOLATED though
// they are satisfiable).
func TestProveRefusesNonHornCHC(t *testing.T) {
	for name, c := range map[string]struct{ src, want string }{
		"or-head": {`(declare-fun p (Int) Bool)
(declare-fun q (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (or (p x) (q x)))))
(assert (forall ((x Int)) (=> (and (p x) (< x 0)) false)))
`, "clause 1: not a Horn clause: 2 predicate applications in the head"},
		"negated-body": {`(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (p x))))
(assert (forall ((x Int)) (=> (and (not (p x)) (= x 1)) false)))
`, `clause 2: not a Horn clause: predicate "p" is negated in the body`},
		"negated-whole-body": {`(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int)) (=> (not (inv x)) (inv (+ x 1)))))
(assert (forall ((x Int)) (=> (and (inv x) (< x 0)) false)))
`, `clause 2: not a Horn clause: predicate "inv" is negated in the body`},
	} {
		t.Run(name, func(t *testing.T) {
			path := writeTemp(t, name+".smt2", c.src)
			out, stderr, code := runCLI(t, "prove", path, "--timeout-ms", "3000")
			if code != 2 || !strings.Contains(stderr, c.want) || strings.Contains(out, "VIOLATED") {
				t.Errorf("exit %d, want 2 with %q\nstdout %s\nstderr %s", code, c.want, out, stderr)
			}
		})
	}
}

// (div x 0) in a query: SMT-LIB leaves its value unspecified and Z3 says
// unknown; prove answered VIOLATED. Now: undecided, exit 3, with why.
func TestProveDivisionByZeroCHCIsUndecided(t *testing.T) {
	path := writeTemp(t, "div0.smt2", `(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int)) (=> (and (inv x) (= (div x 0) 5)) false)))
`)
	out, stderr, code := runCLI(t, "prove", path, "--timeout-ms", "3000")
	if code != 3 || !strings.Contains(out, "UNKNOWN") || !strings.Contains(out, "zero on the derivation") {
		t.Errorf("exit %d, want 3 with the division by zero as the reason\nstdout %s\nstderr %s", code, out, stderr)
	}
}
