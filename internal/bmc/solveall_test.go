package bmc

import (
	"testing"

	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

func parseAll(t *testing.T, sys *sts.System, texts ...string) []*query.Query {
	t.Helper()
	var qs []*query.Query
	for _, text := range texts {
		q, err := query.Parse("<test>", text)
		if err != nil {
			t.Fatal(err)
		}
		if err := query.Bind(q, sys, query.BindOptions{}); err != nil {
			t.Fatal(err)
		}
		qs = append(qs, q)
	}
	return qs
}

// orderChecks are checks of every kind at one bound with no init or
// assume clause: SolveAll shares one unrolling among them.
var orderChecks = []string{
	`check reach <= 12: active("DONE");`,
	`check invariant <= 12: active("SHIPPED") => paid;`,
	`check forbid <= 12: active("SHIPPED") && retry == 3;`,
	`check must_reach <= 12: active("DONE");`,
	`check exists_always <= 12: !active("CANCELLED");`,
	`check response <= 12: trigger active("PAID") -> within 3 active("SHIPPED");`,
	`check invariant <= 12: retry <= 2;`,
}

func TestSolveAllSharesOnlyWhatIsSafe(t *testing.T) {
	_, sys := loadModel(t, "../../examples/order.json")
	plain := parseAll(t, sys, orderChecks...)
	if !shareable(plain, Options{}) {
		t.Fatal("checks of one bound without init or assume clauses: not shared")
	}
	for name, c := range map[string]struct {
		qs   []*query.Query
		opts Options
	}{
		"one query":       {plain[:1], Options{}},
		"shortest":        {plain, Options{Shortest: true}},
		"explanation":     {plain, Options{Explain: "formal"}},
		"two bounds":      {parseAll(t, sys, orderChecks[0], `check reach <= 11: active("DONE");`), Options{}},
		"an init clause":  {parseAll(t, sys, orderChecks[0], `init state("PAID"); check reach <= 12: active("DONE");`), Options{}},
		"an assumption":   {parseAll(t, sys, orderChecks[0], `assume always: !active("CANCELLED"); check reach <= 12: active("DONE");`), Options{}},
		"an event reader": {parseAll(t, sys, orderChecks[0], `check response <= 12: trigger event("pay", current) -> within 2 active("SHIPPED");`), Options{}},
	} {
		if shareable(c.qs, c.opts) {
			t.Errorf("%s: shared, but the unrollings differ or are solved bound by bound", name)
		}
	}
}

// TestSolveAllAgreesWithSolve: over one unrolling, every kind of check
// gets the outcome, verdict, status and stages it gets alone.
func TestSolveAllAgreesWithSolve(t *testing.T) {
	_, sys := loadModel(t, "../../examples/order.json")
	qs := parseAll(t, sys, orderChecks...)
	all := solveAll(t, sys, qs, Options{})
	for i, q := range qs {
		alone := solve(t, sys, q, Options{})
		got, want := all[i], alone
		if got.Outcome != want.Outcome || got.Status != want.Status || got.Symbols != want.Symbols ||
			got.Feasibility.Assumptions.Status != want.Feasibility.Assumptions.Status ||
			got.IncompleteStatus != want.IncompleteStatus || (got.Trace == nil) != (want.Trace == nil) {
			t.Errorf("%s: shared %s/%s/%d symbols, alone %s/%s/%d", orderChecks[i], got.Outcome, got.Status, got.Symbols, want.Outcome, want.Status, want.Symbols)
		}
	}
}

// TestSolveAllUnderABudget: whatever a budget cuts short is undecided; a
// decided verdict is the one without a budget.
func TestSolveAllUnderABudget(t *testing.T) {
	_, sys := loadModel(t, "../../examples/order.json")
	qs := parseAll(t, sys, orderChecks...)
	free := solveAll(t, sys, qs, Options{})
	for _, ms := range []int{1, 5, 50} {
		for i, r := range solveAll(t, sys, qs, Options{TimeoutMS: ms}) {
			if r.Satisfied != nil && (free[i].Satisfied == nil || *r.Satisfied != *free[i].Satisfied) {
				t.Errorf("budget %d ms, %s: verdict %v (%s), %v without a budget", ms, orderChecks[i], *r.Satisfied, r.Outcome, free[i].Outcome)
			}
		}
	}
}

func solveAll(t *testing.T, sys *sts.System, qs []*query.Query, opts Options) []*Result {
	t.Helper()
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	rs, err := SolveAll(ctx, sys, qs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != len(qs) {
		t.Fatalf("%d results for %d queries", len(rs), len(qs))
	}
	return rs
}
