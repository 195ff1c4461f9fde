package main

import (
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/cluster"
	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/verify"
)

// runFCSTM runs a verify of an FCSTM model that a scale flag asked for:
// a swarm member, or a partitioned search, whose report is the
// one-process report.
func (s *scaleFlags) runFCSTM(cmd *cobra.Command, out outputFlags, stdout, stderr io.Writer, name string, opts verify.Options, spf *spillFlags) error {
	if msg := s.conflict(); msg != "" {
		return refuse(out, stdout, stderr, "BAD_OPTION", msg)
	}
	if msg := jsonOnlyRefusal(cmd); msg != "" {
		return refuse(out, stdout, stderr, "BAD_OPTION", msg)
	}
	if err := report.CheckMaxStates(opts.MaxStates); err != nil {
		return refuse(out, stdout, stderr, "BAD_OPTION", optionMessage(err))
	}
	res, err := lint.Check(name, model.ReaderOptions(inputReader(cmd)))
	if err != nil {
		if errors.Is(err, lint.ErrUnreadable) {
			return refuse(out, stdout, stderr, "INPUT_UNREADABLE", err.Error())
		}
		return err
	}
	if s.part.active() {
		// a worker keeps its states within --memory, as a JSON model's does
		undo, err := spf.prepare(out, stdout, stderr, &opts)
		if err != nil {
			return err
		}
		defer undo()
	}
	if s.swarm != "" {
		return runSwarmFCSTM(out, stdout, stderr, res, opts, s.swarm, s.seed)
	}
	sopts := explicit.Options{MaxStates: opts.MaxStates}
	var mc *explicit.Machine
	if res.Model != nil {
		mc, err = explicit.New(res.Model)
	}
	switch {
	case res.Model == nil || err != nil:
		// nothing to explore: the report says why, as one process's does
	case s.part.local > 0:
		return s.part.runLocalOrRefuse(cmd, out, stdout, stderr, name)
	case s.part.gather:
		r, err := s.part.search(cmd, out, stdout, stderr, res.Report.ModelHash, mc, opts.MaxStates, workerSpill(cmd, opts), false, nil, nil)
		if r == nil {
			return err
		}
		sopts.Explored = r.Graph
	default:
		// the owners mark what each state shows: worker 0 gathers no state
		r, err := s.part.search(cmd, out, stdout, stderr, res.Report.ModelHash, mc, opts.MaxStates, workerSpill(cmd, opts), true, nil, mc.Marks())
		if r == nil {
			return err
		}
		sopts.Reached = fcstmReached(mc, r.Summary)
	}
	if _, err := explicit.Verify(res, sopts); err != nil {
		return err
	}
	return emitVerifyAt(out, stdout, name, res.Report, res.Locator(), fcstmPicture(name, res.Model))
}

// fcstmReached is what worker 0's summary tells the FCSTM check.
func fcstmReached(mc *explicit.Machine, s *cluster.Summary) *explicit.Reached {
	r := &explicit.Reached{Len: s.Len, Expanded: s.Expanded, Cap: s.Cap, Truncated: s.Truncated, Machine: mc, Marks: map[string]explicit.Hit{}}
	for key, h := range s.Marks {
		hit := explicit.Hit{Index: h.Index, Words: h.Words}
		for _, t := range h.Path {
			from, event, to := mc.Describe(t)
			hit.Path = append(hit.Path, explore.Step{From: from, Event: event, To: to})
		}
		r.Marks[key] = hit
	}
	return r
}
