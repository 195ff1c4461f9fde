package query

import (
	"errors"
	"strings"
	"testing"
)

// checkRoundTrip asserts the printer/parser contract on one input: a parse
// error is a positioned syntax *Error; otherwise Format's output parses to
// an Equal query and prints identically again. Binding must not panic and
// reports positioned errors only.
func checkRoundTrip(t *testing.T, src string) {
	t.Helper()
	q, err := Parse("", src)
	if err != nil {
		var qe *Error
		if !errors.As(err, &qe) || qe.Class != ClassParse || qe.Code != CodeSyntax || !qe.Pos.IsValid() {
			t.Fatalf("%q: bad parse error %#v", src, err)
		}
		return
	}
	out := Format(q)
	q2, err := Parse("", out)
	if err != nil {
		t.Fatalf("%q printed as %q, which does not parse: %v", src, out, err)
	}
	if !Equal(q, q2) {
		t.Fatalf("%q printed as %q changes the query", src, out)
	}
	if out2 := Format(q2); out2 != out {
		t.Fatalf("%q: printing is not stable:\n%s\nthen\n%s", src, out, out2)
	}
	if _, err := FormatJSON(q); err != nil {
		t.Fatalf("%q: FormatJSON: %v", src, err)
	}
	if err := Bind(q, testSystem(), BindOptions{MaxBound: 50}); err != nil {
		var qe *Error
		if !errors.As(err, &qe) || qe.Class == ClassParse || !qe.Pos.IsValid() || qe.Code == "" {
			t.Fatalf("%q: bad bind error %#v", src, err)
		}
	}
}

// corpus is valid query text of every form, some with odd spellings.
var corpus = []string{
	"check reach <= 1: true;",
	"init cold; check forbid <= 2: !(x > 0) || False;",
	"init terminated; check must_reach <= 3: active('Root.Done') and not b;",
	`init state("Root.Idle") havoc * where x == 1 && y == 2; check exists_always <= 1: terminated(current) || cycle >= 0;`,
	`init state("Root.Idle") havoc {x, y, "state", "a b"}; check reach <= 1: var("state") == 0;`,
	"assume at 0: x == 0; assume at 1: (x > 0) ? y > 0 : y < 0; check invariant <= 1: x + y * 2 - -3 ** 2 >= 0;",
	`assume event("Root.Go", 0..0) == true; assume event('Root.Stop', *) != true; check reach <= 1: true;`,
	`assume events cardinality at_most_one {"Root.Go", "Root.Stop"}; assume events cardinality any; check reach <= 2: true;`,
	`check cover <= 2: case("Root.Done::fallback::Root.Done::0", current);`,
	`check cover <= 2: (case("Root.Idle::transition::Root.Done::0"));`,
	`check response <= 4: trigger event("Root.Go", current) && x > 0 -> within 3 active("Root.Off") || called();`,
	`check reach <= 4: call_count("Root.Idle.Tick", -1..+2, stage="during", named_ref=null) == 2;`,
	`check reach <= 4: call_count(.., action="Root.Done.Leave", state="Root.Done", active_leaf="Root.Done", where b) > 0;`,
	`check reach <= 4: called(..+1) && called(1..) && called(-2) && called(+0, role=state_exit);`,
	`check reach <= 2: f / 2.5 > 1e-3 && pi < tau && E != 0.0 && 0x1F == 31 && abs(f) <= sqrt(f);`,
	`check reach <= 2: x xor y > 0 iff b implies b => true;`,
	"check reach <= 1: sin(f) > 0;",
	"check reach <= 1: (x & 3) | 1 == x ^ 2 << 1 >> 1;",
	"check reach <= 1: f % 2 > 0 && x ** y > 0;",
	`check reach <= 1: "\u00e9\n\x00" != "";`,
	"assume always:cycle<3;check reach<=3:cycle==3;",
	`check must_reach <= 4 fair {"Root.Go"}: active("Root.Done");`,
	`check response <= 4 fair { 'Root.Go', "Root.Stop" }: trigger x > 0 -> within 2 fair > 0;`,
	`check must_reach <= 2 fair *: !active("Root.Off");`,
}

func TestCorpusRoundTrip(t *testing.T) {
	for _, src := range corpus {
		checkRoundTrip(t, src)
	}
	for _, ex := range examples {
		checkRoundTrip(t, ex.src)
	}
}

func TestFormatCanonical(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"assume event(\"Root.Go\", 2 ..  3) != false;\ncheck reach <= 0x4: TRUE;",
			"assume event(\"Root.Go\", 2..3) == true;\ncheck reach <= 4: true;\n"},
		{`init state('A') havoc {"x", 'pi', "a-b", _k9}; check reach <= 1: x>=1 and b;`,
			"init state(\"A\") havoc {x, \"pi\", \"a-b\", _k9};\ncheck reach <= 1: x >= 1 && b;\n"},
		{`check reach <= 1: called("A",step = -1 .. +2,role=leaf_during,where x==0);`,
			"check reach <= 1: called(\"A\", step=-1..+2, role=leaf_during, where x == 0);\n"},
		{"check response <= 2: trigger (x>0) -> within 1 (y>0);",
			"check response <= 2: trigger x > 0 -> within 1 y > 0;\n"},
	} {
		q := mustParse(t, tc.src)
		if got := Format(q); got != tc.want {
			t.Errorf("%q prints as\n%q\nwant\n%q", tc.src, got, tc.want)
		}
	}
}

func TestFormatJSON(t *testing.T) {
	q := mustParse(t, examples[4].src)
	if err := Bind(q, testSystem(), BindOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := FormatJSON(q)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"init":{"mode":"state","state":"Root.Idle"},"assumptions":[{"kind":"event","event":"Root.Go","steps":"0","value":true}],` +
		`"check":{"kind":"response","polarity":"counterexample","bound":1,"trigger":"event(\"Root.Go\", current)","within":1,"target":"active(\"Root.Done\")"}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	q = mustParse(t, `init cold havoc *; assume events cardinality at_most_one {"Root.Go"}; assume at 1: x > 0; check cover <= 1: case("Root.Idle::transition::Root.Done::0");`)
	if err := Bind(q, testSystem(), BindOptions{}); err != nil {
		t.Fatal(err)
	}
	got, _ = FormatJSON(q)
	for _, part := range []string{`"havoc":"*"`, `"kind":"cardinality_at_most_one","at_most_one":["Root.Go"]`,
		`{"kind":"at","frame":1,"cond":"x > 0"}`, `"case_label":"Root.Idle::transition::Root.Done::0"`} {
		if !strings.Contains(string(got), part) {
			t.Errorf("%s lacks %s", got, part)
		}
	}
}

func TestEqual(t *testing.T) {
	a := mustParse(t, "assume at 1: x > 0; check reach <= 2: true;")
	for _, src := range []string{
		"assume at 2: x > 0; check reach <= 2: true;",
		"assume at 1: x >= 0; check reach <= 2: true;",
		"init cold; assume at 1: x > 0; check reach <= 2: true;",
		"assume at 1: x > 0; check reach <= 3: true;",
		"assume at 1: x > 0; check forbid <= 2: true;",
	} {
		if Equal(a, mustParse(t, src)) {
			t.Errorf("%q equals the original", src)
		}
	}
	if !Equal(a, mustParse(t, "# same\nassume at 1 : (x>0) ;check reach<=2:True;")) {
		t.Error("respelled query is not Equal")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range corpus {
		f.Add(s)
	}
	for _, ex := range examples {
		f.Add(ex.src)
	}
	f.Add("check reach <= 1: called(step=0, where called());")
	f.Add("init state(\"x\") havoc {a, 'b'} where cycle > 0; check cover <= 1: case(\"l\", 3);")
	f.Fuzz(func(t *testing.T, src string) {
		checkRoundTrip(t, src)
	})
}
