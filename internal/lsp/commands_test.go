package lsp

import (
	"os"
	"strings"
	"testing"
)

func TestCodeLensesAndCommands(t *testing.T) {
	dir := t.TempDir()
	model, _ := fileURI(t, dir, "door.fcstm", doorModel)
	queryText := "// check it twice\ncheck reach <= 3: active(\"Door.Open\") && n > 0;\n"
	query, _ := fileURI(t, dir, "door.fbmcq", queryText)
	s := startSession(t, Options{})
	s.open(model, "fcstm", doorModel)
	s.open(query, "fbmcq", queryText)

	var lenses []CodeLens
	if err := s.call("textDocument/codeLens", documentParams{textDocumentIdentifier{model}}, &lenses); err != nil {
		t.Fatal(err)
	}
	if len(lenses) != 3 || lenses[0].Command.Command != cmdSimulate || lenses[1].Command.Command != cmdDraw || lenses[0].Range.Start.Line != 1 {
		t.Fatalf("model lenses: %+v", lenses)
	}
	if err := s.call("textDocument/codeLens", documentParams{textDocumentIdentifier{query}}, &lenses); err != nil || len(lenses) != 1 || lenses[0].Command.Command != cmdCheck || lenses[0].Range.Start.Line != 1 {
		t.Fatalf("query lenses: %v %+v", err, lenses)
	}

	var md markupContent
	if err := s.call("workspace/executeCommand", executeCommandParams{Command: cmdSimulate, Arguments: []jsonRaw{jsonRaw(`"` + model + `"`), jsonRaw(`" ; Door.Push"`)}}, &md); err != nil {
		t.Fatal(err)
	}
	if md.Kind != "markdown" || !strings.Contains(md.Value, "Door.Open") {
		t.Errorf("simulate: %q", md.Value)
	}

	jsonURI := "file:///tmp/order.json"
	order, rerr := os.ReadFile("../../examples/order.json")
	if rerr != nil {
		t.Fatal(rerr)
	}
	s.open(jsonURI, "json", string(order))
	if err := s.call("workspace/executeCommand", executeCommandParams{Command: cmdSimulate, Arguments: []jsonRaw{jsonRaw(`"` + jsonURI + `"`), jsonRaw(`"pay; ship"`)}}, &md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.Value, "SHIPPED") {
		t.Errorf("simulate a JSON model: %q", md.Value)
	}

	var pic struct{ MimeType, SVG string }
	if err := s.call("workspace/executeCommand", executeCommandParams{Command: cmdDraw, Arguments: []jsonRaw{jsonRaw(`"` + model + `"`)}}, &pic); err != nil {
		t.Fatal(err)
	}
	if pic.MimeType != "image/svg+xml" || !strings.Contains(pic.SVG, "<svg") || !strings.Contains(pic.SVG, "Closed") {
		t.Errorf("draw: %s %.200s", pic.MimeType, pic.SVG)
	}

	err := s.call("workspace/executeCommand", executeCommandParams{Command: cmdCheck, Arguments: []jsonRaw{jsonRaw(`"` + query + `"`)}}, &md)
	if err != nil && strings.Contains(err.Message, "Z3's library") {
		t.Skipf("libz3 is not installed: %s", err.Message)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.Value, "witness") || !strings.Contains(md.Value, "exit 0") {
		t.Errorf("check: %s", md.Value)
	}
	if err := s.call("workspace/executeCommand", executeCommandParams{Command: "stateproof.nope", Arguments: []jsonRaw{jsonRaw(`"` + query + `"`)}}, nil); err == nil {
		t.Error("an unknown command ran")
	}
}

// Formatting goes through Options.Format; without one the capability is
// not advertised and the request is refused.
func TestFormattingOption(t *testing.T) {
	var gotName string
	format := func(name string, src []byte) ([]byte, error) {
		gotName = name
		return []byte(strings.ReplaceAll(string(src), "  ", " ")), nil
	}
	s := startSession(t, Options{Format: format})
	uri := "file:///tmp/f.fcstm"
	s.open(uri, "fcstm", "state  R;\n")
	var edits []TextEdit
	if err := s.call("textDocument/formatting", documentParams{textDocumentIdentifier{uri}}, &edits); err != nil {
		t.Fatal(err)
	}
	if len(edits) != 1 || edits[0].NewText != "state R;\n" || edits[0].Range != rng(0, 0, 1, 0) || gotName != "/tmp/f.fcstm" {
		t.Fatalf("edits %+v (name %q)", edits, gotName)
	}
	caps := newServer(Options{}, nil).initialize(nil).(map[string]any)["capabilities"].(map[string]any)
	if _, ok := caps["documentFormattingProvider"]; ok {
		t.Error("formatting advertised without a formatter")
	}
}
