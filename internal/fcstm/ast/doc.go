// Package ast is the syntax tree of an FCSTM file as written: names are
// not resolved, combos are not expanded, imports are not mounted (package
// fcstm/model does that). Every node carries its source position. The
// package also holds Error, the located diagnostic that the parser and
// model construction both return. The language is described in
// docs/fcstm.md.
package ast
