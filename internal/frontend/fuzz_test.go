package frontend_test

import (
	"encoding/json"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/frontend/jsonfront"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/query"
)

// FuzzInvariantQueries states the invariants of a model whose variable
// and state names are fuzzed (never-states, a range scoped by a state, a
// range scoped by a guard) as bound queries: whatever the names, every
// var() and active() atom of every query names exactly a model variable
// or state, and the only bare identifier is the frame index the builder
// itself wrote for the initial state.
func FuzzInvariantQueries(f *testing.F) {
	for _, n := range [][2]string{{"x", "B"}, {"cycle", "pi"}, {"true", "and"}, {"x.y", "9x"}, {`q"uote`, "sp ace"}, {"réessai", "É"}} {
		f.Add(n[0], n[1], int64(3))
	}
	f.Fuzz(func(t *testing.T, variable, state string, limit int64) {
		doc := map[string]any{
			"schemaVersion": 1, "init": "A",
			"states":      []any{map[string]any{"id": "A"}, map[string]any{"id": state}},
			"transitions": []any{map[string]any{"from": "A", "event": "go", "to": state, "updates": []any{map[string]any{"variable": variable, "op": "inc"}}}},
			"variables":   []any{map[string]any{"name": variable, "kind": "integer", "init": 0}},
			"invariants": []any{
				map[string]any{"id": "n", "description": "d", "kind": "never-states", "states": []any{state}},
				map[string]any{"id": "s", "description": "d", "kind": "var-in-range", "variable": variable, "max": limit, "when": map[string]any{"state": state}},
				map[string]any{"id": "g", "description": "d", "kind": "var-in-range", "variable": variable, "min": limit,
					"when": map[string]any{"guard": map[string]any{"variable": variable, "op": ">", "value": 1}}},
			},
		}
		data, err := json.Marshal(doc)
		if err != nil {
			return
		}
		res, err := jsonmodel.Decode(data)
		if err != nil || !res.Valid() {
			return // a name or number the model format refuses
		}
		m := jsonfront.FromModel(res.Model, "fuzz.json")
		qs, err := frontend.InvariantQueries(m, 2)
		if err != nil {
			t.Fatalf("valid model %s: %v", data, err)
		}
		for _, q := range qs {
			expr.Inspect(q.Check.Body, func(n expr.Expr) bool {
				switch n := n.(type) {
				case *expr.AtomCall:
					want := map[string]string{"var": variable, "active": state}[n.Name]
					if s, ok := n.Args[0].Value.(*expr.StringLit); want == "" || len(n.Args) != 1 || !ok || s.Value != want {
						t.Fatalf("%s: atom %s in %s", data, expr.Format(n), query.Format(q))
					}
					return false
				case *expr.Ident:
					if n.Name != "cycle" {
						t.Fatalf("%s: bare name %q in %s", data, n.Name, query.Format(q))
					}
				case *expr.Const:
					t.Fatalf("%s: constant %s in %s", data, expr.Format(n), query.Format(q))
				}
				return true
			})
		}
	})
}
