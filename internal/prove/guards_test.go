package prove

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
)

// TestGuardMiningProves: two problems that learning proves only with what
// the clauses give. In triple_bound the loop's invariant needs
// x0 <= 3·x2, the loop guard x < 3·n seen after the step, which sample
// learning does not propose (no direction x − 3·n). In late_start it
// needs y = x − 2·n once x ≥ 2·n, a phase split at the update's own
// condition x < 2·n. The certificate of loop must carry the mined fact.
func TestGuardMiningProves(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"triple_bound.smt2", "x0 - 3 * x2 <= 0"},
		{"late_start.smt2", "!(x0 - 2 * x2 <= -1) => "},
	} {
		src, err := os.ReadFile("testdata/guards/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		r := mustProve(t, chcProblem(t, string(src)), Options{Layers: []string{"triple", "kind", "learn"}, TimeoutMS: 60000})
		if r.Verdict != "proved" || r.Props[0].Method != "learn" {
			t.Errorf("%s: %s by %q; layers %+v", tc.file, r.Verdict, r.Props[0].Method, r.Layers)
			continue
		}
		var loop string
		for _, c := range r.Certificate {
			if c.Node == "loop" {
				loop = c.RSC
			}
		}
		if !strings.Contains(loop, tc.want) {
			t.Errorf("%s: the RSC of loop %q lacks %q", tc.file, loop, tc.want)
		}
	}
}

// TestGuardCandidatesOfClauses: which atoms reach which node, normalised
// and in the node's argument names.
func TestGuardCandidatesOfClauses(t *testing.T) {
	p := chcProblem(t, `
(declare-fun P (Int Int Int) Bool)
(declare-fun Q (Int Int Int) Bool)
(assert (forall ((a Int) (b Int) (c Int)) (=> (and (= a 0) (= b (* 2 c)) (> c 0)) (P a b c))))
(assert (forall ((a Int) (b Int) (c Int) (a1 Int) (b1 Int))
  (=> (and (P a b c) (< (* 2 a) (+ (* 4 c) 3)) (= a1 (+ a 1)) (= b1 (ite (< a c) b (* a b)))) (P a1 b1 c))))
(assert (forall ((a Int) (b Int) (c Int)) (=> (and (P a b c) (not (<= a (* 5 c)))) (Q c a b))))
(assert (forall ((a Int) (b Int) (c Int)) (=> (and (Q a b c) (> b (* 7 a))) false)))
`)
	got := map[string][]string{}
	for n, fs := range mineGuards(p.Graph, func() bool { return false }).cands {
		for _, f := range fs {
			got[p.Graph.Nodes[n].Name] = append(got[p.Graph.Nodes[n].Name], expr.Format(f))
		}
	}
	has := func(node string, want ...string) {
		t.Helper()
		for _, w := range want {
			found := false
			for _, f := range got[node] {
				found = found || f == w
			}
			if !found {
				t.Errorf("%s: no candidate %q in %q", node, w, got[node])
			}
		}
	}
	// a form is bounded with its leading coefficient positive
	// (x1 − 5·x0 ≥ 1 is 5·x0 − x1 ≤ −1)
	// the fact: a = 0, b = 2c, c > 0 (c ≥ 1 over integers)
	has("P", "x0 == 0", "x1 - 2 * x2 == 0", "x2 >= 1", "x2 <= 0")
	// the guard 2a < 4c + 3 is a − 2c ≤ 1 (2a − 4c ≤ 2 rounded); after the
	// step a1 = a + 1 it is a1 − 2c ≤ 2; an if-then-else condition a < c
	has("P", "x0 - 2 * x2 <= 1", "x0 - 2 * x2 <= 2", "x0 - x2 <= -1", "x0 - x2 >= 0")
	// the edge into Q reorders the arguments: Q's x1 is P's a, x0 is c;
	// not (a <= 5c) there is x1 − 5·x0 ≥ 1, and its negation is proposed
	has("Q", "5 * x0 - x1 <= -1", "5 * x0 - x1 >= 0")
	// a fact of P carried along P → Q: c ≥ 1
	has("Q", "x0 >= 1")
	// the query's guard b > 7a over Q's arguments
	has("Q", "7 * x0 - x1 <= -1", "7 * x0 - x1 >= 0")
	// equalities between arguments
	has("Q", "x0 - x1 == 0", "x1 - x2 == 0")
	// b1 = ite(…, b, a·b) is not linear: at P, b (x1) appears only in the
	// fact and in the equalities between arguments
	for _, f := range got["P"] {
		if strings.Contains(f, "x1") && !strings.HasPrefix(f, "x1 - 2 * x2 ") && f != "x0 - x1 == 0" && f != "x1 - x2 == 0" {
			t.Errorf("P: unexpected candidate %q", f)
		}
	}
	if len(got["false"]) != 0 {
		t.Errorf("the error node got candidates %q", got["false"])
	}
}

// TestNormaliseAtom: integer normalisation of Σ a·x + c ≤ 0 and = 0.
func TestNormaliseAtom(t *testing.T) {
	for _, tc := range []struct {
		in, want linAtom
		ok       bool
	}{
		// 2x + 4y + 3 ≤ 0: x + 2y ≤ −3/2, i.e. x + 2y + 2 ≤ 0
		{linAtom{coef: []int64{2, 4}, c: 3}, linAtom{coef: []int64{1, 2}, c: 2}, true},
		// 2x − 3 ≤ 0: x ≤ 3/2, i.e. x − 1 ≤ 0
		{linAtom{coef: []int64{2, 0}, c: -3}, linAtom{coef: []int64{1, 0}, c: -1}, true},
		// −3x + 6 ≤ 0 stays a lower bound: −x + 2 ≤ 0
		{linAtom{coef: []int64{-3, 0}, c: 6}, linAtom{coef: []int64{-1, 0}, c: 2}, true},
		// −2x + 4y − 6 = 0: x − 2y + 3 = 0 (first coefficient positive)
		{linAtom{coef: []int64{-2, 4}, c: -6, eq: true}, linAtom{coef: []int64{1, -2}, c: 3, eq: true}, true},
		// 2x + 4y + 3 = 0 has no integer solution: left out
		{linAtom{coef: []int64{2, 4}, c: 3, eq: true}, linAtom{}, false},
		// no variable: left out
		{linAtom{coef: []int64{0, 0}, c: 1}, linAtom{}, false},
	} {
		got, ok := normaliseAtom(tc.in)
		if ok != tc.ok || ok && (got.c != tc.want.c || got.eq != tc.want.eq || !slices.Equal(got.coef, tc.want.coef)) {
			t.Errorf("normaliseAtom(%+v) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestGuardCandidatesStayOnTheirNode: on every CHC file at hand (this
// package's and, when present, the shared fixtures), each mined candidate
// reads only its own node's integer arguments.
func TestGuardCandidatesStayOnTheirNode(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*.smt2")
	for _, d := range fixtureDirs {
		if more, _ := filepath.Glob(filepath.Join(d, "*.smt2")); len(more) > 0 {
			files = append(files, more...)
			break
		}
	}
	mined := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := chcProblem(t, string(src))
		for n, fs := range mineGuards(p.Graph, func() bool { return false }).cands {
			own := map[string]bool{}
			for _, j := range intArgs(p.Graph, n) {
				own[p.Graph.Nodes[n].Names[j]] = true
			}
			for _, c := range fs {
				mined++
				for _, v := range expr.FreeVars(c) {
					if !own[v] {
						t.Errorf("%s: node %s: candidate %s reads %s", f, p.Graph.Nodes[n].Name, expr.Format(c), v)
					}
				}
			}
		}
	}
	if mined == 0 {
		t.Errorf("no candidate mined from %d files", len(files))
	}
}
