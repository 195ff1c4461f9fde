package prove

import (
	"os"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/frontend/jsonfront"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/z3"
)

// FuzzParseRSC: any .rsc text against the retry model's graph gives
// properties or a located error, never a panic.
func FuzzParseRSC(f *testing.F) {
	data, err := os.ReadFile("../../examples/retry.json")
	if err != nil {
		f.Fatal(err)
	}
	res, err := jsonmodel.Decode(data)
	if err != nil || !res.Valid() {
		f.Fatalf("retry.json: %v", err)
	}
	p, err := ModelProblem(jsonfront.FromModel(res.Model, "retry.json"))
	if err != nil {
		f.Fatal(err)
	}
	if rsc, err := os.ReadFile("../../examples/retry.rsc"); err == nil {
		f.Add(string(rsc))
	}
	for _, s := range []string{
		``, `// only a comment`, `rsc "IDLE": retry == 0;`, `rsc "NOPE": true;`, `rsc "IDLE" retry;`,
		`rsc "IDLE": retry == 0`, `rsc "WAIT": retry >= 0 && retry <= 3; rsc "FAILED": retry == 3;`,
		`rsc "IDLE": (((((retry)))));`, "rsc \"IDLE\": retry == 0;\x00", `rsc "\u00e9": 1 / 0 == 0;`,
		`rscx "IDLE": true;`, `rsc "IDLE": undefined_var > 1;`, `rsc "IDLE": retry == 99999999999999999999;`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if _, err := ParseRSC("f.rsc", src, p.Graph); err != nil && !strings.HasPrefix(err.Error(), "f.rsc:") {
			t.Errorf("error without its location: %v", err)
		}
	})
}

// FuzzCHCProblem: any SMT-LIB2 text gives a CHC problem or an error,
// never a panic or a Z3 abort.
func FuzzCHCProblem(f *testing.F) {
	for _, name := range []string{"fib.smt2", "counter2-unsafe.smt2", "bradley1.smt2"} {
		if src, err := os.ReadFile("../../bench/" + name); err == nil {
			f.Add(string(src))
		}
	}
	for _, s := range []string{
		``, `(`, `)`, `(set-logic HORN)`, `(declare-fun inv (Int) Bool)`,
		`(set-logic HORN)(declare-fun inv (Int) Bool)(assert (forall ((x Int)) (=> (= x 0) (inv x))))(assert (forall ((x Int)) (=> (and (inv x) (< x 0)) false)))(check-sat)`,
		`(assert (forall ((x Int)) (=> (inv x) (inv (+ x 1)))))`, `(declare-fun p (Real Bool) Bool)`, "(set-logic HORN)\x00",
		`(assert (=> true false))`, `(check-sat)(check-sat)`,
	} {
		f.Add(s)
	}
	ctx, err := z3.NewContext()
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { ctx.Close() })
	f.Fuzz(func(t *testing.T, src string) {
		CHCProblem(ctx, "f.smt2", src)
	})
}
