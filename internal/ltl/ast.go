package ltl

import (
	"strconv"
	"strings"
)

// Op is the operator of a formula node.
type Op uint8

// The operators. G, F, W, -> and <-> are kept as written for messages and
// rewritten on the way to negation normal form.
const (
	OpTrue Op = iota
	OpFalse
	OpAtom
	OpNot
	OpAnd
	OpOr
	OpImplies
	OpIff
	OpNext
	OpGlobally
	OpFinally
	OpUntil
	OpRelease
	OpWeakUntil
)

var opText = [...]string{OpAnd: "&&", OpOr: "||", OpImplies: "->", OpIff: "<->", OpNext: "X", OpGlobally: "G", OpFinally: "F", OpUntil: "U", OpRelease: "R", OpWeakUntil: "W"}

// AtomKind tells what an atom observes.
type AtomKind uint8

// The atoms.
const (
	InState   AtomKind = iota // the runtime is in state Name
	LastEvent                 // the step into this position took event Name
	Compare                   // variable Name compared with Value by Cmp
)

// Atom is a proposition about one position of a run.
type Atom struct {
	Kind  AtomKind
	Name  string
	Cmp   string // Compare: ==, !=, <, <=, >, >=
	Value int64  // Compare: booleans as 0 and 1
	Bool  bool   // Compare: the variable is boolean (Value printed as true/false)
}

// Formula is a node of a parsed formula; Pos is the byte offset of its
// operator (or atom) in the source.
type Formula struct {
	Op   Op
	L, R *Formula
	Atom *Atom
	Pos  int
}

// String prints the formula fully parenthesised, with names quoted when
// they are not plain identifiers, so that it parses back to itself.
func (f *Formula) String() string {
	var b strings.Builder
	f.write(&b)
	return b.String()
}

func (f *Formula) write(b *strings.Builder) {
	switch f.Op {
	case OpTrue:
		b.WriteString("true")
	case OpFalse:
		b.WriteString("false")
	case OpAtom:
		f.Atom.write(b)
	case OpNot:
		b.WriteString("!")
		f.L.write(b)
	case OpNext, OpGlobally, OpFinally:
		b.WriteString(opText[f.Op])
		b.WriteString(" ")
		f.L.write(b)
	default:
		b.WriteString("(")
		f.L.write(b)
		b.WriteString(" " + opText[f.Op] + " ")
		f.R.write(b)
		b.WriteString(")")
	}
}

func (a *Atom) write(b *strings.Builder) {
	switch a.Kind {
	case InState:
		b.WriteString(quoteName(a.Name))
	case LastEvent:
		b.WriteString("@" + quoteName(a.Name))
	case Compare:
		b.WriteString("(" + quoteName(a.Name) + " " + a.Cmp + " ")
		switch {
		case a.Bool && a.Value != 0:
			b.WriteString("true")
		case a.Bool:
			b.WriteString("false")
		default:
			b.WriteString(strconv.FormatInt(a.Value, 10))
		}
		b.WriteString(")")
	}
}

// quoteName leaves a plain identifier that is no keyword as it is and
// quotes anything else (JSON string syntax).
func quoteName(s string) string {
	if isPlain(s) && !keywords[s] {
		return s
	}
	return strconv.Quote(s)
}

func isPlain(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !identChar(r, i == 0) {
			return false
		}
	}
	return true
}

func identChar(r rune, first bool) bool {
	switch {
	case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		return true
	case r >= '0' && r <= '9' || r == '.':
		return !first
	}
	return false
}

var keywords = map[string]bool{"G": true, "F": true, "X": true, "U": true, "R": true, "W": true, "true": true, "false": true}

// Atoms returns the formula's distinct atoms in first-use order.
func (f *Formula) Atoms() []*Atom {
	var out []*Atom
	seen := map[Atom]bool{}
	var walk func(*Formula)
	walk = func(n *Formula) {
		if n == nil {
			return
		}
		if n.Op == OpAtom && !seen[*n.Atom] {
			seen[*n.Atom] = true
			out = append(out, n.Atom)
		}
		walk(n.L)
		walk(n.R)
	}
	walk(f)
	return out
}

// MapStates returns a copy of f with every state atom renamed by mp (a
// before/after comparison maps BEFORE's states onto AFTER's).
func (f *Formula) MapStates(mp func(string) string) *Formula {
	if f == nil {
		return nil
	}
	out := *f
	out.L, out.R = f.L.MapStates(mp), f.R.MapStates(mp)
	if f.Atom != nil && f.Atom.Kind == InState {
		a := *f.Atom
		a.Name = mp(a.Name)
		out.Atom = &a
	}
	return &out
}
