package inspect

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/z3"
)

// needZ3 skips a test when libz3 cannot be loaded.
func needZ3(t *testing.T) {
	t.Helper()
	ctx, err := z3.NewContext()
	if errors.Is(err, z3.ErrNotInstalled) {
		t.Skip("libz3 is not installed")
	}
	if err != nil {
		t.Fatal(err)
	}
	ctx.Close()
}

// TestSMTUndecided: a guard outside the integer fragment (a float
// variable, true division) is an undecided question with its reason,
// never a diagnostic, even where the reals would call it dead; without
// --smt nothing is asked.
func TestSMTUndecided(t *testing.T) {
	needZ3(t)
	src := `def float f = 0.5;
def int x = 0;
state R {
    state A;
    state B;
    [*] -> A;
    A -> B : if [f > 1 && f < 0];
    B -> A : if [x / 2 > 1 && x < 0] effect { x = x + 1; f = f * 2; }
}`
	res := Source("m.fcstm", []byte(src), Options{SMT: true})
	if !res.Loaded {
		t.Fatal(res.Diagnostics)
	}
	for _, d := range res.Diagnostics {
		if d.Basis == BasisSMT {
			t.Errorf("decided outside the fragment: %+v", d)
		}
	}
	want := map[int]string{7: "not an int variable", 8: "may be a float"}
	got := map[int]string{}
	for _, u := range res.Undecided {
		if u.Code == "W_DEAD_GUARD" {
			got[u.Span.Line] = u.Reason
		}
	}
	for line, frag := range want {
		if !strings.Contains(got[line], frag) {
			t.Errorf("line %d: undecided %q, want a reason with %q (all: %+v)", line, got[line], frag, res.Undecided)
		}
	}
	if res := Source("m.fcstm", []byte(src), Options{}); res.Undecided != nil {
		t.Errorf("without SMT: %+v", res.Undecided)
	}
}

// TestSMTEffectWithIf: an effect whose if branches each leave x as it
// was is a no-op; one branch that changes x on some input is not.
func TestSMTEffectWithIf(t *testing.T) {
	needZ3(t)
	model := func(effect string) string {
		return "def int x = 0;\ndef int y = 0;\nstate R {\n state A;\n state B;\n [*] -> A;\n A -> B :: Go effect { " + effect + " }\n B -> A effect { y = y + 1; }\n}"
	}
	for effect, noop := range map[string]bool{
		"if [y > 0] { x = x + 0; } else { x = x * 1; }": true,
		"t = x; x = t;": true,
		"if [y > 0] { x = x + 0; } else { x = x + y; }": false, // y can be negative
		"if [y > 0] { x = x + 0; } else { x = x - y; }": false,
		"x = x + 1 - 1; y = y;":                         true,
	} {
		res := Source("m.fcstm", []byte(model(effect)), Options{SMT: true})
		if !res.Loaded || len(res.Undecided) > 0 {
			t.Fatalf("%s: %+v %+v", effect, res.Diagnostics, res.Undecided)
		}
		if got := slices.Contains(codesOf(res), "W_EFFECT_SMT_NO_OP"); got != noop {
			t.Errorf("%s: no-op %v, want %v", effect, got, noop)
		}
	}
}

// TestShadowedBySMT: with --smt, a transition whose guard the earlier
// transitions' guards cover together (taken first, into a stoppable leaf)
// has the reason shadowed, with basis smt when it is the only reason and
// the smt_local evidence id; a guard left partly uncovered is not
// claimed, and a guard outside the integer fragment is undecided.
func TestShadowedBySMT(t *testing.T) {
	needZ3(t)
	src := `def int x = 0;
def float f = 0.5;
state Root {
    state A { during { x = x + 1; f = f + 1.0; } }
    state B;
    state C;
    state D;
    [*] -> A;
    A -> B : if [x > 0];
    A -> C : if [x <= 0];
    A -> A : if [x == 3];
    B -> C : if [x > 5];
    B -> A : if [x > 7];
    B -> C : if [x > 2];
    C -> A : if [f > 1.0];
    C -> B : if [x > 9];
    D -> A : if [x > 1];
    D -> B : if [x > 4];
    B -> A : if [1 > 2];
}
`
	if got := transitionDiags(Source("m.fcstm", []byte(src), Options{})); len(got) != 3 || got[0].Span.Line != 17 || got[1].Span.Line != 18 {
		t.Fatalf("without --smt, only lines 17 and 18 (from an unreachable state): %v", got)
	}
	res := Source("m.fcstm", []byte(src), Options{SMT: true})
	want := map[int][]string{11: {"shadowed"}, 13: {"shadowed"}, 17: {"unreachable_source_state"}, 18: {"shadowed", "unreachable_source_state"}, 19: {"guard_false"}}
	got := transitionDiags(res)
	if len(got) != len(want) {
		t.Fatalf("want lines 11, 13, 17, 18 and 19: %v", got)
	}
	for _, d := range got {
		if d.Span.Line == 17 || d.Span.Line == 19 { // not claimed by the solver
			if !slices.Equal(d.Refs["reasons"].([]string), want[d.Span.Line]) || d.Refs["verify_backed"] != nil {
				t.Errorf("line %d: %+v", d.Span.Line, d)
			}
			continue
		}
		if !slices.Equal(d.Refs["reasons"].([]string), want[d.Span.Line]) || d.Refs["verify_backed"] != true ||
			!slices.Equal(d.Refs["verification_source_ids"].([]string), []string{"smt_local@smt_local"}) {
			t.Errorf("line %d: %+v", d.Span.Line, d)
		}
		if basis := map[bool]string{true: BasisStructural, false: BasisSMT}[d.Span.Line >= 17]; d.Basis != basis {
			t.Errorf("line %d: basis %s, want %s", d.Span.Line, d.Basis, basis)
		}
	}
	shadowed := map[int]string{}
	for _, d := range res.Diagnostics {
		if d.Code == "W_TRANSITION_SHADOWED" {
			shadowed[d.Span.Line] = fmt.Sprint(d.Refs["reason"], " ", d.Refs["shadowed_by_count"])
		}
	}
	if want := map[int]string{11: "prior_trigger_cover 2", 13: "guard_shadow 1", 18: "guard_shadow 1"}; !maps.Equal(shadowed, want) {
		t.Errorf("W_TRANSITION_SHADOWED %v, want %v", shadowed, want)
	}
	undecided := false
	for _, u := range res.Undecided {
		undecided = undecided || u.Code == "W_UNREACHABLE_TRANSITION" && u.Span.Line == 16
	}
	if !undecided {
		t.Errorf("line 16 (after a float guard) is not undecided: %+v", res.Undecided)
	}
}

// TestSMTInitialCombo: a combo trigger on an initial transition has no
// source to exit (the check once read the exit actions of a nil source),
// and its composite's initial coverage is not claimed from the other
// initial transitions alone.
func TestSMTInitialCombo(t *testing.T) {
	needZ3(t)
	src := `def int x = 0;
state R {
    state A { during { x = x + 1; } }
    state B;
    [*] -> A : [x > 0] + [x > -1];
    [*] -> B : if [x <= 0];
    A -> B : if [x > 9];
    B -> A : if [x < 0];
}
`
	res := Source("m.fcstm", []byte(src), Options{SMT: true})
	var got []string
	for _, d := range res.Diagnostics {
		if d.Basis == BasisSMT {
			got = append(got, fmt.Sprint(d.Code, "@", d.Span.Line))
		}
	}
	if want := []string{"W_COMBO_GUARD_PREFIX_IMPLIED@5"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
