package generate

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// jsonAPIModel has entry and exit actions, a guard over a boolean and an
// integer, and a terminal state.
const jsonAPIModel = `{"schemaVersion": 1, "init": "Idle",
  "states": [{"id": "Idle", "onExit": ["leave"]}, {"id": "Busy", "onEntry": ["hello"]}, {"id": "Off", "terminal": true}],
  "transitions": [
    {"from": "Idle", "event": "go", "to": "Busy", "guard": {"all": [{"variable": "ok", "op": "==", "value": true}, {"not": {"variable": "n", "op": ">", "value": 5}}]}, "updates": [{"variable": "n", "op": "inc", "value": 2}]},
    {"from": "Idle", "event": "go", "to": "Idle", "updates": [{"variable": "ok", "op": "set", "value": true}]},
    {"from": "Busy", "event": "stop", "to": "Off"}
  ],
  "variables": [{"name": "n", "kind": "integer", "init": 0}, {"name": "ok", "kind": "boolean", "init": false}]}
`

const jsonAPIMain = `package main

import (
	"errors"
	"fmt"
	"os"

	m "japi"
)

func main() {
	var calls []string
	hooks := map[string]m.Hook{
		"hello": func(c *m.Call) error { calls = append(calls, fmt.Sprintf("%s %s %s n=%s", c.Action, c.Stage, c.State, c.Vars[0])); return nil },
		"leave": func(c *m.Call) error { calls = append(calls, c.Action+" "+c.Stage+" "+c.State); return nil },
	}
	r, err := m.New(m.Options{Hooks: hooks})
	check(err)
	check(r.Cycle(m.EventGo)) // default branch: ok := true
	fmt.Println(r.State(), r.VarN(), r.VarOk(), calls)
	check(r.Cycle(m.EventGo)) // the guard holds now
	fmt.Println(r.State(), r.VarN(), r.VarOk(), calls)
	err = r.Cycle("nope")
	var e *m.Error
	fmt.Println(errors.As(err, &e), e.Class, r.State())
	h, err := m.New(m.Options{InitialState: m.StateIdle, InitialVars: map[string]m.Value{"n": m.IntValue(9223372036854775807), "ok": m.BoolValue(true)},
		Hooks: map[string]m.Hook{"leave": func(*m.Call) error { return errors.New("refused") }}})
	check(err)
	fmt.Println(h.Cycle(m.EventGo), h.State(), h.VarN())
	_, err = m.New(m.Options{InitialVars: map[string]m.Value{"ok": m.IntValue(1)}})
	fmt.Println(err)
}

func check(err error) {
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
}
`

// TestGoJSONAPI uses a JSON model's generated package as a program would:
// Cycle by event, hooks on entry and exit actions with their context, an
// event error and a failing hook that change nothing, a hot start, a
// start error; and go vet.
func TestGoJSONAPI(t *testing.T) {
	goCmd := needGo(t)
	dir := t.TempDir()
	res, err := jsonmodel.Decode([]byte(jsonAPIModel))
	if err != nil || !res.Valid() {
		t.Fatal(err, res.Errors)
	}
	files, err := GenerateJSON(res.Model, "japi.json", "go", Options{})
	if err != nil {
		t.Fatal(err)
	}
	gen := filepath.Join(dir, "gen")
	writeFiles(t, gen, files)
	if err := os.WriteFile(filepath.Join(gen, "go.mod"), []byte("module japi\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(gen, "cmd", "apitest"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gen, "cmd", "apitest", "main.go"), []byte(jsonAPIMain), 0o644); err != nil {
		t.Fatal(err)
	}
	vet := exec.Command(goCmd, "vet", "./...")
	vet.Dir = gen
	vet.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOWORK=off")
	if out, err := vet.CombinedOutput(); err != nil {
		t.Fatalf("go vet of the generated package: %v\n%s", err, out)
	}
	cmd := exec.Command(goCmd, "run", "./cmd/apitest")
	cmd.Dir, cmd.Env = gen, vet.Env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := `Idle 0 true [leave exit Idle]
Busy 2 true [leave exit Idle leave exit Idle hello enter Busy n=2]
true event Busy
handler of leave (exit of Idle) failed: refused Idle 9223372036854775807
initial_vars['ok']: variable 'ok' is boolean, cannot assign 1
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	readme := string(files[0].Data)
	for _, name := range []string{"`Idle`", "`StateBusy`", "`EventStop`", "`VarOk()`", "`$.variables[1]`"} {
		if !strings.Contains(readme, name) {
			t.Errorf("README.md lacks %s", name)
		}
	}
}

const jsonAPIPython = `import sys
sys.path.insert(0, sys.argv[1])
import japi as m
calls = []
r = m.Machine(hooks={"hello": lambda c: calls.append("%s %s %s n=%d" % (c.action, c.stage, c.state, c.vars["n"])),
                     "leave": lambda c: calls.append("%s %s %s" % (c.action, c.stage, c.state))})
r.cycle(m.EVENT_GO)
print(r.state, r.vars["n"], r.vars["ok"], calls)
r.cycle(m.EVENT_GO)
print(r.state, r.vars["n"], r.vars["ok"], calls)
try:
    r.cycle("nope")
except m.Error as e:
    print(e.cls, r.state)
def refuse(c):
    raise ValueError("refused")
h = m.Machine(initial_state=m.STATE_IDLE, initial_vars={"n": 2**70, "ok": True}, hooks={"leave": refuse})
try:
    h.cycle(m.EVENT_GO)
except m.Error as e:
    print(e, h.state, h.vars["n"])
try:
    m.Machine(initial_vars={"ok": 1})
except m.Error as e:
    print(e)
`

// TestPythonJSONAPI is TestGoJSONAPI for the Python module.
func TestPythonJSONAPI(t *testing.T) {
	py := needPython(t)
	dir := t.TempDir()
	res, err := jsonmodel.Decode([]byte(jsonAPIModel))
	if err != nil || !res.Valid() {
		t.Fatal(err, res.Errors)
	}
	files, err := GenerateJSON(res.Model, "japi.json", "python", Options{})
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, files)
	out, err := exec.Command(py, "-c", jsonAPIPython, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := `Idle 0 True ['leave exit Idle']
Busy 2 True ['leave exit Idle', 'leave exit Idle', 'hello enter Busy n=2']
event Busy
handler of leave (exit of Idle) failed: refused Idle 1180591620717411303424
initial_vars['ok']: variable 'ok' is boolean, cannot assign 1
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if !strings.Contains(string(files[0].Data), "| `Busy` | `STATE_BUSY` | `$.states[1]` |") {
		t.Errorf("README.md lacks the state table:\n%s", files[0].Data)
	}
}

const jsonAPITS = `import * as m from "./api.js";

const calls: string[] = [];
const r = new m.Machine({ hooks: {
  hello: (c: m.Call) => { calls.push(c.action + " " + c.stage + " " + c.state + " n=" + c.vars["n"]); },
  leave: (c: m.Call) => { calls.push(c.action + " " + c.stage + " " + c.state); },
} });
r.cycle(m.EVENT_GO);
console.log(r.state, String(r.vars["n"]), r.vars["ok"], JSON.stringify(calls));
r.cycle(m.EVENT_GO);
console.log(r.state, String(r.vars["n"]), r.vars["ok"], JSON.stringify(calls), r.ended);
for (const evs of [["nope"], ["go", "stop"]]) {
  try {
    r.step(evs);
  } catch (e) {
    if (e instanceof m.MachineError) {
      console.log(e.cls, e.message, r.state);
    }
  }
}
const h = new m.Machine({ initialState: m.STATE_IDLE, initialVars: { n: 2n ** 70n, ok: true },
  hooks: { leave: () => { throw new Error("refused"); } } });
try {
  h.cycle(m.EVENT_GO);
} catch (e) {
  if (e instanceof m.MachineError) {
    console.log(e.message, h.state, String(h.vars["n"]));
  }
}
for (const o of <m.Options[]>[{ initialVars: { ok: 1n } }, { initialVars: { n: 1.5 } }, { initialState: "Nowhere" }, { initialState: "Idle", initialVars: { n: 1n } }]) {
  try {
    new m.Machine(o);
  } catch (e) {
    if (e instanceof m.MachineError) {
      console.log(e.cls, e.message);
    }
  }
}
`

// TestTypeScriptJSONAPI is TestGoJSONAPI for the TypeScript module (tsc
// --strict), with the start errors.
func TestTypeScriptJSONAPI(t *testing.T) {
	dir := t.TempDir()
	res, err := jsonmodel.Decode([]byte(jsonAPIModel))
	if err != nil || !res.Valid() {
		t.Fatal(err, res.Errors)
	}
	files, err := GenerateJSON(res.Model, "japi.json", "typescript", Options{Name: "api"})
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, filepath.Join(dir, "gen"), files)
	got := runTS(t, dir, jsonAPITS)
	want := `Idle 0 true ["leave exit Idle"]
Busy 2 true ["leave exit Idle","leave exit Idle","hello enter Busy n=2"] false
event unknown event "nope": the model's events are go, stop Busy
event a JSON model takes one event per cycle, got 2 (go, stop) Busy
handler of leave (exit of Idle) failed: refused Idle 1180591620717411303424
init initial_vars['ok']: variable 'ok' is boolean, cannot assign 1
init initial_vars['n']: variable 'n' is integer, cannot assign 1.5
init initial_state Nowhere: no such state
init a hot start needs every variable; initial_vars lacks ok
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(string(files[0].Data), "| `Busy` | `STATE_BUSY` | `$.states[1]` |") {
		t.Errorf("README.md lacks the state table:\n%s", files[0].Data)
	}
}

// TestJSONGuardEveryTarget pins the one guard walk (guardSyntax) in each
// target's syntax on a guard with every kind: an empty all and any, a
// nested not, a comparison; the texts are worked out by hand from the
// targets' operators.
func TestJSONGuardEveryTarget(t *testing.T) {
	leaf := &jsonmodel.Guard{Kind: jsonmodel.GuardLeaf, Variable: "x", Op: "==", Value: -2}
	g := &jsonmodel.Guard{Kind: jsonmodel.GuardAny, Children: []*jsonmodel.Guard{
		{Kind: jsonmodel.GuardNot, Children: []*jsonmodel.Guard{{Kind: jsonmodel.GuardAll}}},
		{Kind: jsonmodel.GuardAll, Children: []*jsonmodel.Guard{leaf, {Kind: jsonmodel.GuardAny}}},
	}}
	idx := map[string]int{"x": 1}
	for _, tc := range []struct{ target, got, want string }{
		{"go", goGuard(g, idx), "(!(true) || (cmpLit(v[1], -2) == 0 && false))"},
		{"python", pyGuard(g, idx), "((not True) or (v[1] == -2 and False))"},
		{"typescript", tsGuard(g, idx), "(!(true) || (jnum(v[1]) === -2n && false))"},
		{"c", cGuard(g, idx), "(!(1) || (v[1] == " + cI64(-2) + " && 0))"},
		{"comment", guardText(g), "any(not(all()), all(x == -2, any()))"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %s, want %s", tc.target, tc.got, tc.want)
		}
	}
}
