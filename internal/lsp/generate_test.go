package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/generate"
	"github.com/stateproof/stateproof/internal/input"
)

// generateArgsRaw is the argument list of stateproof.generate.
func generateArgsRaw(t *testing.T, uri string, a generateArgs) []jsonRaw {
	t.Helper()
	u, _ := json.Marshal(uri)
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return []jsonRaw{u, b}
}

// TestGenerateLens: the lens "generate…" is offered on FCSTM and JSON
// models, with the command advertised, and on no other file.
func TestGenerateLens(t *testing.T) {
	dir := t.TempDir()
	order, err := os.ReadFile("../../examples/order.json")
	if err != nil {
		t.Fatal(err)
	}
	model, _ := fileURI(t, dir, "door.fcstm", doorModel)
	jsonModel, _ := fileURI(t, dir, "order.json", string(order))
	query, _ := fileURI(t, dir, "door.fbmcq", "// model: door.fcstm\ncheck reach <= 3: active(\"Door.Open\");\n")
	rsc, _ := fileURI(t, dir, "r.rsc", "")
	s := startSession(t, Options{})
	s.open(model, "fcstm", doorModel)
	s.open(jsonModel, "json", string(order))
	s.open(query, "fbmcq", "// model: door.fcstm\ncheck reach <= 3: active(\"Door.Open\");\n")
	s.open(rsc, "rsc", "")
	hasGenerate := func(uri string) bool {
		var lenses []CodeLens
		if err := s.call("textDocument/codeLens", documentParams{textDocumentIdentifier{uri}}, &lenses); err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(lenses, func(l CodeLens) bool {
			return l.Command != nil && l.Command.Command == cmdGenerate && l.Command.Title == "generate…"
		})
	}
	for uri, want := range map[string]bool{model: true, jsonModel: true, query: false, rsc: false} {
		if got := hasGenerate(uri); got != want {
			t.Errorf("%s: generate lens %v, want %v", uri, got, want)
		}
	}
	caps := newServer(Options{}, nil).initialize(nil).(map[string]any)["capabilities"].(map[string]any)
	cmds := caps["executeCommandProvider"].(map[string]any)["commands"].([]string)
	if !slices.Contains(cmds, cmdGenerate) {
		t.Errorf("%s is not in executeCommandProvider: %v", cmdGenerate, cmds)
	}
}

// TestGenerateWritesFiles: the command writes into the workspace the
// files generate.FileModel (what stateproof generate writes) gives, byte
// for byte, executable where it says so, and tells the user where.
func TestGenerateWritesFiles(t *testing.T) {
	dir := t.TempDir()
	order, err := os.ReadFile("../../examples/order.json")
	if err != nil {
		t.Fatal(err)
	}
	model, modelPath := fileURI(t, dir, "door.fcstm", doorModel)
	jsonModel, jsonPath := fileURI(t, dir, "order.json", string(order))
	s := startSessionAt(t, Options{}, pathURI(dir))
	s.open(model, "fcstm", doorModel)
	s.open(jsonModel, "json", string(order))
	cases := []struct {
		uri, path string
		args      generateArgs
		wantDir   string
	}{
		{model, modelPath, generateArgs{Target: "go"}, "door-go"},
		{model, modelPath, generateArgs{Target: "c", Driver: true, Name: "portal", OutDir: "gen/c"}, "gen/c"},
		{jsonModel, jsonPath, generateArgs{Target: "python", Driver: true}, "order-python"},
		{jsonModel, jsonPath, generateArgs{Target: "typescript", OutDir: filepath.Join(dir, "ts")}, "ts"},
	}
	for _, c := range cases {
		var got generated
		if err := s.call("workspace/executeCommand", executeCommandParams{Command: cmdGenerate, Arguments: generateArgsRaw(t, c.uri, c.args)}, &got); err != nil {
			t.Fatalf("%+v: %v", c.args, err)
		}
		want, gerr := generate.FileModel(input.Reader{}, c.path, c.args.Target, generate.Options{Name: c.args.Name, Driver: c.args.Driver})
		if gerr != nil {
			t.Fatal(gerr)
		}
		out := filepath.Join(dir, c.wantDir)
		if got.Dir != out || len(got.Files) != len(want) {
			t.Fatalf("%+v: answered %+v, want %d files in %s", c.args, got, len(want), out)
		}
		for _, f := range want {
			path := filepath.Join(out, filepath.FromSlash(f.Path))
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != string(f.Data) {
				t.Errorf("%s differs from what stateproof generate writes", path)
			}
			if st, _ := os.Stat(path); (st.Mode()&0o111 != 0) != f.Exec {
				t.Errorf("%s: mode %v, executable %v", path, st.Mode(), f.Exec)
			}
			if !slices.Contains(got.Files, f.Path) {
				t.Errorf("%s is not among the files answered: %v", f.Path, got.Files)
			}
		}
		shown := false
		for _, m := range s.notifications("window/showMessage") {
			shown = shown || (strings.Contains(string(m.Params), out) && strings.Contains(string(m.Params), want[0].Path))
		}
		if !shown {
			t.Errorf("%+v: no window/showMessage names %s and its files", c.args, out)
		}
	}
}

// TestGenerateRefuses: a missing target, an output directory outside the
// workspace (by "..", by an absolute path, through a symbolic link), a
// model with unsaved changes, one that does not load and one the target
// cannot run are errors, located where the model is at fault, and
// nothing is written.
func TestGenerateRefuses(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{dir, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	const broken = "state Door {\n    state Closed\n}\n"
	const sine = "def float a = 0.5;\nstate Root {\n    state A {\n        during {\n            a = sin(a);\n        }\n    }\n    [*] -> A;\n}\n"
	model, _ := fileURI(t, dir, "door.fcstm", doorModel)
	bad, badPath := fileURI(t, dir, "bad.fcstm", broken)
	sin, sinPath := fileURI(t, dir, "sine.fcstm", sine)
	const invalid = `{"schemaVersion": 1, "states": [{"id": "A"}], "transitions": []}`
	badJSON, badJSONPath := fileURI(t, dir, "bad.json", invalid)
	s := startSessionAt(t, Options{}, pathURI(dir))
	s.open(model, "fcstm", doorModel)
	s.open(bad, "fcstm", broken)
	s.open(sin, "fcstm", sine)
	s.open(badJSON, "json", invalid)
	cases := []struct {
		uri  string
		args generateArgs
		want string
	}{
		{model, generateArgs{}, "target is required"},
		{model, generateArgs{Target: "cobol"}, `"cobol" is not a target`},
		{model, generateArgs{Target: "go", OutDir: "../outside/x"}, "outside the workspace"},
		{model, generateArgs{Target: "go", OutDir: filepath.Join(outside, "y")}, "outside the workspace"},
		{model, generateArgs{Target: "go", OutDir: "link/z"}, "escapes"},
		{bad, generateArgs{Target: "go"}, badPath + ":3:1"},
		{sin, generateArgs{Target: "go"}, sinPath + ":5:17: sin: "},
		{badJSON, generateArgs{Target: "python"}, badJSONPath + " is not a valid model: init: required field missing"},
	}
	for _, c := range cases {
		err := s.call("workspace/executeCommand", executeCommandParams{Command: cmdGenerate, Arguments: generateArgsRaw(t, c.uri, c.args)}, nil)
		if err == nil || !strings.Contains(err.Message, c.want) {
			t.Errorf("%+v: error %v, want one containing %q", c.args, err, c.want)
		}
	}
	s.change(model, 2, map[string]any{"text": doorModel + "// edited\n"})
	err := s.call("workspace/executeCommand", executeCommandParams{Command: cmdGenerate, Arguments: generateArgsRaw(t, model, generateArgs{Target: "go"})}, nil)
	if err == nil || !strings.Contains(err.Message, "unsaved changes") {
		t.Errorf("a document with unsaved changes: %v", err)
	}
	for _, d := range []string{dir, outside} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if ext := filepath.Ext(e.Name()); ext != ".fcstm" && ext != ".json" && e.Name() != "link" {
				t.Errorf("%s was written by a refused generation", filepath.Join(d, e.Name()))
			}
		}
	}
}
