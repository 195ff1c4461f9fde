package prove

import (
	"os"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/frontend/jsonfront"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/z3"
)

var benchInputs = []string{
	"fib.smt2", "fib-unsafe.smt2", "bradley1.smt2", "bradley1-unsafe.smt2", "bradley2.smt2", "bradley2-unsafe.smt2",
	"tinelli.smt2", "tinelli-unsafe.smt2", "counter2.smt2", "counter2-unsafe.smt2",
	"counter2.json", "counter2-unsafe.json", "retry-unbounded.json", "retry-unbounded-unsafe.json",
}

// loadBench loads one bench/ input in its own context.
func loadBench(tb testing.TB, name string) (*Problem, func()) {
	tb.Helper()
	src, err := os.ReadFile("../../bench/" + name)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, err := z3.NewContext()
	if err != nil {
		tb.Fatal(err)
	}
	var p *Problem
	if len(name) > 5 && name[len(name)-5:] == ".smt2" {
		p, err = CHCProblem(ctx, name, string(src))
	} else {
		res, derr := jsonmodel.Decode(src)
		if derr != nil || !res.Valid() {
			tb.Fatalf("%s: %v %v", name, derr, res.Errors)
		}
		p, err = ModelProblem(jsonfront.FromModel(res.Model, name))
		// A per-state claim that is not a model invariant comes as an .rsc
		// file next to the model, replacing its invariants.
		rscName := "../../bench/" + name[:len(name)-len(".json")] + ".rsc"
		if rsc, rerr := os.ReadFile(rscName); err == nil && rerr == nil {
			p.Props, err = ParseRSC(rscName, string(rsc), p.Graph)
		}
	}
	if err != nil {
		tb.Fatal(err)
	}
	return p, func() { ctx.Close() }
}

// BenchmarkProve runs the full layer stack on every bench/ input.
func BenchmarkProve(b *testing.B) {
	for _, name := range benchInputs {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				p, done := loadBench(b, name)
				if _, err := Prove(p, Options{}); err != nil {
					b.Fatal(err)
				}
				done()
			}
		})
	}
}

// BenchmarkSpacerAlone times Z3's HORN solver alone on the same clauses
// (the property as queries), with a 10 s budget.
func BenchmarkSpacerAlone(b *testing.B) {
	for _, name := range benchInputs {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				p, done := loadBench(b, name)
				ans := spacerAlone(b, p, 10*time.Second)
				b.ReportMetric(0, ans.Status)
				done()
			}
		})
	}
}

func spacerAlone(tb testing.TB, p *Problem, budget time.Duration) *spacerAnswer {
	text := p.source
	if text == "" {
		ctx, err := z3.NewContext()
		if err != nil {
			tb.Fatal(err)
		}
		defer ctx.Close()
		c, err := newChecker(ctx, p.Graph, 0, time.Time{})
		if err != nil {
			tb.Fatal(err)
		}
		if text, err = hornText(c, (&attempt{p: p}).target(allProps(p))); err != nil {
			tb.Fatal(err)
		}
	}
	return runSpacerAlone(tb, text, budget)
}

// runSpacerAlone runs Spacer on text in a context of its own, made and
// deleted inside (as a Spacer run of its own would).
func runSpacerAlone(tb testing.TB, text string, budget time.Duration) *spacerAnswer {
	ctx, err := z3.NewContext()
	if err != nil {
		tb.Fatal(err)
	}
	defer ctx.Close()
	ans, err := runSpacer(ctx, text, budget, time.Now().Add(budget), nil)
	if err != nil {
		tb.Fatal(err)
	}
	return ans
}

func allProps(p *Problem) []int {
	out := make([]int, len(p.Props))
	for i := range out {
		out[i] = i
	}
	return out
}

// TestBenchTable prints the README table with -v and BENCH_TABLE=1.
func TestBenchTable(t *testing.T) {
	if os.Getenv("BENCH_TABLE") == "" {
		t.Skip("set BENCH_TABLE=1")
	}
	for _, name := range benchInputs {
		p, done := loadBench(t, name)
		t0 := time.Now()
		r, err := Prove(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(t0)
		method := ""
		for _, pr := range r.Props {
			if pr.Method != "" && pr.Status != Unknown {
				method = pr.Method
			}
		}
		done()
		p, done = loadBench(t, name)
		sa := spacerAlone(t, p, 10*time.Second)
		done()
		t.Logf("| %s | %s | %s | %.0f ms | %s, %.0f ms |", name, r.Verdict, method, float64(el.Microseconds())/1000, sa.Status+suffix(sa.Reason), float64(sa.Elapsed.Microseconds())/1000)
	}
}
