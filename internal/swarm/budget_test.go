package swarm

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// counter is a model whose only violation is at the end of an n-step path:
// c counts ticks up to n and the invariant says c < n.
func counter(t testing.TB, n int) (*jsonmodel.Model, []Step) {
	t.Helper()
	src := fmt.Sprintf(`{"schemaVersion": 1, "init": "RUN", "states": [{"id": "RUN"}, {"id": "DONE", "terminal": true}],
	  "transitions": [
	    {"from": "RUN", "event": "tick", "to": "RUN", "guard": {"variable": "c", "op": "<", "value": %[1]d}, "updates": [{"variable": "c", "op": "inc"}]},
	    {"from": "RUN", "event": "tick", "to": "DONE"}],
	  "variables": [{"name": "c", "kind": "integer", "init": 0, "min": 0, "max": %[1]d}],
	  "invariants": [{"id": "below", "description": "c stays below n", "kind": "var-in-range", "variable": "c", "min": 0, "max": %[2]d}]}`, n, n-1)
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil || !res.Valid() {
		t.Fatal(err, res.Errors)
	}
	path := make([]Step, n)
	for i := range path {
		path[i] = Step{From: "RUN", Event: "tick", To: "RUN", Transition: new(int)}
	}
	return res.Model, path
}

func report(paths ...[]Step) *Report {
	r := &Report{Schema: MemberSchema, ModelHash: "h"}
	for _, p := range paths {
		r.Violations = append(r.Violations, Violation{Invariant: "below", Path: p})
	}
	return r
}

// TestMergeDedupesBeforeShortening: a thousand copies of one violation,
// in one report and another, are shortened once, and the violation lists
// each report once.
func TestMergeDedupesBeforeShortening(t *testing.T) {
	m, path := counter(t, 40)
	copies := make([][]Step, 1000)
	for i := range copies {
		copies[i] = path
	}
	g := newMerger(JSON(m), Options{Cap: 1000})
	out, err := g.merge("x", "h", []Input{{Name: "a", Report: report(copies...)}, {Name: "b", Report: report(path)}})
	if err != nil {
		t.Fatal(err)
	}
	if g.shortenings != 1 {
		t.Errorf("%d shortenings of one violation, want 1", g.shortenings)
	}
	v := out.Violations
	if len(v) != 1 || !slices.Equal(v[0].FoundBy, []string{"a", "b"}) || len(v[0].Path) != 40 || !*v[0].ProvedShortest {
		t.Errorf("merged %+v", v)
	}
}

// TestMergeBudget: a budget already spent keeps the path as found, not
// proved shortest, and says so in the violation and the verdict reason;
// a budget that runs out during the shortening of a long path keeps the
// rest as found; with no deadline the path is shortened and proved.
func TestMergeBudget(t *testing.T) {
	m, path := counter(t, 3000)
	in := []Input{{Name: "a", Report: report(path)}}
	out, err := Merge(JSON(m), "x", "h", in, Options{Cap: 100000, Deadline: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	v := out.Violations[0]
	if len(v.Path) != len(path) || *v.ProvedShortest || !strings.Contains(v.ShortenStopped, "at step 0 of the 3000-step path") ||
		out.Verdict != Fail || !strings.Contains(out.VerdictReason, "time budget for 1 of them") {
		t.Errorf("spent budget: %d steps, proved %v, %q, %s: %s", len(v.Path), *v.ProvedShortest, v.ShortenStopped, out.Verdict, out.VerdictReason)
	}
	out, err = Merge(JSON(m), "x", "h", in, Options{Cap: 100000})
	if err != nil {
		t.Fatal(err)
	}
	if v := out.Violations[0]; len(v.Path) != len(path) || !*v.ProvedShortest || v.ShortenStopped != "" || strings.Contains(out.VerdictReason, "budget") {
		t.Errorf("no deadline: %d steps, proved %v, %q: %s", len(v.Path), *v.ProvedShortest, v.ShortenStopped, out.VerdictReason)
	}
	if testing.Short() {
		return
	}
	// 120,000 steps: the search from the initial runtime stops at its cap,
	// and the search along the path takes minutes; 50 ms stop it.
	m, path = counter(t, 120000)
	out, err = Merge(JSON(m), "x", "h", []Input{{Name: "a", Report: report(path)}}, Options{Cap: 1000, Deadline: time.Now().Add(50 * time.Millisecond)})
	if err != nil {
		t.Fatal(err)
	}
	if v := out.Violations[0]; len(v.Path) != len(path) || *v.ProvedShortest || !strings.Contains(v.ShortenStopped, "the time budget ran out") {
		t.Errorf("long path: %d steps, proved %v, %q", len(v.Path), *v.ProvedShortest, v.ShortenStopped)
	}
	if _, _, err := replay(JSON(m), "below", out.Violations[0].Path); err != nil {
		t.Errorf("the partly shortened path does not replay: %v", err)
	}
}

// BenchmarkMergeLongPath merges one member report whose path has 120,000
// steps (a counter stepped to its limit) under a one-second budget: the
// time is the replay plus the budget.
func BenchmarkMergeLongPath(b *testing.B) {
	m, path := counter(b, 120000)
	in := []Input{{Name: "a", Report: report(path)}}
	for b.Loop() {
		if _, err := Merge(JSON(m), "x", "h", in, Options{Cap: 100000, Deadline: time.Now().Add(time.Second)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMergeCopies merges a report holding a thousand copies of one
// 400-step violation.
func BenchmarkMergeCopies(b *testing.B) {
	m, path := counter(b, 400)
	copies := make([][]Step, 1000)
	for i := range copies {
		copies[i] = path
	}
	in := []Input{{Name: "a", Report: report(copies...)}}
	for b.Loop() {
		if _, err := Merge(JSON(m), "x", "h", in, Options{Cap: 100}); err != nil {
			b.Fatal(err)
		}
	}
}
