package jsonmodel

import (
	"fmt"
	"math"
	"slices"

	"github.com/stateproof/stateproof/internal/jsonvalue"
)

// maxSafeInteger is the largest integer a double holds exactly; integer
// fields beyond it would not mean the same thing to the JavaScript engine.
const maxSafeInteger = 1<<53 - 1

// The closed key sets.
var (
	modelKeys      = []string{"schemaVersion", "init", "states", "transitions", "variables", "invariants", "concurrentPairs", "boundaryChecks", "resourcePairs", "idempotentEvents", "tickEvents", "narrative", "fairness"}
	stateKeys      = []string{"id", "terminal", "onEntry", "onExit", "maxTicks"}
	transitionKeys = []string{"from", "event", "to", "guard", "updates", "cost", "weight"}
	updateKeys     = []string{"variable", "op", "value"}
	variableKeys   = []string{"name", "kind", "init", "min", "max", "monotonic"}
	boundaryKeys   = []string{"variable", "values"}
	resourceKeys   = []string{"resource", "acquireEvent", "releaseEvent", "failEvent"}
	narrativeKeys  = []string{"states", "events", "scenarios"}
	scenarioKeys   = []string{"from", "event", "scenario"}
	fairnessKeys   = []string{"weak", "strong"}
)

// validator accumulates errors while building a Model.
type validator struct {
	errs   []string
	states map[string]bool
	vars   map[string]VarKind
	events map[string]bool // the alphabet
	groups map[[2]string]bool
	acts   map[string]bool // onEntry/onExit action names
	noDesc []int
}

func (v *validator) errorf(path, format string, args ...any) {
	v.errs = append(v.errs, path+": "+fmt.Sprintf(format, args...))
}

// Validate checks a parsed model against schema v1 and returns every error
// it finds, or the typed Model.
func Validate(root *jsonvalue.Value) *Result {
	res := &Result{Raw: root, MetadataKeys: MetadataKeys(root)}
	v := &validator{}
	duplicateKeys(root, "", func(p, msg string) { v.errorf(p, "%s", msg) })
	if root.Kind != jsonvalue.Object {
		v.errs = append(v.errs, fmt.Sprintf("(root): expected object, found %s", root.Kind))
		res.Errors = v.errs
		return res
	}
	v.collectDeclarations(root)
	m := v.model(root)
	res.Errors = v.errs
	res.MissingDescription = v.noDesc
	if len(v.errs) == 0 {
		res.Model = m
	}
	return res
}

// collectDeclarations gathers the ids that references resolve against, so
// that errors can be reported in document order in one pass.
func (v *validator) collectDeclarations(root *jsonvalue.Value) {
	v.states, v.vars, v.events = map[string]bool{}, map[string]VarKind{}, map[string]bool{}
	v.groups, v.acts = map[[2]string]bool{}, map[string]bool{}
	if ss := root.Get("states"); ss != nil && ss.Kind == jsonvalue.Array {
		for _, s := range ss.Elems {
			if id := s.Get("id"); id != nil && id.Kind == jsonvalue.String {
				v.states[id.Str] = true
			}
			for _, k := range []string{"onEntry", "onExit"} {
				if a := s.Get(k); a != nil && a.Kind == jsonvalue.Array {
					for _, e := range a.Elems {
						if e.Kind == jsonvalue.String {
							v.acts[e.Str] = true
						}
					}
				}
			}
		}
	}
	if vs := root.Get("variables"); vs != nil && vs.Kind == jsonvalue.Array {
		for _, x := range vs.Elems {
			name, kind := x.Get("name"), x.Get("kind")
			if name != nil && name.Kind == jsonvalue.String {
				k := Integer
				if kind != nil && kind.Kind == jsonvalue.String && kind.Str == "boolean" {
					k = Boolean
				}
				if _, dup := v.vars[name.Str]; !dup {
					v.vars[name.Str] = k
				}
			}
		}
	}
	if ts := root.Get("transitions"); ts != nil && ts.Kind == jsonvalue.Array {
		for _, t := range ts.Elems {
			if e := t.Get("event"); e != nil && e.Kind == jsonvalue.String && e.Str != "" {
				v.events[e.Str] = true
				if f := t.Get("from"); f != nil && f.Kind == jsonvalue.String {
					v.groups[[2]string{f.Str, e.Str}] = true
				}
			}
		}
	}
}

// object checks that val is an object and that every non-`_` key is in
// allowed; part names the object kind in the message.
func (v *validator) object(path string, val *jsonvalue.Value, part string, allowed []string) bool {
	if val.Kind != jsonvalue.Object {
		v.errorf(path, "expected object")
		return false
	}
	for _, m := range val.Members {
		if !jsonvalue.IsMetadataKey(m.Key) && !slices.Contains(allowed, m.Key) {
			v.errorf(joinPath(path, m.Key), "unknown field for %s (allowed: %s)", part, quoteList(allowed))
		}
	}
	return true
}

// field returns the member key of obj, reporting it when required and absent.
func (v *validator) field(path string, obj *jsonvalue.Value, key string, required bool) *jsonvalue.Value {
	f := obj.Get(key)
	if f == nil && required {
		v.errorf(joinPath(path, key), "required field missing")
	}
	return f
}

func (v *validator) str(path string, val *jsonvalue.Value, nonEmpty bool) (string, bool) {
	if val.Kind != jsonvalue.String || (nonEmpty && val.Str == "") {
		if nonEmpty {
			v.errorf(path, "expected non-empty string")
		} else {
			v.errorf(path, "expected string")
		}
		return "", false
	}
	return val.Str, true
}

// ident is a non-empty string that names something; identifiers may not
// start with "_", which would make them unreadable as narrative keys.
func (v *validator) ident(path string, val *jsonvalue.Value) (string, bool) {
	s, ok := v.str(path, val, true)
	if ok && jsonvalue.IsMetadataKey(s) {
		v.errorf(path, "identifier %q must not start with \"_\" (that prefix marks metadata)", s)
		return s, false
	}
	return s, ok
}

func (v *validator) boolean(path string, val *jsonvalue.Value) (bool, bool) {
	if val.Kind != jsonvalue.Bool {
		v.errorf(path, "expected boolean")
		return false, false
	}
	return val.Bool, true
}

func (v *validator) integer(path string, val *jsonvalue.Value) (int64, bool) {
	if val.Kind != jsonvalue.Number || val.Num != math.Trunc(val.Num) {
		v.errorf(path, "expected integer")
		return 0, false
	}
	if math.Abs(val.Num) > maxSafeInteger {
		// The text as written: the double may have rounded it into range's
		// neighbour (9007199254740993 reads as 9007199254740992).
		text := val.Text
		if text == "" {
			text = jsonvalue.FormatNumber(val.Num)
		}
		v.errorf(path, "%s is outside the exact integer range ±(2^53−1)", text)
		return 0, false
	}
	return int64(val.Num), true
}

func (v *validator) number(path string, val *jsonvalue.Value) (float64, bool) {
	if val.Kind != jsonvalue.Number {
		v.errorf(path, "expected number")
		return 0, false
	}
	return val.Num, true
}

func (v *validator) nonNegative(path string, val *jsonvalue.Value) (float64, bool) {
	x, ok := v.number(path, val)
	if ok && x < 0 {
		v.errorf(path, "must be >= 0")
		return 0, false
	}
	return x, ok
}

func (v *validator) array(path string, val *jsonvalue.Value) ([]*jsonvalue.Value, bool) {
	if val.Kind != jsonvalue.Array {
		v.errorf(path, "expected array")
		return nil, false
	}
	return val.Elems, true
}

func (v *validator) stateRef(path string, val *jsonvalue.Value) (string, bool) {
	s, ok := v.str(path, val, true)
	if ok && !v.states[s] {
		v.errorf(path, "unknown state %q", s)
		return s, false
	}
	return s, ok
}

func (v *validator) eventRef(path string, val *jsonvalue.Value) (string, bool) {
	s, ok := v.str(path, val, true)
	if ok && !v.events[s] {
		v.errorf(path, "unknown event %q", s)
		return s, false
	}
	return s, ok
}

func (v *validator) varRef(path string, val *jsonvalue.Value) (string, bool) {
	s, ok := v.str(path, val, true)
	if ok {
		if _, known := v.vars[s]; !known {
			v.errorf(path, "unknown variable %q", s)
			return s, false
		}
	}
	return s, ok
}

// list validates an array of strings with each element checked by elem and
// no duplicates; nonEmpty requires at least one element.
func (v *validator) list(path string, val *jsonvalue.Value, nonEmpty bool, what string, elem func(string, *jsonvalue.Value) (string, bool)) []string {
	elems, ok := v.array(path, val)
	if !ok {
		return nil
	}
	if nonEmpty && len(elems) == 0 {
		v.errorf(path, "must not be empty")
	}
	out := []string{}
	seen := map[string]bool{}
	for i, e := range elems {
		p := index(path, i)
		s, ok := elem(p, e)
		if !ok {
			continue
		}
		if seen[s] {
			v.errorf(p, "duplicate %s %q", what, s)
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

func (v *validator) model(root *jsonvalue.Value) *Model {
	m := &Model{Raw: root}
	v.object("", root, "model", modelKeys)
	if sv := v.field("", root, "schemaVersion", true); sv != nil {
		if x, ok := v.number("schemaVersion", sv); ok && x != 1 {
			v.errorf("schemaVersion", "must be 1 (found %s)", jsonvalue.FormatNumber(x))
		}
	}
	if in := v.field("", root, "init", true); in != nil {
		m.Init, _ = v.stateRef("init", in)
	}
	if ss := v.field("", root, "states", true); ss != nil {
		m.States = v.statesList(ss)
	}
	if ts := v.field("", root, "transitions", true); ts != nil {
		if elems, ok := v.array("transitions", ts); ok {
			for i, t := range elems {
				m.Transitions = append(m.Transitions, v.transition(index("transitions", i), i, t))
			}
		}
	}
	if vs := root.Get("variables"); vs != nil {
		m.Variables = v.variables(vs)
	}
	if is := root.Get("invariants"); is != nil {
		m.Invariants = v.invariants(is)
	}
	if cp := root.Get("concurrentPairs"); cp != nil {
		m.ConcurrentPairs = v.concurrentPairs(cp)
	}
	if bc := root.Get("boundaryChecks"); bc != nil {
		m.BoundaryChecks = v.boundaryChecks(bc)
	}
	if rp := root.Get("resourcePairs"); rp != nil {
		m.ResourcePairs = v.resourcePairs(rp)
	}
	if ie := root.Get("idempotentEvents"); ie != nil {
		m.IdempotentEvents = v.list("idempotentEvents", ie, false, "event", v.eventRef)
	}
	if te := root.Get("tickEvents"); te != nil {
		m.TickEvents = v.list("tickEvents", te, false, "event", v.eventRef)
	}
	if n := root.Get("narrative"); n != nil {
		m.Narrative = v.narrative(n)
	}
	if f := root.Get("fairness"); f != nil {
		m.Fairness = v.fairness(f)
	}
	return m
}

func (v *validator) statesList(ss *jsonvalue.Value) []State {
	elems, ok := v.array("states", ss)
	if !ok {
		return nil
	}
	if len(elems) == 0 {
		v.errorf("states", "must declare at least one state")
	}
	var out []State
	seen := map[string]bool{}
	for i, s := range elems {
		p := index("states", i)
		if !v.object(p, s, "state", stateKeys) {
			continue
		}
		var st State
		if id := v.field(p, s, "id", true); id != nil {
			if x, ok := v.ident(p+".id", id); ok {
				if seen[x] {
					v.errorf(p+".id", "duplicate state %q", x)
				}
				seen[x] = true
				st.ID = x
			}
		}
		if t := s.Get("terminal"); t != nil {
			st.Terminal, _ = v.boolean(p+".terminal", t)
		}
		for _, k := range []string{"onEntry", "onExit"} {
			a := s.Get(k)
			if a == nil {
				continue
			}
			acts := v.actions(p+"."+k, a)
			if k == "onEntry" {
				st.OnEntry = acts
			} else {
				st.OnExit = acts
			}
		}
		if mt := s.Get("maxTicks"); mt != nil {
			if x, ok := v.integer(p+".maxTicks", mt); ok {
				if x < 0 {
					v.errorf(p+".maxTicks", "must be >= 0")
				}
				st.MaxTicks = &x
			}
		}
		out = append(out, st)
	}
	return out
}

// actions validates an onEntry/onExit list: at most 64 non-empty strings,
// in order (repeats allowed: an action may fire twice).
func (v *validator) actions(path string, a *jsonvalue.Value) []string {
	elems, ok := v.array(path, a)
	if !ok {
		return nil
	}
	if len(elems) > 64 {
		v.errorf(path, "at most 64 actions allowed (found %d)", len(elems))
	}
	out := []string{}
	for i, e := range elems {
		if s, ok := v.str(index(path, i), e, true); ok {
			out = append(out, s)
		}
	}
	return out
}

func (v *validator) transition(p string, i int, t *jsonvalue.Value) Transition {
	tr := Transition{Index: i, Cost: 1, Weight: 1}
	if !v.object(p, t, "transition", transitionKeys) {
		return tr
	}
	if f := v.field(p, t, "from", true); f != nil {
		tr.From, _ = v.stateRef(p+".from", f)
	}
	if e := v.field(p, t, "event", true); e != nil {
		tr.Event, _ = v.ident(p+".event", e)
	}
	if to := v.field(p, t, "to", true); to != nil {
		tr.To, _ = v.stateRef(p+".to", to)
	}
	if g := t.Get("guard"); g != nil {
		tr.Guard = v.guard(p+".guard", g, "")
	}
	if us := t.Get("updates"); us != nil {
		if elems, ok := v.array(p+".updates", us); ok {
			tr.Updates = []Update{}
			for j, u := range elems {
				if up, ok := v.update(index(p+".updates", j), u); ok {
					tr.Updates = append(tr.Updates, up)
				}
			}
		}
	}
	if c := t.Get("cost"); c != nil {
		tr.Cost, _ = v.nonNegative(p+".cost", c)
		tr.HasCost = true
	}
	if w := t.Get("weight"); w != nil {
		tr.Weight, _ = v.nonNegative(p+".weight", w)
	}
	return tr
}

func (v *validator) update(p string, u *jsonvalue.Value) (Update, bool) {
	var up Update
	if !v.object(p, u, "update", updateKeys) {
		return up, false
	}
	known := false
	if x := v.field(p, u, "variable", true); x != nil {
		up.Variable, known = v.varRef(p+".variable", x)
	}
	if op := v.field(p, u, "op", true); op != nil {
		if s, ok := v.str(p+".op", op, true); ok {
			if s != "inc" && s != "dec" && s != "set" {
				v.errorf(p+".op", "unknown update op %q (allowed: inc, dec, set)", s)
			}
			up.Op = s
		}
	}
	kind := v.vars[up.Variable]
	val := u.Get("value")
	switch {
	case known && kind == Boolean:
		if up.Op == "inc" || up.Op == "dec" {
			v.errorf(p+".op", "boolean variable %q only supports set", up.Variable)
		}
		if val == nil {
			if up.Op == "set" {
				v.errorf(p+".value", "required field missing (a boolean set needs a true/false value)")
			}
		} else if b, ok := v.boolean(p+".value", val); ok && b {
			up.Value = 1
		}
	case val != nil:
		up.Value, _ = v.integer(p+".value", val)
	case up.Op == "inc" || up.Op == "dec":
		up.Value = 1
	}
	return up, true
}

func (v *validator) variables(vs *jsonvalue.Value) []Variable {
	elems, ok := v.array("variables", vs)
	if !ok {
		return nil
	}
	out := []Variable{}
	seen := map[string]bool{}
	for i, x := range elems {
		p := index("variables", i)
		if !v.object(p, x, "variable", variableKeys) {
			continue
		}
		var vr Variable
		if n := v.field(p, x, "name", true); n != nil {
			if s, ok := v.ident(p+".name", n); ok {
				if seen[s] {
					v.errorf(p+".name", "duplicate variable %q", s)
				}
				seen[s] = true
				vr.Name = s
			}
		}
		kindOK := false
		if k := v.field(p, x, "kind", true); k != nil {
			if s, ok := v.str(p+".kind", k, true); ok {
				switch s {
				case "integer":
					vr.Kind, kindOK = Integer, true
				case "boolean":
					vr.Kind, kindOK = Boolean, true
				default:
					v.errorf(p+".kind", "unknown variable kind %q (allowed: integer, boolean)", s)
				}
			}
		}
		v.variableValues(p, x, &vr, kindOK)
		out = append(out, vr)
	}
	return out
}

func (v *validator) variableValues(p string, x *jsonvalue.Value, vr *Variable, kindOK bool) {
	init := v.field(p, x, "init", true)
	if vr.Kind == Boolean && kindOK {
		if init != nil {
			if b, ok := v.boolean(p+".init", init); ok && b {
				vr.Init = 1
			}
		}
		for _, k := range []string{"min", "max", "monotonic"} {
			if x.Get(k) != nil {
				v.errorf(p+"."+k, "not allowed on a boolean variable")
			}
		}
		return
	}
	initOK := false
	if init != nil {
		vr.Init, initOK = v.integer(p+".init", init)
	}
	if mn := x.Get("min"); mn != nil {
		if n, ok := v.integer(p+".min", mn); ok {
			vr.Min = &n
		}
	}
	if mx := x.Get("max"); mx != nil {
		if n, ok := v.integer(p+".max", mx); ok {
			vr.Max = &n
		}
	}
	if vr.Min != nil && vr.Max != nil && *vr.Min > *vr.Max {
		v.errorf(p, "min must be <= max")
	} else if initOK && ((vr.Min != nil && vr.Init < *vr.Min) || (vr.Max != nil && vr.Init > *vr.Max)) {
		v.errorf(p+".init", "init %d is outside the declared range %s", vr.Init, RangeText(vr.Min, vr.Max))
	}
	if mo := x.Get("monotonic"); mo != nil {
		if s, ok := v.str(p+".monotonic", mo, true); ok {
			if s != "inc" && s != "dec" {
				v.errorf(p+".monotonic", "must be \"inc\" or \"dec\"")
			}
			vr.Monotonic = s
		}
	}
}

// RangeText renders a declared range, an absent bound as -inf or +inf.
func RangeText(mn, mx *int64) string {
	lo, hi := "-inf", "+inf"
	if mn != nil {
		lo = fmt.Sprint(*mn)
	}
	if mx != nil {
		hi = fmt.Sprint(*mx)
	}
	return "[" + lo + ", " + hi + "]"
}
