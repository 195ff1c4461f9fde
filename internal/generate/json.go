package generate

import (
	_ "embed"
	"fmt"
	"math/big"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// The step of a JSON model in Go; values and the driver are the FCSTM
// target's.
//
//go:embed tmpl/json_engine.go.txt
var goJSONEngineSrc string

// JSONTargets lists the targets that run JSON models.
func JSONTargets() []string { return []string{"c", "go", "python", "typescript"} }

// GenerateJSON writes the code of the JSON model m, read from file, for
// target, one of JSONTargets. It returns the files, sorted by path.
func GenerateJSON(m *jsonmodel.Model, file, target string, opts Options) ([]File, error) {
	if opts.Name == "" {
		opts.Name = path.Base(file)
	}
	opts.Name = packageName(opts.Name)
	if opts.ModelName == "" {
		opts.ModelName = file
	}
	var files []File
	switch target {
	case "python":
		files = pythonJSON(m, file, opts)
	case "c":
		files = cJSON(m, file, opts)
	case "typescript":
		files = tsJSON(m, file, opts)
	}
	if files != nil {
		sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
		return files, nil
	}
	if target != "go" {
		return nil, fmt.Errorf("unknown target %q (targets: %s)", target, strings.Join(JSONTargets(), ", "))
	}
	src, err := goJSONModel(m, file, opts)
	if err != nil {
		return nil, err
	}
	files = []File{{Path: opts.Name + ".go", Data: src}, {Path: "README.md", Data: goJSONReadme(m, file, opts)}}
	for _, t := range []struct{ name, src string }{{"value.go", goValueSrc}, {"engine.go", goJSONEngineSrc}} {
		data, err := gofmt(t.name, []byte(rename(t.src, opts.Name)))
		if err != nil {
			return nil, err
		}
		files = append(files, File{Path: t.name, Data: data})
	}
	if opts.Driver {
		drv, err := goDriverFiles(opts)
		if err != nil {
			return nil, err
		}
		files = append(files, drv...)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// jsonLowered is a JSON model numbered as every target's tables refer
// to it: states in model order, events in the runtime's order (the
// sorted alphabet), variables in declaration order.
type jsonLowered struct {
	m                          *jsonmodel.Model
	events                     []string
	stateIdx, varIdx, eventIdx map[string]int
}

func lowerJSON(m *jsonmodel.Model) *jsonLowered {
	l := &jsonLowered{m: m, events: m.Alphabet(), stateIdx: m.StateIndex(), varIdx: map[string]int{}, eventIdx: map[string]int{}}
	for i, v := range m.Variables {
		l.varIdx[v.Name] = i
	}
	for i, e := range l.events {
		l.eventIdx[e] = i
	}
	return l
}

// jsonNet is the net effect of a transition's updates on one variable:
// the value of its last "set" (or, without one, its own value) plus the
// increments and decrements after it. No guard runs between two updates,
// so the values in between are never observed.
type jsonNet struct {
	v     int // the variable's index
	set   bool
	value *big.Int // set: the final value
	delta *big.Int // not set: what is added to the variable
}

// net is the net effect of t's updates, variable by variable in the order
// the updates first name them.
func (l *jsonLowered) net(t jsonmodel.Transition) []jsonNet {
	var out []jsonNet
	at := map[int]int{}
	for _, u := range t.Updates {
		i := l.varIdx[u.Variable]
		k, ok := at[i]
		if !ok {
			k = len(out)
			at[i] = k
			out = append(out, jsonNet{v: i, delta: new(big.Int)})
		}
		n := &out[k]
		switch {
		case u.Op == "set":
			n.set, n.value = true, big.NewInt(u.Value)
		case n.set && u.Op == "inc":
			n.value.Add(n.value, big.NewInt(u.Value))
		case n.set:
			n.value.Sub(n.value, big.NewInt(u.Value))
		case u.Op == "inc":
			n.delta.Add(n.delta, big.NewInt(u.Value))
		default:
			n.delta.Sub(n.delta, big.NewInt(u.Value))
		}
	}
	return out
}

// updateText is an update as a comment shows it.
func updateText(m *jsonmodel.Model, u jsonmodel.Update) string {
	switch u.Op {
	case "inc":
		return fmt.Sprintf("%s += %d", u.Variable, u.Value)
	case "dec":
		return fmt.Sprintf("%s -= %d", u.Variable, u.Value)
	}
	return u.Variable + " = " + literalText(m.VariableByName(u.Variable).Kind, u.Value)
}

// goJSONIDs are the exported identifiers of a JSON model's states,
// events and variables.
type goJSONIDs struct {
	state, event, vars []string
}

func newGoJSONIDs(m *jsonmodel.Model) goJSONIDs {
	ids := idents{}
	var g goJSONIDs
	for _, s := range m.States {
		g.state = append(g.state, ids.make("State", s.ID))
	}
	for _, e := range m.Alphabet() {
		g.event = append(g.event, ids.make("Event", e))
	}
	for _, v := range m.Variables {
		g.vars = append(g.vars, ids.make("Var", v.Name))
	}
	return g
}

// goJSONModel writes the model file: the states, events and variables by
// name, and one function per guard and per update list, each commented
// with the model's JSON path and what it computes.
func goJSONModel(m *jsonmodel.Model, file string, opts Options) ([]byte, error) {
	ids := newGoJSONIDs(m)
	l := lowerJSON(m)
	stateIdx, varIdx, events, eventIdx := l.stateIdx, l.varIdx, l.events, l.eventIdx
	var b, fns strings.Builder
	fmt.Fprintf(&b, "// Code generated by stateproof generate. DO NOT EDIT.\n\n// Package %s runs the JSON model %s, event by event as stateproof's\n// runtime steps it (docs/generate.md in stateproof).\npackage %s\n\n", opts.Name, path.Base(file), opts.Name)
	fmt.Fprintf(&b, "// ModelFile is the model this package was generated from.\nconst ModelFile = %s\n\n", strconv.Quote(file))
	b.WriteString("// The states, by id.\nconst (\n")
	for i, s := range m.States {
		fmt.Fprintf(&b, "\t%s = %s // $.states[%d]\n", ids.state[i], strconv.Quote(s.ID), i)
	}
	b.WriteString(")\n\n// The events: the model's alphabet, sorted as the runtime sorts it.\nconst (\n")
	for i, e := range events {
		fmt.Fprintf(&b, "\t%s = %s\n", ids.event[i], strconv.Quote(e))
	}
	b.WriteString(")\n\nvar varNames = []string{")
	for i, v := range m.Variables {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(v.Name))
	}
	b.WriteString("}\n\n")
	for i, v := range m.Variables {
		fmt.Fprintf(&b, "// %s returns the variable %s (%s, $.variables[%d]).\nfunc (r *Machine) %s() Value { return r.vars[%d] }\n\n", ids.vars[i], strconv.Quote(v.Name), v.Kind, i, ids.vars[i], i)
	}
	b.WriteString("func newMachineDef() *machineDef {\n\treturn &machineDef{\n\t\tstateIDs: []string{")
	for i := range m.States {
		fmt.Fprintf(&b, "%s, ", ids.state[i])
	}
	b.WriteString("},\n\t\tstates: []stateDef{\n")
	for i, s := range m.States {
		fmt.Fprintf(&b, "\t\t\t{terminal: %t, onEntry: %s, onExit: %s}, // $.states[%d] %s\n", s.Terminal, goStrings(s.OnEntry), goStrings(s.OnExit), i, cmt(s.ID))
	}
	b.WriteString("\t\t},\n\t\tevents: []string{")
	for i := range events {
		fmt.Fprintf(&b, "%s, ", ids.event[i])
	}
	b.WriteString("},\n\t\tboolean: []bool{")
	for _, v := range m.Variables {
		fmt.Fprintf(&b, "%t, ", v.Kind == jsonmodel.Boolean)
	}
	fmt.Fprintf(&b, "},\n\t\tinit: %d, // $.init: %s\n\t\tinitial: []Value{", stateIdx[m.Init], cmt(m.Init))
	for _, v := range m.Variables {
		b.WriteString(goJSONValue(v.Kind, v.Init) + ", ")
	}
	b.WriteString("},\n\t\ttransitions: []transitionDef{\n")
	for _, t := range m.Transitions {
		guard, update := "nil", "nil"
		if t.Guard != nil {
			guard = fmt.Sprintf("guard%d", t.Index)
			fmt.Fprintf(&fns, "// guard%d is $.transitions[%d].guard: %s\nfunc guard%d(v []Value) bool { return %s }\n\n",
				t.Index, t.Index, guardText(t.Guard), t.Index, goGuard(t.Guard, varIdx))
		}
		if len(t.Updates) > 0 {
			update = fmt.Sprintf("update%d", t.Index)
			goUpdates(&fns, m, t, varIdx)
		}
		fmt.Fprintf(&b, "\t\t\t{from: %d, event: %d, to: %d, guard: %s, update: %s}, // $.transitions[%d]: %s --%s--> %s\n",
			stateIdx[t.From], eventIdx[t.Event], stateIdx[t.To], guard, update, t.Index, cmt(t.From), cmt(t.Event), cmt(t.To))
	}
	b.WriteString("\t\t},\n\t}\n}\n\n")
	b.WriteString(fns.String())
	return gofmt(opts.Name+".go", []byte(b.String()))
}

// goUpdates writes the function applying a transition's updates, in
// order, to a copy of the variables.
func goUpdates(b *strings.Builder, m *jsonmodel.Model, t jsonmodel.Transition, varIdx map[string]int) {
	fmt.Fprintf(b, "// update%d applies $.transitions[%d].updates.\nfunc update%d(v []Value) {\n", t.Index, t.Index, t.Index)
	for k, u := range t.Updates {
		i := varIdx[u.Variable]
		switch u.Op {
		case "set":
			fmt.Fprintf(b, "\tv[%d] = %s // [%d]: %s = %s\n", i, goJSONValue(m.Variables[i].Kind, u.Value), k, cmt(u.Variable), literalText(m.Variables[i].Kind, u.Value))
		case "inc":
			fmt.Fprintf(b, "\tv[%d] = addInt(v[%d], %d) // [%d]: %s += %d\n", i, i, u.Value, k, cmt(u.Variable), u.Value)
		default: // dec; |u.Value| ≤ 2^53−1, so the negation is exact
			fmt.Fprintf(b, "\tv[%d] = addInt(v[%d], %d) // [%d]: %s -= %d\n", i, i, -u.Value, k, cmt(u.Variable), u.Value)
		}
	}
	b.WriteString("}\n\n")
}

func goJSONValue(kind jsonmodel.VarKind, x int64) string {
	if kind == jsonmodel.Boolean {
		return fmt.Sprintf("BoolValue(%t)", x != 0)
	}
	return fmt.Sprintf("IntValue(%d)", x)
}

func literalText(kind jsonmodel.VarKind, x int64) string {
	if kind == jsonmodel.Boolean {
		return strconv.FormatBool(x != 0)
	}
	return strconv.FormatInt(x, 10)
}

// goGuard is a guard as a Go expression over the variables v.
func goGuard(g *jsonmodel.Guard, varIdx map[string]int) string {
	return cLikeGuard(func(g *jsonmodel.Guard) string {
		return fmt.Sprintf("cmpLit(v[%d], %d) %s 0", varIdx[g.Variable], g.Value, g.Op)
	}, "true", "false").guard(g)
}

// guardText is a guard as a comment shows it.
func guardText(g *jsonmodel.Guard) string {
	syn := guardSyntax{
		leaf: func(g *jsonmodel.Guard) string { return fmt.Sprintf("%s %s %d", cmt(g.Variable), g.Op, g.Value) },
		all:  [4]string{"all()", "all(", ", ", ")"},
		any:  [4]string{"any()", "any(", ", ", ")"},
		not:  func(x string) string { return "not(" + x + ")" },
	}
	return syn.guard(g)
}

// guardSyntax is how a target writes a JSON model's guard: a comparison;
// "all" and "any", each as its text without operands, then the opening,
// separator and closing around them; and "not". guard walks the guard
// for every target and for the comments.
type guardSyntax struct {
	leaf     func(g *jsonmodel.Guard) string
	all, any [4]string
	not      func(x string) string
}

func (s *guardSyntax) guard(g *jsonmodel.Guard) string {
	var parts []string
	for _, c := range g.Children {
		parts = append(parts, s.guard(c))
	}
	join := func(j [4]string) string {
		if len(parts) == 0 {
			return j[0]
		}
		return j[1] + strings.Join(parts, j[2]) + j[3]
	}
	switch g.Kind {
	case jsonmodel.GuardLeaf:
		return s.leaf(g)
	case jsonmodel.GuardAll:
		return join(s.all)
	case jsonmodel.GuardAny:
		return join(s.any)
	}
	return s.not(parts[0])
}

// cLikeGuard is the guard syntax of C, Go and TypeScript: &&, || and !,
// with the given comparison and truth values.
func cLikeGuard(leaf func(*jsonmodel.Guard) string, t, f string) *guardSyntax {
	return &guardSyntax{leaf: leaf, all: [4]string{t, "(", " && ", ")"}, any: [4]string{f, "(", " || ", ")"},
		not: func(x string) string { return "!(" + x + ")" }}
}

func goStrings(list []string) string {
	if len(list) == 0 {
		return "nil"
	}
	var q []string
	for _, s := range list {
		q = append(q, strconv.Quote(s))
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

// cmt is a model name as a comment shows it: as written when it is plain
// text, else quoted, so that no name can end or break the comment.
func cmt(s string) string {
	for _, r := range s {
		if r < ' ' || r == 0x7f || r == 0x2028 || r == 0x2029 || r == '\\' {
			return strconv.Quote(s)
		}
	}
	if s == "" || strings.Contains(s, "*/") {
		return strconv.Quote(s)
	}
	return s
}
