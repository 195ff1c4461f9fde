package decide

import (
	"fmt"
	"math"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
)

// replay runs r's evidence on a fresh runtime of m, cycle by cycle, and
// says where the runtime shows another frame than the search found. The
// search steps restored runtimes; this replay starts cold and feeds the
// inputs by name, as a user would, so that the evidence stands on its own.
func replay(m *model.Model, r *Result) error {
	rt, err := runtime.New(m, runtime.Options{})
	if err != nil {
		return err
	}
	if err := sameFrame(rt, &r.Frames[0]); err != nil {
		return fmt.Errorf("frame 0: %w", err)
	}
	for i, in := range r.Steps {
		if _, err := rt.Cycle(in); err != nil {
			return fmt.Errorf("step %d raises on replay: %w", i, err)
		}
		if err := sameFrame(rt, &r.Frames[i+1]); err != nil {
			return fmt.Errorf("frame %d: %w", i+1, err)
		}
	}
	if r.Lasso {
		// the runtime is at the last frame: it must be the loop's first
		// again, or the lasso does not close
		if err := sameFrame(rt, &r.Frames[r.Loop]); err != nil {
			return fmt.Errorf("the lasso does not close at frame %d: %w", r.Loop, err)
		}
	}
	return nil
}

func sameFrame(rt *runtime.Runtime, f *Frame) error {
	if rt.Ended() != f.Terminated || !f.Terminated && rt.State() != f.State {
		return fmt.Errorf("the runtime is in %q (ended %v), the search in %q (ended %v)", rt.State(), rt.Ended(), f.State, f.Terminated)
	}
	vals := rt.Values()
	for i, v := range vals {
		if !sameValue(v, f.Vars[i]) {
			return fmt.Errorf("variable %d is %v on the runtime, %v in the search", i, v, f.Vars[i])
		}
	}
	return nil
}

// sameValue compares bit for bit, as the search's visited set does.
func sameValue(a, b expr.Value) bool {
	if a.Type() == expr.Real && b.Type() == expr.Real {
		return math.Float64bits(a.Real()) == math.Float64bits(b.Real())
	}
	c, ok := expr.Compare(a, b)
	return ok && c == 0 && a.Type() == b.Type()
}
