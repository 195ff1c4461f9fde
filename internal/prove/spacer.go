package prove

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// hornText renders the graph and its properties as SMT-LIB2 Horn clauses
// (induction.md §7.5): a predicate R_n per node, a clause per start and per
// edge, and a query per node property. Relations are the encoder's terms,
// printed by Z3, with every state copy and clause-local constant bound by
// the clause's forall.
func hornText(c *checker, phi []expr.Expr) (string, error) {
	g, e := c.g, c.enc
	var b strings.Builder
	b.WriteString("(set-logic HORN)\n")
	for n := range g.Nodes {
		var sorts []string
		for _, k := range g.Nodes[n].Vars {
			sorts = append(sorts, sortText(g.Vars[k].Sort))
		}
		fmt.Fprintf(&b, "(declare-fun %s (%s) Bool)\n", predName(n), strings.Join(sorts, " "))
	}
	pre, err := e.state("0")
	if err != nil {
		return "", err
	}
	post, err := e.state("1")
	if err != nil {
		return "", err
	}
	clause := func(body []string, head string) {
		binders := bindersText(g, e, pre, post)
		e.locals = nil
		fmt.Fprintf(&b, "(assert (forall (%s) (=> (and true %s) %s)))\n", binders, strings.Join(body, " "), head)
	}
	for si, s := range g.Starts {
		e.locals = nil
		rel, err := e.start(si, post)
		if err != nil {
			return "", err
		}
		clause([]string{rel.String()}, predAppText(g, s.Node, post))
	}
	for ei, ed := range g.Edges {
		e.locals = nil
		rel, err := e.edge(ei, pre, post)
		if err != nil {
			return "", err
		}
		clause([]string{predAppText(g, ed.From, pre), rel.String()}, predAppText(g, ed.To, post))
	}
	for n, f := range phi {
		if f == nil {
			continue
		}
		e.locals = nil
		t, err := e.formula(n, f, pre)
		if err != nil {
			return "", err
		}
		clause([]string{predAppText(g, n, pre), "(not " + t.String() + ")"}, "false")
	}
	return b.String(), nil
}

func predName(n int) string { return fmt.Sprintf("R_%d", n) }

func sortText(s sts.Sort) string {
	return map[sts.Sort]string{sts.Int: "Int", sts.Real: "Real", sts.Bool: "Bool"}[s]
}

var simpleSymbol = regexp.MustCompile(`^[A-Za-z~!@$%^&*_+=<>.?/-][A-Za-z0-9~!@$%^&*_+=<>.?/-]*$`)

func symbol(s string) string {
	if simpleSymbol.MatchString(s) {
		return s
	}
	return "|" + s + "|"
}

func predAppText(g *Graph, n int, st []*z3.Term) string {
	if len(g.Nodes[n].Vars) == 0 {
		return predName(n)
	}
	args := []string{predName(n)}
	for _, k := range g.Nodes[n].Vars {
		args = append(args, st[k].String())
	}
	return "(" + strings.Join(args, " ") + ")"
}

func bindersText(g *Graph, e *encoder, pre, post []*z3.Term) string {
	var out []string
	for _, st := range [][]*z3.Term{pre, post} {
		for k, t := range st {
			out = append(out, fmt.Sprintf("(%s %s)", t.String(), sortText(g.Vars[k].Sort)))
		}
	}
	for _, l := range e.locals {
		out = append(out, fmt.Sprintf("(%s %s)", symbol(l.name), sortText(l.sort)))
	}
	if len(out) == 0 {
		out = append(out, "(dummy!0 Bool)")
	}
	return strings.Join(out, " ")
}

// spacerAnswer is what Spacer said: sat with an RSC per node, unsat, or
// unknown with a reason.
type spacerAnswer struct {
	Status  string // safe, unsafe, unknown
	Reason  string
	RSC     []expr.Expr
	Elapsed time.Duration
}

// runSpacer solves the Horn clauses with Z3's HORN solver within budget.
// Z3 4.8.12 may not honour the timeout inside Spacer, so a timer also
// interrupts the check.
func runSpacer(c *checker, phi []expr.Expr, budget time.Duration) (*spacerAnswer, error) {
	text, err := hornText(c, phi)
	if err != nil {
		return nil, err
	}
	ctx := c.enc.ctx
	fs, err := ctx.ParseSMTLIB2String(text)
	if err != nil {
		return nil, fmt.Errorf("spacer: parsing the generated clauses: %w", err)
	}
	s, err := ctx.NewSolverForLogic("HORN")
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if err := s.Assert(f); err != nil {
			return nil, err
		}
	}
	if budget < time.Millisecond {
		return &spacerAnswer{Status: "unknown", Reason: "no time left"}, nil
	}
	if err := s.SetTimeout(uint32(budget.Milliseconds())); err != nil {
		return nil, err
	}
	timer := time.AfterFunc(budget+2*time.Millisecond, s.Interrupt)
	t0 := time.Now()
	r, err := s.Check()
	timer.Stop()
	ans := &spacerAnswer{Elapsed: time.Since(t0)}
	if err != nil {
		return nil, fmt.Errorf("spacer: %w", err)
	}
	switch r {
	case z3.Unsat:
		ans.Status = "unsafe"
		return ans, nil
	case z3.Unknown:
		ans.Status, ans.Reason = "unknown", s.ReasonUnknown()
		if ans.Reason == "canceled" || ans.Reason == "interrupted from keyboard" || ans.Elapsed >= budget {
			ans.Reason = "timeout"
		}
		return ans, nil
	}
	ans.Status = "safe"
	m, err := s.Model()
	if err != nil {
		return nil, err
	}
	for n := range c.g.Nodes {
		body, _, err := m.FuncElse(predName(n))
		if err != nil {
			ans.RSC = append(ans.RSC, nil) // not interpreted: true (re-checked anyway)
			continue
		}
		f, err := termExpr(body, c.g.Nodes[n].Names, 0)
		if err != nil {
			return &spacerAnswer{Status: "unknown", Reason: "cannot read Spacer's interpretation of " + c.g.Nodes[n].Name + ": " + err.Error(), Elapsed: ans.Elapsed}, nil
		}
		ans.RSC = append(ans.RSC, f)
	}
	return ans, nil
}

// spacerLayer runs Spacer with the remaining budget and re-checks its
// interpretations by the triple rule.
func (a *attempt) spacerLayer(open []int, phi []expr.Expr) (bool, error) {
	t0 := time.Now()
	c, err := a.checker()
	if err != nil {
		return false, err
	}
	ans, err := runSpacer(c, phi, time.Until(a.deadline))
	if err != nil {
		return false, err
	}
	switch ans.Status {
	case "unsafe":
		a.log("spacer", "unsafe", t0, "Spacer found the clauses unsatisfiable (a counterexample exists beyond the bounded search)")
		return false, nil
	case "unknown":
		a.log("spacer", "unknown", t0, ans.Reason)
		return false, nil
	}
	ok, why, err := a.recheck(ans.RSC, phi)
	if err != nil {
		return false, err
	}
	if !ok {
		a.log("spacer", "failed", t0, "Spacer's interpretation did not pass the re-check: "+why)
		return false, nil
	}
	a.log("spacer", "proved", t0, "re-checked by the triple rule")
	a.proved(open, "spacer", ans.RSC, 0)
	return true, nil
}

// termExpr converts a Z3 interpretation (linear arithmetic over de Bruijn
// variables, variable i being argument i) into an expression over names.
func termExpr(t *z3.Term, names []string, depth int) (expr.Expr, error) {
	if depth > 200 {
		return nil, fmt.Errorf("formula too deep")
	}
	switch t.Kind() {
	case z3.KindVar:
		i, err := t.VarIndex()
		if err != nil || i >= len(names) {
			return nil, fmt.Errorf("bad variable in %s", t)
		}
		return ident(names[i]), nil
	case z3.KindNumeral:
		v, err := t.Int()
		if err != nil {
			return nil, fmt.Errorf("non-integer numeral %s", t)
		}
		if v.Sign() < 0 {
			return &expr.Unary{Op: expr.Neg, X: bigLit(v.Neg(v))}, nil
		}
		return bigLit(v), nil
	case z3.KindApp:
	default:
		return nil, fmt.Errorf("unsupported term %s", t)
	}
	args, err := t.Args()
	if err != nil {
		return nil, err
	}
	xs := make([]expr.Expr, len(args))
	for i, a := range args {
		if xs[i], err = termExpr(a, names, depth+1); err != nil {
			return nil, err
		}
	}
	return applyDecl(t, xs)
}

var declOps = map[z3.DeclKind]expr.Op{
	z3.DeclAnd: expr.Land, z3.DeclOr: expr.Lor, z3.DeclImplies: expr.Implies, z3.DeclEq: expr.Eq,
	z3.DeclLe: expr.Le, z3.DeclGe: expr.Ge, z3.DeclLt: expr.Lt, z3.DeclGt: expr.Gt,
	z3.DeclAdd: expr.Add, z3.DeclSub: expr.Sub, z3.DeclMul: expr.Mul,
}

func applyDecl(t *z3.Term, xs []expr.Expr) (expr.Expr, error) {
	k := t.DeclKind()
	switch k {
	case z3.DeclTrue:
		return &expr.BoolLit{Value: true}, nil
	case z3.DeclFalse:
		return &expr.BoolLit{Value: false}, nil
	case z3.DeclNot:
		return &expr.Unary{Op: expr.Not, X: xs[0]}, nil
	case z3.DeclNeg:
		return &expr.Unary{Op: expr.Neg, X: xs[0]}, nil
	case z3.DeclIte:
		return &expr.Conditional{Cond: xs[0], Then: xs[1], Else: xs[2]}, nil
	case z3.DeclMod:
		if l, ok := xs[1].(*expr.IntLit); ok && l.BigInt().Sign() > 0 { // Euclidean = floored for a positive divisor
			return bin(expr.Mod, xs[0], xs[1]), nil
		}
	}
	op, ok := declOps[k]
	if !ok || len(xs) == 0 {
		return nil, fmt.Errorf("unsupported operator %s in %s", k, t)
	}
	if len(xs) == 1 {
		return xs[0], nil
	}
	out := xs[0]
	for _, x := range xs[1:] {
		out = bin(op, out, x)
	}
	if len(xs) > 2 && (op == expr.Eq || op == expr.Le || op == expr.Ge || op == expr.Lt || op == expr.Gt) {
		return nil, fmt.Errorf("chained comparison in %s", t)
	}
	return out, nil
}
