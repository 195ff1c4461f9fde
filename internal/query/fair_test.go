package query

import (
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/sts"
)

func TestParseFair(t *testing.T) {
	q := mustParse(t, `check must_reach <= 4 fair { "Root.Go", 'Root.Stop' }: active("Root.Done");`)
	if got := nameList(q.Check.Fair); strings.Join(got, ",") != "Root.Go,Root.Stop" {
		t.Fatalf("Fair = %q", got)
	}
	if q.Check.FairSpan.Start.String() != "1:23" {
		t.Errorf("FairSpan starts at %s", q.Check.FairSpan.Start)
	}
	want := "check must_reach <= 4 fair { \"Root.Go\", \"Root.Stop\" }: active(\"Root.Done\");\n"
	if got := Format(q); got != want {
		t.Errorf("Format:\n got  %q\n want %q", got, want)
	}
	j, err := FormatJSON(q)
	if err != nil || !strings.Contains(string(j), `"fair":["Root.Go","Root.Stop"]`) {
		t.Errorf("FormatJSON = %s, %v", j, err)
	}
	// Without the clause the canonical forms are unchanged.
	plain := mustParse(t, `check must_reach <= 4: active("Root.Done");`)
	if j, _ := FormatJSON(plain); strings.Contains(string(j), "fair") {
		t.Errorf("FormatJSON without a clause = %s", j)
	}
	if Equal(q, plain) {
		t.Error("Equal ignores the fair clause")
	}
	// "fair" stays a variable name everywhere else.
	mustParse(t, `check reach <= 1: fair > 0;`)
}

func TestParseFairAll(t *testing.T) {
	q := mustParse(t, `check response <= 4 fair  * : trigger x > 0 -> within 2 y > 0;`)
	if !q.Check.FairAll || q.Check.Fair != nil {
		t.Fatalf("FairAll %v, Fair %v", q.Check.FairAll, q.Check.Fair)
	}
	if got, want := Format(q), "check response <= 4 fair *: trigger x > 0 -> within 2 y > 0;\n"; got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
	if j, _ := FormatJSON(q); !strings.Contains(string(j), `"fair":"*"`) {
		t.Errorf("FormatJSON = %s", j)
	}
	if Equal(q, mustParse(t, `check response <= 4 fair {"Root.Go"}: trigger x > 0 -> within 2 y > 0;`)) {
		t.Error("Equal: fair * is fair {\"Root.Go\"}")
	}
	if err := Bind(q, fairSystem(), BindOptions{}); err != nil {
		t.Error(err)
	}
	err := Bind(mustParse(t, `check reach <= 4 fair *: true;`), fairSystem(), BindOptions{})
	asError(t, "fair * on reach", err, ClassInvalid, CodeQueryShape, "1:18")
}

func TestParseFairErrors(t *testing.T) {
	for _, tc := range []struct{ src, pos, msg string }{
		{`check must_reach <= 4 fair: true;`, "1:27", `expected "{" or "*" after fair, found ":"`},
		{`check must_reach <= 4 fair {}: true;`, "1:29", "expected an event name string"},
		{`check must_reach <= 4 fair {tick}: true;`, "1:29", `expected an event name string, found identifier "tick"`},
		{`check must_reach <= 4 fair {"a" "b"}: true;`, "1:33", `expected "," or "}" in the fair event list`},
		{`check must_reach <= 4 fair {"a"} true;`, "1:34", `expected ":" or "fair" after the bound`},
		{`check must_reach <= 4 weak {"a"}: true;`, "1:23", `expected ":" or "fair" after the bound, found identifier "weak"`},
	} {
		_, err := Parse("q.fbmcq", tc.src)
		qe := asError(t, tc.src, err, ClassParse, CodeSyntax, tc.pos)
		if !strings.Contains(qe.Msg, tc.msg) {
			t.Errorf("%q: message %q does not contain %q", tc.src, qe.Msg, tc.msg)
		}
	}
}

// fairSystem is the test system with JSON step semantics (one event per
// step), the only semantics a fair clause is supported on.
func fairSystem() *sts.System {
	s := testSystem()
	s.OneEventPerStep = true
	return s
}

func TestBindFair(t *testing.T) {
	for _, src := range []string{
		`check must_reach <= 3 fair {"Root.Go"}: active("Root.Done");`,
		`assume always: x >= 0; assume event("Root.Go", 1) == true; check response <= 3 fair {"Root.Go", "Root.Stop"}: trigger event("Root.Go", current) -> within 2 called() || active("Root.Off");`,
	} {
		if err := Bind(mustParse(t, src), fairSystem(), BindOptions{}); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
	for _, tc := range []struct{ src, class, code, pos, msg string }{
		{`check must_reach <= 3 fair {"Root.Go", "Nope"}: true;`, ClassInvalid, CodeUnknownEvent, "1:40", `unknown event "Nope"`},
		{`check must_reach <= 3 fair {"Root.Go", "Root.Go"}: true;`, ClassInvalid, CodeQueryShape, "1:40", "listed twice"},
		{`check reach <= 3 fair {"Root.Go"}: true;`, ClassInvalid, CodeQueryShape, "1:18", "not to reach"},
		{`check invariant <= 3 fair {"Root.Go"}: true;`, ClassInvalid, CodeQueryShape, "1:22", "not to invariant"},
		{`check must_reach <= 3 fair {"Root.Go"}: cycle > 2;`, ClassInvalid, CodeCycleNotAllowed, "1:41", "frame index does not repeat"},
		{`assume always: cycle < 9; check must_reach <= 3 fair {"Root.Go"}: true;`, ClassInvalid, CodeCycleNotAllowed, "1:16", "frame index"},
		{`check response <= 3 fair {"Root.Go"}: trigger x > 0 -> within 1 called(-1..+0);`, ClassInvalid, CodeCallStepOutOfRange, "1:65", "anchor step only"},
		{`check must_reach <= 3 fair {"Root.Go"}: called(*);`, ClassInvalid, CodeCallStepOutOfRange, "1:41", "anchor step only"},
	} {
		err := Bind(mustParse(t, tc.src), fairSystem(), BindOptions{})
		qe := asError(t, tc.src, err, tc.class, tc.code, tc.pos)
		if !strings.Contains(qe.Msg, tc.msg) {
			t.Errorf("%q: message %q does not contain %q", tc.src, qe.Msg, tc.msg)
		}
	}
	// Free input events with the front end's record of which events a
	// cycle tests (FCSTM, System.Tests): the clause binds. Without that
	// record "enabled" and "taken" have no definition: unsupported.
	src := `check must_reach <= 3 fair {"Root.Go"}: true;`
	sys := testSystem()
	sys.Tests = map[int][]sts.Test{}
	if err := Bind(mustParse(t, src), sys, BindOptions{}); err != nil {
		t.Errorf("free inputs with event tests: %v", err)
	}
	err := Bind(mustParse(t, src), testSystem(), BindOptions{})
	qe := asError(t, src, err, ClassUnsupported, CodeUnsupportedFairness, "1:23")
	if !strings.Contains(qe.Msg, "event tests") {
		t.Errorf("message %q", qe.Msg)
	}
}
