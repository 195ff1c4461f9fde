package decide_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/decide"
	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/ltl"
	"github.com/stateproof/stateproof/internal/query"
)

// bfGraph is the test's own copy of the reachable space: per node its
// words, and per edge the target and the events the cycle read present.
type bfGraph struct {
	words   [][]int64
	to      [][]int
	taken   [][][]int
	enabled [][]int
	capped  bool // some node was not expanded: verdicts that need the whole space are not compared
	raises  bool
}

// bfMax caps the graphs of the differential, the test's and the
// engine's alike: both search breadth-first in the machine's order, so
// they hold the same nodes.
const bfMax = 60

func buildBF(mc *explicit.Machine, max int) *bfGraph {
	g := &bfGraph{}
	index := map[string]int{}
	add := func(w []int64) int {
		k := fmt.Sprint(w)
		if i, ok := index[k]; ok {
			return i
		}
		if len(g.words) >= max {
			return -1
		}
		index[k] = len(g.words)
		g.words = append(g.words, slices.Clone(w))
		return len(g.words) - 1
	}
	add(mc.Initial(make([]int64, mc.Width())))
	var buf concrete.Buffer
	for v := 0; v < len(g.words); v++ {
		var to []int
		var taken [][]int
		var en []int
		if mc.Location(g.words[v][0]).Kind == explicit.Ended {
			to, taken = []int{v}, [][]int{nil}
		} else {
			os, ins := mc.Inputs(g.words[v], &buf, nil)
			cut := false
			for i, o := range os {
				for _, e := range ins[i].Present {
					if !slices.Contains(en, e) {
						en = append(en, e)
					}
				}
				if k := mc.Location(o.Next[0]).Kind; k == explicit.Raised || k == explicit.Undecided {
					g.raises = true
					continue
				}
				w := add(o.Next)
				if w < 0 {
					cut = true
					continue
				}
				to, taken = append(to, w), append(taken, slices.Clone(ins[i].Present))
			}
			if cut {
				g.capped, to, taken = true, nil, nil
			}
		}
		g.to, g.taken, g.enabled = append(g.to, to), append(g.taken, taken), append(g.enabled, en)
	}
	return g
}

// lasso is positions 0..len-1 (node, events taken by the step into it);
// after the last position comes position loop.
type lasso struct {
	nodes []int
	taken [][]int
	loop  int
}

// eval is the textbook semantics on a lasso, written apart from package
// ltl's: every subformula's value at every position, fixpoints iterated
// until stable.
func eval(f *ltl.Formula, l *lasso, atom func(a *ltl.Atom, pos int) bool) []bool {
	n := len(l.nodes)
	next := func(i int) int {
		if i == n-1 {
			return l.loop
		}
		return i + 1
	}
	out := make([]bool, n)
	var a, b []bool
	if f.L != nil {
		a = eval(f.L, l, atom)
	}
	if f.R != nil {
		b = eval(f.R, l, atom)
	}
	init := f.Op == ltl.OpGlobally || f.Op == ltl.OpRelease || f.Op == ltl.OpWeakUntil
	for i := range out {
		out[i] = init
	}
	for round := 0; round < 2*n+2; round++ {
		for i := n - 1; i >= 0; i-- {
			switch f.Op {
			case ltl.OpTrue:
				out[i] = true
			case ltl.OpFalse:
				out[i] = false
			case ltl.OpAtom:
				out[i] = atom(f.Atom, i)
			case ltl.OpNot:
				out[i] = !a[i]
			case ltl.OpAnd:
				out[i] = a[i] && b[i]
			case ltl.OpOr:
				out[i] = a[i] || b[i]
			case ltl.OpImplies:
				out[i] = !a[i] || b[i]
			case ltl.OpIff:
				out[i] = a[i] == b[i]
			case ltl.OpNext:
				out[i] = a[next(i)]
			case ltl.OpGlobally:
				out[i] = a[i] && out[next(i)]
			case ltl.OpFinally:
				out[i] = a[i] || out[next(i)]
			case ltl.OpUntil, ltl.OpWeakUntil:
				out[i] = b[i] || a[i] && out[next(i)]
			case ltl.OpRelease:
				out[i] = b[i] && (a[i] || out[next(i)])
			}
		}
	}
	return out
}

// fair reports whether the lasso's loop is fair: a weakly fair event
// enabled at every node of the loop is taken on one of its steps, a
// strongly fair one enabled at some node of it too.
func (g *bfGraph) fair(l *lasso, weak, strong []int) bool {
	loop := l.nodes[l.loop-1 : len(l.nodes)-1] // the nodes the loop's steps leave
	var taken []int
	for _, t := range l.taken[l.loop:] {
		taken = append(taken, t...)
	}
	for _, e := range append(slices.Clone(weak), strong...) {
		strongE := slices.Contains(strong, e)
		all, some := true, false
		for _, v := range loop {
			on := slices.Contains(g.enabled[v], e)
			all, some = all && on, some || on
		}
		if (all || strongE && some) && !slices.Contains(taken, e) {
			return false
		}
	}
	return true
}

// lassos calls yield with every lasso of at most maxLen steps from the
// initial node.
func (g *bfGraph) lassos(maxLen int, yield func(*lasso)) {
	g.lassosFrom([]int{0}, [][]int{nil}, maxLen, yield)
}

// lassosFrom calls yield with every lasso of at most maxLen steps that
// starts with the positions nodes, taken.
func (g *bfGraph) lassosFrom(nodes []int, taken [][]int, maxLen int, yield func(*lasso)) {
	nodes, taken = slices.Clone(nodes), slices.Clone(taken)
	var walk func()
	walk = func() {
		last := nodes[len(nodes)-1]
		for j := 0; j < len(nodes)-1; j++ {
			if nodes[j] == last {
				yield(&lasso{nodes: nodes, taken: taken, loop: j + 1})
			}
		}
		if len(nodes)-1 == maxLen {
			return
		}
		for i, w := range g.to[last] {
			nodes, taken = append(nodes, w), append(taken, g.taken[last][i])
			walk()
			nodes, taken = nodes[:len(nodes)-1], taken[:len(taken)-1]
		}
	}
	walk()
}

// randomFormula draws an LTL formula over FBMCQ atoms.
func randomFormula(r *rand.Rand, states, events []string, depth int) string {
	if depth == 0 || r.IntN(4) == 0 {
		switch r.IntN(4) {
		case 0:
			return fmt.Sprintf("active(%q)", states[r.IntN(len(states))])
		case 1:
			return fmt.Sprintf("event(%q)", events[r.IntN(len(events))])
		case 2:
			return fmt.Sprintf("var(\"x\") %s %d", []string{"<", ">=", "==", "!="}[r.IntN(4)], r.IntN(4))
		}
		return fmt.Sprintf("var(\"y\") > %d", r.IntN(3))
	}
	sub := func() string { return randomFormula(r, states, events, depth-1) }
	switch r.IntN(10) {
	case 0:
		return "!" + sub()
	case 1, 2, 3:
		return fmt.Sprintf("%s (%s)", []string{"X", "F", "G"}[r.IntN(3)], sub())
	}
	op := []string{"&&", "||", "->", "U", "R", "W", "<->"}[r.IntN(7)]
	return fmt.Sprintf("(%s) %s (%s)", sub(), op, sub())
}

// TestLTLAgreesWithLassoEnumeration decides random formulas on random
// models, with random fairness, and checks every verdict against an
// enumeration of the lassos of the graph: a violating fair lasso
// enumerated means no "satisfied"; "satisfied" on a complete graph means
// none is enumerated; a lasso the engine reports is a fair violation by
// the test's own evaluation; on a complete graph of few states, every
// violation found by the engine is found by the enumeration too when
// the engine's lasso is short enough for it.
func TestLTLAgreesWithLassoEnumeration(t *testing.T) {
	const maxLen = 7
	decided := map[string]int{}
	for seed := uint64(1); seed <= 40; seed++ {
		src := fcstmtest.RandomModel(seed)
		m, fm, mc := setup(t, src)
		g := buildBF(mc, bfMax)
		r := rand.New(rand.NewPCG(seed, 4))
		states := []string{"Root.A", "Root.B", "Root.C", "Root.K", "Root.K.K2"}
		events := mc.Events()
		for range 12 {
			formula := randomFormula(r, states, events, 3)
			weak, strong := pick(r, events), pick(r, events)
			text := "check ltl" + clause("fair", events, weak) + clause("strong", events, strong) + ": " + formula + ";"
			t.Logf("seed %d: %s", seed, text)
			outcome := ltlAgrees(t, m, fm, mc, g, text, weak, strong, maxLen)
			decided[outcome]++
		}
	}
	t.Logf("outcomes: %v", decided)
	if decided["property_satisfied"] == 0 || decided["property_violated"] == 0 {
		t.Errorf("the random formulas decide one way only: %v", decided)
	}
}

func pick(r *rand.Rand, events []string) []int {
	var out []int
	for i := range events {
		if r.IntN(4) == 0 {
			out = append(out, i)
		}
	}
	return out
}

func clause(word string, events []string, idx []int) string {
	if len(idx) == 0 {
		return ""
	}
	var q []string
	for _, i := range idx {
		q = append(q, fmt.Sprintf("%q", events[i]))
	}
	return " " + word + " { " + strings.Join(q, ", ") + " }"
}

// ltlAgrees decides one query and compares it with the enumeration.
func ltlAgrees(t *testing.T, m *model.Model, fm *frontend.Model, mc *explicit.Machine, g *bfGraph, text string, weak, strong []int, maxLen int) string {
	t.Helper()
	q := bindLTL(t, fm, text)
	res, err := decide.Decide(m, fm.System, mc, q, decide.Options{MaxStates: bfMax})
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	f := parseLTL(t, m, mc, q.Check.Formula)
	atomAt := func(l *lasso) func(a *ltl.Atom, pos int) bool {
		return func(a *ltl.Atom, pos int) bool { return atomValue(m, mc, g.words[l.nodes[pos]], l.taken[pos], a) }
	}
	var found *lasso
	g.lassos(maxLen, func(l *lasso) {
		if found == nil && g.fair(l, weak, strong) && !eval(f, l, atomAt(l))[0] {
			found = &lasso{nodes: slices.Clone(l.nodes), taken: slices.Clone(l.taken), loop: l.loop}
		}
	})
	complete := !g.capped && !g.raises
	switch res.Outcome {
	case "property_satisfied":
		if found != nil {
			t.Fatalf("%s: satisfied, but the lasso %v (loop at %d) violates it fairly", text, found.nodes, found.loop)
		}
		if !complete {
			t.Fatalf("%s: satisfied on a capped or raising graph", text)
		}
	case "property_violated":
		l := evidenceLasso(t, g, mc, res)
		if res.Lasso {
			if !g.fair(l, weak, strong) || eval(f, l, atomAt(l))[0] {
				t.Fatalf("%s: the engine's lasso %v (loop at %d) is not a fair violation", text, l.nodes, l.loop)
			}
			break
		}
		// a bad prefix: every enumerated lasso that starts with it violates
		// the formula
		g.lassosFrom(l.nodes, l.taken, len(l.nodes)+4, func(x *lasso) {
			if eval(f, x, atomAt(x))[0] {
				t.Fatalf("%s: the lasso %v (loop at %d) starts with the bad prefix %v and satisfies the formula", text, x.nodes, x.loop, l.nodes)
			}
		})
	case "unknown":
		if complete && !strings.HasPrefix(res.Reason, "product cap reached") {
			t.Fatalf("%s: unknown on a complete graph: %s", text, res.Reason)
		}
	default:
		t.Fatalf("%s: outcome %s", text, res.Outcome)
	}
	return res.Outcome
}

func bindLTL(t *testing.T, fm *frontend.Model, text string) *query.Query {
	t.Helper()
	q, err := query.Parse("<check>", text)
	if err == nil {
		err = query.Bind(q, fm.System, query.BindOptions{LTL: true})
	}
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return q
}

func parseLTL(t *testing.T, m *model.Model, mc *explicit.Machine, formula string) *ltl.Formula {
	t.Helper()
	voc := &ltl.Vocabulary{States: map[string]bool{}, Events: map[string]bool{}, Vars: map[string]bool{}, Calls: true}
	for p := range m.StateByPath {
		voc.States[p] = true
	}
	for _, e := range mc.Events() {
		voc.Events[e] = true
	}
	for _, v := range m.Vars {
		voc.Vars[v.Name] = false
	}
	f, err := ltl.Parse(formula, voc)
	if err != nil {
		t.Fatalf("%s: %v", formula, err)
	}
	return f
}

// atomValue reads an atom at a position: active as bmc reads it, an
// integer variable's word, the events the step into the position took.
func atomValue(m *model.Model, mc *explicit.Machine, words []int64, taken []int, a *ltl.Atom) bool {
	switch a.Kind {
	case ltl.LastEvent:
		return slices.Contains(taken, slices.Index(mc.Events(), a.Name))
	case ltl.InState:
		loc := mc.Location(words[0])
		return loc.Kind == explicit.Running && (loc.State == a.Name || strings.HasPrefix(loc.State, a.Name+"."))
	}
	i := slices.IndexFunc(m.Vars, func(v *model.Variable) bool { return v.Name == a.Name })
	x := words[1+i]
	switch a.Cmp {
	case "<":
		return x < a.Value
	case ">=":
		return x >= a.Value
	case "==":
		return x == a.Value
	case "!=":
		return x != a.Value
	case ">":
		return x > a.Value
	}
	return x <= a.Value
}

// evidenceLasso finds the engine's lasso (or bad prefix) in the test's
// graph: the frames are matched to nodes by following the steps' inputs
// from node 0.
func evidenceLasso(t *testing.T, g *bfGraph, mc *explicit.Machine, res *decide.Result) *lasso {
	t.Helper()
	l := &lasso{nodes: []int{0}, taken: [][]int{nil}, loop: res.Loop + 1}
	for i, in := range res.Steps {
		var set []int
		for _, name := range in {
			set = append(set, slices.Index(mc.Events(), name))
		}
		slices.Sort(set)
		v, next := l.nodes[i], -1
		for k, w := range g.to[v] {
			tk := slices.Clone(g.taken[v][k])
			slices.Sort(tk)
			if slices.Equal(tk, set) {
				next = w
				break
			}
		}
		if next < 0 {
			t.Fatalf("step %d of the engine's lasso (%v) is no edge of the graph", i, in)
		}
		l.nodes, l.taken = append(l.nodes, next), append(l.taken, set)
	}
	if res.Lasso && l.nodes[len(l.nodes)-1] != l.nodes[res.Loop] {
		t.Fatalf("the engine's lasso does not close: frame %d is node %d, frame %d node %d", len(l.nodes)-1, l.nodes[len(l.nodes)-1], res.Loop, l.nodes[res.Loop])
	}
	return l
}

// A clock that only a fair environment keeps ticking.
const ticker = `state R {
    state A;
    state B;
    [*] -> A;
    A -> B : Tick;
    B -> A : Tick;
}
`

// A goal that Go reaches from A only, where T, read first, wins: Go is
// enabled at A and not at B, so the loop A, B, A, … starves it and is
// weakly fair to it; strong fairness rules the loop out.
const intermittent = `state R {
    state A;
    state B;
    state G;
    [*] -> A;
    A -> B : T;
    A -> G : Go;
    B -> A : T;
}
`

// TestLTLFairness pins answers reasoned out by hand on the two models
// above: a liveness property that fails without fairness and holds under
// weak fairness, and one that needs strong fairness.
func TestLTLFairness(t *testing.T) {
	for _, c := range []struct {
		src, check, outcome string
	}{
		{ticker, `check ltl: G F active("R.B");`, "property_violated"}, // tick never comes
		{ticker, `check ltl fair { "R.Tick" }: G F active("R.B");`, "property_satisfied"},
		{ticker, `check ltl fair *: G F active("R.B") && G F active("R.A");`, "property_satisfied"},
		{ticker, `check ltl fair { "R.Tick" }: G (active("R.A") -> X (active("R.B") || active("R.A")));`, "property_satisfied"},
		{ticker, `check ltl fair { "R.Tick" }: G (event("R.Tick") -> !active("R.A") || X active("R.B"));`, "property_violated"},
		{ticker, `check ltl: G (event("R.Tick") -> (active("R.A") || active("R.B")));`, "property_satisfied"},
		{intermittent, `check ltl fair { "R.T" }: F active("R.G");`, "property_violated"},
		{intermittent, `check ltl fair { "R.T", "R.Go" }: F active("R.G");`, "property_violated"}, // A, B, A, … is weakly fair to Go
		{intermittent, `check ltl fair { "R.T" } strong { "R.Go" }: F active("R.G");`, "property_satisfied"},
		{intermittent, `check ltl strong *: F active("R.G");`, "property_satisfied"},
		{intermittent, `check ltl strong { "R.Go" }: F active("R.G");`, "property_violated"}, // T may stop: stay in B
	} {
		m, fm, mc := setup(t, c.src)
		q := bindLTL(t, fm, c.check)
		res, err := decide.Decide(m, fm.System, mc, q, decide.Options{MaxStates: 100})
		if err != nil {
			t.Fatalf("%s: %v", c.check, err)
		}
		if res.Outcome != c.outcome {
			t.Errorf("%s: %s (%s), want %s", c.check, res.Outcome, res.Reason, c.outcome)
		}
		if res.Outcome == "property_violated" && (len(res.Frames) < 2 || len(res.Frames) != len(res.Steps)+1) {
			t.Errorf("%s: the counterexample is no run: %+v", c.check, res)
		}
	}
}

// A model whose every cycle in B raises: the run into B violates G !B
// whatever it does next, but it has no continuation, so the answer is
// unknown, not a violation (every finite run goes on as a fair one only
// where no cycle raises); a formula that holds on the runs that stay
// clear of B is unknown too.
func TestLTLRaise(t *testing.T) {
	const src = `def int x = 0;
state R {
    state A;
    state B { during { x = x + 1 + 0 * (1 / (2 - x)); } }
    [*] -> A;
    A -> B : Go;
}
`
	m, fm, mc := setup(t, src)
	for check, reason := range map[string]string{
		`check ltl: G !active("R.B");`:          "so it may have no infinite continuation",
		`check ltl: G F active("R.A") || true;`: "raises a runtime error",
	} {
		res, err := decide.Decide(m, fm.System, mc, bindLTL(t, fm, check), decide.Options{MaxStates: 100})
		if err != nil || res.Outcome != "unknown" || !strings.Contains(res.Reason, reason) {
			t.Errorf("%s: %+v %v, want unknown (%s)", check, res, err, reason)
		}
	}
}
