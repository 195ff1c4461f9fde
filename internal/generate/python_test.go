package generate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/browsertest"
	"github.com/stateproof/stateproof/internal/expr"
)

// needPython returns the python3 command, skipping the test without one
// (failing it under CI=true, where .ci/run has it).
func needPython(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		browsertest.Unavailable(t, "python3 is not installed: the generated Python code cannot run")
	}
	return py
}

// runPython runs a Python program next to the generated module.
func runPython(t *testing.T, dir, prog string) string {
	t.Helper()
	file := filepath.Join(dir, "gen", "prog.py")
	if err := os.WriteFile(file, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(needPython(t), file).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return string(out)
}

const apiPython = `import api as m

calls = []
def hello(c):
    calls.append("%s %s %s n=%s" % (c.action, c.stage, c.state, c.vars["n"]))
    try:
        c.vars["n"] = 5
    except TypeError:
        calls.append("read-only")

r = m.Machine(hooks={"Root.A.Hello": hello})
r.cycle([])
r.cycle([])
print(r.state, r.vars["n"], calls)
r.cycle([m.EVENT_ROOT_GO])
print(r.state, r.vars, r.ended)
try:
    r.cycle(["Nope"])
except m.Error as e:
    print(e.cls, r.state)

def refuse(c):
    raise RuntimeError("refused")

h = m.Machine(initial_state=m.STATE_ROOT_B, initial_vars={"n": 101}, hooks={"Root.A.Hello": refuse})
try:
    h.cycle([])
except m.Error as e:
    print(h.state, h.vars["n"], e.cls, e)
for bad in ({"n": True}, {"n": 1.5}, {"x": 1}):
    try:
        m.Machine(initial_vars=bad)
    except m.Error as e:
        print(e.cls, e.message)
`

// TestPythonAPI uses the generated module as a program would: hooks with
// their read-only context, an event error that changes nothing, a hot
// start, a failing hook that leaves the machine unchanged, and the
// errors of bad initial variables.
func TestPythonAPI(t *testing.T) {
	dir := t.TempDir()
	generateAPI(t, dir, apiModel, "python", false)
	got := runPython(t, dir, apiPython)
	want := `Root.A 2 ['Root.A.Hello enter Root.A n=0', 'read-only']
Root.B {'n': 2} False
event Root.B
Root.B 101 handler abstract handler of Root.A.Hello (enter in Root.A) failed: refused
init initial_vars['n'] must not be bool
init initial_vars['n']: variable 'n' is int type, cannot assign float 1.5
init initial_vars['x']: the model has no variable x
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestPythonRoundNonFinite: rounding an infinite float fails the cycle
// with an expression error and changes nothing (stateproof's runtime
// fails internally there).
func TestPythonRoundNonFinite(t *testing.T) {
	dir := t.TempDir()
	generateAPI(t, dir, "def float f = 0.0;\ndef int n = 0;\nstate Root { state A { during { n = floor(f); } } [*] -> A; }\n", "python", false)
	got := runPython(t, dir, `import api as m
r = m.Machine(initial_state="Root.A", initial_vars={"f": float("inf"), "n": 3})
try:
    r.cycle([])
except m.Error as e:
    print(e.cls, e.message, r.vars)
`)
	want := "expression operation assignment to 'n' evaluation failed: cannot convert float +Inf to an integer {'f': inf, 'n': 3}\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestPythonRunScript: DIR/run runs the driver and prints the simulate
// document.
func TestPythonRunScript(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	generateAPI(t, dir, apiModel, "python", true)
	steps := filepath.Join(dir, "steps.json")
	if err := os.WriteFile(steps, []byte(`[[], ["Root.Go"]]`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(dir, "gen", "run"), "--steps", steps).Output()
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	for _, want := range []string{`"schema": "stateproof/simulate/v1"`, `"state": "Root.B"`, `"consumed": [` + "\n" + `        "Root.Go"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("run output lacks %q:\n%s", want, out)
		}
	}
	cmd := exec.Command(filepath.Join(dir, "gen", "run"), "--steps")
	if out, err := cmd.CombinedOutput(); err == nil || cmd.ProcessState.ExitCode() != 2 {
		t.Errorf("run --steps without a value: %v, want exit 2\n%s", err, out)
	}
}

// TestPythonFloats checks the module's float formatting against the
// runtime's and its power against Go's math.Pow, bit for bit, on random
// and special values.
func TestPythonFloats(t *testing.T) {
	dir := t.TempDir()
	generateAPI(t, dir, "def int n = 0;\nstate Root;\n", "python", false)
	r := rand.New(rand.NewPCG(1, 2))
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-4, 9.999e-5, 1e16, 9999999999999998, 5e-324, math.MaxFloat64, 1e21, 0.5, 100, math.Inf(1), math.Inf(-1), math.NaN()}
	for range 300 {
		xs = append(xs, math.Float64frombits(r.Uint64()), r.NormFloat64()*math.Pow(10, float64(r.IntN(40)-20)))
	}
	var prog, want strings.Builder
	prog.WriteString("import api as m\nfor b in [")
	for _, x := range xs {
		fmt.Fprintf(&prog, "0x%x, ", math.Float64bits(x))
		want.WriteString(expr.RealVal(x).String() + "\n")
	}
	prog.WriteString("]:\n    print(m._fmt_float(m._fb(b)))\n")
	prog.WriteString("for x, y in [")
	prog.WriteString(powVectors(r, xs, &want, func(x, y float64) string {
		return fmt.Sprintf("(0x%x, 0x%x), ", math.Float64bits(x), math.Float64bits(y))
	}))
	prog.WriteString("]:\n    p = m._go_pow(m._fb(x), m._fb(y))\n    print('nan' if p != p else '%x' % m._bits(p))\n")
	got := runPython(t, dir, prog.String())
	sameLines(t, got, want.String())
}

func TestPyModuleName(t *testing.T) {
	for in, want := range map[string]string{"door": "door", "decimal": "fsmdecimal", "json": "fsmjson", "class": "fsmclass", "driver": "fsmdriver", "doors": "doors"} {
		if got := pyModuleName(in); got != want {
			t.Errorf("pyModuleName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPythonRefusesFractionalPower: a power whose exponent may be a
// fraction is refused at its position; integral exponents are not.
func TestPythonRefusesFractionalPower(t *testing.T) {
	for src, refused := range map[string]bool{
		"def float f = 2.0;\ndef int n = 3;\nstate Root { during { f = f ** n; } }\n":             false,
		"def float f = 2.0;\ndef int n = 3;\nstate Root { during { f = f ** (n * 2 + 0.5); } }\n": true,
		"def float f = 2.0;\ndef int n = 3;\nstate Root { during { f = f ** 0.5; } }\n":           false,
		"def float f = 2.0;\ndef int n = 3;\nstate Root { during { f = 2 ** f; } }\n":             true,
		"def float f = 2.0;\ndef int n = 3;\nstate Root { during { n = f; f = f ** n; } }\n":      true,
	} {
		_, _, err := generatePath(t, writeModel(t, t.TempDir(), "pow.fcstm", src), "python", Options{})
		u, ok := err.(*Unsupported)
		switch {
		case refused && (!ok || u.Feature != "float-power" || u.Pos.Line != 3):
			t.Errorf("%q: err %v, want a float-power refusal at line 3", src, err)
		case !refused && err != nil:
			t.Errorf("%q: %v", src, err)
		}
	}
}

// TestPythonReadmeProgram runs the README's Python program of an example
// with events and abstract actions against its module: every name it uses
// must exist (its event constant was once EVENT_…_2, a name the module
// does not define).
func TestPythonReadmeProgram(t *testing.T) {
	py := needPython(t)
	_, files := mustGenerate(t, "../../examples/fcstm/washing_machine.fcstm", "python", Options{})
	dir := t.TempDir()
	writeFiles(t, dir, files)
	var readme string
	for _, f := range files {
		if f.Path == "README.md" {
			readme = string(f.Data)
		}
	}
	_, prog, _ := strings.Cut(readme, "```python\n")
	prog, _, ok := strings.Cut(prog, "```")
	if !ok {
		t.Fatal("README has no python program")
	}
	file := filepath.Join(dir, "prog.py")
	if err := os.WriteFile(file, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(py, file).CombinedOutput(); err != nil {
		t.Fatalf("the README program: %v\n%s\n%s", err, out, prog)
	}
}
