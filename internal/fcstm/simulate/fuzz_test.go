package simulate

import (
	"strings"
	"testing"
)

// The readers of --events, --steps and --init-vars never panic, and what
// they accept is well formed.
func FuzzParseEvents(f *testing.F) {
	for _, s := range []string{"", "a; ; b,c", "a,,b", ";;", " x , y ;z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cycles, err := ParseEvents(s)
		if err != nil {
			return
		}
		if len(cycles) != strings.Count(s, ";")+1 {
			t.Fatalf("%q: %d cycles", s, len(cycles))
		}
		for _, c := range cycles {
			for _, e := range c {
				if e == "" || strings.ContainsAny(e, ",;") {
					t.Fatalf("%q: bad event %q", s, e)
				}
			}
		}
	})
}

func FuzzParseSteps(f *testing.F) {
	for _, s := range []string{`[]`, `[["a"], []]`, `[[1]]`, `{"a":1}`, `[["a"]`, "[[\"\\ud800\"]]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cycles, err := ParseSteps(data)
		if err != nil {
			return
		}
		for _, c := range cycles {
			for _, e := range c {
				if e == "" {
					t.Fatal("an empty event was accepted")
				}
			}
		}
	})
}

func FuzzParseInitVars(f *testing.F) {
	for _, s := range []string{`{}`, `{"a": 1, "b": 2.5e3, "c": "inf"}`, `{"a": 99999999999999999999}`, `{"a": [1]}`, `null`, `{"a":1}{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		vars, err := ParseInitVars(data)
		if err == nil && vars == nil {
			t.Fatal("nil map without an error")
		}
	})
}
