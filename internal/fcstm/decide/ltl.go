package decide

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/ltl"
	"github.com/stateproof/stateproof/internal/query"
)

// InvalidError is a query the engine reads and finds wrong (an ltl
// formula that does not parse against the model), located in its file.
type InvalidError struct {
	File string
	Pos  expr.Pos
	Msg  string
}

func (e *InvalidError) Error() string { return fmt.Sprintf("%s:%s: %s", e.File, e.Pos, e.Msg) }

// graph is the reachable space of an FCSTM machine as an LTL system: one
// node per state, one edge per class of inputs (explicit.Input), labelled
// with the set of events the cycle read present: the events it takes.
type graph struct {
	mc     *explicit.Machine
	words  [][]int64
	index  map[string]int32
	off    []int
	to     []int32
	label  []int32
	sets   [][]int32        // label → the events it takes
	setIdx map[string]int32 // the set's key → label
	// enabled lists per node the events some cycle there reads present:
	// the events that can be taken.
	enabled [][]int32
	// cut marks nodes whose edges are unknown: past the state cap, or
	// whose every cycle raises or cannot be stepped.
	cut    []bool
	capped bool
	raise  string // the first cycle that raises, as a reason
	stuck  string // the first state the machine cannot step
}

// build explores breadth-first from the initial state, at most max
// nodes (0: no cap). An ended machine stays ended on a cycle that takes
// nothing (bmc's absorb case), so every run is infinite.
func (g *graph) build(max int) {
	g.index, g.setIdx = map[string]int32{}, map[string]int32{}
	g.intern(g.mc.Initial(make([]int64, g.mc.Width())), max)
	var buf concrete.Buffer
	var ins []explicit.Input
	g.off = append(g.off, 0)
	for v := 0; v < len(g.words); v++ {
		g.cut = append(g.cut, false)
		var en []int32
		if g.mc.Location(g.words[v][0]).Kind == explicit.Ended {
			g.edge(int32(v), nil)
		} else {
			var os []concrete.Outcome
			os, ins = g.mc.Inputs(g.words[v], &buf, ins[:0])
			for i, o := range os {
				present := toInt32(ins[i].Present)
				for _, e := range present {
					if !slices.Contains(en, e) {
						en = append(en, e)
					}
				}
				if g.step(v, o.Next, present, max) {
					g.cut[v] = true
				}
			}
		}
		g.enabled = append(g.enabled, en)
		if len(g.to) == g.off[v] {
			g.cut[v] = true // no known cycle: not a dead end to stutter in
		}
		g.off = append(g.off, len(g.to))
	}
}

// step adds the edge from v to next taking present; true when the
// edge cannot be added (a raise, a state not stepped, the cap): v's
// runs are then not followed past it.
func (g *graph) step(v int, next []int64, present []int32, max int) bool {
	switch loc := g.mc.Location(next[0]); loc.Kind {
	case explicit.Raised:
		if g.raise == "" {
			g.raise = fmt.Sprintf("a cycle from %s raises a runtime error (%v)", g.mc.Location(g.words[v][0]).State, loc.Err)
		}
		return false
	case explicit.Undecided:
		if g.stuck == "" {
			g.stuck = "the search cannot go on: " + loc.Reason
		}
		return false
	}
	w := g.intern(next, max)
	if w < 0 {
		return true
	}
	g.edge(w, present)
	return false
}

// intern returns the node of words, adding it unless the cap is reached
// (-1).
func (g *graph) intern(words []int64, max int) int32 {
	k := key(words)
	if w, ok := g.index[k]; ok {
		return w
	}
	if max > 0 && len(g.words) >= max {
		g.capped = true
		return -1
	}
	w := int32(len(g.words))
	g.index[k] = w
	g.words = append(g.words, slices.Clone(words))
	return w
}

// edge appends an edge of the node being expanded to w.
func (g *graph) edge(w int32, present []int32) {
	slices.Sort(present)
	var b strings.Builder
	for _, e := range present {
		fmt.Fprintf(&b, "%d,", e)
	}
	l, ok := g.setIdx[b.String()]
	if !ok {
		l = int32(len(g.sets))
		g.setIdx[b.String()] = l
		g.sets = append(g.sets, present)
	}
	g.to, g.label = append(g.to, w), append(g.label, l)
}

func toInt32(xs []int) []int32 {
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = int32(x)
	}
	return out
}

// system is g as an ltl.System with the query's fairness.
func (g *graph) system(m *model.Model, c *query.Check) *ltl.System {
	events := g.mc.Events()
	sys := &ltl.System{Off: g.off, To: g.to, Event: g.label, NumEvents: len(g.sets), Init: 0,
		EventIndex: func(name string) int { return slices.Index(events, name) },
		Taken:      func(l int32) []int32 { return g.sets[l] },
		Enabled:    func(v int) []int32 { return g.enabled[v] },
		Unexpanded: func(v int) bool { return g.cut[v] },
	}
	sys.Holds = func(a *ltl.Atom, v int) bool { return atomHolds(m, g.mc, a, g.words[v]) }
	flags := func(names []query.Name, all bool) []bool {
		if names == nil && !all {
			return nil
		}
		f := make([]bool, len(events))
		for i, e := range events {
			f[i] = all || slices.ContainsFunc(names, func(n query.Name) bool { return n.Name == e })
		}
		return f
	}
	sys.Weak, sys.Strong = flags(c.Fair, c.FairAll), flags(c.Strong, c.StrongAll)
	return sys
}

// atomHolds evaluates a state or comparison atom on a state as bmc reads
// active and var (valuation.Atom).
func atomHolds(m *model.Model, mc *explicit.Machine, a *ltl.Atom, words []int64) bool {
	loc := mc.Location(words[0])
	if a.Kind == ltl.InState {
		return loc.Kind == explicit.Running && (loc.State == a.Name || strings.HasPrefix(loc.State, a.Name+"."))
	}
	v := &valuation{m: m, loc: loc, words: words}
	x, ok := v.variable(a.Name)
	if !ok {
		return false
	}
	c, ok := expr.Compare(x, expr.IntVal(a.Value))
	if !ok {
		return a.Cmp == "!=" // NaN: unordered, and unequal to every value
	}
	switch a.Cmp {
	case "==":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

// decideLTL decides an ltl check over every run of the reachable space
// (docs/liveness.md#ltl-on-fcstm-models): the product of the formula's
// automaton with the graph, at most 20 × MaxStates product nodes, as for
// a JSON model's ltl invariants.
func decideLTL(m *model.Model, mc *explicit.Machine, q *query.Query, opts Options) (*Result, error) {
	if err := ltlScenario(q); err != nil {
		return nil, err
	}
	f, err := parseFormula(m, mc, q)
	if err != nil {
		return nil, err
	}
	r := &Result{Kind: query.LTL}
	prop, err := ltl.Compile(f)
	if err != nil {
		r.Outcome, r.Reason = "unknown", fmt.Sprintf("the formula's automaton passes %d states: split the formula", ltl.MaxAutomaton)
		return r, nil
	}
	g := &graph{mc: mc}
	g.build(opts.MaxStates)
	r.States = len(g.words)
	limit := 20 * opts.MaxStates
	if limit <= 0 {
		limit = 1 << 30
	}
	sys := g.system(m, &q.Check)
	// Where no cycle raises every finite run goes on as a fair one (take
	// the fair event taken least recently among those some cycle takes),
	// so a bad prefix is a counterexample, and the shorter one is shown.
	sys.Shortest = g.raise == "" && g.stuck == ""
	res, err := prop.Check(sys, limit)
	switch {
	case err != nil:
		r.Outcome, r.Reason = "unknown", err.Error()
	case res.Capped:
		r.Outcome, r.Reason = "unknown", fmt.Sprintf("product cap reached: the formula × state graph passed %d nodes (20 × --max-states); raise --max-states and re-run", limit)
	case res.Holds && g.capped:
		r.Outcome, r.Reason = "unknown", fmt.Sprintf("state cap reached: the search stopped at --max-states %d states before the reachable space was exhausted; raise --max-states and re-run", opts.MaxStates)
	case res.Holds && g.stuck != "":
		r.Outcome, r.Reason = "unknown", g.stuck
	case res.Holds && g.raise != "":
		r.Outcome, r.Reason = "unknown", g.raise+"; no run that raises is evidence, so the property is not decided"
	case res.Holds:
		r.Outcome = "property_satisfied"
	case res.BadPrefix && (g.raise != "" || g.stuck != ""):
		// the run found may have no continuation that does not raise
		r.Outcome, r.Reason = "unknown", "the run found violates the formula whatever it does next, but "+firstOf(g.raise, g.stuck)+", so it may have no infinite continuation; no lasso counterexample lies among the states searched"
	default:
		r.Outcome = "property_violated"
		g.evidence(m, r, res)
	}
	return r, nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// ltlScenario refuses what an ltl check does not honour yet: a start
// other than cold, assumptions and call atoms.
func ltlScenario(q *query.Query) error {
	if in := q.Init; in != nil && (in.Mode != query.Cold || in.HavocAll || len(in.Havoc) > 0 || in.Where != nil) {
		return &Refusal{Pos: in.Span.Start, What: "an ltl check with an init clause other than `init cold;`"}
	}
	if len(q.Assumes) > 0 {
		return &Refusal{Pos: q.Assumes[0].Span.Start, What: "an ltl check with assume clauses (state the assumption in the formula: G a -> …)"}
	}
	return nil
}

// parseFormula reads the check's formula with the LTL parser of JSON
// models, FBMCQ's atoms admitted, names checked against the model; a
// parse error is located in the query's file.
func parseFormula(m *model.Model, mc *explicit.Machine, q *query.Query) (*ltl.Formula, error) {
	voc := &ltl.Vocabulary{States: map[string]bool{}, Events: map[string]bool{}, Vars: map[string]bool{}, Calls: true}
	for p := range m.StateByPath {
		voc.States[p] = true
	}
	for _, e := range mc.Events() {
		voc.Events[e] = true
	}
	for _, v := range m.Vars {
		voc.Vars[v.Name] = false // FCSTM has no booleans
	}
	f, err := ltl.Parse(q.Check.Formula, voc)
	if err == nil {
		return f, nil
	}
	file := q.File
	if file == "" {
		file = "<check>"
	}
	pe, ok := err.(*ltl.Error)
	if !ok {
		return nil, &InvalidError{File: file, Pos: q.Check.FormulaSpan.Start, Msg: err.Error()}
	}
	pos := q.Check.FormulaSpan.Start
	if pe.Line == 1 {
		pos.Col += pe.Col - 1
	} else {
		pos.Line, pos.Col = pos.Line+pe.Line-1, pe.Col
	}
	return nil, &InvalidError{File: file, Pos: pos, Msg: pe.Msg + " in the ltl formula (docs/queries.md#ltl)"}
}

// evidence fills r with the counterexample of res: a lasso, or a bad
// prefix every continuation of which violates the formula.
func (g *graph) evidence(m *model.Model, r *Result, res ltl.Result) {
	names := g.mc.Events()
	w := res.Word
	for i, v := range w.Nodes {
		if i > 0 {
			in := []string{}
			if l := w.Events[i]; l >= 0 {
				for _, e := range g.sets[l] {
					in = append(in, names[e])
				}
			}
			r.Steps = append(r.Steps, in)
		}
		r.Frames = append(r.Frames, frameOf(m, g.mc, g.words[v]))
	}
	if !res.BadPrefix {
		r.Lasso, r.Loop = true, len(res.Prefix)
	}
}
