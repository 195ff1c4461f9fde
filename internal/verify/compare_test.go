package verify

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

// cmpBase is the BEFORE model of the comparison tests: a job runner with a
// bounded run counter.
const cmpBase = `{"schemaVersion":1,"init":"IDLE",
 "states":[{"id":"IDLE"},{"id":"BUSY"},{"id":"DONE","terminal":true}],
 "transitions":[
  {"from":"IDLE","event":"start","to":"BUSY","guard":{"variable":"n","op":"<","value":3},"updates":[{"variable":"n","op":"inc"}]},
  {"from":"IDLE","event":"start","to":"DONE"},
  {"from":"BUSY","event":"finish","to":"IDLE"},
  {"from":"BUSY","event":"abort","to":"DONE"}],
 "variables":[{"name":"n","kind":"integer","init":0,"min":0,"max":3}],
 "invariants":[
  {"id":"n-bounded","description":"at most three runs","kind":"var-in-range","variable":"n","min":0,"max":3},
  {"id":"done-after-start","description":"DONE only after a start","kind":"event-before-state","event":"start","state":"DONE"}]}`

// edit applies old→new replacements to src, failing when one does not apply.
func edit(t *testing.T, src string, pairs ...string) string {
	t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(src, pairs[i]) {
			t.Fatalf("edit: %q not found", pairs[i])
		}
		src = strings.ReplaceAll(src, pairs[i], pairs[i+1])
	}
	return src
}

func decodeOK(t *testing.T, src string) *jsonmodel.Result {
	t.Helper()
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return res
}

func compare(t *testing.T, after, before string, mapping map[string]string, maxStates int) *report.VerifyReport {
	t.Helper()
	a, b := decodeOK(t, after), decodeOK(t, before)
	if !a.Valid() {
		t.Fatalf("AFTER invalid: %v", a.Errors)
	}
	opts := DefaultOptions()
	if maxStates > 0 {
		opts.MaxStates = maxStates
	}
	return RunComparison(a, b, mapping, opts)
}

func findingsOf(r *report.VerifyReport, id string) []report.Finding {
	if c := check(r, id); c != nil {
		return c.Findings
	}
	return nil
}

// The textbook case: a rename handled by stateMapping passes D1–D4.
func TestRenameWithMappingPasses(t *testing.T) {
	after := edit(t, cmpBase, `"BUSY"`, `"WORKING"`)
	r := compare(t, after, cmpBase, map[string]string{"BUSY": "WORKING"}, 0)
	for _, id := range []string{"D1", "D2", "D3", "D4"} {
		if c := check(r, id); c == nil || c.Status() != report.Pass {
			t.Errorf("%s = %+v, want pass", id, c)
		}
	}
	if r.ChecksRun() != 26 { // S1–S8, A1–A14, D1–D4
		t.Errorf("checksRun = %d", r.ChecksRun())
	}
	if d := check(r, "D3").Detail; d != "Delta: +0 states, -0 states, +0 events, -0 events, +0 transitions, -0 transitions" {
		t.Errorf("D3 detail = %q", d)
	}
	// Without the mapping the same change is a missing state.
	r = compare(t, after, cmpBase, nil, 0)
	if got := codes(r); !slices.Contains(got, "D1_MAPPED_STATE_MISSING") || !slices.Contains(got, "D3_REMOVED_STATE") {
		t.Errorf("unmapped rename gave %v", got)
	}
}

// The textbook case: a removed transition fails D1 with the BEFORE step as
// its path.
func TestRemovedTransitionFailsD1(t *testing.T) {
	after := edit(t, cmpBase, `,
  {"from":"BUSY","event":"abort","to":"DONE"}`, ``)
	r := compare(t, after, cmpBase, nil, 0)
	fs := findingsOf(r, "D1")
	if len(fs) != 1 || fs[0].Code != "D1_EVENT_DISABLED" || fs[0].Severity != report.Error {
		t.Fatalf("D1 findings = %+v", fs)
	}
	want := []report.Step{{From: "BUSY", Event: "abort", To: "DONE"}}
	if !slices.Equal(fs[0].Path, want) || fs[0].Target != "BUSY" {
		t.Errorf("path %v target %v, want %v", fs[0].Path, fs[0].Target, want)
	}
	if fs[0].Message != `BEFORE state "BUSY" could fire "abort", but AFTER has no transition from "BUSY" on "abort"` {
		t.Errorf("message = %q", fs[0].Message)
	}
	if v, _ := r.Verdict(); v != report.Fail {
		t.Errorf("verdict = %s", v)
	}
}

// The textbook case: an invariant weakened by the change fails D2, with the
// AFTER path and the mapped invariant as evidence.
func TestWeakenedInvariantFailsD2(t *testing.T) {
	// AFTER lets five runs through and relaxes its own invariant to match,
	// so S7 passes; the BEFORE promise of at most three runs is broken.
	after := edit(t, cmpBase, `"value":3}`, `"value":5}`, `"max":3}`, `"max":5}`)
	r := compare(t, after, cmpBase, nil, 0)
	if c := check(r, "S7"); c.Status() != report.Pass {
		t.Fatalf("AFTER's own invariant should hold: %+v", c.Findings)
	}
	fs := findingsOf(r, "D2")
	if len(fs) != 1 || fs[0].Code != "D2_INVARIANT_REGRESSION" {
		t.Fatalf("D2 findings = %+v", fs)
	}
	f := fs[0]
	if len(f.Path) != 7 || f.Target != "n" {
		t.Errorf("path %v (want 7 steps: start/finish x3, start), target %v", f.Path, f.Target)
	}
	if f.Message != `Invariant "n-bounded" of BEFORE is violated in AFTER after 7 steps: "n" = 4 outside [0, 3] — at most three runs` {
		t.Errorf("message = %q", f.Message)
	}
	ev, _ := json.Marshal(f.Evidence)
	if !strings.Contains(string(ev), `"beforeInvariant":"n-bounded","afterInvariant":{"id":"n-bounded:before"`) {
		t.Errorf("evidence = %s", ev)
	}
}

// cmpCase is a D-code with a change that triggers it and a near-identical
// change that must not; each returns AFTER and the state mapping.
type cmpCase struct {
	code      string
	bad, good func(t *testing.T) (string, map[string]string)
}

func removeAbort(t *testing.T) string {
	return edit(t, cmpBase, `,
  {"from":"BUSY","event":"abort","to":"DONE"}`, ``)
}

func comparisonCases() []cmpCase {
	return []cmpCase{
		{"D1_INIT_MISMATCH",
			func(t *testing.T) (string, map[string]string) {
				return edit(t, cmpBase, `"init":"IDLE"`, `"init":"BUSY"`), nil
			},
			func(t *testing.T) (string, map[string]string) { return cmpBase, nil }},
		{"D1_MAPPED_STATE_MISSING",
			func(t *testing.T) (string, map[string]string) {
				return edit(t, cmpBase, `"BUSY"`, `"WORKING"`), map[string]string{"BUSY": "WORK"}
			},
			func(t *testing.T) (string, map[string]string) {
				return edit(t, cmpBase, `"BUSY"`, `"WORKING"`), map[string]string{"BUSY": "WORKING"}
			}},
		{"D1_EVENT_DISABLED",
			func(t *testing.T) (string, map[string]string) { return removeAbort(t), nil },
			func(t *testing.T) (string, map[string]string) {
				return edit(t, cmpBase, `"event":"abort","to":"DONE"`, `"event":"abort","to":"IDLE"`), nil
			}},
		{"D2_INVARIANT_REGRESSION",
			func(t *testing.T) (string, map[string]string) {
				return edit(t, cmpBase, `"value":3}`, `"value":4}`, `"max":3}`, `"max":4}`), nil
			},
			func(t *testing.T) (string, map[string]string) {
				return edit(t, cmpBase, `"value":3}`, `"value":2}`), nil
			}},
		{"D2_MAPPED_STATE_MISSING",
			func(t *testing.T) (string, map[string]string) { return edit(t, cmpBase, `"DONE"`, `"END"`), nil },
			func(t *testing.T) (string, map[string]string) {
				return edit(t, cmpBase, `"DONE"`, `"END"`), map[string]string{"DONE": "END"}
			}},
		{"D2_VARIABLE_MISSING",
			func(t *testing.T) (string, map[string]string) { return edit(t, cmpBase, `"n"`, `"count"`), nil },
			func(t *testing.T) (string, map[string]string) { return cmpBase, nil }},
		{"D3_REMOVED_STATE",
			func(t *testing.T) (string, map[string]string) {
				return edit(t, cmpBase, `,{"id":"BUSY"}`, ``, `"to":"BUSY"`, `"to":"IDLE"`, `"from":"BUSY"`, `"from":"IDLE"`), nil
			},
			func(t *testing.T) (string, map[string]string) { return cmpBase, nil }},
		{"D3_REMOVED_EVENT",
			func(t *testing.T) (string, map[string]string) { return removeAbort(t), nil },
			func(t *testing.T) (string, map[string]string) {
				return edit(t, cmpBase, `"event":"abort","to":"DONE"`, `"event":"abort","to":"IDLE"`), nil
			}},
		{"D3_REMOVED_TRANSITION",
			func(t *testing.T) (string, map[string]string) {
				return edit(t, cmpBase, `"event":"abort","to":"DONE"`, `"event":"abort","to":"IDLE"`), nil
			},
			func(t *testing.T) (string, map[string]string) {
				return edit(t, cmpBase, `"event":"abort","to":"DONE"}`, `"event":"abort","to":"DONE"},{"from":"BUSY","event":"abort","to":"IDLE"}`), nil
			}},
		{"D4_DEADLOCK_REGRESSION",
			func(t *testing.T) (string, map[string]string) {
				return edit(t, cmpBase, `{"id":"IDLE"}`, `{"id":"IDLE"},{"id":"STUCK"}`, `{"from":"BUSY","event":"finish"`, `{"from":"BUSY","event":"jam","to":"STUCK"},{"from":"BUSY","event":"finish"`), nil
			},
			func(t *testing.T) (string, map[string]string) {
				return edit(t, cmpBase, `{"id":"IDLE"}`, `{"id":"IDLE"},{"id":"STUCK","terminal":true}`, `{"from":"BUSY","event":"finish"`, `{"from":"BUSY","event":"jam","to":"STUCK"},{"from":"BUSY","event":"finish"`), nil
			}},
		{"D4_LIVENESS_REGRESSION",
			func(t *testing.T) (string, map[string]string) {
				return edit(t, cmpBase, `{"id":"IDLE"}`, `{"id":"IDLE"},{"id":"L1"},{"id":"L2"}`, `{"from":"BUSY","event":"finish"`, `{"from":"BUSY","event":"spin","to":"L1"},{"from":"L1","event":"spin","to":"L2"},{"from":"L2","event":"spin","to":"L1"},{"from":"BUSY","event":"finish"`), nil
			},
			func(t *testing.T) (string, map[string]string) {
				return edit(t, cmpBase, `{"id":"IDLE"}`, `{"id":"IDLE"},{"id":"L1"},{"id":"L2"}`, `{"from":"BUSY","event":"finish"`, `{"from":"BUSY","event":"spin","to":"L1"},{"from":"L1","event":"spin","to":"L2"},{"from":"L2","event":"spin","to":"L1"},{"from":"L2","event":"abort","to":"DONE"},{"from":"BUSY","event":"finish"`), nil
			}},
	}
}

// Each D-code: a change that triggers it and a near-identical one that
// must not.
func TestComparisonCodes(t *testing.T) {
	for _, c := range comparisonCases() {
		t.Run(c.code, func(t *testing.T) {
			after, mapping := c.bad(t)
			if got := codes(compare(t, after, cmpBase, mapping, 0)); !slices.Contains(got, c.code) {
				t.Errorf("triggering change gave %v, want %s", got, c.code)
			}
			after, mapping = c.good(t)
			if got := codes(compare(t, after, cmpBase, mapping, 0)); slices.Contains(got, c.code) {
				t.Errorf("near-identical change still gives %s (all: %v)", c.code, got)
			}
		})
	}
}

// A dead end or closed cycle BEFORE already had, renamed, is no regression.
func TestD4ComparesImages(t *testing.T) {
	before := edit(t, cmpBase, `{"id":"IDLE"}`, `{"id":"IDLE"},{"id":"STUCK"}`, `{"from":"BUSY","event":"finish"`, `{"from":"BUSY","event":"jam","to":"STUCK"},{"from":"BUSY","event":"finish"`)
	after := edit(t, before, `"STUCK"`, `"JAMMED"`)
	r := compare(t, after, before, map[string]string{"STUCK": "JAMMED"}, 0)
	if fs := findingsOf(r, "D4"); len(fs) != 0 {
		t.Errorf("renamed old dead end reported: %+v", fs)
	}
	if fs := findingsOf(r, "S2"); len(fs) != 1 {
		t.Errorf("S2 should still see the dead end: %+v", fs)
	}
}

// A cap that bites in D2's search is D2_UNDECIDED, never a pass.
func TestD2UndecidedAtCap(t *testing.T) {
	ticking := `{"from":"IDLE","event":"tick","to":"IDLE","updates":[{"variable":"t","op":"inc"}]},`
	after := edit(t, cmpBase, `"transitions":[`, `"transitions":[`+ticking, `"variables":[`, `"variables":[{"name":"t","kind":"integer","init":0},`)
	r := compare(t, after, cmpBase, nil, 30)
	var got []report.Finding
	for _, f := range findingsOf(r, "D2") {
		if f.Code == "D2_UNDECIDED" {
			got = append(got, f)
		}
	}
	if len(got) != 2 || !r.Truncated {
		t.Fatalf("D2 = %+v (truncated %v), want two undecided", findingsOf(r, "D2"), r.Truncated)
	}
	if got[0].Evidence.Get("invariant") != "n-bounded:before" || got[0].Evidence.Get("capKind") != "maxStates" {
		t.Errorf("evidence = %v", got[0].Evidence)
	}
	if !strings.HasPrefix(got[0].Message, `Could not decide invariant "n-bounded:before" in AFTER: the search stopped at 30 runtime states`) {
		t.Errorf("message = %q", got[0].Message)
	}
	// The same change without the unbounded tick decides both.
	r = compare(t, cmpBase, cmpBase, nil, 30)
	if fs := findingsOf(r, "D2"); len(fs) != 0 {
		t.Errorf("D2 = %+v", fs)
	}
}

// Path kinds are re-decided in AFTER by their own searches: a leads-to
// that held keeps holding when the change keeps an exit, and regresses when
// the change adds a cycle that avoids the target.
func TestD2PathKinds(t *testing.T) {
	before := edit(t, cmpBase, `"invariants":[`, `"invariants":[{"id":"ends","description":"a started run ends","kind":"leads-to","from":"BUSY","to":["IDLE","DONE"]},`)
	if fs := findingsOf(compare(t, before, before, nil, 0), "D2"); len(fs) != 0 {
		t.Errorf("unchanged model: D2 = %+v", fs)
	}
	after := edit(t, before, `{"from":"BUSY","event":"abort","to":"DONE"}`, `{"from":"BUSY","event":"abort","to":"DONE"},{"from":"BUSY","event":"wait","to":"BUSY"}`)
	fs := findingsOf(compare(t, after, before, nil, 0), "D2")
	if len(fs) != 1 || fs[0].Code != "D2_INVARIANT_REGRESSION" || len(fs[0].Path) == 0 {
		t.Fatalf("D2 = %+v", fs)
	}
	if last := fs[0].Path[len(fs[0].Path)-1]; last.Event != "wait" {
		t.Errorf("the regression path should end on the avoiding cycle, got %+v", fs[0].Path)
	}
}

func TestComparisonObjectAndHashes(t *testing.T) {
	before := edit(t, cmpBase, `"init":"IDLE"`, `"init":"IDLE","_source":"v1.json"`)
	after := edit(t, cmpBase, `{"id":"IDLE"}`, `{"id":"IDLE","_note":"x"},{"id":"PAUSED"}`,
		`{"from":"BUSY","event":"abort","to":"DONE"}`, `{"from":"BUSY","event":"abort","to":"IDLE"},{"from":"BUSY","event":"pause","to":"PAUSED"},{"from":"PAUSED","event":"resume","to":"BUSY"}`,
		`"BUSY"`, `"WORKING"`)
	r := compare(t, after, before, map[string]string{"BUSY": "WORKING"}, 0)
	cmp, _ := json.Marshal(r.Comparison)
	for _, want := range []string{
		`"stateMapping":{"BUSY":"WORKING"},"beforeStates":3,"beforeTransitions":4,"afterStates":4,"afterTransitions":6`,
		`"addedStates":["PAUSED"],"removedStates":[],"addedEvents":["pause","resume"],"removedEvents":[]`,
		`"addedTransitions":[{"from":"PAUSED","event":"resume","to":"WORKING"},{"from":"WORKING","event":"abort","to":"IDLE"},{"from":"WORKING","event":"pause","to":"PAUSED"}]`,
		`"removedTransitions":[{"from":"WORKING","event":"abort","to":"DONE"}]`,
	} {
		if !strings.Contains(string(cmp), want) {
			t.Errorf("comparison lacks %s:\n%s", want, cmp)
		}
	}
	hashes, _ := json.Marshal(r.JSON().Get("hashes"))
	bh, _ := jsonmodel.Hash(decodeOK(t, before).Raw, "v1")
	if !strings.Contains(string(hashes), `"beforeModelHash":"`+bh+`"`) || r.Comparison.Get("beforeModelHash") != bh {
		t.Errorf("hashes = %s", hashes)
	}
	if want := []string{"beforeModel._source", "states[0]._note"}; !slices.Equal(r.MetadataKeys, want) {
		t.Errorf("metadataKeys = %q, want %q", r.MetadataKeys, want)
	}
	if ns := r.NextSteps(); ns[len(ns)-1] != "Keep this report as the baseline for the next change (--baseline)" {
		t.Errorf("nextSteps = %q", ns)
	}
}

func TestInvalidBeforeModel(t *testing.T) {
	before := edit(t, cmpBase, `"init":"IDLE"`, `"init":"IDLE","sttes":[]`, `"event":"finish","to":"IDLE"`, `"event":"finish","to":"NOWHERE"`)
	r := compare(t, cmpBase, before, nil, 0)
	out := r.JSON()
	if out.Get("ok") != false || r.ChecksRun() != 22 || r.Comparison != nil {
		t.Errorf("ok %v, checksRun %d, comparison %v", out.Get("ok"), r.ChecksRun(), r.Comparison)
	}
	last := r.Checks[len(r.Checks)-1]
	if last.ID != "BEFORE_MODEL" || last.Name != "Before Model Validation" || len(last.Findings) != 2 {
		t.Fatalf("last check = %+v", last)
	}
	for _, f := range last.Findings {
		if f.Code != "BEFORE_MODEL_INVALID" || f.Severity != report.Error || !strings.HasPrefix(f.Message, "beforeModel.") {
			t.Errorf("finding = %+v", f)
		}
	}
	if last.Findings[0].Message != `beforeModel.sttes: unknown field for model (allowed: schemaVersion, init, states, transitions, variables, invariants, concurrentPairs, boundaryChecks, resourcePairs, idempotentEvents, tickEvents, narrative, fairness)` {
		t.Errorf("message = %q", last.Findings[0].Message)
	}
	if check(r, "D1") != nil {
		t.Error("D1 ran on an invalid BEFORE model")
	}
	// Not an object at all.
	r = compare(t, cmpBase, `[1]`, nil, 0)
	if f := r.Checks[len(r.Checks)-1].Findings[0]; f.Message != "beforeModel: expected object, found array" {
		t.Errorf("root message = %q", f.Message)
	}
}

func TestCheckMapping(t *testing.T) {
	m := decodeOK(t, cmpBase).Model
	if err := CheckMapping(m, map[string]string{"BUSY": "X"}); err != nil {
		t.Error(err)
	}
	err := CheckMapping(m, map[string]string{"BUSY": "X", "BSY": "Y"})
	if err == nil || !strings.Contains(err.Error(), `"BSY"`) {
		t.Errorf("err = %v", err)
	}
}
