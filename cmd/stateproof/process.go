package main

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/z3"
)

// A process says how a command runs: as the program itself, which exits
// when the command returns, or in-process (the tests run many commands in
// one process). It rides in the command's context.
type process struct {
	// start is when the program started (see processStart): a command's --timeout-ms counts
	// from here, so the budget covers loading and start-up too.
	start time.Time
	// exiting is true when the process ends with the command: Z3 contexts
	// are then abandoned to the operating system instead of deleted
	// (deleting one costs milliseconds for nothing).
	exiting bool
}

type processKey struct{}

// withProcess puts p into ctx.
func withProcess(ctx context.Context, p process) context.Context {
	return context.WithValue(ctx, processKey{}, p)
}

// processOf is the process cmd runs in; in-process runs (no process
// recorded) start when asked and do not exit.
func processOf(cmd *cobra.Command) process {
	if p, ok := cmd.Context().Value(processKey{}).(process); ok {
		return p
	}
	return process{start: time.Now()}
}

// release frees a Z3 context at the end of a command: deleted in-process,
// abandoned when the process exits right after.
func release(cmd *cobra.Command, ctx *z3.Context) {
	if processOf(cmd).exiting {
		ctx.Abandon()
		return
	}
	ctx.Close()
}
