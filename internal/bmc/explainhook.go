package bmc

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// Check is the answer of one budgeted satisfiability check. Ran is false
// when the shared budget was already exhausted and the check was not made.
type Check struct {
	Status    string // sat, unsat, unknown, timeout ("" when not run)
	Reason    string
	ElapsedMS float64
	Ran       bool
}

// ExplainRequest is what an explainer of an infeasible scenario needs: the
// tracked groups (in Enc), the query and system they came from, where the
// staged solve lost satisfiability, and a check that spends the solve's
// one monotonic budget (docs/queries.md), so explanation probes cannot outlive
// --timeout-ms.
type ExplainRequest struct {
	Mode        string // formal or proof
	Sys         *sts.System
	Query       *query.Query
	Enc         *smt.Encoding
	Feasibility Feasibility
	Check       func(lits []*z3.Term) (Check, error)
}

// RefinementCheck is one row of feasibility.refinement_checks.
type RefinementCheck struct {
	Name, Status, Reason string
	ElapsedMS            float64
}

// Explanation is a built explanation: its JSON object and its text section.
type Explanation interface {
	JSON() map[string]any
	Text() string
}

// Refinement is the explanation ledger of a solve: the status and
// reason mirror the explanation's; Explanation is nil when none was built.
type Refinement struct {
	Status, Reason string
	Checks         []RefinementCheck
	Explanation    Explanation
}

// Explainer builds the explanation of an infeasible scenario.
type Explainer func(req *ExplainRequest) (*Refinement, error)

// explain fills r.Refinement when an explanation was requested: not_needed
// for a feasible scenario, the explainer's ledger for an infeasible one,
// and an undecided status (no explanation) when feasibility is unknown.
func (s *session) explain(r *Result, opts Options) error {
	switch r.Feasibility.Assumptions.Status {
	case "sat":
		r.Refinement = &Refinement{Status: "not_needed"}
		return nil
	case "unsat":
	default:
		st := r.Feasibility.Assumptions.Status
		if st != "unknown" {
			st = "timeout"
		}
		if r.Status == "unknown" || r.Status == "timeout" {
			st = r.Status
		}
		r.Refinement = &Refinement{Status: st, Reason: "the scenario's feasibility was not decided, so there is nothing to explain"}
		return nil
	}
	if opts.Explainer == nil {
		return fmt.Errorf("bmc: --explain %s requested but no explainer is wired", opts.Explain)
	}
	req := &ExplainRequest{Mode: opts.Explain, Sys: s.p.sys, Query: s.p.q, Enc: s.p.enc, Feasibility: r.Feasibility,
		Check: func(lits []*z3.Term) (Check, error) {
			c, err := s.check(s.p.enc.Solver, lits)
			return Check{Status: c.status, Reason: c.reason, ElapsedMS: c.elapsed, Ran: c.ran}, err
		}}
	ref, err := opts.Explainer(req)
	if err != nil {
		return fmt.Errorf("bmc: explanation: %w", err)
	}
	r.Refinement = ref
	return nil
}

// refinementJSON renders the ledger fields of `feasibility`.
func (r *Result) refinementJSON() (status string, reason any, checks []any, expl any) {
	checks = []any{}
	if r.Refinement == nil {
		return "not_requested", nil, checks, nil
	}
	for _, c := range r.Refinement.Checks {
		checks = append(checks, map[string]any{"name": c.Name, "status": c.Status, "reason": nullable(c.Reason), "elapsed_ms": c.ElapsedMS})
	}
	if r.Refinement.Explanation != nil {
		expl = r.Refinement.Explanation.JSON()
	}
	return r.Refinement.Status, nullable(r.Refinement.Reason), checks, expl
}
