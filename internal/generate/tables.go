package generate

import (
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// The four targets hold the model as the same tables: per state its
// action slots and its transitions in priority order, per transition its
// guard and effect functions, per concrete action one function, per
// variable its initial value. This file walks the model once for all of
// them; a target gives only its syntax (funcWriter, tableSyntax,
// literal, initSyntax).

// funcWriter writes a target's guard, effect and concrete action
// functions, named by the walk.
type funcWriter interface {
	writeGuard(fn string, t *model.Transition, e *edgeFacts) error
	writeEffect(fn string, t *model.Transition, e *edgeFacts) error
	// writeAction writes the function of a concrete action; name is
	// its path, or says which anonymous action it is.
	writeAction(fn, name string, a *model.Action) error
}

// nextFunc names the next generated function: prefix and a number shared
// by all of a module's functions.
func (g *goGen) nextFunc(prefix string) string {
	g.nfn++
	return fmt.Sprintf("%s%d", prefix, g.nfn)
}

// actionFn is the function of a concrete action, written by w the
// first time it is asked for (several slots may run the same action).
func (g *goGen) actionFn(a *model.Action, w funcWriter, prefix string) (string, error) {
	if fn, ok := g.actionFns[a]; ok {
		return fn, nil
	}
	fn := g.nextFunc(prefix + "action")
	g.actionFns[a] = fn
	name := a.Path
	if name == "" {
		name = "anonymous " + string(a.Role) + " action of " + a.State.Path
	}
	return fn, w.writeAction(fn, name, a)
}

// edgeFacts is what a transition's table entry says, whatever the syntax.
type edgeFacts struct {
	to, event     int    // indexes; -1: [*], no event
	from, toName  string // the states' names, "[*]" for none
	label, forced string // the comment's " : EVENT" and " (forced)", or ""
	guard, effect string // the functions, "" for none
}

// comment is the entry's comment: the transition as the model writes it.
func (e *edgeFacts) comment(t *model.Transition) string {
	return fmt.Sprintf("%s -> %s%s%s (%s)", e.from, e.toName, e.label, e.forced, where(t.Pos))
}

// edgeFacts walks a transition, writing its guard and effect functions
// with w.
func (g *goGen) edgeFacts(t *model.Transition, w funcWriter, prefix string) (edgeFacts, error) {
	e := edgeFacts{to: -1, event: -1, from: "[*]", toName: "[*]"}
	if t.To != nil {
		e.to, e.toName = g.stateIdx[t.To], t.To.Name
	}
	if t.From != nil {
		e.from = t.From.Name
	}
	if t.Event != nil {
		e.event = g.eventIdx[t.Event.Path]
		e.label = " : " + t.Event.Path
	}
	if t.Forced {
		e.forced = " (forced)"
	}
	if t.Guard != nil {
		e.guard = g.nextFunc(prefix + "guard")
		if err := w.writeGuard(e.guard, t, &e); err != nil {
			return e, err
		}
	}
	if len(t.Effect) > 0 {
		e.effect = g.nextFunc(prefix + "effect")
		if err := w.writeEffect(e.effect, t, &e); err != nil {
			return e, err
		}
	}
	return e, nil
}

// slotFacts is what an action slot's table entry says, whatever the
// syntax; an empty string is a field left out.
type slotFacts struct {
	name     string // the action's own name
	skip     bool   // a concrete action without operations
	ref      string // the resolved path of a ref, when hasRef
	hasRef   bool
	abstract bool
	action   string // the abstract action's path (its hook)
	namedRef string // the path of a named ref to an abstract action
	run      string // the concrete action's function
	what     string // the comment's name: the action's, or "anonymous"
}

// slotFacts walks an action slot, writing its function with w.
func (g *goGen) slotFacts(a *model.Action, w funcWriter, prefix string) (slotFacts, error) {
	r := a.Resolved()
	f := slotFacts{name: a.Name, what: a.Name}
	if f.what == "" {
		f.what = "anonymous"
	}
	f.skip = r.Kind == model.Concrete && len(r.Ops) == 0 && a.Kind != model.Ref
	if a.Kind == model.Ref && a.Target != nil {
		f.ref, f.hasRef = r.Path, true
	}
	if r.Kind == model.Abstract {
		f.abstract = true
		f.action = r.Path
		if a.Kind == model.Ref && a.Name != "" {
			f.namedRef = a.Path
		}
	}
	if r.Kind == model.Concrete && len(r.Ops) > 0 {
		fn, err := g.actionFn(r, w, prefix)
		if err != nil {
			return f, err
		}
		f.run = fn
	}
	return f, nil
}

// literal is how the Go, Python and TypeScript targets write a table
// entry: fields, keyed or (Python's leading ones) positional, between
// an opening and a closing text, then a line comment.
type literal struct {
	quote      func(string) string
	pos        func(model.Pos) string
	key        func(field string) string // the prefix of a keyed field
	positional bool                      // the leading fields are positional
	trueLit    string
	// The texts around an action slot's and an edge's fields.
	actionOpen, edgeOpen, close string
	fnPrefix                    string // of the guard, effect and action functions' names
}

// literalEntries writes the table entries of a Go, Python or TypeScript
// module: the walk's facts in lit's syntax, the functions written by w.
type literalEntries struct {
	g   *goGen
	w   funcWriter
	lit *literal
}

// action is the entry of an action slot.
func (e literalEntries) action(a *model.Action) (string, error) {
	f, err := e.g.slotFacts(a, e.w, e.lit.fnPrefix)
	return e.lit.action(a, f), err
}

// edge is the entry of a transition, with its guard and effect functions.
func (e literalEntries) edge(t *model.Transition) (string, error) {
	f, err := e.g.edgeFacts(t, e.w, e.lit.fnPrefix)
	return e.lit.edge(t, f), err
}

// field is a keyed field, or a positional one when pos.
func (l *literal) field(name, value string, pos bool) string {
	if pos && l.positional {
		return value
	}
	return l.key(name) + value
}

// action is the entry of an action slot.
func (l *literal) action(a *model.Action, f slotFacts) string {
	fs := []string{l.field("role", l.quote(string(a.Role)), true), l.field("state", l.quote(a.State.Path), true)}
	if f.name != "" {
		fs = append(fs, l.field("name", l.quote(f.name), false))
	}
	if f.skip {
		fs = append(fs, l.field("skip", l.trueLit, false))
	}
	if f.hasRef {
		fs = append(fs, l.field("ref", l.quote(f.ref), false))
	}
	if f.abstract {
		fs = append(fs, l.field("abstract", l.trueLit, false))
		if f.action != "" {
			fs = append(fs, l.field("action", l.quote(f.action), false))
		}
		if f.namedRef != "" {
			fs = append(fs, l.field("namedRef", l.quote(f.namedRef), false))
		}
	}
	if f.run != "" {
		fs = append(fs, l.field("run", f.run, false))
	}
	return fmt.Sprintf("%s%s%s %s %s action (%s)", l.actionOpen, strings.Join(fs, ", "), l.close, f.what, a.Role, where(a.Pos))
}

// edge is the entry of a transition.
func (l *literal) edge(t *model.Transition, e edgeFacts) string {
	fs := []string{l.field("to", fmt.Sprint(e.to), true), l.field("event", fmt.Sprint(e.event), true),
		l.field("owner", l.quote(t.Owner.Path), true), l.field("toName", l.quote(e.toName), true), l.field("pos", l.pos(t.Pos), true)}
	if e.guard != "" {
		fs = append(fs, l.field("guard", e.guard, false))
	}
	if e.effect != "" {
		fs = append(fs, l.field("effect", e.effect, false))
	}
	return l.edgeOpen + strings.Join(fs, ", ") + l.close + " " + e.comment(t)
}

// parentDepth is a state's parent index (-1 for the root) and its depth
// (1 for the root).
func (g *goGen) parentDepth(s *model.State) (parent, depth int) {
	parent, depth = -1, 1
	for p := s.Parent; p != nil; p = p.Parent {
		depth++
	}
	if s.Parent != nil {
		parent = g.stateIdx[s.Parent]
	}
	return parent, depth
}

// transitionSets are, per state, its outgoing transitions and its
// initial ones (from [*] inside it), in priority order.
func (g *goGen) transitionSets() (out, inits [][]*model.Transition) {
	out = make([][]*model.Transition, len(g.states))
	inits = make([][]*model.Transition, len(g.states))
	for i, s := range g.states {
		for _, t := range s.Transitions {
			if t.From == nil {
				inits[i] = append(inits[i], t)
			} else if j, ok := g.stateIdx[t.From]; ok {
				out[j] = append(out[j], t)
			}
		}
	}
	return out, inits
}

// slotLists are a state's action slots in table order: enter, during,
// exit, during before and after, aspect before and after.
func slotLists(s *model.State) [7][]*model.Action {
	return [7][]*model.Action{s.Enter, s.During, s.Exit, s.DuringBefore, s.DuringAfter, s.AspectBefore, s.AspectAfter}
}

// stateKind names a state in comments.
func stateKind(s *model.State) string {
	if s.Pseudo {
		return "pseudo state"
	}
	return "state"
}

// tableSyntax is how a target writes a state's lists: the lists' fields
// (the seven action slots as slotLists orders them, then out and inits),
// the line opening a list (a format of the state's index, the field and
// the entries' type: types' first for actions, second for edges), an
// entry's indent and the closing line.
type tableSyntax struct {
	fields        [9]string
	open          string
	types         [2]string
	indent, close string
}

// stateLists writes state i's non-empty lists, their entries written by
// action and edge.
func stateLists(b *strings.Builder, syn tableSyntax, i int, s *model.State, out, inits []*model.Transition,
	action func(*model.Action) (string, error), edge func(*model.Transition) (string, error)) error {
	list := func(field string, edges bool, n int, item func(k int) (string, error)) error {
		if n == 0 {
			return nil
		}
		typ := syn.types[0]
		if edges {
			typ = syn.types[1]
		}
		fmt.Fprintf(b, syn.open, i, field, typ)
		for k := range n {
			line, err := item(k)
			if err != nil {
				return err
			}
			b.WriteString(syn.indent + line + "\n")
		}
		b.WriteString(syn.close + "\n")
		return nil
	}
	for k, acts := range slotLists(s) {
		if err := list(syn.fields[k], false, len(acts), func(j int) (string, error) { return action(acts[j]) }); err != nil {
			return err
		}
	}
	for k, ts := range [][]*model.Transition{out, inits} {
		if err := list(syn.fields[7+k], true, len(ts), func(j int) (string, error) { return edge(ts[j]) }); err != nil {
			return err
		}
	}
	return nil
}

// initSyntax is how a target writes the cases of its initial-value
// switch: a case's line, the statement failing with a variable's
// initialisation error, the statement giving its value.
type initSyntax struct {
	caseLine func(i int, v *model.Variable) string
	fail     func(v *model.Variable) string
	value    func(v *model.Variable) (string, error)
}

// initCases writes one case per variable, in declaration order.
func (g *goGen) initCases(b *strings.Builder, syn initSyntax) error {
	for i, v := range g.m.Vars {
		b.WriteString(syn.caseLine(i, v))
		if v.InitErr != nil {
			b.WriteString(syn.fail(v))
			continue
		}
		stmt, err := syn.value(v)
		if err != nil {
			return err
		}
		b.WriteString(stmt)
	}
	return nil
}

// initLit is a variable's initial value as a literal: the loader has
// evaluated it to an integer or a float.
func initLit(v *model.Variable, intLit func(expr.Value) string, floatLit func(float64) string) (string, error) {
	switch v.Init.Type() {
	case expr.Int:
		return intLit(v.Init), nil
	case expr.Real:
		return floatLit(v.Init.Real()), nil
	}
	return "", &Unsupported{Pos: v.Pos, Feature: "initial-value", Message: fmt.Sprintf("the initial value %s is not a number", v.Init)}
}

// each is f of every element, each followed by sep (the tables' lists
// end in a separator).
func each[T any](xs []T, f func(T) string, sep string) string {
	var b strings.Builder
	for _, x := range xs {
		b.WriteString(f(x) + sep)
	}
	return b.String()
}

// varKinds is f of each variable's kind, each followed by sep.
func varKinds(vars []*model.Variable, intKind, floatKind, sep string) string {
	return each(vars, func(v *model.Variable) string {
		if v.Type == model.Float {
			return floatKind
		}
		return intKind
	}, sep)
}
