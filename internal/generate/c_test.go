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

	"github.com/stateproof/stateproof/internal/browsertest"
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

var cFlags = []string{"-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror"}

// needCC returns gcc, skipping the test without it (failing it under
// CI=true, where .ci/run installs it).
func needCC(t *testing.T) string {
	t.Helper()
	cc, err := exec.LookPath("gcc")
	if err != nil {
		browsertest.Unavailable(t, "gcc is not installed: the generated C code cannot be built")
	}
	return cc
}

// cAPIMain uses the C API as a program would: a hook and its context, a
// failing hook that changes nothing, a hot start, a 64-bit overflow that
// changes nothing.
const cAPIMain = `#include <stdio.h>
#include <string.h>
#include "api.h"

static int calls, fail_hook;

static int hello(const api_call *c, void *user)
{
	printf("hook %s %s %s %s n=%lld user=%s\n", c->action, c->stage, c->state, c->active_leaf, (long long)c->vars[API_VAR_N].i, (const char *)user);
	calls++;
	return fail_hook;
}

static api_machine m;

int main(void)
{
	const char *go[] = {"/Go"};
	api_value vars[1];
	m.hooks[API_HOOK_ROOT_A_HELLO] = hello;
	m.user = "u";
	fail_hook = 7;
	if (api_init(&m) != 0 || api_cycle(&m, 0, 0) == 0)
		return 1;
	printf("failed %s: %s; state %s started %d n=%lld\n", m.error.cls, m.error.message, api_state(&m), m.started_, (long long)api_var(&m, API_VAR_N).i);
	fail_hook = 0;
	if (api_cycle(&m, 0, 0) != 0 || api_cycle(&m, go, 1) != 0) {
		printf("failed %s: %s\n", m.error.cls, m.error.message);
		return 2;
	}
	printf("state %s n=%lld calls=%d\n", api_state(&m), (long long)api_var(&m, API_VAR_N).i, calls);
	vars[0].kind = API_INT;
	vars[0].i = INT64_MAX;
	if (api_start(&m, "Root.A", vars, 0) != 0)
		return 3;
	if (api_cycle(&m, 0, 0) == 0)
		return 4;
	printf("failed %s: %s at %d:%d; state %s n=%lld\n", m.error.cls, m.error.message, m.error.line, m.error.col, api_state(&m), (long long)api_var(&m, API_VAR_N).i);
	if (api_start(&m, "Root.Nowhere", vars, 0) == 0)
		return 5;
	printf("failed %s: %s\n", m.error.cls, m.error.message);
	return 0;
}
`

func TestCAPI(t *testing.T) {
	cc := needCC(t)
	dir := t.TempDir()
	generateAPI(t, dir, apiModel, "c", false)
	gen := filepath.Join(dir, "gen")
	if err := os.WriteFile(filepath.Join(gen, "main.c"), []byte(cAPIMain), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "api")
	args := append(append([]string{}, cFlags...), "-o", bin, filepath.Join(gen, "main.c"), filepath.Join(gen, "api.c"), "-lm")
	if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := "hook Root.A.Hello enter Root.A Root.A n=0 user=u\n" +
		"failed handler: abstract handler of Root.A.Hello (enter in Root.A) failed: the hook returned 7; state Root started 0 n=0\n" +
		"hook Root.A.Hello enter Root.A Root.A n=0 user=u\n" +
		"state Root.B n=1 calls=2\n" +
		"failed target: operation assignment to 'n' evaluation failed: integer overflow (the C target has 64-bit integers) in n + 1 at 5:18; state Root.A n=9223372036854775807\n" +
		"failed init: initial_state Root.Nowhere: no such state\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestCReadme: for every example model, the C program of the generated
// README compiles without a warning against the generated files and
// runs, and the README names the model's states, events, variables and
// abstract actions.
func TestCReadme(t *testing.T) {
	cc := needCC(t)
	models, _ := filepath.Glob("../../examples/fcstm/*.fcstm")
	if len(models) == 0 {
		t.Fatal("no example models")
	}
	block := regexp.MustCompile("(?s)```c\n(.*?)```")
	for _, path := range models {
		m, files := mustGenerate(t, path, "c", Options{})
		dir := t.TempDir()
		writeFiles(t, dir, files)
		readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range modelNames(m) {
			if !strings.Contains(string(readme), "| `"+w+"` |") {
				t.Errorf("%s: README does not list %s", path, w)
			}
		}
		prog := block.FindSubmatch(readme)
		if prog == nil {
			t.Errorf("%s: the README has no C program", path)
			continue
		}
		name := packageName(filepath.Base(path))
		if err := os.WriteFile(filepath.Join(dir, "app.c"), prog[1], 0o644); err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(dir, "app")
		args := append(append([]string{}, cFlags...), "-O0", "-o", bin, filepath.Join(dir, "app.c"), filepath.Join(dir, name+".c"), "-lm")
		if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			t.Errorf("%s: the README's program does not compile: %v\n%s", path, err, out)
			continue
		}
		if out, err := exec.Command(bin).CombinedOutput(); err != nil {
			t.Errorf("%s: the README's program fails: %v\n%s", path, err, out)
		}
	}
}

// TestCMacrosUnique: names that differ only in case, or sanitise to the
// same identifier, get distinct macros.
func TestCMacrosUnique(t *testing.T) {
	dir := t.TempDir()
	text := "def int a = 0;\ndef int A = 0;\nstate Root {\n    state x;\n    state X;\n    [*] -> x;\n    x -> X : F;\n    X -> x : f;\n}\n"
	_, files := mustGenerate(t, writeModel(t, dir, "m.fcstm", text), "c", Options{})
	var header string
	for _, f := range files {
		if f.Path == "m.h" {
			header = string(f.Data)
		}
	}
	seen := map[string]bool{}
	for _, d := range regexp.MustCompile(`(?m)^#define (M_(STATE|EVENT|VAR)_\w+) `).FindAllStringSubmatch(header, -1) {
		if seen[d[1]] {
			t.Errorf("macro %s defined twice", d[1])
		}
		seen[d[1]] = true
	}
	for _, want := range []string{"M_VAR_A", "M_VAR_A_2", "M_STATE_ROOT_X", "M_STATE_ROOT_X_2", "M_EVENT_ROOT_F", "M_EVENT_ROOT_F_2"} {
		if !seen[want] {
			t.Errorf("no macro %s in\n%s", want, strings.Join(keys(seen), "\n"))
		}
	}
}

// modelNames are the model's state paths, events, variables and abstract
// actions.
func modelNames(m *model.Model) []string {
	var out []string
	for p := range m.StateByPath {
		out = append(out, p)
	}
	for _, e := range m.Events {
		out = append(out, e.Path)
	}
	for _, v := range m.Vars {
		out = append(out, v.Name)
	}
	for p, a := range m.ActionByPath {
		if a.Kind == model.Abstract {
			out = append(out, p)
		}
	}
	return out
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// arithModel computes an int/int division, a float power and formats
// them: the C target's own arithmetic where the C library does not give
// the runtime's bits directly.
const arithModel = `def int a = 0;
def int b = 1;
def float x = 0.0;
def float q = 0.0;
def float p = 0.0;
state Root {
    state A { during { q = a / b; p = x ** b; } }
    [*] -> A;
}
`

const arithMain = `#include <stdio.h>
#include <string.h>
#include "arith.h"

static arith_machine m;

int main(void)
{
	long long a, b;
	unsigned long long xb;
	while (scanf("%lld %lld %llx", &a, &b, &xb) == 3) {
		arith_value v[5];
		char qs[64], ps[64];
		double x;
		memcpy(&x, &xb, sizeof x);
		memset(v, 0, sizeof v);
		v[0].kind = ARITH_INT, v[0].i = a;
		v[1].kind = ARITH_INT, v[1].i = b;
		v[2].kind = ARITH_FLOAT, v[2].f = x;
		v[3].kind = ARITH_FLOAT, v[4].kind = ARITH_FLOAT;
		if (arith_start(&m, "Root.A", v, 0) != 0)
			return 1;
		if (arith_cycle(&m, 0, 0) != 0) {
			printf("error %s\n", m.error.message);
			continue;
		}
		arith_format(qs, sizeof qs, arith_var(&m, ARITH_VAR_Q));
		arith_format(ps, sizeof ps, arith_var(&m, ARITH_VAR_P));
		printf("%s %s\n", qs, ps);
	}
	return 0;
}
`

// TestCArithmetic compares the C target's int/int division (rounded once
// from the exact quotient), float power (Go's math.Pow for an integer
// exponent) and float formatting (the shortest decimal, as the runtime
// writes it) with the runtime's on random and edge operands.
func TestCArithmetic(t *testing.T) {
	cc := needCC(t)
	dir := t.TempDir()
	_, files := mustGenerate(t, writeModel(t, dir, "arith.fcstm", arithModel), "c", Options{Name: "arith"})
	writeFiles(t, dir, files)
	if err := os.WriteFile(filepath.Join(dir, "main.c"), []byte(arithMain), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "arith")
	args := append(append([]string{}, cFlags...), "-O2", "-o", bin, filepath.Join(dir, "main.c"), filepath.Join(dir, "arith.c"), "-lm")
	if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	vecs := arithVectors()
	var in strings.Builder
	var want []string
	for _, v := range vecs {
		fmt.Fprintf(&in, "%d %d %x\n", v.a, v.b, math.Float64bits(v.x))
		// The runtime's int/int division (internal/expr's trueDiv).
		q, _ := new(big.Rat).SetFrac(big.NewInt(v.a), big.NewInt(v.b)).Float64()
		if const2p53 := int64(1) << 53; -const2p53 <= v.a && v.a <= const2p53 && -const2p53 <= v.b && v.b <= const2p53 {
			q = float64(v.a) / float64(v.b)
		}
		p := math.Pow(v.x, float64(v.b))
		if math.IsInf(p, 0) || math.IsNaN(p) {
			want = append(want, "error")
			continue
		}
		want = append(want, expr.RealVal(q).String()+" "+expr.RealVal(p).String())
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("%d results for %d vectors", len(got), len(vecs))
	}
	bad := 0
	for i := range want {
		if g := got[i]; g != want[i] && !(want[i] == "error" && strings.Contains(g, "float overflow")) {
			if bad++; bad <= 10 {
				t.Errorf("a=%d b=%d x=%v: C gives %q, the runtime %q", vecs[i].a, vecs[i].b, vecs[i].x, g, want[i])
			}
		}
	}
}

// TestCNamesCannotClash: a name (--name) equal to the first word of one
// of the generated C's own identifiers (set, init, value, va, …) still
// compiles: no public NAME_x is one of the file's static names or a
// standard one.
func TestCNamesCannotClash(t *testing.T) {
	cc := needCC(t)
	dir := t.TempDir()
	m, files := mustGenerate(t, writeModel(t, dir, "api.fcstm", apiModel), "c", Options{Name: "api", Driver: true})
	words := map[string]bool{"va": true}
	for _, f := range files {
		for _, w := range regexp.MustCompile(`\b([a-z][a-z0-9]*)_[a-z0-9_]*`).FindAllStringSubmatch(string(f.Data), -1) {
			words[w[1]] = true
		}
	}
	delete(words, "api")
	for w := range words {
		files, err := Generate(m, "c", Options{Name: w, Driver: true})
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, w)
		writeFiles(t, out, files)
		args := append(append([]string{}, cFlags...), "-fsyntax-only")
		for _, f := range files {
			if strings.HasSuffix(f.Path, ".c") {
				args = append(args, filepath.Join(out, f.Path))
			}
		}
		if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			t.Errorf("--name %s: %v\n%s", w, err, msg)
		}
	}
}

// arithVec is one operand triple of TestCArithmetic: a / b, x ** b.
type arithVec struct {
	a, b int64
	x    float64
}

// arithVectors are edge operands, powers of two and their neighbours, and
// random operands of every magnitude.
func arithVectors() []arithVec {
	r := rand.New(rand.NewPCG(1, 2))
	vecs := []arithVec{{1, 3, 2}, {-7, 2, 0.5}, {math.MaxInt64, 3, -2}, {math.MinInt64, -1, 10}, {math.MinInt64, 7, 1e-300},
		{1 << 53, 3, 1.5}, {1<<53 + 1, 2, 1.0000001}, {9007199254740993, 1, -1}, {3, -1075, 2}, {1, 1024, 2}, {1, 1023, 2}, {5, -1074, 2}}
	// Powers of two and their neighbours: the shortest decimal of a float
	// at a binade's edge, where the gap below is half the gap above.
	for k := -1074; k <= 1023; k += 3 {
		f := math.Ldexp(1, k)
		vecs = append(vecs, arithVec{1, 1, f}, arithVec{1, 1, math.Nextafter(f, 0)}, arithVec{1, 1, math.Nextafter(f, math.Inf(1))})
	}
	for i := 0; i < 3000; i++ {
		a := int64(r.Uint64()) >> r.IntN(64)
		b := int64(r.Uint64()) >> r.IntN(64)
		if b == 0 {
			b = 1
		}
		x := math.Ldexp(r.Float64()+0.5, r.IntN(40)-20)
		if r.IntN(2) == 0 {
			x = -x
		}
		if r.IntN(3) > 0 {
			b = int64(r.IntN(4000) - 2000)
			if b == 0 {
				b = 7
			}
		}
		vecs = append(vecs, arithVec{a, b, x})
	}
	return vecs
}
