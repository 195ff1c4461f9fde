package lsp

import (
	"path/filepath"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/parser"
	"github.com/stateproof/stateproof/internal/lineend"
)

// kind is what a name in a source file refers to.
type kind uint8

const (
	kState kind = iota + 1
	kEvent
	kVar
	kAction
	kImport // an import's file string: the key is the imported file's path
)

func (k kind) String() string {
	return [...]string{"", "state", "event", "variable", "action", "import"}[k]
}

// occurrence is one written name: the key is the name's full meaning in
// its file (a state, event or action path from the file's root, root
// included; a variable's name; an imported file's path), the range is the
// one segment written there, so that a rename edits exactly that text.
type occurrence struct {
	kind       kind
	key        string
	start, end int // byte offsets
	decl       bool
}

// index is what navigation knows about one FCSTM file: its syntax tree
// and every name written in it. It is built from the syntax tree alone,
// so that a file whose construction fails still navigates.
type index struct {
	path    string
	text    *text
	file    *ast.File
	occs    []occurrence
	states  map[string]*ast.StateDecl
	spans   map[*ast.StateDecl][2]int // byte range of each state declaration
	parents map[string]string         // state path -> parent path
	events  map[string]*ast.EventDecl
	vars    map[string]*ast.VarDef
	actions map[string]*ast.Action
	mounts  map[string]*ast.Import // state path of an import alias -> the import
	refs    []pendingRef
}

type pendingRef struct {
	state string
	path  *ast.Path
}

// buildIndex parses src; the index of a file that does not parse is nil.
func buildIndex(path string, t *text) *index {
	f, err := parser.Parse(path, t.src)
	if err != nil || f.Root == nil {
		return nil
	}
	ix := &index{
		path: path, text: t, file: f,
		states: map[string]*ast.StateDecl{}, spans: map[*ast.StateDecl][2]int{}, parents: map[string]string{},
		events: map[string]*ast.EventDecl{}, vars: map[string]*ast.VarDef{},
		actions: map[string]*ast.Action{}, mounts: map[string]*ast.Import{},
	}
	for _, v := range f.Vars {
		ix.vars[v.Name.Name] = v
		ix.add(kVar, v.Name.Name, v.Name, true)
	}
	ix.state(f.Root, "")
	for _, r := range ix.refs {
		ix.resolveRef(r)
	}
	ix.refs = nil
	return ix
}

func (ix *index) add(k kind, key string, id ast.Ident, decl bool) {
	if id.Name == "" || !id.Pos.IsValid() {
		return
	}
	ix.occs = append(ix.occs, occurrence{kind: k, key: key, start: id.Pos.Offset, end: id.Pos.Offset + len(id.Name), decl: decl})
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

func (ix *index) rootName() string { return ix.file.Root.Name.Name }

func (ix *index) state(s *ast.StateDecl, parent string) {
	p := join(parent, s.Name.Name)
	if _, dup := ix.states[p]; !dup {
		ix.states[p] = s
		ix.parents[p] = parent
	}
	ix.spans[s] = [2]int{s.Pos.Offset, blockEnd(ix.text.src, s.Name.Pos.Offset)}
	ix.add(kState, p, s.Name, true)
	for _, it := range s.Items {
		switch it := it.(type) {
		case *ast.StateDecl:
			ix.state(it, p)
		case *ast.EventDecl:
			key := join(p, it.Name.Name)
			if _, dup := ix.events[key]; !dup {
				ix.events[key] = it
			}
			ix.add(kEvent, key, it.Name, true)
		case *ast.Transition:
			ix.endpoints(p, it.From, it.To)
			ix.trigger(p, it.From, it.Trigger)
			ix.stmts(it.Effect)
		case *ast.Forced:
			ix.endpoints(p, it.From, it.To)
			ix.trigger(p, it.From, it.Trigger)
		case *ast.Action:
			ix.action(p, it)
		case *ast.Import:
			ix.importDecl(p, it)
		}
	}
}

func (ix *index) endpoints(owner string, ids ...*ast.Ident) {
	for _, id := range ids {
		if id != nil {
			ix.add(kState, join(owner, id.Name), *id, false)
		}
	}
}

// trigger records the events of a trigger with the scope rules of
// docs/fcstm.md ("Triggers and event scopes") and the variables of its
// guards.
func (ix *index) trigger(owner string, from *ast.Ident, tr *ast.Trigger) {
	if tr == nil {
		return
	}
	for _, term := range tr.Terms {
		if term.Guard != nil {
			ix.expr(term.Guard)
		}
		if term.Event == nil {
			continue
		}
		base := owner
		switch {
		case tr.Local && from != nil:
			base = join(owner, from.Name)
		case term.Event.Absolute:
			base = ix.rootName()
		}
		ix.segPath(base, term.Event, kEvent)
	}
}

// segPath records a dotted path from base: every segment but the last is a
// state, the last one is of kind last. It returns the full key.
func (ix *index) segPath(base string, p *ast.Path, last kind) string {
	key := base
	for i, seg := range p.Segments {
		key = join(key, seg.Name)
		k := kState
		if i == len(p.Segments)-1 {
			k = last
		}
		ix.add(k, key, seg, false)
	}
	return key
}

func (ix *index) action(state string, a *ast.Action) {
	if a.Name != nil {
		key := join(state, a.Name.Name)
		if _, dup := ix.actions[key]; !dup {
			ix.actions[key] = a
		}
		ix.add(kAction, key, *a.Name, true)
	}
	ix.stmts(a.Ops)
	if a.Kind == ast.Ref && a.Ref != nil {
		ix.refs = append(ix.refs, pendingRef{state, a.Ref})
	}
}

// resolveRef looks a ref's path up as construction does: absolute from
// the root; relative from the declaring state, then from its parent.
func (ix *index) resolveRef(r pendingRef) {
	if r.path.Absolute {
		ix.segPath(ix.rootName(), r.path, kAction)
		return
	}
	rel := r.path.String()
	base := r.state
	for s := r.state; s != ""; s = ix.parents[s] {
		if _, ok := ix.actions[join(s, rel)]; ok {
			base = s
			break
		}
	}
	ix.segPath(base, r.path, kAction)
}

func (ix *index) importDecl(state string, imp *ast.Import) {
	file := filepath.Join(filepath.Dir(ix.path), imp.File)
	if imp.FilePos.IsValid() {
		ix.occs = append(ix.occs, occurrence{kind: kImport, key: file, start: imp.FilePos.Offset, end: stringEnd(ix.text.src, imp.FilePos.Offset)})
	}
	alias := join(state, imp.Alias.Name)
	ix.mounts[alias] = imp
	ix.add(kState, alias, imp.Alias, true)
	for i := range imp.Events {
		// The unit side of a mapping is a path from the unit's root
		// (absolute or not), which the alias mounts here.
		ix.segPath(alias, &imp.Events[i].From, kEvent)
		to := &imp.Events[i].To
		base := state
		if to.Absolute {
			base = ix.rootName()
		}
		ix.segPath(base, to, kEvent)
	}
}

func (ix *index) stmts(list []ast.Stmt) {
	for _, s := range list {
		switch s := s.(type) {
		case *ast.Assign:
			if _, ok := ix.vars[s.Name.Name]; ok {
				ix.add(kVar, s.Name.Name, s.Name, false)
			}
			ix.expr(s.Value)
		case *ast.If:
			for _, b := range s.Branches {
				ix.expr(b.Cond)
				ix.stmts(b.Body)
			}
			ix.stmts(s.Else)
		}
	}
}

func (ix *index) expr(e expr.Expr) {
	expr.Inspect(e, func(x expr.Expr) bool {
		if id, ok := x.(*expr.Ident); ok {
			if _, known := ix.vars[id.Name]; known && id.Loc.Start.IsValid() {
				ix.occs = append(ix.occs, occurrence{kind: kVar, key: id.Name, start: id.Loc.Start.Offset, end: id.Loc.Start.Offset + len(id.Name)})
			}
		}
		return true
	})
}

// at returns the occurrence under byte offset off.
func (ix *index) at(off int) (occurrence, bool) {
	for _, o := range ix.occs {
		if o.start <= off && off <= o.end {
			return o, true
		}
	}
	return occurrence{}, false
}

// declOf returns the declaring occurrence of key: the declaration, or
// for an event never declared its first use (which creates it).
func (ix *index) declOf(k kind, key string) (occurrence, bool) {
	var first *occurrence
	for i, o := range ix.occs {
		if o.kind != k || o.key != key {
			continue
		}
		if o.decl {
			return o, true
		}
		if first == nil {
			first = &ix.occs[i]
		}
	}
	if first != nil && k == kEvent {
		return *first, true
	}
	return occurrence{}, false
}

// mountOf splits a key under an import alias into the import and the key
// in the imported file (its root name in place of the alias path).
func (ix *index) mountOf(key string) (*ast.Import, string, bool) {
	for alias, imp := range ix.mounts {
		if key == alias || strings.HasPrefix(key, alias+".") {
			return imp, strings.TrimPrefix(key, alias), true
		}
	}
	return nil, "", false
}

// stateAt returns the path of the innermost state declaration around
// byte offset off ("" outside the root).
func (ix *index) stateAt(off int) string {
	best, bestLen := "", -1
	for p, s := range ix.states {
		sp := ix.spans[s]
		if sp[0] <= off && off <= sp[1] && (bestLen < 0 || sp[1]-sp[0] < bestLen) {
			best, bestLen = p, sp[1]-sp[0]
		}
	}
	return best
}

// blockEnd returns the offset just after the state declaration whose name
// is at off: after its matching "}" or its ";". Strings, comments and
// documentation blocks are skipped, so braces inside them do not count.
func blockEnd(src string, off int) int {
	depth := 0
	for i := off; i < len(src); i++ {
		switch c := src[i]; c {
		case '"', '\'':
			i = stringEnd(src, i) - 1
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				i = lineend.LineEnd(src, i)
			} else if i+1 < len(src) && src[i+1] == '*' {
				if j := strings.Index(src[i+2:], "*/"); j >= 0 {
					i += j + 3
				} else {
					return len(src)
				}
			}
		case '#':
			i = lineend.LineEnd(src, i)
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case ';':
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(src)
}

// stringEnd returns the offset after the quoted string starting at off.
func stringEnd(src string, off int) int {
	if off >= len(src) {
		return off
	}
	q := src[off]
	for i := off + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case q:
			return i + 1
		case '\n', '\r':
			return i
		}
	}
	return len(src)
}

// imports returns every import statement of the tree, in source order.
func imports(s *ast.StateDecl) []*ast.Import {
	var out []*ast.Import
	for _, it := range s.Items {
		switch it := it.(type) {
		case *ast.Import:
			out = append(out, it)
		case *ast.StateDecl:
			out = append(out, imports(it)...)
		}
	}
	return out
}
