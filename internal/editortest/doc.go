// Package editortest tests the editor integrations under editors/: the
// VS Code extension's TextMate grammars are run the way VS Code runs them
// (vscode-textmate on Oniguruma, from the npm registry, in Node) over every
// FCSTM, FBMCQ and RSC file the repository and the shared fixtures hold,
// its snippets are expanded and parsed by the real parsers, and the
// extension is packaged into a .vsix whose contents are checked.
//
// The package has no code of its own: only tests, which skip when Node or
// npm is absent (and fail then under CI=true, where .ci/run installs them).
package editortest
