package explicit

import (
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// bitVars reports, per variable, whether it can only ever hold 0 or 1:
// an int starting at 0 or 1 whose every assignment, anywhere in the
// model, is an integer expression whose interval lies in [0, 1] when the
// variables so marked do. The search stores such a variable as one bit,
// as JSON stores a boolean (concrete.Bit), which is what a flag variable
// is in FCSTM, a language without booleans. The marking is a greatest
// fixpoint: a variable is unmarked as soon as one assignment may give
// it another value, until none does. Every value a variable holds,
// inside a block or at rest, is its initial value or one an assignment
// computed, so the marking is sound whatever the guards; an absorbing
// location's words are 0.
func bitVars(m *model.Model, init []int64) []bool {
	bit := make([]bool, len(m.Vars))
	idx := map[string]int{}
	for i, v := range m.Vars {
		idx[v.Name] = i
		bit[i] = v.Type == model.Int && (init[1+i] == 0 || init[1+i] == 1)
	}
	var assigns []*model.Assign
	collectAssigns(m.Root, &assigns)
	for changed := true; changed; {
		changed = false
		for _, a := range assigns {
			i, ok := idx[a.Name]
			if !ok || a.Temp || !bit[i] {
				continue
			}
			if lo, hi, ok := interval(a.Value, idx, bit); !ok || lo < 0 || hi > 1 {
				bit[i], changed = false, true
			}
		}
	}
	return bit
}

// collectAssigns appends every assignment of every block the runtime can
// run: transition effects and the actions of every state (a reference
// runs its target).
func collectAssigns(s *model.State, out *[]*model.Assign) {
	for _, t := range s.Transitions {
		stmtAssigns(t.Effect, out)
	}
	for _, list := range [][]*model.Action{s.Enter, s.During, s.Exit, s.DuringBefore, s.DuringAfter, s.AspectBefore, s.AspectAfter} {
		for _, a := range list {
			stmtAssigns(a.Resolved().Ops, out)
		}
	}
	for _, c := range s.Children {
		collectAssigns(c, out)
	}
}

func stmtAssigns(ops []model.Stmt, out *[]*model.Assign) {
	for _, op := range ops {
		switch op := op.(type) {
		case *model.Assign:
			*out = append(*out, op)
		case *model.If:
			for _, b := range op.Branches {
				stmtAssigns(b.Body, out)
			}
			stmtAssigns(op.Else, out)
		}
	}
}

// bound keeps interval arithmetic far from int64 overflow (a product of
// two bounds included): a wider interval is no use for a bit anyway.
const bound = 1 << 31

// interval bounds the Int value of e when the variables marked in bit
// hold 0 or 1; ok is false when e may be anything else (another type,
// an unmarked variable or temporary, an operation not modelled).
func interval(e expr.Expr, idx map[string]int, bit []bool) (lo, hi int64, ok bool) {
	switch e := e.(type) {
	case *expr.IntLit:
		if e.Big != nil || e.Value < -bound || e.Value > bound {
			return 0, 0, false
		}
		return e.Value, e.Value, true
	case *expr.Ident:
		if i, found := idx[e.Name]; found && bit[i] {
			return 0, 1, true
		}
	case *expr.Unary:
		l, h, ok := interval(e.X, idx, bit)
		switch {
		case !ok:
		case e.Op == expr.Plus:
			return l, h, true
		case e.Op == expr.Neg:
			return -h, -l, true
		}
	case *expr.Binary:
		return binaryInterval(e, idx, bit)
	}
	return 0, 0, false
}

func binaryInterval(e *expr.Binary, idx map[string]int, bit []bool) (lo, hi int64, ok bool) {
	l1, h1, ok1 := interval(e.X, idx, bit)
	l2, h2, ok2 := interval(e.Y, idx, bit)
	if e.Op == expr.Mod && ok2 && l2 == h2 && l2 > 0 {
		// Python's floored modulo by a positive n is in [0, n) whatever
		// the dividend; a float one is stored only when integral.
		return 0, l2 - 1, true
	}
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	switch e.Op {
	case expr.Add:
		lo, hi = l1+l2, h1+h2
	case expr.Sub:
		lo, hi = l1-h2, h1-l2
	case expr.Mul:
		ps := [4]int64{l1 * l2, l1 * h2, h1 * l2, h1 * h2}
		lo, hi = min(ps[0], ps[1], ps[2], ps[3]), max(ps[0], ps[1], ps[2], ps[3])
	case expr.BitAnd, expr.BitOr, expr.BitXor:
		if l1 < 0 || h1 > 1 || l2 < 0 || h2 > 1 {
			return 0, 0, false
		}
		return 0, 1, true
	default:
		return 0, 0, false
	}
	return lo, hi, lo >= -bound && hi <= bound
}
