package diagram

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomGraph is a machine of up to about 14 states, some of them
// composites nested up to three deep, with edges inside every scope:
// chains, back edges, self-loops, parallel edges, edges from the initial
// and to the final marker, and now and then an edge whose scope does not
// hold its ends.
func randomGraph(rng *rand.Rand) (*Graph, *Overlay) {
	g := &Graph{Title: "random"}
	n := 0
	var all []*State
	var scope func(id string, depth int) []*State
	scope = func(id string, depth int) []*State {
		var ss []*State
		for range 1 + rng.IntN(4) {
			s := &State{ID: "S" + itoa(n), Final: rng.IntN(5) == 0, Pseudo: rng.IntN(8) == 0}
			n++
			if rng.IntN(3) == 0 {
				s.Actions = []string{strings.Repeat("act ", 1+rng.IntN(6))}
			}
			all = append(all, s)
			if depth < 3 && rng.IntN(4) == 0 {
				s.Children = scope(s.ID, depth+1)
			}
			ss = append(ss, s)
		}
		g.Edges = append(g.Edges, Edge{Scope: id, To: ss[rng.IntN(len(ss))].ID, Source: -1})
		for range rng.IntN(2*len(ss) + 2) {
			e := Edge{Scope: id, From: ss[rng.IntN(len(ss))].ID, To: ss[rng.IntN(len(ss))].ID, Source: len(g.Edges)}
			switch rng.IntN(10) {
			case 0:
				e.To = ""
			case 1:
				e.Forced = true
			}
			if rng.IntN(4) > 0 {
				e.Label = strings.Repeat("ev", 1+rng.IntN(8))
				e.Event = e.Label
			}
			g.Edges = append(g.Edges, e)
		}
		return ss
	}
	g.States = scope("", 0)
	if rng.IntN(6) == 0 { // an edge that crosses scopes
		g.Edges = append(g.Edges, Edge{From: all[rng.IntN(len(all))].ID, To: all[rng.IntN(len(all))].ID, Label: "across", Source: len(g.Edges)})
	}
	ov := &Overlay{Violating: all[rng.IntN(len(all))].ID, Highlight: []string{all[rng.IntN(len(all))].ID}}
	for range rng.IntN(4) {
		k := rng.IntN(len(g.Edges))
		ov.Steps = append(ov.Steps, Step{From: g.Edges[k].From, To: g.Edges[k].To, Edges: []int{k}})
	}
	return g, ov
}

type rect struct{ x, y, w, h float64 }

const eps = 0.01

func (a rect) overlaps(b rect) bool {
	return a.x+eps < b.x+b.w && b.x+eps < a.x+a.w && a.y+eps < b.y+b.h && b.y+eps < a.y+a.h
}

func (a rect) contains(b rect) bool {
	return a.x <= b.x+eps && a.y <= b.y+eps && b.x+b.w <= a.x+a.w+eps && b.y+b.h <= a.y+a.h+eps
}

func nodeRect(n sceneNode) rect { return rect{n.x, n.y, n.w, n.h} }

// onBorder reports whether p lies on the outline of n: the circle of a
// marker, the rectangle of a box.
func onBorder(n sceneNode, p point) bool {
	if n.kind != stateNode {
		return math.Abs(math.Hypot(p.x-(n.x+n.w/2), p.y-(n.y+n.h/2))-n.w/2) < eps
	}
	inX := p.x >= n.x-eps && p.x <= n.x+n.w+eps
	inY := p.y >= n.y-eps && p.y <= n.y+n.h+eps
	return (inY && (math.Abs(p.x-n.x) < eps || math.Abs(p.x-n.x-n.w) < eps)) ||
		(inX && (math.Abs(p.y-n.y) < eps || math.Abs(p.y-n.y-n.h) < eps))
}

func ancestors(sc *scene, i int) map[int]bool {
	out := map[int]bool{}
	for p := sc.nodes[i].parent; p >= 0; p = sc.nodes[p].parent {
		out[p] = true
	}
	return out
}

// TestLayoutProperties lays out random machines: no two boxes overlap
// unless one is a composite holding the other, which then lies inside it;
// no label overlaps a box other than the composites around its edge, or
// another label; every edge starts and ends on the outline of its boxes;
// and the SVG is well-formed and the same on every run.
func TestLayoutProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	for iter := range 400 {
		g, ov := randomGraph(rng)
		if iter%2 == 0 {
			ov = nil
		}
		r := newRenderer(g, ov, "")
		sc, err := newSceneBuilder(r).scope(context.Background(), "", g.States)
		if err != nil {
			t.Fatal(err)
		}
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("graph %d: "+format+"\n%s", append([]any{iter}, append(args, DOT(g, ov, ""))...)...)
		}
		for i := range sc.nodes {
			up := ancestors(sc, i)
			for j := range sc.nodes {
				if j == i {
					continue
				}
				a, b := nodeRect(sc.nodes[j]), nodeRect(sc.nodes[i])
				switch {
				case up[j] && !a.contains(b):
					fail("%s is not inside its composite %s", sc.nodes[i].id, sc.nodes[j].id)
				case !up[j] && !ancestors(sc, j)[i] && a.overlaps(b):
					fail("%s overlaps %s", sc.nodes[i].id, sc.nodes[j].id)
				}
			}
		}
		var labels []rect
		for _, e := range sc.edges {
			if !onBorder(sc.nodes[e.from], e.route[0]) || !onBorder(sc.nodes[e.to], e.route[len(e.route)-1]) {
				fail("edge %s (%s -> %s) runs from %v to %v, not from border to border", e.id, sc.nodes[e.from].id, sc.nodes[e.to].id, e.route[0], e.route[len(e.route)-1])
			}
			if (len(e.route)-1)%3 != 0 {
				fail("edge %s has %d points, not a Bézier path", e.id, len(e.route))
			}
			if e.label == "" {
				continue
			}
			lr := rect{e.labelAt.x, e.labelAt.y, textWidth(e.label, edgeFont) + labelPadding, edgeLine}
			around := ancestors(sc, e.from)
			for j, n := range sc.nodes {
				if !around[j] && lr.overlaps(nodeRect(n)) {
					fail("the label of %s overlaps %s", e.id, n.id)
				}
			}
			for _, o := range labels {
				if lr.overlaps(o) {
					fail("the label of %s overlaps another label", e.id)
				}
			}
			labels = append(labels, lr)
		}
		one, err := SVG(context.Background(), g, ov, "p_")
		if err != nil {
			t.Fatal(err)
		}
		two, _ := SVG(context.Background(), g, ov, "p_")
		if !bytes.Equal(one, two) {
			fail("two runs give different SVG")
		}
		svgTexts(t, one)
	}
}

// longGraph is a chain of n states with m edges from its start to its
// end: each of those crosses about 2n columns, so the layout needs about
// 2nm edge points.
func longGraph(n, m int) *Graph {
	g := &Graph{}
	for i := range n {
		g.States = append(g.States, &State{ID: "q" + itoa(i)})
	}
	g.Edges = append(g.Edges, Edge{To: "q0", Source: -1})
	for i := 1; i < n; i++ {
		g.Edges = append(g.Edges, Edge{From: "q" + itoa(i-1), To: "q" + itoa(i), Source: len(g.Edges)})
	}
	for k := range m {
		g.Edges = append(g.Edges, Edge{From: "q" + itoa(k%10), To: "q" + itoa(n-1-k%10), Label: "e", Source: len(g.Edges)})
	}
	return g
}

// TestTooLargeIsAnError: a machine whose layout would need more than
// maxDummies edge points is refused with a message naming the way out,
// instead of taking unbounded time and memory.
func TestTooLargeIsAnError(t *testing.T) {
	_, err := SVG(context.Background(), longGraph(300, 400), nil, "")
	if err == nil || !strings.Contains(err.Error(), "too large to lay out") || !strings.Contains(err.Error(), "Mermaid or DOT") {
		t.Fatalf("err = %v", err)
	}
	if _, err := SVG(context.Background(), longGraph(100, 100), nil, ""); err != nil {
		t.Fatalf("a smaller machine: %v", err)
	}
}

// TestEmptyGraphDraws: a machine without states (an FCSTM file without a
// root) is the initial marker alone, and an edge naming no known state
// ends at its scope's markers instead of being lost.
func TestEmptyGraphDraws(t *testing.T) {
	svg, err := SVG(context.Background(), &Graph{Title: "empty"}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if texts := svgTexts(t, svg); !strings.Contains(string(svg), `id="i_top"`) || len(texts) != 2 {
		t.Errorf("empty machine: texts %q\n%s", texts, svg)
	}
	g := &Graph{States: []*State{{ID: "a"}}, Edges: []Edge{{From: "ghost", To: "a", Label: "x", Source: 0}, {Scope: "nowhere", From: "a", To: "ghost", Label: "y", Source: 1}}}
	svg, err = SVG(context.Background(), g, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="e0" class="edge transition"`, `id="e1" class="edge transition"`, `id="f_top"`, ">x</text>", ">y</text>"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("SVG lacks %q:\n%s", want, svg)
		}
	}
}

// BenchmarkSVG lays out and writes the largest JSON example.
func BenchmarkSVG(b *testing.B) {
	g := FromJSON(loadModel(b, "../../examples/tcp.json"), "tcp.json")
	for b.Loop() {
		if _, err := SVG(context.Background(), g, nil, ""); err != nil {
			b.Fatal(err)
		}
	}
}
