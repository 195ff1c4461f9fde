package lower

import (
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/z3"
)

// encodingText lowers src and prints its bounded encoding to depth steps
// in a fresh Z3 context (SMT-LIB): the tracked shape as its solver holds
// it, and the lean shape (bmc's) group by group.
func encodingText(t *testing.T, src string, depth int) string {
	t.Helper()
	sys := lower(t, src)
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	// As bmc does for a solve: no term dies while the encodings are built
	// and printed, so Z3 numbers them (and names their shared parts) in
	// the order they are built, whenever Go's collector runs.
	defer ctx.Hold()()
	enc, err := smt.NewEncoding(ctx, sys)
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.Unroll(depth); err != nil {
		t.Fatal(err)
	}
	text := enc.Solver.String()
	lean, err := smt.NewLeanEncoding(ctx, sys, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := lean.Unroll(depth); err != nil {
		t.Fatal(err)
	}
	for _, g := range lean.Groups {
		text += g.ID + " " + g.Formula.String() + "\n"
	}
	return text
}

// TestEncodingIsDeterministic: lowering and encoding the same model gives
// the same SMT-LIB text every time (issue 27 item 8: the same query's time
// must not depend on the run). Go randomises map iteration per map, so an
// order taken from a map would differ between these encodings.
func TestEncodingIsDeterministic(t *testing.T) {
	srcs := []string{fcstmtest.PseudoChain(6, nil), fcstmtest.PseudoChain(3, nil)}
	for seed := uint64(1); seed <= 3; seed++ {
		srcs = append(srcs, fcstmtest.RandomModel(seed))
	}
	for i, src := range srcs {
		want := encodingText(t, src, 3)
		for range 2 {
			if got := encodingText(t, src, 3); got != want {
				t.Fatalf("model %d: two encodings differ\n%s", i, src)
			}
		}
	}
}
