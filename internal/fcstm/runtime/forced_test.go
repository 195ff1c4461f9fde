package runtime

import "testing"

// Forced transitions come before the owner's written transitions, as in
// pyfcstm (issue 27 item 6): with Go both an ordinary A -> B and the
// forced !A -> C are enabled, and the forced one, although written
// after, is taken.
func TestForcedBeforeWritten(t *testing.T) {
	r := parsed(t, `state R {
    state A;
    state B;
    state C;
    [*] -> A;
    A -> B : Go;
    !A -> C : Go;
}
`, Options{})
	if _, err := r.Cycle(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Cycle([]string{"R.Go"}); err != nil {
		t.Fatal(err)
	}
	if r.State() != "R.C" {
		t.Errorf("after Go: %s, want R.C (the forced transition first)", r.State())
	}
}
