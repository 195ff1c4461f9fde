package generate

import (
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// sharedActionModel runs one named concrete action from three slots: its
// own and two refs to it.
const sharedActionModel = `def int x = 0;
state Root {
    enter Init { x = x + 1; }
    state A {
        enter Again ref /Init;
    }
    state B {
        enter Again ref /Init;
    }
    [*] -> A;
    A -> B : if [x > 0] effect { x = 0; };
}
`

// TestTablesWriteAnActionOnce checks the walk every target shares: a
// concrete action run from several slots is one function, which each
// slot's entry names, and the guard and effect functions are numbered
// after it from the same count.
func TestTablesWriteAnActionOnce(t *testing.T) {
	m, err := model.Parse("shared.fcstm", sharedActionModel, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		target, file        string
		def, use            string // the action's definition and a slot naming it
		guardDef, effectDef string
	}{
		{"go", "shared.go", "func action1(", "run: action1}", "func guard2(", "func effect3("},
		{"python", "shared.py", "def _action1(", "run=_action1)", "def _guard2(", "def _effect3("},
		{"typescript", "shared.ts", "function action1(", "run: action1 }", "function guard2(", "function effect3("},
		{"c", "shared.c", "static void action1(", ", action1}, /*", "static fv guard2(", "static void effect3("},
	} {
		files, err := Generate(m, tc.target, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.target, err)
		}
		src := ""
		for _, f := range files {
			if f.Path == tc.file {
				src = string(f.Data)
			}
		}
		if n := strings.Count(src, tc.def); n != 1 {
			t.Errorf("%s: the shared action's function is written %d times, want once", tc.target, n)
		}
		if n := strings.Count(src, tc.use); n != 3 {
			t.Errorf("%s: %d slots run the shared action's function, want 3 (its own, two refs)", tc.target, n)
		}
		for _, def := range []string{tc.guardDef, tc.effectDef} {
			if !strings.Contains(src, def) {
				t.Errorf("%s: no %q: the functions are not numbered from one count", tc.target, def)
			}
		}
	}
}
