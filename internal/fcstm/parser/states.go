package parser

import (
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/ast"
)

func (p *parser) stateDecl(doc string) *ast.StateDecl {
	first := p.peek()
	s := &ast.StateDecl{Doc: doc, Pos: first.Span.Start}
	if p.isWord("pseudo") {
		p.next()
		s.Pseudo = true
	}
	p.expectWord("state")
	s.Name = p.name("a state name")
	if p.isWord("named") {
		p.next()
		s.Display = p.expect(expr.STRING, "a string after \"named\"").Value
	}
	if p.is(expr.SEMI) {
		p.next()
		return s
	}
	open := p.expect(expr.LBRACE, `";" or "{" after the state name`)
	p.depth++
	if p.depth > maxStateDepth {
		panic(bailout{p.errAt("E_LIMIT", open.Span.Start, "states nested more than %d deep", maxStateDepth)})
	}
	for !p.is(expr.RBRACE) {
		if it := p.stateItem(); it != nil {
			s.Items = append(s.Items, it)
		}
	}
	p.next()
	p.depth--
	return s
}

// stateItem parses one item of a state body; nil for a lone ";".
func (p *parser) stateItem() ast.Item {
	start := p.peek()
	doc, hasDoc := p.doc()
	t := p.peek()
	switch t.Kind {
	case expr.SEMI:
		if hasDoc {
			p.failAt(start.Span.Start, "a documentation block must precede a declaration, not an empty statement")
		}
		p.next()
		return nil
	case expr.EOF:
		p.unexpected(`"}" closing the state`)
	case expr.INITIAL:
		return p.transition(doc)
	case expr.NOT:
		return p.forced(doc)
	case expr.SHR:
		p.next()
		return p.action(doc, hasDoc, t, true)
	case expr.IDENT:
		switch t.Text {
		case "state", "pseudo":
			return p.stateDecl(doc)
		case "event":
			return p.eventDecl(doc)
		case "enter", "exit", "during":
			return p.action(doc, hasDoc, t, false)
		case "import":
			if hasDoc {
				p.failAt(start.Span.Start, "a documentation block cannot precede an import")
			}
			return p.importStmt()
		case "def":
			p.failAt(t.Span.Start, "variables are defined at the top of the file, before the root state")
		}
		if !IsReserved(t.Text) {
			return p.transition(doc)
		}
	}
	p.unexpected("a state, transition, event, action or import")
	return nil
}

func (p *parser) eventDecl(doc string) *ast.EventDecl {
	kw := p.next()
	e := &ast.EventDecl{Doc: doc, Pos: kw.Span.Start}
	e.Name = p.name("an event name")
	if p.isWord("named") {
		p.next()
		e.Display = p.expect(expr.STRING, "a string after \"named\"").Value
	}
	p.expect(expr.SEMI, `";" after the event declaration`)
	return e
}

// endpoint reads a transition endpoint: a state name or [*] (nil).
func (p *parser) endpoint(what string) *ast.Ident {
	if p.is(expr.INITIAL) {
		p.next()
		return nil
	}
	if !p.is(expr.IDENT) {
		p.unexpected(what + " or [*]")
	}
	id := p.name(what)
	if p.is(expr.DOT) {
		p.failAt(id.Pos, "transition endpoints are the owning state's children, not paths; target the composite (its initial transition picks the child) or put the transition inside it")
	}
	return &id
}

func (p *parser) transition(doc string) *ast.Transition {
	first := p.peek()
	tr := &ast.Transition{Doc: doc, Pos: first.Span.Start}
	if p.is(expr.INITIAL) {
		p.next()
	} else {
		tr.From = p.endpoint("a source state")
	}
	p.expect(expr.ARROW, `"->"`)
	tr.To = p.endpoint("a target state")
	if tr.From == nil && tr.To == nil {
		p.failAt(first.Span.Start, "[*] -> [*] is not a transition; an initial transition targets a child state")
	}
	tr.Trigger = p.trigger(tr.From == nil)
	switch {
	case p.isWord("effect"):
		p.next()
		tr.HasEffect = true
		tr.Effect = p.block()
	case p.is(expr.SEMI):
		p.next()
	case p.isWord("if"):
		p.failAt(p.peek().Span.Start, `a guard after an event is written "E + [cond]", not "E if [cond]"`)
	default:
		p.unexpected(`";" or "effect"`)
	}
	return tr
}

// trigger parses an optional ":" or "::" trigger. entry is true on an
// initial transition, where "::" terms may be paths.
func (p *parser) trigger(entry bool) *ast.Trigger {
	t := p.peek()
	if t.Kind != expr.COLON && t.Kind != expr.DCOLON {
		return nil
	}
	p.next()
	tg := &ast.Trigger{Local: t.Kind == expr.DCOLON, Pos: t.Span.Start}
	if !tg.Local && p.isWord("if") {
		kw := p.next()
		tg.Terms = []ast.Term{{Guard: p.guard(), Pos: kw.Span.Start}}
		if p.is(expr.ADD) {
			p.failAt(p.peek().Span.Start, `": if [cond]" is a single guard; a chain is written ": [cond] + E"`)
		}
		return tg
	}
	events := 0
	for {
		term := p.term(tg.Local && !entry)
		if term.Event != nil {
			events++
		}
		tg.Terms = append(tg.Terms, term)
		if !p.is(expr.ADD) {
			break
		}
		p.next()
	}
	if tg.Local && events == 0 {
		p.failAt(tg.Pos, `a "::" trigger needs at least one event; an all-guard chain uses ":"`)
	}
	return tg
}

// term parses one trigger term: "[cond]" or an event path. local
// restricts events to a plain name (source-local scope).
func (p *parser) term(local bool) ast.Term {
	t := p.peek()
	if t.Kind == expr.LBRACK {
		return ast.Term{Guard: p.guard(), Pos: t.Span.Start}
	}
	path := p.path("an event")
	if local && (path.Absolute || len(path.Segments) > 1) {
		p.failAt(path.Pos, `a "::" event is local to the source state and is a plain name; write ":" for the path %s`, path.String())
	}
	return ast.Term{Event: &path, Pos: path.Pos}
}

// path parses [ "/" ] ID { "." ID }.
func (p *parser) path(what string) ast.Path {
	t := p.peek()
	path := ast.Path{Pos: t.Span.Start}
	if t.Kind == expr.QUO {
		p.next()
		path.Absolute = true
	}
	path.Segments = append(path.Segments, p.name(what))
	for p.is(expr.DOT) {
		p.next()
		path.Segments = append(path.Segments, p.name(what))
	}
	return path
}

func (p *parser) forced(doc string) *ast.Forced {
	bang := p.next()
	f := &ast.Forced{Doc: doc, Pos: bang.Span.Start}
	if p.is(expr.MUL) {
		p.next()
	} else {
		id := p.name("a source state or *")
		f.From = &id
	}
	p.expect(expr.ARROW, `"->"`)
	f.To = p.endpoint("a target state")
	f.Trigger = p.trigger(f.From == nil)
	if f.Trigger != nil && len(f.Trigger.Terms) > 1 {
		p.failAt(f.Trigger.Pos, "a forced transition takes one event or one guard, not a combo")
	}
	if f.Trigger != nil && f.Trigger.Terms[0].Event == nil && f.Trigger.Local {
		p.failAt(f.Trigger.Pos, `a "::" trigger needs an event`)
	}
	if p.isWord("effect") {
		p.failAt(p.peek().Span.Start, "a forced transition has no effect; put shared side effects in the target's enter action")
	}
	p.expect(expr.SEMI, `";" after the forced transition`)
	return f
}

// action parses enter/exit/during declarations and (aspect) >> during
// aspects; kw is the first token (">>" already consumed when aspect).
func (p *parser) action(doc string, hasDoc bool, kw expr.Token, aspect bool) *ast.Action {
	a := &ast.Action{Doc: doc, Aspect: aspect, Pos: kw.Span.Start}
	if aspect {
		p.expectWord("during")
		a.Stage = ast.During
	} else {
		switch p.next().Text {
		case "enter":
			a.Stage = ast.Enter
		case "exit":
			a.Stage = ast.Exit
		default:
			a.Stage = ast.During
		}
	}
	if a.Stage == ast.During && (p.isWord("before") || p.isWord("after")) {
		a.When = p.next().Text
	} else if aspect {
		p.unexpected(`"before" or "after" after ">> during"`)
	}
	switch {
	case p.isWord("abstract"):
		p.next()
		a.Kind = ast.Abstract
		if p.is(expr.IDENT) {
			id := p.name("an action name")
			a.Name = &id
		}
		trailing, hasTrailing := p.doc()
		switch {
		case hasTrailing && hasDoc:
			p.failAt(a.Pos, "an abstract action takes one documentation block, before or after it, not both")
		case hasTrailing:
			a.Doc = trailing
		case a.Name == nil && !hasDoc:
			p.failAt(a.Pos, "an anonymous abstract action needs a name (abstract Name;) or a documentation block")
		}
		p.expect(expr.SEMI, `";" after the abstract action`)
		return a
	case p.isWord("ref"):
		p.refTail(a)
		return a
	case p.is(expr.LBRACE):
	case p.is(expr.IDENT):
		id := p.name("an action name")
		a.Name = &id
		if p.isWord("ref") {
			p.refTail(a)
			return a
		}
		if !p.is(expr.LBRACE) {
			p.unexpected(`"{" or "ref" after the action name`)
		}
	default:
		p.unexpected(`"{", "abstract", "ref" or an action name`)
	}
	a.Kind = ast.Concrete
	a.Ops = p.block()
	return a
}

func (p *parser) refTail(a *ast.Action) {
	p.next() // ref
	a.Kind = ast.Ref
	path := p.path("an action path")
	a.Ref = &path
	p.expect(expr.SEMI, `";" after the ref path`)
}
