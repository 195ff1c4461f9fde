package frontend_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/frontend/jsonfront"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/z3"
)

func TestRegistryChoosesByExtensionOrName(t *testing.T) {
	r := frontend.NewRegistry(jsonfront.Format{})
	if f, err := r.For("models/Order.JSON", ""); err != nil || f.Name() != "json" {
		t.Fatalf("For(.JSON) = %v, %v; want the json format", f, err)
	}
	if f, err := r.For("model.txt", "json"); err != nil || f.Name() != "json" {
		t.Fatalf("For(txt, json) = %v, %v; want the json format", f, err)
	}
	if _, err := r.For("model.txt", ""); err == nil || !strings.Contains(err.Error(), "--format-in") {
		t.Fatalf("unknown extension: err = %v, want one naming --format-in", err)
	}
	if _, err := r.For("model.json", "promela"); err == nil || !strings.Contains(err.Error(), `"promela"`) {
		t.Fatalf("unknown format name: err = %v", err)
	}
}

// invariantModel has a reachable BAD only through a guarded event, a
// counter that leaves its range in C, and a scoped range violated only in
// the initial state (the initial state is in every scope).
const invariantModel = `{
  "schemaVersion": 1,
  "init": "A",
  "states": [{"id": "A"}, {"id": "B"}, {"id": "C"}, {"id": "BAD"}, {"id": "NEVER"}],
  "transitions": [
    {"from": "A", "event": "go", "to": "B", "updates": [{"variable": "x", "op": "set", "value": 0}]},
    {"from": "B", "event": "up", "to": "C", "updates": [{"variable": "x", "op": "inc"}]},
    {"from": "C", "event": "fall", "to": "BAD"},
    {"from": "BAD", "event": "go", "to": "A"}
  ],
  "variables": [{"name": "x", "kind": "integer", "init": 5, "min": 0, "max": 9}],
  "invariants": [
    {"id": "no-bad", "description": "d", "kind": "never-states", "states": ["BAD"]},
    {"id": "no-never", "description": "d", "kind": "never-states", "states": ["NEVER"]},
    {"id": "small-in-b", "description": "d", "kind": "var-in-range", "variable": "x", "max": 0, "when": {"state": "B"}},
    {"id": "small-in-c", "description": "d", "kind": "var-in-range", "variable": "x", "max": 0, "when": {"state": "C"}},
    {"id": "bounded", "description": "d", "kind": "var-in-range", "variable": "x", "min": 0, "max": 9},
    {"id": "went-first", "description": "d", "kind": "event-before-state", "event": "go", "state": "C"}
  ]
}`

func TestInvariantQueriesDecideEachInvariant(t *testing.T) {
	path := filepath.Join(t.TempDir(), "inv.json")
	if err := os.WriteFile(path, []byte(invariantModel), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := frontend.NewRegistry(jsonfront.Format{}).Load(input.Reader{}, path, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Unchecked) != 1 || !strings.Contains(m.Unchecked[0], "went-first") {
		t.Fatalf("Unchecked = %q, want the event-before-state invariant", m.Unchecked)
	}
	qs, err := frontend.InvariantQueries(m, 4)
	if err != nil {
		t.Fatal(err)
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Skip(err)
	}
	defer ctx.Close()
	want := map[string]string{
		"no-bad":     "property_violated", // A, B, C, BAD
		"no-never":   "property_satisfied",
		"small-in-b": "property_violated", // x = 5 at the start, which is in scope
		"small-in-c": "property_violated", // x = 1 in C
		"bounded":    "property_satisfied",
	}
	if len(qs) != len(want) {
		t.Fatalf("%d queries, want %d", len(qs), len(want))
	}
	for i, q := range qs {
		id := m.Invariants[i].ID
		rep, err := frontend.Check(ctx, m, q, bmc.Options{Shortest: true}, "")
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if rep.Result.Outcome != want[id] {
			t.Errorf("%s: outcome %s, want %s (query %s)", id, rep.Result.Outcome, want[id], rep.Query)
		}
		if rep.Replay != nil && !rep.Replay.OK() {
			t.Errorf("%s: replay mismatches %v", id, rep.Replay.Mismatches)
		}
		if pf := rep.Result.PropertyFrame; id == "small-in-b" && (pf == nil || *pf != 0) {
			t.Errorf("small-in-b: violated at frame %v, want frame 0 (the initial state)", pf)
		}
	}
}

func TestInvariantQueriesNeedAnInvariant(t *testing.T) {
	m := &frontend.Model{Path: "none.fcstm"}
	if _, err := frontend.InvariantQueries(m, 3); err == nil || !strings.Contains(err.Error(), "none.fcstm declares no") {
		t.Fatalf("err = %v", err)
	}
}
