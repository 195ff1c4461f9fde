package lint

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// analyseFixpoint is the definition analyse computes: walk every live
// state's transitions until nothing changes.
func analyseFixpoint(m *model.Model) *reach {
	r := &reach{live: map[*model.State]bool{m.Root: true}, exitable: map[*model.State]bool{}, dead: deadTransitions(m)}
	for changed := true; changed; {
		changed = false
		for _, s := range allStates(m.Root) {
			if !r.live[s] {
				continue
			}
			for _, t := range s.Transitions {
				switch {
				case r.dead[t] != "":
				case t.From == nil:
					changed = changed || !r.live[t.To]
					r.live[t.To] = true
				case !r.live[t.From] || !t.From.IsLeaf() && !r.exitable[t.From]:
				case t.To == nil:
					changed = changed || !r.exitable[s]
					r.exitable[s] = true
				default:
					changed = changed || !r.live[t.To]
					r.live[t.To] = true
				}
			}
		}
	}
	return r
}

func allStates(s *model.State) []*model.State {
	out := []*model.State{s}
	for _, c := range s.Children {
		out = append(out, allStates(c)...)
	}
	return out
}

// TestAnalyseAgreesWithFixpoint: on random models the worklist finds the
// same live and exitable states as the round-by-round fixpoint.
func TestAnalyseAgreesWithFixpoint(t *testing.T) {
	for seed := range uint64(300) {
		src := fcstmtest.RandomModel(seed)
		m, err := model.Parse("r.fcstm", src, model.Options{})
		if err != nil {
			continue
		}
		got, want := analyse(context.Background(), m), analyseFixpoint(m)
		if !maps.Equal(got.live, want.live) || !maps.Equal(got.exitable, want.exitable) {
			t.Fatalf("seed %d: live %d exitable %d, the fixpoint: live %d exitable %d\n%s",
				seed, len(got.live), len(got.exitable), len(want.live), len(want.exitable), src)
		}
	}
}

// A chain of 20,000 states is analysed in linear time (the round-by-round
// fixpoint took seconds, and minutes at 100,000); the limit is a wide
// margin over the milliseconds it takes.
func TestAnalyseLongChain(t *testing.T) {
	var b strings.Builder
	b.WriteString("state R {\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "    state S%d;\n", i)
	}
	b.WriteString("    [*] -> S0;\n")
	for i := range 19999 {
		fmt.Fprintf(&b, "    S%d -> S%d :: e;\n", i, i+1)
	}
	b.WriteString("}\n")
	m, err := model.Parse("chain.fcstm", b.String(), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r := analyse(context.Background(), m)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("analysis took %v", took)
	}
	if len(r.live) != 20001 {
		t.Errorf("%d live states, want 20001", len(r.live))
	}
}
