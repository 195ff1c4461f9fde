package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/stateproof/stateproof/internal/browsertest"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/trace"
	"github.com/stateproof/stateproof/internal/z3"
)

// genCase is a model and the runs it is checked on.
type genCase struct {
	id, model string
	runs      []genRun
}

// genRun is one run: its cycles and its start.
type genRun struct {
	steps     [][]string
	initState string
	initVars  string // JSON; "" for none
}

// documentedRefusals are the features docs/generate.md lists as
// unsupported; a refusal for anything else fails the test.
var documentedRefusals = []string{"float-function", "float-power"}

// needGo returns the go command, skipping the test without one (failing
// it under CI=true).
func needGo(t *testing.T) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		browsertest.Unavailable(t, "go is not installed: the generated Go code cannot be built")
	}
	return goCmd
}

// simulated caches simulate --json's output and exit status by its
// arguments, so that the targets of one test share the runtime's runs.
type simulated map[string]simOut

type simOut struct {
	out  string
	code int
}

// conformAll runs conform for every target, each as a subtest.
func conformAll(t *testing.T, what string, cases []genCase) {
	sims := simulated{}
	for _, tg := range genTargets() {
		t.Run(tg.name, func(t *testing.T) {
			passed, refused := conform(t, tg, sims, cases)
			t.Logf("%s: %d of %d passed, %d refused %v", what, passed, len(cases), len(refused), refused)
		})
	}
}

// conform generates every case with --driver for the target, makes the
// drivers runnable (for Go, one program dispatching to every case's
// driver package: one link instead of one per case, which is what keeps
// the test fast), runs each run of each case through its driver and
// compares its output byte for byte with simulate --json in-process. It
// returns the number of cases passed and the refused ones, each with its
// feature.
func conform(t *testing.T, tg genTarget, sims simulated, cases []genCase) (passed int, refused []string) {
	t.Helper()
	work := t.TempDir()
	var built []genCase
	var names []string
	for i, c := range cases {
		name := fmt.Sprintf("m%d", i)
		dir := filepath.Join(work, name)
		_, stderr, code := runCLI(t, "generate", c.model, "--target", tg.name, "-o", dir, "--name", name, "--driver")
		if code != 0 {
			feature := regexp.MustCompile(`unsupported by stateproof generate: ([a-z-]+)`).FindStringSubmatch(stderr)
			if code != 2 || feature == nil || !contains(documentedRefusals, feature[1]) {
				t.Errorf("%s: generate exit %d: %s", c.id, code, stderr)
				continue
			}
			if _, err := os.Stat(dir); err == nil {
				t.Errorf("%s: generate refused the model but wrote %s", c.id, dir)
			}
			refused = append(refused, c.id+" ("+feature[1]+")")
			continue
		}
		built = append(built, c)
		names = append(names, name)
	}
	if len(built) == 0 {
		return 0, refused
	}
	var jobs []driverJob
	for i, c := range built {
		for j, r := range c.runs {
			jobs = append(jobs, driverJob{names[i], runArgs(t, r, filepath.Join(work, fmt.Sprintf("%s.%d.json", names[i], j)))})
		}
	}
	outs := tg.run(t, work, names, jobs)
	k := 0 // the job of the run
	for _, c := range built {
		ok := true
		for j, r := range c.runs {
			id := fmt.Sprintf("%s run %d", c.id, j+1)
			ok = compareRun(t, tg, id, c.model, r, jobs[k].args, outs[k], sims) && ok
			k++
		}
		if ok {
			passed++
		}
	}
	return passed, refused
}

// runArgs writes a run's steps file and returns the driver's (and
// simulate's) arguments for the run.
func runArgs(t *testing.T, c genRun, stepsFile string) []string {
	t.Helper()
	data, err := json.Marshal(c.steps)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stepsFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--steps", stepsFile}
	if c.initState != "" {
		args = append(args, "--init-state", c.initState)
	}
	if c.initVars != "" {
		args = append(args, "--init-vars", c.initVars)
	}
	return args
}

// compareRun compares a driver's run with simulate --json's on the same
// arguments and reports whether they agree.
func compareRun(t *testing.T, tg genTarget, id, model string, c genRun, args []string, got driverOut, sims simulated) bool {
	t.Helper()
	steps, _ := json.Marshal(c.steps)
	key := model + "\x00" + string(steps) + "\x00" + c.initState + "\x00" + c.initVars
	sim, ok := sims[key]
	if !ok {
		sim.out, _, sim.code = runCLI(t, append([]string{"simulate", model, "--json"}, args...)...)
		sims[key] = sim
	}
	if got.Out != sim.out && tg.outside != nil {
		if why := tg.outside(got.Out, sim.out); why != "" {
			t.Logf("%s: outside the %s target's domain: %s", id, tg.name, why)
			return true
		}
	}
	if got.Out != sim.out || got.Code != sim.code {
		t.Errorf("%s: generated driver differs from simulate --json (exit %d, want %d; stderr %s)\n%s",
			id, got.Code, sim.code, got.Stderr, firstDiff(got.Out, sim.out))
		return false
	}
	return true
}

// firstDiff shows the first differing line of two documents.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n got: %s\nwant: %s", i+1, a, b)
		}
	}
	return "(identical text)"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestGenerateExamples checks the generated code of every example
// model, and of the corner cases in testdata/generate, against simulate
// on random event sequences over its events.
func TestGenerateExamples(t *testing.T) {
	models, _ := filepath.Glob("../../examples/fcstm/*.fcstm")
	if len(models) == 0 {
		t.Fatal("no example models")
	}
	corners, _ := filepath.Glob("testdata/generate/*.fcstm")
	models = append(models, corners...)
	var cases []genCase
	for _, m := range models {
		c := genCase{id: filepath.Base(m), model: m}
		events := modelEvents(t, m)
		for seed := uint64(1); seed <= 4; seed++ {
			c.runs = append(c.runs, genRun{steps: randomSteps(seed, events, 40)})
		}
		cases = append(cases, c)
	}
	conformAll(t, "examples", cases)
}

// modelEvents lists a model's event paths, with an unknown event to
// exercise event errors.
func modelEvents(t *testing.T, path string) []string {
	t.Helper()
	m, err := model.Load(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	events := []string{"NoSuchEvent"}
	for _, e := range m.Events {
		events = append(events, e.Path, e.Path, e.Path)
	}
	return events
}

// randomSteps draws n cycles of up to two events each (the same for a
// seed; the seed is in every failure's run id).
func randomSteps(seed uint64, events []string, n int) [][]string {
	r := rand.New(rand.NewPCG(seed, 40))
	out := make([][]string, n)
	for i := range out {
		out[i] = []string{}
		for k := r.IntN(3); k > 0; k-- {
			out[i] = append(out[i], events[r.IntN(len(events))])
		}
	}
	return out
}

// genFixture is what the conformance test reads of a pyfcstm runtime
// fixture: its start and its cycles (the expectations are simulate's
// business, checked in internal/fcstm/runtime).
type genFixture struct {
	Initial *struct {
		State *string        `yaml:"state"`
		Vars  map[string]any `yaml:"vars"`
	} `yaml:"initial"`
	Steps []struct {
		Cycle      any  `yaml:"cycle"`
		CycleCount *int `yaml:"cycle_count"`
	} `yaml:"steps"`
}

// TestGenerateFixtures checks the generated code of every pyfcstm
// runtime fixture against simulate, on the fixture's start and cycles.
func TestGenerateFixtures(t *testing.T) {
	models := fcstmtest.SharedModels(t)
	var cases []genCase
	for i, path := range models {
		if testing.Short() && i%8 != 0 {
			continue
		}
		cases = append(cases, fixtureCase(t, path))
	}
	conformAll(t, "pyfcstm fixtures", cases)
}

func fixtureCase(t *testing.T, path string) genCase {
	t.Helper()
	raw, err := os.ReadFile(strings.TrimSuffix(path, ".fcstm") + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	var fx genFixture
	if err := yaml.Unmarshal(raw, &fx); err != nil {
		t.Fatalf("%s: fixture YAML: %v", path, err)
	}
	var r genRun
	if fx.Initial != nil {
		if fx.Initial.State != nil {
			r.initState = *fx.Initial.State
		}
		if fx.Initial.Vars != nil {
			r.initVars = yamlVarsJSON(fx.Initial.Vars)
		}
	}
	r.steps = [][]string{}
	for _, st := range fx.Steps {
		n := 1
		if st.CycleCount != nil {
			n = *st.CycleCount
		}
		events := fixtureEvents(st.Cycle)
		for range n {
			r.steps = append(r.steps, events)
		}
	}
	return genCase{id: filepath.Base(path), model: path, runs: []genRun{r}}
}

func fixtureEvents(v any) []string {
	out := []string{}
	switch v := v.(type) {
	case string:
		out = append(out, v)
	case []any:
		for _, e := range v {
			out = append(out, fmt.Sprint(e))
		}
	}
	return out
}

// yamlVarsJSON writes fixture variables as --init-vars JSON: a float
// stays a float (1.0, not 1), non-finite floats as simulate writes them.
func yamlVarsJSON(vars map[string]any) string {
	var parts []string
	for name, v := range vars {
		var s string
		switch v := v.(type) {
		case float64:
			switch {
			case math.IsNaN(v):
				s = `"nan"`
			case math.IsInf(v, 1):
				s = `"inf"`
			case math.IsInf(v, -1):
				s = `"-inf"`
			default:
				s = strconv.FormatFloat(v, 'g', -1, 64)
				if !strings.ContainsAny(s, ".eE") {
					s += ".0"
				}
			}
		default:
			data, _ := json.Marshal(v)
			s = string(data)
		}
		key, _ := json.Marshal(name)
		parts = append(parts, string(key)+":"+s)
	}
	sort.Strings(parts)
	return "{" + strings.Join(parts, ",") + "}"
}

// TestGenerateRandom is the random differential: fcstmtest random
// models (plain and raising) × random event sequences, generated and
// compared with simulate; the seed is in every failure's case id.
func TestGenerateRandom(t *testing.T) {
	n := uint64(40)
	if testing.Short() {
		n = 8
	}
	dir := t.TempDir()
	var cases []genCase
	for seed := uint64(1); seed <= n; seed++ {
		src := fcstmtest.RandomModel(seed)
		kind := "random"
		if seed%2 == 0 {
			src, kind = fcstmtest.RandomRaisingModel(seed), "raising"
		}
		path := filepath.Join(dir, fmt.Sprintf("%s%d.fcstm", kind, seed))
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		c := genCase{id: fmt.Sprintf("%s model seed %d", kind, seed), model: path}
		events := modelEvents(t, path)
		for run := uint64(0); run < 3; run++ {
			c.runs = append(c.runs, genRun{steps: randomSteps(seed*10+run, events, 30)})
		}
		cases = append(cases, c)
	}
	conformAll(t, "random models", cases)
}

// TestGenerateRefusesUnsupported: a function Go's math does not compute
// correctly rounded is refused at its position, exit 2, nothing written.
func TestGenerateRefusesUnsupported(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	_, stderr, code := runCLI(t, "generate", "testdata/generate/sine.fcstm", "--target", "go", "-o", out)
	if code != 2 {
		t.Fatalf("exit %d, want 2 (%s)", code, stderr)
	}
	want := "testdata/generate/sine.fcstm:5:17: sin: "
	if !strings.Contains(stderr, want) || !strings.Contains(stderr, "unsupported by stateproof generate: float-function") {
		t.Errorf("stderr %q, want the located refusal %q…", stderr, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s was written for a refused model", out)
	}
	for _, args := range [][]string{
		{"generate", "testdata/generate/sine.fcstm", "-o", out},
		{"generate", "testdata/generate/sine.fcstm", "--target", "rust", "-o", out},
		{"generate", "testdata/generate/sine.fcstm", "--target", "go"},
	} {
		if _, stderr, code := runCLI(t, args...); code != 2 || stderr == "" {
			t.Errorf("%v: exit %d (%q), want 2 with a message", args, code, stderr)
		}
	}
}

// bmcWitness is a witness or counterexample trace of a bmc --json
// document, as the generated driver replays it.
type bmcWitness struct {
	Frames []struct {
		Sentinel   *string                    `json:"sentinel"`
		State      *string                    `json:"state"`
		Terminated bool                       `json:"terminated"`
		Vars       map[string]json.RawMessage `json:"vars"`
	} `json:"frames"`
	Steps []struct {
		InputEvents []struct {
			Path string `json:"path"`
		} `json:"input_events"`
		AbstractCalls []struct {
			Action string `json:"action_name"`
			Stage  string `json:"stage"`
			State  string `json:"state"`
		} `json:"abstract_calls"`
	} `json:"steps"`
}

// driverDoc is what the witness check reads of the driver's
// stateproof/simulate/v1 document.
type driverDoc struct {
	Cycles []struct {
		State *string                    `json:"state"`
		Ended bool                       `json:"ended"`
		Delta bool                       `json:"delta"`
		Vars  map[string]json.RawMessage `json:"vars"`
		Calls []struct {
			Action string `json:"action"`
			Stage  string `json:"stage"`
			State  string `json:"state"`
		} `json:"abstractCalls"`
	} `json:"cycles"`
}

// witnessQueries pairs every query of the FCSTM examples with its model:
// X.fbmcq with X.fcstm next to it, else the model whose name the query's
// begins with (door-opens.fbmcq with door.fcstm). Without -short it adds,
// for every example model, a cold and a hot-start (every variable
// havocked) reach query of each state a cycle may end on, so that the
// witnesses cover every example.
func witnessQueries(t *testing.T) (pairs [][3]string) {
	t.Helper()
	queries, _ := filepath.Glob("../../examples/fcstm/*.fbmcq")
	more, _ := filepath.Glob("../../examples/fcstm/*/*.fbmcq")
	for _, q := range append(queries, more...) {
		dir, base := filepath.Dir(q), strings.TrimSuffix(filepath.Base(q), ".fbmcq")
		models, _ := filepath.Glob(filepath.Join(dir, "*.fcstm"))
		best := ""
		for _, m := range models {
			name := strings.TrimSuffix(filepath.Base(m), ".fcstm")
			if (name == base || strings.HasPrefix(base, name+"-")) && len(m) > len(best) {
				best = m
			}
		}
		if best == "" {
			t.Fatalf("%s: no example model for this query", q)
		}
		pairs = append(pairs, [3]string{best, "-q", q})
	}
	if testing.Short() {
		return pairs
	}
	models, _ := filepath.Glob("../../examples/fcstm/*.fcstm")
	for _, path := range models {
		m, err := model.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		var leaves, vars []string
		for _, s := range m.StateByPath {
			if s.Stoppable() {
				leaves = append(leaves, s.Path)
			}
		}
		sort.Strings(leaves)
		for _, v := range m.Vars {
			vars = append(vars, strconv.Quote(v.Name))
		}
		havoc := ""
		if len(vars) > 0 {
			havoc = " havoc { " + strings.Join(vars, ", ") + " }"
		}
		for _, s := range leaves {
			pairs = append(pairs,
				[3]string{path, "--check", fmt.Sprintf("check reach <= 6: active(%q);", s)},
				[3]string{path, "--check", fmt.Sprintf("init state(%q)%s; check reach <= 4: active(%q);", leaves[0], havoc, s)})
		}
	}
	return pairs
}

// TestGenerateReplaysWitnesses: every bmc witness (or counterexample)
// of the examples' queries replays on the generated code as on the
// runtime. Frame 0 becomes the driver's start (a cold start with its
// variables as overrides, or a hot start at its state), every step's
// input events one cycle, and every frame's state, ended and variables
// (integers exactly, floats within the replay's tolerance) and every
// step's abstract calls must be the trace's.
func TestGenerateReplaysWitnesses(t *testing.T) {
	if ctx, err := z3.NewContext(); err != nil {
		t.Skip("libz3 is not installed: no witnesses to replay")
	} else {
		ctx.Close()
	}
	type run struct {
		id, name string
		w        *bmcWitness
	}
	var runs []run
	names := map[string]string{} // model -> generated module
	var models []string
	for _, p := range witnessQueries(t) {
		id := p[0] + " " + p[1] + " " + p[2]
		doc, code := bmcJSON(t, p[0], p[1], p[2])
		if code == 2 {
			t.Errorf("%s: bmc exit 2: %v", id, doc["result"])
			continue
		}
		raw, _ := json.Marshal(doc["witness"])
		if doc["witness"] == nil {
			raw, _ = json.Marshal(doc["counterexample"])
		}
		var w *bmcWitness
		if err := json.Unmarshal(raw, &w); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if w == nil || len(w.Frames) == 0 {
			continue // no trace: nothing to replay
		}
		if field(doc, "replay", "ok") != true {
			t.Errorf("%s: the runtime does not replay the trace: %v", id, doc["replay"])
			continue
		}
		if _, ok := names[p[0]]; !ok {
			names[p[0]] = fmt.Sprintf("w%d", len(names))
			models = append(models, p[0])
		}
		runs = append(runs, run{id, names[p[0]], w})
	}
	if len(runs) == 0 {
		t.Fatal("the examples' queries gave no witness to replay")
	}
	for _, tg := range genTargets() {
		t.Run(tg.name, func(t *testing.T) {
			work := t.TempDir()
			var mods []string
			for _, m := range models {
				dir := filepath.Join(work, names[m])
				if _, stderr, code := runCLI(t, "generate", m, "--target", tg.name, "-o", dir, "--name", names[m], "--driver"); code != 0 {
					t.Fatalf("%s: generate exit %d: %s", m, code, stderr)
				}
				mods = append(mods, names[m])
			}
			var jobs []driverJob
			var replayed []run
			for i, r := range runs {
				if args := replayArgs(t, r.id, r.w, filepath.Join(work, fmt.Sprintf("steps%d.json", i))); args != nil {
					jobs = append(jobs, driverJob{r.name, args})
					replayed = append(replayed, r)
				}
			}
			for i, out := range tg.run(t, work, mods, jobs) {
				checkReplay(t, replayed[i].id, jobs[i].args, out, replayed[i].w)
			}
			t.Logf("%d witnesses replayed on the generated code of %d models", len(runs), len(mods))
		})
	}
}

// replayArgs writes the steps of a witness and returns the driver's
// arguments that replay it; nil when the trace starts terminated.
func replayArgs(t *testing.T, id string, w *bmcWitness, stepsFile string) []string {
	t.Helper()
	f0 := w.Frames[0]
	if f0.Terminated || (f0.Sentinel != nil && *f0.Sentinel == "terminated") {
		t.Logf("%s: the trace starts terminated; nothing runs", id)
		return nil
	}
	steps := make([][]string, len(w.Steps))
	for i, s := range w.Steps {
		steps[i] = []string{}
		for _, e := range s.InputEvents {
			steps[i] = append(steps[i], e.Path)
		}
	}
	data, _ := json.Marshal(steps)
	if err := os.WriteFile(stepsFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--steps", stepsFile}
	hot := f0.Sentinel == nil || *f0.Sentinel != "init"
	if hot {
		args = append(args, "--init-state", deref(f0.State))
	}
	var vars []string
	for name, v := range f0.Vars {
		key, _ := json.Marshal(name)
		vars = append(vars, string(key)+":"+string(v))
	}
	sort.Strings(vars)
	return append(args, "--init-vars", "{"+strings.Join(vars, ",")+"}")
}

// checkReplay compares the driver's run of a witness with the trace: every
// frame and every step's abstract calls.
func checkReplay(t *testing.T, id string, args []string, got driverOut, w *bmcWitness) {
	t.Helper()
	if got.Code != 0 {
		t.Errorf("%s: driver %v: exit %d\n%s%s", id, args, got.Code, got.Out, got.Stderr)
		return
	}
	f0 := w.Frames[0]
	hot := f0.Sentinel == nil || *f0.Sentinel != "init"
	var doc driverDoc
	if err := json.Unmarshal([]byte(got.Out), &doc); err != nil || len(doc.Cycles) != len(w.Steps) {
		t.Errorf("%s: driver ran %d cycles of %d (%v)", id, len(doc.Cycles), len(w.Steps), err)
		return
	}
	entered := hot
	for i, c := range doc.Cycles {
		wf, ws := w.Frames[i+1], w.Steps[i]
		entered = entered || !c.Delta
		got := deref(c.State)
		if c.Ended || !entered {
			got = ""
		}
		if want := deref(wf.State); got != want || c.Ended != wf.Terminated {
			t.Errorf("%s: frame %d: generated code in %q (ended %v), trace %q (terminated %v)", id, i+1, got, c.Ended, want, wf.Terminated)
		}
		if len(c.Vars) != len(wf.Vars) {
			t.Errorf("%s: frame %d: variables %v, trace %v", id, i+1, c.Vars, wf.Vars)
		}
		for name, want := range wf.Vars {
			if !sameNumber(c.Vars[name], want) {
				t.Errorf("%s: frame %d: %s = %s on the generated code, %s in the trace", id, i+1, name, c.Vars[name], want)
			}
		}
		var gotCalls, wantCalls []string
		for _, k := range c.Calls {
			gotCalls = append(gotCalls, k.Action+" "+k.Stage+" "+k.State)
		}
		for _, k := range ws.AbstractCalls {
			wantCalls = append(wantCalls, k.Action+" "+k.Stage+" "+k.State)
		}
		if !slices.Equal(gotCalls, wantCalls) {
			t.Errorf("%s: step %d: abstract calls %q on the generated code, %q in the trace", id, i, gotCalls, wantCalls)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// sameNumber compares two JSON values as replay compares trace values:
// integers exactly, floats (either side) within trace.FloatTolerance,
// non-finite floats (written as strings) by name.
func sameNumber(a, b json.RawMessage) bool {
	sa, sb := strings.TrimSpace(string(a)), strings.TrimSpace(string(b))
	integral := func(s string) bool { return s != "" && !strings.ContainsAny(s, `.eE"`) }
	if integral(sa) && integral(sb) {
		x, okx := new(big.Int).SetString(sa, 10)
		y, oky := new(big.Int).SetString(sb, 10)
		return okx && oky && x.Cmp(y) == 0
	}
	x, errx := strconv.ParseFloat(strings.Trim(sa, `"`), 64)
	y, erry := strconv.ParseFloat(strings.Trim(sb, `"`), 64)
	if errx != nil || erry != nil {
		return false
	}
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return x == y || (math.IsNaN(x) && math.IsNaN(y))
	}
	return math.Abs(x-y) <= trace.FloatTolerance
}
