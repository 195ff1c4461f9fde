package ltl

// A safety violation needs no lasso: once a run has done something bad
// (G (x < 30) and x reached 30), every way it goes on violates the
// formula. Where the search was cut off (a state cap, the product cap)
// that finite run is a counterexample the lasso search cannot give: the
// cycle it would close may lie past the cut. Every finite run of the
// system goes on as some fair run (taking, among the enabled events, the
// one taken least recently is fair to all of them; a dead end stutters),
// so the bad prefix is reported as a violation.

// maxPrefixTries bounds the candidate prefixes confirmed by evaluation.
const maxPrefixTries = 16

// closing marks the automaton states that accept every continuation: a
// state of the greatest set whose states have no literals, lie in every
// acceptance set and have a successor in the set, or a state with a
// successor there. The automaton is of the negated formula, so a run that
// reaches such a state has violated the formula whatever follows.
func (a *Automaton) closing() []bool {
	all := uint64(1)<<uint(a.NAcc) - 1
	free := make([]bool, len(a.States))
	for q, st := range a.States {
		free[q] = len(st.Pos) == 0 && len(st.Neg) == 0 && st.Acc&all == all
	}
	hasFreeSucc := func(q int) bool {
		for _, q2 := range a.States[q].Succ {
			if free[q2] {
				return true
			}
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		for q := range free {
			if free[q] && !hasFreeSucc(q) {
				free[q], changed = false, true
			}
		}
	}
	out := make([]bool, len(a.States))
	for q := range out {
		out[q] = hasFreeSucc(q)
	}
	return out
}

// badPrefix returns the finite run to the first product node built (one
// of the fewest steps) whose automaton state accepts every continuation,
// confirmed by Violated on the formula itself; false when there is none.
func (p *product) badPrefix(f *Formula) (Result, bool) {
	closing := p.a.closing()
	tries := 0
	for x := range p.node {
		if !closing[p.state[x]] {
			continue
		}
		var prefix []int
		for y := int32(x); p.parent[y] >= 0; y = p.parent[y] {
			prefix = append(prefix, p.treeEdge(y))
		}
		for i, j := 0, len(prefix)-1; i < j; i, j = i+1, j-1 {
			prefix[i], prefix[j] = prefix[j], prefix[i]
		}
		w := p.sys.word(prefix, nil)
		if Violated(f, w, p.sys.atomValue) {
			return Result{BadPrefix: true, Prefix: prefix, Word: w, ProductNodes: len(p.node)}, true
		}
		if tries++; tries == maxPrefixTries {
			break
		}
	}
	return Result{}, false
}
