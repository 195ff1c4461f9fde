package report

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"unicode"
)

// Location places a finding in a source file for SARIF: a region from
// Line:Col to EndLine:EndCol (exclusive; zero when only the start is
// known).
type Location struct {
	URI             string // the file's path, as typed (SARIF gets it as a URI)
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
	return sarifEnvelope(tool, rules, results)
}

// SARIFRule documents a rule of a log SARIFLog builds.
type SARIFRule struct {
	ID          string // the code its results carry
	Title       string // a few words; the rule's name is their PascalCase form
	Description string // what a result of the rule means, in full sentences
	HelpURI     string // the manual's section on the rule
}

// SARIFResult is a result of a log SARIFLog builds.
type SARIFResult struct {
	RuleID     string
	Level      string // "error", "warning" or "note"
	Message    string
	Location   Location
	Properties Obj // nil for none
}

// SARIFLog renders results of analyses other than the checks of a report
// (inspect's diagnostics) as a SARIF 2.1.0 log with one run: a rule per
// entry of rules, the results with their locations. URIs, regions and
// the run's envelope are the ones SARIF gives the checks' findings.
func SARIFLog(tool SARIFTool, rules []SARIFRule, results []SARIFResult) Obj {
	ruleObjs := make([]Obj, 0, len(rules))
	ruleIndex := map[string]int{}
	for _, r := range rules {
		ruleIndex[r.ID] = len(ruleObjs)
		rule := O("id", r.ID)
		if n := pascalCase(r.Title); n != r.ID {
			rule = append(rule, KV{"name", n})
		}
		help := fmt.Sprintf("**%s** (`%s`): %s\n\nSee [the manual](%s) for an example and how to suppress it.", r.Title, r.ID, r.Description, r.HelpURI)
		ruleObjs = append(ruleObjs, append(rule, O(
			"shortDescription", O("text", r.Title),
			"fullDescription", O("text", r.Description),
			"help", O("text", r.Description+" See "+r.HelpURI, "markdown", help),
			"helpUri", r.HelpURI)...))
	}
	resultObjs := make([]Obj, 0, len(results))
	for _, r := range results {
		o := O("ruleId", r.RuleID)
		if i, ok := ruleIndex[r.RuleID]; ok {
			o = append(o, KV{"ruleIndex", i})
		}
		o = append(o, O("level", r.Level, "message", O("text", r.Message), "locations", []Obj{sarifLocation(r.Location)})...)
		if r.Properties != nil {
			o = append(o, KV{"properties", r.Properties})
		}
		resultObjs = append(resultObjs, o)
	}
	return sarifEnvelope(tool, ruleObjs, resultObjs)
}

// sarifEnvelope is the log of one run of the stateproof driver.
func sarifEnvelope(tool SARIFTool, rules, results []Obj) Obj {
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
	rule := O("id", code)
	// SARIF wants name to be an identifier a user understands, and not
	// the id (SARIF1001): the check's title in PascalCase.
	if n := pascalCase(name); n != code {
		rule = append(rule, KV{"name", n})
	}
	return append(rule, O(
		"shortDescription", O("text", title),
		"fullDescription", O("text", what),
		"help", O("text", what+" See "+uri, "markdown", help),
		"helpUri", uri,
		"properties", O("check", checkID))...)
}

// pascalCase joins the words of title, each capitalised: "Deadlock/Liveness
// Regression" is "DeadlockLivenessRegression", "MODEL_INVALID" is
// "ModelInvalid".
func pascalCase(title string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(title, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if strings.ToUpper(w) == w {
			w = strings.ToLower(w) // an upper-case word: only its first letter stays
		}
		r := []rune(w)
		b.WriteString(string(unicode.ToUpper(r[0])) + string(r[1:]))
	}
	return b.String()
}

// sarifURI is path as the URI reference SARIF requires (RFC 3986): an
// absolute path a file:// URI, a relative one with forward slashes and
// percent-encoded (spaces, '#', '%', non-ASCII), which code scanning
// resolves against the repository root.
func sarifURI(path string) string {
	if path == "" {
		return ""
	}
	slashed := filepath.ToSlash(path)
	if filepath.IsAbs(path) {
		if !strings.HasPrefix(slashed, "/") {
			slashed = "/" + slashed // a Windows drive: file:///C:/...
		}
		return (&url.URL{Scheme: "file", Path: slashed}).String()
	}
	// url.URL writes "./" before a first segment with a colon, which
	// would otherwise read as a scheme.
	return (&url.URL{Path: slashed}).String()
}

// sarifLocation is a physical location with a region that has both ends.
func sarifLocation(l Location) Obj {
	line, col := max(l.Line, 1), max(l.Col, 1)
	endLine, endCol := l.EndLine, l.EndCol
	if endLine < line || endLine == line && endCol <= col {
		endLine, endCol = line, col+1
	}
	region := O("startLine", line, "startColumn", col, "endLine", endLine, "endColumn", endCol)
	return O("physicalLocation", O("artifactLocation", O("uri", sarifURI(l.URI)), "region", region))
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
