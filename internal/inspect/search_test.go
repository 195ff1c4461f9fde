package inspect

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/parser"
)

// guardedModel's B is enterable by structure (its guard reads x) but not
// by any run: nothing ever changes x.
const guardedModel = `def int x = 0;
state Root {
    state A;
    state B;
    [*] -> A;
    A -> B : if [x > 0];
}
`

// configurations counts the reachable configurations of src by the
// search package directly, as the evidence must.
func configurations(t *testing.T, src string) int {
	t.Helper()
	f, err := parser.Parse("m.fcstm", src)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Build(f, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mc, err := explicit.New(m)
	if err != nil {
		t.Fatal(err)
	}
	g := explore.Explore(mc, 1<<20)
	if g.Truncated {
		t.Fatal("the reference search did not finish")
	}
	return g.Len()
}

func unreachable(res *Result) []Diagnostic {
	var out []Diagnostic
	for _, d := range res.Diagnostics {
		if d.Code == "W_UNREACHABLE_STATE" {
			out = append(out, d)
		}
	}
	return out
}

func TestSearchDecidesUnreachableLeaf(t *testing.T) {
	if got := unreachable(Source("m.fcstm", []byte(guardedModel), Options{})); len(got) != 0 {
		t.Fatalf("without --search the structure reports %v", got)
	}
	res := Source("m.fcstm", []byte(guardedModel), Options{Search: true})
	got := unreachable(res)
	if len(got) != 1 || len(res.Undecided) != 0 {
		t.Fatalf("want one W_UNREACHABLE_STATE and nothing undecided, got %v, undecided %v", got, res.Undecided)
	}
	d, n := got[0], configurations(t, guardedModel)
	if d.Basis != BasisSearch || d.Refs["state_path"] != "Root.B" || d.Refs["configurations_searched"] != n ||
		d.Refs["algorithm_name"] != searchAlgorithm || d.Span.Line != 4 {
		t.Errorf("got %+v, want Root.B at line 4, basis search, %d configurations", d, n)
	}
	if !strings.Contains(d.Message, "all "+strconv.Itoa(n)+" reachable configurations") {
		t.Errorf("message does not give the count %d: %s", n, d.Message)
	}
}

func TestSearchNearMiss(t *testing.T) {
	// x changes, so B is entered: no claim, and nothing undecided.
	src := strings.Replace(guardedModel, "state A;", "state A { during { x = 1; } }", 1)
	res := Source("m.fcstm", []byte(src), Options{Search: true})
	if got := unreachable(res); len(got) != 0 || len(res.Undecided) != 0 {
		t.Errorf("B is reachable, got %v, undecided %v", got, res.Undecided)
	}
	// A structurally unreachable state stays structural.
	src = strings.Replace(guardedModel, "A -> B : if [x > 0];", "", 1)
	got := unreachable(Source("m.fcstm", []byte(src), Options{Search: true}))
	if len(got) != 1 || got[0].Basis != BasisStructural {
		t.Errorf("want Root.B structural, got %v", got)
	}
}

// counterModel counts without end; B is never entered (x only grows)
// but no finite search shows it.
const counterModel = `def int x = 0;
state Root {
    state A { during { x = x + 1; } }
    state B;
    [*] -> A;
    A -> B : if [x < 0];
}
`

func TestSearchStoppedEarlyClaimsNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"cap", Options{Search: true, MaxStates: 50}, "state cap (--max-states 50)"},
		{"time", Options{Search: true, MaxStates: 1 << 40, TimeoutMS: 1}, "time budget (--timeout-ms 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Source("m.fcstm", []byte(counterModel), tc.opts)
			if got := unreachable(res); len(got) != 0 {
				t.Errorf("a search stopped early claimed %v", got)
			}
			if len(res.Undecided) != 1 || res.Undecided[0].Code != "W_UNREACHABLE_STATE" || !strings.Contains(res.Undecided[0].Reason, tc.want) {
				t.Errorf("want one undecided W_UNREACHABLE_STATE saying %q, got %v", tc.want, res.Undecided)
			}
		})
	}
}

func TestSearchColdStartFails(t *testing.T) {
	src := strings.Replace(guardedModel, "def int x = 0;", "def int x = 1 / 0;", 1)
	res := Source("m.fcstm", []byte(src), Options{Search: true})
	if !res.Loaded {
		t.Skipf("does not load: %v", codesOf(res))
	}
	if got := unreachable(res); len(got) != 0 || len(res.Undecided) != 1 || !slices.ContainsFunc(res.Undecided, func(u Undecided) bool { return strings.Contains(u.Reason, "not searched") }) {
		t.Errorf("got %v, undecided %v", got, res.Undecided)
	}
}

// TestSearchRaiseClaimsNothing: B's enter action raises, so the cycle
// that enters B ends in the error and no configuration rests in B; B was
// entered all the same, so the search must not call it unreachable.
func TestSearchRaiseClaimsNothing(t *testing.T) {
	src := `def int x = 0;
state Root {
    state A;
    state B { enter { x = 1 % x; } }
    [*] -> A;
    A -> B;
}
`
	res := Source("m.fcstm", []byte(src), Options{Search: true})
	if got := unreachable(res); len(got) != 0 {
		t.Errorf("B is entered (its enter action raises), yet claimed: %v", got)
	}
	if len(res.Undecided) != 1 || !strings.Contains(res.Undecided[0].Reason, "raises") {
		t.Errorf("want the raise as the reason nothing is claimed, got %v", res.Undecided)
	}
}

func transitionDiags(res *Result) []Diagnostic {
	var out []Diagnostic
	for _, d := range res.Diagnostics {
		if d.Code == "W_UNREACHABLE_TRANSITION" {
			out = append(out, d)
		}
	}
	return out
}

// TestUnreachableTransitionReasons: one diagnostic per transition, with
// every reason, sorted; the search's reason is verify-backed and, alone,
// makes the basis search.
func TestUnreachableTransitionReasons(t *testing.T) {
	src := `state Root {
    state A;
    state B;
    state C;
    [*] -> A;
    A -> B;
    A -> B;
    C -> A : if [1 > 2];
}
`
	got := transitionDiags(Source("m.fcstm", []byte(src), Options{}))
	if len(got) != 2 || got[0].Span.Line != 7 || got[1].Span.Line != 8 {
		t.Fatalf("want lines 7 and 8, got %v", got)
	}
	if r := got[0].Refs["reasons"]; !slices.Equal(r.([]string), []string{"redundant", "shadowed"}) || got[0].Basis != BasisStructural {
		t.Errorf("line 7: %v", got[0])
	}
	if r := got[1].Refs["reasons"]; !slices.Equal(r.([]string), []string{"guard_false", "unreachable_source_state"}) || got[1].Refs["source_state_path"] != "Root.C" {
		t.Errorf("line 8: %v", got[1])
	}

	back := guardedModel[:len(guardedModel)-2] + "    B -> A;\n}\n"
	if got := transitionDiags(Source("m.fcstm", []byte(back), Options{})); len(got) != 0 {
		t.Errorf("without --search the structure lets B -> A fire: %v", got)
	}
	got = transitionDiags(Source("m.fcstm", []byte(back), Options{Search: true}))
	if len(got) != 1 || got[0].Span.Line != 7 || got[0].Basis != BasisSearch || got[0].Refs["verify_backed"] != true ||
		!slices.Equal(got[0].Refs["verification_source_ids"].([]string), []string{"explicit_search@exhaustive"}) {
		t.Errorf("with --search: %v", got)
	}
	got = transitionDiags(Source("m.fcstm", []byte(back), Options{Search: true, MaxStates: 1}))
	if len(got) != 0 {
		t.Errorf("a search stopped at its cap claimed %v", got)
	}
}
