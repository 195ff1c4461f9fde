// Package scc finds the strongly connected components of a graph in
// compressed rows, or read on demand (Graph), by Tarjan's algorithm with
// an explicit call stack. It is the one implementation behind verify's
// structural checks and budgets, prove's order of components, and fair's
// Streett refinement, which asks for the components of ever smaller
// subsets of one graph and so reuses its scratch arrays across calls.
package scc
