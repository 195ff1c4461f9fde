package main

import (
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/fcstm/decide"
	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/report"
)

// isFCSTM reports whether a model file is FCSTM (by its extension).
func isFCSTM(path string) bool { return strings.EqualFold(filepath.Ext(path), ".fcstm") }

// jsonOnlyFlags are the verify flags that do not reach FCSTM models: an
// FCSTM model is linted and searched on one goroutine, in memory, with no
// JSON-only check.
var jsonOnlyFlags = []string{"before-model", "state-mapping", "baseline", "hash-check", "prove", "max-permutation-events", "hash-spec",
	"workers", "max-findings", "memory", "spill-dir", "max-disk", "progress"}

// verifyFCSTM lints an FCSTM model, searches it (at most maxStates
// states), answers the query of qf if any, and writes the report.
func verifyFCSTM(cmd *cobra.Command, out outputFlags, stdout, stderr io.Writer, path string, maxStates int, qf verifyQueryFlags) error {
	for _, name := range jsonOnlyFlags {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			return refuse(out, stdout, stderr, "BAD_OPTION", "--"+name+" applies to JSON models only, not to FCSTM models")
		}
	}
	if err := report.CheckMaxStates(maxStates); err != nil {
		return refuse(out, stdout, stderr, "BAD_OPTION", optionMessage(err))
	}
	res, err := lint.Check(path, model.ReaderOptions(inputReader(cmd)))
	if err != nil {
		if errors.Is(err, lint.ErrUnreadable) {
			return refuse(out, stdout, stderr, "INPUT_UNREADABLE", err.Error())
		}
		return err
	}
	switch {
	case !qf.given():
		explicit.Verify(res, maxStates)
	case res.Model != nil:
		// The query's answer is the report's: the whole-space search
		// (FCSTM-S1) would make a capped infinite space undecided whatever
		// the query says, so verify without a query runs it.
		res.Report.MaxStates = maxStates
		answers, code, msg, err := qf.answer(inputReader(cmd), res.Model, maxStates)
		if err != nil {
			return err
		}
		if msg != "" {
			return refuse(out, stdout, stderr, code, msg)
		}
		res.Report.Queries = answers
		res.Report.Checks = append(res.Report.Checks, decide.Check(answers))
	}
	return emitVerifyAt(out, stdout, path, res.Report, res.Locator(), fcstmPicture(path, res.Model))
}
