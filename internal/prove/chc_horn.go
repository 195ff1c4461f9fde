package prove

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/z3"
)

// literal is one disjunct of a clause in clause form: term t, negated
// when !pos.
type literal struct {
	t   *z3.Term
	pos bool
}

// clauseLiterals flattens a clause body into the literals whose
// disjunction it is (pos) or whose disjunction is its negation (!pos,
// the body side: the antecedent of =>, the argument of a top-level not),
// through =>, or, not, and and on the body side. Anything else (an and
// in positive position, an ite, an equality) is one literal. A not on
// the body side is a negated body literal: with a predicate under it the
// clause is refused (it would be read as a head, which is not what the
// writer meant by a body).
func (p *chcParser) clauseLiterals(t *z3.Term, pos bool, depth int) ([]literal, error) {
	if depth > 1000 {
		return nil, fmt.Errorf("clause nested too deeply")
	}
	k := t.DeclKind()
	var parts []*z3.Term
	var signs []bool
	switch {
	case k == z3.DeclNot:
		a, err := t.Arg(0)
		if err != nil {
			return nil, err
		}
		if !pos {
			if name, has, err := p.findPred(a, 0); err != nil {
				return nil, err
			} else if has {
				return nil, fmt.Errorf("not a Horn clause: predicate %s is negated in the body; a body may only hold plain predicate applications", quoteName(name))
			}
			return []literal{{t, false}}, nil
		}
		return p.clauseLiterals(a, false, depth+1)
	case pos && k == z3.DeclOr, !pos && k == z3.DeclAnd:
		args, err := t.Args()
		if err != nil {
			return nil, err
		}
		parts = args
		for range args {
			signs = append(signs, pos)
		}
	case pos && k == z3.DeclImplies:
		args, err := t.Args()
		if err != nil {
			return nil, err
		}
		parts, signs = args, []bool{false, true}
	default:
		return []literal{{t, pos}}, nil
	}
	var out []literal
	for i, a := range parts {
		sub, err := p.clauseLiterals(a, signs[i], depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, sub...)
	}
	return out, nil
}

// hornParts sorts a clause's literals into the predicate applications of
// its body (negative literals), of its head (positive literals) and the
// constraint conjuncts of its body, refusing a clause that is not Horn:
// two predicates in the head, or a predicate anywhere but as a literal of
// its own (under a negation in the body, inside a constraint, as an
// argument).
func (p *chcParser) hornParts(lits []literal) (body []predApp, head *predApp, cons []*z3.Term, err error) {
	var heads []predApp
	for _, l := range lits {
		pa, isPred, err := p.pred(l.t)
		if err != nil {
			return nil, nil, nil, err
		}
		if isPred {
			for _, a := range pa.args {
				if name, has, err := p.findPred(a, 0); err != nil {
					return nil, nil, nil, err
				} else if has {
					return nil, nil, nil, fmt.Errorf("not a Horn clause: predicate %s appears as an argument of %s", quoteName(name), quoteName(pa.name))
				}
			}
			if l.pos {
				heads = append(heads, pa)
			} else {
				body = append(body, pa)
			}
			continue
		}
		if name, has, err := p.findPred(l.t, 0); err != nil {
			return nil, nil, nil, err
		} else if has {
			return nil, nil, nil, fmt.Errorf("not a Horn clause: predicate %s appears inside a constraint (under or, ite, =, ...) or negated in the body; only plain predicate applications may occur in a body, and at most one in the head", quoteName(name))
		}
		if l.pos {
			if l.t.IsFalse() {
				continue
			}
			neg, err := p.ctx.Not(l.t)
			if err != nil {
				return nil, nil, nil, err
			}
			cons = append(cons, neg)
		} else {
			cons = append(cons, l.t)
		}
	}
	if len(heads) > 1 {
		return nil, nil, nil, fmt.Errorf("not a Horn clause: %d predicate applications in the head (%s, %s), a disjunction of predicates; a Horn clause has at most one", len(heads), quoteName(heads[0].name), quoteName(heads[1].name))
	}
	if len(heads) == 1 {
		head = &heads[0]
	}
	return body, head, cons, nil
}

// findPred reports the first predicate application inside t, quantified
// subterms included.
func (p *chcParser) findPred(t *z3.Term, depth int) (string, bool, error) {
	if depth > 1000 {
		return "", false, fmt.Errorf("term nested too deeply")
	}
	switch t.Kind() {
	case z3.KindQuantifier:
		q, err := t.Quantifier()
		if err != nil {
			return "", false, err
		}
		return p.findPred(q.Body, depth+1)
	case z3.KindApp:
	default:
		return "", false, nil
	}
	if pa, ok, err := p.pred(t); err != nil || ok {
		return pa.name, ok, err
	}
	args, err := t.Args()
	if err != nil {
		return "", false, err
	}
	for _, a := range args {
		if name, ok, err := p.findPred(a, depth+1); err != nil || ok {
			return name, ok, err
		}
	}
	return "", false, nil
}

// quoteName quotes a user's predicate name for a message.
func quoteName(s string) string { return fmt.Sprintf("%q", s) }

// conjuncts flattens nested conjunctions into their conjuncts.
func conjuncts(t *z3.Term) ([]*z3.Term, error) {
	if t.DeclKind() != z3.DeclAnd {
		return []*z3.Term{t}, nil
	}
	args, err := t.Args()
	if err != nil {
		return nil, err
	}
	var out []*z3.Term
	for _, a := range args {
		sub, err := conjuncts(a)
		if err != nil {
			return nil, err
		}
		out = append(out, sub...)
	}
	return out, nil
}
