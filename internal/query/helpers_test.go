package query

import (
	"errors"
	"testing"

	"github.com/stateproof/stateproof/internal/sts"
)

// testSystem is a small JSON-like system: three locations (one terminal)
// under a composite Root, int/real/bool variables (one named like a
// keyword), two events, and cases of every kind, two with call records.
func testSystem() *sts.System {
	root := []string{"Root"}
	return &sts.System{
		Name: "test",
		Locations: []sts.Location{
			{ID: 0, Name: "Root.Idle", Ancestors: root},
			{ID: 1, Name: "Root.Done", Ancestors: root},
			{ID: 2, Name: "Root.Off", Ancestors: root, Terminal: true},
		},
		Vars: []sts.Var{
			{Name: "x", Sort: sts.Int}, {Name: "y", Sort: sts.Int},
			{Name: "f", Sort: sts.Real}, {Name: "b", Sort: sts.Bool},
			{Name: "state", Sort: sts.Int},
		},
		Events: []sts.Event{{Name: "Root.Go"}, {Name: "Root.Stop"}},
		Cases: map[int][]sts.Case{
			sts.InitID: {{Kind: sts.Initial, Label: "__init__::initial::Root.Idle::0", Source: sts.InitID, Target: 0}},
			0: {
				{Kind: sts.Transition, Label: "Root.Idle::transition::Root.Done::0", Source: 0, Target: 1,
					Calls: []sts.Call{{Action: "Root.Idle.Tick", Stage: "during", Role: "leaf_during",
						State: "Root.Idle", ActiveLeaf: "Root.Idle", NamedRef: "Root.Idle.Ref"}}},
				{Kind: sts.Delta, Label: "Root.Idle::stuck::Root.Idle::0", Source: 0, Target: 0, Delta: true},
			},
			1: {
				{Kind: sts.Fallback, Label: "Root.Done::fallback::Root.Done::0", Source: 1, Target: 1},
				{Kind: sts.Transition, Label: "Root.Done::transition::Root.Off::0", Source: 1, Target: 2,
					Calls: []sts.Call{{Action: "Root.Done.Leave", Stage: "exit", Role: "state_exit",
						State: "Root.Done", ActiveLeaf: "Root.Done"}}},
			},
			2: {{Kind: sts.Absorb, Label: "Root.Off::absorb::Root.Off::0", Source: 2, Target: 2}},
		},
		Start: 0,
	}
}

func mustParse(t testing.TB, src string) *Query {
	t.Helper()
	q, err := Parse("test.fbmcq", src)
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	return q
}

// asError asserts that err is an *Error with the given class, code and
// position.
func asError(t *testing.T, src string, err error, class, code, pos string) *Error {
	t.Helper()
	if err == nil {
		t.Fatalf("%q: no error, want %s %s at %s", src, class, code, pos)
	}
	var qe *Error
	if !errors.As(err, &qe) {
		t.Fatalf("%q: error %T %v is not an *Error", src, err, err)
	}
	if qe.Class != class || qe.Code != code || qe.Pos.String() != pos {
		t.Fatalf("%q:\n got  %s %s at %s: %v\n want %s %s at %s", src, qe.Class, qe.Code, qe.Pos, err, class, code, pos)
	}
	return qe
}
