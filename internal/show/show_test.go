package show

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	goldenfile "github.com/stateproof/stateproof/internal/golden"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func machine(t *testing.T, path string) *Machine {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := jsonmodel.Decode(data)
	if err != nil || !res.Valid() {
		t.Fatalf("%s: %v %v", path, err, res.Errors)
	}
	return FromJSON(res.Model)
}

// TestGoldenForms renders the English and the Chinese order model in every
// form, at widths that make form A fit, make A fall back to C, and make a
// group of C fall back to a list.
func TestGoldenForms(t *testing.T) {
	models := map[string]string{"en": "../../examples/order.json", "zh": "testdata/order-zh.json"}
	cases := []struct {
		name     string
		opt      Options
		wantForm string
	}{
		{"A-100", Options{Form: FormA, Width: 100}, FormA},
		{"A-80", Options{Form: FormA, Width: 80}, FormA},
		{"A-60", Options{Form: FormA, Width: 60}, ""}, // zh shortens to fit, en falls back to C
		{"A-40-falls-back-to-C", Options{Form: FormA, Width: 40}, FormC},
		{"B", Options{Form: FormB, Width: 100}, FormB},
		{"C-100", Options{Form: FormC, Width: 100}, FormC},
		{"C-80", Options{Form: FormC, Width: 80}, FormC},
		{"C-60", Options{Form: FormC, Width: 60}, FormC},
		{"C-40-lists", Options{Form: FormC, Width: 40}, FormC},
		{"C-30-lists-without-scenarios", Options{Form: FormC, Width: 30}, FormC},
		{"auto-100", Options{Form: FormAuto, Width: 100}, FormA},
		{"auto-detail", Options{Form: FormAuto, Width: 100, Detail: true}, FormB},
		{"auto-narrow", Options{Form: FormAuto, Width: 59}, FormC},
	}
	for lang, path := range models {
		mc := machine(t, path)
		for _, c := range cases {
			t.Run(lang+"/"+c.name, func(t *testing.T) {
				text, form, err := Render(mc, c.opt)
				if err != nil {
					t.Fatal(err)
				}
				if c.wantForm != "" && form != c.wantForm {
					t.Errorf("form = %s, want %s", form, c.wantForm)
				}
				checkWidth(t, text, form, c.opt.Width)
				golden(t, lang+"-"+c.name+".txt", text)
			})
		}
	}
}

// checkWidth asserts that no line of forms A and C is wider than the
// display: table rows, the fallback lists and the notes alike never wrap.
func checkWidth(t *testing.T, text, form string, w int) {
	t.Helper()
	if form == FormB {
		return
	}
	for _, line := range strings.Split(text, "\n") {
		if width(line) > w {
			t.Errorf("line is %d columns wide, more than %d: %q", width(line), w, line)
		}
	}
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Compare(t, name, []byte(got), *update)
}

func TestLanguageAndWidths(t *testing.T) {
	zh := machine(t, "testdata/order-zh.json")
	text, _, _ := Render(zh, Options{Form: FormA, Width: 100})
	// At width 100 the meanings keep their 6 characters (before, they
	// were cut to 6 columns: "订单…").
	if !strings.HasPrefix(text, "状态（含义）") || !strings.Contains(text, "NEW（订单已创建…）") {
		t.Errorf("Chinese narrative, Chinese labels and full-width parentheses:\n%s", text)
	}
	// Meanings are cut by characters: a CJK character is one character
	// (and two columns), the mark "…" is the last of the n.
	for in, want := range map[string]string{"订单已创建，等待支付": "订单已创建…", "订单已创建，": "订单已创建，", "ab": "ab", "the buyer paid": "the b…"} {
		if got := shorten(in, maxMeaning); got != want {
			t.Errorf("shorten(%q) = %q, want %q", in, got, want)
		}
	}
	// Narrower, form A shortens only as much as the width needs before it
	// falls back to form C.
	for _, w := range []int{100, 90, 80, 75, 70} {
		text, form, _ := Render(zh, Options{Form: FormA, Width: w})
		if form != FormA {
			continue
		}
		checkWidth(t, text, form, w)
		wider, _, _ := Render(zh, Options{Form: FormA, Width: w + 1})
		if width(strings.SplitN(wider, "\n", 2)[0]) > w+1 {
			t.Errorf("width %d: a wider table", w+1)
		}
	}
	// The lost parcel has no event meaning and no scenario: bare ids.
	if !strings.Contains(text, "| lost ") || strings.Contains(text, "lost（") {
		t.Errorf("missing narrative must show the bare id:\n%s", text)
	}
	b, _, _ := Render(zh, Options{Form: FormB, Width: 100})
	if !strings.Contains(b, "6. SHIPPED --lost--> CANCELLED\n   状态：SHIPPED（已发货，等待签收）\n   发生：lost\n   进入：CANCELLED（已取消（终态））\n") {
		t.Errorf("form B with bare ids:\n%s", b)
	}
}

func TestNoNarrativeShowsIDs(t *testing.T) {
	text, form, err := Render(machine(t, "../../examples/retry.json"), Options{Form: FormA, Width: 100})
	if err != nil || form != FormA {
		t.Fatalf("form %s, %v", form, err)
	}
	if strings.ContainsAny(text, "()（）") && !strings.Contains(text, "(meaning)") {
		t.Errorf("no narrative: no meanings\n%s", text)
	}
	if strings.Contains(text, "state (meaning)") == false {
		t.Errorf("header missing:\n%s", text)
	}
}

// TestAutoManyTransitions: 15 transitions or more go to form C.
func TestAutoManyTransitions(t *testing.T) {
	mc := &Machine{Terminal: map[string]bool{}}
	for i := range 15 {
		s := fmt.Sprintf("S%d", i)
		mc.States = append(mc.States, s)
		mc.Transitions = append(mc.Transitions, Transition{From: s, Event: "next", To: fmt.Sprintf("S%d", (i+1)%15)})
	}
	if _, form, _ := Render(mc, Options{Form: FormAuto, Width: 200}); form != FormC {
		t.Errorf("15 transitions: form %s, want C", form)
	}
	mc.Transitions = mc.Transitions[:14]
	if _, form, _ := Render(mc, Options{Form: FormAuto, Width: 200}); form != FormA {
		t.Errorf("14 transitions: form %s, want A", form)
	}
	if _, form, _ := Render(mc, Options{Form: FormAuto, Width: 200, Detail: true}); form != FormA {
		t.Errorf("14 transitions with detail: form %s, want A (B is for 10 or fewer)", form)
	}
}

// --form takes a, b, c and auto in any case.
func TestFormAnyCase(t *testing.T) {
	mc := machine(t, "../../examples/order.json")
	for in, want := range map[string]string{"a": FormA, "A": FormA, "b": FormB, "c": FormC, "C": FormC, "AUTO": FormA, "Auto": FormA, "auto": FormA} {
		if _, form, err := Render(mc, Options{Form: in, Width: 100}); err != nil || form != want {
			t.Errorf("--form %s: form %s, %v; want %s", in, form, err, want)
		}
	}
}

func TestBadOptions(t *testing.T) {
	mc := &Machine{}
	if _, _, err := Render(mc, Options{Form: "D", Width: 80}); err == nil {
		t.Error("form D must be refused")
	}
	if _, _, err := Render(mc, Options{Form: FormA, Width: 0}); err == nil {
		t.Error("width 0 must be refused")
	}
}
