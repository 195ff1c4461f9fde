// Package format is the canonical formatter of FCSTM models (.fcstm),
// FBMCQ queries (.fbmcq) and RSC files (.rsc), behind "stateproof fmt"
// and the language server's document formatting (docs/fmt.md).
//
// It formats the token stream, not a syntax tree: the file is parsed
// first (text that does not parse is refused with the parser's located
// error; an RSC file, whose parser needs the model, is checked against
// the same grammar by rsc.go), then lexed again with every comment kept (expr.ScanComments)
// and laid out by rules that look only at the tokens, the comments and
// where the source broke lines around comments and between statements.
// So every token is printed exactly as written (numbers and strings are
// never re-rendered), every comment and documentation block survives
// verbatim in its place, and formatting the output again changes
// nothing. The only token it removes is a lone ";", which means nothing.
// Before returning, Source lexes its output and checks that the tokens
// are the input's, so a layout bug is an error, never a changed model.
//
// The rules: four spaces per level of nesting; one statement, item,
// mapping or query clause per line; an operation block written on one
// line with at most one assignment stays on one line ("enter { x = 0; }");
// at most one blank line where the source had one or more between
// statements, none at the start or end of a block; a comment that ended a
// line stays at the end of that line; a line comment inside a statement
// continues the statement on the next line, one level deeper. Lines are
// never wrapped.
package format
