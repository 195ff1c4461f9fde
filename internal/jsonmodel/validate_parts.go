package jsonmodel

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/jsonvalue"
)

var guardShapes = []string{"variable", "all", "any", "not"}

// guard validates a guard node. exclude names a variable the guard must not
// read (a var-in-range `when` may not depend on the value it constrains).
func (v *validator) guard(p string, g *jsonvalue.Value, exclude string) *Guard {
	if g.Kind != jsonvalue.Object {
		v.errorf(p, "expected object (a guard node)")
		return nil
	}
	var shapes []string
	for _, m := range g.Members {
		if slices.Contains(guardShapes, m.Key) && !slices.Contains(shapes, m.Key) {
			shapes = append(shapes, m.Key)
		}
	}
	if len(shapes) == 0 {
		v.errorf(p, "a guard node needs one of \"variable\", \"all\", \"any\", \"not\"")
		v.object(p, g, "guard", []string{"variable", "op", "value", "all", "any", "not"})
		return nil
	}
	if len(shapes) > 1 {
		v.errorf(p, "a guard node has exactly one shape, found %s", quoteList(shapes))
		return nil
	}
	switch shapes[0] {
	case "all", "any":
		v.object(p, g, "guard "+shapes[0], []string{shapes[0]})
		elems, ok := v.array(p+"."+shapes[0], g.Get(shapes[0]))
		if !ok {
			return nil
		}
		node := &Guard{Kind: GuardAll, Children: []*Guard{}}
		if shapes[0] == "any" {
			node.Kind = GuardAny
		}
		for i, e := range elems {
			if c := v.guard(index(p+"."+shapes[0], i), e, exclude); c != nil {
				node.Children = append(node.Children, c)
			}
		}
		return node
	case "not":
		v.object(p, g, "guard not", []string{"not"})
		if c := v.guard(p+".not", g.Get("not"), exclude); c != nil {
			return &Guard{Kind: GuardNot, Children: []*Guard{c}}
		}
		return nil
	}
	return v.guardLeaf(p, g, exclude)
}

func (v *validator) guardLeaf(p string, g *jsonvalue.Value, exclude string) *Guard {
	v.object(p, g, "guard leaf", []string{"variable", "op", "value"})
	node := &Guard{Kind: GuardLeaf}
	known := false
	if x := v.field(p, g, "variable", true); x != nil {
		node.Variable, known = v.varRef(p+".variable", x)
		if known && exclude != "" && node.Variable == exclude {
			v.errorf(p+".variable", "a `when` scope must not read the constrained variable %q: it could switch itself off exactly when the value leaves the range", exclude)
		}
	}
	kind := v.vars[node.Variable]
	if op := v.field(p, g, "op", true); op != nil {
		if s, ok := v.str(p+".op", op, true); ok {
			switch {
			case !slices.Contains([]string{"==", "!=", "<", "<=", ">", ">="}, s):
				v.errorf(p+".op", "unknown comparison %q (allowed: ==, !=, <, <=, >, >=)", s)
			case known && kind == Boolean && s != "==" && s != "!=":
				v.errorf(p+".op", "boolean variable %q only supports == and !=", node.Variable)
			}
			node.Op = s
		}
	}
	if val := v.field(p, g, "value", true); val != nil {
		switch {
		case known && kind == Boolean:
			if b, ok := v.boolean(p+".value", val); ok && b {
				node.Value = 1
			}
		case known:
			node.Value, _ = v.integer(p+".value", val)
		case val.Kind != jsonvalue.Number && val.Kind != jsonvalue.Bool:
			v.errorf(p+".value", "expected number or boolean")
		}
	}
	return node
}

func (v *validator) concurrentPairs(cp *jsonvalue.Value) [][2]string {
	elems, ok := v.array("concurrentPairs", cp)
	if !ok {
		return nil
	}
	out := [][2]string{}
	for i, e := range elems {
		p := index("concurrentPairs", i)
		pair, ok := v.array(p, e)
		if !ok {
			continue
		}
		if len(pair) != 2 {
			v.errorf(p, "expected exactly two events")
			continue
		}
		a, okA := v.eventRef(index(p, 0), pair[0])
		b, okB := v.eventRef(index(p, 1), pair[1])
		if okA && okB && a == b {
			v.errorf(p, "a concurrent pair needs two different events")
			continue
		}
		if okA && okB {
			out = append(out, [2]string{a, b})
		}
	}
	return out
}

func (v *validator) boundaryChecks(bc *jsonvalue.Value) []BoundaryCheck {
	elems, ok := v.array("boundaryChecks", bc)
	if !ok {
		return nil
	}
	out := []BoundaryCheck{}
	for i, e := range elems {
		p := index("boundaryChecks", i)
		if !v.object(p, e, "boundaryCheck", boundaryKeys) {
			continue
		}
		var b BoundaryCheck
		known := false
		if x := v.field(p, e, "variable", true); x != nil {
			b.Variable, known = v.varRef(p+".variable", x)
			if known && v.vars[b.Variable] == Boolean {
				v.errorf(p+".variable", "boundary checks probe integer variables; %q is boolean", b.Variable)
			}
		}
		if vals := v.field(p, e, "values", true); vals != nil {
			if xs, ok := v.array(p+".values", vals); ok {
				b.Values = []int64{}
				for j, x := range xs {
					if n, ok := v.integer(index(p+".values", j), x); ok {
						b.Values = append(b.Values, n)
					}
				}
			}
		}
		out = append(out, b)
	}
	return out
}

// resourceEvent resolves against the alphabet or an entry/exit action: a
// lock taken only in onEntry is still a lock.
func (v *validator) resourceEvent(p string, val *jsonvalue.Value) (string, bool) {
	s, ok := v.str(p, val, true)
	if ok && !v.events[s] && !v.acts[s] {
		v.errorf(p, "unknown event %q (not a transition event nor an onEntry/onExit action)", s)
		return s, false
	}
	return s, ok
}

func (v *validator) resourcePairs(rp *jsonvalue.Value) []ResourcePair {
	elems, ok := v.array("resourcePairs", rp)
	if !ok {
		return nil
	}
	out := []ResourcePair{}
	for i, e := range elems {
		p := index("resourcePairs", i)
		if !v.object(p, e, "resourcePair", resourceKeys) {
			continue
		}
		var r ResourcePair
		if x := v.field(p, e, "resource", true); x != nil {
			r.Resource, _ = v.ident(p+".resource", x)
		}
		if x := v.field(p, e, "acquireEvent", true); x != nil {
			r.AcquireEvent, _ = v.resourceEvent(p+".acquireEvent", x)
		}
		if x := v.field(p, e, "releaseEvent", true); x != nil {
			r.ReleaseEvent, _ = v.resourceEvent(p+".releaseEvent", x)
		}
		if x := e.Get("failEvent"); x != nil {
			r.FailEvent, _ = v.resourceEvent(p+".failEvent", x)
		}
		out = append(out, r)
	}
	return out
}

func (v *validator) narrative(n *jsonvalue.Value) *Narrative {
	if !v.object("narrative", n, "narrative", narrativeKeys) {
		return nil
	}
	nar := &Narrative{Raw: n}
	if !n.Has("states") && !n.Has("events") && !n.Has("scenarios") {
		v.errorf("narrative", "an empty narrative claims documentation that does not exist: give at least one of states, events, scenarios")
		return nar
	}
	if s := n.Get("states"); s != nil {
		nar.States = v.descriptions("narrative.states", s, "state", v.states)
	}
	if e := n.Get("events"); e != nil {
		nar.Events = v.descriptions("narrative.events", e, "event", v.events)
	}
	if sc := n.Get("scenarios"); sc != nil {
		elems, ok := v.array("narrative.scenarios", sc)
		if ok {
			nar.Scenarios = []Scenario{}
			seen := map[[2]string]bool{}
			for i, e := range elems {
				if s, ok := v.scenario(index("narrative.scenarios", i), e, seen); ok {
					nar.Scenarios = append(nar.Scenarios, s)
				}
			}
		}
	}
	return nar
}

func (v *validator) descriptions(p string, obj *jsonvalue.Value, what string, declared map[string]bool) map[string]string {
	if obj.Kind != jsonvalue.Object {
		v.errorf(p, "expected object mapping %s ids to descriptions", what)
		return nil
	}
	out := map[string]string{}
	for _, m := range obj.Members {
		if jsonvalue.IsMetadataKey(m.Key) {
			continue
		}
		kp := joinPath(p, m.Key)
		if !declared[m.Key] {
			v.errorf(kp, "unknown %s %q", what, m.Key)
			continue
		}
		if s, ok := v.str(kp, m.Value, true); ok {
			out[m.Key] = s
		}
	}
	return out
}

func (v *validator) scenario(p string, e *jsonvalue.Value, seen map[[2]string]bool) (Scenario, bool) {
	var s Scenario
	if !v.object(p, e, "scenario", scenarioKeys) {
		return s, false
	}
	okF, okE := false, false
	if x := v.field(p, e, "from", true); x != nil {
		s.From, okF = v.stateRef(p+".from", x)
	}
	if x := v.field(p, e, "event", true); x != nil {
		s.Event, okE = v.eventRef(p+".event", x)
	}
	okT := false
	if x := v.field(p, e, "scenario", true); x != nil {
		s.Text, okT = v.str(p+".scenario", x, true)
	}
	if !okF || !okE {
		return s, false
	}
	key := [2]string{s.From, s.Event}
	switch {
	case !v.groups[key]:
		v.errorf(p, "describes a scenario the model does not have: no transition from %q on %q", s.From, s.Event)
		return s, false
	case seen[key]:
		v.errorf(p, "duplicate scenario for (%q, %q)", s.From, s.Event)
		return s, false
	}
	seen[key] = true
	return s, okT
}

// Coverage is covered/total per narrative dimension.
type Coverage struct {
	States, Events, Scenarios [2]int
}

// Map renders the coverage the way the report carries it.
func (c Coverage) Map() [][2]string {
	f := func(x [2]int) string { return fmt.Sprintf("%d/%d", x[0], x[1]) }
	return [][2]string{{"states", f(c.States)}, {"events", f(c.Events)}, {"scenarios", f(c.Scenarios)}}
}

// Complete reports whether every dimension is fully covered.
func (c Coverage) Complete() bool {
	return c.States[0] == c.States[1] && c.Events[0] == c.Events[1] && c.Scenarios[0] == c.Scenarios[1]
}

// NarrativeCoverage counts what the narrative describes against the
// model's own totals; ok is false when the model has no narrative.
func (m *Model) NarrativeCoverage() (c Coverage, ok bool) {
	if m.Narrative == nil {
		return c, false
	}
	groups := map[[2]string]bool{}
	for _, t := range m.Transitions {
		groups[[2]string{t.From, t.Event}] = true
	}
	c.States = [2]int{len(m.Narrative.States), len(m.States)}
	c.Events = [2]int{len(m.Narrative.Events), len(m.Alphabet())}
	c.Scenarios = [2]int{len(m.Narrative.Scenarios), len(groups)}
	return c, true
}
