package model

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// followRef is the definition refEnds computes once per chain: follow
// a's refs one by one until an action that is not a ref, a ref without a
// target, or an action seen before (a cycle, entered at that action).
func followRef(a *Action, direct map[*Action]*Action) refEnd {
	t := direct[a]
	seen := map[*Action]bool{a: true}
	for t.Kind == Ref {
		if seen[t] {
			return refEnd{cycle: t}
		}
		seen[t] = true
		next, ok := direct[t]
		if !ok {
			return refEnd{}
		}
		t = next
	}
	return refEnd{target: t}
}

// TestRefEndsAgreesWithFollowing: on random ref graphs (chains, cycles,
// refs into cycles, refs without a target), every ref ends where following
// its chain ends it, cycles entered at the same action.
func TestRefEndsAgreesWithFollowing(t *testing.T) {
	for seed := range uint64(500) {
		rng := rand.New(rand.NewPCG(seed, 7))
		n := 1 + rng.IntN(12)
		acts := make([]*Action, n)
		for i := range acts {
			acts[i] = &Action{Name: fmt.Sprint(i), Path: fmt.Sprint("a", i), Kind: Concrete}
			if rng.IntN(4) != 0 {
				acts[i].Kind = Ref
			}
		}
		direct := map[*Action]*Action{}
		var refs []*Action
		for _, a := range acts {
			if a.Kind != Ref {
				continue
			}
			refs = append(refs, a)
			if rng.IntN(6) != 0 {
				direct[a] = acts[rng.IntN(n)]
			}
		}
		rng.Shuffle(len(refs), func(i, j int) { refs[i], refs[j] = refs[j], refs[i] })
		ends := refEnds(refs, direct)
		for _, a := range refs {
			if _, ok := direct[a]; !ok {
				continue
			}
			want, got := followRef(a, direct), ends[a]
			if got.target != want.target || got.cycle != want.cycle {
				t.Fatalf("seed %d: ref %s ends at %+v, following it ends at %+v", seed, a.Path, got, want)
			}
		}
	}
}

// A chain of 20,000 refs loads in linear time (it took half a minute when
// every ref's chain was followed anew); the limit has a wide margin over
// the few milliseconds it takes.
func TestLongRefChainLoads(t *testing.T) {
	var b strings.Builder
	b.WriteString("state R {\n    enter A0 { }\n")
	for i := 1; i < 20000; i++ {
		fmt.Fprintf(&b, "    enter A%d ref A%d;\n", i, i-1)
	}
	b.WriteString("    state S;\n    [*] -> S;\n}\n")
	start := time.Now()
	m, err := Parse("chain.fcstm", b.String(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("loading took %v", took)
	}
	last := m.Root.Enter[len(m.Root.Enter)-1]
	if last.Target == nil || last.Target.Name != "A0" {
		t.Errorf("the last ref resolves to %+v, want A0", last.Target)
	}
}

// flatModel is one composite with n leaves in a chain of transitions.
func flatModel(n int) string {
	var b strings.Builder
	b.WriteString("state R {\n")
	for i := range n {
		fmt.Fprintf(&b, "    state S%d;\n", i)
	}
	b.WriteString("    [*] -> S0;\n")
	for i := range n - 1 {
		fmt.Fprintf(&b, "    S%d -> S%d :: e%d;\n", i, i+1, i%10)
	}
	b.WriteString("}\n")
	return b.String()
}

// A flat model with 50,000 states loads in linear time: each transition's
// endpoints were found by scanning the parent's children (40 s before).
func TestFlatModelLoads(t *testing.T) {
	src := flatModel(50000)
	start := time.Now()
	m, err := Parse("flat.fcstm", src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("loading took %v", took)
	}
	if got := len(m.Root.Children); got != 50000 {
		t.Errorf("%d children", got)
	}
}

func BenchmarkLoadFlat(b *testing.B) {
	for _, n := range []int{5000, 50000} {
		src := flatModel(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Parse("flat.fcstm", src, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
