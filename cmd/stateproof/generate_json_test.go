package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/generate"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// JSON models through the conformance harness of generate_test.go: the
// targets that run JSON models (generate.JSONTargets), each case's driver
// byte for byte against simulate --json.

// conformJSON runs conform for every target that runs JSON models.
func conformJSON(t *testing.T, what string, cases []genCase) {
	sims := simulated{}
	for _, tg := range genTargets() {
		if !slices.Contains(generate.JSONTargets(), tg.name) {
			continue
		}
		t.Run(tg.name, func(t *testing.T) {
			passed, refused := conform(t, tg, sims, cases)
			if len(refused) > 0 {
				t.Errorf("%s: JSON models refused: %v", what, refused)
			}
			t.Logf("%s: %d of %d passed", what, passed, len(cases))
		})
	}
}

// jsonEvents lists a JSON model's alphabet, each three times, with an
// unknown event to exercise event errors.
func jsonEvents(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := jsonmodel.Decode(data)
	if err != nil || !res.Valid() {
		t.Fatalf("%s: %v %v", path, err, res.Errors)
	}
	events := []string{"NoSuchEvent"}
	for _, e := range res.Model.Alphabet() {
		events = append(events, e, e, e)
	}
	return events
}

// jsonCase is a case of random runs on a JSON model: mostly one event a
// cycle (randomSteps' cycles of up to two events also give empty cycles
// and the two-event error), and one hot start at the initial values.
func jsonCase(t *testing.T, id, path string, seed uint64, n int) genCase {
	events := jsonEvents(t, path)
	c := genCase{id: id, model: path}
	for run := uint64(0); run < 3; run++ {
		steps := randomSteps(seed*10+run, events, n)
		for i := range steps {
			if len(steps[i]) == 2 && (seed+uint64(i))%4 != 0 {
				steps[i] = steps[i][:1]
			}
		}
		c.runs = append(c.runs, genRun{steps: steps})
	}
	return c
}

// TestGenerateJSONExamples checks the generated code of every example
// JSON model, and of gen's families, against simulate on random event
// sequences.
func TestGenerateJSONExamples(t *testing.T) {
	models, _ := filepath.Glob("../../examples/*.json")
	if len(models) == 0 {
		t.Fatal("no example JSON models")
	}
	var cases []genCase
	for i, m := range models {
		cases = append(cases, jsonCase(t, filepath.Base(m), m, uint64(i+1), 40))
	}
	dir := t.TempDir()
	for name, src := range map[string]string{"counter3": gen.Counter(3), "toggles3": gen.Toggles(3), "ring2": gen.Ring(2), "pause2": gen.PauseCounter(2), "probes2": gen.Probes(2)} {
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, jsonCase(t, name, path, 7, 40))
	}
	slices.SortFunc(cases, func(a, b genCase) int { return strings.Compare(a.id, b.id) })
	corners, _ := filepath.Glob("testdata/generate/*.json")
	for i, m := range corners {
		c := jsonCase(t, filepath.Base(m), m, uint64(100+i), 40)
		// Every event twelve times in a row: runs of the same event reach
		// what random sequences seldom do (integers past 64 bits).
		var steps [][]string
		for _, e := range slices.Compact(jsonEvents(t, m)) {
			for range 12 {
				steps = append(steps, []string{e})
			}
		}
		cases = append(cases, genCase{id: c.id, model: m, runs: append(c.runs, genRun{steps: steps})})
	}
	cases = append(cases, jsonHotCase(t, "../../examples/lock.json"))
	conformJSON(t, "JSON examples", cases)
}

// jsonHotCase is a hot start at every state of a model, with every
// variable, and the start errors: an unknown state, a missing variable,
// a value of the wrong kind, an unknown variable.
func jsonHotCase(t *testing.T, path string) genCase {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := jsonmodel.Decode(data)
	m := res.Model
	events := jsonEvents(t, path)
	vars := map[string]any{}
	for _, v := range m.Variables {
		vars[v.Name] = v.Init + 1
		if v.Kind == jsonmodel.Boolean {
			vars[v.Name] = true
		}
	}
	all, _ := json.Marshal(vars)
	c := genCase{id: filepath.Base(path) + " hot starts", model: path}
	for i, s := range m.States {
		c.runs = append(c.runs, genRun{steps: randomSteps(uint64(i), events, 10), initState: s.ID, initVars: string(all)})
	}
	c.runs = append(c.runs,
		genRun{steps: [][]string{}, initState: "NoSuchState", initVars: string(all)},
		genRun{steps: [][]string{}, initState: m.States[0].ID, initVars: "{}"},
		genRun{steps: [][]string{}, initVars: fmt.Sprintf(`{%q: 1.5}`, m.Variables[0].Name)},
		genRun{steps: [][]string{}, initVars: `{"no_such_variable": 1}`},
		genRun{steps: [][]string{{events[1]}}, initVars: fmt.Sprintf(`{%q: 9007199254740993}`, m.Variables[0].Name)})
	return c
}

// TestGenerateJSONRandom is the random differential for JSON models:
// gen.Random models and gen.BigSteps models (integers past 64 bits) ×
// random event sequences; the seed is in every failure's case id.
func TestGenerateJSONRandom(t *testing.T) {
	n := uint64(30)
	if testing.Short() {
		n = 6
	}
	dir := t.TempDir()
	var cases []genCase
	for seed := uint64(1); seed <= n; seed++ {
		src, kind := gen.Random(seed), "random"
		if seed%5 == 0 {
			src, kind = gen.BigSteps(seed), "bigsteps"
		}
		path := filepath.Join(dir, fmt.Sprintf("%s%d.json", kind, seed))
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, jsonCase(t, fmt.Sprintf("%s JSON model seed %d", kind, seed), path, seed, 30))
	}
	conformJSON(t, "random JSON models", cases)
}

// TestGenerateJSONRefused: every target runs JSON models; an invalid
// JSON model is refused with its JSON paths, exit 2, nothing written.
func TestGenerateJSONRefused(t *testing.T) {
	if !slices.Equal(generate.JSONTargets(), generate.Targets()) {
		t.Errorf("JSON targets %v, want every target %v", generate.JSONTargets(), generate.Targets())
	}
	out := filepath.Join(t.TempDir(), "out")
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}], "transitions": [{"from": "A", "event": "e", "to": "B"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCLI(t, "generate", bad, "--target", "go", "-o", out)
	if code != 2 || !strings.Contains(stderr, "is not a valid model: transitions[0].to: unknown state") {
		t.Errorf("invalid model: exit %d, stderr %q, want 2 and the JSON path", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s was written for an invalid model", out)
	}
}
