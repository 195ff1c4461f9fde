package generate

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/browsertest"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

func TestPackageName(t *testing.T) {
	for in, want := range map[string]string{
		"door.fcstm": "door", "Washing-Machine.fcstm": "washing_machine", "9lives.fcstm": "lives",
		"func.fcstm": "fsmfunc", "main": "fsmmain", "é.fcstm": "fsm",
		"log.fcstm": "fsmlog", "Time.fcstm": "fsmtime", "logger.fcstm": "logger",
	} {
		if got := packageName(in); got != want {
			t.Errorf("packageName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIdentsSanitisedAndUnique(t *testing.T) {
	ids := idents{}
	got := []string{ids.make("State", "Root.a_b"), ids.make("State", "Root.A_b"), ids.make("State", "Root.é"), ids.make("State", "Root.A_b_2")}
	want := []string{"StateRoot_A_b", "StateRoot_A_b_2", "StateRoot__", "StateRoot_A_b_2_2"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("ident %d = %q, want %q", i, got[i], want[i])
		}
	}
}

// apiModel has an abstract action, a guard and a hot-startable state.
const apiModel = `def int n = 0;
state Root {
    state A {
        enter abstract Hello;
        during { n = n + 1; }
    }
    state B;
    [*] -> A;
    A -> B : Go;
    B -> A : if [n > 100];
}
`

const apiMain = `package main

import (
	"errors"
	"fmt"
	"os"

	m "api"
)

func main() {
	var calls []string
	hooks := map[string]m.Hook{"Root.A.Hello": func(c *m.Call) error {
		calls = append(calls, fmt.Sprintf("%s %s %s n=%s", c.Action, c.Stage, c.State, c.Vars[0]))
		return nil
	}}
	r, err := m.New(m.Options{Hooks: hooks})
	check(err)
	check(r.Cycle(nil))
	check(r.Cycle(nil))
	fmt.Println(r.State(), r.VarN(), calls)
	check(r.Cycle([]string{m.EventRoot_Go}))
	fmt.Println(r.State(), r.VarN(), r.Ended())
	err = r.Cycle([]string{"Nope"})
	var e *m.Error
	fmt.Println(errors.As(err, &e), e.Class, r.State())
	h, err := m.New(m.Options{InitialState: m.StateRoot_B, InitialVars: map[string]m.Value{"n": m.IntValue(101)},
		Hooks: map[string]m.Hook{"Root.A.Hello": func(*m.Call) error { return errors.New("refused") }}})
	check(err)
	err = h.Cycle(nil)
	fmt.Println(h.State(), h.VarN(), err)
}

func check(err error) {
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
}
`

// TestGoAPI uses the generated package as a program would: hooks with
// their context, typed accessors, an event error that changes nothing, a
// hot start, and a failing hook that leaves the machine unchanged.
func TestGoAPI(t *testing.T) {
	goCmd := needGo(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "api.fcstm")
	if err := os.WriteFile(src, []byte(apiModel), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := model.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(m, "go", Options{Name: "api", Driver: true})
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, filepath.Join(dir, "gen"), files)
	if err := os.MkdirAll(filepath.Join(dir, "gen", "cmd", "apitest"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gen", "cmd", "apitest", "main.go"), []byte(apiMain), 0o644); err != nil {
		t.Fatal(err)
	}
	vet := exec.Command(goCmd, "vet", "./...")
	vet.Dir = filepath.Join(dir, "gen")
	vet.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOWORK=off")
	if out, err := vet.CombinedOutput(); err != nil {
		t.Fatalf("go vet of the generated package: %v\n%s", err, out)
	}
	cmd := exec.Command(goCmd, "run", "./cmd/apitest")
	cmd.Dir = filepath.Join(dir, "gen")
	cmd.Env = vet.Env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := `Root.A 2 [Root.A.Hello enter Root.A n=0]
Root.B 2 false
true event Root.B
Root.B 101 abstract handler of Root.A.Hello (enter in Root.A) failed: refused
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	// The run script builds the driver once, then runs it.
	steps := filepath.Join(dir, "steps.json")
	if err := os.WriteFile(steps, []byte(`[[], ["Root.Go"], []]`), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		run := exec.Command(filepath.Join(dir, "gen", "run"), "--steps", steps)
		run.Env = vet.Env
		out, err := run.Output()
		if err != nil || !strings.HasPrefix(string(out), "{\n  \"schema\": \"stateproof/simulate/v1\",\n  \"model\": ") ||
			!strings.Contains(string(out), `"state": "Root.B"`) {
			t.Fatalf("run: %v\n%s", err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "gen", ".bin", "api")); err != nil {
		t.Errorf("the run script did not build its driver: %v", err)
	}
	if strings.Contains(string(files[0].Data), "\t\n") {
		t.Error("generated file has trailing whitespace")
	}
}

// TestGeneratedFilesAreMarked: every Go file starts with the standard
// "Code generated … DO NOT EDIT." line, which tools look for before the
// package clause.
func TestGeneratedFilesAreMarked(t *testing.T) {
	m, err := model.Load("../../examples/fcstm/door.fcstm")
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(m, "go", Options{Driver: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f.Path, ".go") && !strings.HasPrefix(string(f.Data), "// Code generated by stateproof generate. DO NOT EDIT.\n\n") {
			t.Errorf("%s does not start with the generated-code line", f.Path)
		}
	}
}

// TestReadme: the generated README.md names every state, event, variable
// and abstract action of the model, and its Go program compiles (go vet)
// against the package as generated — for every example model, and for a
// model whose package name is taken in the program.
func TestReadme(t *testing.T) {
	goCmd := needGo(t)
	dir := t.TempDir()
	clash := filepath.Join(dir, "hooks.fcstm")
	if err := os.WriteFile(clash, []byte(apiModel), 0o644); err != nil {
		t.Fatal(err)
	}
	models, _ := filepath.Glob("../../examples/fcstm/*.fcstm")
	models = append(models, clash)
	var mods []string
	for i, path := range models {
		m, err := model.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		name := packageName(filepath.Base(path))
		if path != clash {
			name = fmt.Sprintf("m%d", i)
		}
		files, err := Generate(m, "go", Options{Name: name, Driver: true})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var readme string
		for _, f := range files {
			if f.Path == "README.md" {
				readme = string(f.Data)
			}
		}
		checkReadmeNames(t, path, m, readme)
		start := strings.Index(readme, "```go\n")
		end := strings.Index(readme[start+1:], "\n```\n")
		if start < 0 || end < 0 {
			t.Fatalf("%s: README has no Go program", path)
		}
		files = append(files, File{Path: "cmd/readme/main.go", Data: []byte(readme[start+len("```go\n") : start+1+end+1])})
		writeFiles(t, filepath.Join(dir, name), files)
		mods = append(mods, name)
	}
	work := "go 1.22\n\nuse (\n\t./" + strings.Join(mods, "\n\t./") + "\n)\n"
	if err := os.WriteFile(filepath.Join(dir, "go.work"), []byte(work), 0o644); err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, n := range mods {
		pkgs = append(pkgs, n+"/cmd/readme")
	}
	vet := exec.Command(goCmd, append([]string{"vet"}, pkgs...)...)
	vet.Dir = dir
	vet.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOWORK="+filepath.Join(dir, "go.work"), "GOFLAGS=")
	if out, err := vet.CombinedOutput(); err != nil {
		t.Fatalf("go vet of the README programs: %v\n%s", err, out)
	}
}

// checkReadmeNames checks that a README names the model's states, events,
// variables and named abstract actions, each as code.
func checkReadmeNames(t *testing.T, path string, m *model.Model, readme string) {
	t.Helper()
	var want []string
	var walk func(s *model.State)
	walk = func(s *model.State) {
		want = append(want, s.Path)
		for _, c := range s.Children {
			walk(c)
		}
	}
	walk(m.Root)
	for _, e := range m.Events {
		want = append(want, e.Path)
	}
	for _, v := range m.Vars {
		want = append(want, v.Name)
	}
	abstracts := 0
	for p, a := range m.ActionByPath {
		if a.Kind == model.Abstract {
			want = append(want, p)
			abstracts++
			if !strings.Contains(readme, fmt.Sprintf("%q: func(c *", p)) {
				t.Errorf("%s: the README program has no hook for %s", path, p)
			}
		}
	}
	for _, w := range want {
		if !strings.Contains(readme, "| `"+w+"` |") {
			t.Errorf("%s: README does not list %s", path, w)
		}
	}
	if abstracts == 0 && !strings.Contains(readme, "no named abstract actions") {
		t.Errorf("%s: README does not say the model has no abstract actions", path)
	}
}

func writeFiles(t *testing.T, dir string, files []File) {
	t.Helper()
	if err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
}

// needGo returns the go command, skipping the test without one (failing
// it under CI=true, where .ci/run has it).
func needGo(t *testing.T) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		browsertest.Unavailable(t, "go is not installed: the generated Go code cannot be built")
	}
	return goCmd
}
