package mcpserver

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestDrawReturnsMermaid(t *testing.T) {
	cs := connect(t)
	out, res := call(t, cs, "draw", map[string]any{"path": "examples/order.json"})
	text, _ := out["mermaid"].(string)
	if !strings.HasPrefix(text, "stateDiagram-v2\n") || !strings.Contains(text, `state "SHIPPED" as s2`) || !strings.Contains(text, "s2 --> s2 : fail_delivery [retry #60; 3] / retry += 1") {
		t.Errorf("draw mermaid =\n%s", text)
	}
	if res.IsError || res.Content[0].(*mcp.TextContent).Text != text {
		t.Errorf("the text content must be the Mermaid text")
	}
	_, res = call(t, cs, "draw", map[string]any{"path": "examples/broken/invalid-typo.json"})
	if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "not a valid model") {
		t.Errorf("an invalid model must be a tool error: %+v", res.Content)
	}
}

func TestShowForms(t *testing.T) {
	cs := connect(t)
	out, _ := call(t, cs, "show", map[string]any{"path": "examples/order.json"})
	if out["form"] != "A" || !strings.Contains(out["text"].(string), "NEW (order…)     | pay (the b…)") {
		t.Errorf("show A = %v\n%v", out["form"], out["text"])
	}
	out, _ = call(t, cs, "show", map[string]any{"path": "examples/order.json", "form": "A", "width": 50})
	if out["form"] != "C" {
		t.Errorf("form A at width 50 must fall back to C, got %v", out["form"])
	}
	out, _ = call(t, cs, "show", map[string]any{"path": "examples/order.json", "form": "B"})
	if !strings.Contains(out["text"].(string), "1. payment succeeds, the order waits for shipping\n   state: NEW (order created, waiting for payment)") {
		t.Errorf("show B =\n%v", out["text"])
	}
	_, res := call(t, cs, "show", map[string]any{"path": "examples/order.json", "form": "D"})
	if !res.IsError {
		t.Error("form D must be a tool error")
	}
}
