package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// childCLI runs the CLI with args in a child process (the test binary,
// re-entered through test): a check abandoned at its budget goes on
// running on its own thread until the process exits, which must not be
// the test binary's.
func childCLI(t *testing.T, test string, args ...string) (stdout, stderr string, code int, took time.Duration) {
	t.Helper()
	// A regression must not leave a child running: two minutes is far
	// past any budget of these tests.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run", "^"+test+"$")
	cmd.Env = append(os.Environ(), "STATEPROOF_CLI_CHILD="+strings.Join(args, "\x1f"))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Run()
	took = time.Since(t0)
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code, took
}

// runIfChild is the child side of childCLI: it runs the CLI as main
// does, as a process about to exit (which leaves its Z3 contexts to the
// operating system rather than deleting them, seconds for a large one).
func runIfChild() {
	if args := os.Getenv("STATEPROOF_CLI_CHILD"); args != "" {
		p := process{start: time.Now(), exiting: true}
		os.Exit(runIn(withProcess(context.Background(), p), strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
	}
}

// One sqrt in a during block and a reach query six cycles out: the values
// are algebraic numbers of degree 64, Z3 ignores both its timeout and an
// interrupt on this check (at bound 4 it once ran past 215 s under a 20 s
// budget), so the budget holds only because the check is abandoned. The
// answer is undecided (timeout, exit 3), with the phase in a diagnostic
// when the check was abandoned;
// the time bound is generous (3× the budget plus start-up) because
// machines vary; the precise figure is in the report of issue 27.
func TestBudgetHoldsOnNonlinearCheck(t *testing.T) {
	runIfChild()
	const budget = 1500 * time.Millisecond
	out, errOut, code, took := childCLI(t, "TestBudgetHoldsOnNonlinearCheck", "bmc", "--json", "testdata/fcstm/sqrt-during.fcstm",
		"--check", `check reach <= 6: var("x") > 30.0;`, "--timeout-ms", "1500")
	if took > 3*budget+2*time.Second {
		t.Errorf("bmc took %v under a %v budget", took, budget)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON (exit %d, stderr %q): %v", code, errOut, err)
	}
	if code != 3 || field(doc, "result", "outcome") != "timeout" || field(doc, "result", "property_satisfied") != nil {
		t.Fatalf("exit %d, result %v", code, doc["result"])
	}
	// Z3 mostly ignores the interrupt here, and the check is abandoned
	// (the diagnostic names the phase); now and then it stops within the
	// grace, and the result is a plain solver timeout. Interrupted inside
	// non-linear arithmetic, Z3 reads "(incomplete (theory arithmetic))"
	// (one run in two): past the deadline that is a timeout too (it was
	// outcome unknown, and this test failed one run in two).
	if !strings.Contains(out, "while_solving") && field(doc, "result", "reason") != "timeout" {
		t.Errorf("neither a solver timeout nor the phase in the diagnostics: %v", doc["result"])
	}
}

// The same model at bound 4 (issue 27 item 6: pyfcstm answers in 14 s,
// stateproof did not answer in 215 s): one sqrt result per argument and
// step, checked by Z3's non-linear procedure instead of its incremental
// core, finds the witness (x passes 10 in the third cycle) well inside a
// 20 s budget, and the runtime replays it.
func TestBMCSqrtDecided(t *testing.T) {
	var out bytes.Buffer
	code := run([]string{"bmc", "--json", "testdata/fcstm/sqrt-during.fcstm",
		"--check", `check reach <= 4: var("x") > 10.0;`, "--timeout-ms", "20000"}, &out, io.Discard)
	var doc map[string]any
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("not JSON (exit %d): %v", code, err)
	}
	if code != 0 || field(doc, "result", "outcome") != "witness_found" {
		t.Fatalf("exit %d, result %v", code, doc["result"])
	}
	if !strings.Contains(out.String(), `"ok": true`) && !strings.Contains(out.String(), `"ok":true`) {
		t.Errorf("the witness was not replayed ok:\n%s", out.String())
	}
}

// A witness whose value is irrational (sqrt(3) after one cycle) is decoded
// to the nearest float and replayed; Z3 reports it as an algebraic number,
// which once made bmc exit 2 as if the input were wrong (issue 38 item 4).
func TestBMCIrrationalWitness(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"bmc", "--json", "testdata/fcstm/sqrt-irrational.fcstm",
		"--check", `check reach <= 1: var("x") < 1.8;`}, &out, &errOut)
	var doc map[string]any
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("not JSON (exit %d): %v\n%s", code, err, errOut.String())
	}
	if code != 0 || field(doc, "result", "outcome") != "witness_found" {
		t.Fatalf("exit %d, result %v, stderr %s", code, doc["result"], errOut.String())
	}
	if !strings.Contains(out.String(), "1.7320508075688772") {
		t.Errorf("the witness does not carry sqrt(3) as the nearest float:\n%s", out.String())
	}
	if !strings.Contains(out.String(), `"ok": true`) && !strings.Contains(out.String(), `"ok":true`) {
		t.Errorf("the witness was not replayed ok:\n%s", out.String())
	}
}

// prove on the same sqrt model: the sqrt results are clause-local
// constants of the Horn clauses (they were left unbound, and Spacer's
// parse of them failed: exit 2), and a check Z3 does not stop when
// interrupted is abandoned at the deadline: unknown (exit 3) with a
// timeout in the reason, or the violation (x passes 10 in the third
// cycle), within the budget (the bound is generous, as above).
func TestProveBudgetHoldsOnNonlinearCheck(t *testing.T) {
	runIfChild()
	const budget = 1500 * time.Millisecond
	rsc := filepath.Join(t.TempDir(), "x.rsc")
	if err := os.WriteFile(rsc, []byte("rsc \"M.A\": var(\"x\") <= 10.0;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code, took := childCLI(t, "TestProveBudgetHoldsOnNonlinearCheck", "prove", "testdata/fcstm/sqrt-during.fcstm", "--rsc", rsc, "--timeout-ms", "1500")
	if took > 3*budget+2*time.Second {
		t.Errorf("prove took %v under a %v budget", took, budget)
	}
	if !(code == 1 && strings.Contains(out, "VIOLATED")) && !(code == 3 && strings.Contains(out, "timeout")) {
		t.Errorf("exit %d, want 1 (violated) or 3 with a timeout in the reason\n%s%s", code, out, errOut)
	}
}

// prove on a chain of nine pseudo states (2^9 cases from one state)
// spent its budget rendering Horn clauses and encoding triple queries and
// ran past 40 s under 3 s. Every phase now looks at the deadline: the
// answer is unknown (exit 3) within the budget, with the phase in the
// reason. The bound is generous (3× plus start-up).
func TestProveBudgetHoldsOnPseudoChain(t *testing.T) {
	runIfChild()
	const budget = 3000 * time.Millisecond
	out, errOut, code, took := childCLI(t, "TestProveBudgetHoldsOnPseudoChain", "prove", "testdata/fcstm/pseudo-chain9.fcstm",
		"--rsc", "testdata/fcstm/pseudo-chain9.rsc", "--timeout-ms", "3000")
	if took > 3*budget+2*time.Second {
		t.Errorf("prove took %v under a %v budget", took, budget)
	}
	if code != 3 && code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if code == 3 && !strings.Contains(out, "timeout") {
		t.Errorf("undecided without a timeout in the reason:\n%s", out)
	}
}

// bmc without --timeout-ms runs under the default budget, which the
// report states (it had none: timeout_ms null, and no limit at all).
func TestBMCDefaultBudget(t *testing.T) {
	doc, code := bmcJSON(t, "../../examples/order.json", "-q", "../../examples/queries/order-paid.fbmcq")
	if code != 0 {
		t.Fatalf("exit %d, result %v", code, doc["result"])
	}
	if got := field(doc, "result", "timeout_ms"); got != float64(30000) {
		t.Errorf("timeout_ms %v, want the default 30000", got)
	}
}

// pseudoChain writes an FCSTM model whose cycle from M.A passes n pseudo
// states, each with a guarded and a default branch: 2^n paths. guard is
// the guard of P%d's first branch, with the state's index as its operand.
func pseudoChain(t *testing.T, n int, guard string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("def int x = 0;\ndef int y = 0;\nstate M {\n    state A;\n    state B;\n")
	for i := range n {
		fmt.Fprintf(&b, "    pseudo state P%d;\n", i)
	}
	b.WriteString("    [*] -> A;\n    A -> P0 :: Go;\n")
	for i := range n {
		next := fmt.Sprintf("P%d", i+1)
		if i+1 == n {
			next = "B"
		}
		fmt.Fprintf(&b, "    P%d -> %s : if ["+guard+"] effect { y = y + %d; };\n    P%d -> %s effect { x = x + 1; };\n", i, next, i, i+1, i, next)
	}
	b.WriteString("    B -> A :: Back;\n}\n")
	path := filepath.Join(t.TempDir(), fmt.Sprintf("chain%d.fcstm", n))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Past the case limit, bmc and prove refuse the model with a located error
// that names the limit and the manual, exit 2, never a crash (issue 29,
// item 4). A guard that can raise (here a division) keeps its choice
// expanded per path, so twelve such states are 4097 cases from M.A with
// the delta (the same chain with total guards is shared, see
// TestPseudoChainsDecided).
func TestCaseLimitIsALocatedError(t *testing.T) {
	model := pseudoChain(t, 12, "x / 2 > %d")
	for _, args := range [][]string{
		{"bmc", model, "--check", "check reach <= 2: true;"},
		{"prove", model, "--infer"},
	} {
		out, errOut, code := runCLI(t, args...)
		if code != 2 || !strings.Contains(errOut, model+":") || !strings.Contains(errOut, "more than 4096") ||
			!strings.Contains(errOut, "docs/fcstm.md") || strings.Contains(errOut, "goroutine") {
			t.Errorf("%s: exit %d\nstdout %s\nstderr %s", args[0], code, out, errOut)
		}
	}
}

// Chains of 9 to 40 branching pseudo states (2^40 paths) are decided by
// bmc and prove (issue 27 item 8): a witness and its absence, an RSC
// proved and, up to twenty states, one violated. They were refused past
// eleven states, and prove ran past 40 s under 3 s on nine. The budget is
// 10 s so that a loaded machine still decides; the bound on the time is
// generous (1.5× plus start-up). bench/chains.sh measures the figures
// under 3 s (TestProveBudgetHoldsOnPseudoChains holds that budget).
func TestPseudoChainsDecided(t *testing.T) {
	runIfChild()
	if testing.Short() {
		t.Skip("runs the CLI for several seconds")
	}
	const budget = 10 * time.Second
	ms := fmt.Sprint(budget.Milliseconds())
	for _, n := range []int{9, 12, 20, 40} {
		model := pseudoChain(t, n, "x > %d")
		holds, violated := chainRSCs(t, model)
		runs := []struct {
			args []string
			code int
			want string
		}{
			{[]string{"bmc", model, "--json", "--check", `check reach <= 4: var("y") > 0;`}, 0, `"witness_found"`},
			{[]string{"bmc", model, "--json", "--check", `check reach <= 4: var("y") < 0;`}, 1, `"no_witness"`},
			{[]string{"prove", model, "--rsc", holds}, 0, "PROVED"},
		}
		if n <= 20 {
			runs = append(runs, struct {
				args []string
				code int
				want string
			}{[]string{"prove", model, "--rsc", violated}, 1, "VIOLATED"})
		}
		for _, run := range runs {
			out, errOut, code, took := childCLI(t, "TestPseudoChainsDecided", append(run.args, "--timeout-ms", ms)...)
			if took > budget*3/2+2*time.Second {
				t.Errorf("%s on a chain of %d took %v under %v", run.args[0], n, took, budget)
			}
			if code != run.code || !strings.Contains(out, run.want) {
				t.Errorf("%q on a chain of %d: exit %d, want %d and %s\n%s%s", run.args, n, code, run.code, run.want, out, errOut)
			}
		}
	}
}

// chainRSCs writes, beside a pseudoChain model, an RSC that holds (y never
// decreases from 0) and one that is violated (the second pass adds to y).
func chainRSCs(t *testing.T, model string) (holds, violated string) {
	t.Helper()
	dir := filepath.Dir(model)
	holds, violated = filepath.Join(dir, "holds.rsc"), filepath.Join(dir, "violated.rsc")
	for path, text := range map[string]string{holds: `rsc "M.A": var("y") >= 0;`, violated: `rsc "M.B": var("y") <= 0;`} {
		if err := os.WriteFile(path, []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return holds, violated
}

// prove under --timeout-ms 3000 on chains of 9 to 40 pseudo states ends
// within the budget (generously: 1.5× plus start-up, the machine may be
// loaded) with the right answer or undecided with the layer and why in
// the reason, never the wrong answer (issue 27 item 8; bench/chains.sh
// has the strict figures). Before the chains were shared, nine states ran
// past 40 s and twelve were refused.
func TestProveBudgetHoldsOnPseudoChains(t *testing.T) {
	runIfChild()
	if testing.Short() {
		t.Skip("runs the CLI for several seconds")
	}
	const budget = 3000 * time.Millisecond
	for _, n := range []int{9, 12, 20, 40} {
		model := pseudoChain(t, n, "x > %d")
		holds, violated := chainRSCs(t, model)
		for _, run := range []struct {
			rsc, want string
			code      int
		}{{holds, "PROVED", 0}, {violated, "VIOLATED", 1}} {
			out, errOut, code, took := childCLI(t, "TestProveBudgetHoldsOnPseudoChains", "prove", model, "--rsc", run.rsc, "--timeout-ms", "3000")
			if took > budget*3/2+2*time.Second {
				t.Errorf("prove (%s) on a chain of %d took %v under %v", run.want, n, took, budget)
			}
			switch {
			case code == run.code && strings.Contains(out, run.want):
			case code == 3 && strings.Contains(out, "UNKNOWN") && strings.Contains(out, "reason:") && strings.Contains(out, "timeout"):
			default:
				t.Errorf("prove on a chain of %d: exit %d, want %d (%s) or 3 with a timeout in the reason\n%s%s", n, code, run.code, run.want, out, errOut)
			}
		}
	}
}

// randomPseudoChain writes a random FCSTM model with a chain of n pseudo
// states between A and B: each has a guarded branch (on x or y, against a
// random threshold) and, unless it is the last, sometimes a default one.
func randomPseudoChain(t *testing.T, rng *rand.Rand, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("def int x = 0;\ndef int y = 0;\nstate M {\n    state A;\n    state B;\n")
	for i := range n {
		fmt.Fprintf(&b, "    pseudo state P%d;\n", i)
	}
	b.WriteString("    [*] -> A;\n    A -> P0 :: Go;\n    B -> A :: Back;\n")
	vars := []string{"x", "y"}
	for i := range n {
		next := "B"
		if i+1 < n {
			next = fmt.Sprintf("P%d", i+1)
		}
		v, w := vars[rng.IntN(2)], vars[rng.IntN(2)]
		fmt.Fprintf(&b, "    P%d -> %s : if [%s > %d] effect { %s = %s + %d; };\n", i, next, v, rng.IntN(5)-2, w, w, rng.IntN(3)+1)
		if rng.IntN(4) > 0 || i+1 == n {
			fmt.Fprintf(&b, "    P%d -> %s effect { %s = %s - 1; };\n", i, next, v, v)
		} else {
			fmt.Fprintf(&b, "    P%d -> B;\n", i)
		}
	}
	b.WriteString("}\n")
	path := filepath.Join(t.TempDir(), "chain.fcstm")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Random models with pseudo chains of 3 to 40 states, against a 1.5 s
// budget in bmc and prove: each run answers (any verdict, or undecided
// with exit 3; never exit 2 or a crash) within 3× the budget plus
// start-up. The seed is logged so that a failure can be replayed.
func TestBudgetHoldsOnRandomPseudoChains(t *testing.T) {
	runIfChild()
	if testing.Short() {
		t.Skip("runs the CLI for several seconds")
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("STATEPROOF_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	t.Logf("seed %d (STATEPROOF_SEED replays it)", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	const budget = 1500 * time.Millisecond
	for range 3 {
		n := 3 + rng.IntN(38)
		model := randomPseudoChain(t, rng, n)
		rsc := filepath.Join(filepath.Dir(model), "chain.rsc")
		if err := os.WriteFile(rsc, []byte(fmt.Sprintf("rsc \"M.A\": var(\"y\") >= %d;\n", -rng.IntN(3))), 0o644); err != nil {
			t.Fatal(err)
		}
		runs := [][]string{
			{"bmc", model, "--check", fmt.Sprintf("check reach <= %d: var(\"y\") > %d;", 2+rng.IntN(4), rng.IntN(6)), "--timeout-ms", "1500"},
			{"prove", model, "--rsc", rsc, "--timeout-ms", "1500"},
		}
		for _, args := range runs {
			out, errOut, code, took := childCLI(t, "TestBudgetHoldsOnRandomPseudoChains", args...)
			src, _ := os.ReadFile(model)
			if took > 3*budget+2*time.Second {
				t.Errorf("%q on a chain of %d took %v under %v\n%s", args, n, took, budget, src)
			}
			if code != 0 && code != 1 && code != 3 {
				t.Errorf("%s on a chain of %d: exit %d\n%s%s\n%s", args[0], n, code, out, errOut, src)
			}
		}
	}
}

// wideCHC writes a CHC problem over one predicate of n Int arguments: a
// fact, a step where each argument adds its neighbour, and a query on the
// first. Its invariant needs every argument (not one is inductive alone).
func wideCHC(t *testing.T, n int) string {
	t.Helper()
	var xs, ys, xa, ya, init, step strings.Builder
	for i := range n {
		fmt.Fprintf(&xs, " (x%d Int)", i)
		fmt.Fprintf(&ys, " (y%d Int)", i)
		fmt.Fprintf(&xa, " x%d", i)
		fmt.Fprintf(&ya, " y%d", i)
		fmt.Fprintf(&init, " (= x%d %d)", i, i%3)
		if i+1 < n {
			fmt.Fprintf(&step, " (= y%d (+ x%d x%d))", i, i, i+1)
		} else {
			fmt.Fprintf(&step, " (= y%d (- x%d 1))", i, i)
		}
	}
	src := fmt.Sprintf("(set-logic HORN)\n(declare-fun P (%s) Bool)\n", strings.TrimSpace(strings.Repeat("Int ", n))) +
		fmt.Sprintf("(assert (forall (%s) (=> (and%s) (P%s))))\n", xs.String(), init.String(), xa.String()) +
		fmt.Sprintf("(assert (forall (%s%s) (=> (and (P%s)%s) (P%s))))\n", xs.String(), ys.String(), xa.String(), step.String(), ya.String()) +
		fmt.Sprintf("(assert (forall (%s) (=> (and (P%s) (< x0 0)) false)))\n(check-sat)\n", xs.String(), xa.String())
	path := filepath.Join(t.TempDir(), fmt.Sprintf("wide%d.smt2", n))
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// ringJSON writes a JSON model of a ring of n states (loading one of
// 150,000 takes seconds; 30,000 took seconds until lowering became
// linear, and now loads in a fraction of one).
func ringJSON(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"schemaVersion": 1, "init": "S0", "states": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id": "S%d"}`, i)
	}
	b.WriteString(`], "transitions": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"from": "S%d", "event": "go", "to": "S%d"}`, i, (i+1)%n)
	}
	b.WriteString(`], "variables": []}`)
	path := filepath.Join(t.TempDir(), "ring.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Each phase made to take long under a small --timeout-ms: the answer is
// undecided (exit 3) with the phase in the reason, within 3× the budget
// plus start-up (machines vary; bench/budget.sh measures the figures
// against the 10% target, docs/queries.md has its table). Before issue 38
// item 6, loading took no deadline (a ring of 150,000 states loads for
// seconds), and prove on a 2,000-ary predicate ran 96 s under 5 s making
// the learning layer's candidates (every pair of arguments, two million).
func TestBudgetHoldsInEveryPhase(t *testing.T) {
	runIfChild()
	if testing.Short() {
		t.Skip("runs the CLI for several seconds")
	}
	ring, wide := ringJSON(t, 150000), wideCHC(t, 2000)
	for _, c := range []struct {
		phase  string
		budget time.Duration
		args   []string
		want   []string // one of these in stdout or stderr
	}{
		{"loading", 500 * time.Millisecond, []string{"bmc", ring, "--check", `check reach <= 1: active("S5");`}, []string{"timeout while loading"}},
		{"loading", 500 * time.Millisecond, []string{"prove", ring, "--infer"}, []string{"timeout while loading"}},
		{"encoding", 500 * time.Millisecond, []string{"bmc", "../../examples/retry.json", "--max-bound", "20000", "--check", `check reach <= 10000: active("DONE");`}, []string{"timeout while encoding step"}},
		// Under load the layers may find no time left before learning
		// starts; either way the reason says why.
		{"learning", 5 * time.Second, []string{"prove", wide}, []string{"timeout while making candidates", "no time left", "timeout"}},
	} {
		ms := fmt.Sprint(c.budget.Milliseconds())
		out, errOut, code, took := childCLI(t, "TestBudgetHoldsInEveryPhase", append(c.args, "--timeout-ms", ms)...)
		if took > 3*c.budget+2*time.Second {
			t.Errorf("%s (%s) took %v under %v", c.args[0], c.phase, took, c.budget)
		}
		found := false
		for _, w := range c.want {
			found = found || strings.Contains(out+errOut, w)
		}
		if code != 3 || !found {
			t.Errorf("%s (%s): exit %d, want 3 and one of %q\n%.2000s\n%.2000s", c.args[0], c.phase, code, c.want, out, errOut)
		}
	}
}
