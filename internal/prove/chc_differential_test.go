package prove

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/z3"
)

// chcShape writes a random small CHC problem from r: one or two
// predicates over one or two integers, facts, linear rules and queries
// whose constraints mix comparisons, and, or, not and an occasional div
// or mod, each clause written in one of the shapes SMT-LIB allows (=>,
// a disjunction, a negated conjunction, a nested implication), now and
// then one that is not Horn.
func chcShape(r *rand.Rand) string {
	type pred struct {
		name  string
		arity int
	}
	preds := []pred{{"P", 1 + r.Intn(2)}}
	if r.Intn(2) == 0 {
		preds = append(preds, pred{"|Q r|", 1 + r.Intn(2)})
	}
	vars := []string{"x", "y", "z", "w"}
	lin := func() string {
		v := vars[r.Intn(len(vars))]
		switch r.Intn(5) {
		case 0:
			return fmt.Sprint(r.Intn(7) - 3)
		case 1:
			return fmt.Sprintf("(+ %s %d)", v, r.Intn(5)-2)
		case 2:
			return fmt.Sprintf("(* %d %s)", r.Intn(3)+1, v)
		case 3:
			if r.Intn(3) == 0 {
				return fmt.Sprintf("(%s %s %d)", []string{"div", "mod"}[r.Intn(2)], v, r.Intn(3)+1)
			}
		}
		return v
	}
	var atom func(depth int) string
	atom = func(depth int) string {
		if depth < 2 && r.Intn(4) == 0 {
			switch r.Intn(3) {
			case 0:
				return fmt.Sprintf("(and %s %s)", atom(depth+1), atom(depth+1))
			case 1:
				return fmt.Sprintf("(or %s %s)", atom(depth+1), atom(depth+1))
			default:
				return fmt.Sprintf("(not %s)", atom(depth+1))
			}
		}
		return fmt.Sprintf("(%s %s %s)", []string{"<=", "<", "=", ">=", ">"}[r.Intn(5)], lin(), lin())
	}
	app := func(p pred, args func(int) string) string {
		var as []string
		for i := 0; i < p.arity; i++ {
			as = append(as, args(i))
		}
		return "(" + p.name + " " + strings.Join(as, " ") + ")"
	}
	plain := func(i int) string { return vars[i] }
	next := func(int) string { return lin() }
	clause := func(body []string, head string) string {
		if len(body) == 0 {
			body = []string{"true"}
		}
		switch r.Intn(4) {
		case 0: // a disjunction of literals
			var lits []string
			for _, b := range body {
				lits = append(lits, "(not "+b+")")
			}
			return "(or " + strings.Join(lits, " ") + " " + head + ")"
		case 1: // a nested implication
			if len(body) > 1 {
				return fmt.Sprintf("(=> %s (=> (and %s) %s))", body[0], strings.Join(body[1:], " "), head)
			}
		case 2: // a query as a negated conjunction
			if head == "false" {
				return "(not (and " + strings.Join(body, " ") + "))"
			}
		}
		return fmt.Sprintf("(=> (and %s) %s)", strings.Join(body, " "), head)
	}
	var b strings.Builder
	for _, p := range preds {
		fmt.Fprintf(&b, "(declare-fun %s (%s) Bool)\n", p.name, strings.TrimSpace(strings.Repeat("Int ", p.arity)))
	}
	var clauses []string
	for _, p := range preds {
		clauses = append(clauses, clause([]string{atom(0)}, app(p, next)))
	}
	for i := r.Intn(3) + 1; i > 0; i-- {
		from, to := preds[r.Intn(len(preds))], preds[r.Intn(len(preds))]
		clauses = append(clauses, clause([]string{app(from, plain), atom(0)}, app(to, next)))
	}
	for i := r.Intn(2) + 1; i > 0; i-- {
		p := preds[r.Intn(len(preds))]
		clauses = append(clauses, clause([]string{app(p, plain), atom(0), atom(0), atom(0)}, "false"))
	}
	switch r.Intn(12) { // now and then a clause that is not Horn
	case 0:
		clauses = append(clauses, clause([]string{atom(0)}, "(or "+app(preds[0], next)+" "+app(preds[len(preds)-1], next)+")"))
	case 1:
		clauses = append(clauses, clause([]string{"(not " + app(preds[0], plain) + ")", atom(0)}, "false"))
	}
	for _, c := range clauses {
		fmt.Fprintf(&b, "(assert (forall ((x Int) (y Int) (z Int) (w Int)) %s))\n", c)
	}
	return b.String()
}

// z3Horn is Z3's own answer on a CHC problem: Spacer on the text as
// written, in a context of its own: sat, unsat or unknown.
func z3Horn(t *testing.T, src string, budget time.Duration) string {
	t.Helper()
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	fs, err := ctx.ParseSMTLIB2String(src)
	if err != nil {
		t.Fatalf("Z3 does not parse the generated problem: %v\n%s", err, src)
	}
	ans, err := solveHorn(ctx, fs, budget, time.Now().Add(budget), nil)
	if err != nil {
		return "unknown"
	}
	return map[string]string{"safe": "sat", "unsafe": "unsat"}[ans.Status]
}

// diffCHC runs one problem through stateproof and Z3's Spacer: a verdict
// of stateproof that Z3 decides the other way is a failure (a refusal
// and an undecided answer are never one). It returns what happened:
// refused, undecided, or the verdict and Z3's answer.
func diffCHC(t *testing.T, src string) string {
	t.Helper()
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	p, err := CHCProblem(ctx, "random.smt2", src)
	if err != nil {
		return "refused" // not Horn, non-linear, no fact: no answer to disagree with
	}
	r, err := Prove(p, Options{TimeoutMS: 1500, Workers: 1})
	if err != nil {
		t.Fatalf("prove: %v\n%s", err, src)
	}
	if r.Verdict != "proved" && r.Verdict != "violated" {
		return "undecided"
	}
	z := z3Horn(t, src, 3*time.Second)
	if r.Verdict == "proved" && z == "unsat" || r.Verdict == "violated" && z == "sat" {
		t.Fatalf("stateproof says %s, Z3's Spacer says %s:\n%s", r.Verdict, z, src)
	}
	return r.Verdict + "/" + z
}

// A seeded bounded run of the differential, in the normal test.
func TestCHCDifferentialAgainstSpacer(t *testing.T) {
	r := rand.New(rand.NewSource(27))
	n := 25
	if testing.Short() {
		n = 5
	}
	seen := map[string]int{}
	for i := 0; i < n; i++ {
		src := chcShape(r)
		t.Run(fmt.Sprint(i), func(t *testing.T) { seen[diffCHC(t, src)]++ })
	}
	t.Logf("outcomes: %v", seen)
	// The run must compare answers, not only refuse: both verdicts
	// decided by both sides, and the refusals of non-Horn shapes.
	if seen["proved/sat"] == 0 || seen["violated/unsat"] == 0 || seen["refused"] == 0 {
		t.Errorf("the seeded run compared too little: %v", seen)
	}
}

// FuzzCHCDifferential: random clause shapes from a fuzzed seed.
func FuzzCHCDifferential(f *testing.F) {
	for _, s := range []int64{1, 2, 3, 27} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed int64) {
		_ = diffCHC(t, chcShape(rand.New(rand.NewSource(seed))))
	})
}
