package fcstmfront

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/fcstm/lower"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/z3"
)

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const unit = "def int count = 0;\nstate Counter {\n    state Running {\n        during { count = count + 1; }\n    }\n    [*] -> Running;\n}\n"

const host = "def int total = 0;\nstate Host {\n    import \"lib/counter.fcstm\" as Left {\n        def * -> left_$0;\n    }\n    [*] -> Left;\n}\n"

// A model with an import loads through the reader, lowers, and a witness
// of a real query replays on the FCSTM runtime.
func TestLoadImportsAndReplays(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "lib/counter.fcstm", unit)
	path := write(t, dir, "host.fcstm", host)
	m, err := Format{}.Load(input.Reader{}, path)
	if err != nil {
		t.Fatal(err)
	}
	if m.Format != "fcstm" || m.Path != path || len(m.Invariants) != 0 || m.System.VarIndex("left_count") < 0 {
		t.Fatalf("model %+v, vars %v", m, m.System.Vars)
	}
	if _, ok := m.Native.(*model.Model); !ok {
		t.Errorf("Native is %T", m.Native)
	}
	q, err := query.Parse("q", `check reach <= 4: active("Host.Left.Running") && var("left_count") == 3;`)
	if err != nil {
		t.Fatal(err)
	}
	if err := query.Bind(q, m.System, query.BindOptions{}); err != nil {
		t.Fatal(err)
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	rep, err := frontend.Check(ctx, m, q, bmc.Options{}, "q")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Result.Outcome != "witness_found" || rep.Replay == nil || !rep.Replay.OK() {
		t.Fatalf("outcome %s, replay %+v", rep.Result.Outcome, rep.Replay)
	}
	if _, err := frontend.InvariantQueries(m, 3); err == nil || !strings.Contains(err.Error(), "declares no") {
		t.Errorf("--bound on FCSTM: %v", err)
	}
}

// The reader's limits apply to imported files too.
func TestImportsGoThroughTheReader(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "lib/counter.fcstm", unit+strings.Repeat("// padding\n", 100))
	path := write(t, dir, "host.fcstm", host)
	_, err := Format{}.Load(input.Reader{MaxBytes: int64(len(host) + 10)}, path)
	if err == nil || !strings.Contains(err.Error(), "counter.fcstm") {
		t.Fatalf("an import over the size limit: %v", err)
	}
}

// Load errors carry file:line:col and the source line; every one is listed.
func TestLoadErrorsAreLocated(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "bad.fcstm", "state Root {\n    state A;\n    [*] -> A;\n    A -> Nowhere;\n    B -> A;\n}\n")
	_, err := Format{}.Load(input.Reader{}, path)
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("error %T %v", err, err)
	}
	msg := err.Error()
	for _, want := range []string{path + ":4:", path + ":5:", "A -> Nowhere;", "^"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error text lacks %q:\n%s", want, msg)
		}
	}
	if _, err := (Format{}).Load(input.Reader{}, filepath.Join(dir, "missing.fcstm")); err == nil || !strings.Contains(err.Error(), "missing.fcstm") {
		t.Errorf("a missing file: %v", err)
	}
}

// A construct the encoding does not support is refused with the
// expression and its line.
func TestUnsupportedIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "shift.fcstm", "def int x = 1;\nstate R {\n    state A {\n        during { x = x << 1; }\n    }\n    [*] -> A;\n}\n")
	_, err := Format{}.Load(input.Reader{}, path)
	var le *lower.Error
	if !errors.As(err, &le) || !le.Unsupported {
		t.Fatalf("error %T %v", err, err)
	}
	if msg := err.Error(); !strings.Contains(msg, path+":4:") || !strings.Contains(msg, "x << 1") || !strings.Contains(msg, "unsupported_bmc_core") {
		t.Errorf("error %q", msg)
	}
}

// The registry picks this format by extension and by name.
func TestRegistry(t *testing.T) {
	r := frontend.NewRegistry(Format{})
	if f, err := r.For("a/door.FCSTM", ""); err != nil || f.Name() != "fcstm" {
		t.Errorf("by extension: %v %v", f, err)
	}
	if f, err := r.For("door.txt", "fcstm"); err != nil || f.Name() != "fcstm" {
		t.Errorf("by name: %v %v", f, err)
	}
}

// FuzzFromModel: any source that constructs either lowers or is refused
// with an error; nothing panics.
func FuzzFromModel(f *testing.F) {
	for _, s := range []string{"state Root;", unit, "def int x = 1;\nstate R {\n    state A {\n        during { x = x / 0; }\n    }\n    [*] -> A;\n    A -> [*] :: Go effect { x = x % -3; }\n}\n",
		"def float y = 0.5;\nstate R {\n    state A { enter abstract Hi; }\n    state B;\n    [*] -> A;\n    A -> B : if [y ** 2 > 0.1];\n    !* -> A :: Reset;\n}\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := model.Parse("fuzz.fcstm", src, model.Options{ReadFile: func(string) ([]byte, error) { return nil, os.ErrNotExist }})
		if err != nil {
			return
		}
		fm, err := FromModel(m, "fuzz.fcstm")
		if err == nil && (fm.System == nil || fm.Replayer == nil) {
			t.Fatal("a model without a system or replayer")
		}
	})
}
