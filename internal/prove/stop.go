package prove

import (
	"sync"

	"github.com/stateproof/stateproof/internal/z3"
)

// stopper lets one goroutine stop the solver calls of another: a layer
// that has found a certified answer stops the layers still running. Each
// goroutine owns its Z3 context; the only cross-goroutine call is
// Solver.Interrupt, made under the lock while the owner is inside Check
// (so the context is alive), which Z3 allows.
type stopper struct {
	mu      sync.Mutex
	stopped bool
	cur     *z3.Solver
	onCheck checkHook // set once, by stoppers.add
}

// checkHook is shown every check a stopper enters: the solver and the
// formulas just asserted for it (tests: Options.onCheck).
type checkHook func(s *z3.Solver, asserted []*z3.Term)

// enter registers s as running, its check of the asserted formulas about
// to start; false means the work was stopped.
func (st *stopper) enter(s *z3.Solver, asserted ...*z3.Term) bool {
	if st == nil {
		return true
	}
	if st.onCheck != nil {
		st.onCheck(s, asserted)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.stopped {
		return false
	}
	st.cur = s
	return true
}

func (st *stopper) leave() {
	if st == nil {
		return
	}
	st.mu.Lock()
	st.cur = nil
	st.mu.Unlock()
}

// stop makes every later enter fail and interrupts the running check.
func (st *stopper) stop() {
	if st == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.stopped = true
	if st.cur != nil {
		st.cur.Interrupt()
	}
}

func (st *stopper) isStopped() bool {
	if st == nil {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.stopped
}

// stoppers is a set of stoppers stopped together (an attempt's, when it
// is cancelled); one added after stopAll starts stopped.
type stoppers struct {
	mu      sync.Mutex
	stopped bool
	all     []*stopper
	onCheck checkHook // given to every stopper added
}

func (ss *stoppers) add() *stopper {
	st := &stopper{onCheck: ss.onCheck}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.stopped {
		st.stopped = true
	} else {
		ss.all = append(ss.all, st)
	}
	return st
}

func (ss *stoppers) stopAll() {
	ss.mu.Lock()
	ss.stopped = true
	all := ss.all
	ss.all = nil
	ss.mu.Unlock()
	for _, st := range all {
		st.stop()
	}
}
