package lint

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/inspect/codes"
)

// lintExamples raise each code the lints emit (on a model that loads).
var lintExamples = map[string]string{
	"FCSTM_INIT_INVALID":           "def int n = 7 / 2;\nstate R;",
	"FCSTM_DEPTH_LIMIT":            nested(model.MaxDepth + 2),
	"FCSTM_UNREACHABLE_STATE":      "state R {\n state A;\n state B;\n [*] -> A;\n}",
	"FCSTM_DEAD_PARENT_TRANSITION": "state R {\n state P { state X; [*] -> X; }\n state Q;\n [*] -> P;\n P -> Q :: Go;\n}",
	"FCSTM_DEAD_GUARD":             "state R {\n state A;\n state B;\n [*] -> A;\n A -> B : if [1 > 2];\n B -> A;\n}",
	"FCSTM_SHADOWED_TRANSITION":    "state R {\n state A;\n state B;\n [*] -> A;\n A -> B;\n A -> A :: Go;\n B -> A;\n}",
	"FCSTM_PSEUDO_DEAD_END":        "state R {\n state A;\n pseudo state P;\n [*] -> A;\n A -> P :: Go;\n}",
	"FCSTM_COMBO_DUPLICATE_EVENT":  "state R {\n state A;\n [*] -> A;\n A -> A :: Go + Go;\n}",
	"FCSTM_COMBO_CONSTANT_GUARD":   "state R {\n state A;\n [*] -> A;\n A -> A :: Go + [1 > 2];\n}",
	"FCSTM_ANONYMOUS_ABSTRACT":     "state R {\n state A { /* hook */ enter abstract; }\n [*] -> A;\n}",
	"FCSTM_ASPECT_ON_LEAF":         "state R {\n state A { >> during before { } }\n [*] -> A;\n}",
}

// emitted is every lint code of res with its severity and check (the
// MODEL check's load errors are the loader's codes, docs/fcstm.md#errors).
func emitted(res *Result) map[string][2]string {
	out := map[string][2]string{}
	for _, c := range res.Report.Checks {
		if c.ID == CheckModel {
			continue
		}
		for _, f := range c.Findings {
			out[f.Code] = [2]string{f.Severity, c.ID}
		}
	}
	return out
}

// TestRegistryHoldsEveryCode: every code the lints emit is verify's name
// of a registry entry (package codes), with the registry's severity; and
// every verify name of the registry is emitted by its example. The lints
// are walked over their examples, the repository's FCSTM examples and
// pyfcstm's registry examples, which cover every construct of the
// language pyfcstm has a code for.
func TestRegistryHoldsEveryCode(t *testing.T) {
	srcs := map[string]string{}
	for code, src := range lintExamples {
		srcs["lint "+code] = src
	}
	files, _ := filepath.Glob("../../../examples/fcstm/*.fcstm")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[f] = string(data)
	}
	data, err := os.ReadFile(fcstmtest.SharedFixture(t, "pyfcstm-diagnostics/codes.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var reg map[string]struct {
		Example string `yaml:"example_dsl"`
	}
	if err := yaml.Unmarshal(data, &reg); err != nil {
		t.Fatal(err)
	}
	for name, e := range reg {
		if e.Example != "" {
			srcs["pyfcstm "+name] = e.Example
		}
	}
	seen := map[string]bool{}
	for name, src := range srcs {
		for code, got := range emitted(CheckSource("m.fcstm", []byte(src), model.Options{})) {
			seen[code] = true
			c, ok := codes.Lookup(code)
			switch {
			case !ok || c.Verify != code:
				t.Errorf("%s: the lints emit %s, which is no verify code of the registry", name, code)
			case c.Severity != got[0] || c.Check != got[1]:
				t.Errorf("%s: %s has severity %s in check %s, the registry says %s in %s", name, code, got[0], got[1], c.Severity, c.Check)
			}
		}
	}
	var missing []string
	for _, c := range codes.All() {
		if c.Verify == "" {
			continue
		}
		if src, ok := lintExamples[c.Verify]; !ok {
			t.Errorf("no example model for %s", c.Verify)
		} else if _, ok := emitted(CheckSource("m.fcstm", []byte(src), model.Options{}))[c.Verify]; !ok {
			t.Errorf("the example of %s does not raise it", c.Verify)
		}
		if !seen[c.Verify] {
			missing = append(missing, c.Verify)
		}
		if c.Check == "" {
			t.Errorf("%s: the registry names no verify check", c.Verify)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("registry codes no lint emitted: %v", missing)
	}
	for code := range lintExamples {
		if c, ok := codes.Lookup(code); !ok || c.Verify != code {
			t.Errorf("example for %s, which is no verify code of the registry", code)
		}
	}
}
