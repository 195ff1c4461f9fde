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
// satisfy schemas/bmc.schema.json; a free-input FCSTM model refuses the
// clause with its position (exit 2).
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
	simulateLoop(t, light, doc)
	// Without the clause, the same reports have no fairness fields.
	doc, _ = bmcJSON(t, light, "--check", `check must_reach <= 10: active("OFF");`)
	if field(doc, "property", "fair") != nil || field(doc, "witness", "loop_start") != nil {
		t.Errorf("plain report carries fairness fields: %v %v", doc["property"], field(doc, "witness", "loop_start"))
	}
	_, stderr, code := runCLI(t, "bmc", "../../examples/fcstm/door.fcstm", "--check", `check must_reach <= 3 fair {"Door.Request"}: true;`)
	if code != 2 || stderr != "stateproof bmc: <check>:1:23: a fair clause is supported on JSON models only (docs/queries.md#fairness) [unsupported_fairness]\n" {
		t.Errorf("fcstm: exit %d, stderr %q", code, stderr)
	}
}

// simulateLoop goes round the lasso of a fair counterexample twice on the
// runtime, with simulate --from-witness starting at the loop start: the run
// must come back to the loop start's state and variables each time, or
// the lasso would not repeat forever.
func simulateLoop(t *testing.T, model string, doc map[string]any) {
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
		for _, e := range s.(map[string]any)["consumed_events"].([]any) {
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
