package verify

import (
	"slices"
	"testing"
)

// removedStates lists the BEFORE ids whose image AFTER lacks, as the
// reference does, not the mapped AFTER id; two BEFORE states mapped onto
// one missing id are both listed.
func TestRemovedStatesListBeforeIDs(t *testing.T) {
	before := edit(t, cmpBase, `{"id":"BUSY"}`, `{"id":"BUSY"},{"id":"WAIT"}`, `{"from":"BUSY","event":"finish","to":"IDLE"}`, `{"from":"BUSY","event":"finish","to":"IDLE"},{"from":"WAIT","event":"finish","to":"IDLE"}`)
	after := edit(t, cmpBase, `"BUSY"`, `"WORKING"`)
	r := compare(t, after, before, map[string]string{"BUSY": "WORK", "WAIT": "WORK"}, 0)
	got, _ := r.Comparison.Get("removedStates").([]string)
	if want := []string{"BUSY", "WAIT"}; !slices.Equal(got, want) {
		t.Errorf("removedStates = %q, want %q", got, want)
	}
}

// D2's skips are one finding per missing reference, as the reference
// engine gives them: a never-states invariant naming two removed states
// gives two D2_MAPPED_STATE_MISSING, each naming its state.
func TestD2MissingOneFindingPerReference(t *testing.T) {
	before := edit(t, cmpBase, `"invariants":[`, `"invariants":[{"id":"no-x","description":"d","kind":"never-states","states":["X","Y"]},`,
		`{"id":"DONE","terminal":true}`, `{"id":"DONE","terminal":true},{"id":"X"},{"id":"Y"}`,
		`{"from":"BUSY","event":"abort","to":"DONE"}`, `{"from":"BUSY","event":"abort","to":"DONE"},{"from":"X","event":"go","to":"Y"},{"from":"Y","event":"go","to":"X"}`)
	r := compare(t, cmpBase, before, nil, 0)
	var missing []string
	for _, f := range findingsOf(r, "D2") {
		if f.Code == "D2_MAPPED_STATE_MISSING" {
			s, _ := f.Evidence.Get("missingState").(string)
			missing = append(missing, s)
		}
	}
	if want := []string{"X", "Y"}; !slices.Equal(missing, want) {
		t.Errorf("D2_MAPPED_STATE_MISSING states = %q, want one finding each for %q (%+v)", missing, want, findingsOf(r, "D2"))
	}
}

// A BEFORE leads-to whose target AFTER removed is re-decided, not skipped:
// a removed target is never reached, so the promise regresses when a
// BEFORE `from` runtime can no longer reach any target (issue 27.7).
func TestD2LeadsToRemovedTargetRegresses(t *testing.T) {
	before := edit(t, cmpBase, `"invariants":[`, `"invariants":[{"id":"ends","description":"a started run ends","kind":"leads-to","from":"BUSY","to":"DONE"},`)
	if fs := findingsOf(compare(t, before, before, nil, 0), "D2"); len(fs) != 0 {
		t.Fatalf("unchanged model: D2 = %+v", fs)
	}
	after := `{"schemaVersion":1,"init":"IDLE","states":[{"id":"IDLE"},{"id":"BUSY"}],
	 "transitions":[{"from":"IDLE","event":"start","to":"BUSY"},{"from":"BUSY","event":"finish","to":"IDLE"}],
	 "variables":[{"name":"n","kind":"integer","init":0}]}`
	var codes []string
	for _, f := range findingsOf(compare(t, after, before, nil, 0), "D2") {
		if f.Evidence.Get("beforeInvariant") == "ends" {
			codes = append(codes, f.Code)
			if f.Code == "D2_INVARIANT_REGRESSION" && len(f.Path) == 0 {
				t.Errorf("regression without a path: %+v", f)
			}
		}
	}
	if !slices.Equal(codes, []string{"D2_INVARIANT_REGRESSION"}) {
		t.Errorf("D2 findings for the leads-to: %q, want one D2_INVARIANT_REGRESSION", codes)
	}
	// A target that remains is still enough: only the removed one is lost.
	before2 := edit(t, cmpBase, `"invariants":[`, `"invariants":[{"id":"ends","description":"d","kind":"leads-to","from":"BUSY","to":["IDLE","DONE"]},`)
	for _, f := range findingsOf(compare(t, after, before2, nil, 0), "D2") {
		if f.Evidence.Get("beforeInvariant") == "ends" {
			t.Errorf("leads-to with a remaining reachable target: %+v", f)
		}
	}
}
