package format

import "testing"

// TestFBMCQFairClause: the fairness extension of a check clause
// (docs/queries.md#fairness) is laid out as an inline set and reads back
// as the same query.
func TestFBMCQFairClause(t *testing.T) {
	src := "check must_reach <= 4   fair {\"tick\",'b'} : active(\"GREEN\"); // live\n"
	want := "check must_reach <= 4 fair { \"tick\", 'b' }: active(\"GREEN\"); // live\n"
	got, err := Source("q.fbmcq", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	again, err := Source("q.fbmcq", got)
	if err != nil || string(again) != string(got) {
		t.Errorf("not idempotent: %q, %v", again, err)
	}
}
