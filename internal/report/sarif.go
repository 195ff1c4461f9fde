package report

// SARIF 2.1.0 output, so that code-scanning tools (CI annotations, review
// bots) show findings on the lines of the model file.

// Location is where a finding points in an input file (1-based).
type Location struct {
	URI       string
	Line, Col int
}

// SARIF renders the findings of checks (and the extra top-level findings)
// as a SARIF 2.1.0 log with one run. locate places each finding.
func SARIF(version string, checks []Check, extra []Finding, locate func(*Finding) Location) Obj {
	var rules []Obj
	ruleIndex := map[string]int{}
	var results []Obj
	add := func(checkID, checkName string, f *Finding) {
		if _, ok := ruleIndex[f.Code]; !ok {
			ruleIndex[f.Code] = len(rules)
			name := checkName
			if name == "" {
				name = f.Code
			}
			rules = append(rules, O("id", f.Code, "name", f.Code, "shortDescription", O("text", name),
				"properties", O("check", checkID)))
		}
		loc := locate(f)
		region := O("startLine", max(loc.Line, 1), "startColumn", max(loc.Col, 1))
		props := O("check", checkID)
		if f.HasPath || len(f.Path) > 0 {
			props = append(props, KV{"path", FormatPath(f.Path)})
		}
		if f.Target != nil {
			props = append(props, KV{"target", f.Target})
		}
		results = append(results, O(
			"ruleId", f.Code, "ruleIndex", ruleIndex[f.Code], "level", sarifLevel(f),
			"message", O("text", f.Message),
			"locations", []Obj{O("physicalLocation", O("artifactLocation", O("uri", loc.URI), "region", region))},
			"properties", props))
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
	driver := O("name", "stateproof", "version", version, "rules", rules)
	return O(
		"$schema", "https://json.schemastore.org/sarif-2.1.0.json",
		"version", "2.1.0",
		// Columns count Unicode code points (jsonmodel.Locate); the run
		// completed, whatever it found.
		"runs", []Obj{O("tool", O("driver", driver), "invocations", []Obj{O("executionSuccessful", true)},
			"columnKind", "unicodeCodePoints", "results", results)},
	)
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
