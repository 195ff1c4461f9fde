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

// TestUnreachableTransitionEventConsumer: a transition from a state no run
// enters has the reason unreachable_event_consumer too when no transition
// its event triggers leaves a state a run enters, and not when one does.
func TestUnreachableTransitionEventConsumer(t *testing.T) {
	src := `state Root {
    event Panic;
    event Stop;
    state A;
    state Lost;
    [*] -> A;
    A -> A : Stop;
    Lost -> A : Panic;
    Lost -> A : Stop;
}
`
	res := Source("m.fcstm", []byte(src), Options{})
	got := transitionDiags(res)
	if len(got) != 2 {
		t.Fatalf("want lines 8 and 9: %v", got)
	}
	want := map[int][]string{8: {"unreachable_event_consumer", "unreachable_source_state"}, 9: {"unreachable_source_state"}}
	for _, d := range got {
		if r := d.Refs["reasons"].([]string); !slices.Equal(r, want[d.Span.Line]) {
			t.Errorf("line %d: reasons %v, want %v", d.Span.Line, r, want[d.Span.Line])
		}
	}
	var emits []Diagnostic
	for _, d := range res.Diagnostics {
		if d.Code == "W_EVENT_UNREACHABLE_EMIT" {
			emits = append(emits, d)
		}
	}
	if len(emits) != 1 || emits[0].Span.Line != 2 || emits[0].Refs["event_name"] != "Root.Panic" || emits[0].Refs["consumer_count"] != 1 {
		t.Errorf("want W_EVENT_UNREACHABLE_EMIT on Root.Panic alone, with one consumer: %v", emits)
	}
}

// TestShadowedEventScopes: an event shadows one of an enclosing scope
// only; events of the same name in sibling scopes are not reported.
func TestShadowedEventScopes(t *testing.T) {
	src := `state Root {
    state A { event Tick; state A1; [*] -> A1; }
    state B { event Tick; state B1; [*] -> B1; }
    [*] -> A;
    A -> B :: Tick;
    B -> A :: Tick;
}
`
	res := Source("m.fcstm", []byte(src), Options{})
	for _, d := range res.Diagnostics {
		if d.Code == "W_SHADOWED_EVENT" {
			t.Errorf("sibling scopes reported: %v", d)
		}
	}
	src = `state Root {
    event Tick;
    state A { event Tick; state A1; [*] -> A1; }
    state B;
    [*] -> A;
    A -> B :: Tick;
    B -> A : Tick;
}
`
	res = Source("m.fcstm", []byte(src), Options{})
	var got []Diagnostic
	for _, d := range res.Diagnostics {
		if d.Code == "W_SHADOWED_EVENT" {
			got = append(got, d)
		}
	}
	if len(got) != 1 || got[0].Span.Line != 3 || got[0].Refs["local_path"] != "Root.A.Tick" || got[0].Refs["chain_path"] != "Root.Tick" {
		t.Errorf("want one on the inner declaration (line 3): %v", got)
	}
}
