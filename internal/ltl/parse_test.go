package ltl

import (
	"strings"
	"testing"
	"time"
)

func TestParsePrecedenceAndPrinting(t *testing.T) {
	for src, want := range map[string]string{
		`G (S0 -> F S1)`:         `G (S0 -> F S1)`,
		`[] (S0 -> <> @e1)`:      `G (S0 -> F @e1)`,
		`a && b || c`:            ``, // a is no name: an error, checked below
		`S0 && S1 || S2`:         `((S0 && S1) || S2)`,
		`S0 -> S1 -> S2`:         `(S0 -> (S1 -> S2))`,
		`S0 U S1 U S2`:           `(S0 U (S1 U S2))`,
		`!S0 U X S1 && b`:        `((!S0 U X S1) && (b == true))`,
		`x >= -3 <-> b != false`: `((x >= -3) <-> (b != false))`,
		`"S0" W @"e2"`:           `(S0 W @e2)`,
		`G F (x == 2) R true`:    `(G F (x == 2) R true)`,
		"F\n  S1":                `F S1`,
	} {
		f, err := Parse(src, testVoc)
		if want == "" {
			if err == nil {
				t.Errorf("%q parsed as %s", src, f)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if got := f.String(); got != want {
			t.Errorf("%q printed %q, want %q", src, got, want)
		}
		back, err := Parse(f.String(), testVoc)
		if err != nil || back.String() != f.String() {
			t.Errorf("%q does not parse back: %v %v", f, back, err)
		}
	}
}

func TestParseErrorsAreLocated(t *testing.T) {
	for src, want := range map[string]string{
		`G (S0 -> F S9)`:                `1:12: unknown state "S9"`,
		`G @e7`:                         `1:4: unknown event "e7"`,
		`S0 &&`:                         `1:6: expected a proposition, found end of formula`,
		`(S0 || S1`:                     `1:10: expected ")" to close the "(" at 1:1, found end of formula`,
		`S0 S1`:                         `1:4: unexpected "S1" after the formula`,
		`y > 2`:                         `1:1: unknown variable "y"`,
		`x`:                             `1:1: integer variable "x" needs a comparison`,
		`b < true`:                      `1:3: boolean "b" compares with == or != only`,
		`x == true`:                     `1:6: expected an integer after "==", found "true"`,
		`x == 99999999999999999999`:     `1:6: 99999999999999999999 is outside the exact integer range`,
		"G\n  S0 # S1":                  `2:6: unexpected character '#'`,
		"G\r  S0 # S1":                  `2:6: unexpected character '#'`, // a lone CR ends a line (package lineend)
		"G\r\n\r S0 # S1":               `3:5: unexpected character '#'`,
		`"S0`:                           `1:1: unterminated or malformed quoted name`,
		`@`:                             `1:2: expected an event name after "@", found end of formula`,
		`U S0`:                          `1:1: expected a proposition, found "U"`,
		strings.Repeat("!", 300) + "S0": `formula nested deeper than 200`,
	} {
		_, err := Parse(src, testVoc)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", src, err, want)
		}
	}
}

// FuzzParse: any input parses or fails with a located error, never panics,
// and what parses prints to a formula that parses to the same print.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`G (S0 -> F S1)`, `x >= 2 U @e0`, `"S2" W !b`, `[] <> (x != 1)`, `((S0`, "\"\\u00e9\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		g, err := Parse(src, testVoc)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%q: error %T %v is not located", src, err, err)
			}
			return
		}
		back, err := Parse(g.String(), testVoc)
		if err != nil || back.String() != g.String() {
			t.Fatalf("%q printed %q, which reparses to %v, %v", src, g, back, err)
		}
	})
}

// A formula whose automaton passes the cap is refused with ErrTooLarge,
// which verify reports as undecided.
func TestTranslateCap(t *testing.T) {
	f, err := Parse(`G F S0 && G F S1 && G F @e0 && G F (x > 0) && (S0 U S1) && (S1 U S2)`, testVoc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Translate(f, 2); err != ErrTooLarge {
		t.Errorf("Translate with cap 2: %v", err)
	}
	a, err := Translate(f, MaxAutomaton)
	if err != nil || len(a.States) <= 2 || a.NAcc != 6 {
		t.Errorf("Translate: %v, %d states, %d acceptance sets", err, len(a.States), a.NAcc)
	}
}

// A conjunction of 40 disjunctions (2^40 split paths) ends quickly, at one
// of the caps or with an automaton: splitting is bounded by the state and
// work caps and skipped for a disjunction already fulfilled.
func TestTranslateWorkCap(t *testing.T) {
	var parts []string
	atoms := []string{"S0", "S1", "S2", "@e0", "@e1", "@e2", "b", "x > 0", "x > 1", "x > 2"}
	for i := range 40 {
		parts = append(parts, "("+atoms[i%10]+" || "+atoms[(i*3+1)%10]+" || "+atoms[(i*7+2)%10]+")")
	}
	f, err := Parse(strings.Join(parts, " && "), testVoc)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = Translate(f, MaxAutomaton)
	if err != ErrTooLarge && err != nil {
		t.Fatalf("Translate: %v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Translate took %v", d)
	}
}

// FBMCQ's atoms parse to the atoms of the JSON forms, under Calls only.
func TestParseCallAtoms(t *testing.T) {
	voc := *testVoc
	voc.Calls = true
	for src, want := range map[string]string{
		`G (active("S0") -> F event("e1"))`: `G (S0 -> F @e1)`,
		`var("x") >= -3 U active("S2")`:     `((x >= -3) U S2)`,
		`var("b") == true && !event("e0")`:  `((b == true) && !@e0)`,
		`active ("S1")`:                     `S1`,
	} {
		f, err := Parse(src, &voc)
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if got := f.String(); got != want {
			t.Errorf("%q printed %q, want %q", src, got, want)
		}
	}
	for src, want := range map[string]string{
		`active("S9")`:      `1:8: unknown state "S9"`,
		`event("e9")`:       `1:7: unknown event "e9"`,
		`var("z") > 1`:      `1:5: unknown variable "z"`,
		`var("x")`:          `1:9: var("x") needs a comparison with a constant`,
		`active(S0)`:        `1:8: active(...) takes one quoted name, found "S0"`,
		`event("e1" "e2")`:  `1:12: expected ")" after the name in event(...)`,
		`var("b") < true`:   `1:10: boolean "b" compares with == or != only`,
		`var("x") == "one"`: `1:13: expected an integer after "=="`,
	} {
		_, err := Parse(src, &voc)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: error %v, want %q…", src, err, want)
		}
	}
	if _, err := Parse(`active("S0")`, testVoc); err == nil {
		t.Error(`active("S0") parsed without Calls`)
	}
}
