package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/model"
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
var documentedRefusals = []string{"float-function"}

// needGo returns the go command, skipping the test without one (failing
// it under CI=true).
func needGo(t *testing.T) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("the go toolchain is required under CI=true to check generated Go code")
		}
		t.Skip("go is not installed: the generated Go code cannot be built; skipping")
	}
	return goCmd
}

// conform generates every case with --driver into one Go workspace and
// builds one program that dispatches to every case's driver package (one
// link instead of one per case: this is what keeps the test fast), runs
// each run of each case through it and compares its output byte for byte
// with simulate --json in-process. It returns the number of cases passed
// and the refused ones, each with its feature.
func conform(t *testing.T, cases []genCase) (passed int, refused []string) {
	t.Helper()
	goCmd := needGo(t)
	work := t.TempDir()
	var built []genCase
	var names []string
	for i, c := range cases {
		name := fmt.Sprintf("m%d", i)
		dir := filepath.Join(work, name)
		_, stderr, code := runCLI(t, "generate", c.model, "--target", "go", "-o", dir, "--name", name, "--driver")
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
	all := buildAllDrivers(t, goCmd, work, names)
	for i, c := range built {
		ok := true
		for j, r := range c.runs {
			id := fmt.Sprintf("%s run %d", c.id, j+1)
			ok = compareRun(t, id, c.model, r, []string{all, names[i]}, filepath.Join(work, fmt.Sprintf("%s.%d.json", names[i], j))) && ok
		}
		if ok {
			passed++
		}
	}
	return passed, refused
}

// buildAllDrivers writes a program that runs the driver named by its first
// argument, and builds it with one go build in a workspace of every
// generated module.
func buildAllDrivers(t *testing.T, goCmd, work string, names []string) string {
	t.Helper()
	var main strings.Builder
	main.WriteString("package main\n\nimport (\n\t\"os\"\n")
	for _, n := range names {
		fmt.Fprintf(&main, "\t%s \"%s/driver\"\n", n, n)
	}
	main.WriteString(")\n\nfunc main() {\n\tswitch os.Args[1] {\n")
	for _, n := range names {
		fmt.Fprintf(&main, "\tcase %q:\n\t\tos.Exit(%s.Main(os.Args[2:], os.Stdout, os.Stderr))\n", n, n)
	}
	main.WriteString("\t}\n\tos.Exit(2)\n}\n")
	dir := filepath.Join(work, "alldrivers")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for file, data := range map[string]string{"main.go": main.String(), "go.mod": "module alldrivers\n\ngo 1.22\n"} {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gowork := "go 1.22\n\nuse (\n\t./alldrivers\n\t./" + strings.Join(names, "\n\t./") + "\n)\n"
	if err := os.WriteFile(filepath.Join(work, "go.work"), []byte(gowork), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(work, "alldrivers.bin")
	build := exec.Command(goCmd, "build", "-o", bin, "./alldrivers")
	build.Dir = work
	build.Env = append(os.Environ(), "GOWORK="+filepath.Join(work, "go.work"), "GOTOOLCHAIN=local", "GOFLAGS=")
	start := time.Now()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build of the generated packages: %v\n%s", err, out)
	}
	t.Logf("go build of %d generated drivers: %v", len(names), time.Since(start).Round(time.Millisecond))
	return bin
}

// compareRun runs one case both ways and reports whether they agree.
func compareRun(t *testing.T, id, model string, c genRun, driver []string, stepsFile string) bool {
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
	cmd := exec.Command(driver[0], append(driver[1:], args...)...)
	var got, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &got, &stderr
	err = cmd.Run()
	gotCode := 0
	if ee, ok := err.(*exec.ExitError); ok {
		gotCode = ee.ExitCode()
	} else if err != nil {
		t.Errorf("%s: run: %v", id, err)
		return false
	}
	want, _, wantCode := runCLI(t, append([]string{"simulate", model, "--json"}, args...)...)
	if got.String() != want || gotCode != wantCode {
		t.Errorf("%s: generated driver differs from simulate --json (exit %d, want %d; stderr %s)\n%s",
			id, gotCode, wantCode, stderr.String(), firstDiff(got.String(), want))
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

// TestGenerateGoExamples checks the generated Go code of every example
// model, and of the corner cases in testdata/generate, against simulate
// on random event sequences over its events.
func TestGenerateGoExamples(t *testing.T) {
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
	passed, refused := conform(t, cases)
	t.Logf("examples: %d of %d models passed, %d refused %v", passed, len(cases), len(refused), refused)
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

// TestGenerateGoFixtures checks the generated Go code of every pyfcstm
// runtime fixture against simulate, on the fixture's start and cycles.
func TestGenerateGoFixtures(t *testing.T) {
	models := fcstmtest.SharedModels(t)
	var cases []genCase
	for i, path := range models {
		if testing.Short() && i%8 != 0 {
			continue
		}
		cases = append(cases, fixtureCase(t, path))
	}
	passed, refused := conform(t, cases)
	t.Logf("pyfcstm fixtures: %d of %d passed, %d refused %v", passed, len(cases), len(refused), refused)
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

// TestGenerateGoRandom is the random differential: fcstmtest random
// models (plain and raising) × random event sequences, generated and
// compared with simulate; the seed is in every failure's case id.
func TestGenerateGoRandom(t *testing.T) {
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
	passed, refused := conform(t, cases)
	t.Logf("random models: %d of %d passed, %d refused %v", passed, len(cases), len(refused), refused)
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
