package format

import (
	"strings"
	"testing"
)

// TestFCSTMRules pins the layout rules of docs/fmt.md on small inputs.
func TestFCSTMRules(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"spacing and indentation",
			"def int x=-1;def float f=1.50e0;state R{state A;state B;[*]->A;A->B:Ev+[x>=-2&&f<.5];A->B::F;!*->A:/R.G;}",
			"def int x = -1;\ndef float f = 1.50e0;\nstate R {\n    state A;\n    state B;\n    [*] -> A;\n    A -> B : Ev + [x >= -2 && f < .5];\n    A -> B :: F;\n    !* -> A : /R.G;\n}\n"},
		{"one statement per line, short blocks stay",
			"state R { state A { enter { x = 1; y = 2; } during { x = abs(x - 1) ** 2; } } [*] -> A effect {\n if [x > 0] { x = 0; } else { x = 1; } } }",
			"state R {\n    state A {\n        enter {\n            x = 1;\n            y = 2;\n        }\n        during { x = abs(x - 1) ** 2; }\n    }\n    [*] -> A effect {\n        if [x > 0] { x = 0; } else { x = 1; }\n    }\n}\n"},
		{"blank lines: at most one, none at block edges; lone semicolons go",
			"state R {\n\n\n    state A;;\n\n\n\n    state B;\n\n}\n\n\n",
			"state R {\n    state A;\n\n    state B;\n}\n"},
		{"comments stay where they are",
			"// head\n\n# more\ndef int x = 0; // x\ndef int long_name = 0; // aligned\nstate R { // opens\n    /* doc */\n    state A;\n    /* doc B */ state B;\n    enter abstract Go /* trailing doc */;\n    // last\n}\n// tail\n",
			"// head\n\n# more\ndef int x = 0;         // x\ndef int long_name = 0; // aligned\nstate R { // opens\n    /* doc */\n    state A;\n    /* doc B */ state B;\n    enter abstract Go /* trailing doc */;\n    // last\n}\n// tail\n"},
		{"only comments of adjacent lines align (a comment of several lines counts them all)",
			"def int x = 0; // a\n/* m\nn */ def int y = 0; // b\ndef int zz = 0; // c\nstate R;",
			"def int x = 0; // a\n/* m\nn */ def int y = 0; // b\ndef int zz = 0;     // c\nstate R;\n"},
		{"a line comment inside a statement continues it one level deeper",
			"state R { state A; [*] -> A : if [x > 0 // why\n && x < 3]; }",
			"state R {\n    state A;\n    [*] -> A : if [x > 0 // why\n        && x < 3];\n}\n"},
		{"imports: selectors and templates as written",
			"state R { import \"lib/p.fcstm\" as P named \"p\" { def sensor_* -> left_$1; def {a, b} -> *; def x -> y_${0}; event /Reset -> /R.Reset named \"r\"; } [*] -> P; }",
			"state R {\n    import \"lib/p.fcstm\" as P named \"p\" {\n        def sensor_* -> left_$1;\n        def {a, b} -> *;\n        def x -> y_${0};\n        event /Reset -> /R.Reset named \"r\";\n    }\n    [*] -> P;\n}\n"},
		{"empty blocks and aspects",
			"state R { state A {  } >> during before { } exit abstract Stop; [*] -> A effect {\n} ; }",
			"state R {\n    state A {}\n    >> during before {}\n    exit abstract Stop;\n    [*] -> A effect {}\n}\n"},
		{"signs and subtraction",
			"state R { state A; [*] -> A effect { x = - x - -1 + (-x) * - - 2 - y / -z; } }",
			"state R {\n    state A;\n    [*] -> A effect { x = -x - -1 + (-x) * --2 - y / -z; }\n}\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := Source("t.fcstm", []byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, c.want)
			}
		})
	}
}

// TestSourceErrors: text that does not parse, or a file type the
// formatter does not know, is refused with a located message.
func TestSourceErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"m.fcstm", "state R {\n  state A\n}", "m.fcstm:3:1: expected"},
		{"q.fbmcq", "check reach <= : x;", "q.fbmcq:1:16:"},
		{"m.json", "{}", "m.json: cannot format this file"},
	} {
		_, err := Source(c.name, []byte(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error starting %q", c.name, err, c.want)
		}
	}
}
