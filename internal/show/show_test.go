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
		{"A-60-falls-back-to-C", Options{Form: FormA, Width: 60}, FormC},
		{"B", Options{Form: FormB, Width: 100}, FormB},
		{"C-100", Options{Form: FormC, Width: 100}, FormC},
		{"C-60-one-group-lists", Options{Form: FormC, Width: 60}, FormC},
		{"C-40-lists", Options{Form: FormC, Width: 40}, FormC},
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
				if form != c.wantForm {
					t.Errorf("form = %s, want %s", form, c.wantForm)
				}
				checkWidth(t, text, form, c.opt.Width)
				golden(t, lang+"-"+c.name+".txt", text)
			})
		}
	}
}

// checkWidth asserts that no table row is wider than the display: every
// line of form A, and every line of form C but its lists and notes.
func checkWidth(t *testing.T, text, form string, w int) {
	t.Helper()
	if form == FormB {
		return
	}
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "- ") || strings.HasPrefix(trimmed, "(") || strings.HasPrefix(trimmed, "（") {
			continue
		}
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
	if !strings.HasPrefix(text, "状态（含义）") || !strings.Contains(text, "NEW（订单…）") {
		t.Errorf("Chinese narrative, Chinese labels and full-width parentheses:\n%s", text)
	}
	// A CJK character is two columns: 订单 is 4, and with the ellipsis
	// the meaning fits 6 columns ("订单…" = 5; "订单已" would be 6 but
	// leaves no room for the mark).
	if got := shorten("订单已创建", maxMeaning); got != "订单…" || width(got) > maxMeaning {
		t.Errorf("shorten = %q (%d columns)", got, width(got))
	}
	if got := shorten("ab", maxMeaning); got != "ab" {
		t.Errorf("a short meaning is kept whole, got %q", got)
	}
	// The lost parcel has no event meaning and no scenario: bare ids.
	if !strings.Contains(text, "| lost             |") {
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

func TestBadOptions(t *testing.T) {
	mc := &Machine{}
	if _, _, err := Render(mc, Options{Form: "D", Width: 80}); err == nil {
		t.Error("form D must be refused")
	}
	if _, _, err := Render(mc, Options{Form: FormA, Width: 0}); err == nil {
		t.Error("width 0 must be refused")
	}
}
