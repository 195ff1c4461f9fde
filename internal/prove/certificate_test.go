package prove

import (
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/z3"
)

// checkScript runs an SMT-LIB2 script's assertions on a fresh solver.
func checkScript(t *testing.T, text string) z3.Result {
	t.Helper()
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	fs, err := ctx.ParseSMTLIB2String(text)
	if err != nil {
		t.Fatalf("the certificate does not parse: %v\n%s", err, text)
	}
	s, err := ctx.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if err := s.Assert(f); err != nil {
			t.Fatal(err)
		}
	}
	r, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The written certificate re-checks on Z3's own solver (unsat: every
// obligation holds), and the same script with one RSC weakened to true
// is sat, so the script does check the RSCs.
func TestCertificateRechecks(t *testing.T) {
	p := benchProblem(t, "counter2.smt2")
	r := mustProve(t, p, Options{})
	if r.Verdict != "proved" {
		t.Fatalf("verdict %s", r.Verdict)
	}
	text, err := p.Certificate(r)
	if err != nil {
		t.Fatal(err)
	}
	if got := checkScript(t, text); got != z3.Unsat {
		t.Fatalf("certificate check = %s, want unsat\n%s", got, text)
	}
	weak := *r
	weak.rsc = append([]expr.Expr(nil), r.rsc...)
	for n := range weak.rsc {
		if n != p.Graph.ErrorNode {
			weak.rsc[n] = nil
		}
	}
	text, err = p.Certificate(&weak)
	if err != nil {
		t.Fatal(err)
	}
	if got := checkScript(t, text); got != z3.Sat {
		t.Errorf("a weakened certificate checks as %s, want sat", got)
	}
}
