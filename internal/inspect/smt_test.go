package inspect

import (
	"errors"
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
