// Package expr is stateproof's one typed expression language: FCSTM guards
// and effects, FBMCQ query conditions and RSC files all parse, check,
// evaluate and print expressions here. It has a scanner (scanner.go), an
// AST (ast.go), a parser (parser.go), a type checker (types.go), a
// concrete evaluator (eval.go, value.go) and a canonical printer
// (print.go). Lowering to Z3 is not here: it lives in package smt.
//
// # Lexical level (docs/fcstm.md, docs/queries.md)
//
// Integers [0-9]+ and 0x…; floats 1. 1.5 .5 3e2 1.5e-3 (a "." followed by
// "." ends a number, so 1..3 is 1 .. 3); identifiers [A-Za-z_][A-Za-z0-9_]*;
// strings in single or double quotes with C-like escapes; the FCSTM
// punctuation, [*] :: := -> .. included, so that the FCSTM and FBMCQ
// parsers can share the scanner. "// …" and "# …" are comments; "/* … */"
// is a comment too, or a DOC token with ScanDocs (FCSTM); ScanComments
// returns every comment as a COMMENT token (for the formatter). Positions are
// line:col, 1-based, columns in runes (as in package jsonvalue), plus the
// byte offset.
//
// # Grammar
//
// The reference gives two grammars, numeric and condition (docs/fcstm.md),
// that never mix sorts. Here they are one grammar with one precedence
// table, loosest first; sorts are separated by Check instead of by the
// parser, which lets generic atoms such as active("S") (bool) and
// call_count(…) (int) be parsed without knowing their type:
//
//	 1  (c) ? a : b          condition in parentheses; branches are full
//	                         expressions; only at the top of an expression,
//	                         in parentheses, in a branch or an argument
//	 2  =>  implies          right            cond level 2
//	 3  ||  or               left             cond level 3
//	 4  xor                  left             cond level 4
//	 5  &&  and              left             cond level 5
//	 6  ==  !=  iff          left             cond levels 6 and 7
//	 7  !   not              prefix           cond level 9, see below
//	 8  <  <=  >  >=         non-associative  cond level 8
//	 9  |                    left             num level 2
//	10  ^                    left             num level 3
//	11  &                    left             num level 4
//	12  <<  >>               left             num level 5
//	13  +  -                 left             num level 6
//	14  *  /  %              left             num level 7
//	15  **                   right            num level 8
//	16  +  -  (sign)         prefix           num level 9: -2 ** 2 is (-2) ** 2
//	17  ( e )  literals  pi E tau  true/True/TRUE/false/…  name
//	    math(e)  atom(args)
//
// Where the merge had to choose (and the reference leaves room):
//
//   - Numeric == != and boolean == != iff share level 6, left-associative:
//     "x < 1 == y < 2" is a boolean equality of two comparisons. A chain
//     that mixes sorts, "p == x == 1", reads "(p == x) == 1" and fails
//     Check with a hint to parenthesise; the two-grammar reading
//     "p == (x == 1)" is not reproduced.
//   - "!" takes a comparison as its operand: "!x > 0" is "!(x > 0)" (the
//     only well-sorted reading, as there are no boolean operands to "<").
//     It binds tighter than ==: "!a == b" is "(!a) == b", so "!x == 1"
//     fails Check with a hint to write !(x == 1). A "!" where only a
//     numeric operand can stand ("1 + !p") is a syntax error.
//   - Comparisons do not chain: "a < b < c" is a syntax error.
//   - A conditional used as an operand needs parentheses:
//     "1 + ((c) ? 1 : 2)"; "1 + (c) ? 1 : 2" is a syntax error.
//
// Math functions (docs/fcstm.md): sin cos tan asin acos atan sinh cosh tanh
// asinh acosh atanh sqrt cbrt exp log log10 log2 log1p abs ceil floor
// round trunc sign, exactly one argument. Any other name followed by "(" is
// an atom call (docs/queries.md) with arguments
//
//	arg   = name "=" value | "where" expr | value
//	value = "*" | [expr] ".." [expr] | expr
//
// which covers active("P", current), var("x"), terminated(), event("P",
// current), case("label"), called(…) and call_count(…) with their call
// filters (step=-1..+2, role=leaf_during, where x > 0). The parser keeps
// "+2" as a Unary so that relative step points stay distinct from
// absolute ones. A bare name is an Ident, "cycle" included; binding atoms
// and reserved query names is the query package's job (Env, Valuation).
// There is no "//" operator: "//" starts a comment (docs/fcstm.md); floor
// division is floor(a / b).
//
// # Types (docs/queries.md, docs/fcstm.md)
//
// Int, Real and Bool (String only for string literals as atom arguments).
// + - * % ** give Int on two Ints and Real otherwise (Int is promoted); /
// always gives Real; & | ^ << >> take Ints only (a float operand is a type
// error, docs/fcstm.md Decision); comparisons take numerics; == and != take
// two numerics or two bools; the logical operators take bools; a
// conditional's branches are both numeric (joined) or both bool. abs keeps
// its operand's type, ceil floor round trunc sign give Int, the other
// functions Real.
//
// # Evaluation (docs/fcstm.md)
//
// Python-like: true division, floored modulo (for Ints and Reals), exact
// Int/Real comparison, banker's rounding, short-circuit && || =>, only
// the selected branch of a conditional. An operation without a value
// returns *Undefined with a Cause and the span of the operation: division
// or modulo by zero, 0 ** -n, a negative shift count, a math
// domain error (sqrt(-1), log(0), asin(2), a negative base with a
// fractional exponent), and overflow. Eval never panics.
//
// Integers are mathematical integers, as in Python and in Z3's Int: an
// int64 fast path with every operation checked for overflow, and exact big
// integers (math/big) for the values that leave it. Value stays comparable
// (usable as a map key by an explicit-state search) because an Int outside
// int64 is held as its decimal text; IntVal and Int work as before for
// int64 values, BigIntVal and BigInt carry any size, IsInt64 tells them
// apart. Integer literals may be of any size too (IntLit.Big holds those
// outside int64). An Int converted to a float — mixed Int/Real
// arithmetic, true division, a math function — that no float64 can hold
// is undefined (IntTooLargeForFloat), where Python raises OverflowError;
// comparisons between Int and Real stay exact at any size. One bound keeps
// memory finite: an Int result of more than MaxIntBits bits (2 ** 10 ** 9)
// is undefined (IntOverflow) instead of a memory error. Likewise a Real
// result that is infinite or NaN is undefined (FloatOverflow), so Values
// are always finite.
//
// # Printing
//
// Format prints canonical text (symbol operators, single spaces, double
// quotes, lowercase booleans; docs/queries.md) with minimal parentheses plus
// a few for readability; parsing the output gives an Equal tree. The
// round trip is tested over a corpus, random trees and a fuzz target.
//
// # Embedding
//
// ParseExpr parses a whole string. ParseExprAt parses the expression at a
// byte offset of a larger file and returns where it ends. An embedding
// parser can instead drive a Parser as its token cursor (Peek, Next,
// Expect) and call its ParseExpr wherever an expression is expected; the
// token after the expression stays the lookahead.
package expr
