package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/inspect"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/z3"
)

func newInspectCmd(stdout, stderr io.Writer) *cobra.Command {
	var format, ignore string
	var useSMT, search bool
	var timeoutMS, maxStates int
	th := inspect.DefaultThresholds()
	cmd := &cobra.Command{
		Use:   "inspect MODEL.fcstm [--format text|json|sarif] [--ignore CODE,...] [--smt] [--search [--max-states N]] [--timeout-ms N]",
		Short: "Report design-health diagnostics on an FCSTM model, with pyfcstm's codes",
		Long: `inspect loads an FCSTM model and reports design-health diagnostics: states
no run can enter, events nothing triggers, variables that never matter, constant
guards, self-assignments, numeric hazards of the C/C++ targets. Each diagnostic
has pyfcstm's code name, a severity, a span, the basis it was decided on and a
refs payload with pyfcstm's field names (docs/inspect.md lists the codes, and
those not reported yet).

--ignore drops codes; a comment "// stateproof:ignore CODE reason" drops a code
on its line, or inside the state declared on its line. Dropped diagnostics are
counted as suppressed.

--smt adds the SMT-backed codes (W_DEAD_GUARD, W_GUARD_TAUTOLOGY,
W_FORCED_GUARD_UNSAT, W_EFFECT_SMT_NO_OP), decided by Z3 over integer
expressions, each question within --timeout-ms (default 2000); a question
without an answer is listed as undecided, never reported as a finding. It
needs libz3.

--search decides W_UNREACHABLE_STATE for the leaves the structure lets a run
enter by searching every configuration the model reaches from the cold start
(the search of verify), storing at most --max-states (default 100000) within
--timeout-ms; a leaf no configuration rests in is reported with basis search and
the number of configurations searched. A search that stops at the cap or the
budget claims nothing and is listed as undecided.

--deep-hierarchy-threshold (default 6), --large-composite-threshold (default
12) and --var-to-leaf-ratio-threshold (default 2.0) are the limits beyond which
W_DEEP_HIERARCHY, W_LARGE_COMPOSITE and W_HIGH_VAR_TO_LEAF_RATIO are reported
(pyfcstm's defaults).

--format sarif writes a SARIF 2.1.0 log (for code scanning): a rule per code
reported, with its description and a link to its section of docs/inspect.md.

Exit status: 0 no error-severity diagnostic; 1 there is one; 2 the model does
not load (its load errors are printed as diagnostics) or the usage is wrong.`,
		Example: `  stateproof inspect examples/fcstm/door.fcstm
  stateproof inspect --format json model.fcstm
  stateproof inspect --format sarif model.fcstm > inspect.sarif
  stateproof inspect --search model.fcstm
  stateproof inspect --ignore W_LEAF_NO_OUTGOING_TRANSITION,W_UNUSED_EVENT model.fcstm`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" && format != "sarif" {
				return fmt.Errorf("--format must be text, json or sarif (got %q)", format)
			}
			codes, err := inspect.ParseIgnore(ignore)
			if err != nil {
				return fmt.Errorf("--ignore: %v", err)
			}
			if cmd.Flags().Changed("timeout-ms") && (!useSMT && !search || timeoutMS < 1) {
				return fmt.Errorf("--timeout-ms needs --smt or --search and a value >= 1 (got %d)", timeoutMS)
			}
			if cmd.Flags().Changed("max-states") && (!search || maxStates < 1) {
				return fmt.Errorf("--max-states needs --search and a value >= 1 (got %d)", maxStates)
			}
			if err := checkThresholds(th); err != nil {
				return err
			}
			if useSMT {
				ctx, err := z3.NewContext()
				if err != nil {
					fmt.Fprintf(stderr, "stateproof inspect: --smt: %v\n", err)
					return &exitError{code: exitInput}
				}
				ctx.Close()
			}
			res, err := inspect.File(args[0], inspect.Options{Model: model.ReaderOptions(inputReader(cmd)), Ignore: codes, SMT: useSMT, TimeoutMS: timeoutMS, Search: search, MaxStates: maxStates, Thresholds: &th})
			if err != nil {
				return err
			}
			switch format {
			case "json":
				data, err := json.MarshalIndent(res, "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintf(stdout, "%s\n", data)
			case "sarif":
				data, err := report.Indent(inspectSARIF(args[0], res))
				if err != nil {
					return err
				}
				fmt.Fprintf(stdout, "%s\n", data)
			default:
				writeInspectText(stdout, res)
			}
			switch {
			case !res.Loaded:
				return &exitError{code: exitInput}
			case res.HasError():
				return &exitError{code: exitViolated}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output `format`: text, json or sarif")
	cmd.Flags().StringVar(&ignore, "ignore", "", "comma-separated `CODES` not to report (counted as suppressed)")
	cmd.Flags().BoolVar(&useSMT, "smt", false, "also report the SMT-backed codes, decided by Z3 (needs libz3)")
	cmd.Flags().IntVar(&timeoutMS, "timeout-ms", inspect.DefaultTimeoutMS, "budget of each SMT question (with --smt) and of the search (with --search), in `milliseconds`")
	cmd.Flags().BoolVar(&search, "search", false, "also decide W_UNREACHABLE_STATE by an exhaustive search of the reachable configurations")
	cmd.Flags().IntVar(&maxStates, "max-states", inspect.DefaultMaxStates, "state cap of the search, in configurations (with --search)")
	cmd.Flags().IntVar(&th.DeepHierarchy, "deep-hierarchy-threshold", th.DeepHierarchy, "W_DEEP_HIERARCHY above this `depth` (the root's is 0)")
	cmd.Flags().IntVar(&th.LargeComposite, "large-composite-threshold", th.LargeComposite, "W_LARGE_COMPOSITE above this many direct `children`")
	cmd.Flags().Float64Var(&th.VarToLeafRatio, "var-to-leaf-ratio-threshold", th.VarToLeafRatio, "W_HIGH_VAR_TO_LEAF_RATIO above this many variables per non-pseudo leaf (`ratio`)")
	return cmd
}

// checkThresholds refuses a negative or non-finite threshold, which would
// report every model or none.
func checkThresholds(th inspect.Thresholds) error {
	switch {
	case th.DeepHierarchy < 0:
		return fmt.Errorf("--deep-hierarchy-threshold must be >= 0 (got %d)", th.DeepHierarchy)
	case th.LargeComposite < 0:
		return fmt.Errorf("--large-composite-threshold must be >= 0 (got %d)", th.LargeComposite)
	case !(th.VarToLeafRatio >= 0) || math.IsInf(th.VarToLeafRatio, 1):
		return fmt.Errorf("--var-to-leaf-ratio-threshold must be a finite number >= 0 (got %v)", th.VarToLeafRatio)
	}
	return nil
}

// writeInspectText prints one line per diagnostic, file:line:col first
// (editors jump to it), and a summary line.
func writeInspectText(w io.Writer, res *inspect.Result) {
	count := map[string]int{}
	for _, d := range res.Diagnostics {
		count[d.Severity]++
		fmt.Fprintf(w, "%s:%d:%d: %s %s: %s\n", d.File, d.Span.Line, d.Span.Column, d.Severity, d.Code, d.Message)
	}
	for _, u := range res.Undecided {
		fmt.Fprintf(w, "%s:%d:%d: undecided %s: %s\n", u.File, u.Span.Line, u.Span.Column, u.Code, u.Reason)
	}
	status := "inspected"
	if !res.Loaded {
		status = "does not load"
	}
	undecided := ""
	if len(res.Undecided) > 0 {
		undecided = fmt.Sprintf(", %d undecided", len(res.Undecided))
	}
	fmt.Fprintf(w, "%s: %s: %d error(s), %d warning(s), %d info, %d suppressed%s\n",
		res.File, status, count[inspect.SeverityError], count[inspect.SeverityWarning], count[inspect.SeverityInfo], res.Suppressed, undecided)
}

// inspectSARIF is an inspection as a SARIF log: a rule per code reported
// (its description, and its section of docs/inspect.md), a result per
// diagnostic at its span, with its basis and refs as properties.
func inspectSARIF(name string, res *inspect.Result) report.Obj {
	var rules []report.SARIFRule
	seen := map[string]bool{}
	var results []report.SARIFResult
	for _, d := range res.Diagnostics {
		if !seen[d.Code] {
			seen[d.Code] = true
			rules = append(rules, inspectRule(d.Code))
		}
		refs, err := json.Marshal(d.Refs)
		if err != nil {
			refs = []byte("{}")
		}
		s := d.Span
		results = append(results, report.SARIFResult{
			RuleID: d.Code, Level: sarifLevelOf(d.Severity), Message: d.Message,
			Location:   report.Location{URI: d.File, Line: s.Line, Col: s.Column, EndLine: s.EndLine, EndCol: s.EndColumn},
			Properties: report.O("basis", d.Basis, "refs", json.RawMessage(refs)),
		})
	}
	return report.SARIFLog(sarifTool("inspect", name), rules, results)
}

// inspectRule documents a code: the registry's description, or for a
// load error stateproof names its own way, what load errors mean.
func inspectRule(code string) report.SARIFRule {
	words := strings.ToLower(strings.ReplaceAll(code[min(2, len(code)):], "_", " "))
	title := strings.ToUpper(words[:min(1, len(words))]) + words[min(1, len(words)):]
	what := "The model does not load: " + title + " (a load error; docs/fcstm.md lists them)."
	if c, ok := inspect.Lookup(code); ok {
		what = c.Description
	}
	return report.SARIFRule{ID: code, Title: title, Description: what, HelpURI: sarifDocsBase + inspect.DocPath(code)}
}

// sarifDocsBase is where the manual a SARIF rule links to is published.
const sarifDocsBase = "https://github.com/stateproof/stateproof/blob/main/"

// sarifLevelOf maps an inspect severity onto a SARIF level.
func sarifLevelOf(severity string) string {
	switch severity {
	case inspect.SeverityError:
		return "error"
	case inspect.SeverityWarning:
		return "warning"
	}
	return "note"
}
