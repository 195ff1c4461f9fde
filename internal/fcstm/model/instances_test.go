package model

import (
	"strings"
	"testing"
)

// counterFS holds a unit with one counter, bumped on its own event, and a
// unit importing it without a def mapping.
var counterFS = memFS{
	"counter.fcstm": "def int p = 0;\nstate C { state Idle; [*] -> Idle; Idle -> Idle :: Bump effect { p = p + 1; } }",
	"pair.fcstm":    "state Pair { import \"counter.fcstm\" as In; [*] -> In; }",
}

// An import without a def mapping names each variable alias_name, so two
// instances of one unit have a variable each, and the host reads them
// under those names (pyfcstm's default).
func TestImportInstancesOwnVariables(t *testing.T) {
	src := `state H { import "counter.fcstm" as A; import "counter.fcstm" as B; import "pair.fcstm" as P;
[*] -> A; A -> B : if [A_p > 1 && B_p == 0 && P_In_p == 0]; }`
	m, err := Parse("h.fcstm", src, Options{ReadFile: counterFS.read})
	if err != nil {
		t.Fatal(err)
	}
	if got := varNames(m); got != "A_p B_p P_In_p" {
		t.Fatalf("variables %s, want A_p B_p P_In_p", got)
	}
	d := Dump(m)
	for _, want := range []string{"A_p = A_p + 1", "B_p = B_p + 1", "P_In_p = P_In_p + 1", "A_p > 1 && B_p == 0 && P_In_p == 0"} {
		if !strings.Contains(d, want) {
			t.Errorf("the model does not contain %q:\n%s", want, d)
		}
	}
}

// A variable that no def mapping of its import matches is refused at the
// import, naming it; a default name that already exists is refused too,
// where binding it would silently join two variables.
func TestImportNamingErrors(t *testing.T) {
	tests := []struct{ src, code, pos, msg string }{
		{`state H { import "counter.fcstm" as A { def q -> r; } [*] -> A; }`, "E_IMPORT_MAP", "1:37",
			`no def mapping of import A matches variable "p" (counter.fcstm:1:9)`},
		{`def int A_p = 0; state H { import "counter.fcstm" as A; [*] -> A; }`, "E_IMPORT_CONFLICT", "1:9",
			`"p" of the import is named "A_p" by default (alias, underscore, name), but "A_p" already exists (at h.fcstm:1:9)`},
		{`state H { import "pair.fcstm" as P { def x -> y; } [*] -> P; }`, "E_IMPORT_MAP", "1:34",
			`no def mapping of import P matches variable "In_p" (counter.fcstm:1:9)`},
	}
	for _, tc := range tests {
		_, err := Parse("h.fcstm", tc.src, Options{ReadFile: counterFS.read})
		e := firstError(err)
		if e == nil || e.Code != tc.code || e.Pos.String() != tc.pos || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s:\ngot %v\nwant %s at %s containing %q", tc.src, err, tc.code, tc.pos, tc.msg)
		}
	}
}
