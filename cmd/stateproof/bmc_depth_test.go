package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/schematest"
)

// finite cycles A -> B -> C -> A; n takes 0, 1, 2; A -> C never fires
// (n is never above 5). Its reachable space: the unstarted root (frame
// 0), A (1), B (2), C (3) and A again with n == 2 (4): five states,
// diameter 4.
const finite = `def int n = 0;
state R {
    state A;
    state B { enter { n = 1; } }
    state C { enter { n = 2; } }
    [*] -> A;
    A -> B :: Go;
    B -> C :: Go;
    C -> A :: Back;
    A -> C : if [n > 5];
}
`

// bmc's every-depth note (issue 39 item 6): claimed when the explicit
// search finds the space finite with every state within the bound and
// the same answer; never when the space is infinite, deeper than the
// bound, or the query has a clause the search does not model.
func TestBMCEveryDepthNote(t *testing.T) {
	fin := writeTemp(t, "finite.fcstm", finite)
	counter := writeTemp(t, "counter.fcstm", "def int x = 0;\nstate R {\n    state A { during { x = x + 1; } }\n    [*] -> A;\n}\n")
	never := `case("R.A::transition::R.C::0")`
	for _, c := range []struct {
		model, query, outcome string
		states, diameter      int // 0: no note
	}{
		{fin, "check invariant <= 4: n <= 2;", "property_satisfied", 5, 4},
		{fin, "check invariant <= 9: n <= 2;", "property_satisfied", 5, 4},
		{fin, "check invariant <= 3: n <= 2;", "property_satisfied", 0, 0}, // diameter 4 > bound 3
		{fin, "check reach <= 4: n == 3;", "no_witness", 5, 4},
		{fin, "check forbid <= 4: active(\"R.A\") && n == 1;", "property_satisfied", 5, 4},
		// a case is taken on a step out of a state: bound 5 for diameter 4
		{fin, "check cover <= 5: " + never + ";", "no_witness", 5, 4},
		{fin, "check cover <= 4: " + never + ";", "no_witness", 0, 0},
		// the assumption cuts C off: the root, A and B, diameter 2
		{fin, "assume always: n != 2;\ncheck invariant <= 2: n <= 1;", "property_satisfied", 3, 2},
		// assume at K names a frame: the search does not model it
		{fin, "assume at 1: true;\ncheck invariant <= 5: n <= 2;", "property_satisfied", 0, 0},
		{fin, "init cold;\ncheck invariant <= 5: n <= 2;", "property_satisfied", 5, 4},
		// x grows without end: the search stops at the bound's depth
		{counter, "check invariant <= 5: x >= 0;", "property_satisfied", 0, 0},
		// a violated property has its counterexample, not the note
		{fin, "check invariant <= 5: n <= 1;", "property_violated", 0, 0},
	} {
		doc, _ := bmcJSON(t, c.model, "--check", c.query)
		if got := field(doc, "result", "outcome"); got != c.outcome {
			t.Errorf("%s: outcome %v, want %s", c.query, got, c.outcome)
		}
		note := field(doc, "result", "every_depth")
		want := any(nil)
		if c.states > 0 {
			want = map[string]any{"engine": "explicit", "states": float64(c.states), "diameter": float64(c.diameter)}
		}
		if gotJSON, wantJSON := mustJSON(t, note), mustJSON(t, want); gotJSON != wantJSON {
			t.Errorf("%s: every_depth %s, want %s", c.query, gotJSON, wantJSON)
		}
	}
	out, _, code := runCLI(t, "bmc", fin, "--check", "check invariant <= 4: n <= 2;")
	if code != 0 || !strings.Contains(out, "  holds at every depth (explicit search: 5 states, diameter 4;") {
		t.Errorf("exit %d, text without the note:\n%s", code, out)
	}
	out, _, _ = runCLI(t, "bmc", fin, "--check", "check reach <= 4: n == 3;")
	if !strings.Contains(out, "  no witness at any depth (explicit search: 5 states, diameter 4;") {
		t.Errorf("text without the note:\n%s", out)
	}
	out, _, _ = runCLI(t, "bmc", fin, "--check", "check invariant <= 3: n <= 2;")
	if strings.Contains(out, "every depth") {
		t.Errorf("the note with diameter 4 > bound 3:\n%s", out)
	}
}

// The schema declares every_depth: a report with the field malformed is
// refused, so the CLI tests' validation of every report checks it.
func TestBMCEveryDepthSchema(t *testing.T) {
	fin := writeTemp(t, "finite.fcstm", finite)
	out, _, _ := runCLI(t, "bmc", "--json", fin, "--check", "check invariant <= 4: n <= 2;")
	if err := schematest.Validate(t, "bmc", []byte(out)); err != nil {
		t.Fatalf("the report: %v", err)
	}
	for _, bad := range []string{`"states": "5"`, `"engine": "z3"`, `"extra": 1, "states": 5`} {
		var doc map[string]any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		var note map[string]any
		if err := json.Unmarshal([]byte(`{"engine": "explicit", "diameter": 4, `+bad+`}`), &note); err != nil {
			t.Fatal(err)
		}
		doc["result"].(map[string]any)["every_depth"] = note
		if err := schematest.Validate(t, "bmc", []byte(mustJSON(t, doc))); err == nil {
			t.Errorf("every_depth with %s: the schema accepts it", bad)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
