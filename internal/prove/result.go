package prove

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
)

// Schema is the JSON report schema of prove.
const Schema = "stateproof/prove/v1"

// Violated is the status of a property with a confirmed trace.
const Violated = "violated"

// PropResult is the outcome of one property.
type PropResult struct {
	ID, Node, Formula, Source string
	Status                    string // verified, violated, unknown
	Method                    string // triple, k-induction (k=2), houdini, spacer, bmc
	Reason                    string
	CTI                       *CTI
	Trace                     []TraceStep
	Replay                    string
	ElapsedMS                 float64
}

// NodeRSC is one node's RSC of a certificate or an inference.
type NodeRSC struct {
	Node string
	RSC  string
}

// LayerLog records what one layer did.
type LayerLog struct {
	Layer, Outcome string
	ElapsedMS      float64
	Detail         string
}

// Result is a prove report.
type Result struct {
	Input       string
	Verdict     string // proved, violated, unknown
	Props       []PropResult
	Components  []ComponentResult
	Certificate []NodeRSC
	K           int // > 0: the certificate is k-inductive, not 1-inductive
	Inferred    []NodeRSC
	InferReason string // --infer was not decided: why (Inferred is nil)
	Layers      []LayerLog
	ElapsedMS   float64

	rsc, phi []expr.Expr // the certificate and the properties it proves
	abandon  bool        // Options.Abandon, for Certificate
	contexts int         // the Z3 contexts Prove made besides the problem's
}

// cancelled marks every property not found violated undecided because the
// attempt was cancelled: a cancelled request reports no proof (a
// confirmed violation is a trace and stays).
func (r *Result) cancelled() {
	for i := range r.Props {
		if p := &r.Props[i]; p.Status != Violated {
			p.Status, p.Method, p.Reason = Unknown, "", "cancelled"
		}
	}
	r.Certificate, r.K, r.rsc, r.phi = nil, 0, nil, nil
}

// abandoned makes the open properties (every one not decided, when open
// is nil) unknown after a check that did not stop at the deadline was
// abandoned with its context.
func (r *Result) abandoned(open []int) {
	if open == nil {
		for i := range r.Props {
			open = append(open, i)
		}
	}
	for _, i := range open {
		if p := &r.Props[i]; p.Status != Violated && p.Status != Verified {
			p.Status, p.Method, p.Reason = Unknown, "", "timeout: a solver check did not stop when interrupted at the deadline and was abandoned (abandoned while solving)"
		}
	}
}

// NotLoaded is the report of a run whose budget ran out before the
// problem was loaded: unknown, no property known, the phase's timeout
// as the one layer's outcome (and as the inference's reason when infer).
// The command line and the MCP prove tool both report it.
func NotLoaded(input string, start time.Time, timeout error, infer bool) *Result {
	r := &Result{Input: input, Verdict: Unknown, ElapsedMS: ms(time.Since(start)),
		Layers: []LayerLog{{Layer: "loading", Outcome: "timeout", Detail: timeout.Error()}}}
	if infer {
		r.InferReason = timeout.Error()
	}
	return r
}

func (r *Result) finish() {
	r.Verdict = "proved"
	for _, p := range r.Props {
		switch {
		case p.Status == Violated:
			r.Verdict = "violated"
		case p.Status != Verified && r.Verdict != "violated":
			r.Verdict = "unknown"
		}
	}
	if len(r.Props) == 0 && r.InferReason != "" {
		// --infer alone: the verdict is the inference's, not the vacuous
		// "proved" of no property at all.
		r.Verdict = "unknown"
	}
}

// ExitCode is 0 when everything was proved, 1 for a confirmed violation, 3
// when something is undecided.
func (r *Result) ExitCode() int {
	switch r.Verdict {
	case "proved":
		if r.InferReason != "" {
			return 3 // the inference asked for was not decided
		}
		return 0
	case "violated":
		return 1
	}
	return 3
}

func assignmentsJSON(as []Assignment) map[string]any {
	out := map[string]any{}
	for _, a := range as {
		out[a.Name] = a.Value
	}
	return out
}

func ctiJSON(x *CTI) map[string]any {
	if x == nil {
		return nil
	}
	m := map[string]any{"node": x.Node, "transition": x.Transition, "start": x.Start, "post": assignmentsJSON(x.Post), "class": x.Class, "reason": x.Reason}
	if !x.Start {
		m["pre"] = assignmentsJSON(x.Pre)
	}
	return m
}

func traceJSON(tr []TraceStep) []any {
	out := []any{}
	for _, s := range tr {
		out = append(out, map[string]any{"node": s.Node, "transition": s.Transition, "vars": assignmentsJSON(s.Vars)})
	}
	return out
}

func rscsJSON(rs []NodeRSC) []any {
	out := []any{}
	for _, r := range rs {
		out = append(out, map[string]any{"node": r.Node, "rsc": r.RSC})
	}
	return out
}

// JSON renders the report as the stateproof/prove/v1 document.
func (r *Result) JSON() map[string]any {
	props := []any{}
	for _, p := range r.Props {
		m := map[string]any{"id": p.ID, "node": p.Node, "rsc": p.Formula, "source": p.Source, "status": p.Status,
			"method": nullable(p.Method), "reason": nullable(p.Reason), "elapsed_ms": p.ElapsedMS, "cti": ctiJSON(p.CTI)}
		if p.Trace != nil {
			m["trace"] = traceJSON(p.Trace)
			m["replay"] = p.Replay
		}
		props = append(props, m)
	}
	comps := []any{}
	for _, c := range r.Components {
		ctis := []any{}
		for i := range c.CTIs {
			ctis = append(ctis, ctiJSON(&c.CTIs[i]))
		}
		comps = append(comps, map[string]any{"nodes": c.Nodes, "status": c.Status, "ctis": ctis, "reasons": append([]string{}, c.Reasons...)})
	}
	layers := []any{}
	for _, l := range r.Layers {
		layers = append(layers, map[string]any{"layer": l.Layer, "outcome": l.Outcome, "elapsed_ms": l.ElapsedMS, "detail": l.Detail})
	}
	doc := map[string]any{"schema": Schema, "input": r.Input, "verdict": r.Verdict, "exit_code": r.ExitCode(),
		"frame_semantics": "an unassigned variable keeps its value", "properties": props, "components": comps,
		"layers": layers, "stats": statsJSON(r), "elapsed_ms": r.ElapsedMS, "certificate": nil}
	if r.Certificate != nil {
		doc["certificate"] = map[string]any{"k": max(r.K, 1), "rscs": rscsJSON(r.Certificate)}
	}
	if r.Inferred != nil {
		doc["inferred"] = rscsJSON(r.Inferred)
	}
	if r.InferReason != "" {
		doc["inferred_reason"] = r.InferReason
	}
	return doc
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// WriteText renders the report for people.
func (r *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s (%.1f ms)\n", r.Input, strings.ToUpper(r.Verdict), r.ElapsedMS)
	for _, p := range r.Props {
		fmt.Fprintf(&b, "\n  %-8s %s at %s: %s\n", p.Status, p.ID, p.Node, p.Formula)
		if p.Method != "" {
			fmt.Fprintf(&b, "           method: %s (%.1f ms)\n", p.Method, p.ElapsedMS)
		}
		if p.Reason != "" {
			fmt.Fprintf(&b, "           reason: %s\n", p.Reason)
		}
		if p.CTI != nil {
			fmt.Fprintf(&b, "           CTI (%s): %s\n", p.CTI.Class, ctiText(p.CTI))
		}
		for i, s := range p.Trace {
			fmt.Fprintf(&b, "           %2d %-10s %s %s\n", i, s.Node, assignText(s.Vars), via(s.Transition))
		}
		if p.Replay != "" {
			fmt.Fprintf(&b, "           replay: %s\n", p.Replay)
		}
	}
	if r.Certificate != nil {
		k := ""
		if r.K > 1 {
			k = fmt.Sprintf(" (%d-inductive)", r.K)
		}
		fmt.Fprintf(&b, "\n  certificate%s:\n", k)
		for _, c := range r.Certificate {
			fmt.Fprintf(&b, "    %s: %s\n", c.Node, c.RSC)
		}
	}
	if r.InferReason != "" {
		fmt.Fprintf(&b, "\n  inferred RSCs: not decided (%s)\n", r.InferReason)
	}
	if r.Inferred != nil {
		b.WriteString("\n  inferred RSCs (Houdini, re-checked by the triple rule):\n")
		for _, c := range r.Inferred {
			fmt.Fprintf(&b, "    %s: %s\n", c.Node, c.RSC)
		}
	}
	b.WriteString("\n  layers:\n")
	for _, l := range r.Layers {
		fmt.Fprintf(&b, "    %-8s %-9s %8.1f ms  %s\n", l.Layer, l.Outcome, l.ElapsedMS, l.Detail)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func via(t string) string {
	if t == "" {
		return ""
	}
	return "via " + t
}

// shownAssignments is how many variables of a state the text report
// prints: a CTI of a CHC predicate with 2,000 arguments filled two
// screens; the JSON report carries every one.
const shownAssignments = 24

func assignText(as []Assignment) string {
	parts := make([]string, 0, min(len(as), shownAssignments)+1)
	for _, a := range as[:min(len(as), shownAssignments)] {
		parts = append(parts, a.Name+"="+a.Value)
	}
	if n := len(as) - shownAssignments; n > 0 {
		parts = append(parts, fmt.Sprintf("… %d more (all in --json)", n))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func ctiText(x *CTI) string {
	if x.Start {
		return fmt.Sprintf("start %s → %s %s; %s", x.Transition, x.Node, assignText(x.Post), x.Reason)
	}
	return fmt.Sprintf("%s --%s--> %s %s; %s", assignText(x.Pre), x.Transition, x.Node, assignText(x.Post), x.Reason)
}

// LayerStat sums what one layer did in a Prove call.
type LayerStat struct {
	Layer       string
	Runs        int
	ElapsedMS   float64
	Contributed bool // its answer is the verdict's evidence
}

// Stats is the time spent per layer, in the order the layers first ran,
// and whether each contributed to the verdict: the layer that proved, or
// the bounded search that found a violation.
func (r *Result) Stats() []LayerStat {
	var out []LayerStat
	at := map[string]int{}
	for _, l := range r.Layers {
		i, ok := at[l.Layer]
		if !ok {
			i = len(out)
			at[l.Layer] = i
			out = append(out, LayerStat{Layer: l.Layer})
		}
		out[i].Runs++
		out[i].ElapsedMS += l.ElapsedMS
		out[i].Contributed = out[i].Contributed || l.Outcome == "proved" || l.Outcome == "violation"
	}
	return out
}

// WriteStats renders Stats as a table.
func (r *Result) WriteStats(w io.Writer) error {
	var b strings.Builder
	b.WriteString("\n  stats (per layer: runs, time, contributed):\n")
	for _, s := range r.Stats() {
		mark := "no"
		if s.Contributed {
			mark = "yes"
		}
		fmt.Fprintf(&b, "    %-9s %2d %10.1f ms  %s\n", s.Layer, s.Runs, s.ElapsedMS, mark)
	}
	fmt.Fprintf(&b, "    %-9s %2s %10.1f ms\n", "total", "", r.ElapsedMS)
	_, err := io.WriteString(w, b.String())
	return err
}

func statsJSON(r *Result) []any {
	out := []any{}
	for _, s := range r.Stats() {
		out = append(out, map[string]any{"layer": s.Layer, "runs": s.Runs, "elapsed_ms": s.ElapsedMS, "contributed": s.Contributed})
	}
	return out
}
