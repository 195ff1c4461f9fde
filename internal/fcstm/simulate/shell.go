package simulate

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"unicode"
)

// Shell is the line handler of the interactive mode: each line is one
// cycle's events (separated by commas or spaces; an empty line is a cycle
// without events) or a command. It does no terminal I/O itself, so that it
// can be driven by a terminal line editor or by a test.
type Shell struct {
	s  *Session
	tw *TextWriter
	w  io.Writer
	// Create opens a file for export; os.Create unless a test replaces it.
	Create func(name string) (io.WriteCloser, error)
}

// shellHelp is the help text of the interactive mode.
const shellHelp = `Each line runs one cycle with the events it names, separated by commas or
spaces; an empty line runs a cycle without events. Events may be written in
full (Root.A.Go), relative to the current state (Go), relative to its
ancestors (.Go, ..Go) or from the root (/Go). Tab completes event names.
Commands:
  events   list the events of the model
  vars     show the variables
  history  list the cycles run so far
  export FILE.csv|FILE.json|FILE.jsonl
           write the run so far (the stateproof/simulate/v1 document, one
           JSON cycle per line, or a table with a column per variable)
  init     start again from the beginning
  init STATE NAME=VALUE...
           start again at STATE with these variables (all of them), without
           enter actions
  help     this text
  quit     leave (also Ctrl-D)
`

// NewShell starts a shell over a started session, writing to w.
func NewShell(s *Session, w io.Writer) *Shell {
	sh := &Shell{s: s, tw: NewTextWriter(w), w: w,
		Create: func(name string) (io.WriteCloser, error) { return os.Create(name) }}
	sh.tw.Start(s.Report())
	fmt.Fprintln(w, `Type "help" for help.`)
	return sh
}

// Prompt returns the prompt: the current state.
func (sh *Shell) Prompt() string { return stateText(sh.s.state()) + "> " }

// Line handles one input line and reports whether the user asked to quit.
func (sh *Shell) Line(line string) (quit bool) {
	if fields := strings.Fields(line); len(fields) > 0 {
		switch fields[0] {
		case "export":
			sh.export(fields[1:])
			return false
		case "init":
			sh.init(fields[1:])
			return false
		}
	}
	switch strings.TrimSpace(line) {
	case "history":
		sh.history()
		return false
	case "quit", "exit":
		return true
	case "help", "?":
		io.WriteString(sh.w, shellHelp)
		return false
	case "events":
		for _, e := range sh.s.rt.EventPaths() {
			fmt.Fprintln(sh.w, "  "+e)
		}
		return false
	case "vars":
		r := sh.s.Report()
		v := r.Initial.Vars
		if n := len(r.Cycles); n > 0 {
			v = r.Cycles[n-1].Vars
		}
		if len(v.Names) == 0 {
			fmt.Fprintln(sh.w, "  (no variables)")
		}
		for _, n := range v.Names {
			val, _ := v.Get(n)
			fmt.Fprintf(sh.w, "  %s = %s\n", n, valueText(val))
		}
		return false
	}
	sh.tw.Cycle(sh.s.Step(SplitLine(line)))
	return false
}

// SplitLine splits a line of the interactive mode into event names:
// separated by commas or white space.
func SplitLine(line string) []string {
	return strings.FieldsFunc(line, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}

// Complete completes the word before the cursor (pos, in bytes) when key
// is Tab: to the one event or command it can only be, or to the longest
// common prefix of the candidates, which are then listed. It has the
// shape of golang.org/x/term's AutoCompleteCallback.
func (sh *Shell) Complete(line string, pos int, key rune) (string, int, bool) {
	if key != '\t' || pos > len(line) {
		return "", 0, false
	}
	start := strings.LastIndexAny(line[:pos], ", \t") + 1
	word := line[start:pos]
	cands := sh.candidates(word, start == 0)
	if len(cands) == 0 {
		return "", 0, false
	}
	done := cands[0]
	for _, c := range cands[1:] {
		done = commonPrefix(done, c)
	}
	if len(cands) > 1 && done == word {
		fmt.Fprintf(sh.w, "\n%s\n", strings.Join(cands, "  "))
	}
	if len(cands) == 1 {
		done += " "
	}
	return line[:start] + done + line[pos:], start + len(done), true
}

// candidates lists what word can complete to: event paths in full, and
// below the current state in the short relative form; commands at the
// start of a line.
func (sh *Shell) candidates(word string, first bool) []string {
	seen := map[string]bool{}
	var out []string
	add := func(c string) {
		if strings.HasPrefix(c, word) && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	cur := sh.s.rt.State() + "."
	lead, anchor := anchorOf(word, sh.s.rt.State(), sh.s.rt.Root())
	for _, e := range sh.s.rt.EventPaths() {
		add(e)
		if sh.s.rt.Ended() {
			continue
		}
		if rel, ok := strings.CutPrefix(e, cur); ok {
			add(rel)
		}
		if rel, ok := strings.CutPrefix(e, anchor); ok && lead != "" {
			add(lead + rel)
		}
	}
	if first {
		for _, c := range []string{"events", "vars", "history", "export", "init", "help", "quit"} {
			add(c)
		}
	}
	sort.Strings(out)
	return out
}

// anchorOf returns the leading "/" or dots of word and the path prefix
// they stand for from the current state: "/" is below the root, each dot
// one level up ("" when word has neither, or climbs above the root).
func anchorOf(word, current, root string) (lead, anchor string) {
	if strings.HasPrefix(word, "/") {
		return "/", root + "."
	}
	n := len(word) - len(strings.TrimLeft(word, "."))
	if n == 0 {
		return "", ""
	}
	path := current
	for range n {
		i := strings.LastIndexByte(path, '.')
		if i < 0 {
			return "", ""
		}
		path = path[:i]
	}
	return word[:n], path + "."
}

func commonPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}
