package generate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// initial writes initialValue: each variable's initialiser, already
// evaluated by the loader, or the error a cold start gives for it.
func (g *goGen) initial(b *strings.Builder) error {
	b.WriteString("// initialValue is the initial value of variable i on a cold start.\nfunc initialValue(i int) (Value, error) {\n\tswitch i {\n")
	for i, v := range g.m.Vars {
		fmt.Fprintf(b, "\tcase %d: // %s\n", i, where(v.Pos))
		if v.InitErr != nil {
			fmt.Fprintf(b, "\t\treturn Value{}, errorAt(\"init\", %s, \"%%s\", %s)\n", goPos(v.InitErr.Pos), strconv.Quote(v.InitErr.Message))
			continue
		}
		lit, err := goValue(v.Init)
		if err != nil {
			return &Unsupported{Pos: v.Pos, Feature: "initial-value", Message: err.Error()}
		}
		fmt.Fprintf(b, "\t\treturn %s, nil\n", lit)
	}
	b.WriteString("\t}\n\treturn Value{}, nil\n}\n\n")
	return nil
}

// goValue is the Go expression of a constant Value.
func goValue(v expr.Value) (string, error) {
	switch v.Type() {
	case expr.Int:
		if v.IsInt64() {
			return fmt.Sprintf("IntValue(%d)", v.Int()), nil
		}
		return fmt.Sprintf("bigLit(%q)", v.String()), nil
	case expr.Real:
		return floatLit(v.Real()), nil
	}
	return "", fmt.Errorf("the initial value %s is not a number", v)
}

// floatLit is a float constant, bit for bit, with its value in a comment.
func floatLit(f float64) string {
	return fmt.Sprintf("floatBits(0x%016x /* %s */)", mathBits(f), expr.RealVal(f).String())
}

// machineDef writes newMachineDef: the state tree with its transitions in
// priority order and its action slots.
func (g *goGen) machineDef(b *strings.Builder) error {
	b.WriteString("func newMachineDef() *machineDef {\n\tm := &machineDef{initial: initialValue}\n")
	b.WriteString("\tm.events = []string{\n")
	for _, e := range g.events {
		fmt.Fprintf(b, "\t\t%s,\n", strconv.Quote(e))
	}
	b.WriteString("\t}\n\tm.varKinds = []Kind{")
	for i, v := range g.m.Vars {
		if i > 0 {
			b.WriteString(", ")
		}
		if v.Type == model.Float {
			b.WriteString("Float")
		} else {
			b.WriteString("Int")
		}
	}
	b.WriteString("}\n\tm.varPos = []pos{")
	for i, v := range g.m.Vars {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(goPos(v.Pos))
	}
	b.WriteString("}\n\tm.states = make([]stateDef, " + strconv.Itoa(len(g.states)) + ")\n")
	out := make([][]*model.Transition, len(g.states))
	inits := make([][]*model.Transition, len(g.states))
	for i, s := range g.states {
		for _, t := range s.Transitions {
			if t.From == nil {
				inits[i] = append(inits[i], t)
			} else if j, ok := g.stateIdx[t.From]; ok {
				out[j] = append(out[j], t)
			}
		}
	}
	for i, s := range g.states {
		if err := g.state(b, i, s, out[i], inits[i]); err != nil {
			return err
		}
	}
	b.WriteString("\treturn m\n}\n\n")
	return nil
}

func (g *goGen) state(b *strings.Builder, i int, s *model.State, out, inits []*model.Transition) error {
	parent, depth := -1, 1
	for p := s.Parent; p != nil; p = p.Parent {
		depth++
	}
	if s.Parent != nil {
		parent = g.stateIdx[s.Parent]
	}
	kind := "state"
	if s.Pseudo {
		kind = "pseudo state"
	}
	fmt.Fprintf(b, "\n\t// %s %s (%s)\n", kind, s.Path, where(s.Pos))
	fmt.Fprintf(b, "\tm.states[%d] = stateDef{name: %s, path: %s, parent: %d, depth: %d, leaf: %t, pseudo: %t, pos: %s}\n",
		i, strconv.Quote(s.Name), strconv.Quote(s.Path), parent, depth, s.IsLeaf(), s.Pseudo, goPos(s.Pos))
	slots := []struct {
		field string
		list  []*model.Action
	}{{"enter", s.Enter}, {"during", s.During}, {"exit", s.Exit}, {"duringBefore", s.DuringBefore},
		{"duringAfter", s.DuringAfter}, {"aspectBefore", s.AspectBefore}, {"aspectAfter", s.AspectAfter}}
	for _, sl := range slots {
		if len(sl.list) == 0 {
			continue
		}
		fmt.Fprintf(b, "\tm.states[%d].%s = []actionDef{\n", i, sl.field)
		for _, a := range sl.list {
			line, err := g.action(a)
			if err != nil {
				return err
			}
			b.WriteString("\t\t" + line + "\n")
		}
		b.WriteString("\t}\n")
	}
	for _, set := range []struct {
		field string
		list  []*model.Transition
	}{{"out", out}, {"inits", inits}} {
		if len(set.list) == 0 {
			continue
		}
		fmt.Fprintf(b, "\tm.states[%d].%s = []edgeDef{\n", i, set.field)
		for _, t := range set.list {
			line, err := g.edge(t)
			if err != nil {
				return err
			}
			b.WriteString("\t\t" + line + "\n")
		}
		b.WriteString("\t}\n")
	}
	return nil
}

// action is the actionDef literal of one action slot.
func (g *goGen) action(a *model.Action) (string, error) {
	r := a.Resolved()
	var f []string
	f = append(f, "role: "+strconv.Quote(string(a.Role)), "state: "+strconv.Quote(a.State.Path))
	if a.Name != "" {
		f = append(f, "name: "+strconv.Quote(a.Name))
	}
	if r.Kind == model.Concrete && len(r.Ops) == 0 && a.Kind != model.Ref {
		f = append(f, "skip: true")
	}
	if a.Kind == model.Ref && a.Target != nil {
		f = append(f, "ref: "+strconv.Quote(r.Path))
	}
	if r.Kind == model.Abstract {
		f = append(f, "abstract: true")
		if r.Path != "" {
			f = append(f, "action: "+strconv.Quote(r.Path))
		}
		if a.Kind == model.Ref && a.Name != "" {
			f = append(f, "namedRef: "+strconv.Quote(a.Path))
		}
	}
	if r.Kind == model.Concrete && len(r.Ops) > 0 {
		fn, err := g.actionFunc(r)
		if err != nil {
			return "", err
		}
		f = append(f, "run: "+fn)
	}
	what := a.Name
	if what == "" {
		what = "anonymous"
	}
	return fmt.Sprintf("{%s}, // %s %s action (%s)", strings.Join(f, ", "), what, a.Role, where(a.Pos)), nil
}

// actionFunc writes the function of a concrete action, once.
func (g *goGen) actionFunc(a *model.Action) (string, error) {
	if fn, ok := g.actionFn[a]; ok {
		return fn, nil
	}
	g.nfn++
	fn := fmt.Sprintf("action%d", g.nfn)
	g.actionFn[a] = fn
	name := a.Path
	if name == "" {
		name = "anonymous " + string(a.Role) + " action of " + a.State.Path
	}
	body, err := g.block(a.Ops, 1)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&g.fns, "// %s runs %s (%s).\nfunc %s(e *env) {\n%s}\n\n", fn, name, where(a.Pos), fn, body)
	return fn, nil
}

// edge is the edgeDef literal of a transition, with its guard and effect
// functions.
func (g *goGen) edge(t *model.Transition) (string, error) {
	to, toName := -1, "[*]"
	if t.To != nil {
		to, toName = g.stateIdx[t.To], t.To.Name
	}
	from := "[*]"
	if t.From != nil {
		from = t.From.Name
	}
	event := -1
	label := ""
	if t.Event != nil {
		event = g.eventIdx[t.Event.Path]
		label = " : " + t.Event.Path
	}
	f := []string{fmt.Sprintf("to: %d", to), fmt.Sprintf("event: %d", event), "owner: " + strconv.Quote(t.Owner.Path), "toName: " + strconv.Quote(toName), "pos: " + goPos(t.Pos)}
	if t.Guard != nil {
		g.nfn++
		fn := fmt.Sprintf("guard%d", g.nfn)
		x, err := g.expr(t.Guard, t.Pos)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&g.fns, "// %s is the guard of %s -> %s in %s (%s): %s\nfunc %s(e *env) Value {\n\treturn %s\n}\n\n",
			fn, from, toName, t.Owner.Path, where(t.Pos), oneLine(expr.Format(t.Guard)), fn, x)
		f = append(f, "guard: "+fn)
	}
	if len(t.Effect) > 0 {
		g.nfn++
		fn := fmt.Sprintf("effect%d", g.nfn)
		body, err := g.block(t.Effect, 1)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&g.fns, "// %s is the effect of %s -> %s in %s (%s).\nfunc %s(e *env) {\n%s}\n\n", fn, from, toName, t.Owner.Path, where(t.Pos), fn, body)
		f = append(f, "effect: "+fn)
	}
	forced := ""
	if t.Forced {
		forced = " (forced)"
	}
	return fmt.Sprintf("{%s}, // %s -> %s%s%s (%s)", strings.Join(f, ", "), from, toName, label, forced, where(t.Pos)), nil
}

// oneLine keeps a comment on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
