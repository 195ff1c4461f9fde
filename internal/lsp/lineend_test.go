package lsp

import (
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/format"
)

// "\n", "\r\n" and a lone "\r" each end a line, as the protocol says
// (issue 38 item 8.1: lines were counted at "\n" only, so everything after
// a lone CR was a line too high and far to the right).
func TestPositionsLineEnds(t *testing.T) {
	tx := newText("a\rb\r\nc\nd")
	for _, c := range []struct {
		pos Position
		off int
	}{
		{Position{0, 0}, 0}, {Position{0, 1}, 1}, {Position{1, 0}, 2}, {Position{1, 1}, 3},
		{Position{2, 0}, 5}, {Position{3, 0}, 7}, {Position{3, 1}, 8},
	} {
		if got := tx.offset(c.pos); got != c.off {
			t.Errorf("offset(%v) = %d, want %d", c.pos, got, c.off)
		}
		if back := tx.position(c.off); back != c.pos {
			t.Errorf("position(%d) = %v, want %v", c.off, back, c.pos)
		}
	}
	if got := tx.offset(Position{1, 9}); got != 3 {
		t.Errorf("a character past the end of line 1 is clamped before its \\r\\n: offset %d", got)
	}
	r := rng(0, 1, 1, 0) // the lone CR
	next, err := tx.apply(contentChange{Range: &r, Text: "\n"})
	if err != nil || next.src != "a\nb\r\nc\nd" {
		t.Fatalf("edit of the lone CR: %q, %v", next.src, err)
	}
}

// A model whose lines end in lone CRs: the line comment ends at the first
// one, and the diagnostic is on the line the editor shows.
func TestDiagnosticsAfterLoneCR(t *testing.T) {
	s := startSession(t, Options{})
	uri, _ := fileURI(t, t.TempDir(), "m.fcstm", "")
	s.open(uri, "fcstm", "state H { // root\r    state A;\r    state Dead;\r    [*] -> A;\r}\r")
	p := s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if d := only(t, p.Diagnostics, "W_UNREACHABLE_STATE"); d.Range != rng(2, 10, 2, 14) {
		t.Fatalf("diagnostics %+v", p.Diagnostics)
	}
}

// Format document on a buffer with lone CRs: the edit replaces the whole
// buffer as the client counts its lines, and the code after the CR stays
// code.
func TestFormattingLoneCR(t *testing.T) {
	s := startSession(t, Options{Format: format.Source})
	uri := "file:///tmp/cr.fcstm"
	src := "def int x = 0;\rstate M {\r    state A {\r        during {\r" +
		"            x = x + 1; // count\r            x = 100;\r        }\r    }\r    [*] -> A;\r}\r"
	s.open(uri, "fcstm", src)
	var edits []TextEdit
	if err := s.call("textDocument/formatting", documentParams{textDocumentIdentifier{uri}}, &edits); err != nil {
		t.Fatal(err)
	}
	if len(edits) != 1 || edits[0].Range != rng(0, 0, 10, 0) {
		t.Fatalf("edits %+v, want one over lines 0 to 10", edits)
	}
	if want := strings.ReplaceAll(src, "\r", "\n"); edits[0].NewText != want {
		t.Fatalf("formatted:\n%s\nwant:\n%s", edits[0].NewText, want)
	}
}
