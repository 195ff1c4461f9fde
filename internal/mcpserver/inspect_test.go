package mcpserver

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/inspect"
)

// TestInspectTool: the inspect tool returns the document `stateproof
// inspect --format json` prints, by path and inline; ignore drops codes
// and counts them; a model that does not load is a result (loaded false,
// its load errors), bad input a tool error.
func TestInspectTool(t *testing.T) {
	cs := connect(t)
	const path = "examples/fcstm/door.fcstm"
	out, res := call(t, cs, "inspect", map[string]any{"path": path})
	if res.IsError {
		t.Fatalf("inspect %s: %s", path, toolText(res))
	}
	want, err := inspect.File(path, inspect.Options{Model: model.ReaderOptions(repoFiles(t))})
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := json.Marshal(want); !sameJSON(t, data, out) {
		t.Errorf("inspect tool = %v\nwant the CLI's document %s", out, data)
	}
	if out["schema"] != inspect.Schema || len(out["diagnostics"].([]any)) == 0 {
		t.Fatalf("inspect %s = %v", path, out)
	}

	src := "def int spare = 0;\nstate R {\n    state A;\n    state B;\n    [*] -> A;\n    A -> B :: Go;\n    B -> A :: Back;\n}\n"
	out, _ = call(t, cs, "inspect", map[string]any{"model": src})
	if codes := diagCodes(out); !reflect.DeepEqual(codes, []string{"W_UNREFERENCED_VAR"}) || out["file"] != "<inline model>" {
		t.Errorf("inline: codes %v in %v", codes, out)
	}
	out, _ = call(t, cs, "inspect", map[string]any{"model": src, "ignore": []string{"W_UNREFERENCED_VAR"}})
	if codes := diagCodes(out); len(codes) != 0 || out["suppressed"] != float64(1) {
		t.Errorf("ignored: codes %v, suppressed %v", codes, out["suppressed"])
	}
	out, res = call(t, cs, "inspect", map[string]any{"model": "state R { state A; state A; [*] -> A; }\n"})
	if res.IsError || out["loaded"] != false || !reflect.DeepEqual(diagCodes(out), []string{"E_DUPLICATE_STATE"}) {
		t.Errorf("model that does not load: %v %s", out, toolText(res))
	}
	guarded := "def int x = 0;\nstate R {\n    state A;\n    state B;\n    [*] -> A;\n    A -> B : if [x > 0];\n}\n"
	out, _ = call(t, cs, "inspect", map[string]any{"model": guarded, "search": true, "maxStates": 1000})
	found := false
	ds, _ := out["diagnostics"].([]any)
	for _, d := range ds {
		d, _ := d.(map[string]any)
		if refs, _ := d["refs"].(map[string]any); d["code"] == "W_UNREACHABLE_STATE" {
			found = d["basis"] == "search" && refs["configurations_searched"] != nil
		}
	}
	if !found {
		t.Errorf("search: no W_UNREACHABLE_STATE by search in %v", out)
	}
	for _, bad := range []map[string]any{
		{},
		{"model": src, "path": path},
		{"model": src, "ignore": []string{"unused"}},
		{"model": src, "maxStates": 10},
		{"model": src, "search": true, "timeoutMs": 0},
		{"path": "examples/fcstm/missing.fcstm"},
	} {
		if _, res := call(t, cs, "inspect", bad); !res.IsError {
			t.Errorf("%v: not a tool error", bad)
		}
	}
}

// TestInspectToolTyped: the tool declares its input and its output
// schema, the inspect document's fields.
func TestInspectToolTyped(t *testing.T) {
	tools, err := connect(t).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if tl.Name != "inspect" {
			continue
		}
		in, _ := json.Marshal(tl.InputSchema)
		outSchema, _ := json.Marshal(tl.OutputSchema)
		for _, field := range []string{`"model"`, `"path"`, `"ignore"`} {
			if !strings.Contains(string(in), field) {
				t.Errorf("input schema has no %s: %s", field, in)
			}
		}
		for _, field := range []string{`"diagnostics"`, `"span"`, `"end_column"`, `"refs"`, `"suppressed"`, `"loaded"`} {
			if !strings.Contains(string(outSchema), field) {
				t.Errorf("output schema has no %s: %s", field, outSchema)
			}
		}
		return
	}
	t.Fatal("no inspect tool")
}

func diagCodes(out map[string]any) []string {
	codes := []string{}
	ds, _ := out["diagnostics"].([]any)
	for _, d := range ds {
		codes = append(codes, d.(map[string]any)["code"].(string))
	}
	return codes
}

func sameJSON(t *testing.T, data []byte, v any) bool {
	t.Helper()
	var x any
	if err := json.Unmarshal(data, &x); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, v)
}
