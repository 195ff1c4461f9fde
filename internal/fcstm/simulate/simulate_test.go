package simulate

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	goldenfile "github.com/stateproof/stateproof/internal/golden"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func load(t *testing.T, name string) *model.Model {
	t.Helper()
	m, err := model.Load(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Compare(t, name, got, *update)
}

var scenarios = []struct {
	model, events string
	opts          Options
}{
	{"door.fcstm", "; Door.Request; Door.Opening.Done; Timeout; Obstacle; Door.Opening.Done; Remove; Remove", Options{}},
	{"faults.fcstm", "; Divide; Half; Nope; Scale; Park; Park, Plant.Wait.Arm", Options{}},
	{"door.fcstm", "Door.Opening.Done, Door.Request; Timeout", Options{InitialState: "Door.Opening",
		InitialVars: map[string]expr.Value{"open_count": expr.IntVal(3), "motor": expr.IntVal(1), "temperature": expr.RealVal(-4)}}},
	{"faults.fcstm", "; Arm", Options{InitialState: "Plant.Wait",
		InitialVars: map[string]expr.Value{"d": expr.IntVal(1), "n": expr.IntVal(0), "ratio": expr.RealVal(0.5)}}},
}

// The JSON and text reports of a few scenarios, against golden files.
func TestGoldenReports(t *testing.T) {
	for i, sc := range scenarios {
		cycles, err := ParseEvents(sc.events)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Run(load(t, sc.model), sc.model, cycles, sc.opts)
		if err != nil {
			t.Fatal(err)
		}
		data, err := rep.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(data) {
			t.Fatalf("invalid JSON:\n%s", data)
		}
		base := strings.TrimSuffix(sc.model, ".fcstm") + "-" + string(rune('a'+i))
		golden(t, base+".json", data)
		var text bytes.Buffer
		NewTextWriter(&text).Report(rep)
		golden(t, base+".txt", text.Bytes())
	}
}

// Each fault scenario cycle raises the class it is written for, and the
// state and variables stay.
func TestFaultClasses(t *testing.T) {
	cycles, _ := ParseEvents("; Divide; Half; Nope; Scale; Park; Park, Plant.Wait.Arm")
	rep, err := Run(load(t, "faults.fcstm"), "faults.fcstm", cycles, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var classes []string
	for _, c := range rep.Cycles {
		switch {
		case c.Error != nil:
			classes = append(classes, c.Error.Class)
		case c.Delta:
			classes = append(classes, "delta")
		default:
			classes = append(classes, "ok")
		}
	}
	// Park alone is refused (Wait needs Arm to settle): Run stays, no Delta.
	want := []string{"ok", "expression", "writeback", "event", "expression", "ok", "ok"}
	if !reflect.DeepEqual(classes, want) {
		t.Errorf("outcomes %v, want %v", classes, want)
	}
	if c := rep.Cycles[1]; *c.State != "Plant.Run" || JSONNumber(c.Vars.Values[1]) != "1" {
		t.Errorf("after the failed cycle: %s n=%v", *c.State, c.Vars.Values[1])
	}
	if c := rep.Cycles[5]; *c.State != "Plant.Run" || len(c.Unconsumed) != 1 {
		t.Errorf("Park alone: %s, unconsumed %v", *c.State, c.Unconsumed)
	}
	if c := rep.Cycles[6]; *c.State != "Plant.Wait.Ready" || len(c.Consumed) != 2 {
		t.Errorf("Park with Arm: %s, consumed %v", *c.State, c.Consumed)
	}
	hot, _ := ParseEvents("; Arm")
	rep, _ = Run(load(t, "faults.fcstm"), "faults.fcstm", hot, scenarios[3].opts)
	if !rep.Cycles[0].Delta || *rep.Cycles[0].State != "Plant.Wait" || *rep.Cycles[1].State != "Plant.Wait.Ready" {
		t.Errorf("hot start into Wait: %+v", rep.Cycles)
	}
}

func TestParseEvents(t *testing.T) {
	got, err := ParseEvents("a; ; b, c ;")
	want := [][]string{{"a"}, {}, {"b", "c"}, {}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	if _, err := ParseEvents("a,,b"); err == nil || !strings.Contains(err.Error(), "cycle 1") {
		t.Errorf("empty event: %v", err)
	}
}

func TestParseSteps(t *testing.T) {
	got, err := ParseSteps([]byte(`[["A.Go", "B"], []]`))
	if err != nil || !reflect.DeepEqual(got, [][]string{{"A.Go", "B"}, {}}) {
		t.Errorf("got %q, %v", got, err)
	}
	for src, want := range map[string]string{
		`{"a": 1}`:         "1:1: $: want an array",
		"[[\"a\"],\n [1]]": "2:3: $[1][0]: want an event path",
		"[[\"a\"],\r [1]]": "2:3: $[1][0]: want an event path", // a lone CR ends a line (package lineend)
		`["a"]`:            "1:2: $[0]: want an array",
		`[["a"]`:           "1:",
	} {
		if _, err := ParseSteps([]byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", src, err, want)
		}
	}
}

func TestParseInitVars(t *testing.T) {
	got, err := ParseInitVars([]byte(`{"a": 9007199254740993, "b": 2.5, "c": "-inf", "d": true}`))
	if err != nil {
		t.Fatal(err)
	}
	if got["a"] != expr.IntVal(9007199254740993) || got["b"] != expr.RealVal(2.5) || JSONNumber(got["c"]) != `"-inf"` || got["d"].Type() != expr.Bool {
		t.Errorf("got %v", got)
	}
	for src, want := range map[string]string{
		`{"a": "x"}`:  `$.a: want a number, got the string "x"`,
		"{\n\"a\" 1}": "2:5:",
		"{\r\"a\" 1}": "2:5:",
		`[1]`:         "want a JSON object",
		`{} {}`:       "found more",
		`null`:        "got null",
	} {
		if _, err := ParseInitVars([]byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", src, err, want)
		}
	}
}

func TestJSONNumber(t *testing.T) {
	for v, want := range map[expr.Value]string{
		expr.IntVal(-9223372036854775808): "-9223372036854775808",
		expr.RealVal(2):                   "2.0", expr.RealVal(0.1): "0.1", expr.RealVal(1e300): "1e+300",
	} {
		if got := JSONNumber(v); got != want {
			t.Errorf("%v: %s, want %s", v, got, want)
		}
		var x any
		if err := json.Unmarshal([]byte(JSONNumber(v)), &x); err != nil {
			t.Errorf("%s is not JSON: %v", JSONNumber(v), err)
		}
	}
}

// The shell runs a cycle per line, answers its commands and completes
// event names.
func TestShell(t *testing.T) {
	s, err := Start(load(t, "door.fcstm"), "door.fcstm", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sh := NewShell(s, &out)
	if sh.Line("") || sh.Prompt() != "Door.Closed> " {
		t.Fatalf("prompt %q", sh.Prompt())
	}
	line, pos, ok := sh.Complete("Door.Req", 8, '\t')
	if !ok || line != "Door.Request " || pos != 13 {
		t.Errorf("complete: %q %d %v", line, pos, ok)
	}
	line, _, ok = sh.Complete("Door.Op", 7, '\t')
	if !ok || line != "Door.Open" {
		t.Errorf("complete a prefix: %q %v", line, ok)
	}
	// A second Tab on an ambiguous word lists the candidates.
	if line, _, ok = sh.Complete("Door.Open", 9, '\t'); !ok || line != "Door.Open" || !strings.Contains(out.String(), "Door.Open.Remove  Door.Open.Timeout  Door.Opening.Done") {
		t.Errorf("complete a prefix: %q %v\n%s", line, ok, out.String())
	}
	if _, _, ok := sh.Complete("Zzz", 3, '\t'); ok {
		t.Error("completed an unknown prefix")
	}
	if line, _, _ := sh.Complete("he", 2, '\t'); line != "help " {
		t.Errorf("command completion: %q", line)
	}
	sh.Line("Door.Request")
	if sh.Prompt() != "Door.Opening> " {
		t.Errorf("after Door.Request: %q", sh.Prompt())
	}
	if line, _, _ := sh.Complete("Don", 3, '\t'); line != "Done " {
		t.Errorf("relative completion: %q", line)
	}
	if line, _, _ := sh.Complete(".Req", 4, '\t'); line != ".Request " {
		t.Errorf("parent-relative completion: %q", line)
	}
	if line, _, _ := sh.Complete("/Clo", 4, '\t'); line != "/Closing." {
		t.Errorf("absolute completion: %q", line)
	}
	out.Reset()
	sh.Line("help")
	sh.Line("vars")
	if !strings.Contains(out.String(), "Tab completes") || !strings.Contains(out.String(), "motor = 1") {
		t.Errorf("help and vars:\n%s", out.String())
	}
	if !sh.Line("quit") {
		t.Error("quit does not quit")
	}
}

func TestLoadError(t *testing.T) {
	_, err := model.Parse("bad.fcstm", "state Root { state A; [*] -> B; }", model.Options{})
	if e := LoadError(err); e.Class != "validation" || e.Line != 1 || e.Col == 0 {
		t.Errorf("validation: %+v", e)
	}
	_, err = model.Parse("bad.fcstm", "state Root {\n  state A\n}", model.Options{})
	if e := LoadError(err); e.Class != "parse" || e.Line == 0 {
		t.Errorf("parse: %+v", e)
	}
}

// The shell's history lists the cycles, export writes the run so far in
// three formats, and init starts again cold or hot.
func TestShellHistoryExportInit(t *testing.T) {
	s, err := Start(load(t, "door.fcstm"), "door.fcstm", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sh := NewShell(s, &out)
	files := map[string]*bytes.Buffer{}
	sh.Create = func(name string) (io.WriteCloser, error) {
		files[name] = &bytes.Buffer{}
		return nopCloser{files[name]}, nil
	}
	for _, l := range []string{"", "Door.Request", "Nope"} {
		sh.Line(l)
	}
	out.Reset()
	sh.Line("history")
	if want := "    1  [no event]  → Door.Closed\n    2  [Door.Request]  → Door.Opening\n    3  [Nope]  → ✗ event error, still at Door.Opening\n"; out.String() != want {
		t.Errorf("history:\n%s\nwant:\n%s", out.String(), want)
	}
	for _, name := range []string{"run.json", "run.jsonl", "run.csv"} {
		sh.Line("export " + name)
	}
	var rep Report
	if err := json.Unmarshal(files["run.json"].Bytes(), &rep); err != nil || len(rep.Cycles) != 3 || rep.Schema != Schema {
		t.Errorf("run.json: %v\n%s", err, files["run.json"])
	}
	if lines := strings.Split(strings.TrimSpace(files["run.jsonl"].String()), "\n"); len(lines) != 4 || !strings.Contains(lines[0], `"initial"`) || !strings.Contains(lines[2], `"index":2`) {
		t.Errorf("run.jsonl:\n%s", files["run.jsonl"])
	}
	csv := files["run.csv"].String()
	if !strings.HasPrefix(csv, "cycle,events,state,ended,error,open_count,motor,temperature\n0,,Door,false,") || !strings.Contains(csv, "\n2,Door.Request,Door.Opening,false,,0,1,") || !strings.Contains(csv, "\n3,Nope,Door.Opening,false,event,") {
		t.Errorf("run.csv:\n%s", csv)
	}
	out.Reset()
	sh.Line("export run.txt")
	if !strings.Contains(out.String(), "must end in .csv, .json or .jsonl") || files["run.txt"] != nil {
		t.Errorf("a bad extension: %s", out.String())
	}
	// A hot start inside the shell; a refused one leaves the session as
	// it was.
	out.Reset()
	sh.Line("init Door.Nowhere open_count=1 motor=0 temperature=0.5")
	if !strings.Contains(out.String(), "cannot start: initial_state Door.Nowhere") || sh.Prompt() != "Door.Opening> " {
		t.Errorf("refused init: %q, prompt %q", out.String(), sh.Prompt())
	}
	sh.Line("init Door.Open open_count=7 motor=0 temperature=-inf")
	if sh.Prompt() != "Door.Open> " || len(s.Report().Cycles) != 0 {
		t.Fatalf("hot start: prompt %q, %d cycles", sh.Prompt(), len(s.Report().Cycles))
	}
	if v, _ := s.Report().Initial.Vars.Get("open_count"); v != expr.IntVal(7) {
		t.Errorf("open_count = %v", v)
	}
	sh.Line("init")
	if sh.Prompt() != "Door> " {
		t.Errorf("cold restart: prompt %q", sh.Prompt())
	}
	out.Reset()
	sh.Line("init Door.Open motor")
	if !strings.Contains(out.String(), "want NAME=VALUE") {
		t.Errorf("bad init: %q", out.String())
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// Of several bad initial variables, every reader names the first by
// name on every run (a map's order named a random one, so two runs, or
// simulate and a generated driver, disagreed).
func TestInitVarsErrorNamesTheFirst(t *testing.T) {
	data, err := os.ReadFile("../../../examples/order.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := jsonmodel.Decode(data)
	if err != nil || !res.Valid() {
		t.Fatalf("%v %v", err, res.Errors)
	}
	bad := map[string]expr.Value{}
	for _, name := range []string{"zz", "yy", "aa", "mm", "qq", "bb"} {
		bad[name] = expr.IntVal(1)
	}
	for range 30 {
		if _, err := ParseInitVars([]byte(`{"e": "x", "d": "x", "c": "x", "b": "x", "a": "x", "f": "x"}`)); err == nil || !strings.HasPrefix(err.Error(), "$.a:") {
			t.Fatalf("ParseInitVars: %v, want $.a named", err)
		}
		if _, err := StartJSON(res.Model, "order.json", Options{InitialVars: bad}); err == nil || !strings.Contains(err.Error(), "initial_vars['aa']") {
			t.Fatalf("StartJSON: %v, want aa named", err)
		}
	}
}
