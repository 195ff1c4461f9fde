package explicit

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/gen"
)

// flags has variables that only hold 0 or 1 (b, d, e) and others that
// start there and leave (c, f) or start elsewhere (g).
const flags = `def int b = 0;
def int c = 1;
def int d = 0;
def int e = 1;
def int f = 0;
def int g = 2;
def float h = 0.0;
state R {
    state A;
    state B { during { c = c + b; e = (c + 1) % 2; } }
    [*] -> A;
    A -> B :: Go effect { b = 1 - b; d = b * b; f = 1 - b; f = f + 1; };
    B -> A :: Back effect { if [c > 3] { c = 0; } g = b; h = 1.0; };
}
`

// A variable the search stores as a bit holds 0 or 1 in every reachable
// state, a step changes no word outside its Changed (on random models, searched without the layout that relies on
// it), and the flags of toggles and of flags above are found.
func TestBitVars(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []bool // nil: not checked
	}{
		{gen.TogglesFCSTM(4), []bool{true, true, true, true}},
		{flags, []bool{true, false, true, true, false, false, false}},
	} {
		mc := parseMachine(t, tc.src)
		if !slices.Equal(mc.bit, tc.want) {
			t.Errorf("bits %v, want %v\n%s", mc.bit, tc.want, tc.src)
		}
		checkBits(t, mc, tc.src)
	}
	for seed := uint64(1); seed <= 40; seed++ {
		for _, src := range []string{fcstmtest.RandomModel(seed), fcstmtest.RandomRaisingModel(seed)} {
			checkBits(t, parseMachine(t, src), src)
		}
	}
}

func parseMachine(t *testing.T, src string) *Machine {
	t.Helper()
	m, err := model.Parse("test.fcstm", src, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mc, err := New(m)
	if err != nil {
		t.Fatal(err)
	}
	return mc
}

// checkBits searches mc breadth first (up to 5000 states) and checks
// every word Ranges calls a bit, and that every word a step changes is
// in its outcome's Changed.
func checkBits(t *testing.T, mc *Machine, src string) {
	t.Helper()
	rs := mc.Ranges()
	seen := map[string]bool{}
	queue := [][]int64{mc.Initial(make([]int64, mc.Width()))}
	var buf concrete.Buffer
	for len(queue) > 0 && len(seen) < 5000 {
		s := queue[0]
		queue = queue[1:]
		for i, r := range rs {
			if r == concrete.Bit && s[i] != 0 && s[i] != 1 {
				t.Fatalf("word %d is %d in %v, declared a bit\n%s", i, s[i], s, src)
			}
		}
		for _, o := range mc.Successors(s, &buf) {
			for i := 1; i < len(s); i++ {
				if o.Next[i] != s[i] && !slices.Contains(o.Changed, i) {
					t.Fatalf("word %d changes from %v to %v outside Changed %v\n%s", i, s, o.Next, o.Changed, src)
				}
			}
			k := fmt.Sprint(o.Next)
			if !seen[k] {
				seen[k] = true
				queue = append(queue, slices.Clone(o.Next))
			}
		}
	}
}
