package runtime

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

func parsed(t *testing.T, src string, opts Options) *Runtime {
	t.Helper()
	m, err := model.Parse("test.fcstm", src, model.Options{})
	if err != nil {
		t.Fatalf("model: %v", err)
	}
	r, err := New(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// cbrt is pyfcstm's x ** (1/3) (issue 27 item 2): cbrt(64.0) is
// 3.9999999999999996, and a negative argument makes the cycle raise a
// domain error, the state staying where it was.
func TestCbrtAsPyfcstm(t *testing.T) {
	r := parsed(t, `def float f = 64.0;
def float g = 0.0;
state R {
    state A { during { g = cbrt(f); f = f - 100.0; } }
    [*] -> A;
}
`, Options{})
	if _, err := r.Cycle(nil); err != nil {
		t.Fatal(err)
	}
	if g, _ := r.Vars()["g"].Float(); g != 3.9999999999999996 {
		t.Errorf("cbrt(64.0) = %v, want 3.9999999999999996", g)
	}
	_, err := r.Cycle(nil)
	var u *expr.Undefined
	if !errors.As(err, &u) || u.Cause != expr.DomainError {
		t.Fatalf("cbrt(-36.0): %v, want a domain error", err)
	}
	if f, _ := r.Vars()["f"].Float(); f != -36 {
		t.Errorf("after the raising cycle f = %v, want -36 (unchanged)", f)
	}
}

// deepModel nests n composites under the root, one leaf at the bottom.
func deepModel(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "state S%d {\n", i)
	}
	b.WriteString("state L;\n[*] -> L;\n")
	for i := n - 1; i >= 0; i-- {
		if i < n-1 {
			fmt.Fprintf(&b, "[*] -> S%d;\n", i+1)
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// A 100-level nesting cannot run: every cycle raises a limit error
// located at the first state beyond the stack limit, and the machine stays
// as it was (issue 29 item 4).
func TestDeepNestingLimitErrorLocated(t *testing.T) {
	r := parsed(t, deepModel(100), Options{})
	for range 2 {
		_, err := r.Cycle(nil)
		var e *Error
		if !errors.As(err, &e) || e.Class != ClassLimit || e.Pos.Line != 65 || e.Pos.File != "test.fcstm" {
			t.Fatalf("cycle: %v (%+v), want a limit error at test.fcstm:65", err, e)
		}
		if r.State() != "S0" {
			t.Errorf("state %s after the error", r.State())
		}
	}
}
