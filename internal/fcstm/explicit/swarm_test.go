package explicit

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/swarm"
)

// verifyHunted is what the one-process search reports of the findings a
// swarm hunts, by swarm key, with the length of the shortest path, and
// whether the search was exhaustive (so that it reports them all).
func verifyHunted(t *testing.T, m *model.Model, cap int) (map[string]int, bool) {
	t.Helper()
	c, _, err := Check(m, Options{MaxStates: cap}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	exhaustive := true
	for _, f := range c.Findings {
		switch f.Code {
		case "FCSTM_DEAD_END":
			out[deadEndKey+f.Target.(string)] = len(f.Path)
		case "FCSTM_CYCLE_RAISES":
			_, err, _ := strings.Cut(f.Message, " raises: ")
			err, _, _ = strings.Cut(err, "; the path shown")
			// verify names the file as loaded, a swarm relative to the
			// root file's folder
			err = strings.TrimPrefix(err, filepath.Dir(m.File)+string(filepath.Separator))
			out[raisesKey+err] = len(f.Path)
		case "FCSTM_SEARCH_UNDECIDED":
			exhaustive = false
		}
	}
	return out, exhaustive
}

// members runs n members of a swarm on m, as the CLI does: each process
// its own Machine.
func members(t *testing.T, m *model.Model, n, cap int) []swarm.Input {
	t.Helper()
	var in []swarm.Input
	for i := range n {
		mc, err := New(m)
		if err != nil {
			t.Fatal(err)
		}
		r := swarm.Run(SwarmTarget(mc), swarm.NewPlan(i, n, 7, cap))
		r.ModelHash = "h"
		in = append(in, swarm.Input{Name: fmt.Sprintf("m%d.json", i), Report: r})
	}
	return in
}

func mergeOn(t *testing.T, m *model.Model, in []swarm.Input, cap int) (*swarm.Report, error) {
	t.Helper()
	mc, err := New(m)
	if err != nil {
		t.Fatal(err)
	}
	return swarm.Merge(SwarmTarget(mc), "x", "h", in, swarm.Options{Cap: cap})
}

// raisingCounter is the generated counter whose cycle raises at c = k: a
// division by zero there, so that state is also a dead end.
func raisingCounter(n, k int) string {
	return strings.Replace(gen.CounterFCSTM(n), "c = c + 1;", fmt.Sprintf("c = c + 1 + 0 / (%d - c);", k), 1)
}

// TestSwarmFindsVerifyFindings: where the swarm covers the space (member
// 0, a depth-first search without depth limit, explores all of it), the
// merge of four members' reports has exactly the cycles that raise and
// the dead ends of the one-process search, each with a path as short as
// verify's, proved shortest; where nothing is found the merge is
// undecided, never pass.
func TestSwarmFindsVerifyFindings(t *testing.T) {
	sources := map[string]string{
		"dead end":        "state R { state A; state B; [*] -> A; A -> B :: Go; }\n",
		"raises":          "def int x = 2;\ndef int y = 0;\nstate R { state A; [*] -> A;\n A -> A :: Tick effect { x = (x + 1) % 3; };\n A -> A :: Div effect { y = 10 / x; };\n}\n",
		"entering raises": "def int x = 0;\nstate R { state A; state B { enter { x = 1 / x; } } [*] -> A; A -> B :: Go; B -> A :: Back; }\n",
		"gen counter 30":  gen.CounterFCSTM(30),
		"gen toggles 6":   gen.TogglesFCSTM(6),
		"raising counter": raisingCounter(60, 25),
	}
	models := map[string]*model.Model{}
	for name, src := range sources {
		models[name] = parse(t, src)
	}
	for _, name := range []string{"explain/raises.fcstm", "explain/zero-divisor.fcstm", "explain/tank-level.fcstm", "washing_machine.fcstm"} {
		m, err := model.Load(filepath.Join("..", "..", "..", "examples", "fcstm", name))
		if err != nil {
			t.Fatal(err)
		}
		models[name] = m
	}
	for name, m := range models {
		t.Run(name, func(t *testing.T) {
			want, exhaustive := verifyHunted(t, m, 100000)
			if !exhaustive {
				t.Fatal("the one-process search is not exhaustive")
			}
			in := members(t, m, 4, 100000)
			for _, x := range in {
				if x.Report.Verdict == swarm.Fail && x.Report.ExitCode != 1 || x.Report.Verdict != swarm.Fail && (x.Report.Verdict != swarm.Undecided || x.Report.ExitCode != 3) {
					t.Errorf("%s: %s exit %d", x.Name, x.Report.Verdict, x.Report.ExitCode)
				}
			}
			out, err := mergeOn(t, m, in, 100000)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for _, v := range out.Violations {
				got[v.Invariant] = len(v.Path)
				if !*v.ProvedShortest {
					t.Errorf("%s: not proved shortest", v.Invariant)
				}
			}
			t.Logf("verify %v", want)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("merge found %v, verify %v", got, want)
			}
			if len(want) == 0 && (out.Verdict != swarm.Undecided || out.ExitCode != 3) || len(want) > 0 && (out.Verdict != swarm.Fail || out.ExitCode != 1) {
				t.Errorf("merge: %s exit %d", out.Verdict, out.ExitCode)
			}
		})
	}
}

// TestSwarmFCSTMPortable: a report made on the model loaded by one path
// merges on the model loaded by another (another process, locations
// numbered in another order, errors named by another file path).
func TestSwarmFCSTMPortable(t *testing.T) {
	rel := filepath.Join("..", "..", "..", "examples", "fcstm", "explain", "zero-divisor.fcstm")
	abs, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	a, err := model.Load(rel)
	if err != nil {
		t.Fatal(err)
	}
	b, err := model.Load(abs)
	if err != nil {
		t.Fatal(err)
	}
	out, err := mergeOn(t, b, members(t, a, 2, 1000), 1000)
	if err != nil || len(out.Violations) != 2 {
		t.Fatalf("merge on the model by another path: %v, %+v", err, out)
	}
	for _, v := range out.Violations {
		if strings.Contains(v.Invariant, "..") || strings.Contains(v.Message, abs) {
			t.Errorf("a finding names the file as loaded: %q %q", v.Invariant, v.Message)
		}
	}
}

// TestMergeRefusesForgedFCSTMPaths: a step whose input set names no
// event, is not in braces, leaves or enters another state than it
// claims, or a path that stops short of the finding, is refused.
func TestMergeRefusesForgedFCSTMPaths(t *testing.T) {
	m := parse(t, raisingCounter(10, 4))
	var good *swarm.Report
	for _, x := range members(t, m, 1, 1000) {
		good = x.Report
	}
	if len(good.Violations) != 2 {
		t.Fatalf("member found %+v", good.Violations)
	}
	if _, err := mergeOn(t, m, []swarm.Input{{Name: "good.json", Report: good}}, 1000); err != nil {
		t.Fatalf("the member's own report: %v", err)
	}
	forge := map[string]func(p []swarm.Step) []swarm.Step{
		"short":      func(p []swarm.Step) []swarm.Step { return p[:len(p)-1] },
		"no event":   func(p []swarm.Step) []swarm.Step { p[1].Event = "{Counter.Nope}"; return p },
		"no braces":  func(p []swarm.Step) []swarm.Step { p[1].Event = ""; return p },
		"wrong from": func(p []swarm.Step) []swarm.Step { p[1].From = "Counter.Done"; return p },
		"wrong to":   func(p []swarm.Step) []swarm.Step { p[0].To = "Counter.Done"; return p },
		"longer":     func(p []swarm.Step) []swarm.Step { return append(p, p[len(p)-1]) },
	}
	for what, f := range forge {
		bad := *good
		bad.Violations = []swarm.Violation{good.Violations[0]}
		bad.Violations[0].Path = f(append([]swarm.Step(nil), good.Violations[0].Path...))
		_, err := mergeOn(t, m, []swarm.Input{{Name: "forged.json", Report: &bad}}, 1000)
		if err == nil || !strings.Contains(err.Error(), "forged.json: $.violations[0]") {
			t.Errorf("%s: merge accepted the path or said %v", what, err)
		} else {
			t.Logf("%s: %v", what, err)
		}
	}
	bad := *good
	bad.Violations = []swarm.Violation{good.Violations[0]}
	bad.Violations[0].Invariant = "raises: elsewhere"
	if _, err := mergeOn(t, m, []swarm.Input{{Name: "forged.json", Report: &bad}}, 1000); err == nil {
		t.Error("a path was merged as another finding's")
	}
}
