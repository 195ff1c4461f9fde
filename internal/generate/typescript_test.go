package generate

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/browsertest"
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// tsFlags are the compiler flags of the tests: strict, and only the
// language's own library (no DOM, no Node types), which the generated
// code must not need.
var tsFlags = []string{"--strict", "--skipLibCheck", "--target", "ES2020", "--lib", "es2020", "--module", "commonjs"}

// runTS compiles a TypeScript program next to the generated module with
// the module (tsc --strict: an error fails the test) and runs it with node.
func runTS(t *testing.T, dir, prog string) string {
	t.Helper()
	tsc := browsertest.TypeScriptCompiler(t)
	file := filepath.Join(dir, "gen", "prog.ts")
	prog = "declare const console: { log(...args: unknown[]): void };\n" + prog
	if err := os.WriteFile(file, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "js")
	args := append(append([]string{}, tsFlags...), "--outDir", out, filepath.Join(dir, "gen", "api.ts"), file)
	if msg, err := exec.Command(tsc, args...).CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, msg)
	}
	got, err := exec.Command("node", filepath.Join(out, "prog.js")).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, got)
	}
	return string(got)
}

const apiTS = `import * as m from "./api.js";

const calls: string[] = [];
function hello(c: m.Call): void {
  calls.push(c.action + " " + c.stage + " " + c.state + " n=" + c.vars["n"]);
  try {
    (c.vars as Record<string, m.Value>)["n"] = 5n;
  } catch (e) {
    calls.push("read-only");
  }
}

const r = new m.Machine({ hooks: { "Root.A.Hello": hello } });
r.cycle([]);
r.cycle([]);
console.log(r.state, String(r.vars["n"]), JSON.stringify(calls));
r.cycle([m.EVENT_ROOT_GO]);
console.log(r.state, JSON.stringify(r.vars, (k, v) => typeof v === "bigint" ? v.toString() + "n" : v), r.ended);
try {
  r.cycle(["Nope"]);
} catch (e) {
  if (e instanceof m.MachineError) {
    console.log(e.cls, r.state);
  }
}

const h = new m.Machine({
  initialState: m.STATE_ROOT_B, initialVars: { n: 101n },
  hooks: { "Root.A.Hello": () => { throw new Error("refused"); } },
});
try {
  h.cycle([]);
} catch (e) {
  if (e instanceof m.MachineError) {
    console.log(h.state, String(h.vars["n"]), e.cls, e.message);
  }
}
for (const bad of [{ n: true }, { n: 1.5 }, { x: 1n }]) {
  try {
    new m.Machine({ initialVars: bad as unknown as Record<string, bigint> });
  } catch (e) {
    if (e instanceof m.MachineError) {
      console.log(e.cls, e.message);
    }
  }
}
`

// TestTypeScriptAPI uses the generated module as a program would: hooks
// with their frozen context, an event error that changes nothing, a hot
// start, a failing hook that leaves the machine unchanged, and the errors
// of bad initial variables.
func TestTypeScriptAPI(t *testing.T) {
	dir := t.TempDir()
	generateAPI(t, dir, apiModel, "typescript", false)
	got := runTS(t, dir, apiTS)
	want := `Root.A 2 ["Root.A.Hello enter Root.A n=0","read-only"]
Root.B {"n":"2n"} false
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

// TestTypeScriptRunScript: DIR/run compiles the driver with tsc and prints
// the simulate document.
func TestTypeScriptRunScript(t *testing.T) {
	tsc := browsertest.TypeScriptCompiler(t)
	dir := t.TempDir()
	generateAPI(t, dir, apiModel, "typescript", true)
	steps := filepath.Join(dir, "steps.json")
	if err := os.WriteFile(steps, []byte(`[[], ["Root.Go"]]`), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(dir, "gen", "run"), "--steps", steps)
	cmd.Env = append(os.Environ(), "TSC="+tsc)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	for _, want := range []string{`"schema": "stateproof/simulate/v1"`, `"state": "Root.B"`, `"consumed": [` + "\n" + `        "Root.Go"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("run output lacks %q:\n%s", want, out)
		}
	}
	cmd = exec.Command(filepath.Join(dir, "gen", "run"), "--steps")
	cmd.Env = append(os.Environ(), "TSC="+tsc)
	if out, err := cmd.CombinedOutput(); err == nil || cmd.ProcessState.ExitCode() != 2 {
		t.Errorf("run --steps without a value: %v, want exit 2\n%s", err, out)
	}
	// A changed module is compiled again; without a compiler, run says
	// what to install (exit 2), not the shell's "not found".
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(dir, "gen", "api.ts"), later, later); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(filepath.Join(dir, "gen", "run"), "--steps", steps)
	cmd.Env = append(os.Environ(), "TSC="+filepath.Join(dir, "no-tsc"))
	out, err = cmd.CombinedOutput()
	if err == nil || cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), "install TypeScript") {
		t.Errorf("run without tsc: %v, want exit 2 and what to install\n%s", err, out)
	}
}

// TestTypeScriptFloats checks the module's float formatting against the
// runtime's and its power against Go's math.Pow, bit for bit, on random
// and special values.
func TestTypeScriptFloats(t *testing.T) {
	dir := t.TempDir()
	generateAPI(t, dir, "def int n = 0;\nstate Root;\n", "typescript", false)
	r := rand.New(rand.NewPCG(1, 2))
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-4, 9.999e-5, 1e-5, 1e16, 9999999999999998, 1e20, 1e21, 1e22, 123456789012345680000,
		5e-324, math.MaxFloat64, 0.5, 100, 1e-7, 1.5e300, math.Inf(1), math.Inf(-1), math.NaN()}
	for range 300 {
		xs = append(xs, math.Float64frombits(r.Uint64()), r.NormFloat64()*math.Pow(10, float64(r.IntN(50)-25)))
	}
	var prog, want strings.Builder
	prog.WriteString("import * as m from \"./api.js\";\nfor (const b of [")
	for _, x := range xs {
		fmt.Fprintf(&prog, "%q, ", fmt.Sprintf("%x", math.Float64bits(x)))
		want.WriteString(expr.RealVal(x).String() + "\n")
	}
	prog.WriteString("]) {\n  console.log(m._fmtFloat(m._fromBits(b)));\n}\n")
	prog.WriteString("for (const [x, y] of [")
	prog.WriteString(powVectors(r, xs, &want, func(x, y float64) string {
		return fmt.Sprintf("[%q, %q], ", fmt.Sprintf("%x", math.Float64bits(x)), fmt.Sprintf("%x", math.Float64bits(y)))
	}))
	prog.WriteString("]) {\n  const p = m._goPow(m._fromBits(x), m._fromBits(y));\n  console.log(p !== p ? \"nan\" : m._bits(p));\n}\n")
	got := runTS(t, dir, prog.String())
	sameLines(t, got, want.String())
}

// TestTypeScriptIntDivision: an int / int beyond 2^53 is rounded once,
// to the nearest float (ties to even), as the runtime's exact division
// (big.Rat's nearest float here), subnormal and overflowing results too.
func TestTypeScriptIntDivision(t *testing.T) {
	dir := t.TempDir()
	generateAPI(t, dir, "def int a = 1;\ndef int b = 1;\ndef float f = 0.0;\nstate Root { state A { during { f = a / b; } } [*] -> A; }\n", "typescript", false)
	r := rand.New(rand.NewPCG(3, 4))
	randInt := func(bits int) *big.Int {
		x := new(big.Int)
		for range bits/32 + 1 {
			x.Lsh(x, 32).Or(x, big.NewInt(int64(r.Uint32())))
		}
		x.SetBit(x, (bits/32+1)*32, 1) // a leading bit, then bits bits in all
		x.Rsh(x, uint(x.BitLen()-bits))
		if r.IntN(2) == 0 {
			x.Neg(x)
		}
		return x
	}
	type pair struct{ a, b *big.Int }
	var pairs []pair
	for range 200 {
		pairs = append(pairs, pair{randInt(1 + r.IntN(300)), randInt(1 + r.IntN(300))})
	}
	one := big.NewInt(1)
	for _, e := range []uint{1022, 1030, 1073, 1074, 1075, 1100} {
		pairs = append(pairs, pair{one, new(big.Int).Lsh(one, e)}, pair{big.NewInt(3), new(big.Int).Lsh(one, e)},
			pair{new(big.Int).Lsh(one, e+60), big.NewInt(3)})
	}
	pairs = append(pairs, pair{new(big.Int).Add(new(big.Int).Lsh(one, 60), one), new(big.Int).Lsh(one, 7)},
		pair{new(big.Int).Lsh(big.NewInt(3), 53), big.NewInt(2)}, pair{new(big.Int).Add(new(big.Int).Lsh(one, 54), big.NewInt(2)), big.NewInt(4)})
	var prog, want strings.Builder
	prog.WriteString("import * as m from \"./api.js\";\nfor (const [a, b] of [")
	for _, p := range pairs {
		fmt.Fprintf(&prog, "[%sn, %sn], ", p.a, p.b)
		f, _ := new(big.Rat).SetFrac(p.a, p.b).Float64()
		if math.IsInf(f, 0) {
			want.WriteString("expression\n")
			continue
		}
		fmt.Fprintf(&want, "%x\n", math.Float64bits(f))
	}
	prog.WriteString(`]) {
  const r = new m.Machine({ initialState: m.STATE_ROOT_A, initialVars: { a, b, f: 0 } });
  try {
    r.cycle([]);
    console.log(m._bits(r.vars["f"] as number));
  } catch (e) {
    console.log(e instanceof m.MachineError ? e.cls : e);
  }
}
`)
	got := runTS(t, dir, prog.String())
	g, w := strings.Split(got, "\n"), strings.Split(want.String(), "\n")
	for i := range w {
		if i >= len(g) || g[i] != w[i] {
			t.Fatalf("line %d (%s / %s): got %q, want %q", i+1, pairs[min(i, len(pairs)-1)].a, pairs[min(i, len(pairs)-1)].b, g[min(i, len(g)-1)], w[i])
		}
	}
}

// TestTypeScriptRefusesFractionalPower: a power whose exponent may be a
// fraction is refused at its position; integral exponents are not.
func TestTypeScriptRefusesFractionalPower(t *testing.T) {
	for src, refused := range map[string]bool{
		"def float f = 2.0;\ndef int n = 3;\nstate Root { during { f = f ** n; } }\n":             false,
		"def float f = 2.0;\ndef int n = 3;\nstate Root { during { f = f ** (n * 2 + 0.5); } }\n": true,
		"def float f = 2.0;\ndef int n = 3;\nstate Root { during { f = f ** 0.5; } }\n":           false,
		"def float f = 2.0;\ndef int n = 3;\nstate Root { during { f = 2 ** f; } }\n":             true,
		"def float f = 2.0;\ndef int n = 3;\nstate Root { during { f = sin(f); } }\n":             true,
	} {
		_, _, err := generatePath(t, writeModel(t, t.TempDir(), "pow.fcstm", src), "typescript", Options{})
		u, ok := err.(*Unsupported)
		switch {
		case refused && (!ok || (u.Feature != "float-power" && u.Feature != "float-function") || u.Pos.Line != 3):
			t.Errorf("%q: err %v, want a refusal at line 3", src, err)
		case !refused && err != nil:
			t.Errorf("%q: %v", src, err)
		}
	}
}

// TestTypeScriptReadme: for every example model, the generated README
// lists the model's states, events, variables and abstract actions, has a
// hook for every abstract action, and its TypeScript program compiles
// under tsc --strict against the module (one tsc run for all).
func TestTypeScriptReadme(t *testing.T) {
	tsc := browsertest.TypeScriptCompiler(t)
	paths, _ := filepath.Glob("../../examples/fcstm/*.fcstm")
	if len(paths) == 0 {
		t.Fatal("no example models")
	}
	dir := t.TempDir()
	args := []string{"--strict", "--noEmit", "--target", "ES2020", "--module", "commonjs"}
	for i, path := range paths {
		m, files, err := generatePath(t, path, "typescript", Options{})
		if _, ok := err.(*Unsupported); ok {
			continue
		} else if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		sub := filepath.Join(dir, fmt.Sprint(i))
		writeFiles(t, sub, files)
		var readme string
		for _, f := range files {
			if f.Path == "README.md" {
				readme = string(f.Data)
			}
		}
		for _, s := range m.StateByPath {
			if !strings.Contains(readme, "| `"+s.Path+"` |") {
				t.Errorf("%s: README does not list the state %s", path, s.Path)
			}
		}
		for _, v := range m.Vars {
			if !strings.Contains(readme, "| `"+v.Name+"` |") {
				t.Errorf("%s: README does not list the variable %s", path, v.Name)
			}
		}
		for p, a := range m.ActionByPath {
			if a.Kind == model.Abstract && !strings.Contains(readme, tsQuote(p)+": (call) =>") {
				t.Errorf("%s: the README program has no hook for %s", path, p)
			}
		}
		_, prog, ok := strings.Cut(readme, "```ts\n")
		prog, _, ok2 := strings.Cut(prog, "```")
		if !ok || !ok2 {
			t.Fatalf("%s: README has no ts program", path)
		}
		file := filepath.Join(sub, "readme.ts")
		if err := os.WriteFile(file, []byte(prog), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, file)
	}
	if out, err := exec.Command(tsc, args...).CombinedOutput(); err != nil {
		t.Fatalf("tsc --strict of the README programs: %v\n%s", err, out)
	}
}

// TestTypeScriptExactMathOnly: the runtime part of the module calls only
// the Math functions that are exact or correctly rounded (Math.pow and
// the ** operator on numbers are not, and differ from Go's math.Pow), and
// ** only on bigints.
func TestTypeScriptExactMathOnly(t *testing.T) {
	allowed := map[string]bool{"abs": true, "trunc": true, "floor": true, "ceil": true, "sqrt": true, "clz32": true}
	call := regexp.MustCompile(`Math\.(\w+)`)
	for i, line := range strings.Split(tsOpsSrc+tsTypesSrc+tsEngineSrc, "\n") {
		code := strings.TrimSpace(line)
		if strings.HasPrefix(code, "//") || strings.HasPrefix(code, "*") || strings.HasPrefix(code, "/**") {
			continue // a comment
		}
		code, _, _ = strings.Cut(code, " //")
		for _, m := range call.FindAllStringSubmatch(code, -1) {
			if !allowed[m[1]] {
				t.Errorf("line %d: Math.%s: %s", i+1, m[1], code)
			}
		}
		code = strings.ReplaceAll(code, `"**"`, "") // the operator's name
		if strings.Contains(code, "**") && code != "const r = a ** b;" {
			t.Errorf("line %d: ** on numbers: %s", i+1, code)
		}
	}
}
