package lint

import (
	"context"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// Enterable reports, for every state of m, whether some run can enter it
// by structure alone: the same analysis as the FCSTM-L1 check, exported so
// that other analyzers (stateproof inspect) share one notion of
// "unreachable" rather than a second one that could disagree.
func Enterable(m *model.Model) map[*model.State]bool {
	live := analyse(context.Background(), m).live
	out := make(map[*model.State]bool, len(live))
	for s, ok := range live {
		out[s] = ok
	}
	return out
}

// ConstantGuard evaluates a guard that reads no variable: the value and
// true, or false when g is absent, reads a variable or does not evaluate
// to a boolean. It is the constant folding the dead-transition check uses.
func ConstantGuard(g expr.Expr) (value, ok bool) { return constant(g) }
