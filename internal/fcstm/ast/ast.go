package ast

import "github.com/stateproof/stateproof/internal/expr"

// Pos is a position in one source file (1-based line and column, columns
// in runes, plus the byte offset); it is expr.Pos, so expression spans and
// declaration positions compare directly.
type Pos = expr.Pos

// File is one parsed FCSTM file.
type File struct {
	Path string // the file name as given to the parser
	Src  string // the source text (for caret rendering of later errors)
	Vars []*VarDef
	Root *StateDecl
}

// Ident is a name with its position.
type Ident struct {
	Name string
	Pos  Pos
}

// VarDef is `def int x = 0;`.
type VarDef struct {
	Doc   string
	Float bool // declared float (otherwise int)
	Name  Ident
	Init  expr.Expr
	Pos   Pos
}

// Item is anything a state body may hold: *StateDecl, *Transition,
// *Forced, *Action, *EventDecl or *Import.
type Item interface{ item() }

// StateDecl is `[pseudo] state Name [named "…"] ( ; | { items } )`.
type StateDecl struct {
	Doc     string
	Pseudo  bool
	Name    Ident
	Display string
	Items   []Item
	Pos     Pos // of "pseudo" or "state"
}

// EventDecl is `event Name [named "…"];`.
type EventDecl struct {
	Doc     string
	Name    Ident
	Display string
	Pos     Pos
}

// Path is a dotted name with an optional leading "/" (absolute): an event
// reference, a ref target, an import event mapping.
type Path struct {
	Absolute bool
	Segments []Ident
	Pos      Pos
}

// String renders the path as written.
func (p Path) String() string {
	s := ""
	if p.Absolute {
		s = "/"
	}
	for i, seg := range p.Segments {
		if i > 0 {
			s += "."
		}
		s += seg.Name
	}
	return s
}

// Term is one term of a trigger: an event (Event != nil) or a guard.
type Term struct {
	Event *Path
	Guard expr.Expr
	Pos   Pos
}

// Trigger is what follows ":" or "::" on a transition. Local is true for
// "::" (source-local event scope). A single guard term comes from
// ": if [g]" or ": [g]".
type Trigger struct {
	Local bool
	Terms []Term
	Pos   Pos
}

// Transition is `From -> To [trigger] (| effect { ops })`. From nil is
// the initial marker [*]; To nil is the exit marker [*].
type Transition struct {
	Doc       string
	From, To  *Ident
	Trigger   *Trigger // nil when absent
	HasEffect bool
	Effect    []Stmt
	Pos       Pos
}

// Forced is `!From -> To [trigger];`; From nil is `!*`, To nil is [*].
type Forced struct {
	Doc      string
	From, To *Ident
	Trigger  *Trigger
	Pos      Pos
}

// Stage says when an action runs.
type Stage uint8

// Stages as written.
const (
	Enter Stage = iota + 1
	During
	Exit
)

// Kind is the shape of an action.
type Kind uint8

// Action shapes.
const (
	Concrete Kind = iota + 1 // { ops }
	Abstract                 // abstract [Name];
	Ref                      // ref Path;
)

// Action is an enter/during/exit action or a >> during aspect.
type Action struct {
	Doc    string
	Stage  Stage
	Aspect bool   // written with ">>"
	When   string // "before", "after" or "" (during only)
	Name   *Ident // nil when anonymous
	Kind   Kind
	Ops    []Stmt // Concrete
	Ref    *Path  // Ref
	Pos    Pos
}

// Import is `import "file" as Alias [named "…"] ( ; | { mappings } )`.
type Import struct {
	File    string
	FilePos Pos
	Alias   Ident
	Display string
	Defs    []DefMap
	Events  []EventMap
	Pos     Pos
}

// SelectorKind is the form of a def mapping's selector.
type SelectorKind uint8

// Selector forms.
const (
	SelectAll     SelectorKind = iota + 1 // *
	SelectSet                             // {a, b}
	SelectPattern                         // sensor_*
	SelectExact                           // name
)

// DefMap is `def selector -> target;` inside an import block. Target is a
// name, a template with $1 / ${1} captures, or "*" (keep the name).
type DefMap struct {
	Kind    SelectorKind
	Names   []string // SelectSet; SelectExact has one; SelectPattern holds the pattern
	Target  string
	Pos     Pos
	TargPos Pos
}

// EventMap is `event From -> To [named "…"];` inside an import block.
type EventMap struct {
	From, To Path
	Display  string
	Pos      Pos
}

// Stmt is an operation statement: *Assign or *If.
type Stmt interface{ stmt() }

// Assign is `name = value;`.
type Assign struct {
	Name  Ident
	Value expr.Expr
	Pos   Pos
}

// If is `if [c] { … } else if [c] { … } else { … }`; Else is nil when
// there is no else branch (HasElse says whether one was written, empty or
// not).
type If struct {
	Branches []Branch
	HasElse  bool
	Else     []Stmt
	Pos      Pos
}

// Branch is one guarded branch of an If.
type Branch struct {
	Cond expr.Expr
	Body []Stmt
}

func (*StateDecl) item()  {}
func (*EventDecl) item()  {}
func (*Transition) item() {}
func (*Forced) item()     {}
func (*Action) item()     {}
func (*Import) item()     {}
func (*Assign) stmt()     {}
func (*If) stmt()         {}
