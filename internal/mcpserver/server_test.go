package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/schematest"
)

func connect(t *testing.T) *mcp.ClientSession {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return connectServing(t, dir)
}

// connectServing connects a client to a server whose root is dir, as
// `stateproof mcp --root dir`; both are closed when the test ends.
func connectServing(t *testing.T, dir string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := New("test", Config{Files: servedFiles(t, dir)}).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// repoFiles serves the repository's files, as `stateproof mcp --root ../..`.
func repoFiles(t testing.TB) input.Reader {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return servedFiles(t, dir)
}

// servedFiles reads files under dir only, as `stateproof mcp --root dir`.
func servedFiles(t testing.TB, dir string) input.Reader {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return input.Reader{Root: root}
}

// reportTools return a report contract, validated against its schema on
// every call; draw and show return text.
var reportTools = map[string]bool{"verify": true, "compose": true, "bmc": true, "prove": true, "simulate": true, "inspect": true}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (map[string]any, *mcp.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	data, _ := json.Marshal(res.StructuredContent)
	if !res.IsError && reportTools[tool] {
		schematest.Report(t, tool, data)
	}
	var out map[string]any
	json.Unmarshal(data, &out)
	return out, res
}

func TestToolsListed(t *testing.T) {
	cs := connect(t)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "bmc,compose,draw,generate,inspect,prove,show,simulate,verify" {
		t.Errorf("tools = %v", names)
	}
}

func TestVerifyInlineAndByPath(t *testing.T) {
	cs := connect(t)
	model := map[string]any{
		"schemaVersion": 1, "init": "A",
		"states":      []any{map[string]any{"id": "A"}, map[string]any{"id": "B"}},
		"transitions": []any{map[string]any{"from": "A", "event": "go", "to": "B"}},
	}
	out, _ := call(t, cs, "verify", map[string]any{"model": model})
	if out["schema"] != "logicprobe/verify/v1" || out["verdict"] != "fail" || !strings.Contains(out["verdictReason"].(string), "S2_NO_TRANSITIONS") {
		t.Errorf("inline verify = %v %v", out["verdict"], out["verdictReason"])
	}
	out, _ = call(t, cs, "verify", map[string]any{"path": "examples/order.json"})
	if out["verdict"] != "pass_with_findings" {
		t.Errorf("order.json verdict = %v", out["verdict"])
	}
	_, res := call(t, cs, "verify", map[string]any{})
	if !res.IsError {
		t.Error("a call without a model must be a tool error")
	}
}

func TestBMCAndCompose(t *testing.T) {
	cs := connect(t)
	out, _ := call(t, cs, "bmc", map[string]any{"path": "examples/order.json", "query": `check reach <= 6: active("SHIPPED") && retry == 2;`, "shortest": true})
	result, _ := out["result"].(map[string]any)
	replay, _ := out["replay"].(map[string]any)
	if result["outcome"] != "witness_found" || replay["ok"] != true {
		t.Errorf("bmc = %v, replay %v", result["outcome"], replay["ok"])
	}
	_, res := call(t, cs, "bmc", map[string]any{"path": "examples/order.json", "query": `check reach <= 2: active("NOPE");`})
	if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "unknown_state") {
		t.Errorf("bad query: %+v", res.Content)
	}
	out, _ = call(t, cs, "bmc", map[string]any{"path": "examples/order.json", "explain": "proof",
		"query": "assume at 2: retry == 1;\nassume at 2: retry == 2;\ncheck reach <= 3: active(\"DONE\");"})
	if field := out["result"].(map[string]any)["feasibility"].(map[string]any)["explanation"]; field == nil {
		t.Errorf("explanation missing: %v", out["result"])
	} else if cl := field.(map[string]any)["classification"]; cl != "assumptions_self_conflict" {
		t.Errorf("classification = %v", cl)
	}
	out, _ = call(t, cs, "compose", map[string]any{"machines": []any{
		map[string]any{"path": "examples/compose/handshake-client.json"},
		map[string]any{"path": "examples/compose/handshake-server.json"}}, "rendezvous": []any{"req", "ack"}})
	if out["schema"] != "logicprobe/compose/v1" || out["verdict"] != "fail" {
		t.Errorf("compose = %v %v", out["schema"], out["verdict"])
	}
}

func TestSimulate(t *testing.T) {
	cs := connect(t)
	src := "def int n = 0;\nstate R {\n  state A { during { n = n + 1; } }\n  state B;\n  [*] -> A;\n  A -> B :: Go effect { n = n * 1000000000000; }\n}\n"
	out, _ := call(t, cs, "simulate", map[string]any{"source": src, "cycles": []any{[]any{}, []any{"Go"}, []any{"Nope"}}})
	cycles, _ := out["cycles"].([]any)
	if out["schema"] != "stateproof/simulate/v1" || len(cycles) != 3 {
		t.Fatalf("report %v", out)
	}
	second := cycles[1].(map[string]any)
	third := cycles[2].(map[string]any)
	if second["state"] != "R.B" || third["error"] == nil {
		t.Errorf("cycles %v", cycles)
	}
	if n := second["vars"].(map[string]any)["n"]; n != float64(1e12) {
		t.Errorf("n = %v", n)
	}
	out, _ = call(t, cs, "simulate", map[string]any{"source": "state R { state A; }", "cycles": []any{}})
	if e, _ := out["error"].(map[string]any); e == nil || e["class"] != "validation" {
		t.Errorf("load failure: %v", out)
	}
	// A start that fails is a report of its own (validated by call against
	// the output schema, which refused class init before).
	out, _ = call(t, cs, "simulate", map[string]any{"source": "def int y = 1 / 0;\nstate R { state A; [*] -> A; }\n", "cycles": []any{[]any{}}})
	if e, _ := out["error"].(map[string]any); e == nil || e["class"] != "init" || e["line"] != float64(1) || e["col"] != float64(13) {
		t.Errorf("init failure: %v", out)
	}
	out, _ = call(t, cs, "simulate", map[string]any{"source": src, "initState": "R.Nowhere", "initVars": map[string]any{"n": 7}, "cycles": []any{}})
	if e, _ := out["error"].(map[string]any); e == nil || e["class"] != "init" || !strings.Contains(e["message"].(string), "R.Nowhere") {
		t.Errorf("hot start failure: %v", out)
	}
	// A JSON model by path: one event per cycle, the same contract.
	out, _ = call(t, cs, "simulate", map[string]any{"path": "examples/order.json", "cycles": []any{[]any{"pay"}, []any{"ship"}}})
	if c, _ := out["cycles"].([]any); len(c) != 2 || c[1].(map[string]any)["state"] != "SHIPPED" {
		t.Errorf("JSON model: %v", out)
	}
	out, _ = call(t, cs, "simulate", map[string]any{"source": src, "initState": "R.B", "initVars": map[string]any{"n": 7}, "cycles": []any{[]any{}}})
	if c := out["cycles"].([]any)[0].(map[string]any); c["state"] != "R.B" || c["vars"].(map[string]any)["n"] != float64(7) {
		t.Errorf("hot start: %v", out)
	}
}
