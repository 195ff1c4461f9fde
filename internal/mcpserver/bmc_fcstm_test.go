package mcpserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The bmc tool takes FCSTM models by path and as source text with a
// format; the witness is replayed on the FCSTM runtime.
func TestBMCOnFCSTM(t *testing.T) {
	cs := connect(t)
	src := "def int x = 0;\nstate R {\n    state A { during { x = x + 2; } }\n    [*] -> A;\n}\n"
	for _, args := range []map[string]any{
		{"path": "examples/fcstm/door.fcstm", "query": `check reach <= 3: active("Door.Open");`},
		{"model": src, "format": "fcstm", "query": `check reach <= 3: var("x") == 4;`},
	} {
		out, res := call(t, cs, "bmc", args)
		if res.IsError {
			t.Fatalf("%v: %v", args, res.Content)
		}
		result, _ := out["result"].(map[string]any)
		replay, _ := out["replay"].(map[string]any)
		if result["outcome"] != "witness_found" || replay["ok"] != true || out["exit_code"] != float64(0) {
			t.Errorf("%v: result %v, replay ok %v", args, result["outcome"], replay["ok"])
		}
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"model": src, "query": "check reach <= 1: true;"}, "name its format"},
		{map[string]any{"model": src, "format": "yaml", "query": "check reach <= 1: true;"}, "unknown model format"},
		{map[string]any{"model": "state R {\n  A -> B;\n}\n", "format": "fcstm", "query": "check reach <= 1: true;"}, "<inline model>:2:"},
		{map[string]any{"path": "examples/fcstm/door.fcstm", "bound": 3}, "declares no"},
	} {
		_, res := call(t, cs, "bmc", c.args)
		if !res.IsError || !strings.Contains(toolText(res), c.want) {
			t.Errorf("%v: error %q, want one containing %q", c.args, toolText(res), c.want)
		}
	}
}

func toolText(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// A bmc call that times out is a report (outcome timeout, exit 3) that
// satisfies its output schema, not a JSON-RPC error (issue 29.6). The
// budget counts from the request (issue 38): 50 ms may run out while
// loading, encoding or solving; 1 ms on a 20,000-state model runs out
// while loading, every time, and says so.
func TestBMCTimeoutIsAReport(t *testing.T) {
	cs := connect(t)
	ring := ringModel(20000)
	for _, c := range []struct {
		args    map[string]any
		loading bool
	}{
		{map[string]any{"path": "examples/order.json", "query": `check reach <= 5000: active("DONE") && retry == 99;`, "timeoutMs": 50}, false},
		{map[string]any{"model": ring, "query": `check reach <= 5000: active("S5");`, "timeoutMs": 1}, true},
	} {
		out, res := call(t, cs, "bmc", c.args)
		result, _ := out["result"].(map[string]any)
		if res.IsError || result["outcome"] != "timeout" || out["exit_code"] != float64(3) {
			t.Fatalf("%v ms: error %v (%s), outcome %v, exit %v; want a timeout report", c.args["timeoutMs"], res.IsError, toolText(res), result["outcome"], out["exit_code"])
		}
		if reason, _ := result["reason"].(string); c.loading && !strings.Contains(reason, "timeout while loading <inline model>") {
			t.Errorf("1 ms: reason %q, diagnostics %v; want the loading phase", reason, result["diagnostics"])
		}
	}
}

// ringModel is a JSON model of n states in a ring: at 20,000 states its
// loading alone takes longer than a 1 ms budget on any machine.
func ringModel(n int) map[string]any {
	states := make([]any, n)
	transitions := make([]any, n)
	for i := range states {
		states[i] = map[string]any{"id": fmt.Sprintf("S%d", i)}
		transitions[i] = map[string]any{"from": fmt.Sprintf("S%d", i), "event": "go", "to": fmt.Sprintf("S%d", (i+1)%n)}
	}
	return map[string]any{"schemaVersion": 1, "init": "S0", "states": states, "transitions": transitions, "variables": []any{}}
}
