package report

import (
	"fmt"
	"slices"
	"strings"
)

// A limit that stops a search is named by its capKind, the name an
// undecided finding's evidence carries (docs/reports.md). Only some have
// a flag that raises them; the header and the next steps name that flag,
// so that a search stopped by --max-disk is not blamed on --max-states.

// raisedBy returns the flag that raises the limit kind in next-step
// wording ("maxStates", the option both the CLI and the MCP tools take;
// "--max-disk" and "--memory", which only the CLI has; "--gather" for a
// check a partitioned search leaves to the whole graph), or "" for a
// limit no flag raises (pairGraph, valueIteration, probabilityBracket,
// ltlAutomaton, ltlUnconfirmed).
func raisedBy(kind string) string {
	switch kind {
	case "", "maxStates", "leadsToWalk", "ltlProduct":
		// the walk and the product caps are 20 × maxStates
		return "maxStates"
	case "maxDisk":
		return "--max-disk"
	case "memory":
		return "--memory"
	case "partitioned":
		return "--gather"
	}
	return ""
}

// StopText is the header's account of what stopped the searches of a
// truncated report: one phrase per limit, in the order the run met them.
func (r *VerifyReport) StopText() string {
	kinds := r.StoppedBy
	if len(kinds) == 0 { // a report built without the record: the cap
		kinds = []string{"maxStates"}
	}
	var parts []string
	add := func(s string) {
		if !slices.Contains(parts, s) {
			parts = append(parts, s)
		}
	}
	for _, k := range kinds {
		switch raisedBy(k) {
		case "maxStates":
			add(fmt.Sprintf("searches stopped at the cap of %d runtime states", r.MaxStates))
		case "--max-disk":
			add("a spilling search stopped at the disk budget (--max-disk)")
		case "--memory":
			add("the explored graph's edges did not fit in --memory")
		case "--gather":
			add("a partitioned search holds no whole graph for the checks that need it (--gather)")
		default:
			add("a search stopped at a built-in limit (see its finding)")
		}
	}
	return strings.Join(parts, ", ")
}

// undecidedSteps is the next step of every group of undecided findings
// that the same flag would decide, read off their evidence's capKind:
// raising maxStates does not help a search the disk budget stopped.
func undecidedSteps(checks []Check, maxStates int) []string {
	byFlag := map[string][]string{}
	for i := range checks {
		for _, f := range checks[i].Findings {
			if !f.Undecided() {
				continue
			}
			kind, _ := f.Evidence.Get("capKind").(string)
			flag := raisedBy(kind)
			if !slices.Contains(byFlag[flag], f.Code) {
				byFlag[flag] = append(byFlag[flag], f.Code)
			}
		}
	}
	var out []string
	for _, flag := range []string{"maxStates", "--max-disk", "--memory", "--gather", ""} {
		codes := byFlag[flag]
		if len(codes) == 0 {
			continue
		}
		slices.Sort(codes)
		list := strings.Join(codes, ", ")
		switch flag {
		case "maxStates":
			out = append(out, fmt.Sprintf("Raise maxStates (now %d) and re-run: %s were not decided", maxStates, list))
		case "--gather":
			out = append(out, fmt.Sprintf("Re-run with --gather (worker 0 holds the graph) or in one process: %s need the whole graph", list))
		case "":
			out = append(out, fmt.Sprintf("Follow the advice of the undecided findings (%s): raising maxStates would not decide them", list))
		default:
			out = append(out, fmt.Sprintf("Raise %s and re-run: %s were not decided", flag, list))
		}
	}
	return out
}
