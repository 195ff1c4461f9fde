package prove

import (
	"errors"
	"fmt"
	"math/big"
	"sort"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// houdini finds the largest subset of the candidates (per node) that passes
// the triple rule (Flanagan & Leino): every counterexample to one
// obligation removes the destination candidates it falsifies, until no
// obligation has a counterexample. The survivors are inductive by
// construction; the caller still re-checks them independently.
func houdini(c *checker, cands [][]expr.Expr) ([][]expr.Expr, error) {
	var obs []obligation
	for si := range c.g.Starts {
		obs = append(obs, obligation{Start: true, Index: si})
	}
	for ei := range c.g.Edges {
		obs = append(obs, obligation{Index: ei})
	}
	for changed := true; changed; {
		changed = false
		for _, ob := range obs {
			dropped, err := houdiniStep(c, ob, cands)
			if err != nil {
				return nil, err
			}
			changed = changed || dropped
		}
	}
	return cands, nil
}

// houdiniStep re-checks one obligation until it holds, dropping falsified
// destination candidates; it reports whether it dropped any.
func houdiniStep(c *checker, ob obligation, cands [][]expr.Expr) (bool, error) {
	var dst, from int
	if ob.Start {
		dst, from = c.g.Starts[ob.Index].Node, -1
	} else {
		dst, from = c.g.Edges[ob.Index].To, c.g.Edges[ob.Index].From
	}
	dropped := false
	for len(cands[dst]) > 0 {
		var pre expr.Expr
		if from >= 0 {
			pre = conj(cands[from])
		}
		a, err := c.check(ob, pre, conj(cands[dst]))
		if err != nil {
			return false, err
		}
		switch a.Result {
		case z3.Unsat:
			return dropped, nil
		case z3.Unknown:
			return false, &inferUndecided{fmt.Sprintf("houdini: %s: solver unknown (%s)", c.obName(ob), a.Reason)}
		}
		var keep []expr.Expr
		for _, f := range cands[dst] {
			ok, err := c.holds(a.Model, dst, f, a.Post)
			if err != nil {
				return false, err
			}
			if ok {
				keep = append(keep, f)
			}
		}
		if len(keep) == len(cands[dst]) {
			return false, fmt.Errorf("houdini: %s: a counterexample falsifies no candidate", c.obName(ob))
		}
		cands[dst] = keep
		dropped = true
	}
	return dropped, nil
}

// conj folds formulas with &&; nil (true) for none.
func conj(fs []expr.Expr) expr.Expr {
	var out expr.Expr
	for _, f := range fs {
		if out == nil {
			out = f
		} else {
			out = &expr.Binary{Op: expr.Land, X: out, Y: f}
		}
	}
	return out
}

// conjuncts splits a formula at its top-level &&.
func splitAnd(f expr.Expr) []expr.Expr {
	if b, ok := f.(*expr.Binary); ok && b.Op == expr.Land {
		return append(splitAnd(b.X), splitAnd(b.Y)...)
	}
	if f == nil {
		return nil
	}
	return []expr.Expr{f}
}

func ident(name string) expr.Expr { return &expr.Ident{Name: name} }
func lit(v int64) expr.Expr       { return &expr.IntLit{Value: v} }

// bigLit is the literal of a non-negative integer of any size.
func bigLit(v *big.Int) expr.Expr {
	if v.IsInt64() {
		return lit(v.Int64())
	}
	return &expr.IntLit{Big: v}
}
func bin(op expr.Op, x, y expr.Expr) expr.Expr {
	return &expr.Binary{Op: op, X: x, Y: y}
}

// facts are what candidate mining learns from the system: the constants it
// mentions, the fixed initial values per node, and the fixed increments
// per self-loop.
type facts struct {
	consts []int64
	// init maps a global variable to its value at every start that fixes
	// it. JSON nodes share the variables, so a JSON start's values apply
	// as candidates everywhere (Houdini drops them where they fail).
	init   map[int]int64
	deltas [][]map[int]int64 // per node: per self-loop: local var -> increment
}

// mineCandidates proposes per-node candidates (docs/rsc.md): bounds
// x >= c, x <= c and x == c over mined constants, comparisons and
// differences between variables, the linear relation b·x − a·y = k of two
// variables that a self-loop increments by a and b, parity, Boolean
// literals, false (for unreachable nodes), and the property's conjuncts.
// errCandidatesTimeout: the deadline passed while candidates were made.
var errCandidatesTimeout = errors.New("timeout while making candidates")

func mineCandidates(c *checker, prop []expr.Expr) ([][]expr.Expr, error) {
	fx, err := mineFacts(c)
	if err != nil {
		return nil, err
	}
	out := make([][]expr.Expr, len(c.g.Nodes))
	for n := range c.g.Nodes {
		out[n] = append(out[n], &expr.BoolLit{Value: false})
		out[n] = append(out[n], nodeCandidates(c.g, n, fx, c.expired)...)
		out[n] = append(out[n], splitAnd(prop[n])...)
	}
	if c.expired() {
		return nil, errCandidatesTimeout
	}
	return out, nil
}

// A node of n integer arguments has n(n−1)/2 pairs: stop is asked before
// each row of them (a 2,000-ary predicate has two million, minutes of
// work), and once it says so the candidates so far are returned.
func nodeCandidates(g *Graph, n int, fx *facts, stop func() bool) []expr.Expr {
	node := &g.Nodes[n]
	var out []expr.Expr
	var ints []int
	for j, k := range node.Vars {
		x := ident(node.Names[j])
		switch g.Vars[k].Sort {
		case sts.Bool:
			out = append(out, x, &expr.Unary{Op: expr.Not, X: x})
			continue
		case sts.Real:
			continue
		}
		ints = append(ints, j)
		cs := append([]int64(nil), fx.consts...)
		if v, ok := fx.init[k]; ok {
			cs = append(cs, v)
		}
		for _, c := range uniq(cs) {
			out = append(out, bin(expr.Ge, x, lit(c)), bin(expr.Le, x, lit(c)), bin(expr.Eq, x, lit(c)))
		}
		out = append(out, bin(expr.Eq, bin(expr.Mod, x, lit(2)), lit(0)), bin(expr.Eq, bin(expr.Mod, x, lit(2)), lit(1)))
	}
	for a := 0; a < len(ints) && !stop(); a++ {
		for b := a + 1; b < len(ints); b++ {
			i, j := ints[a], ints[b]
			x, y := ident(node.Names[i]), ident(node.Names[j])
			out = append(out, bin(expr.Le, x, y), bin(expr.Ge, x, y), bin(expr.Eq, x, y))
			vi, oki := fx.init[node.Vars[i]]
			vj, okj := fx.init[node.Vars[j]]
			if oki && okj && vi != vj {
				out = append(out, bin(expr.Eq, bin(expr.Sub, x, y), lit(vi-vj)))
			}
			out = append(out, ratioCandidates(fx, n, node.Vars[i], node.Vars[j], i, j, x, y)...)
		}
	}
	return out
}

// ratioCandidates: a self-loop adding a to x and b to y keeps b·x − a·y
// constant; its value is the initial one (a Karr-style affine equality
// guessed from one loop, validated by Houdini like every candidate).
func ratioCandidates(fx *facts, n, gi, gj, i, j int, x, y expr.Expr) []expr.Expr {
	vi, oki := fx.init[gi]
	vj, okj := fx.init[gj]
	if !oki || !okj {
		return nil
	}
	var out []expr.Expr
	seen := map[[2]int64]bool{}
	for _, d := range fx.deltas[n] {
		a, b := d[i], d[j]
		if a == 0 || b == 0 || a == b || seen[[2]int64{a, b}] {
			continue
		}
		seen[[2]int64{a, b}] = true
		lhs := bin(expr.Sub, bin(expr.Mul, lit(b), x), bin(expr.Mul, lit(a), y))
		out = append(out, bin(expr.Eq, lhs, lit(b*vi-a*vj)))
	}
	return out
}

func uniq(xs []int64) []int64 {
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	var out []int64
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// infer runs Houdini over the mined candidates without any property and
// keeps the result only if it passes the independent re-check: the
// strongest conjunctive RSCs the candidates can express.
func (a *attempt) infer() error {
	// A fresh stopper: the last round's was stopped when a layer proved
	// the properties, and inference would inherit that stop and answer
	// "unknown (stopped)" to its first query. Cancelling the attempt
	// still stops this one.
	a.stop = a.newStopper()
	c, err := a.checker()
	if err != nil {
		return err
	}
	none := make([]expr.Expr, len(a.p.Graph.Nodes))
	cands, err := mineCandidates(c, none)
	if errors.Is(err, errCandidatesTimeout) {
		a.r.InferReason = err.Error()
		return nil
	}
	if err != nil {
		return err
	}
	inv, err := houdini(c, cands)
	var und *inferUndecided
	if errors.As(err, &und) {
		a.r.InferReason = und.reason
		return nil
	}
	if err != nil {
		return err
	}
	rsc, err := simplifyAll(c, inv)
	if err != nil {
		return err
	}
	ok, why, err := a.recheck(rsc, none)
	if err != nil {
		return err
	}
	if !ok && (a.expired() || a.stop.isStopped()) {
		// The re-check did not finish: nothing was refuted.
		a.r.InferReason = "re-check: " + why
		return nil
	}
	if !ok {
		return fmt.Errorf("infer: the inferred RSCs failed the re-check: %s", why)
	}
	a.r.Inferred = []NodeRSC{}
	for n, f := range rsc {
		a.r.Inferred = append(a.r.Inferred, NodeRSC{Node: a.p.Graph.Nodes[n].Name, RSC: format(f)})
	}
	return nil
}

// inferUndecided is inference stopped by a solver unknown (the budget ran
// out, the attempt was cancelled, or Z3 gave up): the report says so with
// the reason and prove exits 3, as for any undecided answer.
type inferUndecided struct{ reason string }

func (e *inferUndecided) Error() string { return e.reason }

// simplify drops conjuncts implied by the others, so certificates read
// well; the formula's meaning is unchanged.
func simplify(c *checker, node int, fs []expr.Expr) ([]expr.Expr, error) {
	st, err := c.enc.state("0")
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if b, ok := f.(*expr.BoolLit); ok && !b.Value {
			return []expr.Expr{f}, nil
		}
	}
	keep := append([]expr.Expr(nil), fs...)
	for i := len(keep) - 1; i >= 0; i-- {
		others := append(append([]expr.Expr(nil), keep[:i]...), keep[i+1:]...)
		have, err := c.enc.formula(node, conj(others), st)
		if err != nil {
			return nil, err
		}
		want, err := c.enc.formula(node, keep[i], st)
		if err != nil {
			return nil, err
		}
		a, err := c.solve(c.enc.b.And(have, c.enc.b.Not(want)), nil, nil)
		if err != nil {
			return nil, err
		}
		switch {
		case a.Result == z3.Unsat:
			keep = others
		case a.Reason == "stopped":
			return keep, nil // what is kept means the same: stop here
		}
	}
	return keep, nil
}

func simplifyAll(c *checker, inv [][]expr.Expr) ([]expr.Expr, error) {
	rsc := make([]expr.Expr, len(inv))
	for i, cs := range inv {
		s, err := simplify(c, i, cs)
		if err != nil {
			return nil, err
		}
		rsc[i] = conj(s)
	}
	return rsc, nil
}
