// Package rulecheck is the independent checker of derived proof steps
// (docs/queries.md, verification method rule_checker). It reads premises and
// a claimed conclusion in their published JSON form into its own small
// data model, re-derives the conclusion by the named rule, and compares the
// whole mapping. It refuses any field it does not recognise for a fact's
// kind, so a constructor that quietly adds information cannot slip it past.
//
// It deliberately shares no code with package explain, which builds the
// proofs: a checker that reused the constructor's code would agree with it
// by construction and prove nothing.
package rulecheck
