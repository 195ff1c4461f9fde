package ast

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSnippet(t *testing.T) {
	long := "x = " + strings.Repeat("1 + ", 50000) + "1;"
	for _, c := range []struct {
		name, src string
		off       int
		want      string
	}{
		{"short line", "a\n  bad here\nc", 4, "  bad here\n  ^"},
		{"tab kept", "\tbad", 1, "\tbad\n\t^"},
		{"lone CR ends the line", "a\rbad\rc", 2, "bad\n^"},
		{"outside", "abc", 9, ""},
		{"long line, caret at its start", long, 0, long[:snippetWidth] + "…\n^"},
		{"long line, caret in the middle", long, 1000,
			"…" + long[1000-snippetWidth/2:1000+snippetWidth/2] + "…\n" + strings.Repeat(" ", 1+snippetWidth/2) + "^"},
		{"long line, caret at the end", long, len(long) - 2,
			"…" + long[len(long)-2-snippetWidth/2:] + "\n" + strings.Repeat(" ", 1+snippetWidth/2) + "^"},
	} {
		if got := Snippet(c.src, c.off); got != c.want {
			t.Errorf("%s: got\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
	// Cut at characters, not bytes.
	wide := strings.Repeat("é", 1000)
	got := Snippet(wide, 2*500)
	if !utf8.ValidString(got) || utf8.RuneCountInString(strings.Split(got, "\n")[0]) != snippetWidth+2 {
		t.Errorf("cut through a character or to the wrong width: %q", got)
	}
}
