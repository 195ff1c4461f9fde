package explicit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/spill"
)

func codes(c report.Check) string {
	var out []string
	for _, f := range c.Findings {
		t, _ := f.Target.(string)
		out = append(out, f.Code+" "+t)
	}
	return strings.Join(out, "; ")
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		cap       int
		want      string
	}{
		{"clean", "def int x = 0;\nstate R { state A; state B; [*] -> A; A -> B :: Go effect { x = 1 - x; }; B -> A :: Back; }\n", 100, ""},
		{"unreached by guards", "def int x = 0;\nstate R { state A; state B; state C; [*] -> A;\n A -> B :: Go effect { x = 1; };\n B -> A :: Back;\n B -> C : if [x > 5];\n}\n", 100,
			"FCSTM_UNREACHED_STATE R.C"},
		{"dead end", "state R { state A; state B; [*] -> A; A -> B :: Go; }\n", 100, "FCSTM_DEAD_END R.B"},
		{"raises", "def int x = 2;\ndef int y = 0;\nstate R { state A; [*] -> A;\n A -> A :: Tick effect { x = (x + 1) % 3; };\n A -> A :: Div effect { y = 10 / x; };\n}\n", 100,
			"FCSTM_CYCLE_RAISES R.A"},
		{"entering raises", "def int x = 0;\nstate R { state A; state B { enter { x = 1 / x; } } [*] -> A; A -> B :: Go; B -> A :: Back; }\n", 100,
			"FCSTM_CYCLE_RAISES R.A; FCSTM_DEAD_END R.A; FCSTM_UNREACHED_STATE R.B"},
		// a shift by a huge count raises (it used to fail the evaluator)
		{"huge shift raises", "def int x = 0;\nstate R { state A; [*] -> A;\n A -> A :: Tick effect { x = 1 - x; };\n A -> A :: Shl effect { x = x << 9223372036854775807; };\n}\n", 100,
			"FCSTM_CYCLE_RAISES R.A"},
		{"capped", "def int x = 0;\nstate R { state A; [*] -> A; A -> A :: Go effect { x = x + 1; }; }\n", 20, "FCSTM_SEARCH_UNDECIDED "},
		{"beyond int64", "def int x = 1;\nstate R { state A; [*] -> A; A -> A :: Go effect { x = x * 1000; }; }\n", 100, "FCSTM_SEARCH_UNDECIDED "},
	} {
		c, _, err := Check(parse(t, tc.src), Options{MaxStates: tc.cap}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := codes(c); got != tc.want {
			t.Errorf("%s: findings %q, want %q (%s)", tc.name, got, tc.want, c.Detail)
		}
		for _, f := range c.Findings {
			if f.Code == "FCSTM_SEARCH_UNDECIDED" && !f.Undecided() || f.Code == "FCSTM_CYCLE_RAISES" && !f.HasPath {
				t.Errorf("%s: %+v", tc.name, f)
			}
			// A leaf entered only by cycles that raise is not ruled out
			// by the guards: the message must not say it is.
			if f.Code == "FCSTM_UNREACHED_STATE" && strings.Contains(tc.name, "raises") && !strings.Contains(f.Message, "raises") {
				t.Errorf("%s: %s", tc.name, f.Message)
			}
			t.Logf("%s: %s %v", tc.name, f.Message, f.Path)
		}
	}
}

// Dead ends are the same whatever the workers and the spilling: many
// nodes of two states are dead ends (every count rests in B or C), the
// report names the first of each, with its path.
func TestDeadEndsAnyWorkers(t *testing.T) {
	m := parse(t, "def int x = 0;\nstate R { state A; state B; state C; [*] -> A;\n A -> A :: Up effect { x = x + 1; };\n A -> B :: Stop;\n A -> C : if [x % 2 == 1];\n}\n")
	base, _, err := Check(m, Options{MaxStates: 2000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(base); got != "FCSTM_DEAD_END R.B; FCSTM_DEAD_END R.C; FCSTM_SEARCH_UNDECIDED " {
		t.Fatalf("findings %q", got)
	}
	for _, opts := range []Options{
		{MaxStates: 2000, Workers: 4},
		{MaxStates: 2000, Workers: 2, Spill: &explore.Spill{Memory: 1 << 30, Dir: spill.New(t.TempDir(), 0), MemoryNodes: 50}},
	} {
		c, stats, err := Check(m, opts, nil)
		if err != nil || fmt.Sprint(c) != fmt.Sprint(base) {
			t.Errorf("workers %d, spill %v: %v\n%v\nwant\n%v", opts.Workers, opts.Spill != nil, err, c, base)
		}
		if opts.Spill != nil && stats.Spills == 0 {
			t.Error("did not spill")
		}
	}
}
