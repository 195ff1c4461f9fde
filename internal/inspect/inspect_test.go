package inspect

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/lineend"
)

const leafModel = `def int x = 0;
state Root {
    state A;
    state B;
    [*] -> A;
    A -> B : if [x > 0];
}
`

func TestIgnoreFlag(t *testing.T) {
	all := Source("m.fcstm", []byte(leafModel), Options{})
	if !slices.Contains(codesOf(all), "W_LEAF_NO_OUTGOING_TRANSITION") || all.Suppressed != 0 {
		t.Fatalf("without --ignore: %v, %d suppressed", codesOf(all), all.Suppressed)
	}
	res := Source("m.fcstm", []byte(leafModel), Options{Ignore: []string{"W_LEAF_NO_OUTGOING_TRANSITION", "W_GUARD_VARS_NEVER_CHANGE"}})
	if slices.Contains(codesOf(res), "W_LEAF_NO_OUTGOING_TRANSITION") || slices.Contains(codesOf(res), "W_GUARD_VARS_NEVER_CHANGE") {
		t.Errorf("ignored codes reported: %v", codesOf(res))
	}
	if want := len(all.Diagnostics) - len(res.Diagnostics); res.Suppressed != want || want != 2 {
		t.Errorf("suppressed %d, want %d (2)", res.Suppressed, want)
	}
}

func TestIgnoreComments(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		gone      string
		suppress  int
	}{
		{"on the line", strings.Replace(leafModel, "state B;", "state B; // stateproof:ignore W_LEAF_NO_OUTGOING_TRANSITION B is final by design", 1), "W_LEAF_NO_OUTGOING_TRANSITION", 1},
		{"hash comment", strings.Replace(leafModel, "state B;", "state B; # stateproof:ignore W_LEAF_NO_OUTGOING_TRANSITION,W_UNUSED_EVENT final", 1), "W_LEAF_NO_OUTGOING_TRANSITION", 1},
		{"deprecated alias", strings.Replace(leafModel, "state B;", "state B; // stateproof:ignore W_DEADLOCK_LEAF pyfcstm's old name", 1), "W_LEAF_NO_OUTGOING_TRANSITION", 1},
		{"enclosing state", strings.Replace(leafModel, "state Root {", "state Root { // stateproof:ignore W_GUARD_VARS_NEVER_CHANGE config flag", 1), "W_GUARD_VARS_NEVER_CHANGE", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Source("m.fcstm", []byte(tc.src), Options{})
			if !res.Loaded {
				t.Fatalf("does not load: %v", res.Diagnostics)
			}
			if slices.Contains(codesOf(res), tc.gone) || res.Suppressed != tc.suppress {
				t.Errorf("got %v with %d suppressed, want %s gone and %d suppressed", codesOf(res), res.Suppressed, tc.gone, tc.suppress)
			}
		})
	}
	// A comment elsewhere, for another code, or inside a string does not
	// suppress.
	for _, src := range []string{
		strings.Replace(leafModel, "state A;", "state A; // stateproof:ignore W_LEAF_NO_OUTGOING_TRANSITION wrong line", 1),
		strings.Replace(leafModel, "state B;", "state B; // stateproof:ignore W_UNUSED_EVENT other code", 1),
		strings.Replace(leafModel, "state B;", `state B named "// stateproof:ignore W_LEAF_NO_OUTGOING_TRANSITION";`, 1),
		strings.Replace(leafModel, "state B;", "state B; // stateproof:ignoreW_LEAF_NO_OUTGOING_TRANSITION glued", 1),
	} {
		res := Source("m.fcstm", []byte(src), Options{})
		if !slices.Contains(codesOf(res), "W_LEAF_NO_OUTGOING_TRANSITION") || res.Suppressed != 0 {
			t.Errorf("suppressed by a comment that does not cover it: %v, %d suppressed\n%s", codesOf(res), res.Suppressed, src)
		}
	}
}

func TestParseIgnore(t *testing.T) {
	got, err := ParseIgnore(" W_UNUSED_EVENT, E_DUPLICATE_VAR ,I_NONTRIVIAL_SCC")
	if err != nil || !slices.Equal(got, []string{"W_UNUSED_EVENT", "E_DUPLICATE_VAR", "I_NONTRIVIAL_SCC"}) {
		t.Errorf("got %v, %v", got, err)
	}
	if got, err := ParseIgnore(""); err != nil || got != nil {
		t.Errorf("empty list: %v, %v", got, err)
	}
	for _, bad := range []string{"W_UNUSED_EVENT,", "unused", "X_FOO", "W_", "W_lower", "W_A B"} {
		if _, err := ParseIgnore(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	res := Source("m.fcstm", []byte("state Root { state A; state A; [*] -> A; }"), Options{})
	if res.Loaded || !res.HasError() {
		t.Fatalf("loaded: %v", res)
	}
	d := res.Diagnostics[0]
	if d.Code != "E_DUPLICATE_STATE" || d.Span != (Span{1, 29, 1, 30}) || d.Refs["state_name"] != "A" || d.Refs["parent_path"] != "Root" {
		t.Errorf("got %+v", d)
	}
	res = Source("m.fcstm", []byte("state Root { state A; [*] -> A; A -> "), Options{})
	if res.Loaded || len(res.Diagnostics) == 0 || res.Diagnostics[0].Code != "E_SYNTAX" || len(res.Diagnostics[0].Refs) != 0 {
		t.Errorf("syntax error: %+v", res.Diagnostics)
	}
}

// TestJSONShape pins the document's field names.
func TestJSONShape(t *testing.T) {
	data, err := json.Marshal(Source("m.fcstm", []byte(leafModel), Options{Ignore: []string{"W_UNWRITTEN_READ_VAR"}}))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema      string `json:"schema"`
		Suppressed  *int   `json:"suppressed"`
		Diagnostics []map[string]json.RawMessage
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != Schema || doc.Suppressed == nil || *doc.Suppressed != 1 || len(doc.Diagnostics) == 0 {
		t.Fatalf("document %s", data)
	}
	for _, d := range doc.Diagnostics {
		for _, k := range []string{"code", "severity", "message", "span", "basis", "refs"} {
			if _, ok := d[k]; !ok {
				t.Errorf("diagnostic without %s: %s", k, data)
			}
		}
		var sp map[string]int
		if err := json.Unmarshal(d["span"], &sp); err != nil || len(sp) != 4 || sp["line"] < 1 || sp["end_column"] < 1 {
			t.Errorf("span %s", d["span"])
		}
	}
}

// TestSorted: diagnostics come in source order.
func TestSorted(t *testing.T) {
	res := Source("m.fcstm", []byte(leafModel), Options{})
	for i := 1; i < len(res.Diagnostics); i++ {
		p, q := res.Diagnostics[i-1].Span, res.Diagnostics[i].Span
		if p.Line > q.Line || p.Line == q.Line && p.Column > q.Column {
			t.Errorf("out of order: %+v before %+v", p, q)
		}
	}
}

func FuzzParseIgnore(f *testing.F) {
	for _, s := range []string{"W_UNUSED_EVENT", " W_A, E_B ", "", ",", "W_", "I_X,,W_Y", "é_X"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		codes, err := ParseIgnore(list)
		if err != nil {
			return
		}
		for _, c := range codes {
			if !IsCodeName(c) {
				t.Fatalf("%q accepted %q", list, c)
			}
		}
		again, err := ParseIgnore(strings.Join(codes, ","))
		if err != nil || !slices.Equal(again, codes) {
			t.Fatalf("round trip of %q: %v, %v", list, again, err)
		}
	})
}

// FuzzSource: inspecting any text never panics, and every diagnostic of
// a loaded model has a code of the registry and a span inside the text.
func FuzzSource(f *testing.F) {
	f.Add(leafModel)
	f.Add("state Root { state A; // stateproof:ignore W_LEAF_NO_OUTGOING_TRANSITION x\n [*] -> A; }")
	f.Add("def float g = 1.5; def int f = 1; state R { state A { during { f = f & g; f = f / 0; } } [*] -> A; A -> A :: E + E; }")
	f.Add("state R { event E; state A { state B; [*] -> B; } [*] -> A; A -> A : if [1 > 2]; }")
	f.Fuzz(func(t *testing.T, src string) {
		res := Source("f.fcstm", []byte(src), Options{})
		lines := lineend.Count(src) + 1 // "\n", "\r\n" and a lone "\r" end lines
		for _, d := range res.Diagnostics {
			if res.Loaded {
				if _, ok := Lookup(d.Code); !ok {
					t.Fatalf("code %s is not in the registry", d.Code)
				}
			}
			if d.Span.Line < 1 || d.Span.Line > lines || d.Span.EndLine < d.Span.Line {
				t.Fatalf("span %+v outside the %d lines", d.Span, lines)
			}
		}
		_ = newSource(src).ignoreComments()
	})
}

// TestIgnoreAlias: --ignore with pyfcstm's deprecated alias drops the
// code it stands for.
func TestIgnoreAlias(t *testing.T) {
	res := Source("m.fcstm", []byte(leafModel), Options{Ignore: []string{"W_DEADLOCK_LEAF"}})
	if slices.Contains(codesOf(res), "W_LEAF_NO_OUTGOING_TRANSITION") || res.Suppressed != 1 {
		t.Errorf("got %v, %d suppressed", codesOf(res), res.Suppressed)
	}
}

// TestIgnoreVerifyName: verify's name of a problem inspect reports under
// pyfcstm's code drops that code, on the command line and in a comment,
// as a pyfcstm alias does; a verify name of another code drops nothing.
func TestIgnoreVerifyName(t *testing.T) {
	src := "state R {\n state A;\n state B;\n [*] -> A;\n A -> B : if [1 > 2];\n B -> A;\n}"
	for _, tc := range []struct {
		name, src string
		ignore    []string
		gone      bool
	}{
		{"flag", src, []string{"FCSTM_DEAD_GUARD"}, true},
		{"comment", strings.Replace(src, "if [1 > 2];", "if [1 > 2]; // stateproof:ignore FCSTM_DEAD_GUARD kept for a test", 1), nil, true},
		{"other verify code", src, []string{"FCSTM_SHADOWED_TRANSITION"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Source("m.fcstm", []byte(tc.src), Options{Ignore: tc.ignore})
			if got := !slices.Contains(codesOf(res), "W_GUARD_CONST_FALSE"); got != tc.gone || tc.gone != (res.Suppressed == 1) {
				t.Errorf("got %v with %d suppressed, want W_GUARD_CONST_FALSE gone: %v", codesOf(res), res.Suppressed, tc.gone)
			}
		})
	}
}

// bigModel writes a model of about n lines: a chain of composites, each
// with leaves, guarded transitions, effects, actions and suppression
// comments, so that every analyzer has work.
func bigModel(n int) string {
	var b strings.Builder
	b.WriteString("def int x = 0;\ndef float g = 1.5;\ndef int unused = 0;\nstate Root {\n")
	k := 0
	for lines := 4; lines < n; lines += 9 {
		fmt.Fprintf(&b, "    state S%d { // stateproof:ignore W_UNUSED_EVENT generated\n", k)
		fmt.Fprintf(&b, "        event Spare;\n        state A { during { x = x + 1; } }\n        state B;\n")
		fmt.Fprintf(&b, "        [*] -> A;\n        A -> B : if [x %% 7 == %d] effect { x = x / (1 - 1); };\n", k%7)
		fmt.Fprintf(&b, "        B -> A :: Go + Go;\n        B -> [*] : if [1 > 2];\n    }\n")
		k++
	}
	b.WriteString("    [*] -> S0;\n")
	for i := 0; i+1 < k; i++ {
		fmt.Fprintf(&b, "    S%d -> S%d;\n", i, i+1)
	}
	b.WriteString("}\n")
	return b.String()
}

// BenchmarkSource2000 inspects a 2,000-line model (issue 41 asks for
// under 200 ms).
func BenchmarkSource2000(b *testing.B) {
	src := []byte(bigModel(2000))
	res := Source("big.fcstm", src, Options{})
	if !res.Loaded || len(res.Diagnostics) == 0 || res.Suppressed == 0 {
		b.Fatalf("the generated model: loaded %v, %d diagnostics, %d suppressed", res.Loaded, len(res.Diagnostics), res.Suppressed)
	}
	b.ResetTimer()
	for range b.N {
		Source("big.fcstm", src, Options{})
	}
}

// TestLoadErrorsUnderPyfcstmNames: the loader's E_DURING_COMPOSITE is
// reported as pyfcstm's E_DURING_ASPECT_INVALID with its refs, and
// --ignore with the loader's name drops it.
func TestLoadErrorsUnderPyfcstmNames(t *testing.T) {
	src := "state Root {\n    during { }\n    state A;\n    [*] -> A;\n}\n"
	res := Source("m.fcstm", []byte(src), Options{})
	if len(res.Diagnostics) != 1 {
		t.Fatalf("got %v", res.Diagnostics)
	}
	d := res.Diagnostics[0]
	if d.Code != "E_DURING_ASPECT_INVALID" || d.Span.Line != 2 || d.Refs["state_path"] != "Root" || d.Refs["state_kind"] != "composite" || d.Refs["aspect"] != nil {
		t.Errorf("got %+v", d)
	}
	res = Source("m.fcstm", []byte(src), Options{Ignore: []string{"E_DURING_COMPOSITE"}})
	if len(res.Diagnostics) != 0 || res.Suppressed != 1 {
		t.Errorf("--ignore E_DURING_COMPOSITE: %v, %d suppressed", res.Diagnostics, res.Suppressed)
	}
}

// TestUndefinedVarSites: E_UNDEFINED_VAR says where the name is read,
// with pyfcstm's names.
func TestUndefinedVarSites(t *testing.T) {
	for _, tc := range []struct{ body, site string }{
		{"A -> B : if [y > 0];", "guard"},
		{"A -> B effect { x = 1; x = y; }", "effect"},
		{"A -> B : if [x > 0] effect { x = y; }", "effect"},
		{"state C { enter { x = y; } }", "enter"},
		{"state C { exit Bye { x = y + 1; } }", "exit"},
		{">> during before { x = y; }", "during_aspect"},
		{"during after { x = y; }", "during"},
	} {
		src := "def int x = 0;\nstate Root {\n    state A;\n    state B;\n    [*] -> A;\n    " + tc.body + "\n}\n"
		res := Source("m.fcstm", []byte(src), Options{})
		i := slices.IndexFunc(res.Diagnostics, func(d Diagnostic) bool { return d.Code == "E_UNDEFINED_VAR" })
		if i < 0 {
			t.Errorf("%s: no E_UNDEFINED_VAR in %v", tc.body, res.Diagnostics)
			continue
		}
		if d := res.Diagnostics[i]; d.Refs["referenced_in"] != tc.site || d.Refs["var_name"] != "y" || d.Span.Line != 6 {
			t.Errorf("%s: %+v, want y read in %s", tc.body, d, tc.site)
		}
	}
}

// TestUndefinedVarImported: in an imported file the root file's tree
// cannot say where the name is read, so the error keeps the loader's
// code rather than pyfcstm's without its required refs.
func TestUndefinedVarImported(t *testing.T) {
	files := map[string]string{
		"sub.fcstm": "state Sub { state P; state Q; [*] -> P; P -> Q : if [y > 0]; }\n",
	}
	read := func(path string) ([]byte, error) {
		if src, ok := files[filepath.Base(path)]; ok {
			return []byte(src), nil
		}
		return nil, os.ErrNotExist
	}
	src := "state Root {\n    import \"sub.fcstm\" as Sub;\n    [*] -> Sub;\n}\n"
	res := Source("root.fcstm", []byte(src), Options{Model: model.Options{ReadFile: read}})
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "E_UNKNOWN_VAR" || len(res.Diagnostics[0].Refs) != 0 {
		t.Errorf("got %+v", res.Diagnostics)
	}
}
