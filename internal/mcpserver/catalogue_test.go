package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/verify"
	"github.com/stateproof/stateproof/schemas"
)

// TestToolsListsWhatIsRegistered: Tools (which mcp --help and the README
// print) names exactly the tools a client sees, and every one carries the
// read-only, idempotent, closed-world annotations, but generate, which
// writes (with outDir) and so is not read-only, yet destroys nothing.
func TestToolsListsWhatIsRegistered(t *testing.T) {
	cs := connect(t)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, tool := range res.Tools {
		seen = append(seen, tool.Name)
		a := tool.Annotations
		if a != nil && tool.Name == "generate" {
			if a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
				t.Errorf("tool generate: annotations %+v, want not readOnly and not destructive", a)
			}
			b := *a
			b.ReadOnlyHint = true // the rest as every tool's
			a = &b
		}
		if a == nil || !a.ReadOnlyHint || !a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("tool %s: annotations %+v, want readOnly, idempotent, openWorld false", tool.Name, a)
		}
	}
	var listed []string
	for _, info := range Tools() {
		listed = append(listed, info.Name)
	}
	slices.Sort(seen)
	slices.Sort(listed)
	if !slices.Equal(seen, listed) {
		t.Errorf("registered tools %v, Tools() lists %v", seen, listed)
	}
}

// TestSchemaResources: every schema `stateproof schema` prints is a
// resource whose text is the same bytes.
func TestSchemaResources(t *testing.T) {
	cs := connect(t)
	res, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range res.Resources {
		uris = append(uris, r.URI)
	}
	for _, name := range schemas.Names() {
		uri := schemaURI(name)
		if !slices.Contains(uris, uri) {
			t.Errorf("no resource %s among %v", uri, uris)
			continue
		}
		got, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		want, _ := schemas.Get(name)
		if len(got.Contents) != 1 || got.Contents[0].Text != string(want) {
			t.Errorf("resource %s does not hold the schema %s", uri, name)
		}
	}
	if len(uris) != len(schemas.Names()) {
		t.Errorf("resources %v, want one per schema %v", uris, schemas.Names())
	}
}

// TestSimulateTakesModel: simulate takes its model as `model`, like every
// other tool; `source` stays accepted, and both at once is an error.
func TestSimulateTakesModel(t *testing.T) {
	cs := connect(t)
	src := "state R {\n  state A;\n  state B;\n  [*] -> A;\n  A -> B :: Go;\n}\n"
	for _, key := range []string{"model", "source"} {
		out, _ := call(t, cs, "simulate", map[string]any{key: src, "cycles": []any{[]any{}, []any{"Go"}}})
		cycles, _ := out["cycles"].([]any)
		if len(cycles) != 2 {
			t.Fatalf("%s: cycles %v in %v", key, out["cycles"], out)
		}
		if state := cycles[1].(map[string]any)["state"]; state != "R.B" {
			t.Errorf("%s: state after Go = %v, want R.B", key, state)
		}
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "simulate", Arguments: map[string]any{"model": src, "source": src, "cycles": []any{}}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(toolText(res), "not both") {
		t.Errorf("model and source together: %+v", res)
	}
}

// TestSimulateNoCycles: a run of no cycles is a report of the start
// alone, and satisfies its output schema (call validates it).
func TestSimulateNoCycles(t *testing.T) {
	cs := connect(t)
	src := "state R {\n  state A;\n  [*] -> A;\n}\n"
	out, res := call(t, cs, "simulate", map[string]any{"model": src, "cycles": []any{}})
	if res.IsError {
		t.Fatalf("simulate with no cycles is an error: %s", toolText(res))
	}
	if out["schema"] != "stateproof/simulate/v1" {
		t.Errorf("report %v", out)
	}
}

// TestVerifyTextsNameEveryCheck: the texts that tell an agent what verify
// runs (Tools(), the instructions, the verify tool's description) name
// every family of checks by its range, and the ranges are those of the
// checks verify really runs on a model that triggers all of them (an ltl
// invariant for A15, a BEFORE model for D1–D4): a check the texts leave
// out fails here.
func TestVerifyTextsNameEveryCheck(t *testing.T) {
	res, err := jsonmodel.Decode([]byte(`{"schemaVersion":1,"init":"IDLE","states":[{"id":"IDLE"},{"id":"BUSY"}],
	"transitions":[{"from":"IDLE","event":"req","to":"BUSY"},{"from":"BUSY","event":"ack","to":"IDLE"}],
	"invariants":[{"id":"answered","description":"d","kind":"ltl","formula":"G (@req -> F @ack)"}]}`))
	if err != nil || !res.Valid() {
		t.Fatalf("model: %v %v", err, res.Errors)
	}
	ranges := checkRanges(t, verify.RunComparison(res, res, nil, verify.DefaultOptions()).Checks)
	if len(ranges) < 3 {
		t.Fatalf("check ranges %v: want S, A and D", ranges)
	}
	cs := connect(t)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{"instructions": instructions}
	for _, tool := range tools.Tools {
		if tool.Name == "verify" {
			texts["verify tool description"] = tool.Description
		}
	}
	for _, info := range Tools() {
		if info.Name == "verify" {
			texts["Tools() summary"] = info.Summary
		}
	}
	if len(texts) != 3 {
		t.Fatalf("texts %v: want instructions, the verify description and its summary", texts)
	}
	for name, text := range texts {
		for _, r := range ranges {
			if !strings.Contains(text, r) {
				t.Errorf("%s does not name %s: %q", name, r, text)
			}
		}
	}
}

// checkRanges returns "S1-S8", "A1-A15", … for the checks of a report, in
// order, each family numbered from 1 without a gap.
func checkRanges(t *testing.T, checks []report.Check) []string {
	var ranges []string
	prefix, n := "", 0
	flush := func() {
		if n > 0 {
			ranges = append(ranges, fmt.Sprintf("%s1-%s%d", prefix, prefix, n))
		}
	}
	for _, c := range checks {
		p := strings.TrimRight(c.ID, "0123456789")
		if p != prefix {
			flush()
			prefix, n = p, 0
		}
		n++
		if c.ID != fmt.Sprintf("%s%d", p, n) {
			t.Fatalf("check %s out of order (want %s%d)", c.ID, p, n)
		}
	}
	flush()
	return ranges
}
