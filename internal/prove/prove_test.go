package prove

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/frontend/jsonfront"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/z3"
)

func chcProblem(t *testing.T, src string) *Problem {
	t.Helper()
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ctx.Close() })
	p, err := CHCProblem(ctx, "test.smt2", src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func benchProblem(t *testing.T, name string) *Problem {
	t.Helper()
	src, err := os.ReadFile("../../bench/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return chcProblem(t, string(src))
}

func mustProve(t *testing.T, p *Problem, opts Options) *Result {
	t.Helper()
	r, err := Prove(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const counter = `
(declare-fun c (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (c x))))
(assert (forall ((x Int) (y Int)) (=> (and (c x) (= y (+ x 1))) (c y))))
`

// A self-loop x' = x + 1: pre- and post-state must be different symbols.
// Were they one symbol, x = x + 1 would be unsatisfiable and the bogus RSC
// x <= 5 would be "verified".
func TestTripleSelfLoopScoping(t *testing.T) {
	p := chcProblem(t, counter)
	c, err := newChecker(p.Graph.Ctx, p.Graph, 2000, timeZero)
	if err != nil {
		t.Fatal(err)
	}
	parse := func(s string) expr.Expr {
		e, err := expr.ParseExpr(s)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	comps, status, err := c.verifyAll([]expr.Expr{parse("x0 <= 5")})
	if err != nil {
		t.Fatal(err)
	}
	if status[0] != Failed || len(comps[0].CTIs) != 1 {
		t.Fatalf("x0 <= 5: status %v, comps %+v; want one CTI", status, comps)
	}
	cti := comps[0].CTIs[0]
	if cti.Pre[0].Value != "5" || cti.Post[0].Value != "6" {
		t.Errorf("CTI = %+v, want 5 -> 6", cti)
	}
	_, status, err = c.verifyAll([]expr.Expr{parse("x0 >= 0")})
	if err != nil || status[0] != Verified {
		t.Fatalf("x0 >= 0: %v, %v", status, err)
	}
}

func TestComponentsOrder(t *testing.T) {
	// 0 -> 1 <-> 2 -> 3, 0 -> 3, 4 isolated.
	edges := []Edge{{From: 0, To: 1}, {From: 1, To: 2}, {From: 2, To: 1}, {From: 2, To: 3}, {From: 0, To: 3}}
	comps := components(5, edges)
	pos := map[int]int{}
	for i, c := range comps {
		for _, n := range c {
			pos[n] = i
		}
	}
	if len(comps) != 4 || pos[1] != pos[2] {
		t.Fatalf("components = %v", comps)
	}
	for _, e := range edges {
		if pos[e.From] > pos[e.To] {
			t.Errorf("edge %d -> %d goes backwards in %v", e.From, e.To, comps)
		}
	}
}

// A component is verified only when its upstream is: a failing cycle
// makes a downstream node verified_relative, never verified.
func TestUpstreamFailureIsRelative(t *testing.T) {
	p := chcProblem(t, counter+`
(declare-fun d (Int) Bool)
(assert (forall ((x Int)) (=> (c x) (d x))))`)
	c, err := newChecker(p.Graph.Ctx, p.Graph, 2000, timeZero)
	if err != nil {
		t.Fatal(err)
	}
	le5, _ := expr.ParseExpr("x0 <= 5")
	_, status, err := c.verifyAll([]expr.Expr{le5, le5})
	if err != nil {
		t.Fatal(err)
	}
	if status[0] != Failed || status[1] != VerifiedRelative {
		t.Errorf("statuses = %v, want [failed verified_relative]", status)
	}
}

// Fibonacci a > 0: 1-induction leaves a CTI that is not reported as a
// violation; 2-induction proves it.
func TestFibonacciSpuriousCTI(t *testing.T) {
	r := mustProve(t, benchProblem(t, "fib.smt2"), Options{MaxK: 1, Layers: []string{"triple", "kind"}})
	if r.Verdict != "unknown" || r.ExitCode() != 3 {
		t.Fatalf("k=1: verdict %s", r.Verdict)
	}
	pr := r.Props[0]
	if pr.Status != Unknown || pr.CTI == nil || pr.CTI.Class == "real" || pr.Trace != nil {
		t.Fatalf("k=1: %+v", pr)
	}
	r = mustProve(t, benchProblem(t, "fib.smt2"), Options{MaxK: 2, Layers: []string{"triple", "kind"}})
	if r.Verdict != "proved" || r.Props[0].Method != "k-induction (k=2)" || r.K != 2 {
		t.Fatalf("k=2: %s by %s", r.Verdict, r.Props[0].Method)
	}
	if r.Components[0].CTIs[0].Class != "spurious" {
		t.Errorf("the 1-induction CTI should be classified spurious once proved: %+v", r.Components[0].CTIs)
	}
}

func TestHoudiniStrengthens(t *testing.T) {
	r := mustProve(t, benchProblem(t, "bradley1.smt2"), Options{Layers: []string{"triple", "kind", "houdini"}})
	if r.Verdict != "proved" || r.Props[0].Method != "houdini" {
		t.Fatalf("%s by %s", r.Verdict, r.Props[0].Method)
	}
	if !strings.Contains(r.Certificate[0].RSC, "x0 >= 1") {
		t.Errorf("certificate %v lacks x0 >= 1", r.Certificate)
	}
}

func TestBenchmarks(t *testing.T) {
	for _, name := range []string{"fib", "bradley1", "bradley2", "tinelli", "counter2"} {
		r := mustProve(t, benchProblem(t, name+".smt2"), Options{})
		if r.Verdict != "proved" {
			t.Errorf("%s: %s", name, r.Verdict)
		}
		u := mustProve(t, benchProblem(t, name+"-unsafe.smt2"), Options{})
		if u.Verdict != "violated" || len(u.Props[0].Trace) == 0 {
			t.Errorf("%s-unsafe: %s", name, u.Verdict)
		}
	}
}

func TestSpacerProvesFib(t *testing.T) {
	r := mustProve(t, benchProblem(t, "fib.smt2"), Options{Layers: []string{"spacer"}})
	if r.Verdict != "proved" || r.Props[0].Method != "spacer" {
		t.Fatalf("%s by %s: %+v", r.Verdict, r.Props[0].Method, r.Layers)
	}
}

func TestCHCNonLinearRefused(t *testing.T) {
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	_, err = ParseCHC(ctx, "nl.smt2", `
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (p x))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (p x) (p y) (= z (+ x y))) (p z))))`)
	if err == nil || !strings.Contains(err.Error(), "non-linear clause") || !strings.Contains(err.Error(), "clause 2") {
		t.Fatalf("err = %v", err)
	}
}

func TestParseCHCShapes(t *testing.T) {
	p := chcProblem(t, `
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int)) (=> (inv x) (inv (+ x 2)))))
(assert (forall ((x Int)) (not (and (inv x) (< x 0)))))`)
	g := p.Graph
	if len(g.Starts) != 1 || len(g.Edges) != 2 || g.ErrorNode < 0 || len(p.Props) != 1 || p.Props[0].Node != 0 {
		t.Fatalf("graph %+v props %+v", g, p.Props)
	}
	if f := format(p.Props[0].Formula); f != "x0 < 0" && !strings.Contains(f, "!") {
		t.Errorf("lifted property = %s", f)
	}
	if r := mustProve(t, p, Options{}); r.Verdict != "proved" {
		t.Errorf("verdict %s", r.Verdict)
	}
}

func TestRSCFileErrors(t *testing.T) {
	p := chcProblem(t, counter)
	cases := map[string]string{
		"rsc \"c\": x0 >= 0;\nrsc \"nope\": true;":  "f.rsc:2:5: unknown state",
		"rsc \"c\": x0 >= ;":                        "f.rsc:1:",
		"rsc \"c\": x0 + 1;":                        "not bool",
		"rsc \"c\": y >= 0;":                        "f.rsc:1:10: unknown variable",
		"rsc \"c\": x0 >= 0\nrsc \"c\": true;":      `f.rsc:2:1: expected ";"`,
		"// comment\n  invariant \"c\": true;":      `f.rsc:2:3: expected "rsc"`,
		"rsc \"c\": x0 >= 0; // ok\nrsc c: true;\n": "f.rsc:2:5: expected a quoted state name",
	}
	for src, want := range cases {
		_, err := ParseRSC("f.rsc", src, p.Graph)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", src, err, want)
		}
	}
	props, err := ParseRSC("f.rsc", "// the counter\nrsc \"c\": x0 >= 0;\n", p.Graph)
	if err != nil || len(props) != 1 || props[0].Source != "f.rsc:2:1" {
		t.Fatalf("props %+v, err %v", props, err)
	}
}

// A lone "\r" ends a "//" comment and a line, as "\n" and "\r\n" do
// (docs/rsc.md): the constraint after it is read and proved or refuted,
// not hidden in the comment (issue 38 item 8.1: prove said PROVED of a
// file whose false constraint an editor showed on its own line).
func TestRSCLoneCR(t *testing.T) {
	p := chcProblem(t, counter)
	props, err := ParseRSC("f.rsc", "rsc \"c\": x0 >= 0; // first\rrsc \"c\": x0 < 0;\r\n", p.Graph)
	if err != nil || len(props) != 2 || props[1].Source != "f.rsc:2:1" {
		t.Fatalf("props %+v, err %v", props, err)
	}
	p.Props = props
	if r := mustProve(t, p, Options{}); r.Verdict == "proved" {
		t.Errorf("verdict %s with the false constraint x0 < 0", r.Verdict)
	}
	for src, want := range map[string]string{
		"rsc \"c\": x0 >= 0;\rrsc \"nope\": true;":   "f.rsc:2:5: unknown state",
		"rsc \"c\": x0 >= 0;\r\nrsc \"nope\": true;": "f.rsc:2:5: unknown state",
		"// c\r\r\n\rrsc \"c\": x0 >= ;":             "f.rsc:4:",
	} {
		if _, err := ParseRSC("f.rsc", src, p.Graph); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", src, err, want)
		}
	}
}

// An RSC printed by expr.Format reads back as itself, also for a
// variable whose name is not a plain identifier (printed var("…")).
func TestRSCReadsVarAtoms(t *testing.T) {
	p := chcProblem(t, counter)
	f := &expr.Binary{Op: expr.Ge, X: &expr.Ident{Name: "x0"}, Y: &expr.IntLit{Value: 0}}
	src := "rsc \"c\": var(\"x0\") >= 0;"
	props, err := ParseRSC("f.rsc", src, p.Graph)
	if err != nil || len(props) != 1 || !expr.Equal(props[0].Formula, f) {
		t.Fatalf("%s: props %+v, err %v", src, props, err)
	}
}

var timeZero = time.Time{}

// A var-in-range scoped to another state still holds the initial runtime to
// its range (docs/models.md), so prove agrees with S7: violated at
// step 0; and with an initial value in range it is proved.
func TestScopedRangeChecksTheInitialState(t *testing.T) {
	model := func(init int) string {
		return `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}, {"id": "B"}],
		  "transitions": [{"from": "A", "event": "go", "to": "B", "updates": [{"variable": "x", "op": "set", "value": 0}]}, {"from": "B", "event": "go", "to": "B"}],
		  "variables": [{"name": "x", "kind": "integer", "init": ` + strconv.Itoa(init) + `}],
		  "invariants": [{"id": "small-in-B", "description": "d", "kind": "var-in-range", "variable": "x", "max": 5, "when": {"state": "B"}}]}`
	}
	for init, want := range map[int]string{9: "violated", 3: "proved"} {
		res, err := jsonmodel.Decode([]byte(model(init)))
		if err != nil || !res.Valid() {
			t.Fatal(err, res.Errors)
		}
		p, err := ModelProblem(jsonfront.FromModel(res.Model, "m.json"))
		if err != nil {
			t.Fatal(err)
		}
		if r := mustProve(t, p, Options{}); r.Verdict != want {
			t.Errorf("init %d: %s, want %s", init, r.Verdict, want)
		}
	}
}

// A bound that only holds because of a guard on another path: the triple
// rule alone cannot prove it (A's RSC is just `true`), interval propagation
// with widening to the guard's constant finds 0 <= x <= 3 at both nodes.
func TestIntervalsStrengthen(t *testing.T) {
	src := `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}, {"id": "B"}],
	  "transitions": [
	    {"from": "A", "event": "inc", "to": "A", "guard": {"variable": "x", "op": "<", "value": 3}, "updates": [{"variable": "x", "op": "inc"}]},
	    {"from": "A", "event": "go", "to": "B"},
	    {"from": "B", "event": "back", "to": "A"}],
	  "variables": [{"name": "x", "kind": "integer", "init": 0}],
	  "invariants": [{"id": "x-small-in-B", "description": "d", "kind": "var-in-range", "variable": "x", "max": 3, "when": {"state": "B"}}]}`
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil || !res.Valid() {
		t.Fatal(err, res.Errors)
	}
	problem := func() *Problem {
		p, err := ModelProblem(jsonfront.FromModel(res.Model, "m.json"))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if r := mustProve(t, problem(), Options{Layers: []string{"triple"}}); r.Verdict == "proved" {
		t.Fatal("the triple rule alone should not prove it")
	}
	r := mustProve(t, problem(), Options{Layers: []string{"triple", "intervals"}})
	if r.Verdict != "proved" {
		t.Fatalf("verdict %s, layers %+v", r.Verdict, r.Layers)
	}
	for _, p := range r.Props {
		if p.Method != "intervals" && p.Method != "triple" {
			t.Errorf("%s proved by %s", p.ID, p.Method)
		}
	}
}

func TestIntervalWidening(t *testing.T) {
	// Thresholds stop a growing bound at the next model constant.
	got := widen(box{{0, 1}}, box{{0, 2}}, []int64{-1, 0, 1, 2, 3, 4})
	if got[0] != (interval{0, 2}) {
		t.Errorf("widen to threshold = %+v", got[0])
	}
	got = widen(box{{0, 4}}, box{{0, 9}}, []int64{2, 3, 4})
	if got[0].hi != posInf {
		t.Errorf("past the last threshold the bound goes to infinity: %+v", got[0])
	}
	an := &analysis{index: map[string]int{"x": 0}}
	b := box{{negInf, posInf}}
	guard := &expr.Binary{Op: expr.Land, X: bin(expr.Ge, ident("x"), lit(2)), Y: &expr.Unary{Op: expr.Not, X: bin(expr.Gt, ident("x"), lit(7))}}
	if !an.refine(b, guard, true) || b[0] != (interval{2, 7}) {
		t.Errorf("refine = %+v", b[0])
	}
	if an.refine(box{{0, 1}}, bin(expr.Gt, ident("x"), lit(5)), true) {
		t.Error("an infeasible guard must report no value left")
	}
}

// Once the time budget is spent, a query is answered unknown (timeout)
// without asking Z3: the layers still to run end at once instead of each
// spending a minimal timeout on every query, and no answer after the
// deadline decides anything.
func TestNoQueryAfterTheDeadline(t *testing.T) {
	p := chcProblem(t, counter)
	c, err := newChecker(p.Graph.Ctx, p.Graph, 0, time.Now().Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.solve(c.enc.b.Bool(false), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Result != z3.Unknown || a.Reason != "timeout" || c.queries != 0 {
		t.Errorf("answer %v (%s) after %d queries; want unknown (timeout) and no query", a.Result, a.Reason, c.queries)
	}
}

func TestNoViolationText(t *testing.T) {
	if got := noViolation(-1, "solver timeout"); got != "no depth decided (solver timeout)" {
		t.Errorf("depth -1: %q", got)
	}
	if got := noViolation(3, ""); got != "no violation within depth 3" {
		t.Errorf("depth 3: %q", got)
	}
}

// A proof whose requested inference was not decided exits 3, not 0.
func TestInferUndecidedExitCode(t *testing.T) {
	r := &Result{Verdict: "proved", InferReason: "houdini: solver unknown (timeout)"}
	if r.ExitCode() != 3 || r.JSON()["inferred_reason"] != r.InferReason {
		t.Errorf("exit %d, json %v", r.ExitCode(), r.JSON()["inferred_reason"])
	}
	if r.InferReason = ""; r.ExitCode() != 0 {
		t.Errorf("proved without inference: exit %d", r.ExitCode())
	}
}
