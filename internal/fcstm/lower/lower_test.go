package lower

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/sts"
)

func build(t testing.TB, src string) *model.Model {
	t.Helper()
	m, err := model.Parse("test.fcstm", src, model.Options{})
	if err != nil {
		t.Fatalf("model: %v\n%s", err, src)
	}
	return m
}

func lower(t testing.TB, src string) *sts.System {
	t.Helper()
	sys, err := Lower(build(t, src))
	if err != nil {
		t.Fatalf("lower: %v", err)
	}
	return sys
}

// dump renders the cases of sys, one per line, for test failure messages.
func dump(sys *sts.System) string {
	var b strings.Builder
	for _, src := range sys.Sources() {
		for i, c := range sys.Cases[src] {
			fmt.Fprintf(&b, "%d %s prio=%v", i, c.Label, c.Priority)
			for _, e := range c.Events {
				fmt.Fprintf(&b, " ev%d=%v", e.Event, e.Present)
			}
			for _, cd := range c.Conds {
				fmt.Fprintf(&b, " [%d:%d %s]", cd.After, cd.Mode, expr.Format(cd.Expr))
			}
			for _, e := range c.Effects {
				name := e.Temp
				if name == "" {
					name = sys.Vars[e.Var].Name
				}
				fmt.Fprintf(&b, " %s:=%s", name, expr.Format(e.Value))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func labels(sys *sts.System, src int) []string {
	var out []string
	for _, c := range sys.Cases[src] {
		out = append(out, c.Label)
	}
	return out
}

// The labels of seed 002's one-state model: the cold start enters Root or
// (never, but structurally) stays in a delta; Root falls back; the
// terminated sentinel absorbs.
func TestRootLabels(t *testing.T) {
	sys := lower(t, "state Root;")
	if got := strings.Join(labels(sys, sts.InitID), " "); got != "__init__::initial::Root::0 __init__::delta::__init__::0" {
		t.Errorf("init cases: %s", got)
	}
	if got := strings.Join(labels(sys, 0), " "); got != "Root::fallback::Root::0" {
		t.Errorf("Root cases: %s", got)
	}
	if got := strings.Join(labels(sys, sts.TerminatedID), " "); got != "__terminate__::absorb::__terminate__::0" {
		t.Errorf("terminated cases: %s", got)
	}
}

func TestUnsupportedIsRefusedWithItsLine(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"shift", "x = x << 1;", "bitwise operator <<"},
		{"bitand", "x = x & 3;", "bitwise operator &"},
		{"float mod", "y = y % 2;", "% on a float"},
		{"variable exponent", "x = 2 ** x;", "exponent"},
		{"transcendental", "y = sin(y);", "function sin"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "def int x = 1;\ndef float y = 1.5;\nstate R {\n  state A {\n    during { " + c.body + " }\n  }\n  [*] -> A;\n}\n"
			_, err := Lower(build(t, src))
			if err == nil {
				t.Fatalf("lowered %q", c.body)
			}
			msg := err.Error()
			if !strings.Contains(msg, "unsupported_bmc_core") || !strings.Contains(msg, c.want) || !strings.Contains(msg, "test.fcstm:5:") {
				t.Errorf("error %q: want unsupported_bmc_core, %q and test.fcstm:5", msg, c.want)
			}
		})
	}
}

// The pyfcstm semantic corpus under its BMC policy: every hard_pass model
// lowers, and every expected_unsupported one is refused as unsupported
// (TestPyfcstmAlignment replays each fixture's own trace).
func TestCorpusPolicy(t *testing.T) {
	files := fcstmtest.SharedModels(t)
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(files[0])), "bmc-policy.tsv"))
	if err != nil {
		t.Fatalf("the corpus has no bmc-policy.tsv: %v", err)
	}
	policy := map[string]string{}
	for _, line := range strings.Split(string(raw), "\n")[1:] {
		if f := strings.Split(line, "\t"); len(f) >= 2 {
			policy[f[0]] = f[1]
		}
	}
	counts := map[string]int{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".fcstm")
		mode := policy[name]
		if mode != "hard_pass" && mode != "expected_unsupported" {
			continue
		}
		m, err := model.Load(f)
		if err != nil {
			t.Errorf("%s: the model does not build: %v", name, err)
			continue
		}
		_, err = Lower(m)
		var le *Error
		switch {
		case mode == "hard_pass" && err != nil:
			t.Errorf("%s (hard_pass): %v", name, err)
		case mode == "expected_unsupported" && (!errors.As(err, &le) || !le.Unsupported):
			t.Errorf("%s (expected_unsupported): lowered with error %v", name, err)
		}
		counts[mode]++
	}
	if counts["hard_pass"] != 168 || counts["expected_unsupported"] != 10 {
		t.Errorf("policy counts %v, want 168 hard_pass and 10 expected_unsupported", counts)
	}
}
