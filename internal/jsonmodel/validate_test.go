package jsonmodel

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// base is a valid model that the cases below extend through placeholders.
const base = `{
  "schemaVersion": 1,
  "init": "IDLE",
  "states": [{"id": "IDLE"}, {"id": "BUSY"}, {"id": "DONE", "terminal": true}%s],
  "transitions": [
    {"from": "IDLE", "event": "start", "to": "BUSY", "guard": {"variable": "armed", "op": "==", "value": true}},
    {"from": "BUSY", "event": "retry", "to": "BUSY", "guard": {"variable": "n", "op": "<", "value": 3}, "updates": [{"variable": "n", "op": "inc"}]},
    {"from": "BUSY", "event": "finish", "to": "DONE"}%s
  ],
  "variables": [
    {"name": "n", "kind": "integer", "init": 0, "min": 0, "max": 3},
    {"name": "armed", "kind": "boolean", "init": true}
  ]%s
}`

func model(states, transitions, rest string) string {
	return strings.Replace(strings.Replace(strings.Replace(base, "%s", states, 1), "%s", transitions, 1), "%s", rest, 1)
}

func decode(t *testing.T, src string) *Result {
	t.Helper()
	res, err := Decode([]byte(src))
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	return res
}

func TestValidBase(t *testing.T) {
	res := decode(t, model("", "", ""))
	if !res.Valid() {
		t.Fatalf("base model invalid: %v", res.Errors)
	}
	m := res.Model
	if got := m.Alphabet(); !reflect.DeepEqual(got, []string{"finish", "retry", "start"}) {
		t.Errorf("alphabet = %v", got)
	}
	if u := m.Transitions[1].Updates[0]; u.Op != "inc" || u.Value != 1 {
		t.Errorf("inc default value not filled: %+v", u)
	}
	if m.Transitions[0].Cost != 1 || m.Transitions[0].Weight != 1 || m.Transitions[0].HasCost {
		t.Errorf("cost/weight defaults wrong: %+v", m.Transitions[0])
	}
}

func TestValidationErrors(t *testing.T) {
	cases := []struct {
		name             string
		states, tr, rest string
		want             string
	}{
		{"misspelt maximum", "", "", `, "invariants": [{"id": "c", "description": "d", "kind": "var-in-range", "variable": "n", "maximum": 0}]`,
			`invariants[0].maximum: unknown field for kind var-in-range (allowed: id, description, kind, variable, min, max, when)`},
		{"state for states", "", "", `, "invariants": [{"id": "c", "description": "d", "kind": "never-states", "state": ["DONE"]}]`,
			`invariants[0].state: unknown field for kind never-states`},
		{"gaurd", "", `, {"from": "IDLE", "event": "stop", "to": "DONE", "gaurd": {}}`, "", `transitions[3].gaurd: unknown field for transition`},
		{"update for updates", "", `, {"from": "IDLE", "event": "stop", "to": "DONE", "update": []}`, "", `transitions[3].update: unknown field for transition`},
		{"top-level typo", "", "", `, "sttes": []`, `sttes: unknown field for model`},
		{"unknown state", "", `, {"from": "IDLE", "event": "stop", "to": "GONE"}`, "", `transitions[3].to: unknown state "GONE"`},
		{"unknown variable in guard", "", `, {"from": "IDLE", "event": "stop", "to": "DONE", "guard": {"not": {"variable": "m", "op": "==", "value": 1}}}`, "", `transitions[3].guard.not.variable: unknown variable "m"`},
		{"boolean ordering", "", `, {"from": "IDLE", "event": "stop", "to": "DONE", "guard": {"variable": "armed", "op": "<", "value": true}}`, "", `transitions[3].guard.op: boolean variable "armed" only supports == and !=`},
		{"non-integer value", "", `, {"from": "IDLE", "event": "stop", "to": "DONE", "guard": {"variable": "n", "op": "<", "value": 2.5}}`, "", `transitions[3].guard.value: expected integer`},
		{"mixed guard shapes", "", `, {"from": "IDLE", "event": "stop", "to": "DONE", "guard": {"variable": "n", "op": "<", "value": 2, "all": []}}`, "", `transitions[3].guard: a guard node has exactly one shape, found variable, all`},
		{"duplicate key", `, {"id": "X", "id": "Y"}`, "", "", `states[3].id: duplicate key "id"`},
		{"duplicate state", `, {"id": "BUSY"}`, "", "", `states[3].id: duplicate state "BUSY"`},
		{"metadata-looking id", `, {"id": "_X"}`, "", "", `states[3].id: identifier "_X" must not start with "_"`},
		{"missing description", "", "", `, "invariants": [{"id": "c", "kind": "never-states", "states": ["DONE"]}]`, `invariants[0].description: required field missing`},
		{"when on leads-to", "", "", `, "invariants": [{"id": "c", "description": "d", "kind": "leads-to", "from": "IDLE", "to": "DONE", "when": {"state": "IDLE"}}]`, `invariants[0].when: unknown field for kind leads-to`},
		{"when reads its own variable", "", "", `, "invariants": [{"id": "c", "description": "d", "kind": "var-in-range", "variable": "n", "max": 3, "when": {"variable": "n", "op": "<", "value": 5}}]`, `invariants[0].when.variable: a ` + "`when`" + ` scope must not read the constrained variable "n"`},
		{"leads-to duplicate target", "", "", `, "invariants": [{"id": "c", "description": "d", "kind": "leads-to", "from": "IDLE", "to": ["DONE", "DONE"]}]`, `invariants[0].to[1]: duplicate state "DONE"`},
		{"leads-to empty set", "", "", `, "invariants": [{"id": "c", "description": "d", "kind": "leads-to", "from": "IDLE", "to": []}]`, `invariants[0].to: must not be empty`},
		{"var-in-range without bounds", "", "", `, "invariants": [{"id": "c", "description": "d", "kind": "var-in-range", "variable": "n"}]`, `invariants[0]: var-in-range needs at least one of min, max`},
		{"unknown event in sequence", "", "", `, "invariants": [{"id": "c", "description": "d", "kind": "sequence", "events": ["start", "stop"]}]`, `invariants[0].events[1]: unknown event "stop"`},
		{"probability out of range", "", "", `, "invariants": [{"id": "c", "description": "d", "kind": "probability", "target": "DONE", "op": ">=", "p": 1.5}]`, `invariants[0].p: must be within [0, 1]`},
		{"duplicate invariant id", "", "", `, "invariants": [{"id": "c", "description": "d", "kind": "never-states", "states": ["DONE"]}, {"id": "c", "description": "d", "kind": "never-states", "states": ["BUSY"]}]`, `invariants[1].id: duplicate invariant id "c"`},
		{"init outside range", "", "", `, "boundaryChecks": [{"entity": "x", "field": "y", "values": [1]}]`, `boundaryChecks[0].entity: unknown field for boundaryCheck (allowed: variable, values)`},
		{"resource pair unknown event", "", "", `, "resourcePairs": [{"resource": "lock", "acquireEvent": "start", "releaseEvent": "unlock"}]`, `resourcePairs[0].releaseEvent: unknown event "unlock"`},
		{"concurrent pair same event", "", "", `, "concurrentPairs": [["start", "start"]]`, `concurrentPairs[0]: a concurrent pair needs two different events`},
		{"empty narrative", "", "", `, "narrative": {}`, `narrative: an empty narrative claims documentation that does not exist`},
		{"narrative of only metadata", "", "", `, "narrative": {"_draft": true}`, `narrative: an empty narrative`},
		{"narrative unknown state", "", "", `, "narrative": {"states": {"GONE": "x"}}`, `narrative.states.GONE: unknown state "GONE"`},
		{"narrative empty text", "", "", `, "narrative": {"events": {"start": ""}}`, `narrative.events.start: expected non-empty string`},
		{"duplicate scenario", "", "", `, "narrative": {"scenarios": [{"from": "IDLE", "event": "start", "scenario": "a"}, {"from": "IDLE", "event": "start", "scenario": "b"}]}`, `narrative.scenarios[1]: duplicate scenario for ("IDLE", "start")`},
		{"scenario the model lacks", "", "", `, "narrative": {"scenarios": [{"from": "DONE", "event": "start", "scenario": "a"}]}`, `narrative.scenarios[0]: describes a scenario the model does not have`},
		{"boolean set without value", "", `, {"from": "IDLE", "event": "stop", "to": "DONE", "updates": [{"variable": "armed", "op": "set"}]}`, "", `transitions[3].updates[0].value: required field missing`},
		{"boolean inc", "", `, {"from": "IDLE", "event": "stop", "to": "DONE", "updates": [{"variable": "armed", "op": "inc"}]}`, "", `transitions[3].updates[0].op: boolean variable "armed" only supports set`},
		{"huge integer", "", `, {"from": "IDLE", "event": "stop", "to": "DONE", "updates": [{"variable": "n", "op": "set", "value": 1e300}]}`, "", `transitions[3].updates[0].value: 1e300 is outside the exact integer range ±(2^53−1)`},
		{"integer past 2^53 that rounds", "", `, {"from": "IDLE", "event": "stop", "to": "DONE", "updates": [{"variable": "n", "op": "set", "value": 9007199254740993}]}`, "", `transitions[3].updates[0].value: 9007199254740993 is outside the exact integer range ±(2^53−1)`},
		{"integer 2^53", "", `, {"from": "IDLE", "event": "stop", "to": "DONE", "guard": {"variable": "n", "op": "<", "value": -9007199254740992}}`, "", `transitions[3].guard.value: -9007199254740992 is outside the exact integer range ±(2^53−1)`},
		{"fraction", "", `, {"from": "IDLE", "event": "stop", "to": "DONE", "updates": [{"variable": "n", "op": "set", "value": 1.5}]}`, "", `transitions[3].updates[0].value: expected integer`},
		{"negative cost", "", `, {"from": "IDLE", "event": "stop", "to": "DONE", "cost": -1}`, "", `transitions[3].cost: must be >= 0`},
		{"schema version", "", "", `, "tickEvents": ["start", "start"]`, `tickEvents[1]: duplicate event "start"`},
		{"fairness unknown event", "", "", `, "fairness": {"weak": ["start", "nope"]}`, `fairness.weak[1]: unknown event "nope"`},
		{"fairness strong unknown event", "", "", `, "fairness": {"strong": ["zzz"]}`, `fairness.strong[0]: unknown event "zzz"`},
		{"fairness weak star only", "", "", `, "fairness": {"weak": "all"}`, `fairness.weak: expected an array of events or "*"`},
		{"fairness unknown key", "", "", `, "fairness": {"weakly": []}`, `fairness.weakly: unknown field for fairness`},
		{"fairness duplicate", "", "", `, "fairness": {"strong": ["start", "start"]}`, `fairness.strong[1]: duplicate event "start"`},
		{"ltl unknown state", "", "", `, "invariants": [{"id": "l", "description": "", "kind": "ltl", "formula": "G (BUSY -> F DNOE)"}]`, `invariants[0].formula: 1:14: unknown state "DNOE"`},
		{"ltl bad syntax", "", "", `, "invariants": [{"id": "l", "description": "", "kind": "ltl", "formula": "G (n > )"}]`, `invariants[0].formula: 1:8: expected an integer after ">", found ")"`},
		{"ltl unknown event", "", "", `, "invariants": [{"id": "l", "description": "", "kind": "ltl", "formula": "F @stop"}]`, `invariants[0].formula: 1:4: unknown event "stop"`},
		{"ltl no formula", "", "", `, "invariants": [{"id": "l", "description": "", "kind": "ltl"}]`, `invariants[0].formula: required field missing`},
		{"ltl empty formula", "", "", `, "invariants": [{"id": "l", "description": "", "kind": "ltl", "formula": ""}]`, `invariants[0].formula: expected non-empty string`},
		{"atomicity closes itself", "", "", `, "invariants": [{"id": "c", "description": "d", "kind": "atomicity", "events": ["start", "finish"], "commit": "finish"}]`, `invariants[0].events: must not contain the closing event "finish"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := decode(t, model(c.states, c.tr, c.rest))
			if res.Valid() {
				t.Fatalf("model accepted; want error %q", c.want)
			}
			for _, e := range res.Errors {
				if strings.Contains(e, c.want) {
					return
				}
			}
			t.Errorf("errors %q lack %q", res.Errors, c.want)
		})
	}
}

func TestSchemaVersionAndRoot(t *testing.T) {
	for src, want := range map[string]string{
		`[]`: `(root): expected object`,
		`{"schemaVersion": 2, "init": "A", "states": [{"id": "A"}], "transitions": []}`: `schemaVersion: must be 1`,
		`{"init": "A", "states": [{"id": "A"}], "transitions": []}`:                     `schemaVersion: required field missing`,
		`{"schemaVersion": 1, "init": "B", "states": [{"id": "A"}], "transitions": []}`: `init: unknown state "B"`,
		`{"schemaVersion": 1, "init": "A", "states": [], "transitions": []}`:            `states: must declare at least one state`,
	} {
		res := decode(t, src)
		if res.Valid() || !strings.Contains(strings.Join(res.Errors, "\n"), want) {
			t.Errorf("%s: errors %q, want %q", src, res.Errors, want)
		}
	}
	// 1.0 is the same number as 1.
	if res := decode(t, `{"schemaVersion": 1.0, "init": "A", "states": [{"id": "A"}], "transitions": []}`); !res.Valid() {
		t.Errorf("schemaVersion 1.0 rejected: %v", res.Errors)
	}
}

func TestAllErrorsCollected(t *testing.T) {
	res := decode(t, `{"schemaVersion": 1, "init": "X", "states": [{"id": "A", "termnal": true}], "transitions": [{"from": "B", "event": "", "to": "A"}]}`)
	want := []string{
		`init: unknown state "X"`,
		`states[0].termnal: unknown field for state (allowed: id, terminal, onEntry, onExit, maxTicks)`,
		`transitions[0].from: unknown state "B"`,
		`transitions[0].event: expected non-empty string`,
	}
	if !reflect.DeepEqual(res.Errors, want) {
		t.Errorf("errors =\n%q\nwant\n%q", res.Errors, want)
	}
}

func TestMetadataKeys(t *testing.T) {
	src := `{"schemaVersion": 1, "_source": "docs/x", "_verified": {"modelHash": "00", "at": "2026", "_by": "x", "_log": [{"_step": 1}]},
	  "init": "A", "states": [{"id": "A", "_note": "n"}], "transitions": [{"from": "A", "event": "go", "to": "A", "_why": "loop", "guard": {"all": [], "_g": 1}}],
	  "invariants": [{"id": "i", "description": "d", "kind": "never-states", "states": ["A"], "_probe": true}]}`
	res := decode(t, src)
	if !res.Valid() {
		t.Fatalf("metadata must not invalidate: %v", res.Errors)
	}
	// `_` keys inside a `_` value are listed too, as the reference does
	// (`_verified._by`); the plain keys of a metadata value are not.
	want := []string{"_source", "_verified", "_verified._by", "_verified._log", "_verified._log[0]._step", "invariants[0]._probe", "states[0]._note", "transitions[0]._why", "transitions[0].guard._g"}
	if !reflect.DeepEqual(res.MetadataKeys, want) {
		t.Errorf("metadataKeys = %q, want %q", res.MetadataKeys, want)
	}
	if res.Model.Invariants[0].Raw.Has("_probe") {
		t.Error("invariant evidence keeps a metadata key")
	}
	plain := decode(t, `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}], "transitions": []}`)
	if plain.MetadataKeys != nil {
		t.Errorf("metadataKeys present without metadata: %q", plain.MetadataKeys)
	}
}

func TestNarrativeCoverage(t *testing.T) {
	res := decode(t, model("", "", `, "narrative": {"states": {"IDLE": "waiting", "BUSY": "working", "DONE": "finished"}, "scenarios": [{"from": "BUSY", "event": "retry", "scenario": "again"}]}`))
	if !res.Valid() {
		t.Fatalf("invalid: %v", res.Errors)
	}
	cov, ok := res.Model.NarrativeCoverage()
	if !ok || cov.States != [2]int{3, 3} || cov.Events != [2]int{0, 3} || cov.Scenarios != [2]int{1, 3} || cov.Complete() {
		t.Errorf("coverage = %+v", cov)
	}
}

func TestWhenScopes(t *testing.T) {
	res := decode(t, model("", "", `, "invariants": [
	  {"id": "a", "description": "d", "kind": "var-in-range", "variable": "n", "max": 3, "when": {"state": "BUSY"}},
	  {"id": "b", "description": "d", "kind": "var-in-range", "variable": "n", "max": 3, "when": {"variable": "armed", "op": "==", "value": true}}]`))
	if !res.Valid() {
		t.Fatalf("invalid: %v", res.Errors)
	}
	if w := res.Model.Invariants[0].When; w == nil || w.State != "BUSY" {
		t.Errorf("state scope = %+v", w)
	}
	if w := res.Model.Invariants[1].When; w == nil || w.Guard == nil || w.Guard.Variable != "armed" || w.Guard.Value != 1 {
		t.Errorf("guard scope = %+v", w)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(model("", "", "")))
	f.Add([]byte(model(`, {"id": "X", "_n": 1}`, `, {"from": "IDLE", "event": "x", "to": "X", "guard": {"any": [{"not": {"variable": "n", "op": ">=", "value": 1}}]}}`, `, "narrative": {"states": {"X": "x"}}, "invariants": [{"id": "i", "description": "", "kind": "leads-to", "from": "IDLE", "to": ["X"]}]`)))
	f.Add([]byte(`{"schemaVersion":1,"init":"A","states":[{"id":"A"}],"transitions":[],"invariants":[{"kind":"var-in-range","when":{"state":1}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Decode(data)
		if err != nil {
			return
		}
		if res.Valid() == (len(res.Errors) > 0) {
			t.Fatalf("Valid() disagrees with %d errors", len(res.Errors))
		}
		for _, e := range res.Errors {
			if !strings.Contains(e, ": ") {
				t.Fatalf("error without a location: %q", e)
			}
		}
	})
}

func TestLocate(t *testing.T) {
	src := "{\n  \"schemaVersion\": 1,\n  \"init\": \"A\",\n  \"states\": [{\"id\": \"A\"},\n    {\"id\": \"B\", \"termnal\": true}],\n  \"transitions\": []\n}"
	res := decode(t, src)
	cases := []struct {
		path      string
		line, col int
		ok        bool
	}{
		{"states[1].termnal", 5, 28, true},
		{"states[1]", 5, 5, true},
		{"states[7].id", 4, 13, true}, // the deepest element that exists
		{"nothing", 1, 1, false},
	}
	for _, c := range cases {
		pos, ok := Locate(res.Raw, c.path)
		if pos.Line != c.line || pos.Col != c.col || ok != c.ok {
			t.Errorf("Locate(%q) = %d:%d %v, want %d:%d %v", c.path, pos.Line, pos.Col, ok, c.line, c.col, c.ok)
		}
	}
}

// A missing top-level field is named once ("init", not "init.init").
func TestMissingTopLevelFieldPath(t *testing.T) {
	res := decode(t, `{}`)
	want := []string{"schemaVersion: required field missing", "init: required field missing", "states: required field missing", "transitions: required field missing"}
	if strings.Join(res.Errors, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors %q, want %q", res.Errors, want)
	}
}

// The fairness block keeps weak and strong events as written; "*" is every
// event of the alphabet, sorted.
func TestFairnessBlock(t *testing.T) {
	res := decode(t, model("", "", `, "fairness": {"weak": "*", "strong": ["start"]}`))
	if !res.Valid() {
		t.Fatalf("errors %q", res.Errors)
	}
	f := res.Model.Fairness
	if f == nil || !f.WeakAll || !slices.Equal(f.Weak, res.Model.Alphabet()) || !slices.Equal(f.Strong, []string{"start"}) {
		t.Errorf("fairness = %+v, alphabet %q", f, res.Model.Alphabet())
	}
	if res := decode(t, model("", "", "")); res.Model.Fairness != nil {
		t.Errorf("no block gave %+v", res.Model.Fairness)
	}
}

// An ltl invariant keeps its formula as written and parsed.
func TestLTLInvariant(t *testing.T) {
	res := decode(t, model("", "", `, "invariants": [{"id": "l", "description": "", "kind": "ltl", "formula": "G (armed && @start -> F (DONE || n >= 3))"}]`))
	if !res.Valid() {
		t.Fatalf("errors %q", res.Errors)
	}
	inv := res.Model.Invariants[0]
	if inv.Kind != LTL || inv.Formula == "" || inv.LTL.String() != "G (((armed == true) && @start) -> F (DONE || (n >= 3)))" {
		t.Errorf("invariant = %+v, parsed %v", inv, inv.LTL)
	}
}
