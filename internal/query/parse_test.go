package query

import (
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
)

// The examples of docs/queries.md and their canonical text.
var examples = []struct{ src, canonical string }{
	{
		`init state("Root.Idle") havoc { x } where x == 7;
check reach <= 1: x == 7;`,
		`init state("Root.Idle") havoc {x} where x == 7;
check reach <= 1: x == 7;
`,
	},
	{
		`init state("Root.Idle");
assume always: x == 0;
assume event("Root.Go", 0) == false;
assume events cardinality at_most_one {"Root.Go"};
check invariant <= 1: x == 0;`,
		`init state("Root.Idle");
assume always: x == 0;
assume event("Root.Go", 0) == false;
assume events cardinality at_most_one {"Root.Go"};
check invariant <= 1: x == 0;
`,
	},
	{
		`init state("Root.Idle");
assume event("Root.Go", 0) == true;
check cover <= 1: case("Root.Idle::transition::Root.Done::0");`,
		`init state("Root.Idle");
assume event("Root.Go", 0) == true;
check cover <= 1: case("Root.Idle::transition::Root.Done::0");
`,
	},
	{
		`init state("Root.Idle");
check reach <= 1: called("Root.Idle.Tick", step=0, role="leaf_during", where x == 0)
                  && call_count("Root.Idle.Tick", step=*) == 1;`,
		`init state("Root.Idle");
check reach <= 1: called("Root.Idle.Tick", step=0, role="leaf_during", where x == 0) && call_count("Root.Idle.Tick", step=*) == 1;
`,
	},
	{
		`init state("Root.Idle");
assume event("Root.Go", 0) == true;
check response <= 1: trigger event("Root.Go", current) -> within 1 active("Root.Done");`,
		`init state("Root.Idle");
assume event("Root.Go", 0) == true;
check response <= 1: trigger event("Root.Go", current) -> within 1 active("Root.Done");
`,
	},
}

func TestExamples(t *testing.T) {
	for i, ex := range examples {
		q := mustParse(t, ex.src)
		if got := Format(q); got != ex.canonical {
			t.Errorf("example %d prints as\n%s\nwant\n%s", i+1, got, ex.canonical)
		}
		checkRoundTrip(t, ex.src)
		if err := Bind(q, testSystem(), BindOptions{}); err != nil {
			t.Errorf("example %d does not bind: %v", i+1, err)
		}
	}
}

func TestParseStructure(t *testing.T) {
	q := mustParse(t, `/* header */ init state("Root.Idle") havoc {x, "y"} where x > 0; # c
assume always: true; // c
assume at 2: x == 1;
assume event("Root.Go", *) != false;
assume event("Root.Go", 1..2) != true;
assume event("Root.Stop", 0x1) == true;
assume events cardinality any;
assume events cardinality at_most_one {"Root.Go", "Root.Stop"};
check response <= 3: trigger x > 0 -> within 2 y > 0;`)
	in := q.Init
	if in == nil || in.Mode != State || in.State.Name != "Root.Idle" || in.HavocAll ||
		len(in.Havoc) != 2 || in.Havoc[1].Name != "y" || in.Where == nil {
		t.Fatalf("init = %+v", in)
	}
	if in.Span.Start.String() != "1:14" || in.State.Span.Start.String() != "1:25" {
		t.Errorf("init spans %v %v", in.Span, in.State.Span)
	}
	want := []Assume{
		{Kind: AssumeAlways},
		{Kind: AssumeAt, Frame: 2, Index: 1},
		{Kind: AssumeEvent, Steps: StepRange{All: true}, Value: true, Index: 2},
		{Kind: AssumeEvent, Steps: StepRange{Lo: 1, Hi: 2, Range: true}, Value: false, Index: 3},
		{Kind: AssumeEvent, Steps: StepRange{Lo: 1, Hi: 1}, Value: true, Index: 4},
		{Kind: AssumeCardinality, Any: true, Index: 5},
		{Kind: AssumeCardinality, Index: 6},
	}
	if len(q.Assumes) != len(want) {
		t.Fatalf("%d assumptions", len(q.Assumes))
	}
	for i, w := range want {
		a := q.Assumes[i]
		if a.Kind != w.Kind || a.Frame != w.Frame || a.Steps != w.Steps || a.Value != w.Value || a.Any != w.Any || a.Index != w.Index {
			t.Errorf("assumption %d = %+v, want %+v", i, a, w)
		}
	}
	if p := q.Assumes[6].Pool; len(p) != 2 || p[1].Name != "Root.Stop" {
		t.Errorf("pool %+v", p)
	}
	c := q.Check
	if c.Kind != Response || c.Bound != 3 || c.Window != 2 || c.Body != nil ||
		expr.Format(c.Trigger) != "x > 0" || expr.Format(c.Target) != "y > 0" {
		t.Errorf("check %+v", c)
	}
	if c.BoundSpan.Start.String() != "9:19" || c.WindowSpan.Start.String() != "9:46" {
		t.Errorf("check spans %v %v", c.BoundSpan, c.WindowSpan)
	}
	if q.Assumes[1].FrameSpan.Start.String() != "3:11" || q.Assumes[3].StepsSpan.Start.String() != "5:25" {
		t.Errorf("assume spans %v %v", q.Assumes[1].FrameSpan, q.Assumes[3].StepsSpan)
	}
}

func TestParseInitForms(t *testing.T) {
	for _, tc := range []struct {
		src  string
		mode InitMode
		nil_ bool
	}{
		{"check reach <= 1: true;", Cold, true},
		{"init cold; check reach <= 1: true;", Cold, false},
		{"init terminated havoc * where terminated(); check reach <= 1: true;", Terminated, false},
		{`init state('A.B') havoc {"cycle"}; check reach <= 1: true;`, State, false},
	} {
		q := mustParse(t, tc.src)
		if (q.Init == nil) != tc.nil_ || q.Init != nil && q.Init.Mode != tc.mode {
			t.Errorf("%q: init %+v", tc.src, q.Init)
		}
		checkRoundTrip(t, tc.src)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, pos, msg string }{
		{"check reach <= : true;", "1:16", `expected an integer bound after "<=", found ":"`},
		{"", "1:1", `expected "init", "assume" or "check", found end of input`},
		{"   \n  // nothing\n", "3:1", "found end of input"},
		{"check reach <= 1: true", "1:23", `expected ";" at the end of the check clause, found end of input`},
		{"check reach <= 1: true; check reach <= 1: true;", "1:25", "exactly one check clause"},
		{"init;", "1:5", `expected "cold", "terminated" or "state" after init, found ";"`},
		{"init state(Root);", "1:12", `expected a state path string, found identifier "Root"`},
		{"init cold havoc {};", "1:18", `expected a variable name (identifier or string), found "}"`},
		{"init cold havoc {state};", "1:18", `"state" is a query keyword`},
		{"init cold havoc {x y};", "1:20", `expected "," or "}" in the havoc list`},
		{"init cold where x > 0 havoc *;", "1:23", `expected ";" at the end of the init clause, found keyword "havoc"`},
		{"init cold x;", "1:11", `expected "havoc", "where" or ";"`},
		{"assume at x: true;", "1:11", `expected a frame index after "assume at", found identifier "x"`},
		{"assume at -1: true;", "1:11", `found "-"`},
		{`assume event("A", x) == true;`, "1:19", `expected an event selector ("*", k or a..b)`},
		{`assume event("A", 1..) == true;`, "1:22", "expected the end of the step range"},
		{`assume event("A", 1) = true;`, "1:22", `expected "==" or "!=", found "="`},
		{`assume event("A", 1) == yes;`, "1:25", `expected true or false, found identifier "yes"`},
		{`assume event(A, 1) == true;`, "1:14", "expected an event name string"},
		{"assume events cardinality at_most_one {};", "1:40", "expected an event name string"},
		{"assume events cardinality some;", "1:27", `expected "any" or "at_most_one"`},
		{"assume events some;", "1:15", `expected "cardinality" after "assume events"`},
		{"assume never: true;", "1:8", `expected "always", "at", "event" or "events" after assume`},
		{"assume always: true; init cold;", "1:22", "the init clause comes first"},
		{"check foo <= 1: true;", "1:7", "expected a property kind (reach, forbid, invariant, must_reach, exists_always, response, cover, ltl)"},
		{"check reach < 1: true;", "1:13", `expected "<=" after the property kind, found "<"`},
		{"check reach <= 1.5: true;", "1:16", "found number 1.5"},
		{"check reach <= 99999999999: true;", "1:16", "too large"},
		{"check response <= 1: trigger true within 1 true;", "1:35", `expected "->" after the trigger, found keyword "within"`},
		{"check response <= 1: trigger true -> 1 true;", "1:38", `expected "within" after "->"`},
		{"check reach <= 1: x +;", "1:22", `expected an expression, found ";"`},
		{"check reach <= 1: foo(1);", "1:19", `unknown function "foo"`},
		{"check reach <= 1: active(1);", "1:26", "the first argument of active(...) must be a state path string"},
		{`check reach <= 1: active("A", -1);`, "1:31", "expected a frame selector (current or an integer)"},
		{`check reach <= 1: active("A", current, 1);`, "1:19", "active(...) takes a state path and an optional frame selector, found 3"},
		{`check reach <= 1: active(s="A");`, "1:26", "takes positional arguments only"},
		{`check reach <= 1: event("A");`, "1:19", "event(...) takes an event name and a frame selector"},
		{`check reach <= 1: terminated(now);`, "1:30", "expected a frame selector"},
		{`check reach <= 1: var(x) > 0;`, "1:23", "must be a variable name string"},
		{`check reach <= 1: called(x > 1);`, "1:26", "expected an action path string or a step selector"},
		{`check reach <= 1: called(1..x);`, "1:26", "expected an action path string or a step selector"},
		{`check reach <= 1: called(state=x);`, "1:32", "state= takes a state path string"},
		{`check reach <= 1: called(where=1);`, "1:26", `"where" cannot name a call filter dimension`},
		{`check reach <= 1: called(role=x + 1);`, "1:31", "role= takes a string, a name or a step selector"},
		{`check reach <= 1: called(where state > 0);`, "1:32", `"state" is a query keyword`},
		{`check reach <= 1: "s" == "s";`, "1:19", "a string is only allowed as an atom argument"},
		{`check reach <= 1: current;`, "1:19", `"current" is only a frame selector`},
		{`check reach <= 1: at > 0;`, "1:19", `write var("at")`},
		{"init cold;\nassume always:\n  x == 0 y;\ncheck reach <= 1: true;", "3:10", `expected ";" at the end of the assume clause, found identifier "y"`},
		{"check reach <= 1: true; /* open", "1:25", "unterminated /* comment"},
		{`check reach <= 1: active("A);`, "1:26", "unterminated string literal"},
		{"check reach <= 1: x @ 1;", "1:21", "unexpected character '@'"},
	} {
		_, err := Parse("q.fbmcq", tc.src)
		qe := asError(t, tc.src, err, ClassParse, CodeSyntax, tc.pos)
		if !strings.Contains(qe.Msg, tc.msg) {
			t.Errorf("%q: message %q does not contain %q", tc.src, qe.Msg, tc.msg)
		}
		if want := "q.fbmcq:" + tc.pos + ": "; !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), " [syntax]") {
			t.Errorf("%q: error text %q", tc.src, err.Error())
		}
	}
}

func TestErrorText(t *testing.T) {
	_, err := Parse("", "check reach <= : true;")
	if got, want := err.Error(), `1:16: expected an integer bound after "<=", found ":" [syntax]`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
