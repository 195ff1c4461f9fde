package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiagnosticsJSONModel(t *testing.T) {
	data, err := os.ReadFile("../../examples/broken/invalid-typo.json")
	if err != nil {
		t.Fatal(err)
	}
	s := startSession(t, Options{})
	uri, _ := fileURI(t, t.TempDir(), "typo.json", "")
	s.open(uri, "json", string(data))
	p := s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if len(p.Diagnostics) != 4 {
		t.Fatalf("want the 4 schema errors, got %+v", p.Diagnostics)
	}
	d := p.Diagnostics[0]
	// transitions[0].gaurd is the object after "gaurd": on line 7 (0-based 6).
	if d.Code != "MODEL_INVALID" || d.Range.Start.Line != 6 || !strings.HasPrefix(d.Message, "unknown field") {
		t.Errorf("first: %+v", d)
	}
	col := strings.Index(strings.Split(string(data), "\n")[6], `{ "variable"`)
	if d.Range.Start.Character != col {
		t.Errorf("gaurd's value at %d, want %d", d.Range.Start.Character, col)
	}
	if !strings.HasSuffix(d.CodeDescription.Href, "models.md#the-model-key-by-key") {
		t.Errorf("href %s", d.CodeDescription.Href)
	}

	// A valid model: verify's findings at the element they name.
	dead, err := os.ReadFile("../../examples/broken/s1-dead-legacy-state.json")
	if err != nil {
		t.Fatal(err)
	}
	s.change(uri, 2, map[string]any{"text": string(dead)})
	p = s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return *p.Version == 2 })
	var s1 *Diagnostic
	for i := range p.Diagnostics {
		if p.Diagnostics[i].Code == "S1_UNREACHABLE_STATE" {
			s1 = &p.Diagnostics[i]
		}
	}
	if s1 == nil {
		t.Fatalf("no S1 finding: %+v", p.Diagnostics)
	}
	lines := strings.Split(string(dead), "\n")
	if !strings.Contains(lines[s1.Range.Start.Line], `"LEGACY_REVIEW"`) || !strings.HasSuffix(s1.CodeDescription.Href, "#structural-checks-s1s8") {
		t.Errorf("S1 at line %d (%q), href %s", s1.Range.Start.Line, lines[s1.Range.Start.Line], s1.CodeDescription.Href)
	}

	// JSON that is not a model gets no diagnostics.
	s.change(uri, 3, map[string]any{"text": `{"name": "package"}`})
	p = s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return *p.Version == 3 })
	if len(p.Diagnostics) != 0 {
		t.Errorf("non-model JSON: %+v", p.Diagnostics)
	}
}

const doorModel = "def int n = 0;\nstate Door {\n    state Closed;\n    state Open;\n    [*] -> Closed;\n    Closed -> Open : Push effect { n = n + 1; }\n    Open -> Closed :: Shut;\n}\n"

func TestDiagnosticsQueryAgainstModel(t *testing.T) {
	dir := t.TempDir()
	fileURI(t, dir, "door.fcstm", doorModel)
	s := startSession(t, Options{})
	// The model beside the query, by stem.
	uri, _ := fileURI(t, dir, "door.fbmcq", "")
	s.open(uri, "fbmcq", "check reach <= 3: active(\"Door.Opne\") && n > 0;\n")
	p := s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	d := p.Diagnostics[0]
	if d.Range != rng(0, 26, 0, 35) || !strings.Contains(d.Message, "Door.Opne") || len(p.Diagnostics) != 1 {
		t.Fatalf("unknown state: %+v", d)
	}
	s.change(uri, 2, map[string]any{"text": "check reach <= 3: active(\"Door.Open\") && m > 0;\n"})
	p = s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return *p.Version == 2 })
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Range.Start != (Position{0, 41}) {
		t.Fatalf("unknown variable: %+v", p.Diagnostics)
	}
	// Every unknown name, not only the first binding stops at.
	s.change(uri, 3, map[string]any{"text": "check reach <= 3: active(\"Door.Opne\") && m > 0 && var(\"k\") > 0;\n"})
	p = s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return *p.Version == 3 })
	if len(p.Diagnostics) != 3 || p.Diagnostics[1].Code != "unknown_variable" || p.Diagnostics[2].Range != rng(0, 55, 0, 56) {
		t.Fatalf("three unknown names: %+v", p.Diagnostics)
	}
	s.change(uri, 4, map[string]any{"text": "check reach <= 3: active(\"Door.Open\") && n > 0;\n"})
	p = s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return *p.Version == 4 })
	if len(p.Diagnostics) != 0 {
		t.Fatalf("a good query: %+v", p.Diagnostics)
	}

	// The query follows the open model's text: renaming the state there
	// (not on disk) makes the query's name unknown.
	modelURI := pathURI(filepath.Join(dir, "door.fcstm"))
	s.open(modelURI, "fcstm", doorModel)
	s.change(modelURI, 2, map[string]any{"text": strings.ReplaceAll(doorModel, "Open", "Opened")})
	// (Its known states then list Door.Opened.)
	p = s.diagnostics(uri, func(p publishDiagnosticsParams) bool {
		return len(p.Diagnostics) == 1 && strings.Contains(p.Diagnostics[0].Message, `"Door.Opened"`)
	})
	if p.Diagnostics[0].Range.Start != (Position{0, 26}) {
		t.Fatalf("after the model changed: %+v", p)
	}

	// The model named by a // model: line; an RSC file too.
	q2, _ := fileURI(t, dir, "other.fbmcq", "")
	s.open(q2, "fbmcq", "// model: door.fcstm\ncheck reach <= 3: active(\"Door.Ajar\");\n")
	p = s.diagnostics(q2, func(p publishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if p.Diagnostics[0].Range.Start.Line != 1 {
		t.Fatalf("model line: %+v", p.Diagnostics)
	}
	r, _ := fileURI(t, dir, "inv.rsc", "")
	s.open(r, "rsc", "// model: door.fcstm\nrsc \"Door.Closed\": n >= 0;\nrsc \"Door.Gone\": n >= 0;\n")
	p = s.diagnostics(r, func(p publishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if p.Diagnostics[0].Range.Start.Line != 2 {
		t.Fatalf("rsc: %+v", p.Diagnostics)
	}
	// No model: said, not silently clean.
	q3, _ := fileURI(t, dir, "lonely.fbmcq", "")
	s.open(q3, "fbmcq", "check reach <= 3: active(\"X\");\n")
	p = s.diagnostics(q3, func(p publishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if p.Diagnostics[0].Code != "LSP_NO_MODEL" {
		t.Fatalf("no model: %+v", p.Diagnostics)
	}
}
