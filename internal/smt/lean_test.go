package smt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/z3"
)

// ringModel is a JSON ring of n states stepped by "go".
func ringModel(t *testing.T, n int) *jsonmodel.Model {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"schemaVersion": 1, "init": "S0", "states": [`)
	for i := range n {
		fmt.Fprintf(&b, `%s{"id": "S%d"}`, map[bool]string{true: ",", false: ""}[i > 0], i)
	}
	b.WriteString(`], "transitions": [`)
	for i := range n {
		fmt.Fprintf(&b, `%s{"from": "S%d", "event": "go", "to": "S%d"}`, map[bool]string{true: ",", false: ""}[i > 0], i, (i+1)%n)
	}
	b.WriteString(`], "variables": []}`)
	res, err := jsonmodel.Decode([]byte(b.String()))
	if err != nil || !res.Valid() {
		t.Fatalf("ring of %d: %v %v", n, err, res.Errors)
	}
	return res.Model
}

// depth is the height of t's term DAG (a constant has depth 1).
func depth(t *testing.T, x *z3.Term, memo map[uint32]int) int {
	if d, ok := memo[x.ID()]; ok {
		return d
	}
	args, err := x.Args()
	if err != nil {
		t.Fatal(err)
	}
	d := 0
	for _, a := range args {
		d = max(d, depth(t, a, memo))
	}
	memo[x.ID()] = d + 1
	return d + 1
}

// The lean encoding of a machine with many locations nests its
// if-then-else terms logarithmically: Z3 walks terms recursively, and a
// chain with one link per location made it overflow its thread's stack on
// a ring of 30,000 states (SIGSEGV, the program died; issue 38). Before
// the fix, the depth here was the number of states.
func TestLeanDepthIsLogarithmic(t *testing.T) {
	const n = 1000
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	release := ctx.Hold()
	defer release()
	enc, err := NewLeanEncoding(ctx, ringModel(t, n).Lower("ring.json"), false)
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.Unroll(1); err != nil {
		t.Fatal(err)
	}
	memo := map[uint32]int{}
	// A chain of at most 64 links (chainLimit) under a tree of log2(n)
	// levels, and a few levels of conjunctions and literals.
	const limit = 64 + 10 + 8
	for i, s := range enc.States {
		if d := depth(t, s, memo); d > limit {
			t.Errorf("frame %d's location term is %d deep (limit %d)", i, d, limit)
		}
	}
	for _, g := range enc.Groups {
		if d := depth(t, g.Formula, memo); d > limit {
			t.Errorf("group %s is %d deep (limit %d)", g.ID, d, limit)
		}
	}
}
