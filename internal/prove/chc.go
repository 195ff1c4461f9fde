package prove

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// Clause is a linear constrained Horn clause
//
//	∀ Names. From(Pre) ∧ Constraint → head(Post)
//
// whose terms are over de Bruijn variables of the bound Names (index
// len(Names)-1-i is Names[i]). From is -1 for a fact; the head is the
// edge's or start's node (the graph's ErrorNode for a `false` head).
type Clause struct {
	Label      string
	Names      []string
	Sorts      []sts.Sort
	Constraint *z3.Term
	From       int
	Pre, Post  []*z3.Term
}

// errorNodeName is the node that `false` heads enter; its RSC is false.
const errorNodeName = "false"

// predApp is one predicate application inside a clause.
type predApp struct {
	name string
	args []*z3.Term
}

// ParseCHC reads a linear CHC problem in SMT-LIB2 (Z3's parser) into a
// graph: one node per predicate (variables x0, x1, ... per argument), one
// start per fact, one edge per rule, and queries as edges into the error
// node `false`. Every clause must be Horn once =>, not and or are read
// as a disjunction of literals (see hornParts): a clause that is not is
// refused with its number, since any answer would be to another problem.
// A clause with two or more predicates in its body is refused too: the
// triple rule and the node graph need linear clauses.
func ParseCHC(ctx *z3.Context, name, src string) (*Graph, error) {
	// The clauses' terms get the same IDs on every run (see attempt.hold).
	defer ctx.Hold()()
	fs, err := ctx.ParseSMTLIB2String(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	p := &chcParser{ctx: ctx, g: &Graph{Name: name, Ctx: ctx, Clauses: fs, ErrorNode: -1}, nodes: map[string]int{}}
	for i, f := range fs {
		if err := p.assertion(fmt.Sprintf("clause %d", i+1), f); err != nil {
			return nil, fmt.Errorf("%s: clause %d: %w", name, i+1, err)
		}
	}
	if len(p.g.Starts) == 0 {
		return nil, fmt.Errorf("%s: no fact (a clause without a predicate in its body): nothing is reachable", name)
	}
	return p.g, nil
}

type chcParser struct {
	ctx   *z3.Context
	g     *Graph
	nodes map[string]int
}

func (p *chcParser) assertion(label string, f *z3.Term) error {
	cl := &Clause{Label: label, From: -1}
	body := f
	if f.Kind() == z3.KindQuantifier {
		q, err := f.Quantifier()
		if err != nil {
			return err
		}
		if !q.Forall {
			return fmt.Errorf("an existential quantifier is not a Horn clause")
		}
		cl.Names = q.Names
		for _, s := range q.Sorts {
			ss, err := stsSort(s)
			if err != nil {
				return err
			}
			cl.Sorts = append(cl.Sorts, ss)
		}
		body = q.Body
	}
	lits, err := p.clauseLiterals(body, true, 0)
	if err != nil {
		return err
	}
	preds, head, cons, err := p.hornParts(lits)
	if err != nil {
		return err
	}
	if len(preds) > 1 {
		return fmt.Errorf("non-linear clause: %d predicates in the body (%s, %s, ...); only linear CHC problems are supported", len(preds), preds[0].name, preds[1].name)
	}
	var to int
	if head != nil {
		to = p.node(*head)
		cl.Post = head.args
	} else {
		to = p.errorNode()
	}
	if cl.Constraint, err = p.ctx.And(cons...); err != nil {
		return err
	}
	if len(preds) == 0 {
		p.g.Starts = append(p.g.Starts, Start{Node: to, Label: label, Clause: cl})
		return nil
	}
	cl.From = p.node(preds[0])
	cl.Pre = preds[0].args
	p.g.Edges = append(p.g.Edges, Edge{From: cl.From, To: to, Label: label, Clause: cl})
	return nil
}

// pred recognises an uninterpreted Boolean application: a predicate.
func (p *chcParser) pred(t *z3.Term) (predApp, bool, error) {
	if t.Kind() != z3.KindApp || t.DeclKind() != z3.DeclUninterpreted || t.SortKind() != z3.SortBool {
		return predApp{}, false, nil
	}
	name, err := t.DeclName()
	if err != nil {
		return predApp{}, false, err
	}
	args, err := t.Args()
	if err != nil {
		return predApp{}, false, err
	}
	return predApp{name: name, args: args}, true, nil
}

// node returns the node of a predicate, creating it (and its variables) on
// first use.
func (p *chcParser) node(pa predApp) int {
	if i, ok := p.nodes[pa.name]; ok {
		return i
	}
	n := Node{Name: pa.name}
	for j, a := range pa.args {
		s, _ := stsSort(mustSort(a))
		n.Vars = append(n.Vars, len(p.g.Vars))
		n.Names = append(n.Names, fmt.Sprintf("x%d", j))
		p.g.Vars = append(p.g.Vars, Var{Name: fmt.Sprintf("%s.x%d", pa.name, j), Sort: s})
	}
	p.g.Nodes = append(p.g.Nodes, n)
	p.nodes[pa.name] = len(p.g.Nodes) - 1
	return len(p.g.Nodes) - 1
}

func (p *chcParser) errorNode() int {
	if p.g.ErrorNode < 0 {
		p.g.Nodes = append(p.g.Nodes, Node{Name: errorNodeName})
		p.g.ErrorNode = len(p.g.Nodes) - 1
	}
	return p.g.ErrorNode
}

func mustSort(t *z3.Term) *z3.Sort {
	s, _ := t.Sort()
	return s
}

func stsSort(s *z3.Sort) (sts.Sort, error) {
	if s == nil {
		return sts.Int, fmt.Errorf("a term without a sort")
	}
	switch s.Kind() {
	case z3.SortInt:
		return sts.Int, nil
	case z3.SortReal:
		return sts.Real, nil
	case z3.SortBool:
		return sts.Bool, nil
	}
	return sts.Int, fmt.Errorf("unsupported sort %s (only Int, Real and Bool)", s)
}
