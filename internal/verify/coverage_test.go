package verify

import (
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/jsonmodel"
)

func TestCoverageNotes(t *testing.T) {
	notes := func(states, events string) []string {
		src := `{"schemaVersion":1,"init":"A","states":[` + states + `],"transitions":[` + events + `]}`
		res, err := jsonmodel.Decode([]byte(src))
		if err != nil || !res.Valid() {
			t.Fatalf("model: %v %v", err, res.Errors)
		}
		return CoverageNotes(res.Model)
	}
	tr := func(ev string) string { return `{"from":"A","event":"` + ev + `","to":"A"}` }
	cat := coverageCategories()
	cases := []struct {
		name           string
		states, events string
		want           []int
	}{
		{"nothing", `{"id":"A"}`, tr("go"), nil},
		{"event word", `{"id":"A"}`, tr("request_timeout"), []int{0}},
		{"camel case is one word", `{"id":"A"}`, tr("watchdogTimer"), nil},
		{"case-insensitive state", `{"id":"A"},{"id":"ISR_RUNNING"}`, tr("go"), []int{1}},
		{"action names", `{"id":"A","onEntry":["start_motor"]}`, tr("go"), []int{2}},
		{"multi-word entry", `{"id":"A"}`, tr("failure-rate_exceeded"), []int{3}},
		{"all four, in order", `{"id":"A","onExit":["markov"]}`, tr("pid.tick") + "," + tr("thread"), []int{0, 1, 2, 3}},
	}
	for _, c := range cases {
		var want []string
		for _, i := range c.want {
			want = append(want, cat[i].sentence)
		}
		if got := notes(c.states, c.events); !slices.Equal(got, want) {
			t.Errorf("%s: notes = %q, want %q", c.name, got, want)
		}
	}
}

// decideInvariant decides every kind, and A7 agrees with each kind's own check.
func TestDecideInvariantEveryKind(t *testing.T) {
	src := m(`{"id":"A"},{"id":"B"},{"id":"C","terminal":true}`,
		`{"from":"A","event":"go","to":"B","cost":2},{"from":"B","event":"go","to":"C","cost":2},{"from":"B","event":"back","to":"A"}`,
		`,"variables":[{"name":"x","kind":"integer","init":0}],"invariants":[
		{"id":"n","description":"d","kind":"never-states","states":["C"]},
		{"id":"r","description":"d","kind":"var-in-range","variable":"x","max":0},
		{"id":"e","description":"d","kind":"event-before-state","event":"back","state":"C"},
		{"id":"l","description":"d","kind":"leads-to","from":"A","to":"C"},
		{"id":"s","description":"d","kind":"sequence","events":["back","go"]},
		{"id":"t","description":"d","kind":"atomicity","events":["go"],"commit":"back"},
		{"id":"b","description":"d","kind":"budget","budget":100},
		{"id":"p","description":"d","kind":"probability","target":"C","op":">=","p":0.99}]`)
	res, _ := jsonmodel.Decode([]byte(src))
	e := newEnv(res.Model, DefaultOptions())
	want := map[string]bool{"n": true, "r": false, "e": true, "l": true, "s": true, "t": true, "b": true, "p": false}
	for i := range res.Model.Invariants {
		inv := &res.Model.Invariants[i]
		out := e.decideInvariant(inv)
		if out.violated != want[inv.ID] || out.undecided {
			t.Errorf("%s (%s): violated=%v undecided=%v, want violated=%v", inv.ID, inv.Kind, out.violated, out.undecided, want[inv.ID])
		}
	}
	r := run(t, src, 0)
	var a7 []string
	for _, f := range check(r, "A7").Findings {
		a7 = append(a7, f.Evidence.Get("invariant").(string))
	}
	if !slices.Equal(a7, []string{"n", "e", "l", "s", "t", "b"}) {
		t.Errorf("A7 counterexamples for %v", a7)
	}
}

// A4_NO_RELEASE_EVENT cannot come from a valid model (validation makes the
// release name resolve), so the rule is exercised directly.
func TestA4NoReleaseEvent(t *testing.T) {
	res, _ := jsonmodel.Decode([]byte(m(`{"id":"A"},{"id":"B","terminal":true}`, `{"from":"A","event":"acq","to":"B"}`, "")))
	e := newEnv(res.Model, DefaultOptions())
	fs := e.pairSymmetry(jsonmodel.ResourcePair{Resource: "r", AcquireEvent: "acq", ReleaseEvent: "rel"})
	if len(fs) != 1 || fs[0].Code != "A4_NO_RELEASE_EVENT" || fs[0].Target != "r" {
		t.Errorf("findings %+v", fs)
	}
	fs = e.pairSymmetry(jsonmodel.ResourcePair{Resource: "r", AcquireEvent: "acq", ReleaseEvent: "acq"})
	if len(fs) != 0 && fs[0].Code == "A4_NO_RELEASE_EVENT" {
		t.Errorf("a named release reported missing: %+v", fs)
	}
}
