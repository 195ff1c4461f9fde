package main

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// A fair clause on the command line (docs/queries.md#fairness): the storm
// of button presses is no fair counterexample, so the answer is
// incomplete (exit 3, never 0); the light's own cycle is a fair lasso
// that avoids OFF (exit 1, replayed, with its loop start); the reports
// satisfy schemas/bmc.schema.json.
func TestBMCFairClause(t *testing.T) {
	const light = "../../examples/broken/a9-traffic-light-no-fairness.json"
	doc, code := bmcJSON(t, light, "--check", `check must_reach <= 10 fair {"tick"}: active("GREEN") || active("OFF");`)
	if code != 3 || field(doc, "result", "outcome") != "incomplete" || field(doc, "result", "property_satisfied") != nil || doc["witness"] != nil {
		t.Errorf("storm: exit %d, result %v", code, doc["result"])
	}
	if f, _ := field(doc, "property", "fair").([]any); len(f) != 1 || f[0] != "tick" {
		t.Errorf("property.fair = %v", field(doc, "property", "fair"))
	}
	doc, code = bmcJSON(t, light, "--check", `check must_reach <= 10 fair {"tick"}: active("OFF");`)
	if code != 1 || field(doc, "result", "outcome") != "property_violated" || field(doc, "replay", "ok") != true {
		t.Errorf("lasso: exit %d, outcome %v, replay %v", code, field(doc, "result", "outcome"), field(doc, "replay", "ok"))
	}
	if l, ok := field(doc, "witness", "loop_start").(float64); !ok || l < 0 || l >= 10 {
		t.Errorf("witness.loop_start = %v", field(doc, "witness", "loop_start"))
	}
	simulateLoop(t, light, doc, "consumed_events")
	// Without the clause, the same reports have no fairness fields.
	doc, _ = bmcJSON(t, light, "--check", `check must_reach <= 10: active("OFF");`)
	if field(doc, "property", "fair") != nil || field(doc, "witness", "loop_start") != nil {
		t.Errorf("plain report carries fairness fields: %v %v", doc["property"], field(doc, "witness", "loop_start"))
	}
}

// A fair clause on an FCSTM model, whose events are free inputs: with
// every event fair, the door cannot stay out of Open (Request is read in
// Closed, Done in Opening), so there is no fair lasso (exit 3); with only
// Request fair, the door may wait in Opening forever, where Request is
// not read: a fair lasso (exit 1), replayed on the FCSTM runtime, whose
// loop simulate goes round again.
func TestBMCFairClauseFCSTM(t *testing.T) {
	const door = "../../examples/fcstm/door.fcstm"
	doc, code := bmcJSON(t, door, "--check", `check must_reach <= 4 fair *: active("Door.Open");`)
	if code != 3 || field(doc, "result", "outcome") != "incomplete" || doc["witness"] != nil {
		t.Errorf("fair *: exit %d, result %v", code, doc["result"])
	}
	doc, code = bmcJSON(t, door, "--check", `check must_reach <= 4 fair {"Door.Request"}: active("Door.Open");`)
	if code != 1 || field(doc, "result", "outcome") != "property_violated" || field(doc, "replay", "ok") != true {
		t.Fatalf("fair Request: exit %d, outcome %v, replay %v", code, field(doc, "result", "outcome"), field(doc, "replay", "ok"))
	}
	if f, _ := field(doc, "property", "fair").([]any); len(f) != 1 || f[0] != "Door.Request" {
		t.Errorf("property.fair = %v", field(doc, "property", "fair"))
	}
	simulateLoop(t, door, doc, "input_events")
}

// simulateLoop goes round the lasso of a fair counterexample twice on the
// runtime, with simulate --from-witness starting at the loop start and
// each step's events read from its field inputs (an FCSTM step's input
// events include those it reads for fairness): the run must come back to
// the loop start's state and variables each time, or the lasso would not
// repeat forever.
func simulateLoop(t *testing.T, model string, doc map[string]any, inputs string) {
	t.Helper()
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	report := writeTemp(t, "witness.json", string(raw))
	w := doc["witness"].(map[string]any)
	l := int(w["loop_start"].(float64))
	var round []string
	for _, s := range w["steps"].([]any)[l:] {
		var evs []string
		for _, e := range s.(map[string]any)[inputs].([]any) {
			if m, ok := e.(map[string]any); ok {
				e = m["path"] // an input event: its path and why it is there
			}
			evs = append(evs, e.(string))
		}
		round = append(round, strings.Join(evs, ","))
	}
	events := strings.Join(append(round, round...), ";")
	out, stderr, code := runCLI(t, "simulate", model, "--from-witness", report, "--frame", strconv.Itoa(l), "--events", events, "--json")
	if code != 0 {
		t.Fatalf("simulate: exit %d, %s", code, stderr)
	}
	var sim struct {
		Cycles []struct {
			State string
			Vars  map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &sim); err != nil {
		t.Fatal(err)
	}
	start := w["frames"].([]any)[l].(map[string]any)
	for _, k := range []int{len(round) - 1, 2*len(round) - 1} {
		got := sim.Cycles[k]
		if got.State != start["state"] || !reflect.DeepEqual(got.Vars, start["vars"]) {
			t.Errorf("after cycle %d: %s %v, want the loop start %v %v", k+1, got.State, got.Vars, start["state"], start["vars"])
		}
	}
}
