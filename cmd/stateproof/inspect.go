package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/inspect"
)

func newInspectCmd(stdout, stderr io.Writer) *cobra.Command {
	var format, ignore string
	cmd := &cobra.Command{
		Use:   "inspect MODEL.fcstm [--format text|json] [--ignore CODE,...]",
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

Exit status: 0 no error-severity diagnostic; 1 there is one; 2 the model does
not load (its load errors are printed as diagnostics) or the usage is wrong.`,
		Example: `  stateproof inspect examples/fcstm/door.fcstm
  stateproof inspect --format json model.fcstm
  stateproof inspect --ignore W_LEAF_NO_OUTGOING_TRANSITION,W_UNUSED_EVENT model.fcstm`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return fmt.Errorf("--format must be text or json (got %q)", format)
			}
			codes, err := inspect.ParseIgnore(ignore)
			if err != nil {
				return fmt.Errorf("--ignore: %v", err)
			}
			res, err := inspect.File(args[0], inspect.Options{Model: model.ReaderOptions(inputReader(cmd)), Ignore: codes})
			if err != nil {
				return err
			}
			if format == "json" {
				data, err := json.MarshalIndent(res, "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintf(stdout, "%s\n", data)
			} else {
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
	cmd.Flags().StringVar(&format, "format", "text", "output `format`: text or json")
	cmd.Flags().StringVar(&ignore, "ignore", "", "comma-separated `CODES` not to report (counted as suppressed)")
	return cmd
}

// writeInspectText prints one line per diagnostic, file:line:col first
// (editors jump to it), and a summary line.
func writeInspectText(w io.Writer, res *inspect.Result) {
	count := map[string]int{}
	for _, d := range res.Diagnostics {
		count[d.Severity]++
		fmt.Fprintf(w, "%s:%d:%d: %s %s: %s\n", d.File, d.Span.Line, d.Span.Column, d.Severity, d.Code, d.Message)
	}
	status := "inspected"
	if !res.Loaded {
		status = "does not load"
	}
	fmt.Fprintf(w, "%s: %s: %d error(s), %d warning(s), %d info, %d suppressed\n",
		res.File, status, count[inspect.SeverityError], count[inspect.SeverityWarning], count[inspect.SeverityInfo], res.Suppressed)
}
