// Package z3 is stateproof's thin, safe cgo binding to the C API of the Z3
// theorem prover (Debian's libz3-dev, developed against Z3 4.8.12).
//
// It offers only what the verifier calls: Bool, Int and Real sorts; terms
// over them (propositional connectives, linear and non-linear arithmetic,
// cardinality constraints); an incremental Solver with push/pop,
// check-with-assumptions, unsat cores, timeouts and parameters; Models with
// evaluation; and an SMT-LIB2 parser together with enough inspection
// (kind, declaration kind and name, arguments, quantifiers, de Bruijn
// variables, sorts) to walk parsed formulas such as Horn clauses. The smt
// package is its only intended importer.
//
// # Ownership and reference counting
//
// Every object belongs to the Context that created it. The Context is
// created with Z3_mk_context_rc, so each Z3 object is reference counted:
// every *Term, *Sort, *Solver and *Model holds exactly one Z3 reference,
// taken the moment Z3 hands the object over. When the Go wrapper becomes
// unreachable a runtime cleanup (runtime.AddCleanup) gives the reference
// back. Cleanups run on a runtime goroutine while the owner may be inside
// Z3, so they never call Z3: they only put the object on the Context's
// release queue. The queue is drained by the owner at the start of the next
// call that builds an object, so reference counts are only ever touched by
// the goroutine that uses the Context.
//
// Close deletes the Z3 context and with it every object it still holds;
// from then on cleanups do nothing (they check the Context's alive flag
// under its lock), every call on the Context or on any of its objects that
// returns an error returns one wrapping ErrClosed, and pure queries (String,
// Kind, IsTrue, NumScopes, ...) return zero values; none touches freed
// memory. A
// Context that is never closed keeps its Z3 memory until the process ends,
// so always Close (typically with defer).
//
// Objects of different Contexts must not be mixed; the binding checks this
// and returns an error rather than passing a foreign pointer to Z3.
//
// # Concurrency
//
// A Context, and everything created from it, is not safe for concurrent use:
// use it from one goroutine at a time. Different Contexts are independent
// and may be used from different goroutines at the same time.
//
// # Errors
//
// Z3 reports misuse (ill-sorted terms, bad indices, parse errors, unknown
// parameters) through an error code. The binding installs an error handler
// that does nothing, so Z3 never aborts the process for such errors, and it
// reads the error code after every call that can fail: a non-OK code becomes
// an *Error returned by the Go call that caused it. The binding also checks,
// before calling Z3, the conditions under which Z3 would crash instead of
// reporting (nil terms, foreign contexts, closed contexts). No function
// panics on user input.
//
// # Semantics worth knowing
//
// Arithmetic never coerces silently: Int and Real operands may not be mixed
// (use ToReal / ToInt), although Z3 itself would insert conversions.
// IntDiv and Mod are Z3's (SMT-LIB's) Euclidean division: for b ≠ 0,
// a = b*(a div b) + (a mod b) and 0 ≤ a mod b < |b|; so -7 div 2 = -4,
// -7 mod 2 = 1, 7 div -2 = -3, 7 mod -2 = 1. Rem takes the sign of the
// divisor: a rem b = a mod b if b ≥ 0, else -(a mod b). Division by zero is
// not an error: x div 0, x mod 0 and x / 0 are unspecified (but functional)
// values that a model may choose freely. Callers that need other semantics
// (such as Python's floored division) must encode them with Ite.
//
// # Solver defaults and timeouts
//
// Every Solver is created with Z3's "ctrl_c" parameter switched off: in
// 4.8.12 a check otherwise replaces the process's SIGINT handler for its
// duration (through signal(), which loses the Go runtime's handler flags),
// and that handler is global state shared by all contexts. It is also
// created with "ignore_solver1" on, so that every check runs the incremental
// SMT core, which honours the timeout (the one-shot tactic Z3 would
// otherwise use for a first check without push or assumptions can ignore it
// on non-linear integer problems).
//
// A check stopped by the timeout returns Unknown with ReasonUnknown exactly
// "timeout". A timeout of 0 means "none" to Z3, so SetTimeout rejects it.
package z3
