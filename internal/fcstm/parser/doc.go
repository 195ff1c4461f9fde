// Package parser reads FCSTM source text into the syntax tree of package
// fcstm/ast. Tokens come from the expression scanner of package expr (in
// its documentation-block mode), and every guard, initialiser and
// right-hand side is parsed by expr's parser driven as a token cursor, so
// FCSTM, FBMCQ and RSC share one expression grammar. The import mapping
// sub-language (selector patterns such as sensor_* and target templates
// such as left_$1) is lexed directly from the source.
//
// Errors are *ast.Error values with code E_SYNTAX (or E_RESERVED_NAME,
// E_LIMIT) and the position of the offending token; the parser stops at
// the first one. The language is described in docs/fcstm.md.
package parser
