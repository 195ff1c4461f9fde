// Package schematest validates JSON documents against the schemas of
// package schemas in tests, with a maintained draft 2020-12 validator.
// Only tests import it, so the validator is not linked into stateproof.
package schematest

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/stateproof/stateproof/schemas"
)

// Compile compiles the embedded schema called name.
func Compile(t testing.TB, name string) *jsonschema.Schema {
	t.Helper()
	data, ok := schemas.Get(name)
	if !ok {
		t.Fatalf("no schema %q", name)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("schema %s: %v", name, err)
	}
	url := "https://github.com/stateproof/stateproof/schemas/" + name + ".schema.json"
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("schema %s: %v", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("schema %s: %v", name, err)
	}
	return s
}

// Validate reports whether data (one JSON document) satisfies the schema
// called name; the error lists every violation with its location.
func Validate(t testing.TB, name string, data []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return Compile(t, name).Validate(inst)
}

// Report validates a report against the schema its "schema" field names
// and fails the test when it does not satisfy it.
func Report(t testing.TB, label string, data []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Errorf("%s: not JSON: %v", label, err)
		return
	}
	obj, _ := inst.(map[string]any)
	contract, _ := obj["schema"].(string)
	name := schemas.ForContract(contract)
	if name == "" {
		t.Errorf("%s: no schema for contract %q", label, contract)
		return
	}
	if err := Compile(t, name).Validate(inst); err != nil {
		t.Errorf("%s does not satisfy schemas/%s.schema.json: %v", label, name, err)
	}
}
