package main

import (
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/prove"
	"github.com/stateproof/stateproof/internal/report"
)

// version is the release this source is; buildVersion adds what the Go
// toolchain recorded (module version, VCS revision).
const version = "0.1.0"

// releaseVersion and releaseRevision are stamped by the release build
// (-ldflags -X, .goreleaser.yaml), which builds without VCS information;
// they are empty in every other build and never written at run time.
var releaseVersion, releaseRevision string

// sarifTool is the driver of a SARIF log written by command on inputs:
// the binary's real version, and a category per command and input so that
// code scanning keeps several runs of one commit apart.
func sarifTool(command string, inputs ...string) report.SARIFTool {
	return report.SARIFTool{Version: buildVersion(), Category: "stateproof-" + command + "/" + strings.Join(inputs, "+")}
}

// modelLocator places findings on the lines of a model file: a validation
// error at the element its JSON path names, a check finding at the
// transition, invariant, state or variable it is about, and anything else
// at the top of the file.
func modelLocator(file string, raw *jsonvalue.Value, m *jsonmodel.Model) func(*report.Finding) report.Location {
	at := func(path string) report.Location {
		if raw == nil || path == "" {
			return report.Location{URI: file, Line: 1, Col: 1}
		}
		v, _ := jsonmodel.LocateValue(raw, path)
		return report.Location{URI: file, Line: v.Pos.Line, Col: v.Pos.Col, EndLine: v.End.Line, EndCol: v.End.Col}
	}
	return func(f *report.Finding) report.Location {
		if strings.HasSuffix(f.Code, "MODEL_INVALID") {
			path, _, _ := strings.Cut(f.Message, ": ")
			return at(strings.TrimPrefix(path, "beforeModel."))
		}
		if m == nil {
			return at("")
		}
		if t, ok := f.Evidence.Get("transition").(int); ok {
			return at(m.ElementPath("transition", strconv.Itoa(t)))
		}
		switch inv := f.Evidence.Get("invariant").(type) {
		case string:
			return at(m.ElementPath("invariant", inv))
		case *jsonvalue.Value:
			if id := inv.Get("id"); id != nil {
				return at(m.ElementPath("invariant", id.Str))
			}
		}
		var target string
		switch t := f.Target.(type) {
		case string:
			target = t
		case []string:
			if len(t) > 0 {
				target = t[0]
			}
		}
		if p := m.ElementPath("state", target); p != "" {
			return at(p)
		}
		return at(m.ElementPath("variable", target))
	}
}

// bmcSARIF is the SARIF log of bmc reports: each report that does not
// hold is a result — an error for a violated property or an unreachable
// goal, a warning for one not decided — at the query file (or the model,
// for --check and --bound), with its trace as a code flow. A --bound run
// whose budget ran out while loading has no report: its skipped notes
// are a warning each, so that the log never reads as a pass.
func bmcSARIF(model, queryPath string, reports []*bmc.Report, skipped []string) report.Obj {
	at := report.Location{URI: model, Line: 1, Col: 1}
	inputs := []string{model}
	if queryPath != "" {
		at.URI = queryPath
		inputs = append(inputs, queryPath)
	}
	check := report.Check{ID: "BMC", Name: "Bounded model checking"}
	for _, r := range reports {
		code := r.ExitCode()
		if code == exitHolds {
			continue
		}
		f := report.Finding{
			Code:     "BMC_" + strings.ToUpper(r.Result.Outcome),
			Severity: report.Error,
			Message:  r.Headline() + ": " + strings.Join(strings.Fields(r.Query), " "),
		}
		if code == exitUndecided {
			f.Severity = report.Warning
			if r.Result.Status == "timeout" && r.Result.Reason != "" {
				f.Message += " (" + r.Result.Reason + ")" // the phase it ran out in
			}
		}
		if tr := r.Result.Trace; tr != nil {
			for _, s := range tr.Steps {
				f.Path = append(f.Path, report.Step{From: s.SourceState, Event: s.CaseLabel, To: s.TargetState})
			}
		}
		check.Findings = append(check.Findings, f)
	}
	if len(reports) == 0 {
		for _, s := range skipped {
			check.Findings = append(check.Findings, report.Finding{Code: "BMC_TIMEOUT", Severity: report.Warning, Message: s})
		}
	}
	return report.SARIF(sarifTool("bmc", inputs...), []report.Check{check}, nil, func(*report.Finding) report.Location { return at })
}

// proveSARIF is the SARIF log of a prove result: each property not proved
// is a result — an error when violated, with its trace as a code flow, a
// warning when not decided — at its RSC's file:line:col (the input file
// when it has none).
func proveSARIF(input string, res *prove.Result) report.Obj {
	check := report.Check{ID: "PROVE", Name: "Reachable state constraints"}
	where := map[*report.Finding]report.Location{}
	var findings []report.Finding
	var locs []report.Location
	for _, p := range res.Props {
		if p.Status == prove.Verified {
			continue
		}
		f := report.Finding{Code: "PROVE_" + strings.ToUpper(p.Status), Severity: report.Error,
			Message: p.Status + ": " + p.ID + " at " + p.Node + ": " + p.Formula}
		if p.Status != prove.Violated {
			f.Severity = report.Warning
			if p.Reason != "" {
				f.Message += " (" + p.Reason + ")"
			}
		}
		for i := 1; i < len(p.Trace); i++ {
			f.Path = append(f.Path, report.Step{From: p.Trace[i-1].Node, Event: p.Trace[i].Transition, To: p.Trace[i].Node})
		}
		findings = append(findings, f)
		locs = append(locs, sourceLocation(p.Source, input))
	}
	if len(findings) == 0 && res.Verdict == prove.Unknown {
		// Undecided before any property was known (the budget ran out
		// while loading): one warning, so that the log never reads as a
		// pass.
		why := "not decided"
		if n := len(res.Layers); n > 0 {
			why = res.Layers[n-1].Detail
		}
		findings = append(findings, report.Finding{Code: "PROVE_UNKNOWN", Severity: report.Warning, Message: "unknown: " + why})
		locs = append(locs, report.Location{URI: input, Line: 1, Col: 1})
	}
	check.Findings = findings
	for i := range check.Findings {
		where[&check.Findings[i]] = locs[i]
	}
	return report.SARIF(sarifTool("prove", input), []report.Check{check}, nil, func(f *report.Finding) report.Location { return where[f] })
}

// sourceLocation reads "file:line:col" (an RSC's source), or places the
// result at the top of input when source is not one.
func sourceLocation(source, input string) report.Location {
	rest, col, ok1 := cutLastInt(source)
	file, line, ok2 := cutLastInt(rest)
	if !ok1 || !ok2 || file == "" {
		return report.Location{URI: input, Line: 1, Col: 1}
	}
	return report.Location{URI: file, Line: line, Col: col}
}

// cutLastInt splits "a:12" into "a" and 12.
func cutLastInt(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	return s[:i], n, err == nil && n > 0
}
