// Command promela writes the Promela twin of a `stateproof gen` model, for
// timing SPIN against stateproof on the same state space (bench/vs-spin.sh).
//
//	go run ./bench/promela counter N   # gen counter N: c counts to N, then DONE
//	go run ./bench/promela toggles K   # gen toggles K: K independent switches
//
// Each model transition is one d_step, so SPIN stores one state per
// runtime state of stateproof (plus the process's end state), and the
// counter's two invariants become assertions checked on every step.
package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "promela:", err)
		os.Exit(2)
	}
}

func run(args []string, w io.Writer) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: promela counter N | toggles K")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 1 {
		return fmt.Errorf("%q is not a positive integer", args[1])
	}
	switch args[0] {
	case "counter":
		_, err = io.WriteString(w, counter(n))
	case "toggles":
		if n > 64 {
			return fmt.Errorf("toggles takes at most 64 switches (got %d)", n)
		}
		_, err = io.WriteString(w, toggles(n))
	default:
		return fmt.Errorf("unknown model %q (counter or toggles)", args[0])
	}
	return err
}

// counter mirrors gen.Counter: RUN --tick--> RUN while c < N (c++), the
// default branch of tick goes to DONE; invariants c in 0..N (var-in-range)
// and DONE only after a tick (event-before-state, as a flag set by tick).
func counter(n int) string {
	return fmt.Sprintf(`/* stateproof gen counter %[1]d, for SPIN: spin -a; cc -DSAFETY */
#define N %[1]d
int c = 0;
bit ticked = 0;
active proctype counter() {
RUN:
	if
	:: c < N -> d_step { c++; ticked = 1; assert(c >= 0 && c <= N) }; goto RUN
	:: else -> d_step { ticked = 1 }; goto DONE
	fi;
DONE:
	assert(ticked)
}
`, n)
}

// toggles mirrors gen.Toggles: K boolean switches, each flipped by its
// own event, in one state.
func toggles(k int) string {
	var decl, opts strings.Builder
	for i := range k {
		fmt.Fprintf(&decl, "bit b%d = 0;\n", i)
		fmt.Fprintf(&opts, "\t:: d_step { b%[1]d = 1 - b%[1]d }\n", i)
	}
	return fmt.Sprintf(`/* stateproof gen toggles %d, for SPIN: spin -a; cc -DSAFETY */
%sactive proctype toggles() {
	do
%s	od
}
`, k, decl.String(), opts.String())
}
