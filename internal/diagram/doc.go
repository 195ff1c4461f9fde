// Package diagram draws a state machine: one graph model (states, nested
// composite states, initial and final markers, pseudo states, labelled
// edges, forced transitions and state actions) that every front end builds
// through an adapter (FromJSON, FromFCSTM), and renderers for it: Mermaid
// stateDiagram-v2, Graphviz DOT, and SVG laid out by the package itself: a
// layered drawing from left to right (layout.go) with composites as
// clusters (scene.go), written by svg.go. No Graphviz is needed.
//
// An Overlay draws evidence on the machine: a finding's path or a bounded
// trace as numbered edges, the state where a property fails, the states of
// a closed cycle or a deadlock, and the variable values at every frame.
//
// Renderers never splice a user's name into their output unquoted: every
// node gets a generated identifier and every label is escaped for the
// target format, so a state called `a" --> b` stays one state.
package diagram
