package generate

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// jsonBigModel reaches past 64 bits: up overflows from a large n, reset
// adds and then sets (its net effect is in range), split has an
// overflowing and an in-range outcome (nondeterministic for the runtime).
const jsonBigModel = `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}],
  "transitions": [
    {"from": "A", "event": "up", "to": "A", "updates": [{"variable": "n", "op": "inc", "value": 9007199254740991}]},
    {"from": "A", "event": "reset", "to": "A", "updates": [{"variable": "n", "op": "inc", "value": 9007199254740991}, {"variable": "n", "op": "set", "value": 1}]},
    {"from": "A", "event": "split", "to": "A", "updates": [{"variable": "n", "op": "inc", "value": 9007199254740991}]},
    {"from": "A", "event": "split", "to": "A", "updates": [{"variable": "n", "op": "set", "value": 5}]}
  ],
  "variables": [{"name": "n", "kind": "integer", "init": 0}]}
`

const cJSONMain = `#include <stdio.h>
#include <string.h>
#include "japi.h"
#include "jbig.h"

static char calls[512];
static int refuse;

static int hook(const japi_call *c, void *user)
{
	size_t n = strlen(calls);
	snprintf(calls + n, sizeof calls - n, "[%s %s %s n=%lld %s]", c->action, c->stage, c->state, (long long)c->vars[JAPI_VAR_N].i, (const char *)user);
	return refuse;
}

static japi_machine m;
static jbig_machine b;

static void show(int rc)
{
	printf("rc=%d %s n=%lld ok=%d %s\n", rc, japi_state(&m), (long long)japi_var(&m, JAPI_VAR_N).i, (int)japi_var(&m, JAPI_VAR_OK).i, calls);
	if (rc)
		printf("  %s: %s\n", m.error.cls, m.error.message);
}

static void show_big(int rc)
{
	printf("rc=%d n=%lld", rc, (long long)jbig_var(&b, JBIG_VAR_N).i);
	if (rc)
		printf(" %s: %s", b.error.cls, b.error.message);
	printf("\n");
}

int main(void)
{
	const char *go[] = {"go"}, *nope[] = {"nope"}, *two[] = {"go", "stop"};
	const char *up[] = {"up"}, *reset[] = {"reset"}, *split[] = {"split"};
	japi_value vars[2];
	jbig_value big[1];
	unsigned char given[2] = {1, 0};
	m.hooks[JAPI_HOOK_HELLO] = hook;
	m.hooks[JAPI_HOOK_LEAVE] = hook;
	m.user = "u";
	show(japi_init(&m));
	show(japi_cycle(&m, go, 1));
	show(japi_cycle(&m, go, 1));
	show(japi_cycle(&m, nope, 1));
	show(japi_cycle(&m, two, 2));
	vars[0].kind = JAPI_INT;
	vars[0].i = 1;
	vars[1].kind = JAPI_BOOL;
	vars[1].i = 1;
	show(japi_start(&m, "Idle", vars, 0));
	refuse = 3;
	show(japi_cycle(&m, go, 1));
	vars[1].kind = JAPI_INT;
	show(japi_start(&m, 0, vars, 0));
	show(japi_start(&m, "Nowhere", vars, 0));
	show(japi_start(&m, "Idle", vars, given));
	big[0].kind = JBIG_INT;
	big[0].i = INT64_MAX;
	show_big(jbig_start(&b, "A", big, 0));
	show_big(jbig_cycle(&b, up, 1));
	show_big(jbig_cycle(&b, split, 1));
	show_big(jbig_cycle(&b, reset, 1));
	show_big(jbig_cycle(&b, up, 1));
	return 0;
}
`

// TestCJSONAPI uses the C code of two JSON models as a program would:
// hooks on entry and exit actions with their context, event errors and a
// failing hook that change nothing, a hot start and the start errors; a
// result past 64 bits is an error that changes nothing, and only a final
// value counts (reset); an overflowing outcome is still told apart from
// an in-range one (split). Both compile warning-free under gcc (and
// clang), and reference no allocation function.
func TestCJSONAPI(t *testing.T) {
	cc := needCC(t)
	dir := t.TempDir()
	for _, m := range []struct{ name, src string }{{"japi", jsonAPIModel}, {"jbig", jsonBigModel}} {
		res, err := jsonmodel.Decode([]byte(m.src))
		if err != nil || !res.Valid() {
			t.Fatal(err, res.Errors)
		}
		files, err := GenerateJSON(res.Model, m.name+".json", "c", Options{})
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, dir, files[1:]) // files[0] is README.md, the same name for both
		if !strings.Contains(string(files[0].Data), "| `"+map[string]string{"japi": "Busy", "jbig": "A"}[m.name]+"` | `"+strings.ToUpper(m.name)+"_STATE_") {
			t.Errorf("%s: README.md lacks the state table:\n%s", m.name, files[0].Data)
		}
	}
	compilers := []string{cc}
	if clang, err := exec.LookPath("clang"); err == nil {
		compilers = append(compilers, clang)
	} else {
		t.Log("clang is not installed: checked with gcc only")
	}
	for _, c := range compilers {
		obj := filepath.Join(dir, "japi.o")
		args := append(append([]string{}, cFlags...), "-O2", "-c", "-o", obj, filepath.Join(dir, "japi.c"))
		if msg, err := exec.Command(c, args...).CombinedOutput(); err != nil || len(msg) > 0 {
			t.Errorf("%s %v: %v\n%s", c, args, err, msg)
		}
		syms, err := exec.Command("nm", "-u", obj).Output()
		if err != nil {
			t.Fatalf("nm: %v", err)
		}
		for _, f := range strings.Fields(string(syms)) {
			switch f {
			case "malloc", "calloc", "realloc", "free", "aligned_alloc":
				t.Errorf("the machine's object references %s (nm -u: %s)", f, syms)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "main.c"), []byte(cJSONMain), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "main")
	args := append(append([]string{}, cFlags...), "-o", bin, filepath.Join(dir, "main.c"), filepath.Join(dir, "japi.c"), filepath.Join(dir, "jbig.c"), "-lm")
	if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := `rc=0 Idle n=0 ok=0 
rc=0 Idle n=0 ok=1 [leave exit Idle n=0 u]
rc=0 Busy n=2 ok=1 [leave exit Idle n=0 u][leave exit Idle n=2 u][hello enter Busy n=2 u]
rc=-1 Busy n=2 ok=1 [leave exit Idle n=0 u][leave exit Idle n=2 u][hello enter Busy n=2 u]
  event: unknown event "nope": the model's events are go, stop
rc=-1 Busy n=2 ok=1 [leave exit Idle n=0 u][leave exit Idle n=2 u][hello enter Busy n=2 u]
  event: a JSON model takes one event per cycle, got 2 (go, stop)
rc=0 Idle n=1 ok=1 [leave exit Idle n=0 u][leave exit Idle n=2 u][hello enter Busy n=2 u]
rc=-1 Idle n=1 ok=1 [leave exit Idle n=0 u][leave exit Idle n=2 u][hello enter Busy n=2 u][leave exit Idle n=3 u]
  handler: handler of leave (exit of Idle) failed: the hook returned 3
rc=-1 Idle n=1 ok=0 [leave exit Idle n=0 u][leave exit Idle n=2 u][hello enter Busy n=2 u][leave exit Idle n=3 u]
  init: initial_vars['ok']: variable 'ok' is boolean, cannot assign 1
rc=-1 Idle n=0 ok=0 [leave exit Idle n=0 u][leave exit Idle n=2 u][hello enter Busy n=2 u][leave exit Idle n=3 u]
  init: initial_state Nowhere: no such state
rc=-1 Idle n=0 ok=0 [leave exit Idle n=0 u][leave exit Idle n=2 u][hello enter Busy n=2 u][leave exit Idle n=3 u]
  init: a hot start needs every variable; initial_vars lacks ok
rc=0 n=9223372036854775807
rc=-1 n=9223372036854775807 target: integer overflow (the C target has 64-bit integers) in $.transitions[0].updates
rc=-1 n=9223372036854775807 event: split is nondeterministic in A: transitions[2], transitions[3] fire with different results (S4); the simulation cannot choose
rc=0 n=1
rc=0 n=9007199254740992
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestCJSONReadme: for every example JSON model, the C program of the
// generated README compiles without a warning against the generated
// files and runs.
func TestCJSONReadme(t *testing.T) {
	cc := needCC(t)
	models, _ := filepath.Glob("../../examples/*.json")
	if len(models) == 0 {
		t.Fatal("no example JSON models")
	}
	for _, path := range models {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		res, err := jsonmodel.Decode(data)
		if err != nil || !res.Valid() {
			t.Fatalf("%s: %v %v", path, err, res.Errors)
		}
		files, err := GenerateJSON(res.Model, filepath.Base(path), "c", Options{Name: "m"})
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		writeFiles(t, dir, files)
		readme := string(files[0].Data)
		start := strings.Index(readme, "```c\n")
		end := strings.Index(readme[start+5:], "```")
		if start < 0 || end < 0 {
			t.Fatalf("%s: README.md has no C program:\n%s", path, readme)
		}
		prog := filepath.Join(dir, "app.c")
		if err := os.WriteFile(prog, []byte(readme[start+5:start+5+end]), 0o644); err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(dir, "app")
		args := append(append([]string{}, cFlags...), "-o", bin, prog, filepath.Join(dir, "m.c"), "-lm")
		if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("%s: cc: %v\n%s", path, err, out)
			continue
		}
		if out, err := exec.Command(bin).CombinedOutput(); err != nil {
			t.Errorf("%s: the README's program: %v\n%s", path, err, out)
		}
	}
}
