// Package schemas holds the JSON Schemas (draft 2020-12) of stateproof's
// input model and of every report contract, embedded so that
// `stateproof schema NAME` prints them and tests validate against the same
// bytes that ship (docs/reports.md).
package schemas

import (
	"embed"
	"slices"
	"strings"
)

//go:embed *.schema.json
var files embed.FS

// Names lists the schemas, sorted: model, the reports and the baseline.
func Names() []string {
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".schema.json"))
	}
	slices.Sort(names)
	return names
}

// Get returns the schema called name, and whether it exists.
func Get(name string) ([]byte, bool) {
	if !slices.Contains(Names(), name) {
		return nil, false
	}
	data, err := files.ReadFile(name + ".schema.json")
	return data, err == nil
}

// ForContract names the schema of a report's "schema" value
// (logicprobe/verify/v1 → verify), or "" when there is none.
func ForContract(contract string) string {
	name, version, ok := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(contract, "logicprobe/"), "stateproof/"), "/")
	if !ok || version != "v1" || !slices.Contains(Names(), name) || name == "model" {
		return ""
	}
	return name
}
