// Package model is the constructed form of an FCSTM machine: the state tree
// with every name resolved, the one type that the FCSTM runtime, linter,
// diagram builder and symbolic lowering read. Construction (syntax tree to
// Model) lives here too; parsing does not (see package fcstm/parser).
// The language and its runtime cycle are described in docs/fcstm.md.
package model
