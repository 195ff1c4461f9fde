package show

import (
	"fmt"
	"strings"

	"github.com/mattn/go-runewidth"
)

// Forms.
const (
	FormA    = "A"
	FormB    = "B"
	FormC    = "C"
	FormAuto = "auto"
)

// The limits of the presentation. Meanings and scenarios are counted in
// characters (seed: a meaning of at most 6, a scenario of at most 10);
// rows are fitted to the display in columns (a CJK character is 2).
const (
	maxMeaning  = 6  // characters of a state's or event's meaning in forms A and C
	maxScenario = 10 // characters of a scenario in forms A and C
	minMeaning  = 2  // the shortest a meaning is cut to before a table gives up
	minScenario = 4  // the shortest a scenario is cut to before a table gives up
	manyRows    = 15 // auto: this many transitions or more go to form C
	fewRows     = 10 // auto with Detail: this many or fewer go to form B
	narrowWidth = 60 // auto: a narrower display goes to form C
)

// Options choose the form and the display width.
type Options struct {
	Form   string // A, B, C or auto
	Width  int    // display columns, >= 1
	Detail bool   // auto: the user asked for detailed confirmation
}

// Render presents mc and returns the text and the form it used. A table
// form that cannot fit the width falls back (A to C, a group of C to a
// list), and the text says so in its first line.
func Render(mc *Machine, opt Options) (string, string, error) {
	if opt.Width < 1 {
		return "", "", fmt.Errorf("width must be >= 1 (got %d)", opt.Width)
	}
	l := labelsFor(mc.chinese())
	form := strings.ToUpper(opt.Form) // a, b, c and auto in any case
	switch form {
	case strings.ToUpper(FormAuto), "":
		n := len(mc.Transitions)
		switch {
		case n >= manyRows || opt.Width < narrowWidth:
			form = FormC
		case n <= fewRows && opt.Detail:
			form = FormB
		default:
			form = FormA
		}
	case FormA, FormB, FormC:
	default:
		return "", "", fmt.Errorf("form must be A, B, C or auto (got %q)", opt.Form)
	}
	p := presenter{mc: mc, l: l, width: opt.Width}
	switch form {
	case FormB:
		return p.formB(), FormB, nil
	case FormA:
		if text, ok := p.formA(); ok {
			return text, FormA, nil
		}
		return note(l.fallbackA, l.fallbackAShort, p.tableWidthA(), opt.Width, opt.Width) + "\n" + p.formC(), FormC, nil
	}
	return p.formC(), FormC, nil
}

type presenter struct {
	mc    *Machine
	l     labels
	width int
}

// cond measures display columns with a fixed setting: ambiguous-width
// characters (…, ─) count 1, whatever the locale says.
var cond = &runewidth.Condition{EastAsianWidth: false}

func width(s string) int { return cond.StringWidth(s) }

// shorten cuts s to at most n characters (not columns: a CJK character is
// one), the last of them the mark "…" when it cuts.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimRight(string(r[:max(n-1, 0)]), " ") + "…"
}

// fit cuts a line to at most w display columns, marking a cut with "…": the
// last resort that keeps a line from wrapping.
func fit(s string, w int) string {
	if width(s) <= w {
		return s
	}
	return cond.Truncate(s, w, "…")
}

// limits are the characters a meaning and a scenario are cut to.
type limits struct{ meaning, scenario int }

// schedule is the order in which a row is shortened to fit: only as much
// as the width needs, a meaning's character first, then a scenario's, in
// turn, until both reach their minimum.
func schedule() []limits {
	lim := limits{maxMeaning, maxScenario}
	out := []limits{lim}
	for turn := 0; lim.meaning > minMeaning || lim.scenario > minScenario; turn++ {
		if lim.meaning > minMeaning && (turn%2 == 0 || lim.scenario == minScenario) {
			lim.meaning--
		} else {
			lim.scenario--
		}
		out = append(out, lim)
	}
	return out
}

// withMeaning is "id (meaning)", or the bare id when the narrative does
// not say; limit 0 keeps the meaning whole.
func (p *presenter) withMeaning(id, meaning string, limit int) string {
	if meaning == "" {
		return id
	}
	if limit > 0 {
		meaning = shorten(meaning, limit)
	}
	return id + p.l.open + meaning + p.l.close
}

func (p *presenter) state(id string, limit int) string {
	return p.withMeaning(id, p.mc.StateText[id], limit)
}

func (p *presenter) event(id string, limit int) string {
	return p.withMeaning(id, p.mc.EventText[id], limit)
}

// scenario is the scenario of (from, event), or "" when there is none.
func (p *presenter) scenario(from, event string, limit int) string {
	s := p.mc.Scenario[[2]string{from, event}]
	if limit > 0 {
		s = shorten(s, limit)
	}
	return s
}

// hasGuards reports whether any transition is guarded: only then is
// there a guard column.
func (p *presenter) hasGuards(ts []Transition) bool {
	for _, t := range ts {
		if t.Guard != "" {
			return true
		}
	}
	return false
}

// table lays rows out in columns separated by " | ", padded to display
// width, without trailing spaces.
func table(rows [][]string) []string {
	if len(rows) == 0 {
		return nil
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], width(c))
		}
	}
	out := make([]string, 0, len(rows)+1)
	for k, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if i > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-width(c)))
			}
		}
		out = append(out, strings.TrimRight(b.String(), " "))
		if k == 0 {
			var sep []string
			for _, w := range widths {
				sep = append(sep, strings.Repeat("-", w))
			}
			out = append(out, strings.Join(sep, "-|-"))
		}
	}
	return out
}

func widest(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, width(l))
	}
	return w
}
