package diagram

import (
	"context"
	"fmt"
	"slices"
)

// The layered layout of one scope (the top level or the inside of a
// composite): boxes in columns from left to right, in the manner of
// Sugiyama, Tagawa and Toda. Cycles are broken by reversing the edges a
// depth-first search from the first box (the initial marker) finds going
// back; every box gets the column of its longest path from a source, in
// steps of two so that an edge between neighbouring boxes passes a column
// of its own, where its label is placed like a box and so overlaps none;
// a few barycentre sweeps order the columns; and each column's boxes are
// moved towards their neighbours as far as their order and spacing allow.

// Distances in points.
const (
	columnGap  = 22 // between neighbouring columns
	boxGap     = 14 // between two boxes of a column
	dummyGap   = 5  // between an edge and anything else in a column
	loopHeight = 16 // how far a self-loop rises above its box
	portInset  = 6  // keeps ports off a box's rounded corners
	portGap    = 7  // least distance between two ports on a side
	loopWidth  = 16 // the part of a box's top one self-loop takes
	maxDummies = 200000
)

// point is a position in the picture; y grows downwards.
type point struct{ x, y float64 }

// lbox is a box to place: a state, a composite or a marker (a circle).
type lbox struct {
	w, h   float64
	circle bool
}

// ledge is an edge between two boxes of the scope, with the size of its
// label (zero for none).
type ledge struct {
	from, to       int
	labelW, labelH float64
}

// placement is a laid out scope. Each route is a cubic Bézier path: its
// start point, then three points (two controls and the end) per segment.
type placement struct {
	sizes  []lbox  // the boxes, grown where their edges need more room
	boxes  []point // top-left corner of each box
	routes [][]point
	labels []point // top-left corner of each edge's label
	w, h   float64
}

// vertex is a box or a point an edge passes through in one column.
type vertex struct {
	rank   int
	w, h   float64 // the space it takes in its column
	anchor float64 // where its edges attach, below its top
	edge   int     // the edge of a dummy; -1 for a box
	label  bool    // a dummy that carries the edge's label
}

type layering struct {
	boxes   []lbox
	edges   []ledge
	loops   [][]int // self-loops of each box
	reverse []bool  // edges drawn against their direction
	v       []vertex
	chains  [][]int // per edge (not a self-loop): its vertices from left to right
	up      [][]link
	down    [][]link
	layers  [][]int
	pos     []int // a vertex's index in its layer
	top     []float64
	colX    []float64
	colW    []float64
}

// link joins vertices of neighbouring columns; straight long edges matter
// more than short ones, so links between dummies weigh more.
type link struct {
	to     int
	weight float64
}

// layoutScope places boxes and routes edges. It fails only when the scope
// is too large to draw (or ctx ends).
func layoutScope(ctx context.Context, boxes []lbox, edges []ledge) (*placement, error) {
	l := &layering{boxes: slices.Clone(boxes), edges: edges, loops: make([][]int, len(boxes))}
	for k, e := range edges {
		if e.from == e.to {
			l.loops[e.from] = append(l.loops[e.from], k)
		}
	}
	l.breakCycles()
	l.grow()
	ranks := l.rank()
	if err := l.buildVertices(ranks); err != nil {
		return nil, err
	}
	if err := l.order(ctx); err != nil {
		return nil, err
	}
	l.placeY()
	l.placeX()
	return l.route(), nil
}

// breakCycles marks the edges a depth-first search finds going back.
func (l *layering) breakCycles() {
	n := len(l.boxes)
	out := make([][]int, n)
	for k, e := range l.edges {
		if e.from != e.to {
			out[e.from] = append(out[e.from], k)
		}
	}
	l.reverse = make([]bool, len(l.edges))
	const (
		unseen = iota
		open
		done
	)
	state := make([]int, n)
	type frame struct{ v, next int }
	for root := range n {
		if state[root] != unseen {
			continue
		}
		stack := []frame{{root, 0}}
		state[root] = open
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next == len(out[f.v]) {
				state[f.v] = done
				stack = stack[:len(stack)-1]
				continue
			}
			k := out[f.v][f.next]
			f.next++
			switch w := l.edges[k].to; state[w] {
			case open:
				l.reverse[k] = true
			case unseen:
				state[w] = open
				stack = append(stack, frame{w, 0})
			}
		}
	}
}

// grow makes room on a box for its ports and self-loops: a side holding
// many ports gets taller, a top holding many loops wider. (A marker is a
// point: all its edges meet at one.)
func (l *layering) grow() {
	left, right := make([]int, len(l.boxes)), make([]int, len(l.boxes))
	for k, e := range l.edges {
		if e.from != e.to {
			a, b := l.ends(k)
			right[a]++
			left[b]++
		}
	}
	for v := range l.boxes {
		b := &l.boxes[v]
		if b.circle {
			continue
		}
		b.h = max(b.h, 2*portInset+portGap*float64(max(left[v], right[v])+1))
		b.w = max(b.w, 2*portInset+loopWidth*float64(len(l.loops[v])))
	}
}

// ends are an edge's boxes in drawing direction (left, right).
func (l *layering) ends(k int) (int, int) {
	e := l.edges[k]
	if l.reverse[k] {
		return e.to, e.from
	}
	return e.from, e.to
}

// rank is the longest path from a source, two columns per edge; a source
// then moves up to just before its nearest successor.
func (l *layering) rank() []int {
	n := len(l.boxes)
	indeg := make([]int, n)
	succ := make([][]int, n)
	for k, e := range l.edges {
		if e.from == e.to {
			continue
		}
		a, b := l.ends(k)
		succ[a] = append(succ[a], b)
		indeg[b]++
	}
	source := make([]bool, n)
	rank := make([]int, n)
	var topo []int
	for v := range n {
		if indeg[v] == 0 {
			topo = append(topo, v)
			source[v] = true
		}
	}
	for i := 0; i < len(topo); i++ {
		a := topo[i]
		for _, b := range succ[a] {
			rank[b] = max(rank[b], rank[a]+2)
			if indeg[b]--; indeg[b] == 0 {
				topo = append(topo, b)
			}
		}
	}
	for _, a := range topo {
		if !source[a] || len(succ[a]) == 0 {
			continue
		}
		r := rank[succ[a][0]]
		for _, b := range succ[a] {
			r = min(r, rank[b])
		}
		rank[a] = r - 2
	}
	return rank
}

// loopReserve is the space above a box that its self-loops and their
// labels take, and the width of their widest label.
func (l *layering) loopReserve(v int) (h, w float64) {
	if len(l.loops[v]) == 0 {
		return 0, 0
	}
	h = loopHeight + 2
	for _, k := range l.loops[v] {
		h += l.edges[k].labelH + 2
		w = max(w, l.edges[k].labelW)
	}
	return h, w
}

// buildVertices makes a vertex of every box and of every column an edge
// crosses, and links them.
func (l *layering) buildVertices(ranks []int) error {
	for v, b := range l.boxes {
		rh, rw := l.loopReserve(v)
		l.v = append(l.v, vertex{rank: ranks[v], w: max(b.w, rw), h: b.h + rh, anchor: rh + b.h/2, edge: -1})
	}
	l.chains = make([][]int, len(l.edges))
	dummies := 0
	for k, e := range l.edges {
		if e.from == e.to {
			continue
		}
		a, b := l.ends(k)
		if dummies += ranks[b] - ranks[a] - 1; dummies > maxDummies {
			return fmt.Errorf("the machine is too large to lay out as SVG (%d boxes, %d edges); draw it as Mermaid or DOT instead", len(l.boxes), len(l.edges))
		}
		mid := ranks[a] + (ranks[b]-ranks[a])/2
		if (mid-ranks[a])%2 == 0 {
			mid--
		}
		chain := []int{a}
		for r := ranks[a] + 1; r < ranks[b]; r++ {
			d := vertex{rank: r, h: 2, anchor: 1, edge: k}
			if r == mid && e.labelW > 0 {
				d = vertex{rank: r, w: e.labelW, h: e.labelH + 3, anchor: e.labelH + 3, edge: k, label: true}
			}
			chain = append(chain, len(l.v))
			l.v = append(l.v, d)
		}
		l.chains[k] = append(chain, b)
	}
	l.up = make([][]link, len(l.v))
	l.down = make([][]link, len(l.v))
	for _, c := range l.chains {
		for i := 1; i < len(c); i++ {
			w := 1.0
			if l.v[c[i-1]].edge >= 0 && l.v[c[i]].edge >= 0 {
				w = 4
			}
			l.down[c[i-1]] = append(l.down[c[i-1]], link{c[i], w})
			l.up[c[i]] = append(l.up[c[i]], link{c[i-1], w})
		}
	}
	return nil
}

// order fills the layers in depth-first order, then sweeps them with the
// barycentre heuristic and keeps the order with the fewest crossings.
func (l *layering) order(ctx context.Context) error {
	maxRank := 0
	for _, v := range l.v {
		maxRank = max(maxRank, v.rank)
	}
	l.layers = make([][]int, maxRank+1)
	l.pos = make([]int, len(l.v))
	seen := make([]bool, len(l.v))
	visit := func(root int) {
		stack := []int{root}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[v] {
				continue
			}
			seen[v] = true
			l.pos[v] = len(l.layers[l.v[v].rank])
			l.layers[l.v[v].rank] = append(l.layers[l.v[v].rank], v)
			for i := len(l.down[v]) - 1; i >= 0; i-- {
				stack = append(stack, l.down[v][i].to)
			}
		}
	}
	for v := range l.boxes {
		visit(v)
	}
	best := l.cloneLayers()
	bestCross := l.crossings()
	for iter := 0; iter < 24 && bestCross > 0; iter++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if iter%2 == 0 {
			for r := 1; r < len(l.layers); r++ {
				l.sortLayer(r, l.up)
			}
		} else {
			for r := len(l.layers) - 2; r >= 0; r-- {
				l.sortLayer(r, l.down)
			}
		}
		if c := l.crossings(); c < bestCross {
			best, bestCross = l.cloneLayers(), c
		}
	}
	l.layers = best
	for _, layer := range l.layers {
		for i, v := range layer {
			l.pos[v] = i
		}
	}
	return nil
}

func (l *layering) cloneLayers() [][]int {
	out := make([][]int, len(l.layers))
	for i, layer := range l.layers {
		out[i] = slices.Clone(layer)
	}
	return out
}

// sortLayer orders layer r by the mean position of each vertex's
// neighbours in adj; a vertex without neighbours keeps its place.
func (l *layering) sortLayer(r int, adj [][]link) {
	layer := l.layers[r]
	key := make(map[int]float64, len(layer))
	for i, v := range layer {
		key[v] = float64(i)
		if len(adj[v]) > 0 {
			sum := 0.0
			for _, n := range adj[v] {
				sum += float64(l.pos[n.to])
			}
			key[v] = sum / float64(len(adj[v]))
		}
	}
	slices.SortStableFunc(layer, func(a, b int) int {
		switch {
		case key[a] < key[b]:
			return -1
		case key[a] > key[b]:
			return 1
		}
		return 0
	})
	for i, v := range layer {
		l.pos[v] = i
	}
}

// crossings counts the pairs of links that cross, layer pair by layer
// pair, as the inversions of the lower ends (with a Fenwick tree).
func (l *layering) crossings() int {
	total := 0
	for r := 0; r+1 < len(l.layers); r++ {
		var ends []int
		for _, v := range l.layers[r] {
			start := len(ends)
			for _, n := range l.down[v] {
				ends = append(ends, l.pos[n.to])
			}
			slices.Sort(ends[start:])
		}
		tree := make([]int, len(l.layers[r+1])+1)
		for i, e := range ends {
			// Links seen so far that end after e cross this one.
			seenUpTo := 0
			for j := e + 1; j > 0; j -= j & -j {
				seenUpTo += tree[j]
			}
			total += i - seenUpTo
			for j := e + 1; j < len(tree); j += j & -j {
				tree[j]++
			}
		}
	}
	return total
}

// gap is the least distance between two neighbours in a column.
func (l *layering) gap(a, b int) float64 {
	if l.v[a].edge < 0 && l.v[b].edge < 0 {
		return boxGap
	}
	return dummyGap
}

// placeY stacks every column, then moves each column's vertices towards
// the anchors of their neighbours, sweeping down and up.
func (l *layering) placeY() {
	l.top = make([]float64, len(l.v))
	for _, layer := range l.layers {
		y := 0.0
		for i, v := range layer {
			if i > 0 {
				y += l.gap(layer[i-1], v)
			}
			l.top[v] = y
			y += l.v[v].h
		}
	}
	for range 8 {
		for r := 1; r < len(l.layers); r++ {
			l.alignLayer(r, l.up)
		}
		for r := len(l.layers) - 2; r >= 0; r-- {
			l.alignLayer(r, l.down)
		}
	}
	for range 2 {
		for r := range l.layers {
			l.alignLayer(r, l.up, l.down)
		}
	}
	low := 0.0
	for v := range l.v {
		low = min(low, l.top[v])
	}
	for v := range l.v {
		l.top[v] -= low
	}
}

// alignLayer puts layer r's vertices as close (least squares) to the
// mean anchor of their neighbours as their order and gaps allow: with
// each top less its column offset, that is an isotonic regression, which
// pooling adjacent violators solves exactly.
func (l *layering) alignLayer(r int, adjs ...[][]link) {
	layer := l.layers[r]
	type block struct {
		sum, weight float64
		n           int
	}
	var blocks []block
	offset := make([]float64, len(layer))
	for i, v := range layer {
		if i > 0 {
			offset[i] = offset[i-1] + l.v[layer[i-1]].h + l.gap(layer[i-1], v)
		}
		want, weight := l.top[v], 0.05
		sum, wsum := 0.0, 0.0
		for _, adj := range adjs {
			for _, n := range adj[v] {
				sum += n.weight * (l.top[n.to] + l.v[n.to].anchor)
				wsum += n.weight
			}
		}
		if wsum > 0 {
			want, weight = sum/wsum-l.v[v].anchor, wsum
		}
		blocks = append(blocks, block{(want - offset[i]) * weight, weight, 1})
		for len(blocks) > 1 {
			a, b := blocks[len(blocks)-2], blocks[len(blocks)-1]
			if a.sum/a.weight <= b.sum/b.weight {
				break
			}
			blocks = append(blocks[:len(blocks)-2], block{a.sum + b.sum, a.weight + b.weight, a.n + b.n})
		}
	}
	i := 0
	for _, b := range blocks {
		for range b.n {
			l.top[layer[i]] = b.sum/b.weight + offset[i]
			i++
		}
	}
}

// placeX gives every column the width of its widest vertex.
func (l *layering) placeX() {
	l.colX = make([]float64, len(l.layers))
	l.colW = make([]float64, len(l.layers))
	for r, layer := range l.layers {
		for _, v := range layer {
			l.colW[r] = max(l.colW[r], l.v[v].w)
		}
		if r > 0 {
			l.colX[r] = l.colX[r-1] + l.colW[r-1] + columnGap
		}
	}
}

// route places the boxes and labels and draws every edge: horizontal
// through each column it crosses (in the space its vertex holds there),
// an S-curve between columns, where no box is.
func (l *layering) route() *placement {
	p := &placement{sizes: l.boxes, boxes: make([]point, len(l.boxes)), routes: make([][]point, len(l.edges)), labels: make([]point, len(l.edges))}
	for v, b := range l.boxes {
		r := l.v[v].rank
		rh, _ := l.loopReserve(v)
		p.boxes[v] = point{l.colX[r] + (l.colW[r]-b.w)/2, l.top[v] + rh}
	}
	for v := range l.v {
		p.h = max(p.h, l.top[v]+l.v[v].h)
	}
	if n := len(l.layers); n > 0 {
		p.w = l.colX[n-1] + l.colW[n-1]
	}
	right, left := l.ports(p)
	for k, c := range l.chains {
		if c == nil {
			continue
		}
		a, b := c[0], c[len(c)-1]
		pts := []point{right[k]}
		ra, rb := l.v[a].rank, l.v[b].rank
		pts = append(pts, point{l.colX[ra] + l.colW[ra], right[k].y})
		for _, d := range c[1 : len(c)-1] {
			r, y := l.v[d].rank, l.top[d]+l.v[d].anchor
			pts = append(pts, point{l.colX[r], y}, point{l.colX[r] + l.colW[r], y})
			if l.v[d].label {
				p.labels[k] = point{l.colX[r] + (l.colW[r]-l.edges[k].labelW)/2, l.top[d]}
			}
		}
		pts = append(pts, point{l.colX[rb], left[k].y}, left[k])
		p.routes[k] = curves(pts)
		if l.reverse[k] {
			slices.Reverse(p.routes[k])
		}
	}
	for v, ks := range l.loops {
		b, at := l.boxes[v], p.boxes[v]
		span := (b.w - 2*portInset) / float64(len(ks))
		above := at.y - loopHeight - 2
		for j, k := range ks {
			xs, xe := at.x+portInset+span*(float64(j)+0.2), at.x+portInset+span*(float64(j)+0.8)
			rise := at.y - loopHeight*4/3
			p.routes[k] = []point{{xs, at.y}, {xs - 6, rise}, {xe + 6, rise}, {xe, at.y}}
			above -= l.edges[k].labelH + 2
			p.labels[k] = point{at.x + (b.w-l.edges[k].labelW)/2, above}
		}
	}
	return p
}

// ports are where each edge leaves its left box (on the right side) and
// enters its right box (on the left side): spread over the side in the
// order of the vertices they go to, so they do not cross at the box.
func (l *layering) ports(p *placement) (right, left []point) {
	right, left = make([]point, len(l.edges)), make([]point, len(l.edges))
	type end struct{ k, next int }
	out, in := make([][]end, len(l.boxes)), make([][]end, len(l.boxes))
	for k, c := range l.chains {
		if c != nil {
			out[c[0]] = append(out[c[0]], end{k, c[1]})
			in[c[len(c)-1]] = append(in[c[len(c)-1]], end{k, c[len(c)-2]})
		}
	}
	place := func(v int, ends []end, side float64, into []point) {
		slices.SortStableFunc(ends, func(a, b end) int { return l.pos[a.next] - l.pos[b.next] })
		b, at := l.boxes[v], p.boxes[v]
		for j, e := range ends {
			y := at.y + b.h/2
			if !b.circle {
				y = at.y + portInset + (b.h-2*portInset)*float64(j+1)/float64(len(ends)+1)
			}
			into[e.k] = point{at.x + side*b.w, y}
		}
	}
	for v := range l.boxes {
		place(v, out[v], 1, right)
		place(v, in[v], 0, left)
	}
	return right, left
}

// curves joins points by cubic segments that leave and arrive
// horizontally, dropping repeated points.
func curves(pts []point) []point {
	out := []point{pts[0]}
	last := pts[0]
	for _, q := range pts[1:] {
		if q == last {
			continue
		}
		mid := (q.x - last.x) / 2
		out = append(out, point{last.x + mid, last.y}, point{q.x - mid, q.y}, q)
		last = q
	}
	return out
}
