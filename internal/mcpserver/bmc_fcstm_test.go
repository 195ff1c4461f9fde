package mcpserver

import (
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
