package ltl

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

var testVoc = &Vocabulary{
	States: map[string]bool{"S0": true, "S1": true, "S2": true},
	Events: map[string]bool{"e0": true, "e1": true, "e2": true},
	Vars:   map[string]bool{"x": false, "b": true},
}

// testSystem is a random system of up to 6 nodes: node v is in state
// S(v%3) with random x in 0..2 and b; edges carry events e0..e2.
type testSystem struct {
	*System
	x    []int64
	b    []bool
	name string
}

func randomSystem(r *rand.Rand) *testSystem {
	n := 1 + r.IntN(6)
	ts := &testSystem{x: make([]int64, n), b: make([]bool, n)}
	sys := &System{Off: make([]int, n+1), NumEvents: 3}
	for v := range n {
		ts.x[v], ts.b[v] = int64(r.IntN(3)), r.IntN(2) == 0
		for range r.IntN(3) {
			sys.To = append(sys.To, int32(r.IntN(n)))
			sys.Event = append(sys.Event, int32(r.IntN(3)))
		}
		sys.Off[v+1] = len(sys.To)
	}
	sys.EventIndex = func(name string) int { return int(name[1] - '0') }
	sys.Holds = func(a *Atom, v int) bool {
		switch {
		case a.Kind == InState:
			return int(a.Name[1]-'0') == v%3
		case a.Name == "b":
			return (ts.b[v] == (a.Value == 1)) == (a.Cmp == "==")
		}
		return compare(ts.x[v], a.Cmp, a.Value)
	}
	enabled := make([][]int32, n)
	for v := range n {
		for k := sys.Off[v]; k < sys.Off[v+1]; k++ {
			if !slices.Contains(enabled[v], sys.Event[k]) {
				enabled[v] = append(enabled[v], sys.Event[k])
			}
		}
	}
	sys.Enabled = func(v int) []int32 { return enabled[v] }
	switch r.IntN(3) {
	case 1:
		sys.Weak = []bool{r.IntN(2) == 0, r.IntN(2) == 0, true}
	case 2:
		sys.Strong = []bool{r.IntN(2) == 0, true, false}
		sys.Weak = []bool{false, false, r.IntN(2) == 0}
	}
	ts.System = sys
	ts.name = fmt.Sprintf("off %v to %v ev %v x %v b %v weak %v strong %v", sys.Off, sys.To, sys.Event, ts.x, ts.b, sys.Weak, sys.Strong)
	return ts
}

func compare(x int64, op string, c int64) bool {
	switch op {
	case "==":
		return x == c
	case "!=":
		return x != c
	case "<":
		return x < c
	case "<=":
		return x <= c
	case ">":
		return x > c
	}
	return x >= c
}

var testAtoms = []string{"S0", "S1", "\"S2\"", "@e0", "@e1", "x > 0", "x == 2", "b", "b == false", "true", "false"}

func randomFormula(r *rand.Rand, depth int) string {
	if depth == 0 || r.IntN(4) == 0 {
		return testAtoms[r.IntN(len(testAtoms))]
	}
	switch k := r.IntN(11); {
	case k < 4:
		return []string{"!", "X ", "G ", "F "}[k] + randomFormula(r, depth-1)
	default:
		op := []string{"&&", "||", "->", "<->", "U", "R", "W"}[k-4]
		return "(" + randomFormula(r, depth-1) + " " + op + " " + randomFormula(r, depth-1) + ")"
	}
}

// holdsAt is the brute-force semantics: at position i of the word,
// unrolled as far as needed (every suffix repeats within len positions).
func holdsAt(f *Formula, ts *testSystem, w *Word, i int) bool {
	return (&brute{ts: ts, w: w, memo: map[memoKey]bool{}}).at(f, i)
}

type memoKey struct {
	f *Formula
	i int
}

type brute struct {
	ts   *testSystem
	w    *Word
	memo map[memoKey]bool
}

func (b *brute) at(f *Formula, i int) bool {
	if v, ok := b.memo[memoKey{f, i}]; ok {
		return v
	}
	v := b.eval(f, i)
	b.memo[memoKey{f, i}] = v
	return v
}

func (b *brute) eval(f *Formula, i int) bool {
	ts, w := b.ts, b.w
	n := len(w.Nodes)
	next := func(i int) int {
		if i == n-1 {
			return w.Loop
		}
		return i + 1
	}
	// future lists i and the positions after it, 2n of them: enough to
	// see every position of the loop.
	future := func(i int) []int {
		out := make([]int, 0, 2*n)
		for range 2 * n {
			out = append(out, i)
			i = next(i)
		}
		return out
	}
	switch f.Op {
	case OpTrue:
		return true
	case OpFalse:
		return false
	case OpAtom:
		if f.Atom.Kind == LastEvent {
			return w.Events[i] >= 0 && w.Events[i] == int(f.Atom.Name[1]-'0')
		}
		return ts.Holds(f.Atom, w.Nodes[i])
	case OpNot:
		return !b.at(f.L, i)
	case OpAnd:
		return b.at(f.L, i) && b.at(f.R, i)
	case OpOr:
		return b.at(f.L, i) || b.at(f.R, i)
	case OpImplies:
		return !b.at(f.L, i) || b.at(f.R, i)
	case OpIff:
		return b.at(f.L, i) == b.at(f.R, i)
	case OpNext:
		return b.at(f.L, next(i))
	case OpGlobally, OpFinally:
		for _, j := range future(i) {
			if b.at(f.L, j) != (f.Op == OpGlobally) {
				return f.Op == OpFinally
			}
		}
		return f.Op == OpGlobally
	}
	// U, R, W: walk until the right side decides or the loop is seen.
	for _, j := range future(i) {
		l, r := b.at(f.L, j), b.at(f.R, j)
		switch f.Op {
		case OpUntil, OpWeakUntil:
			if r {
				return true
			}
			if !l {
				return false
			}
		case OpRelease:
			if !r {
				return false
			}
			if l {
				return true
			}
		}
	}
	return f.Op != OpUntil
}

// lassos enumerates every run of the system of at most bound steps that
// closes a loop (or stutters in a dead end), keeping the fair ones.
func lassos(ts *testSystem, bound int) []*Word {
	var out []*Word
	nodes, events, edges := []int{ts.Init}, []int{-1}, []int{}
	var walk func()
	walk = func() {
		m := len(nodes) - 1
		v := nodes[m]
		if ts.Off[v] == ts.Off[v+1] { // dead end: stutter forever
			out = append(out, &Word{Nodes: append(slices.Clone(nodes), v), Events: append(slices.Clone(events), -1), Loop: m + 1})
			return
		}
		for cs := 0; cs < m; cs++ {
			if nodes[cs] == v && fairCycle(ts, edges[cs:]) {
				out = append(out, &Word{Nodes: slices.Clone(nodes), Events: slices.Clone(events), Loop: cs + 1})
			}
		}
		if m == bound {
			return
		}
		for k := ts.Off[v]; k < ts.Off[v+1]; k++ {
			nodes, events, edges = append(nodes, int(ts.To[k])), append(events, int(ts.Event[k])), append(edges, k)
			walk()
			nodes, events, edges = nodes[:len(nodes)-1], events[:len(events)-1], edges[:len(edges)-1]
		}
	}
	walk()
	return out
}

// fairCycle applies the fairness conditions to a cycle repeated forever.
func fairCycle(ts *testSystem, cycle []int) bool {
	taken := map[int32]bool{}
	count := map[int32]int{}
	var nodes []int
	for _, k := range cycle {
		if k < 0 {
			return true // a stutter: nothing is enabled
		}
		taken[ts.Event[k]] = true
		v := int(ts.To[k])
		if !slices.Contains(nodes, v) {
			nodes = append(nodes, v)
		}
	}
	for _, v := range nodes {
		for _, e := range ts.Enabled(v) {
			count[e]++
		}
	}
	for e := int32(0); e < 3; e++ {
		if ts.Weak != nil && ts.Weak[e] && !taken[e] && count[e] == len(nodes) {
			return false
		}
		if ts.Strong != nil && ts.Strong[e] && !taken[e] && count[e] > 0 {
			return false
		}
	}
	return true
}

// runOf checks that a counterexample follows the system's edges from its
// initial node and closes, and returns its cycle's edges.
func runOf(t *testing.T, ts *testSystem, res Result) {
	t.Helper()
	at := ts.Init
	for i, k := range append(slices.Clone(res.Prefix), res.Cycle...) {
		if k < 0 {
			if ts.Off[at] != ts.Off[at+1] {
				t.Fatalf("stutter step %d at node %d, which is no dead end", i, at)
			}
			continue
		}
		if k < ts.Off[at] || k >= ts.Off[at+1] {
			t.Fatalf("step %d: edge %d does not leave node %d", i, k, at)
		}
		at = int(ts.To[k])
	}
	if len(res.Cycle) == 0 || res.Word.Nodes[res.Word.Loop-1] != at {
		t.Fatalf("cycle %v does not close at %d: %+v", res.Cycle, at, res.Word)
	}
}

// TestAgreesWithBruteForce: 300 random formulas on 50 random systems; the
// engine and the lasso enumeration agree wherever both decide, and every
// counterexample is a fair run of the system that violates the formula by
// the brute-force semantics.
func TestAgreesWithBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 2))
	var formulas []*Formula
	var props []*Property
	for len(formulas) < 300 {
		src := randomFormula(r, 4)
		f, err := Parse(src, testVoc)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		p, err := Compile(f)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		formulas, props = append(formulas, f), append(props, p)
	}
	violated, held := 0, 0
	for s := range 50 {
		ts := randomSystem(r)
		words := lassos(ts, 7)
		for fi, f := range formulas {
			res, err := props[fi].Check(ts.System, 100000)
			if err != nil || res.Capped {
				t.Fatalf("system %d, %s: %v capped %v", s, f, err, res.Capped)
			}
			brute := slices.IndexFunc(words, func(w *Word) bool { return !holdsAt(f, ts, w, 0) })
			if res.Holds {
				held++
				if brute >= 0 {
					t.Fatalf("system %d (%s), %s: engine holds, brute force violates on %+v", s, ts.name, f, words[brute])
				}
				continue
			}
			violated++
			runOf(t, ts, res)
			if holdsAt(f, ts, res.Word, 0) {
				t.Fatalf("system %d (%s), %s: counterexample %+v satisfies the formula", s, ts.name, f, res.Word)
			}
			if !fairCycle(ts, res.Cycle) {
				t.Fatalf("system %d (%s), %s: counterexample cycle %v is unfair", s, ts.name, f, res.Cycle)
			}
			if len(res.Prefix)+len(res.Cycle) <= 7 && brute < 0 {
				t.Fatalf("system %d (%s), %s: a short counterexample %+v the enumeration misses", s, ts.name, f, res.Word)
			}
		}
	}
	if violated < 1000 || held < 1000 {
		t.Errorf("%d violated, %d held: the generator is lopsided", violated, held)
	}
}

// TestCyclicAgreesWithReachability: on the automata of 300 random
// formulas, Automaton.Cyclic flags exactly the states q that reach
// themselves by one step or more through states that together belong to
// every acceptance set (those that reach q and that q reaches), as found
// by searching from each state in turn.
func TestCyclicAgreesWithReachability(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 3))
	flagged, dropped := 0, 0
	for range 300 {
		src := randomFormula(r, 4)
		a := compiled(t, src, testVoc).a
		reach := func(q int) []bool { // reached by one step or more
			seen := make([]bool, len(a.States))
			queue := slices.Clone(a.States[q].Succ)
			for _, x := range queue {
				seen[x] = true
			}
			for len(queue) > 0 {
				x := queue[0]
				queue = queue[1:]
				for _, y := range a.States[x].Succ {
					if !seen[y] {
						seen[y] = true
						queue = append(queue, y)
					}
				}
			}
			return seen
		}
		reached := make([][]bool, len(a.States))
		for q := range a.States {
			reached[q] = reach(q)
		}
		cyclic := a.Cyclic()
		for q := range a.States {
			var acc uint64
			for x := range a.States {
				if reached[q][x] && reached[x][q] {
					acc |= a.States[x].Acc
				}
			}
			want := reached[q][q] && acc == uint64(1)<<a.NAcc-1
			if cyclic[q] != want {
				t.Fatalf("%s: state %d cyclic %v, by reachability %v", src, q, cyclic[q], want)
			}
			if want {
				flagged++
			} else {
				dropped++
			}
		}
	}
	if flagged < 300 || dropped < 300 {
		t.Errorf("%d states flagged, %d not: the formulas do not test both", flagged, dropped)
	}
}
