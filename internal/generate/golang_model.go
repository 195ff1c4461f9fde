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
	err := g.initCases(b, initSyntax{
		caseLine: func(i int, v *model.Variable) string { return fmt.Sprintf("\tcase %d: // %s\n", i, where(v.Pos)) },
		fail: func(v *model.Variable) string {
			return fmt.Sprintf("\t\treturn Value{}, errorAt(\"init\", %s, \"%%s\", %s)\n", goPos(v.InitErr.Pos), strconv.Quote(v.InitErr.Message))
		},
		value: func(v *model.Variable) (string, error) {
			lit, err := initLit(v, goInt, floatLit)
			return "\t\treturn " + lit + ", nil\n", err
		},
	})
	if err != nil {
		return err
	}
	b.WriteString("\t}\n\treturn Value{}, nil\n}\n\n")
	return nil
}

// goInt is the Go expression of an integer Value.
func goInt(v expr.Value) string {
	if v.IsInt64() {
		return fmt.Sprintf("IntValue(%d)", v.Int())
	}
	return fmt.Sprintf("bigLit(%q)", v.String())
}

// floatLit is a float constant, bit for bit, with its value in a comment.
func floatLit(f float64) string {
	return fmt.Sprintf("floatBits(0x%016x /* %s */)", mathBits(f), expr.RealVal(f).String())
}

// machineDef writes newMachineDef: the state tree with its transitions in
// priority order and its action slots.
func (g *goGen) machineDef(b *strings.Builder) error {
	b.WriteString("func newMachineDef() *machineDef {\n\tm := &machineDef{initial: initialValue}\n")
	b.WriteString("\tm.events = []string{\n" + each(g.events, func(e string) string { return "\t\t" + strconv.Quote(e) }, ",\n"))
	kinds := varKinds(g.m.Vars, "Int", "Float", ", ")
	b.WriteString("\t}\n\tm.varKinds = []Kind{" + strings.TrimSuffix(kinds, ", "))
	poss := each(g.m.Vars, func(v *model.Variable) string { return goPos(v.Pos) }, ", ")
	b.WriteString("}\n\tm.varPos = []pos{" + strings.TrimSuffix(poss, ", "))
	b.WriteString("}\n\tm.states = make([]stateDef, " + strconv.Itoa(len(g.states)) + ")\n")
	out, inits := g.transitionSets()
	syn := tableSyntax{
		fields: [9]string{"enter", "during", "exit", "duringBefore", "duringAfter", "aspectBefore", "aspectAfter", "out", "inits"},
		open:   "\tm.states[%[1]d].%[2]s = []%[3]s{\n",
		types:  [2]string{"actionDef", "edgeDef"},
		indent: "\t\t", close: "\t}",
	}
	en := literalEntries{g: g, w: g, lit: goLiteral()}
	for i, s := range g.states {
		parent, depth := g.parentDepth(s)
		fmt.Fprintf(b, "\n\t// %s %s (%s)\n", stateKind(s), s.Path, where(s.Pos))
		fmt.Fprintf(b, "\tm.states[%d] = stateDef{name: %s, path: %s, parent: %d, depth: %d, leaf: %t, pseudo: %t, pos: %s}\n",
			i, strconv.Quote(s.Name), strconv.Quote(s.Path), parent, depth, s.IsLeaf(), s.Pseudo, goPos(s.Pos))
		if err := stateLists(b, syn, i, s, out[i], inits[i], en.action, en.edge); err != nil {
			return err
		}
	}
	b.WriteString("\treturn m\n}\n\n")
	return nil
}

// goLiteral is how the Go target writes a table entry.
func goLiteral() *literal {
	return &literal{quote: strconv.Quote, pos: goPos, key: func(f string) string { return f + ": " },
		trueLit: "true", actionOpen: "{", edgeOpen: "{", close: "}, //"}
}

func (g *goGen) writeAction(fn, name string, a *model.Action) error {
	body, err := g.block(a.Ops, 1)
	if err != nil {
		return err
	}
	fmt.Fprintf(&g.fns, "// %s runs %s (%s).\nfunc %s(e *env) {\n%s}\n\n", fn, name, where(a.Pos), fn, body)
	return nil
}

func (g *goGen) writeGuard(fn string, t *model.Transition, e *edgeFacts) error {
	x, err := g.expr(t.Guard, t.Pos)
	if err != nil {
		return err
	}
	fmt.Fprintf(&g.fns, "// %s is the guard of %s -> %s in %s (%s): %s\nfunc %s(e *env) Value {\n\treturn %s\n}\n\n",
		fn, e.from, e.toName, t.Owner.Path, where(t.Pos), oneLine(expr.Format(t.Guard)), fn, x)
	return nil
}

func (g *goGen) writeEffect(fn string, t *model.Transition, e *edgeFacts) error {
	body, err := g.block(t.Effect, 1)
	if err != nil {
		return err
	}
	fmt.Fprintf(&g.fns, "// %s is the effect of %s -> %s in %s (%s).\nfunc %s(e *env) {\n%s}\n\n", fn, e.from, e.toName, t.Owner.Path, where(t.Pos), fn, body)
	return nil
}

// oneLine keeps a comment on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
