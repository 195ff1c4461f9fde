package parser

import (
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/ast"
)

// block parses "{ ops }".
func (p *parser) block() []ast.Stmt {
	p.expect(expr.LBRACE, `"{" opening the operation block`)
	var out []ast.Stmt
	for !p.is(expr.RBRACE) {
		if s := p.stmt(); s != nil {
			out = append(out, s)
		}
	}
	p.next()
	return out
}

// stmt parses one operation statement; nil for a lone ";".
func (p *parser) stmt() ast.Stmt {
	t := p.peek()
	switch {
	case t.Kind == expr.SEMI:
		p.next()
		return nil
	case t.Kind == expr.IDENT && t.Text == "if":
		return p.ifStmt()
	case t.Kind == expr.IDENT:
		id := p.name("a variable name")
		if p.is(expr.DEFINE) {
			p.failAt(p.peek().Span.Start, `assignments in operation blocks are written "=", not ":="`)
		}
		p.expect(expr.ASSIGN, `"=" in the assignment`)
		a := &ast.Assign{Name: id, Pos: t.Span.Start}
		a.Value = p.expression()
		p.expect(expr.SEMI, `";" after the assignment`)
		return a
	case t.Kind == expr.EOF:
		p.unexpected(`"}" closing the operation block`)
	}
	p.unexpected(`an assignment, "if" or "}"`)
	return nil
}

func (p *parser) ifStmt() *ast.If {
	kw := p.next()
	p.ifDepth++
	if p.ifDepth > maxIfDepth {
		panic(bailout{p.errAt("E_LIMIT", kw.Span.Start, "if blocks nested more than %d deep", maxIfDepth)})
	}
	s := &ast.If{Pos: kw.Span.Start}
	cond := p.guard()
	s.Branches = append(s.Branches, ast.Branch{Cond: cond, Body: p.block()})
	for p.isWord("else") {
		p.next()
		if p.isWord("if") {
			p.next()
			cond := p.guard()
			s.Branches = append(s.Branches, ast.Branch{Cond: cond, Body: p.block()})
			continue
		}
		s.HasElse = true
		s.Else = p.block()
		break
	}
	p.ifDepth--
	return s
}
