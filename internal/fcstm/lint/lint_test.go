package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/report"
)

func check(t *testing.T, src string) *Result {
	t.Helper()
	files := map[string]string{"m.fcstm": src}
	res, err := Check("m.fcstm", model.Options{ReadFile: func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, fmt.Errorf("no such file")
	}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// findings lists "CODE@line:col" of every finding.
func findings(r *report.VerifyReport) string {
	var out []string
	for _, c := range r.Checks {
		for _, f := range c.Findings {
			out = append(out, fmt.Sprintf("%s@%v:%v", f.Code, f.Evidence.Get("line"), f.Evidence.Get("col")))
		}
	}
	return strings.Join(out, " ")
}

func TestLints(t *testing.T) {
	tests := []struct {
		name, src, want, verdict string
	}{
		{"clean", "state R { state A; state B; [*] -> A; A -> B :: Go; B -> A :: Back; }", "", report.Pass},
		{"unreachable", "state R {\n state A;\n state B { state X; [*] -> X; }\n [*] -> A;\n}", "FCSTM_UNREACHABLE_STATE@3:2", report.PassWithFindings},
		{"unreachable behind dead parent", "state R {\n state P { state X; [*] -> X; }\n state Q;\n [*] -> P;\n P -> Q :: Go;\n}",
			"FCSTM_UNREACHABLE_STATE@3:2 FCSTM_DEAD_PARENT_TRANSITION@5:2", report.PassWithFindings},
		{"parent with exit is live", "state R {\n state P { state X; [*] -> X; X -> [*] :: Stop; }\n state Q;\n [*] -> P;\n P -> Q :: Go;\n}", "", report.Pass},
		{"forced makes the parent live", "state R {\n state P { state X; [*] -> X; }\n state Q;\n [*] -> P;\n !P -> Q :: Go;\n}", "", report.Pass},
		{"combo lints", "def int x = 0;\nstate R {\n state A;\n [*] -> A;\n A -> A :: Go + [1 > 2] + Go;\n}",
			"FCSTM_COMBO_CONSTANT_GUARD@5:17 FCSTM_COMBO_DUPLICATE_EVENT@5:27", report.PassWithFindings},
		{"anonymous abstract", "state R {\n state A { /* hook */ enter abstract; }\n [*] -> A;\n}", "FCSTM_ANONYMOUS_ABSTRACT@2:23", report.PassWithFindings},
		{"shadowed", "state R {\n state A;\n state B;\n [*] -> A;\n A -> B;\n A -> A :: Go;\n B -> A : if [1 > 2];\n}",
			"FCSTM_SHADOWED_TRANSITION@6:2 FCSTM_DEAD_GUARD@7:2", report.PassWithFindings},
		{"guarded is not shadowing", "def int x = 0;\nstate R {\n state A;\n state B;\n [*] -> A;\n A -> B : if [x > 0];\n A -> A :: Go;\n B -> A;\n}", "", report.Pass},
		{"unconditional into a composite is not shadowing", "state R {\n state A;\n state C { state X; [*] -> X; }\n [*] -> A;\n A -> C;\n A -> A :: Go;\n}", "", report.Pass},
		{"pseudo dead end", "state R {\n state A;\n pseudo state P;\n [*] -> A;\n A -> P :: Go;\n}", "FCSTM_PSEUDO_DEAD_END@3:2", report.PassWithFindings},
		{"bad initial value", "def int n = 7 / 2;\nstate R;", "FCSTM_INIT_INVALID@1:13", report.Fail},
		{"syntax error", "state R {\n state A\n}", "E_SYNTAX@3:1", report.Fail},
		{"validation errors", "state R {\n state A;\n A -> B;\n}", "E_NO_INITIAL@1:7 E_UNKNOWN_STATE@3:7", report.Fail},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := check(t, tc.src)
			if got := findings(res.Report); got != tc.want {
				t.Errorf("findings %q, want %q", got, tc.want)
			}
			if v, _ := res.Report.Verdict(); v != tc.verdict {
				t.Errorf("verdict %s, want %s", v, tc.verdict)
			}
			if (res.Model == nil) == res.Report.Valid {
				t.Errorf("Valid %v but model %v", res.Report.Valid, res.Model)
			}
		})
	}
}

// TestLoadErrorLocatedForSARIF: a load error is placed on its line and
// carries the caret snippet.
func TestLoadErrorLocatedForSARIF(t *testing.T) {
	res := check(t, "state R {\n  state A;\n  [*] -> A;\n  A -> A : Go @;\n}")
	f := res.Report.Checks[0].Findings[0]
	if loc := res.Locator()(&f); loc.URI != "m.fcstm" || loc.Line != 4 || loc.Col != 15 {
		t.Errorf("location %+v", loc)
	}
	if f.Detail != "  A -> A : Go @;\n              ^" {
		t.Errorf("detail %q", f.Detail)
	}
	j := res.Report.JSON()
	if j.Get("ok") != false || j.Get("schema") != report.VerifySchema {
		t.Errorf("json ok=%v schema=%v", j.Get("ok"), j.Get("schema"))
	}
}
