package decide

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/sts"
)

// Result is the explicit answer to one query, in bmc's vocabulary.
type Result struct {
	Kind    query.Kind
	Bound   int
	Outcome string // witness_found, no_witness, property_satisfied, property_violated, scenario_infeasible, unknown
	Reason  string // why an unknown is unknown; the raise or cap behind it
	// Steps is the shortest witness or counterexample: the input events
	// of each step from frame 0 to the frame Frames[len-1] where the
	// property is decided. Frames are the states it visits.
	Steps  [][]string
	Frames []Frame
	// States counts the nodes of every layer.
	States int
	// Lasso: the evidence is an infinite run (an ltl counterexample) that
	// repeats steps Loop.. forever; its last frame is frame Loop again.
	Lasso bool
	Loop  int
	// Diameter is the largest frame of a node: with AllDepths, the
	// greatest breadth-first depth of a reachable state, which bmc
	// reads to say when its bound covers every depth.
	Diameter int
}

// Frame is one state of an evidence run.
type Frame struct {
	State      string // the runtime's state; "" once terminated
	Started    bool
	Terminated bool
	Vars       []expr.Value
}

// Options bound the search.
type Options struct {
	// MaxStates caps the nodes of all layers together; reaching it leaves
	// an answer that needs the missing nodes unknown.
	MaxStates int
	// AllDepths decides the query for every depth, its bound aside
	// (--all-depths): one node per state, since no depth is told apart.
	AllDepths bool
	// Deadline, when not zero, stops the search like the cap (bmc gives
	// the search a share of its budget); the answer is then unknown.
	Deadline time.Time
	// MaxDepth, when above zero, stops an AllDepths search like the cap
	// at a state deeper than it: bmc's every-depth note needs no more.
	MaxDepth int
}

// Refusal is a query this engine does not decide (yet): Decide returns
// it rather than an answer it cannot stand behind.
type Refusal struct {
	File string // the query's file; "<check>" for inline text
	Pos  expr.Pos
	What string
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("%s:%s: verify cannot decide %s by explicit search (docs/fcstm.md, \"Queries decided by search\"); use stateproof bmc", r.File, r.Pos, r.What)
}

// Decide answers q, bound against sys (m's lowering), on mc, the
// explicit machine of m.
func Decide(m *model.Model, sys *sts.System, mc *explicit.Machine, q *query.Query, opts Options) (r *Result, err error) {
	if q.Check.Kind == query.LTL {
		r, err = decideLTL(m, mc, q, opts)
	} else {
		r, err = decideBounded(m, sys, mc, q, opts)
	}
	if ref, ok := err.(*Refusal); ok && ref.File == "" {
		ref.File = q.File
		if ref.File == "" {
			ref.File = "<check>"
		}
	}
	if err != nil {
		return nil, err
	}
	if len(r.Frames) > 0 {
		if err := replay(m, r); err != nil {
			return nil, fmt.Errorf("internal error: the explicit evidence does not replay on the runtime (please report it): %w", err)
		}
	}
	return r, nil
}

// decideBounded answers a query of a bounded kind (every kind but ltl).
func decideBounded(m *model.Model, sys *sts.System, mc *explicit.Machine, q *query.Query, opts Options) (*Result, error) {
	sc, err := newScenario(m, mc, q, opts.AllDepths)
	if err != nil {
		return nil, err
	}
	s := &search{sc: sc, mc: mc, max: opts.MaxStates, deadline: opts.Deadline, maxDepth: opts.MaxDepth, succ: map[string][]succ{}}
	if q.Check.Kind == query.Cover {
		var names []string
		for _, v := range m.Vars {
			names = append(names, v.Name)
			s.real = append(s.real, v.Type == model.Float)
		}
		if s.cases, err = newCases(sys, names, mc.Events()); err != nil {
			return nil, err
		}
	}
	if opts.AllDepths {
		s.explore()
		return s.decideAll(), nil
	}
	s.forward()
	return s.decide(), nil
}

// scenario is the query's constraints in the machine's terms.
type scenario struct {
	q       *query.Query
	m       *model.Model
	present [][]int // per step: events assumed present
	absent  [][]int // per step: events assumed absent
	pools   [][]int // at_most_one pools
	always  []expr.Expr
	at      map[int][]expr.Expr
}

func newScenario(m *model.Model, mc *explicit.Machine, q *query.Query, allDepths bool) (*scenario, error) {
	switch q.Check.Kind {
	case query.Reach, query.Cover, query.Forbid, query.Invariant:
	case query.MustReach, query.Response, query.ExistsAlways:
		if allDepths {
			return nil, &Refusal{Pos: q.Check.Span.Start, What: "a " + q.Check.Kind.String() + " query with --all-depths (what every run does at some depth is not a property of the reachable states)"}
		}
		if q.Check.Fair != nil || q.Check.FairAll {
			return nil, &Refusal{Pos: q.Check.Span.Start, What: "a fairness clause"}
		}
		if err := triggerEvents(q, mc); err != nil {
			return nil, err
		}
	default:
		return nil, &Refusal{Pos: q.Check.Span.Start, What: "a " + q.Check.Kind.String() + " query (it decides reach, cover, forbid, invariant, must_reach, exists_always and response)"}
	}
	if in := q.Init; in != nil && (in.Mode != query.Cold || in.HavocAll || len(in.Havoc) > 0 || in.Where != nil) {
		return nil, &Refusal{Pos: in.Span.Start, What: "an init clause other than `init cold;`"}
	}
	if len(q.Calls) > 0 {
		return nil, &Refusal{Pos: q.Check.Span.Start, What: "called(...) and call_count(...) atoms"}
	}
	n := q.Check.Bound
	if allDepths {
		if err := depthFree(q); err != nil {
			return nil, err
		}
		n = 1 // every step is step 0: the assumptions read no index
	}
	sc := &scenario{q: q, m: m, present: make([][]int, n), absent: make([][]int, n), at: map[int][]expr.Expr{}}
	index := func(nm query.Name) (int, error) {
		if i := slices.Index(mc.Events(), nm.Name); i >= 0 {
			return i, nil
		}
		return 0, &Refusal{Pos: nm.Span.Start, What: "an assumption on event " + nm.Name + ", which the runtime does not know by that path"}
	}
	for _, a := range q.Assumes {
		switch a.Kind {
		case query.AssumeAlways:
			sc.always = append(sc.always, a.Cond)
		case query.AssumeAt:
			sc.at[a.Frame] = append(sc.at[a.Frame], a.Cond)
		case query.AssumeEvent:
			e, err := index(a.Event)
			if err != nil {
				return nil, err
			}
			lo, hi := a.Steps.Lo, a.Steps.Hi
			if a.Steps.All {
				lo, hi = 0, n-1
			}
			for k := max(lo, 0); k <= min(hi, n-1); k++ {
				if a.Value {
					sc.present[k] = append(sc.present[k], e)
				} else {
					sc.absent[k] = append(sc.absent[k], e)
				}
			}
		case query.AssumeCardinality:
			if a.Any {
				continue
			}
			var pool []int
			for _, nm := range a.Pool {
				e, err := index(nm)
				if err != nil {
					return nil, err
				}
				pool = append(pool, e)
			}
			sc.pools = append(sc.pools, pool)
		}
	}
	return sc, nil
}

// depthFree refuses, for --all-depths, what tells depths apart: cycle,
// assume at K, and event assumptions on some steps only.
func depthFree(q *query.Query) error {
	for _, a := range q.Assumes {
		switch {
		case a.Kind == query.AssumeAt:
			return &Refusal{Pos: a.Span.Start, What: "`assume at K` with --all-depths (it names one frame of a bounded run)"}
		case a.Kind == query.AssumeEvent && !a.Steps.All:
			return &Refusal{Pos: a.Span.Start, What: "an event assumption on some steps only with --all-depths (write `*` for every step)"}
		}
	}
	roots := []expr.Expr{q.Check.Body}
	for _, a := range q.Assumes {
		if a.Cond != nil {
			roots = append(roots, a.Cond)
		}
	}
	var err error
	for _, r := range roots {
		expr.Inspect(r, func(e expr.Expr) bool {
			if id, ok := e.(*expr.Ident); ok && id.Name == "cycle" && err == nil {
				err = &Refusal{Pos: id.Loc.Start, What: "`cycle` with --all-depths (the frame index of a bounded run)"}
			}
			return err == nil
		})
	}
	return err
}

// input returns the input set of step k within class in (the events it
// has present plus those assumed present), or false when the step's
// assumptions rule the class out.
func (sc *scenario) input(k int, in explicit.Input) ([]int, bool) {
	set := slices.Clone(in.Present)
	for _, e := range sc.present[k] {
		if slices.Contains(in.Absent, e) {
			return nil, false
		}
		if !slices.Contains(set, e) {
			set = append(set, e)
		}
	}
	for _, e := range sc.absent[k] {
		if slices.Contains(set, e) {
			return nil, false
		}
	}
	for _, pool := range sc.pools {
		n := 0
		for _, e := range pool {
			if slices.Contains(set, e) {
				n++
			}
		}
		if n > 1 {
			return nil, false
		}
	}
	slices.Sort(set)
	return set, true
}

// frameOK reports whether frame k of state v meets the frame assumptions
// (each defined and true).
func (sc *scenario) frameOK(v *valuation) bool {
	for _, c := range sc.always {
		if !holds(c, v) {
			return false
		}
	}
	for _, c := range sc.at[v.frame] {
		if !holds(c, v) {
			return false
		}
	}
	return true
}

func holds(c expr.Expr, v *valuation) bool {
	x, err := expr.Eval(c, v)
	return err == nil && x.Bool()
}

// valuation reads a query's expressions on one frame.
type valuation struct {
	m     *model.Model
	loc   *explicit.Location
	words []int64
	frame int
}

func (v *valuation) variable(name string) (expr.Value, bool) {
	for i, d := range v.m.Vars {
		if d.Name == name {
			return word(v.words[1+i], d.Type == model.Float), true
		}
	}
	return expr.Value{}, false
}

// word reads a variable's word: a float's IEEE-754 bits, or an int.
func word(w int64, real bool) expr.Value {
	if real {
		return expr.RealVal(math.Float64frombits(uint64(w)))
	}
	return expr.IntVal(w)
}

// Value reads a variable; cycle is the frame index (a variable named
// cycle is var("cycle")).
func (v *valuation) Value(name string) (expr.Value, bool) {
	if name == "cycle" {
		return expr.IntVal(int64(v.frame)), true
	}
	return v.variable(name)
}

// Atom evaluates var, active and terminated as bmc does: active("S")
// holds in S and its descendants, and before the first cycle of a cold
// start in the root alone (sts.System.StartActive).
func (v *valuation) Atom(c *expr.AtomCall) (expr.Value, error) {
	arg := ""
	if len(c.Args) > 0 {
		if s, ok := c.Args[0].Value.(*expr.StringLit); ok {
			arg = s.Value
		}
	}
	switch c.Name {
	case "var":
		if x, ok := v.variable(arg); ok {
			return x, nil
		}
	case "active":
		st := v.loc.State
		return expr.BoolVal(v.loc.Kind == explicit.Running && (st == arg || strings.HasPrefix(st, arg+"."))), nil
	case "terminated":
		return expr.BoolVal(v.loc.Kind == explicit.Ended), nil
	}
	return expr.Value{}, fmt.Errorf("%s: %s(...) is not decided by explicit search", c.Loc.Start, c.Name)
}

// succ is one step out of a state: the class of inputs and where it goes.
type succ struct {
	next []int64
	in   explicit.Input
}

// successors lists the steps out of words, cached per state since the
// layers meet the same states again. An ended machine stays terminated
// on a cycle with no events (bmc's absorb case).
func (s *search) successors(words []int64) []succ {
	k := key(words)
	if out, ok := s.succ[k]; ok {
		return out
	}
	var out []succ
	if s.mc.Location(words[0]).Kind == explicit.Ended {
		out = []succ{{next: words}}
	} else {
		os, ins := s.mc.Inputs(words, &s.buf, nil)
		for i, o := range os {
			out = append(out, succ{next: slices.Clone(o.Next), in: ins[i]})
		}
	}
	s.succ[k] = out
	return out
}

func key(words []int64) string {
	var b strings.Builder
	for _, w := range words {
		for i := range 8 {
			b.WriteByte(byte(w >> (8 * i)))
		}
	}
	return b.String()
}

// search is the layered search of one query.
type search struct {
	sc       *scenario
	mc       *explicit.Machine
	max      int
	deadline time.Time
	maxDepth int
	stopped  string // why the search was capped, when not by the state cap
	buf      concrete.Buffer
	succ     map[string][]succ

	cases   *cases // cover: the lowering's cases
	real    []bool // per model variable: a float
	hits    []hit  // cover: the steps that take the case, in search order
	caseErr string // cover: the first step the cases did not decide

	nodes  []node
	layers [][]int // node ids per frame
	capped bool
	raise  string // the first raise within the bound, as a reason
	open   string // response: the first open obligation (bmc's tail)
	stuck  string // the first state the machine cannot step
	viable []bool
}

// hit is a step that takes the covered case.
type hit struct {
	from, to int
	in       []int
}

// node is a state at one frame.
type node struct {
	words  []int64
	frame  int
	parent int   // -1 at frame 0
	in     []int // the input of the step from parent
	kids   []int // admissible successors in the next layer
}
