package diagram

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/stateproof/stateproof/internal/browsertest"
)

// renderResult is what the page says about one diagram.
type renderResult struct {
	Error string `json:"error"`
	Text  string `json:"text"` // the rendered SVG's text content
}

// TestMermaidRendersInTheRealRenderer hands every Mermaid text this
// package writes (every example, the hostile names, the nested FCSTM
// machine, the overlays) to the real Mermaid package in Chromium: each
// must render without an error and show every state by its name. (The
// package's parse under Node needs a DOM, so the browser is where it
// runs.)
func TestMermaidRendersInTheRealRenderer(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	script := browsertest.MermaidScript(t)
	b := browsertest.Start(t)
	type diagramCase struct {
		name   string
		text   string
		labels []string
	}
	var cases []diagramCase
	for _, path := range append(exampleModels(t), "testdata/hostile.json") {
		m := loadModel(t, path)
		g := FromJSON(m, filepath.Base(path))
		var labels []string
		for _, s := range m.States {
			labels = append(labels, oneLine(s.ID))
		}
		for _, tr := range m.Transitions {
			if len(tr.Event) < maxEdgeLabel {
				labels = append(labels, oneLine(tr.Event))
			}
		}
		cases = append(cases, diagramCase{path, Mermaid(g, nil), labels})
	}
	for name, g := range fcstmExamples(t) {
		var labels []string
		g.walk(func(s *State, _ int) { labels = append(labels, oneLine(s.label())) })
		cases = append(cases, diagramCase{name, Mermaid(g, nil), labels})
	}
	for name, build := range goldenCases(t) {
		g, ov := build()
		var labels []string
		g.walk(func(s *State, _ int) { labels = append(labels, oneLine(s.label())) })
		cases = append(cases, diagramCase{"golden " + name, Mermaid(g, ov), labels})
	}
	page := filepath.Join(t.TempDir(), "mermaid.html")
	html := `<!DOCTYPE html><html><head><meta charset="utf-8"><script src="` + browsertest.FileURL(script) + `"></script></head><body><div id="out"></div>
<script>mermaid.initialize({startOnLoad: false, securityLevel: "strict"});
async function renderAll(sources) {
  const out = [];
  for (let i = 0; i < sources.length; i++) {
    try {
      const r = await mermaid.render("d" + i, sources[i]);
      const div = document.createElement("div");
      div.innerHTML = r.svg;
      document.getElementById("out").appendChild(div);
      out.push({error: div.querySelector("svg") ? "" : "no SVG element", text: div.textContent});
    } catch (e) {
      out.push({error: String(e && e.message || e), text: ""});
    }
  }
  return JSON.stringify(out);
}</script></body></html>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	sources := make([]string, len(cases))
	for i, c := range cases {
		sources[i] = c.text
	}
	arg, _ := json.Marshal(sources)
	var raw string
	err := chromedp.Run(b.Ctx,
		chromedp.Navigate(browsertest.FileURL(page)),
		chromedp.Evaluate("renderAll("+string(arg)+")", &raw, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
	)
	if err != nil {
		t.Fatal(err)
	}
	var results []renderResult
	if err := json.Unmarshal([]byte(raw), &results); err != nil || len(results) != len(cases) {
		t.Fatalf("results %q: %v", raw, err)
	}
	for i, c := range cases {
		r := results[i]
		if r.Error != "" {
			t.Errorf("%s: Mermaid refuses it: %s\n%s", c.name, r.Error, c.text)
			continue
		}
		// Mermaid swaps entity codes for placeholders while parsing and
		// back when rendering; a placeholder left over is garbage.
		if strings.Contains(r.Text, "ﬂ°°") {
			t.Errorf("%s: an entity code was not decoded: %q", c.name, r.Text)
		}
		for _, l := range c.labels {
			if !strings.Contains(r.Text, l) {
				t.Errorf("%s: the rendered diagram does not show %q; text: %q", c.name, l, r.Text)
			}
		}
	}
	for _, e := range b.Errors() {
		t.Errorf("browser console: %s", e)
	}
}

// TestSVGsRenderInBrowser opens the SVG of every example (and of the
// hostile names and the nested machine) in Chromium: each must be read as
// an SVG document, without an XML error or a console error, and lay out
// with a non-empty size.
func TestSVGsRenderInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	b := browsertest.Start(t)
	dir := t.TempDir()
	graphs := fcstmExamples(t)
	graphs["nested"] = FromFCSTM(nestedMachine(), "nested")
	for _, path := range append(exampleModels(t), "testdata/hostile.json") {
		graphs[filepath.Base(filepath.Dir(path))+"-"+filepath.Base(path)] = FromJSON(loadModel(t, path), filepath.Base(path))
	}
	for name, g := range graphs {
		svg, err := SVG(context.Background(), g, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, name+".svg")
		if err := os.WriteFile(file, svg, 0o644); err != nil {
			t.Fatal(err)
		}
		var root string
		var errs int
		var width float64
		err = chromedp.Run(b.Ctx,
			chromedp.Navigate(browsertest.FileURL(file)),
			chromedp.Evaluate(`document.documentElement.localName`, &root),
			chromedp.Evaluate(`document.getElementsByTagName("parsererror").length`, &errs),
			chromedp.Evaluate(`document.documentElement.getBBox().width`, &width),
		)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if root != "svg" || errs != 0 || width <= 0 {
			t.Errorf("%s: root <%s>, %d XML errors, width %v", name, root, errs, width)
		}
	}
	for _, e := range b.Errors() {
		t.Errorf("browser console: %s", e)
	}
}
