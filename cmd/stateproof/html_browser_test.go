package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/stateproof/stateproof/internal/browsertest"
)

var screenshots = flag.String("screenshots", "", "also write the HTML report screenshots into `DIR` (docs/images)")

// htmlPage is one HTML report under browser test.
type htmlPage struct {
	name    string
	args    []string
	verdict string // the word the verdict banner shows
	walk    bool   // the page has a step-through
	edges   bool   // its steps are edges of a picture
}

var htmlPages = []htmlPage{
	{"verify", []string{"verify", "../../examples/broken/s7-scoped-range.json"}, "fail", true, true},
	{"verify-closed-cycle", []string{"verify", "../../examples/broken/s3-closed-cycle.json"}, "fail", false, false},
	{"bmc", []string{"bmc", "../../examples/order.json", "-q", "../../examples/queries/order-second-retry.fbmcq"}, "pass", true, true},
	{"prove", []string{"prove", "../../examples/broken/s7-peterson-no-flag.json"}, "fail", true, true},
	{"compose", []string{"compose", "../../examples/compose/handshake-client.json", "../../examples/compose/handshake-server.json", "--rendezvous", "req,ack"}, "fail", true, false},
}

// TestHTMLReportsInBrowser opens the HTML report of every command in
// headless Chromium: the page loads without a console error, the verdict
// comes first, the step-through moves the highlight on the picture and in
// the table, and with JavaScript disabled the picture and the table are
// still there. A screenshot of each page goes to the test's temp dir.
func TestHTMLReportsInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	b := browsertest.Start(t)
	dir := t.TempDir()
	for _, pg := range htmlPages {
		t.Run(pg.name, func(t *testing.T) {
			out := filepath.Join(dir, pg.name+".html")
			if _, stderr, _ := runCLI(t, append(pg.args, "--format", "html", "-o", out)...); stderr != "" {
				t.Fatalf("stderr: %s", stderr)
			}
			checkSelfContained(t, out)
			var first, verdict string
			var png []byte
			err := chromedp.Run(b.Ctx,
				chromedp.Navigate(browsertest.FileURL(out)),
				chromedp.WaitReady("footer"),
				chromedp.Evaluate(`document.body.firstElementChild.className`, &first),
				chromedp.Text(".verdict .word", &verdict),
				chromedp.FullScreenshot(&png, 100),
			)
			if err != nil {
				t.Fatal(err)
			}
			if first != "verdict "+map[string]string{"fail": "fail", "pass": "pass"}[pg.verdict] || !strings.EqualFold(strings.TrimSpace(verdict), pg.verdict) {
				t.Errorf("the page must open with the verdict %q; first element %q says %q", pg.verdict, first, verdict)
			}
			if pg.walk {
				stepThrough(t, b, pg.edges)
			}
			if *screenshots != "" && pg.name != "verify-closed-cycle" {
				docShots(t, b, pg)
			}
			for _, e := range b.Errors() {
				t.Errorf("browser console: %s", e)
			}
			shot := filepath.Join(dir, pg.name+".png")
			if err := os.WriteFile(shot, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s", shot)
		})
	}
	t.Run("dark-mode", func(t *testing.T) {
		var body, diagram, text string
		var png []byte
		err := chromedp.Run(b.Ctx,
			emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}),
			chromedp.Navigate(browsertest.FileURL(filepath.Join(dir, "verify.html"))),
			chromedp.WaitReady("footer"),
			chromedp.Evaluate(`getComputedStyle(document.body).backgroundColor`, &body),
			chromedp.Evaluate(`getComputedStyle(document.querySelector(".diagram")).backgroundColor`, &diagram),
			chromedp.Evaluate(`getComputedStyle(document.body).color`, &text),
			chromedp.CaptureScreenshot(&png),
			emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}),
		)
		if err != nil {
			t.Fatal(err)
		}
		if body != "rgb(22, 22, 22)" || text != "rgb(232, 232, 232)" || diagram != "rgb(255, 255, 255)" {
			t.Errorf("dark mode: body %s on %s, pictures on %s (want light text on dark, pictures on white)", text, body, diagram)
		}
		os.WriteFile(filepath.Join(dir, "verify-dark.png"), png, 0o644)
		if *screenshots != "" {
			os.WriteFile(filepath.Join(*screenshots, "report-verify-dark.png"), png, 0o644)
		}
	})
	t.Run("no-javascript", func(t *testing.T) {
		out := filepath.Join(dir, "verify.html")
		var hidden bool
		var tables, svgs int
		err := chromedp.Run(b.Ctx,
			emulation.SetScriptExecutionDisabled(true),
			chromedp.Navigate(browsertest.FileURL(out)),
			chromedp.WaitReady("footer"),
			chromedp.Evaluate(`document.querySelector(".walk .controls").hidden`, &hidden),
			chromedp.Evaluate(`document.querySelectorAll(".walk table.steps").length`, &tables),
			chromedp.Evaluate(`document.querySelectorAll(".diagram svg").length`, &svgs),
			emulation.SetScriptExecutionDisabled(false),
		)
		if err != nil {
			t.Fatal(err)
		}
		if !hidden || tables == 0 || svgs < 2 {
			t.Errorf("without JavaScript: controls hidden %v (want true), %d step tables, %d pictures", hidden, tables, svgs)
		}
	})
}

// stepThrough presses next twice and previous once on the first walk:
// the current row follows, and the current row's edge and state are the
// highlighted elements of the picture.
func stepThrough(t *testing.T, b *browsertest.Browser, edges bool) {
	t.Helper()
	const state = `(() => {
	  const w = document.querySelector(".walk .controls").closest(".walk");
	  const rows = [...w.querySelectorAll("table.steps tbody tr")];
	  const cur = rows.findIndex(r => r.classList.contains("current"));
	  const marked = [...w.querySelectorAll("svg .current")].map(e => e.id).sort().join(" ");
	  const want = cur < 0 ? "" : [...(rows[cur].dataset.edges || "").split(" "), rows[cur].dataset.state].filter(Boolean).sort().join(" ");
	  return cur + "|" + marked + "|" + want + "|" + w.querySelector(".pos").textContent;
	})()`
	var s0, s1, s2, s3 string
	err := chromedp.Run(b.Ctx,
		chromedp.Evaluate(state, &s0),
		chromedp.Click(".walk .controls .next", chromedp.NodeVisible), chromedp.Sleep(50*time.Millisecond),
		chromedp.Evaluate(state, &s1),
		chromedp.Click(".walk .controls .next", chromedp.NodeVisible), chromedp.Sleep(50*time.Millisecond),
		chromedp.Evaluate(state, &s2),
		chromedp.Click(".walk .controls .prev", chromedp.NodeVisible), chromedp.Sleep(50*time.Millisecond),
		chromedp.Evaluate(state, &s3),
	)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct{ got, row, pos string }{{s0, "0", "start"}, {s1, "1", "step 1 of"}, {s2, "2", "step 2 of"}, {s3, "1", "step 1 of"}} {
		parts := strings.Split(c.got, "|")
		if len(parts) != 4 || parts[0] != c.row || !strings.HasPrefix(parts[3], c.pos) {
			t.Errorf("after %d presses: %q, want row %s and %q", i, c.got, c.row, c.pos)
			continue
		}
		if parts[1] != parts[2] {
			t.Errorf("after %d presses the picture marks %q, the row names %q", i, parts[1], parts[2])
		}
		if edges && c.row != "0" && !strings.Contains(parts[1], "e") {
			t.Errorf("after %d presses no edge is highlighted: %q", i, c.got)
		}
	}
}

// checkSelfContained: the page refers to nothing outside itself.
func checkSelfContained(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, bad := range []string{"<script src", "<link", "@import", "url(http", "src=\"http", "href=\"http"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page loads something from outside: %q", bad)
		}
	}
}

// docShots writes the pictures of docs/images: the top of the page (the
// verdict and the machine) of one page per command and, for verify, the
// first walk with its highlighted step.
func docShots(t *testing.T, b *browsertest.Browser, pg htmlPage) {
	t.Helper()
	var top, walk []byte
	actions := []chromedp.Action{chromedp.Evaluate(`window.scrollTo(0, 0)`, nil), chromedp.CaptureScreenshot(&top)}
	if pg.name == "verify" {
		actions = append(actions, chromedp.Screenshot(`document.querySelector(".walk .controls").closest(".walk")`, &walk, chromedp.ByJSPath))
	}
	if err := chromedp.Run(b.Ctx, actions...); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*screenshots, "report-"+pg.name+".png"), top, 0o644); err != nil {
		t.Fatal(err)
	}
	if walk != nil {
		if err := os.WriteFile(filepath.Join(*screenshots, "report-"+pg.name+"-step.png"), walk, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
