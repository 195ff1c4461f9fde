package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	goruntime "runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/fcstm/decide"
	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/verify"
)

// isFCSTM reports whether a model file is FCSTM (by its extension).
func isFCSTM(path string) bool { return strings.EqualFold(filepath.Ext(path), ".fcstm") }

// jsonOnlyFlags are the verify flags that do not reach FCSTM models: an
// FCSTM model is linted and searched (with --workers and the spill flags
// as a JSON model's exploration), with no JSON-only check.
var jsonOnlyFlags = []string{"before-model", "state-mapping", "baseline", "hash-check", "prove", "max-permutation-events", "hash-spec",
	"max-findings", "progress"}

// jsonOnlyRefusal is the refusal of a JSON-only flag, or "".
func jsonOnlyRefusal(cmd *cobra.Command) string {
	if f := setFlag(cmd, jsonOnlyFlags...); f != "" {
		return f + " applies to JSON models only, not to FCSTM models"
	}
	return ""
}

// verifyFCSTM lints an FCSTM model, searches it (opts.MaxStates states at
// most, opts.Workers goroutines, spilling past spf's budget) or answers
// the query of qf, and writes the report.
func verifyFCSTM(cmd *cobra.Command, out outputFlags, stdout, stderr io.Writer, path string, opts verify.Options, spf *spillFlags, qf verifyQueryFlags) error {
	if msg := jsonOnlyRefusal(cmd); msg != "" {
		return refuse(out, stdout, stderr, "BAD_OPTION", msg)
	}
	// A query's layered search runs on one goroutine, in memory.
	if f := setFlag(cmd, "workers", "memory", "spill-dir", "max-disk"); f != "" && qf.given() {
		return refuse(out, stdout, stderr, "BAD_OPTION", f+" has no effect with -q/--check: the query's search runs on one goroutine, in memory (docs/fcstm.md)")
	}
	undo, err := spf.prepare(out, stdout, stderr, &opts)
	if err != nil {
		return err
	}
	defer undo()
	workers := opts.Workers
	if workers == 0 {
		workers = goruntime.NumCPU()
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
		sopts := explicit.Options{MaxStates: opts.MaxStates, Workers: workers, Spill: &opts.Spill.Spill, Done: opts.Done}
		stats, err := explicit.Verify(res, sopts)
		if err != nil {
			return refuse(out, stdout, stderr, "SPILL_FAILED", fmt.Sprintf("the search could not spill to disk: %v", err))
		}
		opts.Spill.Stats = stats
		reportSpill(stderr, opts.Spill)
	case res.Model != nil:
		// The query's answer is the report's: the whole-space search
		// (FCSTM-S1) would make a capped infinite space undecided whatever
		// the query says, so verify without a query runs it.
		res.Report.MaxStates = opts.MaxStates
		answers, code, msg, err := qf.answer(inputReader(cmd), res.Model, opts.MaxStates)
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
