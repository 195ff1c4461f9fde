// Command unroll prints the bounded unrolling of the pause-counter model
// (`stateproof gen pause-counter L`) and one reach query as SMT-LIB 2, the
// way a person would write it by hand for `z3 FILE`: one Boolean (in Run)
// and one integer (the counter) per frame, one disjunction of the enabled
// moves per step, the query as a disjunction over frames, one check-sat.
// bench/bmc-vs-z3.sh times `stateproof bmc` against z3 on this file.
//
//	go run ./bench/unroll -limit 1000 -bound 80 -query witness > f.smt2
//
// The queries are those of the script: witness is
// `active("Pause") && c == bound/2 - 1` (reachable in bound/2 + 1 steps),
// none is `c > bound` (unreachable: c grows by at most one per step).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
)

func main() {
	limit := flag.Int("limit", 1000, "the model's parameter L: Pause resumes to Run while c < L")
	bound := flag.Int("bound", 80, "the number of steps N (frames 0..N)")
	kind := flag.String("query", "witness", "witness (a reachable goal) or none (an unreachable one)")
	flag.Parse()
	if *bound < 1 || (*kind != "witness" && *kind != "none") {
		fmt.Fprintln(os.Stderr, "unroll: -bound must be at least 1 and -query witness or none")
		os.Exit(2)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	write(w, *limit, *bound, *kind)
}

func write(w *bufio.Writer, limit, n int, kind string) {
	fmt.Fprintf(w, "; pause-counter %d, bound %d, query %s\n(set-logic QF_LIA)\n", limit, n, kind)
	for i := 0; i <= n; i++ {
		fmt.Fprintf(w, "(declare-const run%d Bool)\n(declare-const c%d Int)\n", i, i)
	}
	fmt.Fprintln(w, "(assert run0)\n(assert (= c0 0))")
	for i := 0; i < n; i++ {
		j := i + 1
		// Run: inc stays in Run with c+1, dec goes to Pause with c-1.
		// Pause: resume to Run while c < L, otherwise no event is
		// enabled and the step stutters.
		fmt.Fprintf(w, "(assert (ite run%[1]d\n"+
			"  (or (and run%[2]d (= c%[2]d (+ c%[1]d 1))) (and (not run%[2]d) (= c%[2]d (- c%[1]d 1))))\n"+
			"  (and (= run%[2]d (< c%[1]d %[3]d)) (= c%[2]d c%[1]d))))\n", i, j, limit)
	}
	fmt.Fprint(w, "(assert (or")
	for i := 0; i <= n; i++ {
		if kind == "witness" {
			fmt.Fprintf(w, " (and (not run%d) (= c%d %d))", i, i, n/2-1)
		} else {
			fmt.Fprintf(w, " (> c%d %d)", i, n)
		}
	}
	fmt.Fprintln(w, "))\n(check-sat)")
}
