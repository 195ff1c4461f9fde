package swarm

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/verify"
)

func load(t *testing.T, name string) *jsonmodel.Model {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	res, err := jsonmodel.Decode(data)
	if err != nil || !res.Valid() {
		t.Fatalf("%s: %v %v", name, err, res.Errors)
	}
	return res.Model
}

// s7Paths is what verify reports for S7: the shortest path length per
// violated invariant.
func s7Paths(t *testing.T, name string) map[string]int {
	data, _ := os.ReadFile(filepath.Join("..", "..", "examples", name))
	res, _ := jsonmodel.Decode(data)
	rep := verify.Run(res, verify.DefaultOptions())
	out := map[string]int{}
	for _, c := range rep.Checks {
		for _, f := range c.Findings {
			if c.ID == "S7" && f.Code == "S7_INVARIANT_VIOLATION" {
				_, rest, _ := strings.Cut(f.Message, `"`)
				id, _, _ := strings.Cut(rest, `"`)
				out[id] = len(f.Path)
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: verify finds no S7 violation", name)
	}
	return out
}

func members(m *jsonmodel.Model, n, cap int) []Input {
	var in []Input
	for i := range n {
		r := Run(JSON(m), NewPlan(i, n, 7, cap))
		r.ModelHash = "h"
		in = append(in, Input{Name: fmt.Sprintf("m%d.json", i), Report: r})
	}
	return in
}

// TestSwarmFindsBrokenExamples: on each broken S7 example some member of
// a four-member swarm finds the violation, and the merge replays it and
// shortens it to verify's shortest path.
func TestSwarmFindsBrokenExamples(t *testing.T) {
	for _, name := range []string{"broken/s7-peterson-no-flag.json", "broken/s7-scoped-range.json", "broken/s7-counter-past-int64.json"} {
		t.Run(name, func(t *testing.T) {
			m := load(t, name)
			want := s7Paths(t, name)
			in := members(m, 4, 10000)
			found := 0
			for _, x := range in {
				if x.Report.Verdict == Fail {
					found++
				} else if x.Report.Verdict != Undecided {
					t.Errorf("%s: verdict %q", x.Name, x.Report.Verdict)
				}
			}
			if found == 0 {
				t.Fatal("no member found the violation")
			}
			out, err := Merge(JSON(m), name, "h", in, Options{Cap: 10000})
			if err != nil {
				t.Fatal(err)
			}
			if out.Verdict != Fail || out.ExitCode != 1 || len(out.Violations) != len(want) {
				t.Fatalf("merge: %s, %d violations, want %d", out.Verdict, len(out.Violations), len(want))
			}
			for _, v := range out.Violations {
				if len(v.Path) != want[v.Invariant] || !*v.ProvedShortest {
					t.Errorf("%s: merged path of %d steps (proved %v), verify's shortest has %d", v.Invariant, len(v.Path), *v.ProvedShortest, want[v.Invariant])
				}
				if len(v.FoundBy) != found {
					t.Errorf("%s: found by %v, want %d reports", v.Invariant, v.FoundBy, found)
				}
			}
		})
	}
}

// TestSwarmNeverPasses: on models whose invariants hold, a member that
// explores the whole space still says undecided, and so does the merge.
func TestSwarmNeverPasses(t *testing.T) {
	for _, name := range []string{"order.json", "peterson.json", "lock.json"} {
		m := load(t, name)
		in := members(m, 3, 100000)
		for _, x := range in {
			if x.Report.Verdict != Undecided || x.Report.ExitCode != 3 || len(x.Report.Violations) != 0 {
				t.Errorf("%s %s: %s exit %d", name, x.Name, x.Report.Verdict, x.Report.ExitCode)
			}
		}
		out, err := Merge(JSON(m), name, "h", in, Options{Cap: 10000})
		if err != nil {
			t.Fatal(err)
		}
		if out.Verdict != Undecided || out.ExitCode != 3 {
			t.Errorf("%s merge: %s exit %d", name, out.Verdict, out.ExitCode)
		}
	}
}

// TestMergeRefusesForgedPaths: a report whose path names a transition that
// does not fire, claims another transition's ends, or stops short of the
// violation is refused, not merged.
func TestMergeRefusesForgedPaths(t *testing.T) {
	m := load(t, "broken/s7-peterson-no-flag.json")
	var good *Report
	for _, x := range members(m, 4, 10000) {
		if x.Report.Verdict == Fail {
			good = x.Report
			break
		}
	}
	if good == nil {
		t.Fatal("no member found the violation")
	}
	forge := map[string]func(p []Step) []Step{
		"short":      func(p []Step) []Step { return p[:len(p)-1] },
		"misnamed":   func(p []Step) []Step { p[0].Event = "halt"; return p },
		"no such":    func(p []Step) []Step { p[0].Transition = ptr(99); return p },
		"unnamed":    func(p []Step) []Step { p[0].Transition = nil; return p },
		"not firing": func(p []Step) []Step { return append([]Step{p[len(p)-1]}, p...) },
	}
	for what, f := range forge {
		bad := *good
		bad.Violations = []Violation{good.Violations[0]}
		bad.Violations[0].Path = f(append([]Step(nil), good.Violations[0].Path...))
		_, err := Merge(JSON(m), "x", "h", []Input{{Name: "forged.json", Report: &bad}}, Options{Cap: 10000})
		if err == nil || !strings.Contains(err.Error(), "forged.json: $.violations[0]") {
			t.Errorf("%s: merge accepted the path or said %v", what, err)
		}
	}
	other := *good
	other.ModelHash = "other"
	if _, err := Merge(JSON(m), "x", "h", []Input{{Name: "o.json", Report: &other}}, Options{Cap: 10000}); err == nil {
		t.Error("a report of another model was merged")
	}
}

// TestShortenAlongPath: when the breadth-first search from the initial
// runtime stops at its cap, a path with detours is still shortened from
// the runtimes along it (here to the shortest, though not proved so).
func TestShortenAlongPath(t *testing.T) {
	src := `{"schemaVersion": 1, "init": "S", "states": [{"id": "S"}],
	  "transitions": [
	    {"from": "S", "event": "inc", "to": "S", "guard": {"variable": "x", "op": "<", "value": 20}, "updates": [{"variable": "x", "op": "inc"}]},
	    {"from": "S", "event": "dec", "to": "S", "guard": {"variable": "x", "op": ">", "value": 0}, "updates": [{"variable": "x", "op": "dec"}]}],
	  "variables": [{"name": "x", "kind": "integer", "init": 0, "min": 0, "max": 20}],
	  "invariants": [{"id": "small", "description": "x stays small", "kind": "var-in-range", "variable": "x", "max": 5}]}`
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil || !res.Valid() {
		t.Fatal(err, res.Errors)
	}
	inc := Step{From: "S", Event: "inc", To: "S", Transition: ptr(0)}
	dec := Step{From: "S", Event: "dec", To: "S", Transition: ptr(1)}
	var path []Step
	for range 6 {
		path = append(path, inc, inc, dec)
	}
	path = append(path, inc, inc, inc, inc, inc, inc) // x = 12 > 5, first past at step 16
	rep := &Report{Schema: MemberSchema, ModelHash: "h", Violations: []Violation{{Invariant: "small", Path: path}}}
	for _, tc := range []struct {
		cap    int
		proved bool
	}{{1, false}, {1000, true}} {
		out, err := Merge(JSON(res.Model), "x", "h", []Input{{Name: "a", Report: rep}}, Options{Cap: tc.cap})
		if err != nil {
			t.Fatal(err)
		}
		v := out.Violations[0]
		if len(v.Path) != 6 || *v.ProvedShortest != tc.proved || *v.FoundLength != len(path) {
			t.Errorf("cap %d: %d steps (proved %v, found %d), want 6 (proved %v, found %d)", tc.cap, len(v.Path), *v.ProvedShortest, *v.FoundLength, tc.proved, len(path))
		}
	}
}

func ptr(i int) *int { return &i }
