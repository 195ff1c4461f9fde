package report

import "fmt"

// Location places a finding in a source file for SARIF: a region from
// Line:Col to EndLine:EndCol (exclusive; zero when only the start is
// known).
type Location struct {
	URI             string
	Line, Col       int
	EndLine, EndCol int
}

// SARIFTool says who produced a SARIF log and about what.
type SARIFTool struct {
	Version string // the driver's version (the binary's build version)
	// Category tells code scanning which runs of one commit are the same
	// analysis (automationDetails.id): the command and its input, so that
	// several runs per commit coexist.
	Category string
}

// SARIF renders the findings of checks (and the extra top-level findings)
// as a SARIF 2.1.0 log with one run. locate places each finding; a
// finding's path (its counterexample) becomes a code flow, step by step.
func SARIF(tool SARIFTool, checks []Check, extra []Finding, locate func(*Finding) Location) Obj {
	var rules []Obj
	ruleIndex := map[string]int{}
	var results []Obj
	add := func(checkID, checkName string, f *Finding) {
		if _, ok := ruleIndex[f.Code]; !ok {
			ruleIndex[f.Code] = len(rules)
			rules = append(rules, sarifRule(checkID, checkName, f.Code))
		}
		loc := sarifLocation(locate(f))
		props := O("check", checkID)
		if f.HasPath || len(f.Path) > 0 {
			props = append(props, KV{"path", FormatPath(f.Path)})
		}
		if f.Target != nil {
			props = append(props, KV{"target", f.Target})
		}
		r := O("ruleId", f.Code, "ruleIndex", ruleIndex[f.Code], "level", sarifLevel(f),
			"message", O("text", f.Message), "locations", []Obj{loc})
		if len(f.Path) > 0 {
			r = append(r, KV{"codeFlows", []Obj{sarifCodeFlow(f, loc)}})
		}
		results = append(results, append(r, KV{"properties", props}))
	}
	for i := range checks {
		for j := range checks[i].Findings {
			add(checks[i].ID, checks[i].Name, &checks[i].Findings[j])
		}
	}
	for i := range extra {
		add("-", "", &extra[i])
	}
	if rules == nil {
		rules = []Obj{}
	}
	if results == nil {
		results = []Obj{}
	}
	driver := O("name", "stateproof", "version", tool.Version,
		"informationUri", "https://github.com/stateproof/stateproof", "rules", rules)
	run := O("tool", O("driver", driver), "invocations", []Obj{O("executionSuccessful", true)},
		// Columns count Unicode code points (jsonmodel.Locate); the run
		// completed, whatever it found.
		"columnKind", "unicodeCodePoints", "results", results)
	if tool.Category != "" {
		run = append(run, KV{"automationDetails", O("id", tool.Category+"/")})
	}
	return O(
		"$schema", "https://json.schemastore.org/sarif-2.1.0.json",
		"version", "2.1.0",
		"runs", []Obj{run},
	)
}

// sarifRule describes the rule of one finding code: what its check finds,
// with a link into the manual.
func sarifRule(checkID, checkName, code string) Obj {
	name := checkName
	if name == "" {
		name = code
	}
	what, uri := ruleFor(checkID, name)
	title := name
	if checkID != "-" && checkID != "" {
		title = checkID + " " + name
	}
	help := fmt.Sprintf("**%s** (`%s`): %s\n\nSee [the manual](%s) for what the check decides, a tiny model that triggers it, and how to fix or accept a finding.", title, code, what, uri)
	return O("id", code, "name", code,
		"shortDescription", O("text", title),
		"fullDescription", O("text", what),
		"help", O("text", what+" See "+uri, "markdown", help),
		"helpUri", uri,
		"properties", O("check", checkID))
}

// sarifLocation is a physical location with a region that has both ends.
func sarifLocation(l Location) Obj {
	line, col := max(l.Line, 1), max(l.Col, 1)
	endLine, endCol := l.EndLine, l.EndCol
	if endLine < line || endLine == line && endCol <= col {
		endLine, endCol = line, col+1
	}
	region := O("startLine", line, "startColumn", col, "endLine", endLine, "endColumn", endCol)
	return O("physicalLocation", O("artifactLocation", O("uri", l.URI), "region", region))
}

// sarifCodeFlow is a finding's counterexample path as one thread flow: a
// location per step, with the step's state and event, so code scanning
// shows the run step by step.
func sarifCodeFlow(f *Finding, loc Obj) Obj {
	steps := make([]Obj, 0, len(f.Path))
	for i, s := range f.Path {
		text := fmt.Sprintf("step %d: %s --%s--> %s", i+1, s.From, s.Event, s.To)
		steps = append(steps, O(
			"location", append(loc[:len(loc):len(loc)], KV{"message", O("text", text)}),
			"state", O("from", O("text", s.From), "event", O("text", s.Event), "to", O("text", s.To)),
			"executionOrder", i+1))
	}
	return O("message", O("text", "counterexample: "+FormatPath(f.Path)),
		"threadFlows", []Obj{O("locations", steps)})
}

// sarifLevel maps severities; an undecided finding is a warning that the
// check could not be completed, which SARIF spells "warning" too.
func sarifLevel(f *Finding) string {
	switch f.Severity {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}
