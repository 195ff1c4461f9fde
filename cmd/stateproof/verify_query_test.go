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
