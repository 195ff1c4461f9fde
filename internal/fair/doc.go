// Package fair decides whether a finite graph has an infinite path that is
// fair to a set of events and visits every acceptance set infinitely often
// (a generalized Büchi condition), and if so returns it as a lasso: a
// prefix from a start node and a cycle.
//
// Fairness is about events (docs/liveness.md): an event is enabled at a
// node when some edge of the full model leaves the node with it (the
// region searched may have dropped that edge), and taken when the path
// follows an edge labelled with it. A path is fair when every weakly fair
// event that is enabled at every node from some point on is taken
// infinitely often, and every strongly fair event that is enabled
// infinitely often is taken infinitely often.
//
// The search is the SCC decomposition with Streett-style refinement
// (Emerson–Lei): a component with an internal edge is rejected when it
// misses an acceptance set, or when a weakly fair event is enabled at all
// its nodes and taken on none of its edges (every cycle inside it is
// unfair then, so its sub-components need not be tried); the nodes where a
// strongly fair event is enabled but never taken inside the component are
// removed and the rest decomposed again. A component that survives holds a
// fair cycle: one that passes every internal edge it needs (one per taken
// fair event), a node where each untaken weakly fair event is disabled and
// a node of each acceptance set. Tarjan's algorithm runs with an explicit
// stack, so deep graphs do not exhaust the goroutine stack.
package fair
