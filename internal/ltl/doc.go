// Package ltl decides linear temporal logic properties of finite
// transition systems under fairness, with lasso counterexamples.
//
// A formula (docs/liveness.md#ltl) is parsed against a model's vocabulary
// (state ids, events, variables) into an AST whose atoms are state
// membership, the last event taken (@event), and comparisons of a variable
// with a constant, the model's guard language. Its negation is put in
// negation normal form and translated into a generalized Büchi automaton
// by the tableau construction of Gerth, Peled, Vardi and Wolper ("Simple
// on-the-fly automatic verification of linear temporal logic", 1995),
// written here with an explicit work stack: automaton states carry the
// literals that must hold where they are visited, and each until
// subformula gives one acceptance set. The product of that automaton with
// the system is built breadth-first up to a cap, and package fair looks
// for a fair accepting lasso in it: one exists exactly when some fair run
// of the system violates the formula.
//
// Runs: position 0 is the initial runtime with no last event; each step
// moves to the next runtime and sets the last event. A runtime with no
// enabled transition (a dead end) repeats forever with no last event
// (stuttering), so a run that stops is an infinite word too and `F p`
// fails on it when p never held.
package ltl
