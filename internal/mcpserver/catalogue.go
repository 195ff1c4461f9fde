package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stateproof/stateproof/schemas"
)

// ToolInfo describes one tool the server registers, for help texts that
// must list exactly those tools (stateproof mcp --help, the README).
type ToolInfo struct {
	Name     string // the tool's name
	Contract string // the report contract it returns, or "" for text results
	Summary  string // one line: what it answers
}

// Tools lists the tools New registers, in the order it registers them.
func Tools() []ToolInfo {
	return []ToolInfo{
		{"verify", "logicprobe/verify/v1", "S1-S8, A1-A15 (A15 with an ltl invariant); D1-D4 with beforeModel"},
		{"compose", "logicprobe/compose/v1", "C1, C2 over two or more models"},
		{"simulate", "stateproof/simulate/v1", "an FCSTM model run cycle by cycle"},
		{"draw", "", "a Mermaid stateDiagram-v2 of a JSON model"},
		{"show", "", "a JSON model presented with its narrative inline"},
		{"bmc", "stateproof/bmc/v1", "an FBMCQ query, or the invariants to a bound; witnesses replayed"},
		{"prove", "stateproof/prove/v1", "per-state invariants for every execution"},
		{"inspect", "stateproof/inspect/v1", "design-health diagnostics of an FCSTM model, pyfcstm's codes"},
		{"generate", "", "code running a model as the runtime does; written only to a new outDir"},
	}
}

// annotations are those of every tool but generate (writingAnnotations):
// each one reads models (inline, or files under the served root) and
// computes; none changes anything, calling it again with the same
// arguments has no further effect, and none reaches anything outside the
// served root.
func annotations() *mcp.ToolAnnotations {
	closed := false
	return &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &closed}
}

// schemaURI is the resource address of the JSON Schema called name.
func schemaURI(name string) string { return "stateproof://schemas/" + name + ".schema.json" }

// addSchemaResources serves every JSON Schema `stateproof schema` prints
// as a resource, so a client can validate reports and models without
// calling a tool.
func addSchemaResources(s *mcp.Server) {
	for _, name := range schemas.Names() {
		uri := schemaURI(name)
		data, _ := schemas.Get(name)
		s.AddResource(&mcp.Resource{
			URI:         uri,
			Name:        name,
			Title:       "JSON Schema: " + name,
			Description: "the JSON Schema (draft 2020-12) of " + schemaSubject(name),
			MIMEType:    "application/schema+json",
			Size:        int64(len(data)),
		}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/schema+json", Text: string(data)}}}, nil
		})
	}
}

func schemaSubject(name string) string {
	switch name {
	case "model":
		return "the JSON state-machine model (schema v1)"
	case "baseline":
		return "a verify baseline file"
	}
	return "the " + name + " report contract"
}
