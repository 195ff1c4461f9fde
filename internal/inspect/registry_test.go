package inspect

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
)

// pyCode is the part of an entry of pyfcstm's codes.yaml the tests read.
type pyCode struct {
	Severity   string           `yaml:"severity"`
	SpanObject string           `yaml:"span_object"`
	Example    string           `yaml:"example_dsl"`
	Refs       map[string]pyRef `yaml:"refs"`
	AliasOf    string           `yaml:"alias_of"`
}

type pyRef struct {
	Type        string   `yaml:"type"`
	Required    bool     `yaml:"required"`
	Enum        []string `yaml:"enum"`
	ItemEnum    []string `yaml:"item_enum"`
	ExactValues []string `yaml:"exact_values"`
}

// pyRegistry reads pyfcstm's code registry from the shared fixtures.
func pyRegistry(t *testing.T) map[string]pyCode {
	t.Helper()
	path := fcstmtest.SharedFixture(t, "pyfcstm-diagnostics/codes.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var reg map[string]pyCode
	if err := yaml.Unmarshal(data, &reg); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return reg
}

// nearMiss holds, for every code stateproof emits, a model that comes
// close to it and must not raise it.
var nearMiss = map[string]string{
	"W_UNREACHABLE_STATE": `state Root {
    state Idle;
    state Later;
    [*] -> Idle;
    Idle -> Later :: Go;
    Later -> Idle :: Back;
}`,
	"W_UNUSED_EVENT": `state Root {
    event Used;
    state A;
    state B;
    [*] -> A;
    A -> B : Used;
    B -> A;
}`,
	"W_UNREFERENCED_VAR": `def int raw = 0;
def int ready = 0;
state Root {
    state A { during { raw = raw + 1; ready = raw % 2; } }
    state B;
    [*] -> A;
    A -> B : if [ready > 0];
    B -> A;
}`,
	"W_WRITE_ONLY_VAR": `def int counter = 0;
state Root {
    state A { during { counter = counter + 1; } }
    state B;
    [*] -> A;
    A -> B : if [counter > 3];
    B -> A;
}`,
	"W_UNWRITTEN_READ_VAR": `def int ready = 0;
state Root {
    state A;
    state B { enter { ready = 0; } }
    [*] -> A;
    A -> B : if [ready > 0];
    B -> A effect { ready = 1; }
}`,
	"W_GUARD_VARS_NEVER_CHANGE": `def int ready = 0;
def int limit = 3;
state Root {
    state A { during { ready = ready + 1; } }
    state B;
    [*] -> A;
    A -> B : if [ready > limit];
    B -> A;
}`,
	"W_EFFECT_SELF_ASSIGN": `def int x = 0;
def int y = 0;
state Root {
    state A;
    state B { enter { x = x; } }
    [*] -> A;
    A -> B effect { x = x + 1; y = x; }
    B -> A : if [x > y];
}`,
	"W_LEAF_NO_OUTGOING_TRANSITION": `state Root {
    state A;
    pseudo state P;
    state C { state D; [*] -> D; D -> [*]; }
    [*] -> A;
    A -> P;
    P -> C;
    C -> A;
}`,
	"W_NUMERIC_CONSTANT_DIVISION_BY_ZERO": `def int result = 0;
def int input = 1;
state Root {
    state A;
    state B;
    [*] -> A;
    A -> B : if [result >= 0] effect { result = input / (2 - 1) + input % input; };
    B -> A : if [result < 0];
}`,
	"W_NUMERIC_FLOAT_BITWISE": `def float gain = 1.5;
def int flags = 1;
state Root {
    state A {
        during { flags = (flags & 3) | (flags << 1); gain = gain * 2; }
    }
    state B;
    [*] -> A;
    A -> B : if [flags > 4 && gain > 1.0];
    B -> A;
}`,
	"W_COMBO_DUPLICATE_EVENT": `state Root {
    state A;
    state B;
    [*] -> A;
    A -> B :: E1 + E2;
    B -> A;
}`,
	"W_GUARD_CONST_TRUE": `def int x = 0;
state Root {
    state A { during { x = x + 1; } }
    state B;
    [*] -> A;
    A -> B : if [(1 + 2) == x];
    B -> A : if [(0x0F & 0xF0) != 0];
}`,
	"W_GUARD_CONST_FALSE": `def int x = 0;
state Root {
    state A { during { x = x + 1; } }
    state B;
    [*] -> A;
    A -> B : if [(0x0F & x) != 0];
    B -> A : if [true];
}`,
	"W_DEAD_NAMED_ACTION": `state Root {
    state A { enter ref /B.Cleanup; }
    state B { enter Cleanup {} }
    [*] -> A;
}`,
	"I_TRANSITION_TO_SELF_VIA_PARENT": `state Root {
    state Active { state Leaf; [*] -> Leaf; Leaf -> Leaf; }
    state Idle;
    [*] -> Active;
    Active -> Idle;
    Idle -> Idle;
}`,
	"I_UNREFERENCED_VAR_MAYBE_ABSTRACT": `def int used = 0;
state Root {
    state A { enter abstract ExternalHook; during { used = used + 1; } }
    state B;
    [*] -> A;
    A -> B : if [used > 2];
    B -> A;
}`,
	"W_INITIAL_UNCONDITIONAL_MISSING": `def int ready = 0;
state Root {
    state A { during { ready = ready + 1; } }
    state B;
    [*] -> A : if [ready > 0];
    [*] -> B;
    A -> B;
    B -> A;
}`,
	"W_SELF_TRANSITION_NOP": `def int n = 0;
state Root {
    state A { enter { n = n + 1; } }
    state B;
    state C;
    [*] -> A;
    A -> A : if [n < 3];
    A -> B;
    B -> B :: Tick;
    B -> C;
    C -> C effect { n = 0; }
}`,
	"W_ASPECT_NO_DESCENDANT_LEAF": `state Root {
    pseudo state Marker;
    state Work;
    [*] -> Marker;
    Marker -> Work;
    >> during before { }
}`,
	"W_DURING_CONST_ASSIGN": `def int counter = 0;
state Root {
    state Idle {
        enter { counter = (2 + 3) * 4; }
        during { counter = counter + 1; if [counter > 9] { counter = 0; } }
    }
    [*] -> Idle;
}`,
	"W_UNREACHABLE_TRANSITION": `def int n = 0;
state Root {
    state A { during { n = n + 1; } }
    state B;
    [*] -> A;
    A -> B : if [n > 1];
    B -> A :: Back;
    B -> A :: Again;
}`,
	"W_REDUNDANT_TRANSITION": `def int n = 0;
state Root {
    state A { during { n = n + 1; } }
    state B;
    [*] -> A;
    A -> B :: Go;
    A -> B :: Stop;
    A -> B :: Go effect { n = 0; }
    A -> B : if [n > 1];
    A -> B : if [n > 2];
    B -> A;
}`,
	"W_FORCED_NEVER_EXPANDS": `state Root {
    state A {
        state Inner;
        !* -> [*] :: Abort;
        [*] -> Inner;
    }
    [*] -> A;
}`,
	"W_DEAD_GUARD": `def int x = 0;
state System {
    state A;
    state B;
    [*] -> A;
    A -> B : if [x > 1 && x < 3];
    B -> A effect { x = x + 1; }
}`,
	"W_GUARD_TAUTOLOGY": `def int x = 0;
state System {
    state A;
    state B;
    [*] -> A;
    A -> B : if [x >= 0 || x < -1];
    B -> A effect { x = x - 1; }
}`,
	"W_FORCED_GUARD_UNSAT": `def int x = 1;
state System {
    state A;
    state B;
    [*] -> A;
    !A -> B : if [x > 0];
    B -> A effect { x = x - 1; }
}`,
	"W_EFFECT_SMT_NO_OP": `def int x = 0;
state System {
    state A;
    state B;
    [*] -> A;
    A -> B : if [x >= 0] effect { x = x * 1 + ((x % 2 == 1) ? 0 : 1) - 1; }
    B -> A;
}`,
	"W_NUMERIC_LITERAL_OUT_OF_TARGET_RANGE": `def int low = -9223372036854775808;
def int high = 9223372036854775807;
state Root {
    state A;
    state B;
    [*] -> A;
    A -> B : if [low < high];
    B -> A : if [high - low > 0];
}`,
	"W_NUMERIC_SHIFT_COUNT_OUT_OF_TARGET_RANGE": `def int flags = 1;
def int n = 0;
state Root {
    state A { during { n = n + 1; flags = flags << n; } }
    state B;
    [*] -> A;
    A -> B : if [(flags << 63) != 0 && (flags >> 0) > 0];
    B -> A;
}`,
	"W_LITERAL_TYPE_NARROWING": `def float gain = 3.5;
def int whole = 3;
state Root {
    state A { enter { gain = 2.5; whole = 3.0 + 0.5; } }
    [*] -> A;
    A -> A : if [gain > whole];
}`,
	"W_FORCED_OVERRIDES_NORMAL": `state Root {
    state A;
    state B;
    [*] -> A;
    A -> B :: Go;
    !A -> B :: Stop;
    B -> A :: Go;
}`,
	"W_SHADOWED_EVENT": `state Root {
    event Tick;
    state A;
    state B;
    [*] -> A;
    A -> B : Tick;
    B -> A :: Tock;
}`,
	"I_TRANSITION_NEVER_EVENT_TRIGGERED": `def int n = 0;
state Root {
    state A { during { n = n + 1; } }
    state B;
    [*] -> A;
    A -> B : if [n > 2];
    B -> A :: Back;
}`,
	"W_DEEP_HIERARCHY":  `state Root { state A { state B; [*] -> B; } [*] -> A; }`,
	"W_LARGE_COMPOSITE": `state Root { state A; state B { state C; state D; [*] -> C; C -> D; D -> C; } [*] -> A; A -> B; B -> A; }`,
	"W_HIGH_VAR_TO_LEAF_RATIO": `def int a = 0;
def int b = 0;
state Root { state A; pseudo state P; [*] -> A; A -> P : if [a > b]; P -> A effect { a = b + 1; } }`,
	"W_COMBO_GUARD_CONST_TRUE": `def int x = 0;
state Root {
    state A { during { x = x + 1; } }
    state B;
    [*] -> A;
    A -> B :: E1 + [x > 0] + E2;
    B -> A :: Back;
}`,
	"W_COMBO_GUARD_CONST_FALSE": `def int x = 0;
state Root {
    state A { during { x = x + 1; } }
    state B;
    [*] -> A;
    A -> B :: E1 + [x > 0 && x <= 5] + E2;
    B -> A :: Back;
}`,
	"W_COMBO_GUARD_PREFIX_IMPLIED": `def int x = 0;
state Root {
    state A { during { x = x + 1; } exit { x = x - 10; } }
    state B;
    [*] -> A;
    A -> B : [x > 0] + [x > -1];
    A -> B : [x > -1] + [x > 3];
    B -> A :: Back;
}`,
	"W_COMBO_GUARD_PREFIX_CONTRADICTS": `def int x = 0;
state Root {
    state A { during { x = x + 1; } exit { x = x - 10; } }
    state B;
    [*] -> A;
    A -> B : [x > 0] + [x < 0];
    A -> B : [x > 0] + E1 + [x < 5];
    B -> A :: Back;
}`,
	"W_TRANSITION_SHADOWED": `def int x = 0;
state System {
    state A { during { x = x + 1; } }
    state B;
    state C;
    [*] -> A;
    A -> B : if [x > 3];
    A -> C : if [x > 1];
    A -> B :: Go;
    B -> A;
    C -> A;
}`,
	"I_EFFECT_GUARD_CONTRADICT": `def int x = 0;
state System {
    state A { during { x = x + 1; } }
    state B;
    [*] -> A;
    A -> B : if [x > 0] effect { x = x + 1; }
    B -> A : if [x > 5] effect { x = x - 1; }
}`,
	"W_COMPOSITE_INIT_INCOMPLETE": `def int x = 0;
state System {
    state A { during { x = x + 1; } }
    state B { during { x = x - 1; } }
    [*] -> A : if [x > 0];
    [*] -> B : if [x <= 0];
    A -> B : if [x > 3];
    B -> A : if [x < -3];
}`,
	"W_EVENT_UNREACHABLE_EMIT": `state System {
    event Panic;
    state A;
    state Lost;
    [*] -> A;
    A -> A : Panic;
    Lost -> A : Panic;
}`,
	"W_NAMED_ACTION_SHADOWS_ANCESTOR": `state Root {
    enter Sync { }
    state Child { enter Setup { } exit Sync2 { } }
    state Other { enter Setup { } }
    [*] -> Child;
    Child -> Other;
}`,
	"E_DUPLICATE_STATE": `state Root { state A; state B { state A; [*] -> A; } [*] -> A; A -> B; }`,
	"E_DUPLICATE_VAR":   "def int x = 0;\ndef int y = 1;\nstate Root { state A; [*] -> A; }",
	"E_PSEUDO_NOT_LEAF": `state Root {
    pseudo state Outer;
    state Inner;
    [*] -> Outer;
    Outer -> Inner;
}`,
	"E_UNDEFINED_VAR": `def int x = 0;
state Root { state A; state B; [*] -> A; A -> B : if [x > 0]; }`,
	"E_DURING_ASPECT_INVALID": `state Root {
    state A {
        during { }
    }
    during before { }
    [*] -> A;
}`,
	"E_DUPLICATE_FUNCTION_NAME": `state Root {
    state A {
        enter Foo { }
        exit Bar { }
    }
    state B { enter Foo { } }
    [*] -> A;
}`,
}

// exampleThresholds are the thresholds the registry's examples of the
// size codes are written for (pyfcstm's defaults need bigger models);
// the near-misses are just within them.
func exampleThresholds() map[string]Thresholds {
	deep, large := DefaultThresholds(), DefaultThresholds()
	deep.DeepHierarchy, large.LargeComposite = 2, 2
	return map[string]Thresholds{"W_DEEP_HIERARCHY": deep, "W_LARGE_COMPOSITE": large}
}

// TestRegistryExamples runs every code stateproof emits on pyfcstm's own
// example of it (the code must fire, at the object the registry names,
// with the refs the registry requires) and on a near-miss of ours (it must
// not fire).
func TestRegistryExamples(t *testing.T) {
	reg := pyRegistry(t)
	for _, c := range Codes() {
		if !c.Inspected() {
			continue // a lint of verify alone (package lint tests its examples)
		}
		t.Run(c.Name, func(t *testing.T) {
			py, ok := reg[c.Name]
			if !ok {
				t.Fatalf("%s is not a code of pyfcstm's registry", c.Name)
			}
			if py.Severity != c.Severity {
				t.Errorf("severity %s, pyfcstm's registry says %s", c.Severity, py.Severity)
			}
			for _, f := range c.Refs {
				if _, ok := py.Refs[f]; !ok {
					t.Errorf("refs field %s is not one of pyfcstm's", f)
				}
			}
			for f, r := range py.Refs {
				if r.Required && !slices.Contains(c.Refs, f) {
					t.Errorf("required refs field %s is not in the registry entry", f)
				}
			}
			if py.Example == "" {
				t.Fatalf("pyfcstm's registry has no example for %s", c.Name)
			}
			opts := Options{}
			if th, ok := exampleThresholds()[c.Name]; ok {
				opts.Thresholds = &th
			}
			if c.Basis == BasisSMT {
				needZ3(t)
				opts.SMT = true
			}
			res := Source("example.fcstm", []byte(py.Example), opts)
			found := false
			for _, d := range res.Diagnostics {
				if d.Code != c.Name {
					continue
				}
				found = true
				if d.Basis != c.Basis {
					t.Errorf("basis %q, the registry says %q", d.Basis, c.Basis)
				}
				checkDiagnostic(t, py, d, py.Example)
			}
			if !found {
				t.Errorf("the registry's example does not raise %s; got %v\n%s", c.Name, codesOf(res), py.Example)
			}
			miss, ok := nearMiss[c.Name]
			if !ok {
				t.Fatalf("no near-miss model for %s", c.Name)
			}
			res = Source("miss.fcstm", []byte(miss), opts)
			if !res.Loaded {
				t.Fatalf("the near-miss model does not load: %v", res.Diagnostics)
			}
			if len(res.Undecided) > 0 {
				t.Errorf("the near-miss model leaves questions undecided: %+v", res.Undecided)
			}
			if slices.Contains(codesOf(res), c.Name) {
				t.Errorf("the near-miss model raises %s: %v\n%s", c.Name, res.Diagnostics, miss)
			}
		})
	}
}

// TestEmittedCodesRegistered walks inspect over the repository's FCSTM
// examples and pyfcstm's registry examples: every code of a model that
// loads is an inspect code of the registry, with its severity and basis.
func TestEmittedCodesRegistered(t *testing.T) {
	srcs := map[string]string{}
	files, _ := filepath.Glob("../../examples/fcstm/*.fcstm")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[f] = string(data)
	}
	for name, py := range pyRegistry(t) {
		if py.Example != "" {
			srcs[name] = py.Example
		}
	}
	for name, src := range srcs {
		res := Source("m.fcstm", []byte(src), Options{})
		if !res.Loaded {
			continue // load errors: the loader's codes (docs/fcstm.md#errors)
		}
		for _, d := range res.Diagnostics {
			c, ok := Lookup(d.Code)
			if !ok || c.Name != d.Code || !c.Inspected() || c.Severity != d.Severity || c.Basis != d.Basis {
				t.Errorf("%s: %s (%s, %s) is not an inspect code of the registry with that severity and basis", name, d.Code, d.Severity, d.Basis)
			}
		}
	}
}

func codesOf(r *Result) []string {
	var out []string
	for _, d := range r.Diagnostics {
		out = append(out, d.Code)
	}
	return out
}

// checkDiagnostic checks a diagnostic against pyfcstm's entry: required
// refs present, every field one of pyfcstm's and of its type and enum,
// and the span on the object the entry names.
func checkDiagnostic(t *testing.T, py pyCode, d Diagnostic, src string) {
	t.Helper()
	for f, r := range py.Refs {
		if _, ok := d.Refs[f]; r.Required && !ok {
			t.Errorf("refs lacks the required field %s: %v", f, d.Refs)
		}
	}
	for f, v := range d.Refs {
		r, ok := py.Refs[f]
		if !ok {
			t.Errorf("refs field %s is not one of pyfcstm's", f)
			continue
		}
		checkRefType(t, f, r, v)
	}
	text := spanText(src, d.Span)
	str := func(k string) string { s, _ := d.Refs[k].(string); return s }
	last := func(p string) string { return p[strings.LastIndexByte(p, '.')+1:] }
	var ok bool
	switch py.SpanObject {
	case "state_identifier":
		name := str("state_name")
		if name == "" {
			name = last(str("state_path") + str("deepest_path"))
		}
		ok = text == name
	case "variable_declaration":
		ok = strings.HasPrefix(text, "def ") && strings.Contains(text, str("var_name")) && strings.HasSuffix(text, ";")
	case "event_declaration":
		ok = strings.HasPrefix(text, "event ") && strings.Contains(text, last(str("event_qualified_name")))
	case "guard_expression", "expression":
		ok = text != "" && !strings.ContainsAny(text, ";{}") && strings.Count(text, "(") == strings.Count(text, ")")
	case "effect_statement":
		ok = strings.HasPrefix(text, str("var_name")) && strings.HasSuffix(text, ";")
	case "transition":
		ok = strings.Contains(text, "->")
	case "lifecycle_action":
		ok = strings.Contains(text, "during") || strings.Contains(text, "enter") || strings.Contains(text, "exit") || strings.Contains(text, str("var_name")+" =")
	case "composite_block":
		ok = (strings.HasPrefix(text, "state ") || strings.HasPrefix(text, "pseudo ")) && strings.HasSuffix(strings.TrimSuffix(text, ";"), "}")
	case "named_action_declaration":
		ok = strings.Contains(text, str("function_name"))
	default:
		t.Logf("span object %s is not checked", py.SpanObject)
		ok = true
	}
	if !ok {
		t.Errorf("span %+v holds %q, not the %s", d.Span, text, py.SpanObject)
	}
}

func checkRefType(t *testing.T, f string, r pyRef, v any) {
	t.Helper()
	switch r.Type {
	case "str", "str_or_null":
		s, ok := v.(string)
		if !ok {
			t.Errorf("refs.%s = %#v, want a string", f, v)
		} else if len(r.Enum) > 0 && !slices.Contains(r.Enum, s) {
			t.Errorf("refs.%s = %q, not one of %v", f, s, r.Enum)
		}
	case "int":
		if _, ok := v.(int); !ok {
			t.Errorf("refs.%s = %#v, want an int", f, v)
		}
	case "number":
		switch v.(type) {
		case int64, float64:
		default:
			t.Errorf("refs.%s = %#v, want a number", f, v)
		}
	case "list[Span]":
		if _, ok := v.([]Span); !ok {
			t.Errorf("refs.%s = %#v, want a list of spans", f, v)
		}
	case "dict":
		if _, ok := v.(map[string]any); !ok {
			t.Errorf("refs.%s = %#v, want an object", f, v)
		}
	case "bool":
		if _, ok := v.(bool); !ok {
			t.Errorf("refs.%s = %#v, want a bool", f, v)
		}
	case "Span":
		if _, ok := v.(Span); !ok {
			t.Errorf("refs.%s = %#v, want a span", f, v)
		}
	case "list[str]":
		l, ok := v.([]string)
		if !ok {
			t.Errorf("refs.%s = %#v, want a list of strings", f, v)
		}
		if len(r.ExactValues) > 0 && !slices.Equal(l, r.ExactValues) {
			t.Errorf("refs.%s = %v, want exactly %v", f, l, r.ExactValues)
		}
		for _, s := range l {
			if len(r.ItemEnum) > 0 && !slices.Contains(r.ItemEnum, s) {
				t.Errorf("refs.%s holds %q, not one of %v", f, s, r.ItemEnum)
			}
		}
	default:
		t.Errorf("refs.%s has type %s, which the test does not check", f, r.Type)
	}
}

// spanText is the source text a span covers.
func spanText(src string, sp Span) string { return spanSource(newSource(src), sp) }

// TestDocsListEveryCode: docs/inspect.md describes every code stateproof
// emits under a heading (or in the load-error table), and names every code
// of pyfcstm's registry, reported or not.
func TestDocsListEveryCode(t *testing.T) {
	data, err := os.ReadFile("../../docs/inspect.md")
	if err != nil {
		t.Fatal(err)
	}
	described := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "### ") || strings.HasPrefix(line, "| `") {
			for _, w := range strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' || r == '`' || r == '|' }) {
				described[w] = true
			}
		}
	}
	for _, c := range Codes() {
		if !described[c.Name] {
			t.Errorf("docs/inspect.md has no section for %s", c.Name)
		}
		if c.Verify != "" && !described[c.Verify] {
			t.Errorf("docs/inspect.md does not list verify's name %s (of %s) in a heading or table", c.Verify, c.Name)
		}
	}
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(string(data), func(r rune) bool { return !(r == '_' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') }) {
		words[w] = true
	}
	for name, py := range pyRegistry(t) {
		if py.AliasOf == "" && !words[name] {
			t.Errorf("docs/inspect.md does not name pyfcstm's code %s (reported or not yet implemented)", name)
		}
	}
}
