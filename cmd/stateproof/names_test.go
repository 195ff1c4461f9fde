package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// hostileNames are names a JSON model allows that SMT-LIB cannot hold as
// they are: a bar and a backslash end or break a quoted symbol, a space
// and a parenthesis a simple one.
// (prove's own FuzzGeneratedTextNames covers every printable character.)
var hostileNames = []string{"a|b", `a\b`, "a b", "(", "中文", "1x", ""}

// namedModel is the retry counter of bench/retry-unbounded.json (its
// invariant is not inductive alone, so Spacer gets the clauses) with
// every state, event and variable named after name (with a suffix to
// keep them apart).
func namedModel(name string) string {
	n := func(s string) string { return name + s }
	m := map[string]any{
		"schemaVersion": 1,
		"init":          n("I"),
		"states":        []any{map[string]any{"id": n("I")}, map[string]any{"id": n("W")}},
		"transitions": []any{
			map[string]any{"from": n("I"), "event": n("go"), "to": n("W")},
			map[string]any{"from": n("W"), "event": n("more"), "to": n("W"), "updates": []any{
				map[string]any{"variable": n("r"), "op": "inc"}, map[string]any{"variable": n("v"), "op": "inc", "value": 2}}},
			map[string]any{"from": n("W"), "event": n("less"), "to": n("W"), "guard": map[string]any{"variable": n("r"), "op": ">=", "value": 1}, "updates": []any{
				map[string]any{"variable": n("r"), "op": "dec"}, map[string]any{"variable": n("v"), "op": "dec", "value": 2}}},
		},
		"variables": []any{map[string]any{"name": n("r"), "kind": "integer", "init": 0}, map[string]any{"name": n("v"), "kind": "integer", "init": 0}},
		"invariants": []any{map[string]any{"id": "nonneg", "description": "v stays non-negative (it is twice r)",
			"kind": "var-in-range", "variable": n("v"), "min": 0}},
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// Names with any printable character reach the solver through prove
// (every layer, Spacer alone, the certificate), bmc and its explanation
// of an infeasible query: an event named a|b broke Spacer's clauses
// ("parse error ... unknown sort").
func TestHostileNamesThroughEveryEngine(t *testing.T) {
	for _, name := range hostileNames {
		t.Run(name, func(t *testing.T) {
			model := writeTemp(t, "m.json", namedModel(name))
			check := func(want int, args ...string) string {
				t.Helper()
				out, stderr, code := runCLI(t, args...)
				if code == 0 && want == 3 {
					code = 3 // Spacer alone may prove or run out of time: either is fine
				}
				if code != want || strings.Contains(stderr+out, "parse error") {
					t.Errorf("%v: exit %d, want %d\nstdout %s\nstderr %s", args, code, want, out, stderr)
				}
				return out
			}
			check(0, "prove", model, "--timeout-ms", "8000", "--certificate", t.TempDir()+"/c.smt2")
			out := check(3, "prove", model, "--layers", "spacer", "--timeout-ms", "1500")
			if strings.Contains(out, "spacer   failed") {
				t.Errorf("Spacer's answer did not re-check:\n%s", out)
			}
			check(0, "bmc", model, "--bound", "6")
			q, _ := json.Marshal(name + "v")
			check(1, "bmc", model, "--check", "check reach <= 4: var("+string(q)+") < 0;", "--explain", "proof")
		})
	}
}

// Solver constants named after model names must not meet each other or
// the encoder's own: with --explain (the tracked encoding) a variable
// named "state" was the frame's state counter, and two transitions whose
// case labels read alike ("a" -> "b::transition::c" and
// "a::transition::b" -> "c") shared one selector, so a reachable state
// was reported SCENARIO INFEASIBLE.
func TestNamesDoNotCollideInTheEncoding(t *testing.T) {
	labels := writeTemp(t, "labels.json", `{"schemaVersion": 1, "init": "s",
 "states": [{"id": "s"}, {"id": "a"}, {"id": "c"}, {"id": "a::transition::b"}, {"id": "b::transition::c"}],
 "transitions": [
  {"from": "s", "event": "x", "to": "a"},
  {"from": "s", "event": "y", "to": "a::transition::b"},
  {"from": "a", "event": "e1", "to": "b::transition::c"},
  {"from": "a::transition::b", "event": "e2", "to": "c"}]}`)
	state := writeTemp(t, "state.json", `{"schemaVersion": 1, "init": "s",
 "states": [{"id": "s"}, {"id": "t"}],
 "transitions": [{"from": "s", "event": "go", "to": "t", "updates": [{"variable": "state", "op": "inc"}]}],
 "variables": [{"name": "state", "kind": "integer", "init": 5}]}`)
	for _, c := range []struct{ model, query string }{
		{labels, `check reach <= 3: active("b::transition::c");`},
		{labels, `check reach <= 3: active("c");`},
		{state, `check reach <= 2: active("t") && var("state") == 6;`},
	} {
		for _, explain := range []string{"none", "proof"} {
			out, stderr, code := runCLI(t, "bmc", c.model, "--check", c.query, "--explain", explain)
			if code != 0 || !strings.Contains(out, "WITNESS FOUND") {
				t.Errorf("%s --explain %s: exit %d, want a witness\n%s%s", c.query, explain, code, out, stderr)
			}
		}
	}
	// prove's bounded search: a variable named pc was the unrolling's
	// node counter, and the violation at depth 2 was not found.
	pc := writeTemp(t, "pc.json", `{"schemaVersion": 1, "init": "s",
 "states": [{"id": "s"}, {"id": "t"}, {"id": "u"}],
 "transitions": [{"from": "s", "event": "go", "to": "t", "updates": [{"variable": "pc", "op": "inc"}]},
   {"from": "t", "event": "go", "to": "u", "updates": [{"variable": "pc", "op": "inc"}]}],
 "variables": [{"name": "pc", "kind": "integer", "init": 5}],
 "invariants": [{"id": "small", "description": "pc stays below 7", "kind": "var-in-range", "variable": "pc", "max": 6}]}`)
	if out, stderr, code := runCLI(t, "prove", pc, "--timeout-ms", "5000"); code != 1 || !strings.Contains(out, "VIOLATED") {
		t.Errorf("prove with a variable named pc: exit %d, want 1 (violated)\n%s%s", code, out, stderr)
	}
}

// FuzzNamesThroughBMC: any name a model accepts, through bmc and its
// explanation: a decided answer (the invariant holds to the bound, the
// negative value is unreachable), never an input or solver error.
func FuzzNamesThroughBMC(f *testing.F) {
	for _, name := range hostileNames {
		f.Add(name)
	}
	f.Fuzz(func(t *testing.T, name string) {
		model := writeTemp(t, "m.json", namedModel(name))
		if _, _, code := runCLI(t, "verify", model); code == 2 {
			t.Skip("a name the model format refuses")
		}
		if out, stderr, code := runCLI(t, "bmc", model, "--bound", "4"); code != 0 {
			t.Fatalf("bmc --bound with names %q: exit %d\n%s%s", name, code, out, stderr)
		}
		q, _ := json.Marshal(name + "v")
		if out, stderr, code := runCLI(t, "bmc", model, "--check", "check reach <= 3: var("+string(q)+") < 0;", "--explain", "proof"); code != 1 {
			t.Fatalf("bmc --explain with names %q: exit %d\n%s%s", name, code, out, stderr)
		}
	})
}
