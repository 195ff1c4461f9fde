package query

import (
	"strings"
	"testing"
)

// An ltl check keeps its formula as written (it is LTL, not an FBMCQ
// expression: U, W, <->, @), with its fairness clauses in either order,
// and prints back to a query that parses to the same one.
func TestParseLTL(t *testing.T) {
	for src, want := range map[string]string{
		`check ltl: G (active("Root.Idle") -> F event("Root.Go"));`:            `check ltl: G (active("Root.Idle") -> F event("Root.Go"));`,
		"check ltl strong { \"Root.Go\" } fair *:\n  [] (\"a;b\" <-> @x) W y;": `check ltl fair * strong { "Root.Go" }: [] ("a;b" <-> @x) W y;`,
		`check ltl fair { "Root.Go", "Root.Stop" } strong *: X var("x") > 1 ;`: `check ltl fair { "Root.Go", "Root.Stop" } strong *: X var("x") > 1;`,
	} {
		q := mustParse(t, src)
		if q.Check.Kind != LTL {
			t.Fatalf("%q: kind %s", src, q.Check.Kind)
		}
		got := strings.TrimSpace(Format(q))
		if got != want {
			t.Errorf("%q printed\n %s\nwant\n %s", src, got, want)
		}
		if back := mustParse(t, got); !Equal(back, q) {
			t.Errorf("%q does not parse back to itself", got)
		}
	}
	q := mustParse(t, "check ltl:\n   G  true ;")
	if q.Check.Formula != "G  true" || q.Check.FormulaSpan.Start.String() != "2:4" {
		t.Errorf("formula %q at %s, want \"G  true\" at 2:4", q.Check.Formula, q.Check.FormulaSpan.Start)
	}
	j, err := FormatJSON(q)
	if err != nil || !strings.Contains(string(j), `"formula":"G  true"`) {
		t.Errorf("JSON %s (%v) lacks the formula", j, err)
	}
}

func TestParseLTLErrors(t *testing.T) {
	for src, pos := range map[string]string{
		`check ltl <= 3: true;`:         "1:11",
		`check ltl: G true`:             "1:11",
		`check ltl: ;`:                  "1:10",
		`check ltl fair fair: true;`:    "1:16",
		`check ltl: "unterminated;`:     "1:11",
		`check ltl: true; check ltl: x`: "1:18",
	} {
		_, err := Parse("test.fbmcq", src)
		asError(t, src, err, ClassParse, CodeSyntax, pos)
	}
}

// bmc does not decide ltl checks; verify's binding checks the fairness
// clauses' events.
func TestBindLTL(t *testing.T) {
	src := `check ltl fair { "Root.Go" } strong { "Root.Go" }: G true;`
	asError(t, src, Bind(mustParse(t, src), testSystem(), BindOptions{}), ClassUnsupported, CodeUnsupportedLTL, "1:1")
	if err := Bind(mustParse(t, src), testSystem(), BindOptions{LTL: true}); err != nil {
		t.Errorf("%s: %v", src, err)
	}
	src = `check ltl strong { "Root.Nope" }: G true;`
	asError(t, src, Bind(mustParse(t, src), testSystem(), BindOptions{LTL: true}), ClassInvalid, CodeUnknownEvent, "1:20")
	src = `check ltl fair { "Root.Go", "Root.Go" }: G true;`
	asError(t, src, Bind(mustParse(t, src), testSystem(), BindOptions{LTL: true}), ClassInvalid, CodeQueryShape, "1:29")
}
