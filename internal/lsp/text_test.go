package lsp

import "testing"

// Positions count UTF-16 code units: é is one unit (two bytes), 🙂 two
// units (four bytes).
func TestPositionsUTF16(t *testing.T) {
	tx := newText("aé🙂b\r\nx🙂\n")
	cases := []struct {
		pos Position
		off int
	}{
		{Position{0, 0}, 0},
		{Position{0, 1}, 1},
		{Position{0, 2}, 3},
		{Position{0, 4}, 7},  // after the emoji
		{Position{0, 5}, 8},  // after b
		{Position{0, 99}, 8}, // clamped to the line, before \r\n
		{Position{1, 1}, 11},
		{Position{1, 3}, 15},
		{Position{2, 0}, 16},
		{Position{9, 0}, 16},
	}
	for _, c := range cases {
		if got := tx.offset(c.pos); got != c.off {
			t.Errorf("offset(%v) = %d, want %d", c.pos, got, c.off)
		}
		if c.pos.Line < 2 && c.pos.Character <= 5 {
			if back := tx.position(c.off); back != c.pos {
				t.Errorf("position(%d) = %v, want %v", c.off, back, c.pos)
			}
		}
	}
	// The parsers' 1-based rune column 4 on line 1 is b: after a, é, 🙂.
	if got := tx.at(1, 4); got != (Position{0, 4}) {
		t.Errorf("at(1, 4) = %v", got)
	}
}

func TestIncrementalEditsUTF16(t *testing.T) {
	tx := newText("state Ä🙂 {\n}\n")
	r := rng(0, 8, 0, 8) // after "state Ä🙂": 6 + 1 + 2 units
	next, err := tx.apply(contentChange{Range: &r, Text: "X"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "state Ä🙂X {\n}\n"; next.src != want {
		t.Fatalf("got %q, want %q", next.src, want)
	}
	r = rng(0, 6, 1, 0)
	next, err = next.apply(contentChange{Range: &r, Text: ""})
	if err != nil {
		t.Fatal(err)
	}
	if want := "state }\n"; next.src != want {
		t.Fatalf("got %q, want %q", next.src, want)
	}
	bad := rng(1, 0, 0, 0)
	if _, err := next.apply(contentChange{Range: &bad, Text: ""}); err == nil {
		t.Fatal("a reversed range was applied")
	}
}
