package model

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/ast"
)

// memFS serves imported files from a map.
type memFS map[string]string

func (fs memFS) read(path string) ([]byte, error) {
	if s, ok := fs[path]; ok {
		return []byte(s), nil
	}
	return nil, fmt.Errorf("no such file")
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name, src string
		code, pos string
		msg       string
	}{
		{"unknown target", "state R { state A; [*] -> A; A -> B; }", "E_UNKNOWN_STATE", "1:35", `unknown target state "B" in R`},
		{"unknown source", "state R { state A; [*] -> A; C -> A; }", "E_UNKNOWN_STATE", "1:30", `(its children: A)`},
		{"no initial", "state R { state A; state B; A -> B; }", "E_NO_INITIAL", "1:7", `add "[*] -> A;"`},
		{"nested no initial", "state R { state A { state X; } [*] -> A; }", "E_NO_INITIAL", "1:17", "composite state R.A"},
		{"pseudo composite", "state R { pseudo state P { state X; [*] -> X; } [*] -> P; }", "E_PSEUDO_NOT_LEAF", "1:24", "must be a leaf"},
		{"duplicate state", "state R { state A; state A; [*] -> A; }", "E_DUPLICATE_STATE", "1:26", `"A" is declared twice`},
		{"duplicate var", "def int x = 0; def float x = 1.0; state R;", "E_DUPLICATE_VAR", "1:26", `"x" is defined twice`},
		{"combo name reserved", "state R { state __combo_1; [*] -> __combo_1; }", "E_RESERVED_NAME", "1:17", "reserved"},
		{"event prefix not a state", "state R { state A; [*] -> A; A -> A : Bus.Go; }", "E_UNKNOWN_EVENT_SCOPE", "1:39", "cannot find state R.Bus"},
		{"absolute prefix", "state R { state A; [*] -> A; A -> A : /Bus.Go; }", "E_UNKNOWN_EVENT_SCOPE", "1:40", "cannot find state R.Bus"},
		{"root repeated", "state R { state Bus; [*] -> Bus; Bus -> Bus : /R.Bus.E1; }", "E_ROOT_REPEATED", "1:48", "write /Bus.E1"},
		{"unknown guard var", "state R { state A; [*] -> A; A -> A : if [y > 0]; }", "E_UNKNOWN_VAR", "1:43", `unknown variable "y"`},
		{"temp not in guard", "state R { state A { during { t = 1; } } [*] -> A; A -> A : [t > 0]; }", "E_UNKNOWN_VAR", "1:61", `"t"`},
		{"temp read before assign", "def int x = 0; state R { state A { during { x = t; t = 1; } } [*] -> A; }", "E_UNKNOWN_VAR", "1:49", `"t"`},
		{"temp from one branch", "def int x = 0; state R { state A { during { if [x > 0] { t = 1; } x = t; } } [*] -> A; }", "E_UNKNOWN_VAR", "1:71", `"t"`},
		{"condition assigned", "def int x = 0; state R { state A { during { x = x > 1; } } [*] -> A; }", "E_TYPE", "1:49", "expected a number here, found a condition"},
		{"numeric guard", "def int x = 0; state R { state A; [*] -> A; A -> A : [x + 1]; }", "E_TYPE", "1:55", "expected a condition"},
		{"mixed operands", "def int x = 0; state R { state A; [*] -> A; A -> A : [x > 0 + (x < 1)]; }", "E_TYPE", "1:63", "never mix"},
		{"unknown function", "def int x = 0; state R { state A { during { x = foo(x); } } [*] -> A; }", "E_SYNTAX", "1:49", `unknown function "foo"`},
		{"missing ref", "state R { state A { enter ref Nope; } [*] -> A; }", "E_UNKNOWN_REF", "1:31", `no named action "Nope"`},
		{"ref to state", "state R { state A { enter ref /B; } state B; [*] -> A; }", "E_UNKNOWN_REF", "1:32", "not a state"},
		{"ref path prefix", "state R { state A { enter ref /X.Y; } [*] -> A; }", "E_UNKNOWN_REF", "1:32", "cannot find state R.X"},
		{"ref cycle", "state R { state A { enter P ref Q; enter Q ref P; } [*] -> A; }", "E_REF_CYCLE", "1:33", "leads back"},
		{"duplicate action", "state R { state A { enter I { } exit I { } } [*] -> A; }", "E_DUPLICATE_ACTION", "1:38", "declared twice"},
		{"during on composite", "state R { during { } state A; [*] -> A; }", "E_DURING_COMPOSITE", "1:11", `"during before" or "during after"`},
		{"during before on leaf", "state R { state A { during before { } } [*] -> A; }", "E_DURING_LEAF", "1:21", "plain during"},
		{"duplicate event", "state R { event Go; event Go; }", "E_DUPLICATE_EVENT", "1:27", "declared twice"},
		{"import missing", `state R { import "nope.fcstm" as U; [*] -> U; }`, "E_IMPORT", "1:18", "cannot read the imported file nope.fcstm"},
		{"import cycle", `state R { import "self.fcstm" as U; [*] -> U; }`, "E_IMPORT_CYCLE", "1:18", "import cycle"},
		{"import type conflict", `def float n = 0.0; state R { import "unit.fcstm" as U { def n -> n; } [*] -> U; }`, "E_IMPORT_CONFLICT", "1:9", `"n" is int in the imported file but the host declares it float`},
		{"import syntax", `state R { import "bad.fcstm" as U; [*] -> U; }`, "E_SYNTAX", "1:12", `closing the state, found end of file`},
		{"plain target for pattern", `state R { import "unit.fcstm" as U { def * -> k; } [*] -> U; }`, "E_IMPORT_MAP", "1:47", "same name"},
		{"capture out of range", `state R { import "unit.fcstm" as U { def n -> k_$2; } [*] -> U; }`, "E_IMPORT_MAP", "1:47", "placeholder $2 is out of range"},
	}
	fs := memFS{
		"self.fcstm": `state S { import "self.fcstm" as Again; [*] -> Again; }`,
		"unit.fcstm": "def int n = 1;\nstate Unit { state Idle; [*] -> Idle; Idle -> Idle :: Tick effect { n = n + 1; } }",
		"bad.fcstm":  "state Bad {",
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := "m.fcstm"
			if tc.name == "import cycle" {
				file = "self.fcstm"
			}
			_, err := Parse(file, tc.src, Options{ReadFile: fs.read})
			e := firstError(err)
			if e == nil {
				t.Fatalf("got %v, want an error", err)
			}
			if e.Code != tc.code || e.Pos.String() != tc.pos || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("got %s %s %q\nwant %s %s containing %q", e.Code, e.Pos, e.Msg, tc.code, tc.pos, tc.msg)
			}
		})
	}
}

func firstError(err error) *ast.Error {
	var list ast.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return list[0]
	}
	var e *ast.Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// TestBuildCollectsAllErrors: validation does not stop at the first
// error, and the list is sorted by position.
func TestBuildCollectsAllErrors(t *testing.T) {
	src := "state R {\n  state A;\n  A -> B;\n  A -> C : if [z];\n}"
	_, err := Parse("m.fcstm", src, Options{})
	var list ast.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("got %v", err)
	}
	var got []string
	for _, e := range list {
		got = append(got, e.Code+"@"+e.Pos.String())
	}
	want := "E_NO_INITIAL@1:7 E_UNKNOWN_STATE@3:8 E_UNKNOWN_STATE@4:8 E_UNKNOWN_VAR@4:16"
	if strings.Join(got, " ") != want {
		t.Errorf("got %s\nwant %s", strings.Join(got, " "), want)
	}
	if s := list[1].Snippet(); s != "  A -> B;\n       ^" {
		t.Errorf("snippet %q", s)
	}
}

// An imported unit that declares its event, mapped onto an event the host
// declares, shares the host's event: one event, the host's declaration.
func TestImportedDeclarationSharesHostEvent(t *testing.T) {
	fs := memFS{"counter.fcstm": "state Counter { event Tick; state Run; [*] -> Run; Run -> Run : Tick; }"}
	src := `state Host { event Tick named "host tick"; import "counter.fcstm" as C { event /Tick -> /Tick; } [*] -> C; }`
	m, err := Parse("host.fcstm", src, Options{ReadFile: fs.read})
	if err != nil {
		t.Fatalf("a mapped declaration must share the host event: %v", err)
	}
	ev := m.EventByPath["Host.Tick"]
	if ev == nil || ev.Display != "host tick" || ev.Pos.File != "host.fcstm" {
		t.Fatalf("Host.Tick = %+v, want the host's declaration", ev)
	}
	var run *Transition
	for _, tr := range m.StateByPath["Host.C"].Transitions {
		if tr.From != nil && tr.From.Name == "Run" {
			run = tr
		}
	}
	if run == nil || run.Event != ev {
		t.Fatalf("the unit's transition must fire on Host.Tick, got %+v", run)
	}
	// Declared twice in one file stays an error.
	if _, err := Parse("dup.fcstm", "state R { event Go; event Go; state A; [*] -> A; }", Options{}); firstError(err) == nil || firstError(err).Code != "E_DUPLICATE_EVENT" {
		t.Fatalf("a repeated declaration in one file: got %v", err)
	}
}
