package prove

import (
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
)

// The re-check (one query for all obligations, then one by one for the
// reason) passes the inductive RSCs of counter2 and fails each way they
// can be broken: a start, a transition, the property.
func TestRecheckEachObligation(t *testing.T) {
	p := benchProblem(t, "counter2.smt2")
	g := p.Graph
	phi := (&attempt{p: p}).target(allProps(p))
	parse := func(s string) expr.Expr {
		t.Helper()
		e, err := expr.ParseExpr(s)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	node := map[string]int{}
	for n := range g.Nodes {
		node[g.Nodes[n].Name] = n
	}
	rsc := func(l0, l1 string) []expr.Expr {
		out := make([]expr.Expr, len(g.Nodes))
		out[node["L0"]], out[node["L1"]] = parse(l0), parse(l1)
		if n, ok := node["false"]; ok {
			out[n] = parse("false")
		}
		return out
	}
	for _, tc := range []struct {
		name, l0, l1 string
		ok           bool
	}{
		{"inductive", "x1 == 2 * x0 && x0 <= 1000000", "x1 == 2000000", true},
		{"start", "x1 == 2 * x0 && x0 >= 1 && x0 <= 1000000", "x1 == 2000000", false},
		{"transition", "x1 == 2 * x0 && x0 <= 999999", "x1 == 2000000", false},
		{"property", "x1 == 2 * x0 && x0 <= 1000000", "x1 == 2 * x0", false},
	} {
		ok, why, err := recheckRSC(g.Ctx, g, rsc(tc.l0, tc.l1), phi, 2000, timeZero, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if ok != tc.ok || !ok && why == "" {
			t.Errorf("%s: re-check %v (%q), want %v with a reason when false", tc.name, ok, why, tc.ok)
		}
	}
}

// One candidate object asked about in the pre-state and the post-state of
// a query must be two formulas: the encoder's memo is per state. Were it
// one, x0 <= 5 would look inductive over x0' = x0 + 1.
func TestLoweredPerState(t *testing.T) {
	p := chcProblem(t, counter)
	c, err := newChecker(p.Graph.Ctx, p.Graph, 2000, timeZero)
	if err != nil {
		t.Fatal(err)
	}
	f, err := expr.ParseExpr("x0 <= 5")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // the second time from the memo
		_, status, err := c.verifyAll([]expr.Expr{f})
		if err != nil {
			t.Fatal(err)
		}
		if status[0] != Failed {
			t.Fatalf("round %d: x0 <= 5 is %s, want failed", i, status[0])
		}
	}
}
