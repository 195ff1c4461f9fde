// Package explore runs breadth-first searches over the runtimes of a
// compiled machine, optionally paired with extra bookkeeping words (a
// "seen" flag, a sequence position, a tick counter, an accumulated cost).
//
// Nodes are interned in one flat word arena with an open-addressing hash
// table, and each node keeps a parent link and the transition that produced
// it, so shortest paths are rebuilt on demand rather than copied per node.
// Node indexes follow discovery order, which in a breadth-first search is
// also non-decreasing depth: the first node that satisfies a predicate is a
// shortest witness.
//
// Every search has a cap. When more than cap nodes would be stored, the
// search stops and says so (Truncated); callers turn that into an
// *_UNDECIDED finding, never into a pass.
//
// A search given a memory budget (Search.Spill) that it would pass starts
// over level-synchronously and keeps the rest on disk (level.go): its
// visited set sits behind the Visited interface, its node words and
// parent links in chunks evicted to files and read back on demand, and
// the graph it builds is the in-memory search's, node for node.
package explore
