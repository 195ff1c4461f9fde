package prove

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// Var is one state variable of the graph's global state vector.
type Var struct {
	Name string
	Sort sts.Sort
}

// Node is a location (or a sentinel: the cold start, termination). Its
// RSC is an expression over Names, which denote the global variables Vars
// (same length): a model's node sees every model variable, a CHC
// predicate only its own arguments.
type Node struct {
	Name  string
	Vars  []int
	Names []string
	// Location is the system's location id or sentinel of a model's node.
	Location int
}

// Edge is a transition From → To. Exactly one of Case (a model's case,
// Index into its source's cases: guard, conditions, events, priorities
// and ordered effects, frame semantics) and Clause (a linear Horn clause)
// is set.
type Edge struct {
	From, To int
	Label    string
	Case     *sts.Case
	Index    int
	Clause   *Clause
}

// Start is a start transition into Node: the model's initialisers, or a
// Horn fact.
type Start struct {
	Node   int
	Label  string
	Init   []expr.Expr // a model: one initialiser per global variable
	Clause *Clause
}

// Graph is the node graph the prover works on.
type Graph struct {
	Name   string
	Vars   []Var
	Nodes  []Node
	Starts []Start
	Edges  []Edge
	// Sys is the model's system (nil for CHC input).
	Sys *sts.System
	// Ctx owns the terms of CHC clauses (nil for JSON input).
	Ctx *z3.Context
	// Clauses are a CHC problem's assertions as parsed, in Ctx: Spacer
	// solves them as they are, without parsing the text again.
	Clauses []*z3.Term
	// ErrorNode is the node of `false` heads of a CHC problem (-1 if none).
	ErrorNode int
	nodeOf    map[int]int // a model's location id or sentinel -> node
}

// NodeIndex returns the index of the node called name, or -1.
func (g *Graph) NodeIndex(name string) int {
	for i, n := range g.Nodes {
		if n.Name == name {
			return i
		}
	}
	return -1
}

// FromSystem builds the graph of a model's system. Its nodes are the
// places a run rests on between steps: every location of a system whose
// steps all have every case (JSON), or, for a system counted from its
// start (FCSTM), the start source and every recurrent source (the
// stoppable leaves and the terminated sentinel) with the targets their
// cases reach. One start enters the start node with the initialisers; one
// edge per case between nodes. Left out: delta cases (a stutter leaves
// the state unchanged, so its triples hold trivially), error cases (never
// selected: the runtime stays in its pre-cycle state, also a stutter),
// and the cases of entry sources other than the start (a hot start only
// begins there). Error cases still take part in the priorities of the
// edges they precede (CaseRelation).
func FromSystem(sys *sts.System) (*Graph, error) {
	g := &Graph{Name: sys.Name, Sys: sys, ErrorNode: -1, nodeOf: map[int]int{}}
	all := make([]int, len(sys.Vars))
	names := make([]string, len(sys.Vars))
	init := make([]expr.Expr, len(sys.Vars))
	for i, v := range sys.Vars {
		g.Vars = append(g.Vars, Var{Name: v.Name, Sort: v.Sort})
		all[i], names[i], init[i] = i, v.Name, v.Init
		if v.Init == nil {
			return nil, fmt.Errorf("variable %q has no initial value", v.Name)
		}
	}
	node := func(id int) int {
		if n, ok := g.nodeOf[id]; ok {
			return n
		}
		g.nodeOf[id] = len(g.Nodes)
		g.Nodes = append(g.Nodes, Node{Name: sys.LocationName(id), Vars: all, Names: names, Location: id})
		return g.nodeOf[id]
	}
	rests := func(src int) bool { return !sys.StartOnly || src == sys.Start || !sys.Entry[src] }
	if !sys.StartOnly {
		for _, l := range sys.Locations {
			node(l.ID)
		}
		if sys.Start < 0 || sys.Start >= len(sys.Locations) {
			return nil, fmt.Errorf("the system has no start location")
		}
	}
	start := node(sys.Start)
	for _, src := range sys.Sources() {
		if rests(src) {
			node(src)
		}
	}
	g.Starts = append(g.Starts, Start{Node: start, Label: "init", Init: init})
	for _, src := range sys.Sources() {
		if !rests(src) {
			continue
		}
		cs := sys.Cases[src]
		for k := range cs {
			c := &cs[k]
			if c.Delta || c.Kind == sts.Error {
				continue
			}
			g.Edges = append(g.Edges, Edge{From: g.nodeOf[src], To: node(c.Target), Label: c.Label, Case: c, Index: k})
		}
	}
	return g, nil
}

// nodeNames lists the node names, in node order.
func (g *Graph) nodeNames() []string {
	out := make([]string, len(g.Nodes))
	for i, n := range g.Nodes {
		out[i] = n.Name
	}
	return out
}

// incoming returns, per node, the indexes of the edges entering it.
func (g *Graph) incoming() [][]int {
	in := make([][]int, len(g.Nodes))
	for i, e := range g.Edges {
		in[e.To] = append(in[e.To], i)
	}
	return in
}
