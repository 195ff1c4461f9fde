package ltl

import (
	"slices"

	"github.com/stateproof/stateproof/internal/fair"
)

// System is a finite transition system in compressed rows: the edges of
// node v are Off[v] up to Off[v+1], edge k leads to To[k] by event
// Event[k] (0 … NumEvents-1). Node Init is where runs start.
type System struct {
	Off   []int
	To    []int32
	Event []int32
	// Via and ViaEvent give the events when Event is nil: edge k's is
	// ViaEvent[Via[k]]. A graph that labels its edges with transitions
	// is read as it is, with no event array as long as its edges.
	Via, ViaEvent []int32
	NumEvents     int
	Init          int
	// EventIndex gives the index of an event name, -1 if unknown.
	EventIndex func(name string) int
	// Taken, when set, says that an edge's Event is a label standing for
	// a set of events, and gives that set (event indices): a step of a
	// format whose cycle takes several events at once. The event atom
	// and fairness then read membership; nil: each label is its event.
	Taken func(label int32) []int32
	// Holds gives the value of a state or comparison atom at a node.
	Holds func(a *Atom, node int) bool
	// Enabled gives the events enabled at a node (needed with fairness);
	// its answer is read before the next call.
	Enabled      func(v int) []int32
	Weak, Strong []bool
	// Shortest asks for a bad prefix (Result.BadPrefix) instead of the
	// lasso found when it has fewer steps: a safety violation is then
	// shown by its shortest run rather than by a cycle deep in the graph.
	// Its caller must know that every finite run goes on as a fair one.
	Shortest bool
	// Unexpanded, when set, marks nodes whose edges are unknown (a search
	// stopped at its cap): runs are not continued past them, so a lasso
	// found is a real run, and none found decides nothing.
	Unexpanded func(v int) bool
}

// Result is the answer of Check.
type Result struct {
	// Holds: every fair run satisfies the formula. Meaningless when Capped.
	Holds bool
	// Capped: the product passed its cap; nothing is decided.
	Capped bool
	// ProductNodes is how many product nodes were built.
	ProductNodes int
	// Prefix and Cycle are the system edges of a counterexample (-1: a
	// stutter step in a dead end); Word is the same run as positions.
	Prefix, Cycle []int
	Word          *Word
	// BadPrefix: the counterexample is the finite run Prefix (Cycle is
	// empty, Word has no loop), every continuation of which violates the
	// formula. It is given only where the product or the system was cut
	// off (Capped or Unexpanded) and no lasso was found.
	BadPrefix bool
}

// event is the event of edge k.
func (s *System) event(k int) int32 {
	if s.Event != nil {
		return s.Event[k]
	}
	return s.ViaEvent[s.Via[k]]
}

// stutter is the event of a stutter step, outside every fairness flag.
func (s *System) stutter() int32 { return int32(s.NumEvents) }

// Property is a formula with the automaton of its negation, built once
// and checked on any number of systems.
type Property struct {
	f *Formula
	a *Automaton
	// cyclic is a.Cyclic(): the automaton states an accepting cycle of a
	// product can pass.
	cyclic []bool
}

// MaxAutomaton is the cap on the states of a formula's automaton.
const MaxAutomaton = 4096

// Compile translates !f; ErrTooLarge past MaxAutomaton states.
func Compile(f *Formula) (*Property, error) {
	a, err := Translate(&Formula{Op: OpNot, L: f}, MaxAutomaton)
	if err != nil {
		return nil, err
	}
	return &Property{f: f, a: a, cyclic: a.Cyclic()}, nil
}

// Check decides f on every fair run of sys (see Property.Check).
func Check(f *Formula, sys *System, maxProduct int) (Result, error) {
	p, err := Compile(f)
	if err != nil {
		return Result{}, err
	}
	return p.Check(sys, maxProduct)
}

// Check searches the product of the automaton of !f with sys for a fair
// accepting lasso, building at most maxProduct product nodes, and confirms
// a lasso it finds with Holds before returning it.
func (prop *Property) Check(sys *System, maxProduct int) (Result, error) {
	f, a := prop.f, prop.a
	p := newProduct(a, sys)
	if !p.build(maxProduct) {
		if res, ok := p.badPrefix(f); ok {
			return res, nil
		}
		return Result{Capped: true, ProductNodes: len(p.node)}, nil
	}
	// the product was built breadth-first from the starts: its tree is
	// the one Find would search for again
	prob := &fair.Problem{G: p, NAcc: a.NAcc, Starts: p.starts, Parent: p.parent, Renumbered: p.renumbering()}
	if cyclic := prop.cyclic; slices.Contains(cyclic, false) {
		prob.Cycles = func(x int32) bool { return cyclic[p.state[x]] }
	}
	if a.NAcc > 0 {
		prob.Acc = func(x int32) uint64 { return a.States[p.state[x]].Acc }
	}
	if sys.Weak != nil || sys.Strong != nil {
		prob.Weak, prob.Strong = sys.Weak, sys.Strong
		prob.Enabled = func(v int) []int32 { return sys.Enabled(int(p.node[v])) }
		if sys.Taken != nil {
			prob.Takes = func(label int32) []int32 {
				if label == sys.stutter() {
					return nil
				}
				return sys.Taken(label)
			}
		}
	}
	l, found := fair.Find(prob)
	res := Result{Holds: !found, ProductNodes: len(p.node)}
	if !found {
		if sys.Unexpanded != nil {
			if bad, ok := p.badPrefix(f); ok {
				return bad, nil
			}
		}
		return res, nil
	}
	if sys.Shortest {
		if bad, ok := p.badPrefix(f); ok && len(bad.Prefix) < len(l.Prefix)+len(l.Cycle) {
			return bad, nil
		}
	}
	for _, k := range l.Prefix {
		res.Prefix = append(res.Prefix, p.sysEdge(k))
	}
	for _, k := range l.Cycle {
		res.Cycle = append(res.Cycle, p.sysEdge(k))
	}
	res.Prefix, res.Cycle = rollBack(res.Prefix, res.Cycle)
	res.Word = sys.word(res.Prefix, res.Cycle)
	if Holds(f, res.Word, sys.atomValue) {
		return Result{}, errUnconfirmed
	}
	return res, nil
}

// errUnconfirmed means a lasso of the product satisfies the formula after
// all: a defect, reported as undecided rather than as a counterexample.
var errUnconfirmed = &confirmError{}

type confirmError struct{}

func (*confirmError) Error() string {
	return "the counterexample found does not violate the formula when re-evaluated (internal error)"
}

// rollBack shortens a lasso whose prefix ends with the step its cycle
// ends with: the cycle can start one step earlier (the product's cycle
// head is a pair, so the system's run may enter its loop sooner).
func rollBack(prefix, cycle []int) ([]int, []int) {
	for len(prefix) > 0 && prefix[len(prefix)-1] == cycle[len(cycle)-1] {
		last := cycle[len(cycle)-1]
		cycle = append([]int{last}, cycle[:len(cycle)-1]...)
		prefix = prefix[:len(prefix)-1]
	}
	return prefix, cycle
}

// word turns system edges into positions.
func (s *System) word(prefix, cycle []int) *Word {
	w := &Word{Nodes: []int{s.Init}, Events: []int{-1}, Loop: len(prefix) + 1}
	at := s.Init
	for _, k := range append(append([]int{}, prefix...), cycle...) {
		ev := -1
		if k >= 0 {
			at, ev = int(s.To[k]), int(s.event(k))
		}
		w.Nodes, w.Events = append(w.Nodes, at), append(w.Events, ev)
	}
	return w
}

func (s *System) atomValue(a *Atom, node, event int) bool {
	if a.Kind == LastEvent {
		return event >= 0 && s.took(event, s.EventIndex(a.Name))
	}
	return s.Holds(a, node)
}

// took reports whether the step labelled label takes event e.
func (s *System) took(label, e int) bool {
	if s.Taken == nil {
		return label == e
	}
	for _, x := range s.Taken(int32(label)) {
		if int(x) == e {
			return true
		}
	}
	return false
}

// product is the automaton × system graph, its nodes numbered
// breadth-first from the initial pairs. Its edges are not stored: they
// are read from the system's on demand (Degree, Target, Label), so the
// product costs a few words per node, not per edge
// (docs/liveness.md#performance).
type product struct {
	a     *Automaton
	sys   *System
	index map[int64]int32 // (state, node) → product node, when dense is nil
	// dense is the same index as one slot per pair (-1: absent), used
	// when automaton states × system nodes is small enough to allocate.
	dense []int32
	state []int32 // automaton state of each product node
	node  []int32 // system node of each product node
	// parent is the product node each product node was first reached
	// from (-1 at a start): the breadth-first tree a bad prefix and the
	// lasso's prefix are read from. The edge taken is found again
	// (treeEdge) rather than stored, and the acceptance sets are read
	// from the automaton state: a product node costs three int32.
	parent []int32
	starts []int
	// slots is the most edge slots of a product node, which names edge
	// slot i of node x as x*slots + i.
	slots int
	// atomAt caches state and comparison atoms per system node: 0 unknown,
	// 1 false, 2 true.
	atomAt   [][]uint8
	eventIdx []int
	// eventFree: no atom reads the last event, so a pair's fit depends
	// on the system node alone.
	eventFree bool
}

// maxDense is the most (automaton state, system node) pairs the product
// indexes densely (4 bytes each).
const maxDense = 1 << 25

func newProduct(a *Automaton, sys *System) *product {
	p := &product{a: a, sys: sys, atomAt: make([][]uint8, len(a.Atoms)), eventIdx: make([]int, len(a.Atoms))}
	n := len(sys.Off) - 1
	if pairs := int64(len(a.States)) * int64(n); pairs <= maxDense {
		p.dense = make([]int32, pairs)
		for i := range p.dense {
			p.dense[i] = -1
		}
	} else {
		p.index = map[int64]int32{}
	}
	maxSucc, maxDeg := 1, 1
	for q := range a.States {
		maxSucc = max(maxSucc, len(a.States[q].Succ))
	}
	for v := 0; v < n; v++ {
		maxDeg = max(maxDeg, sys.Off[v+1]-sys.Off[v])
	}
	p.slots = maxSucc * maxDeg
	p.eventFree = true
	for i := range a.Atoms {
		if a.Atoms[i].Kind == LastEvent {
			p.eventIdx[i] = sys.EventIndex(a.Atoms[i].Name)
			p.eventFree = false
		} else {
			p.atomAt[i] = make([]uint8, n)
		}
	}
	return p
}

func (p *product) holds(ai, node, event int) bool {
	if p.a.Atoms[ai].Kind == LastEvent {
		return event >= 0 && p.sys.took(event, p.eventIdx[ai])
	}
	c := p.atomAt[ai]
	if c[node] == 0 {
		c[node] = 1
		if p.sys.Holds(&p.a.Atoms[ai], node) {
			c[node] = 2
		}
	}
	return c[node] == 2
}

// fits reports whether automaton state q may be visited at the position
// (node, event).
func (p *product) fits(q, node, event int) bool {
	st := &p.a.States[q]
	for _, ai := range st.Pos {
		if !p.holds(ai, node, event) {
			return false
		}
	}
	for _, ai := range st.Neg {
		if p.holds(ai, node, event) {
			return false
		}
	}
	return true
}

// key is the pair (q, v)'s key in the index: the pairs of one system
// node are next to each other, so that the slots of an edge to it, one
// per automaton successor, read one cache line of the dense index (and
// of the SCC search's arrays, which keyed reads at the keys).
func (p *product) key(q, v int) int64 {
	return int64(v)*int64(len(p.a.States)) + int64(q)
}

// lookup returns the product node (q, v), -1 when there is none.
func (p *product) lookup(q, v int) int32 {
	key := p.key(q, v)
	if p.dense != nil {
		return p.dense[key]
	}
	if i, ok := p.index[key]; ok {
		return i
	}
	return -1
}

// intern returns the product node (q, v), adding it if new, reached from
// product node from; false when that would pass the cap.
func (p *product) intern(q, v int, from int32, limit int) (int32, bool) {
	if i := p.lookup(q, v); i >= 0 {
		return i, true
	}
	if len(p.node) >= limit {
		return -1, false
	}
	i := int32(len(p.node))
	key := p.key(q, v)
	if p.dense != nil {
		p.dense[key] = i
	} else {
		p.index[key] = i
	}
	if len(p.node) == cap(p.node) {
		p.grow()
	}
	p.state, p.node = append(p.state, int32(q)), append(p.node, int32(v))
	p.parent = append(p.parent, from)
	return i, true
}

// grow makes room for more product nodes: first as many as the system
// has nodes, then twice as many each time. append alone grows a large
// slice by a quarter, which allocates about five times the final arrays
// over the build; the garbage, not the arrays, would set the check's peak.
func (p *product) grow() {
	n := max(len(p.sys.Off)-1, 2*len(p.node), 16)
	p.state = slices.Grow(p.state, n-len(p.state))
	p.node = slices.Grow(p.node, n-len(p.node))
	p.parent = slices.Grow(p.parent, n-len(p.parent))
}

// build explores the product breadth-first, interning every node an edge
// reaches; false when it passed the cap.
func (p *product) build(cap int) bool {
	sys := p.sys
	for _, q := range p.a.Initial {
		if p.fits(q, sys.Init, -1) {
			i, ok := p.intern(q, sys.Init, -1, cap)
			if !ok {
				return false
			}
			p.starts = append(p.starts, int(i))
		}
	}
	var buf [32]int32
	for x := int32(0); int(x) < len(p.node); x++ {
		if p.eventFree && p.dense != nil {
			if !p.expandKeys(x, buf[:], cap) {
				return false
			}
			continue
		}
		for i, d := 0, p.Degree(x); i < d; i++ {
			if q2, w, k := p.slot(x, i); w >= 0 && p.fits(q2, w, p.posEvent(k)) {
				if _, ok := p.intern(q2, w, x, cap); !ok {
					return false
				}
			}
		}
	}
	return true
}

// expandKeys is build's step from x when the dense index answers for a
// pair whatever the edge taken (no atom reads the last event): the
// slots' keys a batch at a time, as the SCC search reads them, a pair
// already interned settled by its key alone, one not yet checked for its
// fit and interned; no slot is decoded one at a time.
func (p *product) expandKeys(x int32, buf []int32, cap int) bool {
	q, v := int(p.state[x]), int(p.node[x])
	states := int32(len(p.a.States))
	for i, d := 0, p.degree(q, v); i < d; {
		n := p.keys(q, v, i, buf)
		i += n
		for _, k := range buf[:n] {
			if k < 0 || p.dense[k] >= 0 {
				continue
			}
			if q2, w := int(k%states), int(k/states); p.fits(q2, w, -1) {
				if _, ok := p.intern(q2, w, x, cap); !ok {
					return false
				}
			}
		}
	}
	return true
}

// Len is the number of product nodes (fair.Digraph).
func (p *product) Len() int { return len(p.node) }

// Degree is the number of edge slots of product node x: one per system
// edge and automaton successor, or per successor for the stutter step of
// a dead end, none at a node whose edges are unknown.
func (p *product) Degree(x int32) int { return p.degree(int(p.state[x]), int(p.node[x])) }

// degree is Degree of the pair (q, v).
func (p *product) degree(q, v int) int {
	if p.sys.Unexpanded != nil && p.sys.Unexpanded(v) {
		return 0
	}
	n := len(p.a.States[q].Succ)
	if d := p.sys.Off[v+1] - p.sys.Off[v]; d > 0 {
		return d * n
	}
	return n
}

// slot is edge slot i of x as the automaton state and system node it
// leads to (w < 0: a successor never stored) and the system edge taken
// (-1: a stutter step).
func (p *product) slot(x int32, i int) (q2, w, k int) {
	succ := p.a.States[p.state[x]].Succ
	v := int(p.node[x])
	lo, hi := p.sys.Off[v], p.sys.Off[v+1]
	if lo == hi {
		return succ[i], v, -1
	}
	// one or two successors are the common automaton states: no division
	// for them, as the SCC search asks this once per product edge
	var j, r int
	switch len(succ) {
	case 1:
		j = i
	case 2:
		j, r = i>>1, i&1
	default:
		j, r = i/len(succ), i%len(succ)
	}
	k = lo + j
	return succ[r], int(p.sys.To[k]), k
}

// event is the event of system edge k, the stutter event for -1.
func (p *product) event(k int) int32 {
	if k < 0 {
		return p.sys.stutter()
	}
	return p.sys.event(k)
}

// posEvent is the event of system edge k as a position's (-1: none, for
// a stutter step).
func (p *product) posEvent(k int) int {
	if k < 0 {
		return -1
	}
	return int(p.sys.event(k))
}

// Target is the product node slot i of x leads to, -1 when the slot is
// no edge (the automaton state does not fit the position reached).
func (p *product) Target(x int32, i int) int32 {
	q2, w, k := p.slot(x, i)
	if w < 0 {
		return -1
	}
	if p.eventFree {
		// whether q2 fits at w does not depend on the event, and the
		// build interned every pair that fits and is reached: the index
		// answers alone
		return p.lookup(q2, w)
	}
	if !p.fits(q2, w, p.posEvent(k)) {
		return -1
	}
	return p.lookup(q2, w)
}

// Targets writes into buf the product nodes that slots i, i+1, … of x
// lead to (fair.Digraph), as Target gives them one at a time: x's
// automaton successors and system row are read once for the batch, and
// with no atom reading the last event each slot is one look-up in the
// dense index (keys).
func (p *product) Targets(x int32, i int, buf []int32) int {
	if !p.eventFree || p.dense == nil {
		n := min(len(buf), p.Degree(x)-i)
		for j := range n {
			buf[j] = p.Target(x, i+j)
		}
		return n
	}
	n := p.keys(int(p.state[x]), int(p.node[x]), i, buf)
	for j, k := range buf[:n] {
		if k >= 0 {
			buf[j] = p.dense[k]
		}
	}
	return n
}

// keys writes into buf the keys in the dense index (lookup's) of the
// pairs slots i, i+1, … of the pair (q, v) lead to, whether or not they
// fit (-1 for a successor never stored). This loop runs once per product
// edge of the SCC search.
func (p *product) keys(q, v, i int, buf []int32) int {
	succ := p.a.States[q].Succ
	states := len(p.a.States)
	lo, hi := p.sys.Off[v], p.sys.Off[v+1]
	if lo == hi {
		n := min(len(buf), p.degree(q, v)-i)
		for j := range n {
			buf[j] = int32(v*states + succ[i+j])
		}
		return n
	}
	m, n := len(succ), 0
	for k, r := lo+i/m, i%m; k < hi && n < len(buf); k, r = k+1, 0 {
		w := int(p.sys.To[k])
		for ; r < m && n < len(buf); r++ {
			buf[n] = -1
			if w >= 0 {
				buf[n] = int32(w*states + succ[r])
			}
			n++
		}
	}
	return n
}

// keyed is the product numbered by the keys of its dense index
// (fair.Renumbering): the SCC search reads its index and lowlink at a
// slot's key, computed from the automaton and system rows, instead of
// first reading the product node at the key: one random access per
// product edge rather than two. A slot leads to a product node's key or
// to the key of a pair that does not fit, which is no node's: the build
// interned every pair that fits and that a product node's slot reaches.
type keyed struct{ p *product }

func (g keyed) Len() int { return len(g.p.dense) }

func (g keyed) Degree(k int32) int {
	states := int32(len(g.p.a.States))
	return g.p.degree(int(k%states), int(k/states))
}

func (g keyed) Targets(k int32, i int, buf []int32) int {
	states := int32(len(g.p.a.States))
	return g.p.keys(int(k%states), int(k/states), i, buf)
}

// renumbering is the product as keyed for fair.Find, nil where keys are
// not enough: with atoms reading the last event (a pair's fit then
// depends on the edge taken), with no dense index, or with more than
// twice as many pairs as product nodes (the search's arrays grow from
// product nodes to pairs).
func (p *product) renumbering() *fair.Renumbering {
	if !p.eventFree || p.dense == nil || len(p.dense) > 2*len(p.node) {
		return nil
	}
	return &fair.Renumbering{
		G:    keyed{p},
		Key:  func(x int32) int32 { return int32(p.key(int(p.state[x]), int(p.node[x]))) },
		Node: func(k int32) int32 { return p.dense[k] },
	}
}

// Label is the event of slot i of x.
func (p *product) Label(x int32, i int) int32 {
	_, _, k := p.slot(x, i)
	return p.event(k)
}

// EdgeID names slot i of x.
func (p *product) EdgeID(x int32, i int) int { return int(x)*p.slots + i }

// treeEdge is the system edge product node y was first reached by from
// its parent: the first slot of the parent that leads to y, since the
// build scans the slots in order and interns y at the first that does.
func (p *product) treeEdge(y int32) int {
	x := p.parent[y]
	for i, d := 0, p.Degree(x); i < d; i++ {
		if p.Target(x, i) == y {
			_, _, k := p.slot(x, i)
			return k
		}
	}
	panic("ltl: no edge to a product node from its parent")
}

// sysEdge is the system edge of a named slot, -1 for a stutter step.
func (p *product) sysEdge(id int) int {
	_, _, k := p.slot(int32(id/p.slots), id%p.slots)
	return k
}
