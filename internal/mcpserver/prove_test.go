package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/schemas"
)

func TestProveTool(t *testing.T) {
	cs := connect(t)
	out, _ := call(t, cs, "prove", map[string]any{"path": "examples/retry.json"})
	if out["schema"] != "stateproof/prove/v1" || out["verdict"] != "proved" || out["certificate"] == nil {
		t.Errorf("prove retry.json = %v %v", out["verdict"], out["certificate"])
	}
	out, _ = call(t, cs, "prove", map[string]any{"path": "bench/retry-unbounded-unsafe.json"})
	if out["verdict"] != "violated" {
		t.Errorf("prove unsafe = %v", out["verdict"])
	}
	out, _ = call(t, cs, "prove", map[string]any{"path": "examples/retry.json", "rsc": `rsc "WAIT": retry <= 2;`})
	if out["verdict"] != "violated" {
		t.Errorf("retry <= 2 at WAIT = %v (the third retry waits with 3)", out["verdict"])
	}
	// FCSTM: by path with the example's RSCs, and inline source.
	out, _ = call(t, cs, "prove", map[string]any{"path": "examples/fcstm/retry.fcstm", "rsc": `rsc "Client.Waiting": var("backoff") == 2;`})
	if out["verdict"] != "violated" {
		t.Errorf("FCSTM retry backoff == 2 at Waiting = %v (the second wait has backoff 4)", out["verdict"])
	}
	props, _ := out["properties"].([]any)
	if len(props) != 1 || !strings.Contains(fmt.Sprint(props[0]), "replayed on the runtime: agrees") {
		t.Errorf("FCSTM violation not replayed: %v", props)
	}
	src := "def int n = 0;\nstate R {\n    state A;\n    [*] -> A;\n    A -> A :: Tick effect { n = n + 2; }\n}\n"
	out, _ = call(t, cs, "prove", map[string]any{"model": src, "format": "fcstm", "rsc": `rsc "R.A": n % 2 == 0 && n >= 0;`})
	if out["verdict"] != "proved" {
		t.Errorf("inline FCSTM n even = %v", out["verdict"])
	}
	for _, bad := range []map[string]any{
		{"path": "examples/fcstm/retry.fcstm"},
		{"path": "examples/fcstm/retry.fcstm", "rsc": `rsc "Client.Decide": true;`},
		{"path": "examples/retry.json", "rsc": `rsc "NOPE": true;`},
		{"path": "examples/retry.json", "timeoutMs": -1},
		{},
	} {
		if _, res := call(t, cs, "prove", bad); !res.IsError {
			t.Errorf("%v: not a tool error", bad)
		}
	}
}

func TestBMCBound(t *testing.T) {
	cs := connect(t)
	out, _ := call(t, cs, "bmc", map[string]any{"path": "examples/retry.json", "bound": 6})
	checks, _ := out["checks"].([]any)
	if out["schema"] != "stateproof/bmc/v1" || out["bound"] != float64(6) || len(checks) == 0 || out["exit_code"] != float64(0) {
		t.Errorf("bmc bound = %v", out)
	}
	for _, bad := range []map[string]any{
		{"path": "examples/retry.json"},
		{"path": "examples/retry.json", "bound": 3, "query": "check reach <= 1: true;"},
		{"path": "examples/retry.json", "bound": -2},
	} {
		if _, res := call(t, cs, "bmc", bad); !res.IsError {
			t.Errorf("%v: not a tool error", bad)
		}
	}
}

// TestToolContracts: every tool declares its report's JSON Schema as its
// output schema, and the instructions name every tool.
func TestToolContracts(t *testing.T) {
	cs := connect(t)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"verify": "verify", "compose": "compose", "bmc": "bmc", "prove": "prove", "simulate": "simulate"}
	for _, tl := range tools.Tools {
		name, ok := want[tl.Name]
		if !ok {
			continue
		}
		delete(want, tl.Name)
		got, _ := json.Marshal(tl.OutputSchema)
		var g, w map[string]any
		json.Unmarshal(got, &g)
		data, _ := schemas.Get(name)
		json.Unmarshal(data, &w)
		if g["$id"] != w["$id"] || g["$id"] == nil {
			t.Errorf("%s: output schema %v, want %v", tl.Name, g["$id"], w["$id"])
		}
		if tl.InputSchema == nil {
			t.Errorf("%s: no input schema", tl.Name)
		}
	}
	if len(want) != 0 {
		t.Errorf("tools missing: %v", want)
	}
	init := cs.InitializeResult()
	for _, tool := range []string{"verify", "compose", "bmc", "prove", "simulate"} {
		if !strings.Contains(init.Instructions, "-> "+tool) {
			t.Errorf("the instructions do not say when to use %s: %q", tool, init.Instructions)
		}
	}
}

// The prove tool's budget counts loading, as the command line's does: a
// budget spent before the problem is loaded is an unknown report whose
// one layer, loading, timed out (it was a wait past the budget before).
func TestProveLoadingTimeoutIsAReport(t *testing.T) {
	cs := connect(t)
	out, res := call(t, cs, "prove", map[string]any{"model": ringModel(20000), "infer": true, "timeoutMs": 1})
	layers, _ := out["layers"].([]any)
	if res.IsError || out["verdict"] != "unknown" || out["exit_code"] != float64(3) || len(layers) != 1 {
		t.Fatalf("error %v (%s), verdict %v, exit %v, layers %v; want an unknown report", res.IsError, toolText(res), out["verdict"], out["exit_code"], out["layers"])
	}
	if l := layers[0].(map[string]any); l["layer"] != "loading" || l["outcome"] != "timeout" || !strings.Contains(fmt.Sprint(out["inferred_reason"]), "timeout while loading <inline model>") {
		t.Errorf("layer %v, inferred_reason %v", l, out["inferred_reason"])
	}
}
