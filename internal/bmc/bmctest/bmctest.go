// Package bmctest holds what tests of several packages need to run the
// bounded model checker on a system: parse and bind a query, solve it in
// a Z3 context that is closed when the test ends.
package bmctest

import (
	"testing"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// Solve parses the query text (named file in errors), binds it to sys and
// solves it with opts; any failure fails the test.
func Solve(t testing.TB, sys *sts.System, file, text string, opts bmc.Options) *bmc.Result {
	t.Helper()
	q, err := query.Parse(file, text)
	if err != nil {
		t.Fatal(err)
	}
	if err := query.Bind(q, sys, query.BindOptions{}); err != nil {
		t.Fatal(err)
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ctx.Close() })
	r, err := bmc.Solve(ctx, sys, q, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
