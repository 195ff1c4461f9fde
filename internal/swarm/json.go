package swarm

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/runtime"
	"github.com/stateproof/stateproof/internal/verify"
)

// JSON is the Target of a JSON model: it hunts violations of the
// never-states and var-in-range invariants, with the test verify's S7
// uses, and a step is a model transition, named by its index with its
// from, event and to.
func JSON(m *jsonmodel.Model) Target {
	mc := runtime.Compile(m)
	t := &jsonTarget{mc: mc, byID: map[string]int{}}
	for i := range m.Invariants {
		inv := &m.Invariants[i]
		if test := verify.StateViolation(m, mc, inv); test != nil {
			t.byID[inv.ID] = len(t.checks)
			t.checks = append(t.checks, check{inv, test})
		}
	}
	return t
}

// check is one invariant a member tests on every runtime it stores.
type check struct {
	inv  *jsonmodel.Invariant
	test func(r []int64, initial bool) (string, bool)
}

type jsonTarget struct {
	mc     *runtime.Machine
	checks []check
	byID   map[string]int
	buf    runtime.StepBuffer
}

func (t *jsonTarget) Machine() concrete.Machine { return t.mc }

func (t *jsonTarget) Hunts() (int, string) {
	return len(t.checks), "the model has no never-states or var-in-range invariant for a swarm to look for"
}

func (t *jsonTarget) Found(n int) string { return fmt.Sprintf("%d invariant(s) violated", n) }

func (t *jsonTarget) Find(r []int64, initial bool, want func(string) bool) []Finding {
	var out []Finding
	for _, c := range t.checks {
		if !want(c.inv.ID) {
			continue
		}
		if what, bad := c.test(r, initial); bad {
			out = append(out, Finding{Key: c.inv.ID, Code: "S7_INVARIANT_VIOLATION",
				Message: fmt.Sprintf("Invariant %q violated: %s", c.inv.ID, what)})
		}
	}
	return out
}

func (t *jsonTarget) Rank(key string) (int, bool) {
	i, ok := t.byID[key]
	if !ok {
		return 0, false
	}
	return t.checks[i].inv.Index, true
}

func (t *jsonTarget) Step(_, _ []int64, label int) Step {
	tr := t.mc.Transition(label)
	return Step{From: tr.From, Event: tr.Event, To: tr.To, Transition: &label}
}

// Replay checks that s names a transition that fires in r with the from,
// event and to it claims.
func (t *jsonTarget) Replay(r []int64, s Step) ([]int64, error) {
	mc := t.mc
	if s.Transition == nil || *s.Transition < 0 || *s.Transition >= len(mc.Model.Transitions) {
		n := "none"
		if s.Transition != nil {
			n = fmt.Sprint(*s.Transition)
		}
		return nil, fmt.Errorf("no transition %s", n)
	}
	ti := *s.Transition
	tr := mc.Transition(ti)
	if tr.From != s.From || tr.Event != s.Event || tr.To != s.To {
		return nil, fmt.Errorf("transition %d is %s --%s--> %s, not %s --%s--> %s", ti, tr.From, tr.Event, tr.To, s.From, s.Event, s.To)
	}
	e := mc.EventIndex(s.Event)
	var next []int64
	ok := false
	if e >= 0 {
		next, ok = mc.Fires(r, e, ti, &t.buf)
	}
	if !ok {
		return nil, fmt.Errorf("transition %d (%s --%s--> %s) does not fire in runtime %s", ti, s.From, s.Event, s.To, mc.Key(r))
	}
	return append([]int64(nil), next...), nil
}

func (t *jsonTarget) Key(r []int64) string { return t.mc.Key(r) }
