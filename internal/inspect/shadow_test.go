package inspect

import (
	"fmt"
	"slices"
	"testing"
)

// TestUnreachableTransitionShadowed: a transition is shadowed when an
// earlier one from the same source, on no event or the same one, whose
// guard holds whenever its own does, leads to a stoppable leaf; each
// near-miss lets the later transition fire.
func TestUnreachableTransitionShadowed(t *testing.T) {
	cases := []struct {
		name, first, second string
		shadowed            bool
	}{
		{"unconditional", "A -> B;", "A -> C : if [x > 0];", true},
		{"constant true guard", "A -> B : if [1 < 2];", "A -> C :: Go;", true},
		{"same event", "A -> B :: Go;", "A -> C :: Go;", true},
		{"guard a conjunct of the later one", "A -> B : if [x > 0];", "A -> C : if [x < 5 && x > 0];", true},
		{"other event", "A -> B :: Go;", "A -> C :: Stop;", false},
		{"event before no event", "A -> B :: Go;", "A -> C;", false},
		{"weaker later guard", "A -> B : if [x > 0 && x < 5];", "A -> C : if [x > 0];", false},
		{"into a pseudo state", "A -> P;", "A -> C;", false},
		{"into a composite", "A -> K;", "A -> C;", false},
		{"other source", "B -> C;", "A -> C;", false},
		{"guard false on some runs", "A -> B : if [x > 1];", "A -> C : if [x > 0];", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := fmt.Sprintf(`def int x = 0;
state Root {
    state A { during { x = x + 1; } }
    state B;
    state C;
    pseudo state P;
    state K { state K1; [*] -> K1; }
    [*] -> A;
    %s
    %s
    B -> A;
    C -> A;
    P -> A;
    K -> A;
}
`, c.first, c.second)
			res := Source("m.fcstm", []byte(src), Options{})
			if !res.Loaded {
				t.Fatalf("does not load: %v", res.Diagnostics)
			}
			var got []string
			for _, d := range transitionDiags(res) {
				if d.Span.Line == 10 {
					got = d.Refs["reasons"].([]string)
				}
			}
			if shadowed := slices.Contains(got, "shadowed"); shadowed != c.shadowed {
				t.Errorf("line 10 reasons %v, want shadowed %v\n%s", got, c.shadowed, src)
			}
		})
	}
}

// TestUnreachableTransitionForcedNeverExpands: a forced declaration with
// nothing to expand from is an unreachable transition too, with the
// reason forced_never_expands and no source state; one in a composite is
// not.
func TestUnreachableTransitionForcedNeverExpands(t *testing.T) {
	src := `state Root {
    state A {
        !* -> [*];
    }
    state K {
        state K1;
        [*] -> K1;
        !* -> [*];
    }
    [*] -> A;
    A -> K;
    K -> A;
}
`
	got := transitionDiags(Source("m.fcstm", []byte(src), Options{}))
	if len(got) != 1 || got[0].Span.Line != 3 {
		t.Fatalf("want one diagnostic, on line 3: %v", got)
	}
	r := got[0].Refs
	if !slices.Equal(r["reasons"].([]string), []string{"forced_never_expands"}) || r["from_path"] != "Root.A" ||
		r["to_path"] != "[*]" || r["source_state_path"] != nil || r["forced_origin"] != "!* -> [*];" {
		t.Errorf("refs %v", r)
	}
}
