package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/schematest"
)

// verify -q/--check decides an FBMCQ query on an FCSTM model by explicit
// search: exit 0 when it holds or has its witness, 1 when violated or
// without a witness, 3 when undecided, 2 when refused; the JSON report
// carries the answer in bmc's vocabulary and satisfies its schema.
func TestVerifyQueryExitCodes(t *testing.T) {
	const door = "../../examples/fcstm/door.fcstm"
	dir := t.TempDir()
	qfile := filepath.Join(dir, "q.fbmcq")
	if err := os.WriteFile(qfile, []byte("// every depth: the door never opens with the motor running\ncheck forbid <= 3: active(\"Door.Open\") && motor != 0;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args    []string
		code    int
		outcome string
	}{
		{[]string{"--check", `check reach <= 4: active("Door.Open");`}, 0, "witness_found"},
		{[]string{"--check", `check reach <= 1: active("Door.Open");`}, 1, "no_witness"},
		{[]string{"--check", `check invariant <= 8: open_count < 1;`}, 1, "property_violated"},
		{[]string{"-q", qfile}, 0, "property_satisfied"},
		{[]string{"--check", "assume always: !active(\"Door.Closed\");\ncheck reach <= 3: true;"}, 3, "scenario_infeasible"},
		// door counts its openings without bound: every depth is undecided
		{[]string{"-q", qfile, "--all-depths", "--max-states", "300"}, 3, "unknown"},
		{[]string{"--check", `check invariant <= 2: open_count < 1;`, "--all-depths", "--max-states", "300"}, 1, "property_violated"},
		// a run that is never asked to open stays closed: a run of 3 steps
		{[]string{"--check", `check must_reach <= 3: active("Door.Open");`}, 1, "property_violated"},
		{[]string{"--check", `check must_reach <= 3: active("Door.Closed");`}, 0, "property_satisfied"},
		{[]string{"--check", `check exists_always <= 3: !active("Door.Open");`}, 0, "witness_found"},
		{[]string{"--check", `check exists_always <= 3: active("Door.Closed");`}, 1, "no_witness"},
		// closed at frame 1 with a window past the bound: bmc's tail
		{[]string{"--check", `check response <= 3: trigger active("Door.Closed") -> within 3 active("Door.Open");`}, 3, "incomplete"},
		{[]string{"--check", `check response <= 6: trigger active("Door.Closed") -> within 2 active("Door.Opening");`}, 1, "property_violated"},
	} {
		args := append([]string{"verify", door, "--json"}, c.args...)
		out, errOut, code := runCLI(t, args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s%s", c.args, code, c.code, out, errOut)
			continue
		}
		schematest.Report(t, strings.Join(args, " "), []byte(out))
		var doc struct {
			Queries []struct {
				Kind, Outcome, Engine string
				Bound                 int
				Frame                 *int
				Path                  []any
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Queries) != 1 {
			t.Fatalf("%v: %v\n%s", c.args, err, out)
		}
		q := doc.Queries[0]
		if q.Outcome != c.outcome || q.Engine != "explicit" {
			t.Errorf("%v: outcome %s engine %s, want %s", c.args, q.Outcome, q.Engine, c.outcome)
		}
		if has := q.Frame != nil && len(q.Path) == *q.Frame; has != (c.outcome == "witness_found" || c.outcome == "property_violated") {
			t.Errorf("%v: frame %v, path %v", c.args, q.Frame, q.Path)
		}
	}
	out, _, code := runCLI(t, "verify", door, "--check", `check reach <= 4: active("Door.Open");`)
	if code != 0 || !strings.Contains(out, "Queries (explicit search):") || !strings.Contains(out, "witness_found (bound 4,") || !strings.Contains(out, "path: Door (not started) --{}--> Door.Closed") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
}

// A query verify cannot decide or read is refused, located, exit 2.
func TestVerifyQueryRefused(t *testing.T) {
	const door = "../../examples/fcstm/door.fcstm"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-q", "../../examples/fcstm/door-opens.fbmcq"}, "door-opens.fbmcq:6:1: verify cannot decide called(...) and call_count(...) atoms"},
		{[]string{"--check", "init state(\"Door.Open\");\ncheck reach <= 3: true;"}, "<check>:1:1: verify cannot decide an init clause other than `init cold;`"},
		{[]string{"--check", `check exists_always <= 3: active("Door");`, "--all-depths"}, "<check>:1:1: verify cannot decide a exists_always query with --all-depths"},
		{[]string{"--check", `check response <= 3: trigger true -> within 1 true;`, "--all-depths"}, "<check>:1:1: verify cannot decide a response query with --all-depths"},
		{[]string{"--check", `check must_reach <= 3: active("Door.Open");`, "--all-depths"}, "<check>:1:1: verify cannot decide a must_reach query with --all-depths"},
		{[]string{"--check", `check reach <= 3: active("Door.Nowhere");`}, "<check>:1:"},
		{[]string{"--check", `check reach <= 3: cycle == 1;`, "--all-depths"}, "<check>:1:19: verify cannot decide `cycle` with --all-depths"},
		{[]string{"-q", "no-such.fbmcq"}, "cannot read no-such.fbmcq"},
	} {
		_, errOut, code := runCLI(t, append([]string{"verify", door}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errOut, c.want)
		}
	}
}

// An ltl check on an FCSTM model: exit 0 when it holds on every fair
// run, 1 with a lasso (loopStart) when violated, 3 at the state cap, 2
// for a formula that does not parse (located in the query); the JSON
// report satisfies its schema.
func TestVerifyLTLExitCodes(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "ticker.fcstm")
	src := "def int n = 0;\nstate R {\n    state A;\n    state B { enter { n = n + 1; } }\n    [*] -> A;\n    A -> B : Tick;\n    B -> A : Tick;\n}\n"
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	finite := filepath.Join(dir, "finite.fcstm")
	if err := os.WriteFile(finite, []byte(strings.ReplaceAll(src, "n = n + 1;", "n = 1 - n;")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		model, check string
		code         int
		outcome      string
		loop         bool
	}{
		{finite, `check ltl fair { "R.Tick" }: G F active("R.B");`, 0, "property_satisfied", false},
		{finite, `check ltl: G F active("R.B");`, 1, "property_violated", true},
		{model, `check ltl fair { "R.Tick" }: G F active("R.B");`, 3, "unknown", false}, // n grows: capped
		{model, `check ltl: G (var("n") < 3);`, 1, "property_violated", false},          // a bad prefix, shorter than any lasso
	} {
		args := []string{"verify", c.model, "--json", "--max-states", "50", "--check", c.check}
		out, errOut, code := runCLI(t, args...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", c.check, code, c.code, out, errOut)
			continue
		}
		schematest.Report(t, strings.Join(args, " "), []byte(out))
		var doc struct {
			Queries []struct {
				Kind, Outcome string
				AllDepths     bool
				Frame         *int
				LoopStart     *int
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Queries) != 1 {
			t.Fatalf("%s: %v\n%s", c.check, err, out)
		}
		q := doc.Queries[0]
		if q.Kind != "ltl" || q.Outcome != c.outcome || !q.AllDepths || (q.LoopStart != nil) != c.loop {
			t.Errorf("%s: %+v, want outcome %s, loop %v\n%s", c.check, q, c.outcome, c.loop, out)
		}
	}
	out, _, code := runCLI(t, "verify", finite, "--check", `check ltl: G F active("R.B");`)
	if code != 1 || !strings.Contains(out, "frame 2 of the path shown is frame 1 again") || !strings.Contains(out, "cycle: steps 2–2, from R.A back to it") ||
		!strings.Contains(out, "states) at frame 2, which is frame 1 again (a lasso)") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
	page := filepath.Join(dir, "r.html")
	runCLI(t, "verify", finite, "--check", `check ltl: G F active("R.B");`, "--format", "html", "-o", page)
	if html, err := os.ReadFile(page); err != nil || !strings.Contains(string(html), "↻") {
		t.Errorf("the HTML report does not mark the lasso's cycle (%v)", err)
	}
	_, errOut, code := runCLI(t, "verify", finite, "--check", "check ltl:\n  G F active(\"R.C\");")
	if code != 2 || !strings.Contains(errOut, `<check>:2:14: unknown state "R.C"`) {
		t.Errorf("bad formula: exit %d, stderr %q", code, errOut)
	}
	_, errOut, code = runCLI(t, "bmc", finite, "--check", `check ltl: G F active("R.B");`)
	if code != 2 || !strings.Contains(errOut, "unsupported_ltl") {
		t.Errorf("bmc: exit %d, stderr %q", code, errOut)
	}
}

// draw --finding with -q/--check draws an FCSTM query's counterexample,
// an ltl lasso with its cycle marked; the query flags need --finding and
// an FCSTM model.
func TestDrawQueryFinding(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "ticker.fcstm")
	src := "state R {\n    state A;\n    state B;\n    [*] -> A;\n    A -> B : Tick;\n    B -> A : Tick;\n}\n"
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "draw", model, "--finding", "FBMCQ_PROPERTY_VIOLATED", "--check", `check ltl: G F active("R.B");`)
	if code != 0 || !strings.Contains(out, "step 2↻: R.A --{}--> R.A") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	for _, args := range [][]string{
		{"draw", model, "--check", `check ltl: G true;`},
		{"draw", "../../examples/order.json", "--finding", "X", "--check", `check ltl: G true;`},
	} {
		if _, errOut, code := runCLI(t, args...); code != 2 || !strings.Contains(errOut, "--check needs --finding and an FCSTM model") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}
