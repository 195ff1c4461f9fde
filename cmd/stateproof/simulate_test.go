package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/simulate"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/schematest"
)

const doorModel = "../../internal/fcstm/simulate/testdata/door.fcstm"

// simulateWithInput runs the simulate command with stdin.
func simulateWithInput(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := newSimulateCmd(strings.NewReader(stdin), &out, &errb)
	cmd.PersistentFlags().Int64(maxInputFlag, input.DefaultMaxBytes, "") // the root's flag
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	code := 0
	if err := cmd.Execute(); err != nil {
		var ee *exitError
		if !errors.As(err, &ee) {
			t.Fatalf("simulate: %v", err)
		}
		code = ee.code
	}
	return out.String(), errb.String(), code
}

func TestSimulateGolden(t *testing.T) {
	events := "; Door.Request; Door.Opening.Done; Timeout; Obstacle"
	out, errs, code := runCLI(t, "simulate", doorModel, "--events", events)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "simulate-door.txt", out)
	out, _, code = runCLI(t, "simulate", doorModel, "--events", events, "--json")
	if code != 0 || !json.Valid([]byte(out)) {
		t.Fatalf("exit %d, JSON valid %v", code, json.Valid([]byte(out)))
	}
	golden(t, "simulate-door.json", out)
}

func TestSimulateExitCodes(t *testing.T) {
	dir := t.TempDir()
	steps := filepath.Join(dir, "steps.json")
	if err := os.WriteFile(steps, []byte(`[[], ["Door.Request"], ["Nope"]]`), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.fcstm")
	if err := os.WriteFile(bad, []byte("state Root {\n  state A;\n  [*] -> Missing;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in stdout, or stderr for code 2 without --json
	}{
		{"a raising cycle still prints the trace", []string{"--steps", steps, "--json"}, 1, `"class": "event"`},
		{"both sources", []string{"--steps", steps, "--events", "a"}, 2, "cannot be combined"},
		{"bad steps", []string{"--events", "a,,b"}, 2, "empty event name"},
		{"bad init vars", []string{"--init-vars", `{"motor": "x"}`, "--events", ""}, 2, "$.motor"},
		{"hot start lacking vars", []string{"--init-state", "Door.Open", "--init-vars", `{"motor": 1}`, "--events", ""}, 2, "lacks open_count, temperature"},
		{"hot start, JSON error object", []string{"--init-state", "Door.Nowhere", "--init-vars", `{"motor": 1, "open_count": 0, "temperature": 0.0}`, "--json", "--events", ""}, 2, `"class": "init"`},
		{"hot start", []string{"--init-state", "Door.Open", "--init-vars", `{"motor": 1, "open_count": 12345678901234567, "temperature": 0.5}`, "--json", "--events", "Remove"}, 0, `"open_count": 12345678901234567`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runCLI(t, append([]string{"simulate", doorModel}, tc.args...)...)
			if code != tc.code || !strings.Contains(out+errs, tc.want) {
				t.Errorf("exit %d (want %d); output lacks %q:\n%s%s", code, tc.code, tc.want, out, errs)
			}
		})
	}
	out, _, code := runCLI(t, "simulate", bad, "--json", "--events", "")
	var doc struct {
		Schema string
		Error  struct {
			Class     string
			Line, Col int
		}
	}
	if code != 2 || json.Unmarshal([]byte(out), &doc) != nil || doc.Schema != "stateproof/simulate/v1" || doc.Error.Class != "validation" || doc.Error.Line < 1 || doc.Error.Col < 1 {
		t.Errorf("load failure: exit %d, %s", code, out)
	}
	_, errs, code := runCLI(t, "simulate", bad, "--events", "")
	if code != 2 || !strings.Contains(errs, "^") {
		t.Errorf("load failure as text: exit %d, %s", code, errs)
	}
}

// Without --events or --steps and with a standard input that is not a
// terminal, each line is a cycle.
func TestSimulateLinesFromStdin(t *testing.T) {
	out, errs, code := simulateWithInput(t, "\nDoor.Request\nDone Bogus\n", doorModel, "--json")
	var doc struct{ Cycles []struct{ State *string } }
	if code != 1 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Cycles) != 3 || *doc.Cycles[1].State != "Door.Opening" {
		t.Errorf("exit %d: %s %s", code, out, errs)
	}
}

// An empty --events is one cycle without events; standard input is not read.
func TestSimulateEmptyEvents(t *testing.T) {
	out, errs, code := simulateWithInput(t, "Door.Request\nDone\n", doorModel, "--json", "--events", "")
	var doc struct{ Cycles []struct{ Events []string } }
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Cycles) != 1 || len(doc.Cycles[0].Events) != 0 {
		t.Errorf("exit %d: %s %s", code, out, errs)
	}
}

// The interactive loop over a line editor: keys in, a cycle per Enter,
// Tab completing an event name, "quit" leaving.
func TestSimulateShellLoop(t *testing.T) {
	m, err := model.Load(doorModel)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := simulate.Start(m, "door", simulate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	keys := strings.NewReader("\rDoor.Req\t\rvars\rquit\r")
	if err := shellLoop(sess, struct {
		io.Reader
		io.Writer
	}{keys, &out}); err != nil {
		t.Fatal(err)
	}
	if n := len(sess.Report().Cycles); n != 2 || *sess.Report().Cycles[1].State != "Door.Opening" {
		t.Fatalf("%d cycles, output:\n%s", n, out.String())
	}
	if !strings.Contains(out.String(), "Door.Opening> ") || !strings.Contains(out.String(), "motor = 1") {
		t.Errorf("output:\n%s", out.String())
	}
}

// Standard input counts against --max-input-bytes and its lines are
// bounded: an endless stream of empty lines is refused, not run forever.
func TestSimulateStdinLimits(t *testing.T) {
	lots := strings.Repeat("\n", 5000)
	_, errs, code := simulateWithInput(t, lots, doorModel, "--max-input-bytes", "4096", "--max-cycles", "1000000")
	if code != 2 || !strings.Contains(errs, "standard input is larger than the input limit of 4096 bytes") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	long := "\nDoor.Request\n" + strings.Repeat("x", simulate.MaxLineBytes+1) + "\n"
	_, errs, code = simulateWithInput(t, long, doorModel, "--json")
	if code != 2 || !strings.Contains(errs, "standard input: line 3 is longer than 1048576 bytes") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	// Exactly at the line limit is a line (of one unknown event).
	ok := strings.Repeat("x", simulate.MaxLineBytes) + "\n"
	if out, errs, code := simulateWithInput(t, ok, doorModel, "--json"); code != 1 || !strings.Contains(out, `"class": "event"`) {
		t.Errorf("a line of exactly 1 MiB: exit %d, %s", code, errs)
	}
}

// A run with more cycles than --max-cycles stops there and says so, in
// the text, in the JSON report and in the exit status 3: never a pass.
func TestSimulateMaxCycles(t *testing.T) {
	five := strings.Repeat("\n", 5)
	for _, tc := range []struct {
		max, code int
		json      bool
	}{{5, 0, false}, {4, 3, false}, {5, 0, true}, {4, 3, true}} {
		args := []string{doorModel, "--max-cycles", strconv.Itoa(tc.max)}
		if tc.json {
			args = append(args, "--json")
		}
		out, errs, code := simulateWithInput(t, five, args...)
		stopped := strings.Contains(out, "stopped after 4 cycles (--max-cycles)")
		if code != tc.code || stopped != (tc.code == 3) {
			t.Errorf("max %d, json %v: exit %d, stopped %v:\n%s%s", tc.max, tc.json, code, stopped, out, errs)
		}
		if tc.json {
			schematest.Report(t, "simulate --max-cycles", []byte(out))
			var rep simulate.Report
			if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Cycles) != min(tc.max, 5) {
				t.Errorf("max %d: %d cycles, %v", tc.max, len(rep.Cycles), err)
			}
		} else if tc.code == 3 && !strings.Contains(out, "not decided: ") {
			t.Errorf("the text does not say the run was not decided:\n%s", out)
		}
	}
	if _, errs, code := simulateWithInput(t, "", doorModel, "--max-cycles", "0"); code != 2 || !strings.Contains(errs, "--max-cycles must be") {
		t.Errorf("--max-cycles 0: exit %d, %s", code, errs)
	}
}

// A wrong --steps file is located: its name, line:col and JSON path.
func TestSimulateStepsErrorLocated(t *testing.T) {
	steps := filepath.Join(t.TempDir(), "steps.json")
	os.WriteFile(steps, []byte("[[],\n [\"Door.Request\", 3]]"), 0o644)
	out, errs, code := runCLI(t, "simulate", doorModel, "--steps", steps)
	if out != "" {
		t.Errorf("a wrong steps file is refused before any cycle runs:\n%s", out)
	}
	if want := "--steps " + steps + ":2:19: $[1][1]: want an event path (a non-empty string), got number"; code != 2 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q, want %q", code, errs, want)
	}
}

// A large --steps file is read cycle by cycle: with the default cap the
// run stops after DefaultMaxCycles cycles instead of holding the file's
// million cycles (before: the whole file parsed into a tree, then run).
func TestSimulateLargeStepsStops(t *testing.T) {
	steps := filepath.Join(t.TempDir(), "steps.json")
	n := 1000000
	if err := os.WriteFile(steps, []byte("["+strings.Repeat("[],", n)+"[]]"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, errs, code := simulateWithInput(t, "", doorModel, "--steps", steps, "--max-cycles", "2000")
	if code != 3 || !strings.Contains(out, "cycle 2000 ") || strings.Contains(out, "cycle 2001 ") {
		t.Errorf("exit %d: %s\n%s", code, errs, out[max(0, len(out)-300):])
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v: the file is not read cycle by cycle", d)
	}
}

// A model whose start fails says where and why: the declaration's location,
// its source line and a caret (text), or a located error of class init
// that satisfies the contract (JSON); a hot start names its options.
func TestSimulateInitError(t *testing.T) {
	p := filepath.Join(t.TempDir(), "init.fcstm")
	if err := os.WriteFile(p, []byte("def int x = 1;\ndef int y = 1 / 0;\nstate R {\n  state A;\n  [*] -> A;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runCLI(t, "simulate", p, "--events", "")
	want := p + ":2:13: cannot start: the initial value of 'y' cannot be computed: division by zero\n    def int y = 1 / 0;\n                ^\n"
	if code != 2 || !strings.HasSuffix(errs, want) || strings.Count(errs, p) != 1 {
		t.Errorf("exit %d, stderr:\n%s\nwant the suffix:\n%s", code, errs, want)
	}
	out, _, code := runCLI(t, "simulate", p, "--events", "", "--json")
	schematest.Report(t, "simulate init error", []byte(out))
	var rep simulate.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 2 || rep.Error == nil || rep.Error.Class != "init" || rep.Error.Line != 2 || rep.Error.Col != 13 {
		t.Errorf("exit %d, %v:\n%s", code, err, out)
	}
	_, errs, code = runCLI(t, "simulate", doorModel, "--init-state", "Door.Nowhere", "--init-vars", `{"motor": 1, "open_count": 0, "temperature": 0.0}`, "--events", "")
	if code != 2 || !strings.Contains(errs, "cannot start: initial_state Door.Nowhere: no such state (--init-state, --init-vars)") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// simulate --from-witness starts from a frame of a real bmc witness (the
// door opening within four cycles) and continues it; frame 0 is the cold
// start, the default is the last frame.
func TestSimulateFromWitness(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "w.json")
	out, errs, code := runCLI(t, "bmc", "../../examples/fcstm/door.fcstm", "-q", "../../examples/fcstm/door-opens.fbmcq", "--json")
	if code != 0 {
		t.Fatalf("bmc: exit %d: %s", code, errs)
	}
	if err := os.WriteFile(report, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	door := "../../examples/fcstm/door.fcstm"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--frame", "2"}, "starts at Door.Opening with open_count = 0, motor = 1, hold = 0\n"},
		{[]string{"--frame", "0"}, "starts at Door with open_count = 0, motor = 0, hold = 0\n"},
		{nil, "starts at Door.Open with"},
	} {
		args := append([]string{"simulate", door, "--from-witness", report, "--events", ""}, tc.args...)
		out, errs, code := runCLI(t, args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, %s\n%s", tc.args, code, errs, out)
		}
	}
	// Continuing frame 2 by hand reaches the frame after it.
	out, _, _ = runCLI(t, "simulate", door, "--from-witness", report, "--frame", "2", "--events", "Door.Opening.Done", "--json")
	var rep simulate.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Cycles) != 1 || rep.Cycles[0].State == nil || *rep.Cycles[0].State != "Door.Open" {
		t.Errorf("continued: %v\n%s", err, out)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"schema": "stateproof/verify/v1"}`), 0o644)
	none := filepath.Join(dir, "none.json")
	os.WriteFile(none, []byte(`{"schema": "stateproof/bmc/v1", "witness": null}`), 0o644)
	ended := filepath.Join(dir, "ended.json")
	os.WriteFile(ended, []byte(`{"schema": "stateproof/bmc/v1", "witness": {"frames": [{"index": 0, "state": null, "terminated": true, "vars": {}}]}}`), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--from-witness", report, "--frame", "9"}, "--frame 9: the trace has frames 0 to 4"},
		{[]string{"--from-witness", report, "--frame", "-2"}, "--frame must be an integer >= 0"},
		{[]string{"--frame", "1"}, "--frame needs --from-witness"},
		{[]string{"--from-witness", report, "--init-state", "Door.Open"}, "cannot be combined"},
		{[]string{"--from-witness", bad}, `$.schema is "stateproof/verify/v1"`},
		{[]string{"--from-witness", none}, "has no witness or counterexample"},
		{[]string{"--from-witness", ended}, "$.witness.frames[0]: the machine has terminated"},
	} {
		_, errs, code := runCLI(t, append([]string{"simulate", door, "--events", ""}, tc.args...)...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
	}
}

// simulate runs JSON models with the same stateproof/simulate/v1 report:
// one event per cycle, exit actions, the transition, entry actions; a
// nondeterministic event, two events in a cycle and an unknown event are
// cycle errors; a hot start and a bmc witness of a JSON model start it.
func TestSimulateJSONModel(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "lock.json")
	os.WriteFile(m, []byte(`{"schemaVersion": 1, "init": "A",
	  "states": [{"id": "A", "onExit": ["unlock"]}, {"id": "B", "onEntry": ["lock"], "terminal": true}, {"id": "C"}],
	  "variables": [{"name": "n", "kind": "integer", "init": 9007199254740991}, {"name": "on", "kind": "boolean", "init": false}],
	  "transitions": [{"from": "A", "event": "go", "to": "B", "updates": [{"variable": "n", "op": "inc"}]},
	                  {"from": "C", "event": "split", "to": "A"}, {"from": "C", "event": "split", "to": "B"}]}`), 0o644)
	out, errs, code := runCLI(t, "simulate", m, "--events", "split; go; go, go; nope", "--json")
	schematest.Report(t, "simulate JSON model", []byte(out))
	var rep simulate.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 || len(rep.Cycles) != 4 {
		t.Fatalf("exit %d, %v: %s\n%s", code, err, errs, out)
	}
	c := rep.Cycles
	if len(c[0].Unconsumed) != 1 || c[0].Error != nil || *c[0].State != "A" {
		t.Errorf("split in A has no transition: %+v", c[0])
	}
	if *c[1].State != "B" || len(c[1].Actions) != 3 || c[1].Actions[0].Name != "unlock" || c[1].Actions[2].Name != "lock" || !strings.Contains(out, `"n": 9007199254740992`) {
		t.Errorf("go: %+v\n%s", c[1], out)
	}
	if c[2].Error == nil || !strings.Contains(c[2].Error.Message, "one event per cycle") || c[3].Error == nil || !strings.Contains(c[3].Error.Message, `unknown event "nope"`) {
		t.Errorf("errors: %+v %+v", c[2].Error, c[3].Error)
	}
	out, _, code = runCLI(t, "simulate", m, "--init-state", "C", "--init-vars", `{"n": 1, "on": true}`, "--events", "split")
	if code != 1 || !strings.Contains(out, "starts at C with n = 1, on = true") || !strings.Contains(out, "split is nondeterministic in C: transitions[1], transitions[2]") {
		t.Errorf("hot start, nondeterminism: exit %d\n%s", code, out)
	}
	for args, want := range map[string]string{
		"--init-state Z":                     "initial_state Z: no such state",
		`--init-state C --init-vars {"n":1}`: "lacks on",
		`--init-vars {"on":3}`:               "variable 'on' is boolean",
	} {
		_, errs, code := runCLI(t, append([]string{"simulate", m, "--events", ""}, strings.Fields(args)...)...)
		if code != 2 || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, %q", args, code, errs)
		}
	}
	if _, errs, code := runCLI(t, "simulate", "../../examples/broken/invalid-typo.json", "--events", ""); code != 2 || !strings.Contains(errs, "is not a valid model") {
		t.Errorf("invalid model: exit %d, %q", code, errs)
	}
	// A bmc witness of a JSON model: start at its last frame.
	out, errs, code = runCLI(t, "bmc", "../../examples/order.json", "--check", `check reach <= 3: active("SHIPPED");`, "--json")
	if code != 0 {
		t.Fatalf("bmc: exit %d: %s", code, errs)
	}
	report := filepath.Join(dir, "w.json")
	os.WriteFile(report, []byte(out), 0o644)
	out, errs, code = runCLI(t, "simulate", "../../examples/order.json", "--from-witness", report, "--events", "")
	if code != 0 || !strings.Contains(out, "starts at SHIPPED with retry = ") {
		t.Errorf("from a JSON witness: exit %d, %s\n%s", code, errs, out)
	}
}
