package prove

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/frontend/jsonfront"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/z3"
)

// simpleSMTSymbol is SMT-LIB's simple symbol without the characters
// the encoder uses as separators ('@', '!').
var simpleSMTSymbol = regexp.MustCompile(`^[A-Za-z~$%^&*_+=<>.?/-][A-Za-z0-9~$%^&*_+=<>.?/-]*$`)

// decodeSMTName inverts smtName, to show that it is one-to-one.
func decodeSMTName(s string) (string, bool) {
	if s == "~" {
		return "", true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '~' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", false
		}
		b.WriteByte(byte(v))
		i += 2
	}
	return b.String(), true
}

func checkSMTName(t *testing.T, name string) {
	t.Helper()
	got := smtName(name)
	if !simpleSMTSymbol.MatchString(got) || strings.HasPrefix(got, ".") {
		t.Fatalf("smtName(%q) = %q is not a simple symbol free of '@' and '!'", name, got)
	}
	if back, ok := decodeSMTName(got); !ok || back != name {
		t.Fatalf("smtName(%q) = %q decodes to %q (%v)", name, got, back, ok)
	}
}

func TestSMTNameIsSafeAndOneToOne(t *testing.T) {
	for _, name := range []string{"a|b", `a\b`, "a b", "(", ")", "|", "中文", "x@0", "1x", "~7c", "", "a!1", ".x", "retry", "x.y_z"} {
		checkSMTName(t, name)
	}
	if smtName("retry") != "retry" || smtName("L0.x0") != "L0.x0" {
		t.Errorf("plain names changed: %q %q", smtName("retry"), smtName("L0.x0"))
	}
}

func FuzzSMTName(f *testing.F) {
	for _, s := range []string{"a|b", `a\b`, "中", "", "~", "0"} {
		f.Add(s)
	}
	f.Fuzz(checkSMTName)
}

// namedRetry is bench/retry-unbounded.json with every state, event and
// variable named after name.
func namedRetry(name string) []byte {
	q := func(s string) string { b, _ := json.Marshal(name + s); return string(b) }
	return []byte(`{"schemaVersion": 1, "init": ` + q("I") + `,
 "states": [{"id": ` + q("I") + `}, {"id": ` + q("W") + `}],
 "transitions": [
  {"from": ` + q("I") + `, "event": ` + q("go") + `, "to": ` + q("W") + `},
  {"from": ` + q("W") + `, "event": ` + q("more") + `, "to": ` + q("W") + `, "updates": [{"variable": ` + q("r") + `, "op": "inc"}, {"variable": ` + q("v") + `, "op": "inc", "value": 2}]},
  {"from": ` + q("W") + `, "event": ` + q("less") + `, "to": ` + q("W") + `, "guard": {"variable": ` + q("r") + `, "op": ">=", "value": 1},
   "updates": [{"variable": ` + q("r") + `, "op": "dec"}, {"variable": ` + q("v") + `, "op": "dec", "value": 2}]}],
 "variables": [{"name": ` + q("r") + `, "kind": "integer", "init": 0}, {"name": ` + q("v") + `, "kind": "integer", "init": 0}],
 "invariants": [{"id": "nonneg", "description": "v >= 0", "kind": "var-in-range", "variable": ` + q("v") + `, "min": 0}]}`)
}

// Spacer's clauses and the certificate's script are text: built from a
// model whose names hold any character, they must read back (an event
// named a|b made Spacer's clauses a parse error).
func FuzzGeneratedTextNames(f *testing.F) {
	for _, s := range []string{"a|b", `a\b`, "a b", "(", "中文", "1x", "", "|x|", `"`, "a!1", "x@0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		res, err := jsonmodel.Decode(namedRetry(name))
		if err != nil || !res.Valid() {
			t.Skip("not a model name") // names the model format refuses (e.g. a leading "_")
		}
		p, err := ModelProblem(jsonfront.FromModel(res.Model, "names.json"))
		if err != nil {
			t.Fatal(err)
		}
		ctx, err := z3.NewContext()
		if err != nil {
			t.Fatal(err)
		}
		defer ctx.Close()
		c, err := newChecker(ctx, p.Graph, 0, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		phi := make([]expr.Expr, len(p.Graph.Nodes))
		for _, pr := range p.Props {
			phi[pr.Node] = pr.Formula
		}
		text, err := hornText(c, phi)
		if err != nil {
			t.Fatal(err)
		}
		fs, err := ctx.ParseSMTLIB2String(text)
		if err != nil || len(fs) == 0 {
			t.Fatalf("name %q: the generated clauses do not parse: %v\n%s", name, err, text)
		}
		f, err := failureFormula(c, phi, phi)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.solver.Assert(f); err != nil {
			t.Fatal(err)
		}
		if _, err := ctx.ParseSMTLIB2String(c.solver.String()); err != nil {
			t.Fatalf("name %q: the certificate's script does not parse: %v", name, err)
		}
	})
}
