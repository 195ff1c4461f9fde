package bmc

import (
	"github.com/stateproof/stateproof/internal/trace"
)

// Schema is the report contract id of `stateproof bmc --json`.
const Schema = "stateproof/bmc/v1"

// ExitCode maps an outcome to the process exit code (docs/architecture.md): 0 holds
// or witness found, 1 negative verdict, 3 inconclusive, and 4 whenever the
// replay disagreed, whatever the outcome.
func ExitCode(outcome string, replayOK bool) int {
	if !replayOK {
		return 4
	}
	switch outcome {
	case "witness_found", "property_satisfied":
		return 0
	case "property_violated", "no_witness":
		return 1
	}
	return 3
}

// Incomplete reports whether an outcome is inconclusive for want of an
// answer (the `incomplete` flag).
func Incomplete(outcome string) bool {
	switch outcome {
	case "incomplete", "feasibility_unknown", "feasibility_timeout", "unknown", "timeout":
		return true
	}
	return false
}

// Report is everything `stateproof bmc` says about one check.
type Report struct {
	ModelPath, QueryPath string
	Query                string // canonical query text
	Result               *Result
	Replay               *trace.Replay // nil without a model
}

// ExitCode of the report.
func (rep *Report) ExitCode() int {
	return ExitCode(rep.Result.Outcome, rep.Replay == nil || rep.Replay.OK())
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func stageJSON(s Stage) map[string]any {
	var elapsed any
	if s.ElapsedMS != nil {
		elapsed = *s.ElapsedMS
	}
	origin := s.Origin
	if origin == "" {
		// A solve that stopped before its main check never set the
		// stages: they were not checked.
		origin = "not_checked"
	}
	return map[string]any{"status": nullable(s.Status), "origin": origin, "reason": nullable(s.Reason), "elapsed_ms": elapsed}
}

func (r *Result) verdictJSON() map[string]any {
	var sat any
	if r.Satisfied != nil {
		sat = *r.Satisfied
	}
	return map[string]any{
		"property_satisfied":   sat,
		"witness_found":        r.Outcome == "witness_found",
		"counterexample_found": r.Outcome == "property_violated",
		"incomplete":           Incomplete(r.Outcome),
		"outcome":              r.Outcome,
	}
}

func (r *Result) propertyJSON() map[string]any {
	p := map[string]any{"kind": r.Kind.String(), "polarity": r.Polarity.String(), "bound": r.Bound, "case_label": nil, "response_window": nil}
	if r.CaseLabel != "" {
		p["case_label"] = r.CaseLabel
	}
	if r.Window > 0 {
		p["response_window"] = r.Window
	}
	if r.Fair != nil {
		// Only with a fair clause: every other report stays as it was.
		p["fair"] = r.Fair
	}
	return p
}

// JSON renders the report as shapes it (maps, so that encoding sorts
// the keys recursively).
func (rep *Report) JSON() map[string]any {
	r := rep.Result
	res := r.verdictJSON()
	var incElapsed any
	if r.IncompleteElapsedMS != nil {
		incElapsed = *r.IncompleteElapsedMS
	}
	var timeout any
	if r.TimeoutMS > 0 {
		timeout = r.TimeoutMS
	}
	diags := r.Diagnostics
	if diags == nil {
		diags = []string{}
	}
	sites := r.ErrorSites
	if sites == nil {
		sites = []string{}
	}
	hasTail := r.Trace != nil && r.Trace.Role == "incomplete_suffix"
	refStatus, refReason, refChecks, expl := r.refinementJSON()
	for k, v := range map[string]any{
		"node": "bmc_solve_result", "kind": r.Kind.String(), "polarity": r.Polarity.String(),
		"status": r.Status, "reason": nullable(r.Reason), "elapsed_ms": r.ElapsedMS, "timeout_ms": timeout,
		"has_model":         r.Status == "sat",
		"incomplete_status": nullable(r.IncompleteStatus), "incomplete_reason": nullable(r.IncompleteReason),
		"incomplete_elapsed_ms": incElapsed, "has_incomplete_model": hasTail,
		"total_elapsed_ms": r.TotalElapsedMS, "available_model_roles": r.ModelRoles(), "diagnostics": diags,
		"invisible_error_sites": sites,
		"solved_bound":          r.SolvedBound, "symbol_count": r.Symbols,
		"feasibility": map[string]any{
			"kernel": stageJSON(r.Feasibility.Kernel), "initialization": stageJSON(r.Feasibility.Initialization),
			"assumptions": stageJSON(r.Feasibility.Assumptions), "infeasible_stage": nullable(r.Feasibility.InfeasibleStage),
			"localization_status": r.Feasibility.LocalizationStatus,
			"refinement_status":   refStatus, "refinement_reason": refReason, "refinement_checks": refChecks,
			"explanation": expl,
		},
	} {
		res[k] = v
	}
	if d := r.EveryDepth; d != nil {
		// Only with the note: every other report stays as it was.
		res["every_depth"] = map[string]any{"engine": "explicit", "states": d.States, "diameter": d.Diameter}
	}
	out := map[string]any{
		"schema":    Schema,
		"input":     map[string]any{"model_path": rep.ModelPath, "query_path": nullable(rep.QueryPath), "query": rep.Query},
		"property":  r.propertyJSON(),
		"result":    res,
		"witness":   nil,
		"replay":    nil,
		"exit_code": rep.ExitCode(),
	}
	if r.Trace != nil {
		out["witness"] = rep.witnessJSON()
	}
	if rep.Replay != nil {
		out["replay"] = replayJSON(rep.Replay)
	}
	return out
}

func varsJSON(vs []trace.Var) map[string]any {
	m := make(map[string]any, len(vs))
	for _, v := range vs {
		m[v.Name] = v.Value
	}
	return m
}

func (rep *Report) witnessJSON() map[string]any {
	r, tr := rep.Result, rep.Result.Trace
	frames := make([]any, len(tr.Frames))
	for i, f := range tr.Frames {
		frames[i] = map[string]any{"index": f.Index, "state_id": f.StateID, "state": nullable(f.State),
			"sentinel": nullable(f.Sentinel), "terminated": f.Terminated, "vars": varsJSON(f.Vars)}
	}
	steps := make([]any, len(tr.Steps))
	for i, s := range tr.Steps {
		steps[i] = map[string]any{
			"index": s.Index, "source_frame": s.SourceFrame, "target_frame": s.TargetFrame,
			"case_label": s.CaseLabel, "case_kind": s.CaseKind, "progress": s.Progress,
			"source_state": s.SourceState, "target_state": s.TargetState, "delta": s.Delta, "gamma": s.Gamma,
			"input_events": eventsJSON(s.InputEvents), "event_reads": eventsJSON(s.EventReads),
			"abstract_calls": callsJSON(s.AbstractCalls), "consumed_events": s.Consumed, "unconsumed_events": s.Unconsumed,
		}
	}
	verdict := r.verdictJSON()
	if tr.Role == "incomplete_suffix" {
		verdict["outcome"] = "incomplete"
	}
	var incElapsed any
	if r.IncompleteElapsedMS != nil {
		incElapsed = *r.IncompleteElapsedMS
	}
	w := map[string]any{
		"model_role": tr.Role, "verdict": verdict, "property": r.propertyJSON(),
		"solver": map[string]any{"model_status": "sat", "primary_status": r.Status, "incomplete_status": nullable(r.IncompleteStatus),
			"primary_reason": nil, "incomplete_reason": nil, "primary_elapsed_ms": r.ElapsedMS, "incomplete_elapsed_ms": incElapsed},
		"initial":        map[string]any{"mode": tr.Initial.Mode, "state": nullable(tr.Initial.State), "sentinel": nullable(tr.Initial.Sentinel), "vars": varsJSON(tr.Initial.Vars)},
		"frames":         frames,
		"steps":          steps,
		"property_frame": intOrNil(r.PropertyFrame),
		"diagnostics":    []string{},
	}
	if r.LoopStart != nil {
		w["loop_start"] = *r.LoopStart
	}
	return w
}

func eventsJSON(es []trace.InputEvent) []any {
	out := make([]any, len(es))
	for i, e := range es {
		out[i] = map[string]any{"path": e.Path, "reason": e.Reason, "model_value": e.ModelValue}
	}
	return out
}

func callsJSON(cs []trace.Call) []any {
	out := make([]any, len(cs))
	for i, c := range cs {
		out[i] = map[string]any{"ordinal": c.Ordinal, "action_name": c.ActionName, "stage": c.Stage, "role": c.Role,
			"state": c.State, "active_leaf": c.ActiveLeaf, "named_ref": nullable(c.NamedRef), "snapshot": varsJSON(c.Snapshot)}
	}
	return out
}

func intOrNil(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func replayJSON(rp *trace.Replay) map[string]any {
	frames := make([]any, len(rp.Frames))
	for i, f := range rp.Frames {
		frames[i] = map[string]any{"index": f.Index, "state": f.State, "terminated": f.Terminated, "vars": varsJSON(f.Vars)}
	}
	steps := make([]any, len(rp.Steps))
	for i, s := range rp.Steps {
		in := s.InputEvents
		if in == nil {
			in = []string{}
		}
		steps[i] = map[string]any{"index": s.Index, "input_events": in, "consumed_events": s.Consumed,
			"unconsumed_events": s.Unconsumed, "abstract_calls": callsJSON(s.AbstractCalls), "delta": s.Delta}
	}
	mm := make([]any, len(rp.Mismatches))
	for i, m := range rp.Mismatches {
		var tol any
		if m.Tolerance != nil {
			tol = *m.Tolerance
		}
		mm[i] = map[string]any{"path": m.Path, "expected": m.Expected, "actual": m.Actual, "message": m.Message, "tolerance": tol}
	}
	// "confirms" says what ok vouches for: the runtime reproduces the
	// decoded trace; the verdict rests on the solver and the query.
	return map[string]any{"model_role": rp.Role, "ok": rp.OK(), "confirms": "trace", "runtime_trace": map[string]any{"frames": frames, "steps": steps}, "mismatches": mm}
}
