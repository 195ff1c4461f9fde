package ltl

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// completion is ts with the edges of its unexpanded nodes replaced by
// random ones (none: a dead end), as the part past a state cap might be.
func completion(r *rand.Rand, ts *testSystem, unexpanded []bool) *testSystem {
	n := len(ts.Off) - 1
	sys := *ts.System
	sys.Off, sys.To, sys.Event, sys.Unexpanded = make([]int, n+1), nil, nil, nil
	enabled := make([][]int32, n)
	for v := range n {
		if unexpanded[v] {
			for range r.IntN(3) {
				sys.To, sys.Event = append(sys.To, int32(r.IntN(n))), append(sys.Event, int32(r.IntN(3)))
			}
		} else {
			sys.To = append(sys.To, ts.To[ts.Off[v]:ts.Off[v+1]]...)
			sys.Event = append(sys.Event, ts.Event[ts.Off[v]:ts.Off[v+1]]...)
		}
		sys.Off[v+1] = len(sys.To)
		for _, e := range sys.Event[sys.Off[v]:] {
			if !slices.Contains(enabled[v], e) {
				enabled[v] = append(enabled[v], e)
			}
		}
	}
	sys.Enabled = func(v int) []int32 { return enabled[v] }
	return &testSystem{System: &sys, x: ts.x, b: ts.b, name: ts.name + " completed"}
}

// startsWith reports whether the run of lasso w begins with the positions
// of the finite word p.
func startsWith(w, p *Word) bool {
	i := 0
	for k := range p.Nodes {
		if w.Nodes[i] != p.Nodes[k] || w.Events[i] != p.Events[k] {
			return false
		}
		if i++; i == len(w.Nodes) {
			i = w.Loop
		}
	}
	return true
}

// A bad prefix found on a system cut off at random nodes (their edges
// unknown), or in a product stopped at its cap, follows known edges from
// the initial node, and every fair run of every completion (of the whole
// system, for the product cap) that starts with it violates the formula
// by the brute-force semantics; with nothing cut off there is none.
func TestBadPrefixSound(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 11))
	var formulas []*Formula
	var props []*Property
	for len(formulas) < 200 {
		src := randomFormula(r, 3)
		if r.IntN(3) == 0 { // safety shapes, where bad prefixes are common
			src = "G " + randomFormula(r, 2)
		}
		f, _ := Parse(src, testVoc)
		p, err := Compile(f)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		formulas, props = append(formulas, f), append(props, p)
	}
	found, capped, checked := 0, 0, 0
	for s := range 40 {
		ts := randomSystem(r)
		unexpanded := make([]bool, len(ts.Off)-1)
		for v := range unexpanded {
			unexpanded[v] = r.IntN(3) == 0
		}
		cut := *ts
		sys := *ts.System
		sys.Unexpanded = func(v int) bool { return unexpanded[v] }
		cut.System = &sys
		worlds := [][]*Word{lassos(ts, 7)}
		comps := []*testSystem{ts}
		for range 3 {
			c := completion(r, &cut, unexpanded)
			comps, worlds = append(comps, c), append(worlds, lassos(c, 7))
		}
		for fi, f := range formulas {
			whole, err := props[fi].Check(ts.System, 100000)
			if err != nil || whole.BadPrefix {
				t.Fatalf("system %d, %s: %v, bad prefix %v on the whole system", s, f, err, whole.BadPrefix)
			}
			if res, err := props[fi].Check(ts.System, 3); err == nil && res.BadPrefix {
				capped++
				checked += assertBadPrefix(t, ts, make([]bool, len(unexpanded)), res, f, comps[:1], worlds[:1])
			}
			res, err := props[fi].Check(cut.System, 100000)
			if err != nil || !res.BadPrefix {
				continue
			}
			found++
			checked += assertBadPrefix(t, &cut, unexpanded, res, f, comps[1:], worlds[1:])
		}
	}
	if found < 200 || capped < 100 || checked < 1000 {
		t.Errorf("%d bad prefixes past unexpanded nodes, %d past the product cap, %d runs checked against them", found, capped, checked)
	}
}

// assertBadPrefix checks a bad prefix found on cut against every run of
// the completions, and returns how many runs start with it.
func assertBadPrefix(t *testing.T, cut *testSystem, unexpanded []bool, res Result, f *Formula, comps []*testSystem, worlds [][]*Word) int {
	t.Helper()
	checked := 0
	at := cut.Init
	for i, k := range res.Prefix {
		if unexpanded[at] || k >= 0 && (k < cut.Off[at] || k >= cut.Off[at+1]) || k < 0 && cut.Off[at] != cut.Off[at+1] {
			t.Fatalf("%s, %s: step %d (edge %d) does not leave node %d", cut.name, f, i, k, at)
		}
		if k >= 0 {
			at = int(cut.To[k])
		}
	}
	for c, words := range worlds {
		for _, w := range words {
			if startsWith(w, res.Word) {
				checked++
				if holdsAt(f, comps[c], w, 0) {
					t.Fatalf("%s, %s: bad prefix %+v, yet %+v holds", comps[c].name, f, res.Word, w)
				}
			}
		}
	}
	return checked
}

// Violated on every prefix of every lasso of random systems: a prefix it
// calls violated begins no lasso that satisfies the formula.
func TestViolatedSound(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 12))
	violated := 0
	for s := range 15 {
		ts := randomSystem(r)
		words := lassos(ts, 5)
		for range 25 {
			f, _ := Parse(randomFormula(r, 3), testVoc)
			for _, w := range words {
				for m := 1; m <= len(w.Nodes)+2; m++ {
					p := &Word{Loop: m}
					for i := 0; len(p.Nodes) < m; i++ {
						if i == len(w.Nodes) {
							i = w.Loop
						}
						p.Nodes, p.Events = append(p.Nodes, w.Nodes[i]), append(p.Events, w.Events[i])
					}
					if !Violated(f, p, ts.atomValue) {
						continue
					}
					violated++
					for _, x := range words {
						if startsWith(x, p) && holdsAt(f, ts, x, 0) {
							t.Fatalf("system %d (%s), %s: prefix %+v called violated, yet %+v holds", s, ts.name, f, p, x)
						}
					}
				}
			}
		}
	}
	if violated < 1000 {
		t.Errorf("only %d prefixes violated", violated)
	}
}
