package schemas_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/schematest"
	"github.com/stateproof/stateproof/schemas"
)

func TestEverySchemaCompiles(t *testing.T) {
	want := []string{"baseline", "bmc", "compose", "inspect", "model", "prove", "simulate", "verify"}
	if got := schemas.Names(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for _, name := range want {
		schematest.Compile(t, name)
	}
	if _, ok := schemas.Get("nope"); ok {
		t.Error("Get(nope) found a schema")
	}
	for contract, name := range map[string]string{"logicprobe/verify/v1": "verify", "stateproof/bmc/v1": "bmc", "logicprobe/baseline/v1": "baseline", "stateproof/inspect/v1": "inspect", "stateproof/model/v1": "", "stateproof/bmc/v2": "", "verify": ""} {
		if got := schemas.ForContract(contract); got != name {
			t.Errorf("ForContract(%q) = %q, want %q", contract, got, name)
		}
	}
}

func glob(t *testing.T, patterns ...string) []string {
	t.Helper()
	var files []string
	for _, p := range patterns {
		m, err := filepath.Glob(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatalf("no files match %v", patterns)
	}
	return files
}

// TestExampleModelsSatisfyModelSchema: every model the project ships is
// valid under the model schema, except the one that exists to be refused.
func TestExampleModelsSatisfyModelSchema(t *testing.T) {
	files := glob(t, "../examples/*.json", "../examples/broken/*.json", "../examples/compare/*-before.json",
		"../examples/compare/*-after.json", "../examples/compose/*.json", "../bench/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		err = schematest.Validate(t, "model", data)
		if strings.HasSuffix(f, "invalid-typo.json") {
			if err == nil {
				t.Errorf("%s: the closed schema accepts it", f)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestModelSchemaIsClosed: the typos the closed schema exists for are
// flagged where they are, and _ metadata keys are allowed everywhere.
func TestModelSchemaIsClosed(t *testing.T) {
	const base = `{"schemaVersion": 1, "init": "A", "_note": "x",
	  "states": [{"id": "A", "_why": 1}, {"id": "B", "terminal": true}],
	  "variables": [{"name": "c", "kind": "integer", "init": 0, "_": true}],
	  "transitions": [{"from": "A", "event": "go", "to": "B", "guard": {"variable": "c", "op": "<", "value": 1, "_g": 0}%s}],
	  "invariants": [{"id": "i", "description": "", "kind": "var-in-range", "variable": "c", "max": 0, "_i": [], "when": {"state": "A", "_w": 1}%s}],
	  "narrative": {"states": {"A": "start", "_x": 3}, "_n": null}}`
	valid := strings.NewReplacer("%s", "").Replace(base)
	if err := schematest.Validate(t, "model", []byte(valid)); err != nil {
		t.Fatalf("valid model refused: %v", err)
	}
	for _, c := range []struct{ transition, invariant, where string }{
		{`, "gaurd": {}`, ``, "gaurd"},
		{``, `, "maximum": 0`, "maximum"},
		{``, `, "states": ["A"]`, "states"},
	} {
		doc := strings.Replace(strings.Replace(base, "%s", c.transition, 1), "%s", c.invariant, 1)
		err := schematest.Validate(t, "model", []byte(doc))
		if err == nil || !strings.Contains(err.Error(), c.where) {
			t.Errorf("%s is not flagged: %v", c.where, err)
		}
	}
	for _, bad := range []string{
		`{"schemaVersion": 2, "init": "A", "states": [{"id": "A"}], "transitions": []}`,
		`{"schemaVersion": 1, "init": "A", "states": [], "transitions": []}`,
		`{"schemaVersion": 1, "init": "A", "states": [{"id": "_A"}], "transitions": []}`,
		`{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}], "transitions": [], "variables": [{"name": "b", "kind": "boolean", "init": false, "max": 1}]}`,
		`{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}], "transitions": [], "variables": [{"name": "n", "kind": "integer", "init": 9007199254740992}]}`,
		`{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}], "transitions": [{"from": "A", "event": "e", "to": "A", "guard": {"all": [], "not": {"all": []}}}]}`,
		`{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}], "transitions": [], "fairness": {"weak": "all"}}`,
		`{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}], "transitions": [], "fairness": {"justice": []}}`,
	} {
		if schematest.Validate(t, "model", []byte(bad)) == nil {
			t.Errorf("accepted: %s", bad)
		}
	}
}

// TestModelsDocSatisfiesModelSchema: the tiny models of docs/models.md are
// valid models, except the one that shows MODEL_INVALID.
func TestModelsDocSatisfiesModelSchema(t *testing.T) {
	data, err := os.ReadFile("../docs/models.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, block := range strings.Split(string(data), "```json")[1:] {
		info, rest, _ := strings.Cut(block, "\n")
		body, _, _ := strings.Cut(rest, "```")
		n++
		err := schematest.Validate(t, "model", []byte(body))
		if strings.Contains(info, "MODEL_INVALID") != (err != nil) {
			t.Errorf("models.md block %d (%s): %v", n, info, err)
		}
	}
	if n < 20 {
		t.Errorf("only %d model blocks found", n)
	}
}

// TestGoldenReportsSatisfySchemas validates every golden JSON report of the
// test suite (any testdata/golden directory under cmd/ and internal/)
// against the schema its "schema" field names.
func TestGoldenReportsSatisfySchemas(t *testing.T) {
	var files []string
	for _, root := range []string{"../cmd", "../internal"} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".json") && filepath.Base(filepath.Dir(path)) == "golden" {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 30 {
		t.Fatalf("found only %d golden reports", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var probe map[string]any
		if err := json.Unmarshal(data, &probe); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		schematest.Report(t, f, data)
	}
}
