package decide

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/query"
)

// A response check `trigger T -> within W R` is decided as bmc's
// objective states it: a run of N steps violates it when T is undefined
// at a frame i < N, or good at i while R is good at none of the frames
// i+1..i+W, with i+W <= N. A trigger good at i whose window reaches past
// N, with no good R up to N, is an open obligation: bmc's tail, which
// makes the answer incomplete unless a violation is found.
//
// T may read the events of step i (event("e", current)). A step's input
// class leaves the events no transition of its source reads free, and bmc
// leaves them free too, so each such event T reads is tried present and
// absent, within the step's assumptions; the step goes where the class
// goes either way.

// stepValuation reads a query expression on a frame and the events of the
// step out of it.
type stepValuation struct {
	*valuation
	names  []string
	events []int // present at the step
}

// Atom reads event("e", current) on the step; the rest as valuation does.
func (v *stepValuation) Atom(c *expr.AtomCall) (expr.Value, error) {
	if c.Name != "event" {
		return v.valuation.Atom(c)
	}
	name := ""
	if len(c.Args) > 0 {
		if s, ok := c.Args[0].Value.(*expr.StringLit); ok {
			name = s.Value
		}
	}
	e := slices.Index(v.names, name)
	if e < 0 {
		return expr.Value{}, fmt.Errorf("%s: event %q is not an event of the runtime", c.Loc.Start, name)
	}
	return expr.BoolVal(slices.Contains(v.events, e)), nil
}

// readEvents lists the events x reads with event(...).
func (s *search) readEvents(x expr.Expr) []int {
	var out []int
	expr.Inspect(x, func(e expr.Expr) bool {
		if a, ok := e.(*expr.AtomCall); ok && a.Name == "event" && len(a.Args) > 0 {
			if lit, ok := a.Args[0].Value.(*expr.StringLit); ok {
				if i := slices.Index(s.mc.Events(), lit.Value); i >= 0 && !slices.Contains(out, i) {
					out = append(out, i)
				}
			}
		}
		return true
	})
	return out
}

// triggerInputs lists the input sets of step k within class in that
// differ in the events the trigger reads: in's own set with each free
// read event present or absent, as the step's assumptions allow.
func (s *search) triggerInputs(k int, in explicit.Input, reads []int) [][]int {
	base, ok := s.sc.input(k, in)
	if !ok {
		return nil
	}
	var free []int
	for _, e := range reads {
		if !slices.Contains(base, e) && !slices.Contains(in.Absent, e) && !slices.Contains(s.sc.absent[k], e) {
			free = append(free, e)
		}
	}
	var out [][]int
	for mask := 0; mask < 1<<len(free); mask++ {
		set := slices.Clone(base)
		for b, e := range free {
			if mask&(1<<b) != 0 {
				set = append(set, e)
			}
		}
		if s.poolsOK(set) {
			slices.Sort(set)
			out = append(out, set)
		}
	}
	return out
}

func (s *search) poolsOK(set []int) bool {
	for _, pool := range s.sc.pools {
		n := 0
		for _, e := range pool {
			if slices.Contains(set, e) {
				n++
			}
		}
		if n > 1 {
			return false
		}
	}
	return true
}

// responds looks for a violation of the response check; it fills r's
// evidence (the run to the trigger, its step, and the window without a
// response) and reports whether there is one. It records the first open
// obligation in s.open.
func (s *search) responds(r *Result) bool {
	c := &s.sc.q.Check
	n, w := len(s.layers)-1, min(c.Window, len(s.layers)-1)
	reads := s.readEvents(c.Trigger)
	// miss[d][x]: from node x, frames x..x+d-1 have no good R and the run
	// goes on to frame N.
	miss := make([][]bool, w+1)
	for d := 1; d <= w; d++ {
		miss[d] = make([]bool, len(s.nodes))
		for x := range s.nodes {
			if !s.viable[x] {
				continue
			}
			if v, err := expr.Eval(c.Target, s.valuation(x)); err == nil && v.Bool() {
				continue
			}
			miss[d][x] = d == 1 || slices.ContainsFunc(s.nodes[x].kids, func(k int) bool { return miss[d-1][k] })
		}
	}
	for i := 0; i < n; i++ {
		for _, u := range s.layers[i] {
			for _, st := range s.successors(s.nodes[u].words) {
				v, ok := s.kid(u, st.next)
				if !ok || !s.viable[v] {
					continue
				}
				for _, in := range s.triggerInputs(i, st.in, reads) {
					x, err := expr.Eval(c.Trigger, &stepValuation{valuation: s.valuation(u), names: s.mc.Events(), events: in})
					switch {
					case err != nil:
						s.evidenceVia(r, u, in, []int{v})
						return true
					case !x.Bool():
					case i+c.Window <= n && miss[c.Window][v]:
						s.evidenceVia(r, u, in, s.follow(miss, v, c.Window))
						return true
					case i+c.Window > n && miss[n-i][v] && s.open == "":
						s.open = fmt.Sprintf("the trigger holds at frame %d and its window of %d frames reaches past the bound %d with no response by then (bmc's tail)", i, c.Window, n)
					}
				}
			}
		}
	}
	return false
}

// kid finds the node at the next frame that u steps to with words next.
func (s *search) kid(u int, next []int64) (int, bool) {
	want := key(next)
	for _, k := range s.nodes[u].kids {
		if key(s.nodes[k].words) == want {
			return k, true
		}
	}
	return 0, false
}

// follow lists d nodes from v along the window without a response.
func (s *search) follow(miss [][]bool, v, d int) []int {
	ids := []int{v}
	for ; d > 1; d-- {
		kids := s.nodes[ids[len(ids)-1]].kids
		ids = append(ids, kids[slices.IndexFunc(kids, func(k int) bool { return miss[d-1][k] })])
	}
	return ids
}

// evidenceVia fills r's evidence with the run to node u, its step on
// input in, and the run on through ids.
func (s *search) evidenceVia(r *Result, u int, in []int, ids []int) {
	s.path(r, u)
	rest := &Result{}
	s.walk(rest, append([]int{u}, ids...))
	var evs []string
	for _, e := range in {
		evs = append(evs, s.mc.Events()[e])
	}
	rest.Steps[0] = evs
	r.Steps = append(r.Steps, rest.Steps...)
	r.Frames = append(r.Frames, rest.Frames[1:]...)
}

// triggerEvents refuses a trigger that reads an event the runtime does not
// know by that path, as an assumption on one is refused: reading it as
// undefined would make a false violation.
func triggerEvents(q *query.Query, mc *explicit.Machine) error {
	var err error
	expr.Inspect(q.Check.Trigger, func(e expr.Expr) bool {
		if a, ok := e.(*expr.AtomCall); ok && a.Name == "event" && len(a.Args) > 0 && err == nil {
			if lit, ok := a.Args[0].Value.(*expr.StringLit); !ok || !slices.Contains(mc.Events(), lit.Value) {
				err = &Refusal{Pos: a.Loc.Start, What: "a trigger reading an event the runtime does not know by that path"}
			}
		}
		return err == nil
	})
	return err
}
