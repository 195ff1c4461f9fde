package prove

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest/reach"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/frontend/fcstmfront"
	"github.com/stateproof/stateproof/internal/frontend/formats"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/z3"
)

const fcstmRetry = "../../examples/fcstm/retry.fcstm"

// fcstmModel is an FCSTM model as its front end makes it: the lowered
// system and the FCSTM runtime as the replayer.
func fcstmModel(t *testing.T, m *model.Model, path string) *frontend.Model {
	t.Helper()
	fm, err := fcstmfront.FromModel(m, path)
	if err != nil {
		t.Fatal(err)
	}
	return fm
}

// loadFCSTM loads an FCSTM file through the format registry, as the CLI
// and the MCP server do.
func loadFCSTM(t *testing.T, path string) *frontend.Model {
	t.Helper()
	fm, err := formats.Registry().Load(input.Reader{}, path, "")
	if err != nil {
		t.Fatal(err)
	}
	return fm
}

// withRSC is the problem of fm with the RSCs of text.
func withRSC(t *testing.T, fm *frontend.Model, file, text string) *Problem {
	t.Helper()
	p, err := ModelProblem(fm)
	if err != nil {
		t.Fatal(err)
	}
	if p.Props, err = ParseRSC(file, text, p.Graph); err != nil {
		t.Fatal(err)
	}
	return p
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestFCSTMGraph: the prover's nodes are the stoppable leaves of
// retry.fcstm and the two sentinels; the pseudo state Decide and the
// composite Client are not nodes (a hot start only begins there), and no
// edge is a delta or an error case.
func TestFCSTMGraph(t *testing.T) {
	fm := loadFCSTM(t, fcstmRetry)
	g, err := FromSystem(fm.System)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range g.Nodes {
		names = append(names, n.Name)
	}
	want := []string{"__init__", "__terminate__", "Client.Idle", "Client.Sending", "Client.Waiting", "Client.Delivered", "Client.Failed"}
	if !slices.Equal(names, want) {
		t.Fatalf("nodes %v, want %v", names, want)
	}
	if len(g.Starts) != 1 || g.Nodes[g.Starts[0].Node].Name != "__init__" {
		t.Errorf("starts %+v", g.Starts)
	}
	for _, e := range g.Edges {
		if e.Case.Delta || strings.Contains(e.Label, "::error::") || fm.System.Entry[e.Case.Source] && e.Case.Source != fm.System.Start {
			t.Errorf("edge %s should not be in the graph", e.Label)
		}
	}
	// Decide's two outcomes are folded into Sending's cases: a failure
	// leads to Failed or Waiting in one step.
	var fromSending []string
	for _, e := range g.Edges {
		if g.Nodes[e.From].Name == "Client.Sending" {
			fromSending = append(fromSending, g.Nodes[e.To].Name)
		}
	}
	for _, to := range []string{"Client.Delivered", "Client.Failed", "Client.Waiting", "Client.Sending"} {
		if !slices.Contains(fromSending, to) {
			t.Errorf("no edge Sending -> %s (have %v)", to, fromSending)
		}
	}
}

// TestFCSTMProveRetry: the RSCs of examples/fcstm/retry.rsc are proved,
// and the certificate re-checks on a fresh solver.
func TestFCSTMProveRetry(t *testing.T) {
	p := withRSC(t, loadFCSTM(t, fcstmRetry), "retry.rsc", readFile(t, "../../examples/fcstm/retry.rsc"))
	r := mustProve(t, p, Options{TimeoutMS: 60000})
	if r.Verdict != "proved" || len(r.Props) != 4 {
		t.Fatalf("verdict %s, %d properties", r.Verdict, len(r.Props))
	}
	text, err := p.Certificate(r)
	if err != nil {
		t.Fatal(err)
	}
	if got := checkScript(t, text); got != z3.Unsat {
		t.Fatalf("certificate check = %s, want unsat", got)
	}
}

// TestFCSTMProveRetryViolated: retry-broken.rsc is violated by a trace
// from the cold start that bmc finds again.
func TestFCSTMProveRetryViolated(t *testing.T) {
	p := withRSC(t, loadFCSTM(t, fcstmRetry), "retry-broken.rsc", readFile(t, "../../examples/fcstm/retry-broken.rsc"))
	r := mustProve(t, p, Options{TimeoutMS: 60000})
	pr := r.Props[0]
	if r.Verdict != "violated" || pr.Status != Violated || len(pr.Trace) < 2 {
		t.Fatalf("verdict %s, status %s (%s), trace %d steps", r.Verdict, pr.Status, pr.Reason, len(pr.Trace))
	}
	first, last := pr.Trace[0], pr.Trace[len(pr.Trace)-1]
	if first.Node != "__init__" || last.Node != "Client.Waiting" {
		t.Errorf("trace from %s to %s", first.Node, last.Node)
	}
	if !strings.Contains(pr.Replay, "replayed on the runtime: agrees") {
		t.Errorf("replay %q", pr.Replay)
	}
}

// TestFCSTMInfer: inference on retry.fcstm finds, at Failed, an RSC that
// pins attempts to 4, and every inferred RSC holds on every configuration
// the runtime reaches within 10 cycles.
func TestFCSTMInfer(t *testing.T) {
	fm := loadFCSTM(t, fcstmRetry)
	p, err := ModelProblem(fm)
	if err != nil {
		t.Fatal(err)
	}
	r := mustProve(t, p, Options{Infer: true, TimeoutMS: 60000})
	inferred := inferredProps(t, p, r)
	failed := inferred[p.Graph.NodeIndex("Client.Failed")]
	if failed == nil {
		t.Fatalf("nothing inferred at Failed: %v", r.Inferred)
	}
	for _, a := range []int64{3, 4, 5} {
		got := holds(t, failed, map[string]expr.Value{"attempts": expr.IntVal(a), "max_attempts": expr.IntVal(4), "backoff": expr.IntVal(8), "waited": expr.IntVal(8), "delivered": expr.IntVal(0)})
		if got != (a == 4) {
			t.Errorf("inferred RSC at Failed with attempts = %d: %v", a, got)
		}
	}
	checkOnRuntime(t, fm.Native.(*model.Model), p.Graph, inferred, 10)
}

// inferredProps parses the inferred RSCs back into formulas, per node.
func inferredProps(t *testing.T, p *Problem, r *Result) map[int]expr.Expr {
	t.Helper()
	out := map[int]expr.Expr{}
	for _, n := range r.Inferred {
		props, err := ParseRSC("inferred", fmt.Sprintf("rsc %q: %s;", n.Node, n.RSC), p.Graph)
		if err != nil {
			t.Fatalf("inferred %s: %s: %v", n.Node, n.RSC, err)
		}
		out[props[0].Node] = props[0].Formula
	}
	return out
}

func holds(t *testing.T, f expr.Expr, vals map[string]expr.Value) bool {
	t.Helper()
	v, err := expr.Eval(f, expr.Vars(vals))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr.Format(f), err)
	}
	return v.Bool()
}

// nodeOfConfig is the graph node a runtime configuration rests on.
func nodeOfConfig(g *Graph, c reach.Config) int {
	switch c.State {
	case "":
		return g.NodeIndex("__init__")
	case reach.Ended:
		return g.NodeIndex("__terminate__")
	}
	return g.NodeIndex(c.State)
}

// checkOnRuntime fails when a formula of rscs is false on a configuration
// the runtime reaches within depth cycles.
func checkOnRuntime(t *testing.T, m *model.Model, g *Graph, rscs map[int]expr.Expr, depth int) {
	t.Helper()
	configs, err := reach.Explore(m, depth)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range configs {
		n := nodeOfConfig(g, c)
		if n < 0 {
			t.Fatalf("the runtime rests on %q, which is not a node", c.State)
		}
		if f := rscs[n]; f != nil && c.State != reach.Ended && !holds(t, f, c.Vars) {
			t.Errorf("%s: %s is false on the reached %v (depth %d)", c.State, expr.Format(f), c.Vars, c.Depth)
		}
	}
}

// TestFCSTMDifferential: on generated FCSTM models, a constraint prove
// proves at a node holds on every configuration the runtime reaches there
// within 6 cycles, and one it finds violated is false on a configuration
// the runtime reaches there within the trace's length.
func TestFCSTMDifferential(t *testing.T) {
	models := 6
	if testing.Short() {
		models = 2
	}
	candidates := []string{"x >= 0", "y >= 0", "x <= 2", "y <= 1"}
	var proved, violated, unknown int
	for seed := uint64(1); seed <= uint64(models); seed++ {
		src := fcstmtest.RandomModel(seed)
		m, err := model.Parse("gen.fcstm", src, model.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		fm := fcstmModel(t, m, "gen.fcstm")
		for _, cand := range candidates {
			var text strings.Builder
			g, err := FromSystem(fm.System)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range g.Nodes {
				if n.Location >= 0 {
					fmt.Fprintf(&text, "rsc %q: %s;\n", n.Name, cand)
				}
			}
			p := withRSC(t, fm, "cand.rsc", text.String())
			r := mustProve(t, p, Options{TimeoutMS: 20000})
			for i, pr := range r.Props {
				prop := &p.Props[i]
				switch pr.Status {
				case Verified:
					proved++
					checkOnRuntime(t, m, p.Graph, map[int]expr.Expr{prop.Node: prop.Formula}, 6)
				case Violated:
					violated++
					if !reachedViolation(t, m, p.Graph, prop, len(pr.Trace)-1) {
						t.Errorf("seed %d: %s at %s violated by a %d-step trace the runtime does not reach\n%s", seed, cand, pr.Node, len(pr.Trace)-1, src)
					}
				default:
					unknown++
				}
			}
		}
	}
	t.Logf("%d proved, %d violated, %d undecided", proved, violated, unknown)
	if proved == 0 || violated == 0 {
		t.Errorf("the generated models exercise neither side: %d proved, %d violated", proved, violated)
	}
}

// reachedViolation reports whether the runtime reaches, within depth
// cycles, a configuration at the property's node where it is false.
func reachedViolation(t *testing.T, m *model.Model, g *Graph, p *Property, depth int) bool {
	t.Helper()
	configs, err := reach.Explore(m, depth)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range configs {
		if nodeOfConfig(g, c) == p.Node && c.State != reach.Ended && !holds(t, p.Formula, c.Vars) {
			return true
		}
	}
	return false
}

// TestFCSTMLayers: each layer works on the FCSTM graph by itself. An
// inductive set of RSCs (the sentinel __init__ included) is proved by the
// triple rule alone, per strongly connected component; constraints that
// are not inductive by themselves are proved by Houdini's strengthening.
func TestFCSTMLayers(t *testing.T) {
	fm := loadFCSTM(t, fcstmRetry)
	inductive := `
rsc "__init__": attempts == 0 && max_attempts == 4 && backoff == 1;
rsc "Client.Idle": attempts == 0 && max_attempts == 4 && backoff == 1;
rsc "Client.Delivered": attempts == 0 && max_attempts == 4 && backoff == 1;
rsc "Client.Sending": attempts >= 1 && attempts <= 4 && max_attempts == 4 && (backoff == 1 || backoff == 2 || backoff == 4 || backoff == 8);
rsc "Client.Waiting": attempts >= 1 && attempts <= 3 && max_attempts == 4 && (backoff == 2 || backoff == 4 || backoff == 8);
rsc "Client.Failed": attempts == 4 && max_attempts == 4;
`
	r := mustProve(t, withRSC(t, fm, "inductive.rsc", inductive), Options{Layers: []string{"triple"}, TimeoutMS: 60000})
	if r.Verdict != "proved" {
		t.Fatalf("triple rule: verdict %s", r.Verdict)
	}
	for _, pr := range r.Props {
		if pr.Method != "triple" {
			t.Errorf("%s proved by %s, want triple", pr.Node, pr.Method)
		}
	}
	// Not inductive alone: it needs max_attempts == 4 and the bounds of
	// attempts at the other leaves, which Houdini mines.
	needs := `rsc "Client.Failed": attempts == 4;
rsc "Client.Waiting": attempts <= 3;`
	r = mustProve(t, withRSC(t, fm, "needs.rsc", needs), Options{Layers: []string{"triple", "houdini"}, TimeoutMS: 60000})
	if r.Verdict != "proved" || r.Props[0].Method != "houdini" {
		t.Fatalf("houdini: verdict %s, %+v, layers %v", r.Verdict, r.Props, r.Layers)
	}
}

// TestFCSTMKInduction: two leaves that hand over to each other every
// cycle, each incrementing one counter. x == y at A is not inductive with
// x >= y at B (a B with x = y + 5 leaves it), but it is 2-inductive: no
// such B follows an A where x == y.
func TestFCSTMKInduction(t *testing.T) {
	src := `def int x = 0;
def int y = 0;
state R {
    state A;
    state B;
    [*] -> A;
    A -> B effect { x = x + 1; }
    B -> A effect { y = y + 1; }
}
`
	m, err := model.Parse("kind.fcstm", src, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := withRSC(t, fcstmModel(t, m, "kind.fcstm"), "k.rsc", `rsc "R.A": x == y; rsc "R.B": x >= y;`)
	r := mustProve(t, p, Options{Layers: []string{"triple", "kind"}, TimeoutMS: 60000})
	if r.Verdict != "proved" || r.Props[0].Method != "k-induction (k=2)" {
		t.Fatalf("verdict %s, %+v", r.Verdict, r.Props)
	}
}

// TestFCSTMPseudoChainDifferential: on pseudo chains of 4 to 25 states
// (fixed and random branches, shared by the lowering), prove never
// contradicts the runtime: a proved RSC holds on every configuration the
// runtime reaches within 6 cycles, and a violation is reached by the
// runtime within its trace's length (issue 27 item 8).
func TestFCSTMPseudoChainDifferential(t *testing.T) {
	lengths := []int{4, 12, 25}
	if testing.Short() {
		lengths = []int{4}
	}
	rng := rand.New(rand.NewPCG(27, 9))
	candidates := []string{"x >= 0", "y >= 0", "y <= 3", "x <= 2"}
	var proved, violated, unknown int
	for _, n := range lengths {
		for _, r := range []*rand.Rand{nil, rng} {
			src := fcstmtest.PseudoChain(n, r)
			m, err := model.Parse("chain.fcstm", src, model.Options{})
			if err != nil {
				t.Fatalf("chain of %d: %v\n%s", n, err, src)
			}
			fm := fcstmModel(t, m, "chain.fcstm")
			for _, cand := range candidates {
				text := fmt.Sprintf("rsc \"M.A\": %s;\nrsc \"M.B\": %s;\n", cand, cand)
				p := withRSC(t, fm, "cand.rsc", text)
				res := mustProve(t, p, Options{TimeoutMS: 10000})
				for i, pr := range res.Props {
					prop := &p.Props[i]
					switch pr.Status {
					case Verified:
						proved++
						checkOnRuntime(t, m, p.Graph, map[int]expr.Expr{prop.Node: prop.Formula}, 6)
					case Violated:
						violated++
						if !reachedViolation(t, m, p.Graph, prop, len(pr.Trace)-1) {
							t.Errorf("chain of %d: %s at %s violated by a %d-step trace the runtime does not reach\n%s", n, cand, pr.Node, len(pr.Trace)-1, src)
						}
					default:
						unknown++
					}
				}
			}
		}
	}
	t.Logf("%d proved, %d violated, %d undecided", proved, violated, unknown)
	if proved == 0 || violated == 0 {
		t.Errorf("the chains exercise neither side: %d proved, %d violated", proved, violated)
	}
}
