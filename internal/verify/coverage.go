package verify

import (
	"strings"
	"unicode"

	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// coverageCategory is one vocabulary heuristic: words that hint at
// a claim the engine does not verify, and the sentence that routes it.
type coverageCategory struct {
	words    []string
	sentence string
}

// coverageCategories returns the closed word lists, in report order.
func coverageCategories() []coverageCategory {
	return []coverageCategory{
		{[]string{"timeout", "watchdog", "timer", "tick", "deadline", "period", "delay", "elapsed", "latency"},
			"Timing words found: real-time behaviour is not modelled beyond tick events; use a timed model checker (e.g. UPPAAL) for clock claims"},
		{[]string{"isr", "irq", "interrupt", "task", "thread", "preempt", "rtos"},
			"Preemption words found: interleavings inside handlers are not modelled; use a race detector (TSan), CBMC or TLA+"},
		{[]string{"pid", "plant", "feedback", "control loop", "stability", "motor"},
			"Control-loop words found: continuous dynamics are not modelled; use a hybrid-systems tool (SpaceEx, Flow*, Stateflow)"},
		{[]string{"mtbf", "failure rate", "reliability", "markov", "stochastic"},
			"Probability words found: A13 covers unbounded reachability on a DTMC only; use PRISM or Storm for richer properties"},
	}
}

// CoverageNotes matches the vocabulary of state ids, entry/exit action
// names and event names against the categories, case-insensitively and on
// whole words (any non-alphanumeric character separates words, so
// `watchdogTimer` is one word and matches neither `watchdog` nor `timer`).
// It returns one sentence per matching category, or nil.
func CoverageNotes(m *jsonmodel.Model) []string {
	var names []string
	for _, s := range m.States {
		names = append(names, s.ID)
		names = append(names, s.OnEntry...)
		names = append(names, s.OnExit...)
	}
	names = append(names, m.Alphabet()...)
	var words [][]string
	for _, n := range names {
		words = append(words, strings.FieldsFunc(strings.ToLower(n), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		}))
	}
	var out []string
	for _, cat := range coverageCategories() {
		if matchesAny(words, cat.words) {
			out = append(out, cat.sentence)
		}
	}
	return out
}

// matchesAny reports whether some name contains one of the entries as a
// run of consecutive words.
func matchesAny(names [][]string, entries []string) bool {
	for _, entry := range entries {
		want := strings.Fields(entry)
		for _, ws := range names {
			for i := 0; i+len(want) <= len(ws); i++ {
				if equalWords(ws[i:i+len(want)], want) {
					return true
				}
			}
		}
	}
	return false
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
