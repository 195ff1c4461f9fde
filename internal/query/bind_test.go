package query

import (
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
)

func TestBindValid(t *testing.T) {
	for _, src := range []string{
		`check reach <= 2: cycle == 1 && active("Root") && active("Root.Idle", current) && terminated() && var("state") > 0 && f > 0.5 && b;`,
		`init terminated havoc * where terminated() && !active("Root.Off");` + ` check reach <= 1: true;`,
		`init state("Root.Done") havoc {x, "y"} where x == y; check reach <= 1: true;`,
		`init cold where x == 0; assume always: cycle < 2 || x > 0; assume at 2: x == 0; check reach <= 2: true;`,
		`assume event("Root.Go", *) == true; assume event("Root.Stop", 0..1) != true; assume event("Root.Stop", 1) == false; check reach <= 2: true;`,
		`assume events cardinality any; assume events cardinality at_most_one {"Root.Go", "Root.Stop"}; check forbid <= 1: x % 2 == 1;`,
		`check reach <= 1: x ** 2 > 1 && sqrt(f) > 1 && abs(x) + floor(f) + round(f) + ceil(f) + trunc(f) + sign(x) > 0 && f ** 0 == 1;`,
		`check must_reach <= 1: called(named_ref="Root.Idle.Ref", state="Root.Idle", active_leaf="Root.Idle", role=leaf_during, action="Root.Idle.Tick", where b && x > f);`,
		`check response <= 3: trigger event("Root.Go", current) && called() && cycle > 0 -> within 2 call_count("Root.Idle.Tick", -1..+1, stage=during, named_ref=null) >= 1;`,
		`check cover <= 1: case("Root.Done::fallback::Root.Done::0", current);`,
		`check invariant <= 3: called(2) || called(..2) || called(0..) || called(step=-5..+5, where var("state") == 1);`,
		`check exists_always <= 1: (b) ? x > 0 : f < 1.5;`,
	} {
		q := mustParse(t, src)
		if err := Bind(q, testSystem(), BindOptions{MaxBound: 3}); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

func TestBindFillsCalls(t *testing.T) {
	q := mustParse(t, `check reach <= 4: called() && call_count("Root.Idle.Tick", -1..+2, stage=during, named_ref=null) == 2
		&& called(step=*, named_ref="Root.Idle.Ref") && called(..2) && called(1..) && called(3, where x > 0);`)
	if err := Bind(q, testSystem(), BindOptions{}); err != nil {
		t.Fatal(err)
	}
	var got []*CallFilter
	for _, a := range expr.Atoms(q.Check.Body) {
		if a.Name == "called" || a.Name == "call_count" {
			f := q.Calls[a]
			if f == nil {
				t.Fatalf("%s has no filter", expr.Format(a))
			}
			got = append(got, f)
		}
	}
	if len(got) != 6 || len(q.Calls) != 6 {
		t.Fatalf("%d filters, %d in Calls", len(got), len(q.Calls))
	}
	anchor := CallSteps{LoRel: true, HiRel: true}
	want := []struct {
		steps        CallSteps
		action       string
		stage        string
		ref          *string
		where        bool
		lo, hi, a, n int // Window(a, n) = lo, hi
	}{
		{steps: anchor, lo: 2, hi: 2, a: 2, n: 4},
		{steps: CallSteps{Lo: -1, Hi: 2, LoRel: true, HiRel: true}, action: "Root.Idle.Tick", stage: "during", ref: new(string), lo: 0, hi: 2, a: 0, n: 4},
		{steps: CallSteps{All: true}, ref: ptr("Root.Idle.Ref"), lo: 0, hi: 3, a: 1, n: 4},
		{steps: CallSteps{Lo: 0, Hi: 2, LoRel: true}, lo: 1, hi: 2, a: 1, n: 4},
		{steps: CallSteps{Lo: 1, Hi: 0, HiRel: true}, lo: 1, hi: 3, a: 3, n: 4},
		{steps: CallSteps{Lo: 3, Hi: 3}, where: true, lo: 3, hi: 3, a: 0, n: 4},
	}
	for i, w := range want {
		f := got[i]
		if f.Steps != w.steps || f.Action != w.action || f.Stage != w.stage || (f.Where != nil) != w.where ||
			(f.NamedRef == nil) != (w.ref == nil) || f.NamedRef != nil && *f.NamedRef != *w.ref {
			t.Errorf("filter %d = %+v, want %+v", i, f, w)
		}
		if lo, hi := f.Steps.Window(w.a, w.n); lo != w.lo || hi != w.hi {
			t.Errorf("filter %d: Window(%d, %d) = %d, %d; want %d, %d", i, w.a, w.n, lo, hi, w.lo, w.hi)
		}
	}
}

func TestBindCoverLabel(t *testing.T) {
	q := mustParse(t, examples[2].src)
	if err := Bind(q, testSystem(), BindOptions{}); err != nil {
		t.Fatal(err)
	}
	if q.Check.CaseLabel != "Root.Idle::transition::Root.Done::0" {
		t.Errorf("CaseLabel = %q", q.Check.CaseLabel)
	}
	// A failed bind leaves nothing behind.
	q = mustParse(t, `check cover <= 1: case("nope");`)
	q.Check.CaseLabel = "stale"
	if err := Bind(q, testSystem(), BindOptions{}); err == nil || q.Check.CaseLabel != "" || q.Calls != nil {
		t.Errorf("failed bind: err %v, label %q, calls %v", err, q.Check.CaseLabel, q.Calls)
	}
}

type bindErrCase struct {
	src         string
	max         int
	class, code string
	pos, msg    string
}

const (
	inv = ClassInvalid
	uns = ClassUnsupported
)

// bindShapeCases: bounds, body shapes, cover, names of states, variables and havoc.
func bindShapeCases() []bindErrCase {
	return []bindErrCase{
		{"check reach <= 0: true;", 0, inv, CodeQueryShape, "1:16", "the bound must be at least 1"},
		{"check reach <= 6: true;", 5, inv, CodeQueryShape, "1:16", "exceeds the maximum bound 5"},
		{"check response <= 1: trigger true -> within 0 true;", 0, inv, CodeQueryShape, "1:45", "window must be at least 1"},
		{"check response <= 1: x > 0;", 0, inv, CodeQueryShape, "1:22", "trigger t -> within W r"},
		{"check reach <= 1: trigger true -> within 1 true;", 0, inv, CodeQueryShape, "1:27", "body of a response check only"},
		{`check cover <= 1: active("Root.Idle");`, 0, inv, CodeCoverPredicate, "1:19", `naked case("label")`},
		{`check cover <= 1: case("Root.Idle::transition::Root.Done::0") && true;`, 0, inv, CodeCoverPredicate, "1:19", "naked"},
		{`check cover <= 1: case("nope");`, 0, inv, CodeCoverPredicate, "1:24", `unknown case label "nope"`},
		{`check cover <= 1: case("Root.Idle::stuck::Root.Idle::0");`, 0, inv, CodeCoverPredicate, "1:24", "has kind delta; cover needs a transition or fallback case"},
		{`check cover <= 1: case("__init__::initial::Root.Idle::0");`, 0, inv, CodeCoverPredicate, "1:24", "has kind initial; cover needs a transition or fallback case"},
		{`check cover <= 1: case("Root.Off::absorb::Root.Off::0");`, 0, inv, CodeCoverPredicate, "1:24", "has kind absorb; cover needs a transition or fallback case"},
		{`init state("Root.Nope"); check reach <= 1: true;`, 0, inv, CodeUnknownState, "1:12", `unknown state "Root.Nope" (known states: "Root", "Root.Done"`},
		{`init state("Root"); check reach <= 1: true;`, 0, inv, CodeUnknownState, "1:12", "composite state"},
		{`init state("__init__"); check reach <= 1: true;`, 0, inv, CodeReservedStatePath, "1:12", "reserved sentinel"},
		{`check reach <= 1: active("__terminate__");`, 0, inv, CodeReservedStatePath, "1:26", "reserved"},
		{`check reach <= 1: active("Root.Nope");`, 0, inv, CodeUnknownState, "1:26", `unknown state "Root.Nope"`},
		{`init cold havoc {x, "x"}; check reach <= 1: true;`, 0, inv, CodeDuplicateHavocVariable, "1:21", `"x" is havocked twice`},
		{`init cold havoc {z}; check reach <= 1: true;`, 0, inv, CodeUnknownVariable, "1:18", `unknown variable "z" in the havoc list`},
		{`check reach <= 1: z > 0;`, 0, inv, CodeUnknownVariable, "1:19", `unknown variable "z" (known variables: "b", "f", "state", "x", "y")`},
		{`check reach <= 1: var("z") > 0;`, 0, inv, CodeUnknownVariable, "1:23", `unknown variable "z"`},
		{`assume events cardinality at_most_one {"Root.Go", "Root.Go"}; check reach <= 1: true;`, 0, inv, CodeQueryShape, "1:51", "listed twice"},
	}
}

// bindContextCases: context rules (docs/queries.md), frame and event selectors, events.
func bindContextCases() []bindErrCase {
	return []bindErrCase{
		{`check cover <= 2: case("Root.Idle::transition::Root.Done::0", 1);`, 0, inv, CodeExplicitFrameSelector, "1:63", "omitted or current"},
		{`check cover <= 2: case("Root.Idle::transition::Root.Done::0", 5);`, 0, inv, CodeFrameSelectorOutOfRange, "1:63", "outside the frames 0..2"},
		{`check reach <= 1: case("Root.Idle::transition::Root.Done::0");`, 0, inv, CodeCaseNotAllowed, "1:19", "naked body of a cover check"},
		{`init cold where cycle == 0; check reach <= 1: true;`, 0, inv, CodeCycleNotAllowed, "1:17", "cycle is not allowed in the init where clause"},
		{`init cold where event("Root.Go", current); check reach <= 1: true;`, 0, inv, CodeEventNotAllowed, "1:17", "only allowed in a response trigger"},
		{`assume always: call_count() == 0; check reach <= 1: true;`, 0, inv, CodeCallCountNotAllowed, "1:16", "not allowed in a frame assumption"},
		{`assume at 1: event("Root.Go", current); check reach <= 1: true;`, 0, inv, CodeEventNotAllowed, "1:14", "not in a frame assumption"},
		{`assume always: case("Root.Idle::transition::Root.Done::0"); check reach <= 1: true;`, 0, inv, CodeCaseNotAllowed, "1:16", "not in a frame assumption"},
		{`check reach <= 1: event("Root.Go", current);`, 0, inv, CodeEventNotAllowed, "1:19", "not in a property body"},
		{`check response <= 2: trigger true -> within 1 event("Root.Go", current);`, 0, inv, CodeEventNotAllowed, "1:47", "not in a response target"},
		{`check response <= 2: trigger event("Root.Go", 1) -> within 1 true;`, 0, inv, CodeExplicitFrameSelector, "1:47", "event assumption"},
		{`check response <= 2: trigger event("Root.Nope", current) -> within 1 true;`, 0, inv, CodeUnknownEvent, "1:36", `unknown event "Root.Nope" (known events: "Root.Go", "Root.Stop")`},
		{`check reach <= 2: active("Root.Idle", 1);`, 0, inv, CodeExplicitFrameSelector, "1:39", "frame selector may only be omitted or current"},
		{`check reach <= 2: terminated(3);`, 0, inv, CodeFrameSelectorOutOfRange, "1:30", "outside the frames 0..2"},
		{`check reach <= 2: terminated(2);`, 0, inv, CodeExplicitFrameSelector, "1:30", "found 2"},
		{`assume at 3: true; check reach <= 2: true;`, 0, inv, CodeFrameSelectorOutOfRange, "1:11", "must be in 0..2"},
		{`assume event("Root.Go", 2) == true; check reach <= 2: true;`, 0, inv, CodeEventSelectorOutOfRange, "1:25", "outside the steps 0..1"},
		{`assume event("Root.Go", 1..2) == true; check reach <= 2: true;`, 0, inv, CodeEventRangeOutOfRange, "1:25", "0 <= start <= end <= 1"},
		{`assume event("Root.Go", 1..0) == true; check reach <= 2: true;`, 0, inv, CodeEventRangeOutOfRange, "1:25", "1..0"},
		{`assume event("Root.Nope", *) == true; check reach <= 2: true;`, 0, inv, CodeUnknownEvent, "1:14", `unknown event "Root.Nope"`},
		{`assume events cardinality at_most_one {"Root.Go", "Root.Nope"}; check reach <= 1: true;`, 0, inv, CodeUnknownEvent, "1:51", "Root.Nope"},
	}
}

// bindCallCases: call filters (docs/queries.md).
func bindCallCases() []bindErrCase {
	return []bindErrCase{
		{`init cold where called(); check reach <= 1: true;`, 0, inv, CodeCalledNotAllowed, "1:17", "called(...) is not allowed in the init where clause"},
		{`check reach <= 1: called("Root.Nope");`, 0, inv, CodeUnknownCallAction, "1:26", `unknown call action "Root.Nope" (known actions: "Root.Done.Leave", "Root.Idle.Tick")`},
		{`check reach <= 1: called(action=Tick);`, 0, inv, CodeUnknownCallAction, "1:33", `"Tick"`},
		{`check reach <= 1: called(action=1);`, 0, inv, CodeQueryShape, "1:33", "action= takes an action path string"},
		{`check reach <= 1: called(stage="begin");`, 0, inv, CodeCallStage, "1:32", `"enter", "during" or "exit"`},
		{`check reach <= 1: called(stage=1);`, 0, inv, CodeCallStage, "1:32", "call stage"},
		{`check reach <= 1: called(role=leaf);`, 0, inv, CodeCallRole, "1:31", `unknown call role "leaf"`},
		{`check reach <= 2: called(step=2);`, 0, inv, CodeCallStepOutOfRange, "1:31", "outside the steps 0..1"},
		{`check reach <= 2: called(0..5);`, 0, inv, CodeCallStepOutOfRange, "1:29", "absolute call step 5"},
		{`check reach <= 2: called(step="x");`, 0, inv, CodeQueryShape, "1:31", "step= takes a step selector"},
		{`check reach <= 1: called(named_ref="Nope");`, 0, inv, CodeUnknownNamedRef, "1:36", `unknown named ref "Nope" (known named refs: "Root.Idle.Ref")`},
		{`check reach <= 1: called(named_ref=nothing);`, 0, inv, CodeQueryShape, "1:36", "string or null"},
		{`check reach <= 1: called(0, "Root.Idle.Tick");`, 0, inv, CodeQueryShape, "1:29", "action path must be the first argument"},
		{`check reach <= 1: called(stage=enter, 0);`, 0, inv, CodeQueryShape, "1:39", "before the named dimensions"},
		{`check reach <= 1: called(step=0, 0);`, 0, inv, CodeQueryShape, "1:34", "step dimension is given twice"},
		{`check reach <= 1: called("Root.Idle.Tick", 0, 1);`, 0, inv, CodeQueryShape, "1:47", "step dimension is given twice"},
		{`check reach <= 1: called(0, step=0);`, 0, inv, CodeQueryShape, "1:29", "step dimension is given twice"},
		{`check reach <= 1: called(stage=enter, stage=exit);`, 0, inv, CodeQueryShape, "1:39", "given twice"},
		{`check reach <= 1: called(where b, stage=enter);`, 0, inv, CodeQueryShape, "1:35", "where must be the last argument"},
		{`check reach <= 1: called(where b, where b);`, 0, inv, CodeQueryShape, "1:35", "where is given twice"},
		{`check reach <= 1: called(colour="red");`, 0, inv, CodeQueryShape, "1:26", `unknown call filter dimension "colour"`},
		{`check reach <= 1: called(state="Root.Nope");`, 0, inv, CodeUnknownState, "1:32", "Root.Nope"},
		{`check reach <= 1: called(active_leaf="__init__");`, 0, inv, CodeReservedStatePath, "1:38", "reserved"},
		{`check reach <= 1: called(where cycle > 0);`, 0, inv, CodeCycleNotAllowed, "1:32", "call filter's where clause"},
		{`check reach <= 1: called(where active("Root.Idle"));`, 0, inv, CodeCallWhereAtomNotAllowed, "1:32", "snapshot variables only"},
		{`check reach <= 1: called(where terminated());`, 0, inv, CodeCallWhereAtomNotAllowed, "1:32", "terminated"},
		{`check reach <= 1: called(where called());`, 0, inv, CodeCalledNotAllowed, "1:32", "call filter's where clause"},
		{`check reach <= 1: called(where call_count() > 0);`, 0, inv, CodeCallCountNotAllowed, "1:32", "call filter's where clause"},
		{`check reach <= 1: called(where z > 0);`, 0, inv, CodeUnknownVariable, "1:32", `"z"`},
	}
}

// bindTypeCases: typing and the executable profile; invalid beats unsupported.
func bindTypeCases() []bindErrCase {
	return []bindErrCase{
		{`check reach <= 1: called(where x);`, 0, inv, CodeTypeMismatch, "1:32", "call filter's where clause must be a condition (bool), found int"},
		{`check reach <= 1: x;`, 0, inv, CodeTypeMismatch, "1:19", "a property body must be a condition (bool), found int"},
		{`check reach <= 1: x + b > 0;`, 0, inv, CodeTypeMismatch, "1:23", "must be a numeric expression, found bool"},
		{`check reach <= 1: x == b;`, 0, inv, CodeTypeMismatch, "1:19", "never mix"},
		{`check reach <= 1: call_count() && true;`, 0, inv, CodeTypeMismatch, "1:19", "found int"},
		{`check reach <= 1: sin(f) > 0;`, 0, uns, CodeUnsupportedFunctionExpr, "1:19", "sin(...) is not in the executable profile"},
		{`check reach <= 1: log1p(f) > 0;`, 0, uns, CodeUnsupportedFunctionExpr, "1:19", "log1p"},
		{`check reach <= 1: (x & 1) == 0;`, 0, uns, CodeUnsupportedBitwiseExpr, "1:19", `bitwise operator "&"`},
		{`check reach <= 1: x | 1 == 0;`, 0, uns, CodeUnsupportedBitwiseExpr, "1:19", `"|"`},
		{`check reach <= 1: x ^ 1 == 0;`, 0, uns, CodeUnsupportedBitwiseExpr, "1:19", `"^"`},
		{`check reach <= 1: x << 1 > 0;`, 0, uns, CodeUnsupportedShiftExpr, "1:19", `shift operator "<<"`},
		{`check reach <= 1: x >> 1 > 0;`, 0, uns, CodeUnsupportedShiftExpr, "1:19", `">>"`},
		{`check reach <= 1: f % 2 > 0;`, 0, uns, CodeUnsupportedRealModExpr, "1:19", "float operand"},
		{`check reach <= 1: x % 2.0 > 0;`, 0, uns, CodeUnsupportedRealModExpr, "1:19", "float operand"},
		{`check reach <= 1: x ** y > 0;`, 0, uns, CodeUnsupportedPowerExpr, "1:19", `found "y"`},
		{`check reach <= 1: x ** 65 > 0;`, 0, uns, CodeUnsupportedPowerExpr, "1:19", "0..64"},
		{`check reach <= 1: x ** -1 > 0;`, 0, uns, CodeUnsupportedPowerExpr, "1:19", `found "-1"`},
		{`check reach <= 1: sin(f) > 0 && z > 0;`, 0, inv, CodeUnknownVariable, "1:33", `"z"`},
		{`init cold where sin(f) > 0; check reach <= 1: called(where (x ^ 1) == 0);`, 0, uns, CodeUnsupportedFunctionExpr, "1:17", "sin"},
		{`check reach <= 1: called(where (x ^ 1) == 0);`, 0, uns, CodeUnsupportedBitwiseExpr, "1:32", `"^"`},
		{"init cold;\nassume always: x > 0;\ncheck response <= 2:\n  trigger true -> within 1 (\n  y << 2) > 0;", 0, uns, CodeUnsupportedShiftExpr, "4:28", "shift"},
	}
}

func TestBindErrors(t *testing.T) {
	var cases []bindErrCase
	for _, group := range [][]bindErrCase{bindShapeCases(), bindContextCases(), bindCallCases(), bindTypeCases()} {
		cases = append(cases, group...)
	}
	for _, tc := range cases {
		q := mustParse(t, tc.src)
		err := Bind(q, testSystem(), BindOptions{MaxBound: tc.max})
		qe := asError(t, tc.src, err, tc.class, tc.code, tc.pos)
		if !strings.Contains(qe.Msg, tc.msg) {
			t.Errorf("%q: message %q does not contain %q", tc.src, qe.Msg, tc.msg)
		}
		if want := "test.fbmcq:" + tc.pos + ": "; !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), " ["+tc.code+"]") {
			t.Errorf("%q: error text %q", tc.src, err.Error())
		}
	}
}

// A query built by code goes through the atom grammar too.
func TestBindBuiltQuery(t *testing.T) {
	q := &Query{Check: Check{Kind: Reach, Bound: 1, Body: &expr.AtomCall{Name: "active",
		Args: []expr.Arg{{Value: &expr.IntLit{Value: 1}}}}}}
	err := Bind(q, testSystem(), BindOptions{})
	if qe, ok := err.(*Error); !ok || qe.Class != ClassParse || !strings.Contains(qe.Msg, "state path string") {
		t.Fatalf("got %v", err)
	}
	q = &Query{Check: Check{Kind: Reach, Bound: 1}}
	if err := Bind(q, testSystem(), BindOptions{}); err == nil || err.(*Error).Code != CodeQueryShape {
		t.Fatalf("missing body: got %v", err)
	}
	q = &Query{Check: Check{Kind: Cover, Bound: 1}}
	if err := Bind(q, testSystem(), BindOptions{}); err == nil || err.(*Error).Code != CodeQueryShape {
		t.Fatalf("missing cover body: got %v", err)
	}
	q = &Query{Assumes: []Assume{{Kind: AssumeCardinality}}, Check: Check{Kind: Reach, Bound: 1, Body: &expr.BoolLit{Value: true}}}
	if err := Bind(q, testSystem(), BindOptions{}); err == nil || err.(*Error).Code != CodeQueryShape {
		t.Fatalf("empty pool: got %v", err)
	}
}
