package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// pseudoLoop is a model whose cycles from A revisit the pseudo state P
// with other values of x: whether a configuration repeats depends on the
// variables, so no tape may take the loop for granted.
const pseudoLoop = `def int x = 0;
def int y = 0;
state R {
    state A;
    state B;
    pseudo state P;
    [*] -> A;
    A -> P :: Go effect { y = y + 1; };
    P -> P : if [x % 4 != 0] effect { x = (x + y) % 5; };
    P -> B : if [x > 1];
    P -> A : if [y % 2 == 0] effect { x = x + 1; };
    B -> A :: Back effect { x = x + 3; };
}
`

// deltaStart never starts: its first cycle runs the root's enter and
// finds no initial transition, a Delta that must leave the variables.
const deltaStart = `def int x = 0;
state R {
    enter { x = x + 1; }
    state A;
    [*] -> A : if [x > 5];
}
`

// manyEvents is a model whose states read a dozen events or more, in
// long chains of event tests (leaf, parent, combos), some under guards.
func manyEvents(rng *rand.Rand) string {
	var b strings.Builder
	b.WriteString("def int x = 0;\ndef int y = 0;\nstate R {\n    state A {\n        state A1;\n        state A2;\n        [*] -> A1;\n")
	for i := range 6 + rng.IntN(8) {
		from, to := []string{"A1", "A2"}[rng.IntN(2)], []string{"A1", "A2"}[rng.IntN(2)]
		switch rng.IntN(3) {
		case 0:
			fmt.Fprintf(&b, "        %s -> %s :: E%d effect { x = (x + %d) %% 5; };\n", from, to, i, i)
		case 1:
			fmt.Fprintf(&b, "        %s -> %s :: E%d + [x > %d] effect { y = 1 - y; };\n", from, to, i, rng.IntN(4))
		default:
			fmt.Fprintf(&b, "        %s -> %s :: E%d + [y == 0] + F%d;\n", from, to, i, rng.IntN(3))
		}
	}
	b.WriteString("    }\n    state B;\n    [*] -> A;\n")
	for i := range 4 + rng.IntN(6) {
		fmt.Fprintf(&b, "    A -> B :: G%d + [x == %d];\n    B -> A :: H%d effect { x = x + 1; };\n", i, rng.IntN(5), i%3)
	}
	b.WriteString("}\n")
	return b.String()
}

// A runtime replaying its tapes steps every configuration exactly as the
// search does (the same configuration, variables, NextWrote, Tested and
// error), and so does NextWords where it answers, on random models with raising blocks, pseudo chains that back
// out of candidates, and a loop whose repeats depend on the variables.
func TestTapesReplayAsSearch(t *testing.T) {
	var models []string
	for seed := uint64(1); seed <= 60; seed++ {
		models = append(models, fcstmtest.RandomRaisingModel(seed), fcstmtest.RandomModel(seed))
	}
	for seed := uint64(1); seed <= 20; seed++ {
		models = append(models, fcstmtest.PseudoChain(2+int(seed)%5, rand.New(rand.NewPCG(seed, 9))))
	}
	for seed := uint64(1); seed <= 40; seed++ {
		models = append(models, manyEvents(rand.New(rand.NewPCG(seed, 11))))
	}
	models = append(models, pseudoLoop, deltaStart)
	hits, wordHits := 0, 0
	for k, src := range models {
		m, err := model.Parse("test.fcstm", src, model.Options{})
		if err != nil {
			t.Fatalf("model %d: %v", k, err)
		}
		taped, err := New(m, Options{})
		if err != nil {
			continue
		}
		searched, _ := New(m, Options{})
		searched.noTapes = true
		rng := rand.New(rand.NewPCG(uint64(k), 5))
		hits += compareTapes(t, taped, searched, rng, src, &wordHits)
	}
	if hits == 0 || wordHits == 0 {
		t.Fatalf("%d cycles replayed, %d on words: the test tests too little", hits, wordHits)
	}
}

// toWords is the explicit search's words of vars: an int's value, a
// float's bits.
func toWords(vars []expr.Value) []int64 {
	w := make([]int64, len(vars))
	for i, v := range vars {
		if v.Type() == expr.Real {
			w[i] = int64(math.Float64bits(v.Real()))
		} else {
			w[i] = v.Int()
		}
	}
	return w
}

// compareTapes walks randomly from the cold start, stepping each
// configuration on several inputs with and without tapes; it returns the
// number of cycles replayed.
func compareTapes(t *testing.T, taped, searched *Runtime, rng *rand.Rand, src string, wordHits *int) int {
	t.Helper()
	n := len(taped.EventPaths())
	ends := map[int]string{} // NextWords's end numbers
	for step := 0; step < 40 && !taped.Ended(); step++ {
		snap := taped.Snapshot(Snapshot{})
		var last []int
		for range 6 {
			last = last[:0]
			if rng.IntN(2) == 0 {
				for e := range n {
					if rng.IntN(2) == 0 {
						last = append(last, e)
					}
				}
			} else if n > 0 {
				// as a search tries them: none or a few events
				for range rng.IntN(3) {
					last = append(last, rng.IntN(n))
				}
			}
			if err := searched.Restore(snap); err != nil {
				t.Fatal(err)
			}
			errS := searched.Next(last)
			want := fmt.Sprint(errS, string(searched.AppendNextControl(nil)), searched.NextVars(), searched.NextWrote(), searched.Tested())
			if err := taped.Restore(snap); err != nil {
				t.Fatal(err)
			}
			errT := taped.Next(last)
			got := fmt.Sprint(errT, string(taped.AppendNextControl(nil)), taped.NextVars(), taped.NextWrote(), taped.Tested())
			if got != want {
				t.Fatalf("from %q %v on %v: replayed %s, searched %s\n%s", snap.Control, snap.Vars, last, got, want, src)
			}
			words := toWords(snap.Vars)
			if control, end, wrote, ok := taped.NextWords(snap.Control, last, words); ok {
				*wordHits++
				// wrote names every variable the search assigned, so
				// every word that changed.
				if w := searched.NextWrote(); w&^wrote != 0 {
					t.Fatalf("from %q %v on %v: on words wrote %b, searched %b\n%s", snap.Control, snap.Vars, last, wrote, w, src)
				}
				if c, seen := ends[end]; seen && c != control {
					t.Fatalf("end %d is %q and %q", end, c, control)
				}
				ends[end] = control
				got := fmt.Sprint(control, words, taped.Tested())
				want := fmt.Sprint(string(searched.AppendNextControl(nil)), toWords(searched.NextVars()), searched.Tested())
				if errS != nil || got != want {
					t.Fatalf("from %q %v on %v: on words %s, searched %v %s\n%s", snap.Control, snap.Vars, last, got, errS, want, src)
				}
			}
		}
		if err := taped.Step(last); err != nil {
			return taped.tapes.hits
		}
	}
	return taped.tapes.hits
}
