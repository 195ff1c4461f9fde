package prove

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/z3"
)

// fixtureDirs are where the CHC problems from other projects (not in the
// repository, the 55 files of extra-small-lia) are looked for: ../shared
// next to the repository, or next to the directory of a git worktree.
var fixtureDirs = []string{"../../../shared/fixtures/chc/extra-small-lia", "../../../../shared/fixtures/chc/extra-small-lia"}

// TestFixtureTable is the benchmark harness of bench/chc-table.sh: every
// CHC fixture through Prove (10 s each) and, interleaved, through Spacer
// alone (Z3's HORN solver on the file itself, 10 s), both timed as wall
// time including their context and parse, then the table and the time
// ratio on the problems both solve. A benchmark, not a test: it runs only
// with FIXTURE_TABLE=1 and skips, saying so, when the fixtures are absent.
func TestFixtureTable(t *testing.T) {
	if os.Getenv("FIXTURE_TABLE") == "" {
		t.Skip("a benchmark: set FIXTURE_TABLE=1 (bench/chc-table.sh)")
	}
	dirs := fixtureDirs
	if d := os.Getenv("FIXTURE_DIR"); d != "" {
		dirs = []string{d}
	}
	var files []string
	for _, d := range dirs {
		if files, _ = filepath.Glob(filepath.Join(d, "*.smt2")); len(files) > 0 {
			break
		}
	}
	if len(files) == 0 {
		t.Skipf("no CHC fixtures in %v", dirs)
	}
	sort.Strings(files)
	var proved, late, spacer, wrong int
	var ratios []float64
	t.Logf("| problem | prove | method | time | Spacer alone | time | ratio |")
	t.Logf("|---|---|---|---|---|---|---|")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if strings.Contains(string(src), ":status sat") {
			want = "proved"
		} else if strings.Contains(string(src), ":status unsat") {
			want = "violated"
		}
		t0 := time.Now() // prove's time too includes its context and parse
		ctx, err := z3.NewContext()
		if err != nil {
			t.Fatal(err)
		}
		p, err := CHCProblem(ctx, filepath.Base(f), string(src))
		if err != nil {
			t.Fatal(err)
		}
		r, err := Prove(p, Options{TimeoutMS: 10000, Start: t0})
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(t0)
		ctx.Close()
		t1 := time.Now()
		sa := runSpacerAlone(t, string(src), 10*time.Second)
		sa.Elapsed = time.Since(t1) // wall time: context, parse and solve, as for prove
		method := ""
		for _, pr := range r.Props {
			if pr.Status != Unknown {
				method = pr.Method
			}
		}
		if r.Verdict != "unknown" && want != "" && r.Verdict != want {
			wrong++
			t.Errorf("%s: %s, the file says %s", f, r.Verdict, want)
		}
		ratio := ""
		if r.Verdict == "proved" {
			proved++
			if el > 11*time.Second { // past the budget and its 10% tolerance
				late++
			}
		}
		if sa.Status == "safe" {
			spacer++
			if r.Verdict == "proved" {
				x := el.Seconds() / sa.Elapsed.Seconds()
				ratios = append(ratios, x)
				ratio = fmtFloat(x) + "×"
			}
		}
		t.Logf("| %s | %s | %s | %.0f ms | %s | %.0f ms | %s |", filepath.Base(f), r.Verdict, method, ms(el), sa.Status+suffix(sa.Reason), ms(sa.Elapsed), ratio)
	}
	sort.Float64s(ratios)
	med := 0.0
	if len(ratios) > 0 {
		med = ratios[len(ratios)/2]
	}
	t.Logf("proved %d/%d (%d of them after 11 s), Spacer alone %d, wrong %d; time ratio to Spacer alone on the %d both solve: median %s×, max %s×",
		proved, len(files), late, spacer, wrong, len(ratios), fmtFloat(med), fmtFloat(last(ratios)))
}

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

func last(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return xs[len(xs)-1]
}
