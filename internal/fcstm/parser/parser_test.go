package parser

import (
	"errors"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/ast"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		code      string
		pos       string // line:col
		msg       string // substring of the message
	}{
		{"missing semicolon", "state R {\n  state A\n}", "E_SYNTAX", "3:1", `expected ";" or "{" after the state name, found "}"`},
		{"two roots", "state A;\nstate B;", "E_SYNTAX", "2:1", "exactly one root state"},
		{"def after root", "state A;\ndef int x = 0;", "E_SYNTAX", "2:1", "before the root state"},
		{"def inside state", "state A { def int x = 0; }", "E_SYNTAX", "1:11", "top of the file"},
		{"no root", "def int x = 0;", "E_SYNTAX", "1:15", `expected "def" or the root "state", found end of file`},
		{"reserved state pi", "state R { state pi; }", "E_RESERVED_NAME", "1:17", `"pi" is reserved`},
		{"reserved state abs", "state R { state abs; [*] -> abs; }", "E_RESERVED_NAME", "1:17", `cannot be used as a state name`},
		{"reserved var E", "def int E = 1; state R;", "E_RESERVED_NAME", "1:9", `"E" is reserved`},
		{"reserved event tau", "state R { event tau; }", "E_RESERVED_NAME", "1:17", `"tau" is reserved`},
		{"reserved keyword state name", "state R { state effect; }", "E_RESERVED_NAME", "1:17", `"effect"`},
		{"reserved event in trigger", "state R { state A; [*] -> A; A -> A : round; }", "E_RESERVED_NAME", "1:39", `"round" is reserved`},
		{"reserved temp", "state R { state A { during { sign = 1; } } [*] -> A; }", "E_RESERVED_NAME", "1:30", `"sign"`},
		{"init reads var", "def int x = 0; def int y = x + 1; state R;", "E_INIT_NOT_CONSTANT", "1:28", `cannot read "x"`},
		{"init conditional", "def int y = (true) ? 1 : 2; state R;", "E_INIT_NOT_CONSTANT", "1:13", "conditional"},
		{"dotted endpoint", "state R { state A; [*] -> A.B; }", "E_SYNTAX", "1:27", "not paths"},
		{"E if guard", "state R { state A; [*] -> A; A -> A :: Go if [x > 0]; }", "E_SYNTAX", "1:43", `"E + [cond]"`},
		{"local path", "state R { state A; [*] -> A; A -> A :: /Go; }", "E_SYNTAX", "1:40", `write ":" for the path /Go`},
		{"all guard local", "state R { state A; [*] -> A; A -> A :: [x > 0]; }", "E_SYNTAX", "1:37", `needs at least one event`},
		{"if then plus", "state R { state A; [*] -> A; A -> A : if [x > 0] + Go; }", "E_SYNTAX", "1:50", "single guard"},
		{"forced effect", "state R { state A; [*] -> A; !A -> A :: Go effect { }; }", "E_SYNTAX", "1:44", "no effect"},
		{"forced combo", "state R { state A; [*] -> A; !A -> A :: Go + Stop; }", "E_SYNTAX", "1:38", "not a combo"},
		{"init to exit", "state R { [*] -> [*]; }", "E_SYNTAX", "1:11", "[*] -> [*]"},
		{"empty guard", "state R { state A; [*] -> A; A -> A : []; }", "E_SYNTAX", "1:40", "empty guard"},
		{"bad guard expr", "state R { state A; [*] -> A; A -> A : [x >]; }", "E_SYNTAX", "1:43", "expected an expression"},
		{"doc before import", "state R { /* d */ import \"u.fcstm\" as U; }", "E_SYNTAX", "1:11", "cannot precede an import"},
		{"doc in ops", "state R { state A { during { /* d */ x = 1; } } }", "E_SYNTAX", "1:30", "documentation block"},
		{"unterminated doc", "state R { /* never closed", "E_SYNTAX", "1:11", "unterminated /* comment"},
		{"define in ops", "state R { state A { during { x := 1; } } }", "E_SYNTAX", "1:32", `written "="`},
		{"anonymous abstract", "state R { enter abstract; }", "E_SYNTAX", "1:11", "needs a name"},
		{"two docs on abstract", "state R { /* a */ enter abstract X /* b */; }", "E_SYNTAX", "1:19", "not both"},
		{"aspect without when", "state R { >> during { } }", "E_SYNTAX", "1:21", `"before" or "after"`},
		{"bad selector", "state R { import \"u.fcstm\" as U { def 9x -> y; } }", "E_SYNTAX", "1:39", "invalid variable name"},
		{"pattern stars in a row", "state R { import \"u.fcstm\" as U { def ******** -> y; } }", "E_SYNTAX", "1:39", `two "*" in a row`},
		{"pattern ten stars", "state R { import \"u.fcstm\" as U { def a*b*c*d*e*f*g*h*i*j*k -> y; } }", "E_SYNTAX", "1:39", `10 "*", at most 9`},
		{"pattern digit first", "state R { import \"u.fcstm\" as U { def 1_* -> y; } }", "E_SYNTAX", "1:39", "cannot start with a digit"},
		{"bad template", "state R { import \"u.fcstm\" as U { def a_* -> b_$x; } }", "E_SYNTAX", "1:46", "a placeholder is $0 (the whole name)"},
		{"unknown function in init", "def int x = foo(1); state R;", "E_SYNTAX", "1:13", `unknown function "foo"`},
		{"illegal char", "state R { state A; [*] -> A; A -> A : Go @; }", "E_SYNTAX", "1:42", "unexpected character '@'"},
		{"deep states", strings.Repeat("state S {", 300) + strings.Repeat("}", 300), "E_LIMIT", "1:2313", "nested more than 256"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("m.fcstm", tc.src)
			var e *ast.Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse: got %v, want an *ast.Error", err)
			}
			if e.Code != tc.code || e.Pos.String() != tc.pos || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("got %s %s %q\nwant %s %s containing %q", e.Code, e.Pos, e.Msg, tc.code, tc.pos, tc.msg)
			}
			if e.File != "m.fcstm" || !strings.HasPrefix(e.Error(), "m.fcstm:"+tc.pos+": ") {
				t.Errorf("Error() = %q, want the m.fcstm:%s: prefix", e.Error(), tc.pos)
			}
		})
	}
}

func TestSnippetCaret(t *testing.T) {
	src := "state R {\n\tstate A;\n\t[*] -> A;\n\tA -> A : Go @;\n}\n"
	_, err := Parse("m.fcstm", src)
	var e *ast.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v", err)
	}
	want := "\tA -> A : Go @;\n\t            ^"
	if got := e.Snippet(); got != want {
		t.Errorf("Snippet:\n%s\nwant:\n%s", got, want)
	}
	if d := e.Detail(); !strings.HasPrefix(d, "m.fcstm:4:14: unexpected character '@' [E_SYNTAX]\n    \tA -> A") {
		t.Errorf("Detail = %q", d)
	}
}

func TestParseShapes(t *testing.T) {
	src := `/* counter */ def int n = -3;
def float f = .5e1;
/* root doc */
state Root named "The root" {
    event Go named "go!";
    /* leaf */ pseudo state P;
    state A {
        enter Init { n = n + 1; }
        enter abstract Hook /* hook doc */;
        during before ref /Lib.Shared;
        >> during after abstract Watch;
        exit { if [n > 0] { n = 0; } else if [n < 0] { n = 1; } else { } }
        state B;
        [*] -> B :: Start + [n > 0] + Other.Go;
    }
    import "lib/unit.fcstm" as Lib named "Library" {
        def sensor_* -> left_${1};
        def {a, b} -> *;
        def * -> u_$1;
        event /Start -> Go named "start";
    }
    [*] -> A : if [n == 0];
    A -> P : /Lib.Tick + [f > 1.0];
    !A -> [*] :: Reset;
    !* -> A : Panic;
    P -> [*] effect { tmp = n; n = tmp * 2; };
}`
	f, err := Parse("m.fcstm", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Vars) != 2 || f.Vars[0].Doc != " counter " || f.Vars[1].Float != true {
		t.Errorf("vars: %+v", f.Vars)
	}
	if f.Root.Display != "The root" || f.Root.Doc != " root doc " || len(f.Root.Items) != 9 {
		t.Fatalf("root: %q %q %d items", f.Root.Display, f.Root.Doc, len(f.Root.Items))
	}
	a := f.Root.Items[2].(*ast.StateDecl)
	hook := a.Items[1].(*ast.Action)
	if hook.Kind != ast.Abstract || hook.Name.Name != "Hook" || hook.Doc != " hook doc " {
		t.Errorf("abstract: %+v", hook)
	}
	if r := a.Items[2].(*ast.Action); r.Kind != ast.Ref || r.When != "before" || r.Ref.String() != "/Lib.Shared" {
		t.Errorf("ref: %+v", r)
	}
	if w := a.Items[3].(*ast.Action); !w.Aspect || w.When != "after" {
		t.Errorf("aspect: %+v", w)
	}
	if s := a.Items[4].(*ast.Action).Ops[0].(*ast.If); len(s.Branches) != 2 || !s.HasElse || len(s.Else) != 0 {
		t.Errorf("if: %+v", s)
	}
	init := a.Items[6].(*ast.Transition)
	if init.From != nil || !init.Trigger.Local || len(init.Trigger.Terms) != 3 || init.Trigger.Terms[2].Event.String() != "Other.Go" {
		t.Errorf("entry combo: %+v", init.Trigger)
	}
	im := f.Root.Items[3].(*ast.Import)
	if im.File != "lib/unit.fcstm" || im.Alias.Name != "Lib" || len(im.Defs) != 3 || len(im.Events) != 1 {
		t.Fatalf("import: %+v", im)
	}
	if d := im.Defs[0]; d.Kind != ast.SelectPattern || d.Names[0] != "sensor_*" || d.Target != "left_${1}" {
		t.Errorf("def 0: %+v", d)
	}
	if d := im.Defs[1]; d.Kind != ast.SelectSet || len(d.Names) != 2 || d.Target != "*" {
		t.Errorf("def 1: %+v", d)
	}
	if d := im.Defs[2]; d.Kind != ast.SelectAll || d.Target != "u_$1" {
		t.Errorf("def 2: %+v", d)
	}
	if e := im.Events[0]; !e.From.Absolute || e.To.String() != "Go" || e.Display != "start" {
		t.Errorf("event map: %+v", e)
	}
	tr := f.Root.Items[5].(*ast.Transition)
	if tr.Trigger.Local || !tr.Trigger.Terms[0].Event.Absolute || tr.Trigger.Terms[1].Guard == nil {
		t.Errorf("chain: %+v", tr.Trigger)
	}
	if g := f.Root.Items[4].(*ast.Transition).Trigger.Terms[0].Guard; expr.Format(g) != "n == 0" {
		t.Errorf("guard alias: %s", expr.Format(g))
	}
	if fo := f.Root.Items[6].(*ast.Forced); fo.From.Name != "A" || fo.To != nil || !fo.Trigger.Local {
		t.Errorf("forced: %+v", fo)
	}
	if fo := f.Root.Items[7].(*ast.Forced); fo.From != nil || fo.To.Name != "A" || fo.Trigger.Local {
		t.Errorf("forced all: %+v", fo)
	}
	if ex := f.Root.Items[8].(*ast.Transition); ex.To != nil || !ex.HasEffect || len(ex.Effect) != 2 {
		t.Errorf("exit: %+v", ex)
	}
}
