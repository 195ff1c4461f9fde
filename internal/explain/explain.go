package explain

import (
	"fmt"
	"time"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/z3"
)

// Explanation is the explanation object.
type Explanation struct {
	RequestedMode, AchievedMode string
	Status                      string // complete, partial, unknown, timeout
	Classification              string // "" is null
	Core                        *Core
	Proof                       *Proof
	Narrative                   *Narrative
	Reason                      string // "" only when complete
	ElapsedMS                   float64
}

// solverIO is the solver access the explanation needs: a budgeted check of
// activation literals, the last unsat core, and a way to put a new formula
// behind a fresh literal (for bindings and entailments).
type solverIO struct {
	check func(lits []*z3.Term) (bmc.Check, error)
	core  func() ([]*z3.Term, error)
	guard func(name string, f *z3.Term) (*z3.Term, error)
	ctx   *z3.Context
}

func newSolverIO(req *bmc.ExplainRequest) *solverIO {
	enc := req.Enc
	n := 0
	return &solverIO{
		check: req.Check,
		core:  enc.Solver.UnsatCore,
		ctx:   enc.Ctx(),
		guard: func(name string, f *z3.Term) (*z3.Term, error) {
			n++
			lit, err := enc.Ctx().BoolConst(fmt.Sprintf("explain!%s!%d", name, n))
			if err != nil {
				return nil, err
			}
			imp, err := enc.Ctx().Implies(lit, f)
			if err != nil {
				return nil, err
			}
			if err := enc.Solver.Assert(imp); err != nil {
				return nil, fmt.Errorf("explain: asserting %s: %w", name, err)
			}
			return lit, nil
		},
	}
}

// ledger collects the refinement_checks rows.
type ledger struct{ rows []bmc.RefinementCheck }

func (l *ledger) add(name, status, reason string, elapsed float64) {
	l.rows = append(l.rows, bmc.RefinementCheck{Name: name, Status: status, Reason: reason, ElapsedMS: elapsed})
}

// Explain is the bmc.Explainer: it classifies, extracts and minimises the
// core, and in proof mode builds and checks a proof.
func Explain(req *bmc.ExplainRequest) (*bmc.Refinement, error) {
	return explainWith(req, newSolverIO(req))
}

func explainWith(req *bmc.ExplainRequest, io *solverIO) (*bmc.Refinement, error) {
	t0 := time.Now()
	led := &ledger{}
	ex := &Explanation{RequestedMode: req.Mode, AchievedMode: "none"}
	ag := aggregate(req.Enc.Groups)
	cl, err := classify(req.Feasibility.InfeasibleStage, ag, io, led)
	if err != nil {
		return nil, err
	}
	ex.Classification = cl.classification
	core, st, err := extractCore(cl, io, led)
	if err != nil {
		return nil, err
	}
	src := newSources(req)
	if core == nil {
		ex.Status, ex.Reason = st.status, st.reason
		if ex.Classification != "" {
			ex.Status = "partial"
		}
	} else {
		ex.AchievedMode = "formal"
		ex.Core = publishCore(core, src)
		if err := finish(req, ex, core, io, led, src); err != nil {
			return nil, err
		}
	}
	ex.ElapsedMS = float64(time.Since(t0).Microseconds()) / 1000
	return &bmc.Refinement{Status: ex.Status, Reason: ex.Reason, Checks: led.rows, Explanation: ex}, nil
}

// finish builds the proof (proof mode) and the narrative, and decides the
// achieved mode and status by the delivery table.
func finish(req *bmc.ExplainRequest, ex *Explanation, core *coreResult, io *solverIO, led *ledger, src *sources) error {
	var why string
	if req.Mode == "proof" {
		switch {
		case core.reduction != "subset_minimal":
			why = "the core is " + core.reduction + ": a proof needs a subset-minimal core, and the budget ran out before every member was tested"
		default:
			pr, reason, err := buildProof(req, ex.Core, core, io, led, src)
			if err != nil {
				return err
			}
			ex.Proof, why = pr, reason
		}
	}
	ex.Narrative = narrate(ex.Core, ex.Proof)
	if ex.Proof != nil {
		ex.AchievedMode = "proof"
	}
	var reasons []string
	if ex.Classification == "" {
		reasons = append(reasons, "the classification probes did not decide, so the core covers the whole stage")
	}
	if core.reduction != "subset_minimal" && why == "" {
		reasons = append(reasons, "the core is "+core.reduction+": the budget ran out before every member was tested")
	}
	if why != "" {
		reasons = append(reasons, why)
	}
	if ex.Narrative.DerivationStatus != "complete" && why == "" {
		reasons = append(reasons, narrativeReason(ex.Narrative.DerivationStatus))
	}
	if len(reasons) == 0 {
		ex.Status = "complete"
		return nil
	}
	ex.Status, ex.Reason = "partial", joinReasons(reasons)
	return nil
}

func narrativeReason(ds string) string {
	if ds == "structural_only" {
		return "the core members are structural constraints (an event assumption or a whole step relation): no rule reads their content, so the narrative can only say they cannot hold together"
	}
	return "no rule in the catalog closes this core from its published facts"
}

func joinReasons(rs []string) string {
	out := rs[0]
	for _, r := range rs[1:] {
		out += "; " + r
	}
	return out
}

// aggregates are the group families the probes combine.
type aggregates struct {
	domain, transition, initial, environment []*smt.Group
}

func aggregate(gs []*smt.Group) aggregates {
	var a aggregates
	for _, g := range gs {
		switch {
		case g.Stage == smt.Init:
			a.initial = append(a.initial, g)
		case g.Stage == smt.Assumption:
			a.environment = append(a.environment, g)
		case g.Role == "domain_rule":
			a.domain = append(a.domain, g)
		default:
			a.transition = append(a.transition, g)
		}
	}
	return a
}

func lits(gs ...[]*smt.Group) []*z3.Term {
	var out []*z3.Term
	for _, g := range gs {
		for _, x := range g {
			out = append(out, x.Lit)
		}
	}
	return out
}

func concat(gs ...[]*smt.Group) []*smt.Group {
	var out []*smt.Group
	for _, g := range gs {
		out = append(out, g...)
	}
	return out
}
