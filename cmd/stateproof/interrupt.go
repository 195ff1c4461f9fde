package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/verify"
)

// exitInterrupted is the exit status of a run stopped by SIGINT, SIGTERM
// or SIGHUP (128 + SIGINT's number, as shells report Ctrl-C): no report
// is written (docs/reports.md#exit-codes).
const exitInterrupted = 130

// stopGrace is how long a stopped run may take to unwind (searches
// stopped, local workers waited for, spill files removed) before the
// process exits regardless: a solver call does not always stop when
// asked.
const stopGrace = 10 * time.Second

// errStopped is a report not written because the run was stopped.
var errStopped = errors.New("stopped: no report written")

// A halt stops a verify run on SIGINT, SIGTERM or SIGHUP. The searches
// are stopped (verify.Options.Done) and the command's context is
// cancelled (local workers get the signal, a partitioned worker leaves
// its peers), then the run unwinds as usual: its spill files are removed
// only once the search that uses them has returned. No report is
// written once the signal came, so nothing appears after "stopped"; a
// signal that comes after the report was written changes nothing.
type halt struct {
	mu      sync.Mutex
	sig     os.Signal // the signal that stopped the run; nil while none
	written bool      // the report is out: a signal no longer stops the run
	force   []func()  // what to undo when the run does not unwind in time
	done    chan struct{}
	cancel  context.CancelCauseFunc
}

// stopSignal is the cause of a context cancelled by a halt.
type stopSignal struct{ sig os.Signal }

func (s stopSignal) Error() string { return s.sig.String() }

// signalOf is the signal that cancelled ctx, or SIGTERM when ctx was
// cancelled otherwise.
func signalOf(ctx context.Context) os.Signal {
	var s stopSignal
	if errors.As(context.Cause(ctx), &s) {
		return s.sig
	}
	return syscall.SIGTERM
}

// interruptible wraps verify's RunE with a halt: opts.Done, out's report
// gate and spf's forced clean-up are the halt's for the run.
func interruptible(run func(*cobra.Command, []string) error, opts *verify.Options, out *outputFlags, spf *spillFlags, stderr io.Writer) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		ctx, cancel := context.WithCancelCause(cmd.Context())
		h := &halt{done: make(chan struct{}), cancel: cancel}
		cmd.SetContext(ctx)
		opts.Done, out.halt, spf.halt = h.done, h, h
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		finished := make(chan struct{})
		go h.watch(sigs, finished, processOf(cmd).exiting, stderr)
		err := run(cmd, args)
		signal.Stop(sigs)
		close(finished)
		cancel(nil)
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.sig == nil {
			return err
		}
		fmt.Fprintf(stderr, "stateproof: %v: stopped; no report written (docs/reports.md#exit-codes)\n", h.sig)
		return &exitError{exitInterrupted}
	}
}

// watch waits for a signal, stops the run, and ends the process when the
// run has not unwound within stopGrace (only when the process ends with
// the command: in-process runs are left to finish).
func (h *halt) watch(sigs <-chan os.Signal, finished <-chan struct{}, exiting bool, stderr io.Writer) {
	var s os.Signal
	select {
	case s = <-sigs:
	case <-finished:
		return
	}
	h.mu.Lock()
	if h.written {
		h.mu.Unlock()
		return // the report is out: the run is ending on its own
	}
	h.sig = s
	close(h.done)
	h.cancel(stopSignal{s})
	h.mu.Unlock()
	if !exiting {
		return
	}
	select {
	case <-finished:
	case <-time.After(stopGrace):
		h.mu.Lock() // held to the end: no report now
		for _, f := range h.force {
			f()
		}
		fmt.Fprintf(stderr, "stateproof: %v: stopped (the run did not unwind within %s); no report written\n", s, stopGrace)
		os.Exit(exitInterrupted)
	}
}

// onForce adds what to undo when the process must exit before the run
// unwound (the spill directory).
func (h *halt) onForce(f func()) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.force = append(h.force, f)
}

// write writes a report unless the run was stopped: the check and the
// write are one step, so a signal comes either before (no report) or
// after (the report stands, the signal is ignored).
func (h *halt) write(f func() error) error {
	if h == nil {
		return f()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sig != nil {
		return errStopped
	}
	if err := f(); err != nil {
		return err
	}
	h.written = true
	return nil
}

// write writes a report as writeOutput does, through the run's halt.
func (o outputFlags) write(stdout io.Writer, data []byte) error {
	return o.halt.write(func() error { return writeOutput(o.out, stdout, data) })
}
