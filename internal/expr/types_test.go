package expr

import (
	"errors"
	"testing"
)

var typeEnv = &Table{
	Vars: map[string]Type{"i": Int, "j": Int, "r": Real, "p": Bool, "q": Bool},
	Atoms: map[string]Signature{
		"active":     {Params: []Type{String}, Result: Bool},
		"var":        {Params: []Type{String}, Result: Int},
		"terminated": {Result: Bool},
		"scale":      {Params: []Type{Real}, Result: Real},
	},
}

func TestCheckTypes(t *testing.T) {
	for _, c := range []struct {
		src  string
		want Type
	}{
		{"1", Int}, {"1.5", Real}, {"pi", Real}, {"true", Bool}, {"i", Int}, {"r", Real}, {"p", Bool},
		{"i + j", Int}, {"i + r", Real}, {"i * 2", Int}, {"i - 0.5", Real}, {"-i", Int}, {"+r", Real},
		{"i / j", Real}, {"i % j", Int}, {"r % 2", Real}, {"i ** 2", Int}, {"i ** 0.5", Real},
		{"i & j | i ^ j << 1 >> 2", Int},
		{"i < r", Bool}, {"i == r", Bool}, {"p == q", Bool}, {"p != (i > 0)", Bool}, {"p iff q", Bool},
		{"p && q || !p xor q => p", Bool},
		{"(p) ? i : j", Int}, {"(p) ? i : r", Real}, {"(p) ? p : q", Bool},
		{"abs(i)", Int}, {"abs(r)", Real}, {"round(r)", Int}, {"ceil(r) + floor(i)", Int}, {"sign(r)", Int},
		{"trunc(r)", Int}, {"sqrt(i)", Real}, {"sin(i)", Real}, {"log(r)", Real},
		{`active("Root.A") && var("x") > 0`, Bool}, {"terminated()", Bool}, {"scale(i)", Real},
	} {
		e := mustParse(t, c.src)
		types := map[Expr]Type{}
		got, err := CheckTypes(e, typeEnv, types)
		if err != nil || got != c.want {
			t.Errorf("%s: %v, %v; want %v", c.src, got, err, c.want)
			continue
		}
		if types[e] != c.want {
			t.Errorf("%s: recorded %v", c.src, types[e])
		}
	}
}

func TestCheckErrors(t *testing.T) {
	for _, c := range []struct{ src, msg string }{
		{"k + 1", `1:1: unknown variable "k"`},
		{"i + p", `1:5: right operand of "+" must be a numeric expression, found bool`},
		{"p * 2", `1:1: left operand of "*" must be a numeric expression, found bool`},
		{"r & 1", `1:1: left operand of "&" must be an int expression, found float`},
		{"i << 1.0", `1:6: right operand of "<<" must be an int expression, found float`},
		{"i && p", `1:1: left operand of "&&" must be a bool expression, found int`},
		{"p < q", `1:1: left operand of "<" must be a numeric expression, found bool`},
		{"p == 1", `1:1: "==" compares bool with int; numeric and boolean expressions never mix`},
		{"p == i == 1", `1:1: "==" compares bool with int; numeric and boolean expressions never mix (parenthesise the inner comparison)`},
		{"!i == 1", `1:2: operand of "!" must be a bool expression, found int ("!" binds tighter than ==: to negate an equality write !(a == b) or a != b)`},
		{"-p", `1:2: operand of unary "-" must be a numeric expression, found bool`},
		{"(i) ? 1 : 2", `1:1: condition of "?:" must be a bool expression, found int`},
		{"(p) ? 1 : q", `1:1: the branches of "?:" have types int and bool; they must both be numeric or both bool`},
		{"sqrt(p)", `1:6: argument of sqrt must be a numeric expression, found bool`},
		{`"abc"`, `1:1: a string is only allowed as an atom argument`},
		{`"abc" + 1`, `1:1: left operand of "+" must be a numeric expression; a string is only allowed as an atom argument`},
		{`nosuch(1)`, `1:1: unknown function "nosuch"`},
		{`active(1)`, `1:8: argument 1 of active must be a string literal`},
		{`active("A", "B")`, `1:1: active takes 1 argument(s), found 2`},
		{`active(state="A")`, `1:8: active takes positional arguments only`},
		{`scale(p)`, `1:7: argument 1 of scale must be float, found bool`},
		{`scale(k)`, `1:7: unknown variable "k"`},
		{`active(*)`, `1:8: argument 1 of active must be a string literal`},
	} {
		_, err := Check(mustParse(t, c.src), typeEnv)
		var te *TypeError
		if !errors.As(err, &te) || err.Error() != c.msg {
			t.Errorf("%s:\n got  %v\n want %s", c.src, err, c.msg)
		}
	}
	// Wildcards and ranges only exist as atom arguments; code-built trees
	// that misplace them are rejected.
	for _, e := range []Expr{&Wildcard{}, &Range{Lo: &IntLit{Value: 1}}, nil} {
		if _, err := Check(e, typeEnv); err == nil {
			t.Errorf("%T: no error", e)
		}
	}
	// No env: every name is unknown.
	if _, err := Check(mustParse(t, "x"), nil); err == nil || err.Error() != `1:1: unknown variable "x"` {
		t.Errorf("nil env: %v", err)
	}
	if _, err := Check(mustParse(t, "f()"), nil); err == nil || err.Error() != `1:1: unknown function "f"` {
		t.Errorf("nil env atom: %v", err)
	}
}

func TestCheckMatchesEval(t *testing.T) {
	// The dynamic type of a value is the static type of its expression.
	vals := Vars{"i": IntVal(3), "j": IntVal(-2), "r": RealVal(1.5), "p": BoolVal(true), "q": BoolVal(false)}
	for _, src := range []string{
		"i + j", "i + r", "i / j", "i % j", "r % 2", "i ** 2", "i ** 0.5", "abs(j)", "abs(r)",
		"round(r)", "sign(r)", "sqrt(i)", "(p) ? i : r", "(q) ? i : r", "(p) ? r : i", "(q) ? r : i",
		"i & j", "-r", "i == r", "p xor q",
	} {
		e := mustParse(t, src)
		st, err := Check(e, typeEnv)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		v, err := Eval(e, vals)
		if err != nil || v.Type() != st {
			t.Errorf("%s: static %v, value %v (%v) %v", src, st, v, v.Type(), err)
		}
	}
}

func TestHelpers(t *testing.T) {
	e := mustParse(t, `b + a > sqrt(c) && called("X", where d > 0) && var("e") < a + abs(c) + sqrt(1)`)
	if got := FreeVars(e); len(got) != 3 || got[0] != "a" || got[1] != "b" || got[2] != "c" {
		t.Errorf("FreeVars = %v", got)
	}
	atoms := Atoms(e)
	if len(atoms) != 2 || atoms[0].Name != "called" || atoms[1].Name != "var" {
		t.Errorf("Atoms = %v", atoms)
	}
	if fs := Funcs(e); len(fs) != 2 || fs[0] != Sqrt || fs[1] != Abs {
		t.Errorf("Funcs = %v", fs)
	}
	for _, w := range []string{"and", "not", "iff", "true", "FALSE", "pi", "E", "tau", "sqrt", "sign"} {
		if !IsReserved(w) {
			t.Errorf("%s should be reserved", w)
		}
	}
	for _, w := range []string{"x", "state", "cycle", "active", "e", "where"} {
		if IsReserved(w) {
			t.Errorf("%s should not be reserved", w)
		}
	}
	if f, ok := LookupFunc("log1p"); !ok || f != Log1p || f.String() != "log1p" {
		t.Errorf("LookupFunc: %v %v", f, ok)
	}
	if !Lt.IsComparison() || Land.IsComparison() || !Iff.IsLogical() || Add.IsLogical() {
		t.Error("Op predicates")
	}
	if !Equal(mustParse(t, "(a + b)"), mustParse(t, "a+b")) || Equal(mustParse(t, "a + b"), mustParse(t, "b + a")) {
		t.Error("Equal")
	}
}
