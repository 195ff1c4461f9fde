package diagram

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	goldenfile "github.com/stateproof/stateproof/internal/golden"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/verify"
)

// entity matches the Mermaid entity codes mermaidText writes.
var entity = regexp.MustCompile(`#(quot|[0-9]+);|^  state "|" as s0$`)

var update = flag.Bool("update", false, "rewrite the golden files")

func loadModel(t testing.TB, path string) *jsonmodel.Model {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := jsonmodel.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Valid() {
		t.Fatalf("%s: %v", path, res.Errors)
	}
	return res.Model
}

// exampleModels lists every valid JSON model under examples/.
func exampleModels(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, pat := range []string{"../../examples/*.json", "../../examples/*/*.json"} {
		ms, _ := filepath.Glob(pat)
		for _, p := range ms {
			data, _ := os.ReadFile(p)
			if res, err := jsonmodel.Decode(data); err == nil && res.Valid() {
				out = append(out, p)
			}
		}
	}
	if len(out) < 20 {
		t.Fatalf("found only %d example models", len(out))
	}
	return out
}

// fcstmExamples draws every FCSTM example under examples/fcstm.
func fcstmExamples(t testing.TB) map[string]*Graph {
	t.Helper()
	paths, _ := filepath.Glob("../../examples/fcstm/*.fcstm")
	if len(paths) < 5 {
		t.Fatalf("found only %d FCSTM examples", len(paths))
	}
	out := map[string]*Graph{}
	for _, p := range paths {
		m, err := model.Load(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[filepath.Base(p)] = FromFCSTM(m, filepath.Base(p))
	}
	return out
}

// TestEveryFCSTMExampleDraws: every FCSTM example in all three formats;
// every state is declared once in Mermaid and shown by name in the SVG,
// every composite is a cluster.
func TestEveryFCSTMExampleDraws(t *testing.T) {
	for name, g := range fcstmExamples(t) {
		t.Run(name, func(t *testing.T) {
			mmd, dot := Mermaid(g, nil), DOT(g, nil, "")
			svg, err := SVG(context.Background(), g, nil, "")
			if err != nil {
				t.Fatal(err)
			}
			texts := strings.Join(svgTexts(t, svg), "\n")
			ids := g.StateElementIDs()
			g.walk(func(s *State, _ int) {
				decl := regexp.MustCompile(`(?m)^\s*state "` + regexp.QuoteMeta(mermaidText(s.label())) + `(<br/>[^"]*)?" as ` + ids[s.ID] + `( \{)?$`)
				if len(decl.FindAllString(mmd, -1)) != 1 {
					t.Errorf("Mermaid does not declare %s once", s.ID)
				}
				if len(s.Children) > 0 && !strings.Contains(dot, "subgraph cluster_"+ids[s.ID]+" {") {
					t.Errorf("composite %s is no cluster", s.ID)
				}
				if !strings.Contains(texts, s.label()) {
					t.Errorf("the SVG does not show %q", s.label())
				}
			})
		})
	}
}

// finding returns the first finding of verify on m with the code.
func finding(t testing.TB, path, code string) (*jsonmodel.Model, *report.Finding) {
	t.Helper()
	data, _ := os.ReadFile(path)
	res, _ := jsonmodel.Decode(data)
	rep := verify.Run(res, verify.DefaultOptions())
	for i := range rep.Checks {
		for k := range rep.Checks[i].Findings {
			if rep.Checks[i].Findings[k].Code == code {
				return res.Model, &rep.Checks[i].Findings[k]
			}
		}
	}
	t.Fatalf("%s: no %s finding", path, code)
	return nil, nil
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Compare(t, name, []byte(got), *update)
}

// goldenCases are the drawings under golden test: a plain model, hostile
// names, a nested FCSTM machine and two overlays.
func goldenCases(t *testing.T) map[string]func() (*Graph, *Overlay) {
	return map[string]func() (*Graph, *Overlay){
		"order": func() (*Graph, *Overlay) {
			return FromJSON(loadModel(t, "../../examples/order.json"), "order.json"), nil
		},
		"hostile": func() (*Graph, *Overlay) {
			return FromJSON(loadModel(t, "testdata/hostile.json"), "hostile \"names\" --> <here>"), nil
		},
		"nested": func() (*Graph, *Overlay) { return FromFCSTM(nestedMachine(), "nested.fcstm"), nil },
		"scoped-range-s7": func() (*Graph, *Overlay) {
			m, f := finding(t, "../../examples/broken/s7-scoped-range.json", "S7_INVARIANT_VIOLATION")
			g := FromJSON(m, "s7-scoped-range.json")
			return g, FindingOverlay(g, m, f)
		},
		"closed-cycle-s3": func() (*Graph, *Overlay) {
			m, f := finding(t, "../../examples/broken/s3-closed-cycle.json", "S3_CLOSED_SCC")
			g := FromJSON(m, "s3-closed-cycle.json")
			return g, FindingOverlay(g, m, f)
		},
	}
}

func TestGoldenDrawings(t *testing.T) {
	for name, build := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			g, ov := build()
			golden(t, name+".mmd", Mermaid(g, ov))
			golden(t, name+".dot", DOT(g, ov, ""))
			svg, err := SVG(context.Background(), g, ov, "")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+".svg", string(svg))
		})
	}
}

// svgTexts parses an SVG document as XML (failing on any error) and
// returns its text nodes, entities decoded.
func svgTexts(t testing.TB, svg []byte) []string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	d.Strict = true
	d.Entity = xml.HTMLEntity
	var texts []string
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return texts
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		if cd, ok := tok.(xml.CharData); ok {
			if s := strings.TrimSpace(string(cd)); s != "" {
				texts = append(texts, s)
			}
		}
	}
}

// TestEveryExampleDraws draws every example in all three formats; each
// state must be declared once in Mermaid and shown by its name in the SVG,
// which must be well-formed XML.
func TestEveryExampleDraws(t *testing.T) {
	for _, path := range append(exampleModels(t), "testdata/hostile.json") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			m := loadModel(t, path)
			g := FromJSON(m, filepath.Base(path))
			mmd := Mermaid(g, nil)
			for i, s := range m.States {
				decl := regexp.MustCompile(`(?m)^  state "` + regexp.QuoteMeta(mermaidText(s.ID)) + `(<br/>[^"]*)?" as s` + itoa(i) + `$`)
				if len(decl.FindAllString(mmd, -1)) != 1 {
					t.Errorf("Mermaid declares %q not exactly once:\n%s", s.ID, mmd)
				}
			}
			pairs := map[[2]string]bool{}
			for _, tr := range m.Transitions {
				pairs[[2]string{tr.From, tr.To}] = true
			}
			if n := strings.Count(mmd, " --> "); n != len(pairs)+1+terminals(m) {
				t.Errorf("Mermaid has %d edges, want %d state pairs + the initial edge + %d final edges", n, len(pairs), terminals(m))
			}
			for k := range m.Transitions {
				label := g.Edges[k+1].Label
				if len(label) > maxEdgeLabel { // the guard is in a note
					label = strings.Replace(label, g.Edges[k+1].Guard, "guard "+itoa(k+1), 1)
				}
				if label := mermaidText(label); !strings.Contains(mmd, label) {
					t.Errorf("Mermaid lacks the label %q of transition %d", label, k)
				}
			}
			svg, err := SVG(context.Background(), g, nil, "")
			if err != nil {
				t.Fatal(err)
			}
			texts := svgTexts(t, svg)
			for _, s := range m.States {
				if !slices.Contains(texts, oneLine(s.ID)) {
					t.Errorf("the SVG does not show state %q as a text of its own; texts: %q", s.ID, texts)
				}
			}
			if got := strings.Count(string(svg), `class="edge transition`); got != len(m.Transitions) {
				t.Errorf("the SVG has %d transition edges, want %d", got, len(m.Transitions))
			}
		})
	}
}

func terminals(m *jsonmodel.Model) int {
	n := 0
	for _, s := range m.States {
		if s.Terminal {
			n++
		}
	}
	return n
}

// TestHostileNamesStayLiteral: the Mermaid text of the hostile model has
// no character its grammar reads inside a label, and the SVG shows every
// name and event exactly as written (control characters as pictures).
func TestHostileNamesStayLiteral(t *testing.T) {
	m := loadModel(t, "testdata/hostile.json")
	g := FromJSON(m, "hostile")
	mmd := Mermaid(g, nil)
	label := regexp.MustCompile(`^\s*state "([^"]*)" as s\d+$|^\s*(?:s\d+|\[\*\]) --> (?:s\d+|\[\*\])(?: : (.*))?$|^stateDiagram-v2$|^\s*%% .*$`)
	for _, line := range strings.Split(strings.TrimSuffix(mmd, "\n"), "\n") {
		mm := label.FindStringSubmatch(line)
		if mm == nil {
			t.Errorf("Mermaid line outside the expected grammar: %q", line)
			continue
		}
		if strings.ContainsAny(entity.ReplaceAllString(mm[1]+mm[2], ""), "\":;<>{}|%`\\") {
			t.Errorf("unescaped character in Mermaid label: %q", line)
		}
	}
	svg, err := SVG(context.Background(), g, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	texts := svgTexts(t, svg)
	for _, tr := range m.Transitions {
		if !slices.Contains(texts, oneLine(tr.Event)) {
			t.Errorf("the SVG does not show event %q literally; texts: %q", tr.Event, texts)
		}
	}
	if !slices.Contains(texts, "line␊break") {
		t.Errorf("a line break in a name must show as ␊; texts: %q", texts)
	}
	if strings.Contains(string(svg), "<script") || strings.Contains(string(svg), "<b>") {
		t.Error("markup from a name reached the SVG as markup")
	}
}

// TestNestedFCSTM: composites are clusters (DOT) and blocks (Mermaid)
// with their own initial and final markers; edges to a composite end at
// its border; the forced transition is dashed and the pseudo state marked.
func TestNestedFCSTM(t *testing.T) {
	g := FromFCSTM(nestedMachine(), "nested")
	mmd := Mermaid(g, nil)
	for _, want := range []string{
		"state \"Root\" as s0 {\n    state \"Idle (waiting)<br/>enter / abstract Greet\" as s1\n    state \"Work<br/>exit / ref /Root.Idle.Greet\" as s2 {\n",
		"      state \"Run<br/>during / #123; x = x + 1 #125;\" as s5\n",
		"      [*] --> s3\n      s3 --> s4 : [x #62; 0] / x = x - 1\n      s4 --> s5\n      s5 --> [*] : Done\n    }\n",
		"    s2 --> [*] : ! Abort\n  }\n  [*] --> s0\n",
		"class s4 pseudo",
	} {
		if !strings.Contains(mmd, want) {
			t.Errorf("Mermaid lacks %q:\n%s", want, mmd)
		}
	}
	dot := DOT(g, nil, "")
	for _, want := range []string{
		"subgraph cluster_s2 {", "s1 -> i_s2 [lhead=cluster_s2,", "i_s2 -> s1 [ltail=cluster_s2,",
		"i_s2 -> f_s0 [ltail=cluster_s2, style=dashed,", `s4 [id="s4", class="state", label=<Choice>, shape=box, style="rounded,dashed"`,
	} {
		if !strings.Contains(dot, want) {
			t.Errorf("DOT lacks %q:\n%s", want, dot)
		}
	}
	svg, err := SVG(context.Background(), g, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	texts := svgTexts(t, svg)
	for _, want := range []string{"Work", "Prep", "Choice", "[x &gt; 0] / x = x - 1", "! Abort"} {
		want = strings.ReplaceAll(want, "&gt;", ">")
		if !slices.Contains(texts, want) {
			t.Errorf("SVG lacks text %q; texts: %q", want, texts)
		}
	}
}

// TestPathOverlayReplaysValues: the S7 path of s7-scoped-range is
// replayed for the values at each frame, and its edges are numbered.
func TestPathOverlayReplaysValues(t *testing.T) {
	m, f := finding(t, "../../examples/broken/s7-scoped-range.json", "S7_INVARIANT_VIOLATION")
	g := FromJSON(m, "s7")
	ov := FindingOverlay(g, m, f)
	var got []string
	for _, fr := range ov.Frames {
		got = append(got, fr.State+" "+strings.Join(fr.Values, ","))
	}
	if strings.Join(got, "; ") != "IDLE 0; CREDIT 1; IDLE 1" || ov.Violating != "IDLE" || ov.FramesNote != "" {
		t.Errorf("frames = %q, violating %q, note %q", got, ov.Violating, ov.FramesNote)
	}
	dot := DOT(g, ov, "")
	for _, want := range []string{`label=<1: coin / credit += 1>`, `label=<2: refund>`, `class="state violating"`, "<TD>credit</TD>"} {
		want = strings.Replace(want, "<TD>credit</TD>", "<TD><B>credit</B></TD>", 1)
		if !strings.Contains(dot, want) {
			t.Errorf("DOT lacks %q:\n%s", want, dot)
		}
	}
}

// TestPathNotFromInit: a path that does not start in the initial state
// (a D1 step of the BEFORE model) is drawn without values, and says why.
func TestPathNotFromInit(t *testing.T) {
	m := loadModel(t, "../../examples/broken/s3-closed-cycle.json")
	g := FromJSON(m, "s3")
	ov := FindingOverlay(g, m, &report.Finding{Code: "D1_EVENT_DISABLED", Path: []report.Step{{From: "CONNECTING", Event: "fail", To: "BACKOFF"}}})
	if len(ov.Frames) != 0 || !strings.Contains(ov.FramesNote, `starts in "CONNECTING"`) || len(ov.Steps[0].Edges) != 1 {
		t.Errorf("overlay = %+v", ov)
	}
}

// FuzzNamesStayLiteral: any state name survives the SVG writer as one text of
// the SVG, and Mermaid gets it on one line without grammar characters.
func FuzzNamesStayLiteral(f *testing.F) {
	for _, s := range []string{"a\"b", "x --> y", "<b>&amp;</b>", "状态", "\\N\\G", "%%{init}%%", "end note", "\t", "é\u0301", "&#x41;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if name == "" || strings.TrimSpace(oneLine(name)) != oneLine(name) || !utf8Valid(name) {
			t.Skip()
		}
		g := &Graph{States: []*State{{ID: name}}, Edges: []Edge{{To: name, Source: -1}}}
		mmd := Mermaid(g, nil)
		lines := strings.Split(mmd, "\n")
		if len(lines) != 4 || strings.ContainsAny(entity.ReplaceAllString(lines[1], ""), "\":;{}<>%") {
			t.Fatalf("Mermaid for %q:\n%s", name, mmd)
		}
		svg, err := SVG(context.Background(), g, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		if texts := svgTexts(t, svg); !slices.Contains(texts, oneLine(name)) {
			t.Fatalf("SVG texts for %q: %q", name, texts)
		}
	})
}

// svgGroup returns the group element with the id, or "".
func svgGroup(svg, id string) string {
	start := strings.Index(svg, `<g id="`+id+`" `)
	if start < 0 {
		return ""
	}
	end := strings.Index(svg[start:], "</g>")
	return svg[start : start+end+len("</g>")]
}

// TestSVGDrawsEveryFeature: composites are clusters, pseudo states and
// forced transitions dashed, markers drawn, the overlay's path numbered
// and coloured, its violating state an octagon, highlighted states
// dashed, the values a table, and every id carries the prefix.
func TestSVGDrawsEveryFeature(t *testing.T) {
	cases := goldenCases(t)
	draw := func(name, prefix string) string {
		g, ov := cases[name]()
		svg, err := SVG(context.Background(), g, ov, prefix)
		if err != nil {
			t.Fatal(err)
		}
		return string(svg)
	}
	nested := draw("nested", "")
	for id, want := range map[string][]string{
		"s0":    {`class="cluster state"`, ">Root</text>"},
		"s2":    {`class="cluster state"`, ">Work</text>", ">exit / ref /Root.Idle.Greet</text>"},
		"s4":    {`class="node state"`, `stroke-dasharray`, ">Choice</text>"},
		"i_top": {"<ellipse"}, "i_s2": {"<ellipse"}, "f_s2": {"<ellipse", "<ellipse"},
		"e8": {`class="edge transition"`, `stroke-dasharray`, "<polygon", ">! Abort</text>"},
	} {
		group := svgGroup(nested, id)
		for _, w := range want {
			if !strings.Contains(group, w) {
				t.Errorf("nested: element %s lacks %q: %q", id, w, group)
			}
		}
	}
	if strings.Contains(svgGroup(nested, "s3"), "dasharray") || strings.Contains(svgGroup(nested, "e7"), "dasharray") {
		t.Error("nested: a plain state or transition is dashed")
	}
	s7 := draw("scoped-range-s7", "w1_")
	for id, want := range map[string][]string{
		"w1_s0":     {`class="node state violating"`, "<polygon", `fill="` + colourViolating + `"`},
		"w1_s1":     {`class="node state visited"`, `fill="` + colourVisited + `"`},
		"w1_e1":     {`class="edge transition path"`, `stroke="` + colourPath + `"`, ">1: coin / credit += 1</text>"},
		"w1_e2":     {`class="edge transition path"`, ">2: refund</text>"},
		"w1_e3":     {`class="edge transition"`, `stroke="black"`},
		"w1_values": {">credit</text>", ">CREDIT</text>", ">refund</text>", ">start</text>"},
	} {
		group := svgGroup(s7, id)
		for _, w := range want {
			if !strings.Contains(group, w) {
				t.Errorf("s7: element %s lacks %q: %q", id, w, group)
			}
		}
	}
	s3 := draw("closed-cycle-s3", "")
	for _, id := range []string{"s1", "s2"} {
		if group := svgGroup(s3, id); !strings.Contains(group, `class="node state highlight"`) || !strings.Contains(group, "dasharray") {
			t.Errorf("s3: the closed cycle's state %s is not highlighted: %q", id, group)
		}
	}
}

// TestLassoOverlay: an A15 lasso is drawn with its cycle apart from its
// prefix: cycle steps numbered "n↻" in the darker colour, in DOT, SVG and
// Mermaid, and the title says which steps repeat.
func TestLassoOverlay(t *testing.T) {
	m, f := finding(t, "testdata/lasso.json", "A15_LTL_VIOLATION")
	g := FromJSON(m, "lasso")
	ov := FindingOverlay(g, m, f)
	if ov.Cycle != 2 || len(ov.Steps) != 2 || !strings.Contains(ov.Title, "lasso: step 2 (↻) repeats forever") {
		t.Fatalf("overlay cycle %d, steps %+v, title %q", ov.Cycle, ov.Steps, ov.Title)
	}
	dot := DOT(g, ov, "")
	for _, want := range []string{
		`color="` + colourPath + `", fontcolor="` + colourPath + `", penwidth=2.5, id="e1", class="transition path", label=<1: req>`,
		`color="` + colourStrong + `", fontcolor="` + colourStrong + `", penwidth=3.5, id="e2", class="transition path cycle", label=<2↻: poll>`,
	} {
		if !strings.Contains(dot, want) {
			t.Errorf("DOT lacks %q:\n%s", want, dot)
		}
	}
	svg, err := SVG(context.Background(), g, ov, "")
	if err != nil || !strings.Contains(string(svg), `stroke="`+colourStrong+`" stroke-width="3.5"`) || !strings.Contains(string(svg), "2↻: poll") {
		t.Errorf("SVG does not draw the cycle apart (%v):\n%s", err, svg)
	}
	if mm := Mermaid(g, ov); !strings.Contains(mm, "(2↻) poll") || !strings.Contains(mm, "(1) req") {
		t.Errorf("Mermaid lacks the cycle numbers:\n%s", mm)
	}
	// Without cycleStart the same path is a plain walk.
	f.Evidence = nil
	if ov := FindingOverlay(g, m, f); ov.Cycle != 0 || strings.Contains(DOT(g, ov, ""), "↻") {
		t.Errorf("a walk without cycleStart drawn as a lasso")
	}
}
