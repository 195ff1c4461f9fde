package runtime

import (
	"errors"
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
