package lineend

import (
	"slices"
	"testing"
)

func TestLineEnds(t *testing.T) {
	const s = "a\nb\r\nc\rd" // four lines, each line end kind once
	if got := Count(s); got != 3 {
		t.Errorf("Count = %d, want 3", got)
	}
	for _, c := range []struct{ off, len, start, end, next int }{
		{0, 0, 0, 1, 2},
		{1, 1, 0, 1, 2},
		{2, 0, 2, 3, 5},
		{3, 2, 2, 3, 5},
		{5, 0, 5, 6, 7},
		{6, 1, 5, 6, 7},
		{7, 0, 7, 8, 8},
		{8, 0, 7, 8, 8},
	} {
		if got := Len(s, c.off); got != c.len {
			t.Errorf("Len(%d) = %d, want %d", c.off, got, c.len)
		}
		if got := LineStart(s, c.off); got != c.start {
			t.Errorf("LineStart(%d) = %d, want %d", c.off, got, c.start)
		}
		if got := LineEnd(s, c.off); got != c.end {
			t.Errorf("LineEnd(%d) = %d, want %d", c.off, got, c.end)
		}
		if got := Next(s, c.off); got != c.next {
			t.Errorf("Next(%d) = %d, want %d", c.off, got, c.next)
		}
	}
	if Index("abc") != -1 || Index("ab\rc") != 2 {
		t.Error("Index")
	}
}

func TestStarts(t *testing.T) {
	for _, c := range []struct {
		s    string
		want []int
	}{
		{"", []int{0}},
		{"a", []int{0}},
		{"a\nb", []int{0, 2}},
		{"a\r\nb\rc\n", []int{0, 3, 5, 7}},
		{"\r\r\n\n", []int{0, 1, 3, 4}},
	} {
		if got := Starts(c.s); !slices.Equal(got, c.want) {
			t.Errorf("Starts(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

func TestRewrite(t *testing.T) {
	if got := Rewrite("a\nb\r\nc\rd\n", "\r"); got != "a\rb\rc\rd\r" {
		t.Errorf("Rewrite = %q", got)
	}
}
