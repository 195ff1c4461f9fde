package prove

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// hornText renders the graph and its properties as SMT-LIB2 Horn clauses
// (docs/rsc.md): a predicate R_n per node, a clause per start and per
// edge, and a query per node property. Relations are the encoder's terms,
// printed by Z3, with every state copy and clause-local constant bound by
// the clause's forall. The error node of a CHC problem gets no predicate:
// its property is that it is unreachable, so edges into it are queries
// (head false), and without a property there they are left out (its RSC
// is then true, which every edge into it establishes).
func hornText(c *checker, phi []expr.Expr) (string, error) {
	g, e := c.g, c.enc
	isErr := func(n int) bool { return n == g.ErrorNode }
	var b strings.Builder
	b.WriteString("(set-logic HORN)\n")
	for n := range g.Nodes {
		if isErr(n) {
			continue
		}
		var sorts []string
		for _, k := range g.Nodes[n].Vars {
			sorts = append(sorts, sortText(g.Vars[k].Sort))
		}
		fmt.Fprintf(&b, "(declare-fun %s (%s) Bool)\n", predName(n), strings.Join(sorts, " "))
	}
	pre, post, err := e.prePost()
	if err != nil {
		return "", err
	}
	clause := func(body []string, head string) {
		binders := bindersText(g, e, pre, post)
		e.locals = nil
		fmt.Fprintf(&b, "(assert (forall (%s) (=> (and true %s) %s)))\n", binders, strings.Join(body, " "), head)
	}
	head := func(n int) (string, bool) {
		if isErr(n) {
			return "false", phi[n] != nil
		}
		return predAppText(g, n, post), true
	}
	for si, s := range g.Starts {
		e.locals = nil
		h, keep := head(s.Node)
		if !keep {
			continue
		}
		rel, err := e.start(si, post)
		if err != nil {
			return "", err
		}
		clause([]string{rel.String()}, h)
	}
	for ei, ed := range g.Edges {
		if c.expired() {
			// Rendering one edge of a model with many cases can take
			// seconds (its relation printed in full): stop at the deadline.
			return "", errEncodingBudget
		}
		e.locals = nil
		h, keep := head(ed.To)
		if !keep {
			continue
		}
		rel, err := e.edge(ei, pre, post)
		if err != nil {
			return "", err
		}
		clause([]string{predAppText(g, ed.From, pre), rel.String()}, h)
	}
	for n, f := range phi {
		if f == nil || isErr(n) {
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

// errEncodingBudget stops hornText when the deadline passes while it
// renders the clauses; Spacer is then not run (the round reports why).
var errEncodingBudget = errors.New("prove: the budget ran out while encoding the Horn clauses")

func predName(n int) string { return fmt.Sprintf("R_%d", n) }

func sortText(s sts.Sort) string {
	return map[sts.Sort]string{sts.Int: "Int", sts.Real: "Real", sts.Bool: "Bool"}[s]
}

var simpleSymbol = regexp.MustCompile(`^[A-Za-z~!@$%^&*_+=<>.?/-][A-Za-z0-9~!@$%^&*_+=<>.?/-]*$`)

// symbol writes a clause-local constant's name. The encoder builds every
// name from smtName's spelling of the user's, so the bar form is only a
// fallback for a name made elsewhere (it cannot hold '|' or '\').
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
	solver  *z3.Solver // safe: the solver holding the model, for interpret
}

// runSpacer solves Horn clauses with Z3's HORN solver within budget, in
// ctx, which nothing else may use until it returns (Spacer may run on a
// goroutine of its own); stop interrupts it, and so does a timer when the
// budget is spent. A safe answer's interpretation is read by interpret, so
// that Spacer alone on a problem file pays nothing for it.
func runSpacer(ctx *z3.Context, text string, budget time.Duration, deadline time.Time, stop *stopper, params ...z3.Param) (*spacerAnswer, error) {
	if budget < time.Millisecond {
		return &spacerAnswer{Status: "unknown", Reason: "no time left"}, nil
	}
	fs, err := ctx.ParseSMTLIB2String(text)
	if err != nil {
		return nil, fmt.Errorf("spacer: parsing the generated clauses: %w", err)
	}
	return solveHorn(ctx, fs, budget, deadline, stop, params...)
}

// noInline keeps Spacer from inlining predicates. A clause with
// clause-local constants (the bound temporaries of a shared pseudo
// choice) makes an inlined predicate's interpretation quantified over
// them, and eliminating those quantifiers took 10 s on a chain of twenty
// pseudo states where solving without inlining took 0.4 s.
var noInline = []z3.Param{{Name: "fp.xform.inline_linear", Value: false}, {Name: "fp.xform.inline_eager", Value: false}}

// solveHorn is runSpacer on clauses already parsed in ctx.
func solveHorn(ctx *z3.Context, fs []*z3.Term, budget time.Duration, deadline time.Time, stop *stopper, params ...z3.Param) (*spacerAnswer, error) {
	if budget < time.Millisecond {
		return &spacerAnswer{Status: "unknown", Reason: "no time left"}, nil
	}
	s, err := ctx.NewSolverForLogic("HORN", params...)
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if err := s.Assert(f); err != nil {
			return nil, err
		}
	}
	// No Z3 timeout on this solver: with Z3 4.8.12, a solver timeout in one
	// context while another context's checks have timeouts of their own
	// makes those checks stall until they time out. A timer interrupts the
	// check instead.
	if !stop.enter(s, fs...) {
		return &spacerAnswer{Status: "unknown", Reason: "stopped"}, nil
	}
	// The budget (a slice, or what is left) interrupts the check; the
	// overall deadline bounds it as bmc's checks (z3.CheckContext): a check
	// still running a twentieth of the budget after the deadline is
	// abandoned with its context. A slice's end never abandons: the
	// context is the attempt's, which the later layers use.
	timer := time.AfterFunc(budget+2*time.Millisecond, s.Interrupt)
	dctx, cancel := context.Background(), context.CancelFunc(func() {})
	if !deadline.IsZero() {
		dctx, cancel = context.WithDeadline(dctx, deadline)
	}
	t0 := time.Now()
	r, err := s.CheckContext(dctx, max(time.Until(deadline)/20, 50*time.Millisecond))
	timer.Stop()
	cancel()
	stop.leave()
	ans := &spacerAnswer{Elapsed: time.Since(t0)}
	if errors.Is(err, z3.ErrAbandoned) {
		ans.Status, ans.Reason = "unknown", "timeout (abandoned while solving)"
		return ans, nil
	}
	if err != nil {
		return nil, fmt.Errorf("spacer: %w", err)
	}
	if r == z3.Unknown && (dctx.Err() != nil || ans.Elapsed >= budget) && !stop.isStopped() {
		ans.Status, ans.Reason = "unknown", "timeout"
		return ans, nil
	}
	switch r {
	case z3.Unsat:
		ans.Status = "unsafe"
		return ans, nil
	case z3.Unknown:
		ans.Status, ans.Reason = "unknown", s.ReasonUnknown()
		switch {
		case stop.isStopped():
			ans.Reason = "stopped"
		case ans.Reason == "canceled" || ans.Reason == "interrupted from keyboard" || ans.Elapsed >= budget:
			ans.Reason = "timeout"
		case ans.Reason == "max. resource limit exceeded":
			// A first slice's rlimit: like the end of a slice in time,
			// the second slice goes on (finishSpacer).
			ans.Reason = "timeout"
		}
		return ans, nil
	}
	ans.Status, ans.solver = "safe", s
	return ans, nil
}

// interpret reads a safe answer's interpretation as an RSC per node of g
// (a graph in ctx, the context Spacer ran in); pred names node n's
// predicate in the text Spacer solved. An interpretation it cannot read
// turns the answer unknown, with the reason.
func (ans *spacerAnswer) interpret(ctx *z3.Context, g *Graph, pred func(int) string) error {
	m, err := ans.solver.Model()
	if err != nil {
		return err
	}
	for n := range g.Nodes {
		f, err := interpretation(ctx, m, g, n, pred(n))
		if err != nil {
			ans.Status, ans.Reason, ans.RSC = "unknown", "cannot read Spacer's interpretation of "+g.Nodes[n].Name+": "+err.Error(), nil
			return nil
		}
		ans.RSC = append(ans.RSC, f)
	}
	return nil
}

// interpretation reads the model's formula for node n (predicate name)
// as an RSC. The error
// node has no predicate (see hornText): false. A predicate the model does
// not mention was sliced away as irrelevant to the queries: true (the
// re-check decides). A nullary predicate is a constant of the model. A
// quantified interpretation (Z3 builds one for a predicate its
// preprocessing inlined) is closed over fresh constants for the arguments
// and its quantifiers are eliminated (Z3's qe tactic) before it is read.
func interpretation(ctx *z3.Context, m *z3.Model, g *Graph, n int, name string) (expr.Expr, error) {
	if n == g.ErrorNode {
		return &expr.BoolLit{Value: false}, nil
	}
	node := &g.Nodes[n]
	var body *z3.Term
	var err error
	if len(node.Vars) == 0 {
		body, err = m.ConstInterp(name)
	} else {
		body, _, err = m.FuncElse(name)
		if err != nil && strings.Contains(err.Error(), "does not interpret") {
			body, err = nil, nil
		}
	}
	if err != nil || body == nil {
		return nil, err
	}
	if !body.HasQuantifier() {
		return termExpr(body, node.Names, 0)
	}
	args := make([]*z3.Term, len(node.Vars))
	consts := map[string]string{}
	for i, k := range node.Vars {
		name := fmt.Sprintf("!arg%d", i) // '!' first: no model name's constant (smtName)
		switch g.Vars[k].Sort {
		case sts.Bool:
			args[i], err = ctx.BoolConst(name)
		case sts.Real:
			args[i], err = ctx.RealConst(name)
		default:
			args[i], err = ctx.IntConst(name)
		}
		if err != nil {
			return nil, err
		}
		consts[name] = node.Names[i]
	}
	closed, err := body.SubstituteVars(args...)
	if err != nil {
		return nil, err
	}
	qf, err := ctx.EliminateQuantifiers(closed)
	if err != nil {
		return nil, err
	}
	return constExpr(qf, consts, 0)
}

// termExpr converts a Z3 interpretation (linear arithmetic over de Bruijn
// variables, variable i being argument i) into an expression over names.
func termExpr(t *z3.Term, names []string, depth int) (expr.Expr, error) {
	return (&termReader{vars: names}).read(t, depth)
}

// constExpr converts a quantifier-free formula over constants, renaming
// them by consts.
func constExpr(t *z3.Term, consts map[string]string, depth int) (expr.Expr, error) {
	return (&termReader{consts: consts}).read(t, depth)
}

// termReader reads linear arithmetic terms into expressions: de Bruijn
// variable i is vars[i], an uninterpreted constant c is consts[c].
type termReader struct {
	vars   []string
	consts map[string]string
}

func (r *termReader) read(t *z3.Term, depth int) (expr.Expr, error) {
	if depth > 200 {
		return nil, fmt.Errorf("formula too deep")
	}
	switch t.Kind() {
	case z3.KindVar:
		i, err := t.VarIndex()
		if err != nil || i >= len(r.vars) {
			return nil, fmt.Errorf("bad variable in %s", t)
		}
		return ident(r.vars[i]), nil
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
	if t.DeclKind() == z3.DeclUninterpreted && t.NumArgs() == 0 {
		name, err := t.DeclName()
		if nm, ok := r.consts[name]; ok && err == nil {
			return ident(nm), nil
		}
		return nil, fmt.Errorf("unknown constant %s", t)
	}
	args, err := t.Args()
	if err != nil {
		return nil, err
	}
	xs := make([]expr.Expr, len(args))
	for i, a := range args {
		if xs[i], err = r.read(a, depth+1); err != nil {
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
