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

// Node is a location. Its RSC is an expression over Names, which denote
// the global variables Vars (same length): a JSON node sees every model
// variable, a CHC predicate only its own arguments.
type Node struct {
	Name  string
	Vars  []int
	Names []string
}

// Edge is a transition From → To. Exactly one of Case (a JSON case: guard
// and ordered effects, frame semantics) and Clause (a linear Horn clause)
// is set.
type Edge struct {
	From, To int
	Label    string
	Case     *sts.Case
	Clause   *Clause
}

// Start is a start transition into Node: the JSON initialisers, or a Horn
// fact.
type Start struct {
	Node   int
	Label  string
	Init   []expr.Expr // JSON: one initialiser per global variable
	Clause *Clause
}

// Graph is the node graph the prover works on.
type Graph struct {
	Name   string
	Vars   []Var
	Nodes  []Node
	Starts []Start
	Edges  []Edge
	// Sys is the JSON model's system (nil for CHC input).
	Sys *sts.System
	// Ctx owns the terms of CHC clauses (nil for JSON input).
	Ctx *z3.Context
	// ErrorNode is the node of `false` heads of a CHC problem (-1 if none).
	ErrorNode int
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

// FromSystem builds the graph of a JSON model's system: one node per
// location, one start into the start location with the initialisers, and
// one edge per case. Stutter (delta) cases leave the state unchanged, so
// their triples hold trivially and they are left out.
func FromSystem(sys *sts.System) (*Graph, error) {
	g := &Graph{Name: sys.Name, Sys: sys, ErrorNode: -1}
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
	for _, l := range sys.Locations {
		g.Nodes = append(g.Nodes, Node{Name: l.Name, Vars: all, Names: names})
	}
	if sys.Start < 0 || sys.Start >= len(g.Nodes) {
		return nil, fmt.Errorf("the system has no start location")
	}
	g.Starts = append(g.Starts, Start{Node: sys.Start, Label: "init", Init: init})
	for _, src := range sys.Sources() {
		cs := sys.Cases[src]
		for k := range cs {
			c := &cs[k]
			if c.Delta || c.Source < 0 || c.Target < 0 {
				continue
			}
			g.Edges = append(g.Edges, Edge{From: c.Source, To: c.Target, Label: c.Label, Case: c})
		}
	}
	return g, nil
}

// incoming returns, per node, the indexes of the edges entering it.
func (g *Graph) incoming() [][]int {
	in := make([][]int, len(g.Nodes))
	for i, e := range g.Edges {
		in[e.To] = append(in[e.To], i)
	}
	return in
}
