package mcpserver

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/generate"
)

// genFiles is the files map of a generate result.
func genFiles(t *testing.T, out map[string]any) map[string]string {
	t.Helper()
	raw, _ := out["files"].(map[string]any)
	files := make(map[string]string, len(raw))
	for k, v := range raw {
		s, ok := v.(string)
		if !ok {
			t.Fatalf("file %s is %T, not text", k, v)
		}
		files[k] = s
	}
	return files
}

// sameFiles reports whether the tool's files are the generated ones, and
// the executable list names the scripts.
func sameFiles(t *testing.T, what string, out map[string]any, want []generate.File) {
	t.Helper()
	got := genFiles(t, out)
	var exec []string
	for _, f := range want {
		if got[f.Path] != string(f.Data) {
			t.Errorf("%s: file %s differs from stateproof generate's", what, f.Path)
		}
		if f.Exec {
			exec = append(exec, f.Path)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d files, stateproof generate writes %d", what, len(got), len(want))
	}
	var listed []string
	ex, _ := out["executable"].([]any)
	for _, x := range ex {
		listed = append(listed, x.(string))
	}
	if !slices.Equal(listed, exec) {
		t.Errorf("%s: executable %v, want %v", what, listed, exec)
	}
}

// TestGenerateTool: the tool returns exactly the files stateproof generate
// writes, for a model by path and inline (FCSTM text, a JSON object), and
// writes nothing without outDir.
func TestGenerateTool(t *testing.T) {
	served := t.TempDir()
	door, err := os.ReadFile("../../examples/fcstm/door.fcstm")
	if err != nil {
		t.Fatal(err)
	}
	lock, err := os.ReadFile("../../examples/lock.json")
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(served, "door.fcstm"), string(door))
	mustWrite(t, filepath.Join(served, "lock.json"), string(lock))
	files := servedFiles(t, served)
	cs := connectServing(t, served)
	for _, target := range generate.Targets() {
		out, res := call(t, cs, "generate", map[string]any{"path": "door.fcstm", "target": target, "driver": true})
		if res.IsError {
			t.Fatalf("%s: %s", target, toolText(res))
		}
		want, err := generate.FileModel(files, "door.fcstm", target, generate.Options{Driver: true})
		if err != nil {
			t.Fatal(err)
		}
		sameFiles(t, target+" by path", out, want)
		if _, ok := out["written"]; ok {
			t.Errorf("%s: written without outDir: %v", target, out["written"])
		}
	}
	out, res := call(t, cs, "generate", map[string]any{"model": string(door), "target": "python", "name": "door"})
	if res.IsError {
		t.Fatal(toolText(res))
	}
	want, _ := generate.SourceModel(files, "<inline model>", door, true, "python", generate.Options{Name: "door"})
	sameFiles(t, "inline FCSTM", out, want)
	// An inline model has no file name to name the module after.
	out, _ = call(t, cs, "generate", map[string]any{"model": string(door), "target": "python"})
	if _, ok := genFiles(t, out)["model.py"]; !ok {
		t.Errorf("inline model without name: files %v, want model.py", slices.Sorted(maps.Keys(genFiles(t, out))))
	}
	var obj any
	json.Unmarshal(lock, &obj)
	out, res = call(t, cs, "generate", map[string]any{"model": obj, "target": "go", "name": "lock", "driver": true})
	if res.IsError {
		t.Fatal(toolText(res))
	}
	want, _ = generate.SourceModel(files, "<inline model>", lock, false, "go", generate.Options{Name: "lock", Driver: true})
	sameFiles(t, "inline JSON", out, want)
	entries, _ := os.ReadDir(served)
	if len(entries) != 2 {
		t.Errorf("the tool wrote without outDir: %v", entries)
	}
}

// TestGenerateToolErrors: a model that does not load, or that the target
// cannot run, is a tool error located as on the command line; so are bad
// targets and a model given twice or not at all.
func TestGenerateToolErrors(t *testing.T) {
	cs := connect(t)
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"model": "state R {\n  state A\n}\n", "target": "go"}, "<inline model>:3:1: expected \";\" or \"{\" after the state name"},
		{map[string]any{"path": "cmd/stateproof/testdata/generate/sine.fcstm", "target": "go"},
			"cmd/stateproof/testdata/generate/sine.fcstm:5:17: sin: "},
		{map[string]any{"path": "no/such.fcstm", "target": "go"}, "no/such.fcstm"},
		{map[string]any{"path": "examples/fcstm/door.fcstm"}, `missing properties: ["target"]`},
		{map[string]any{"path": "examples/fcstm/door.fcstm", "target": ""}, "target is required (targets: c, go, python, typescript)"},
		{map[string]any{"path": "examples/fcstm/door.fcstm", "target": "rust"}, `target "rust" is not a target`},
		{map[string]any{"path": "examples/fcstm/door.fcstm", "model": "state R;", "target": "go"}, "not both"},
		{map[string]any{"target": "go"}, "no model"},
	} {
		_, res := call(t, cs, "generate", tc.args)
		if text := toolText(res); !res.IsError || !strings.Contains(text, tc.want) {
			t.Errorf("%v: error %v %q, want one containing %q", tc.args, res.IsError, text, tc.want)
		}
	}
}

// TestGenerateToolWrites: with outDir the files are written into a new
// directory under the served root, as returned; an existing directory, a
// path leaving the root (absolute, "..", a link out) is refused and
// nothing is written.
func TestGenerateToolWrites(t *testing.T) {
	served, outside := t.TempDir(), t.TempDir()
	door, _ := os.ReadFile("../../examples/fcstm/door.fcstm")
	mustWrite(t, filepath.Join(served, "door.fcstm"), string(door))
	mustWrite(t, filepath.Join(served, "taken", "keep.txt"), "mine")
	os.Symlink(outside, filepath.Join(served, "out"))
	cs := connectServing(t, served)
	args := func(dir string) map[string]any {
		return map[string]any{"path": "door.fcstm", "target": "python", "driver": true, "outDir": dir}
	}
	out, res := call(t, cs, "generate", args("gen/door"))
	if res.IsError {
		t.Fatal(toolText(res))
	}
	if out["written"] != "gen/door" {
		t.Errorf("written = %v", out["written"])
	}
	for name, text := range genFiles(t, out) {
		path := filepath.Join(served, "gen", "door", filepath.FromSlash(name))
		data, err := os.ReadFile(path)
		if err != nil || string(data) != text {
			t.Errorf("%s: not written as returned (%v)", name, err)
		}
		st, _ := os.Stat(path)
		ex, _ := out["executable"].([]any)
		if exec := slices.Contains(ex, any(name)); st != nil && (st.Mode()&0o100 != 0) != exec {
			t.Errorf("%s: mode %v, executable %v", name, st.Mode(), exec)
		}
	}
	escape, _ := filepath.Rel(served, filepath.Join(outside, "x"))
	for _, tc := range []struct{ dir, want string }{
		{"gen/door", "exists"}, {"taken", "exists"}, {"door.fcstm", "exists"},
		{filepath.Join(outside, "abs"), "not a relative path"}, {escape, "not a relative path"},
		{"out/x", "outDir"},
	} {
		_, res := call(t, cs, "generate", args(tc.dir))
		if text := toolText(res); !res.IsError || !strings.Contains(text, tc.want) {
			t.Errorf("outDir %s: error %v %q, want one containing %q", tc.dir, res.IsError, text, tc.want)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(served, "taken", "keep.txt")); string(data) != "mine" {
		t.Errorf("an existing directory was written into")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside the root: %v", entries)
	}
	// A model that does not load writes nothing.
	_, res = call(t, cs, "generate", map[string]any{"model": "state R {", "target": "go", "outDir": "broken"})
	if _, err := os.Stat(filepath.Join(served, "broken")); !res.IsError || err == nil {
		t.Errorf("a model that does not load: error %v, directory made %v", res.IsError, err == nil)
	}
}
