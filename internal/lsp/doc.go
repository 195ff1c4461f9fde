// Package lsp is stateproof's language server (stateproof lsp): the
// Language Server Protocol over stdio for FCSTM, FBMCQ, RSC and JSON
// models, built on the same front ends and checks as the command line,
// so that the editor says what the CLI says (docs/lsp.md).
//
// The JSON-RPC framing and the protocol structures are written here
// rather than taken from a module. The server needs a small subset of
// the protocol (text sync, diagnostics, nine requests), and the modules
// offered each cost more than they give: github.com/tliron/glsp brings a
// logging framework and a web-socket stack and handles requests one at a
// time, so a slow analysis would block cancellation; go.lsp.dev/protocol
// is a pre-1.0 release whose jsonrpc2 companion changed its API between
// releases; github.com/sourcegraph/jsonrpc2 gives the framing only. Here
// the framing is one function with a size bound, so a hostile message
// can neither grow memory without limit nor desynchronise the stream,
// and every request runs under its own time budget and cancellation.
//
// Positions: the protocol counts characters in UTF-16 code units; the
// parsers count runes per line and bytes. text converts between them.
package lsp
