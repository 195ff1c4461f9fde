package htmlreport

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/diagram"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/verify"
)

func verifyPage(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := jsonmodel.Decode(data)
	if err != nil || !res.Valid() {
		t.Fatalf("%s: %v", path, err)
	}
	p, err := Verify(context.Background(), path, verify.Run(res, verify.DefaultOptions()), Picture{Graph: diagram.FromJSON(res.Model, filepath.Base(path)), Model: res.Model}, "test")
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Render()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestHostileNamesAreText: names holding markup reach the page as text,
// and the page's only script is its own.
func TestHostileNamesAreText(t *testing.T) {
	page := verifyPage(t, "../diagram/testdata/hostile.json")
	if n := strings.Count(page, "<script"); n != 1 {
		t.Errorf("%d script elements, want the page's own one", n)
	}
	if strings.Contains(page, "<b>bold") || !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("a name's markup reached the page as markup, or the name is missing")
	}
}

// TestVerifyPage: verdict first, failing checks first, the S7 path as a
// walk whose rows name the edges and states of its own picture and carry
// the replayed values.
func TestVerifyPage(t *testing.T) {
	page := verifyPage(t, "../../examples/broken/s7-scoped-range.json")
	body := page[strings.Index(page, "<body>"):]
	if !strings.HasPrefix(body, "<body>\n<header class=\"verdict fail\" role=\"status\">") {
		t.Errorf("the page must open with the verdict:\n%.300s", body)
	}
	if i, j := strings.Index(page, "S7</span> Invariant Validity"), strings.Index(page, "S5</span> Event Completeness"); i < 0 || j < 0 || i > j {
		t.Errorf("the failing check with an error (S7 at %d) must come before the warnings (S5 at %d)", i, j)
	}
	rows := regexp.MustCompile(`<tr data-edges="([^"]*)" data-state="([^"]*)"><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td></tr>`).FindAllStringSubmatch(page, -1)
	var got []string
	for _, r := range rows[:3] {
		got = append(got, strings.Join(r[1:], ","))
	}
	want := "," + "w1_s0,start,,IDLE,0;" + "w1_e1,w1_s1,1,coin,CREDIT,1;" + "w1_e2,w1_s0,2,refund,IDLE,1"
	if strings.Join(got, ";") != want {
		t.Errorf("walk rows = %q\nwant        %q", strings.Join(got, ";"), want)
	}
	for _, id := range []string{`id="w1_e1"`, `id="w1_s1"`} {
		if !strings.Contains(page, id) {
			t.Errorf("the walk's picture has no element %s", id)
		}
	}
	if strings.Contains(page, "S5_UNHANDLED_EVENT") && strings.Count(page, `class="walk"`) != 2 {
		t.Errorf("walks: %d, want 2 (S7 and A7 paths; an ignored event is no picture)", strings.Count(page, `class="walk"`))
	}
}

// TestTooLargeMachineIsNotDrawn: a machine too large to lay out leaves a
// note where its picture would be; the page is still made.
func TestTooLargeMachineIsNotDrawn(t *testing.T) {
	g := &diagram.Graph{}
	for i := range 300 {
		g.States = append(g.States, &diagram.State{ID: fmt.Sprint("q", i)})
		if i > 0 {
			g.Edges = append(g.Edges, diagram.Edge{From: fmt.Sprint("q", i-1), To: fmt.Sprint("q", i), Source: i})
		}
	}
	for k := range 400 { // each crosses the whole chain
		g.Edges = append(g.Edges, diagram.Edge{From: "q0", To: "q299", Source: 300 + k})
	}
	f, err := figure(context.Background(), g, "big", "m_")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(f.SVG), `<p class="note">Not drawn: the machine is too large to lay out`) {
		t.Errorf("figure = %.200s", f.SVG)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := figure(ctx, g, "big", "m_"); err == nil {
		t.Error("an ended context must end the page, not leave a note")
	}
}

// TestLassoWalk: an A15 lasso's cycle steps are marked in the walk's
// table and its caption says which steps repeat.
func TestLassoWalk(t *testing.T) {
	page := verifyPage(t, "../diagram/testdata/lasso.json")
	for _, want := range []string{`class="cycle"><td>2 <span title="on the cycle: repeats forever">↻</span></td><td>poll</td>`, "lasso: step 2 (↻) repeats forever"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// One cycle row per lasso: A15's and the same witness in A7.
	if strings.Count(page, `class="cycle"`) != 2 {
		t.Errorf("%d cycle rows, want 2", strings.Count(page, `class="cycle"`))
	}
}
