package show

import (
	"fmt"
	"strings"
)

// labels are the words of a presentation in the narrative's language.
type labels struct {
	open, close                             string // around a meaning
	state, event, next, scenario, guard     string // column headers
	frameState, frameEvent, frameNext, when string // form B frame
	terminal, listSep                       string
	fallbackA, fallbackAShort               func(need, have int) string // the short one for a narrow display
	list, listShort                         func(need, have int) string
}

// note is the long form of a note about a display of have columns when it
// fits w columns, else the short one, cut as a last resort.
func note(long, short func(need, have int) string, need, have, w int) string {
	if s := long(need, have); width(s) <= w {
		return s
	}
	return fit(short(need, have), w)
}

func labelsFor(chinese bool) labels {
	if chinese {
		return labels{
			open: "（", close: "）",
			state: "状态（含义）", event: "事件（含义）", next: "进入（含义）", scenario: "场景", guard: "条件",
			frameState: "状态：", frameEvent: "发生：", frameNext: "进入：", when: "条件：",
			terminal: "终态：", listSep: "、",
			fallbackA: func(need, have int) string {
				return fmt.Sprintf("（表格需要 %d 列，显示区只有 %d 列：按源状态分组显示）", need, have)
			},
			list: func(need, have int) string {
				return fmt.Sprintf("（表格需要 %d 列，超过 %d 列：逐条列出）", need, have)
			},
			fallbackAShort: func(need, have int) string {
				return fmt.Sprintf("（需 %d 列 > %d：按源状态分组）", need, have)
			},
			listShort: func(need, have int) string { return fmt.Sprintf("（需 %d 列 > %d：逐条列出）", need, have) },
		}
	}
	return labels{
		open: " (", close: ")",
		state: "state (meaning)", event: "event (meaning)", next: "next (meaning)", scenario: "scenario", guard: "guard",
		frameState: "state: ", frameEvent: "event: ", frameNext: "next:  ", when: "when:  ",
		terminal: "terminal: ", listSep: ", ",
		fallbackA: func(need, have int) string {
			return fmt.Sprintf("(the table needs %d columns, the display has %d: grouped by source state)", need, have)
		},
		list: func(need, have int) string {
			return fmt.Sprintf("(a table needs %d columns, more than %d: one line per event)", need, have)
		},
		fallbackAShort: func(need, have int) string { return fmt.Sprintf("(%d columns > %d: by source state)", need, have) },
		listShort:      func(need, have int) string { return fmt.Sprintf("(%d columns > %d: one line per event)", need, have) },
	}
}

// rowsA are form A's header and rows, meanings and scenarios cut to lim.
func (p *presenter) rowsA(lim limits) [][]string {
	guards := p.hasGuards(p.mc.Transitions)
	head := []string{p.l.state, p.l.event}
	if guards {
		head = append(head, p.l.guard)
	}
	head = append(head, p.l.next, p.l.scenario)
	rows := [][]string{head}
	for _, t := range p.mc.Transitions {
		r := []string{p.state(t.From, lim.meaning), p.event(t.Event, lim.meaning)}
		if guards {
			r = append(r, t.Guard)
		}
		r = append(r, p.state(t.To, lim.meaning), p.scenario(t.From, t.Event, lim.scenario))
		rows = append(rows, r)
	}
	return rows
}

// tableWidthA is the width of form A's table cut as far as it can be.
func (p *presenter) tableWidthA() int {
	sch := schedule()
	return widest(table(p.rowsA(sch[len(sch)-1])))
}

// fitTable returns the first table of the schedule that fits w columns:
// the rows are shortened only as much as the width needs. ok is false
// when even the shortest would wrap.
func fitTable(rows func(limits) [][]string, w int) ([]string, bool) {
	for _, lim := range schedule() {
		if lines := table(rows(lim)); widest(lines) <= w {
			return lines, true
		}
	}
	return nil, false
}

// formA is the transition table; ok is false when a row would wrap.
func (p *presenter) formA() (string, bool) {
	lines, ok := fitTable(p.rowsA, p.width)
	if !ok {
		return "", false
	}
	return strings.Join(lines, "\n") + "\n" + p.terminalLine(), true
}

// formB is one sentence block per transition with the full meanings.
func (p *presenter) formB() string {
	var b strings.Builder
	for i, t := range p.mc.Transitions {
		if i > 0 {
			b.WriteString("\n")
		}
		s := p.scenario(t.From, t.Event, 0)
		if s == "" {
			// No scenario: the bare ids say which transition this is.
			s = t.From + " --" + t.Event + "--> " + t.To
		}
		fmt.Fprintf(&b, "%d. %s\n", i+1, s)
		fmt.Fprintf(&b, "   %s%s\n", p.l.frameState, p.state(t.From, 0))
		fmt.Fprintf(&b, "   %s%s\n", p.l.frameEvent, p.event(t.Event, 0))
		if t.Guard != "" {
			fmt.Fprintf(&b, "   %s%s\n", p.l.when, t.Guard)
		}
		fmt.Fprintf(&b, "   %s%s\n", p.l.frameNext, p.state(t.To, 0))
	}
	if line := p.terminalLine(); line != "" {
		b.WriteString("\n" + line)
	}
	return b.String()
}

// formC is one small table per source state, or a list for a group whose
// table would not fit.
func (p *presenter) formC() string {
	var b strings.Builder
	first := true
	for _, s := range p.mc.States {
		var ts []Transition
		for _, t := range p.mc.Transitions {
			if t.From == s {
				ts = append(ts, t)
			}
		}
		if len(ts) == 0 {
			continue
		}
		if !first {
			b.WriteString("\n")
		}
		first = false
		b.WriteString(fit(p.state(s, maxMeaning), p.width) + "\n")
		if lines, ok := fitTable(func(lim limits) [][]string { return p.groupRows(ts, lim) }, p.width-2); ok {
			for _, l := range lines {
				b.WriteString("  " + l + "\n")
			}
			continue
		}
		need := p.groupWidth(ts) + 2
		b.WriteString("  " + note(p.l.list, p.l.listShort, need, p.width, p.width-2) + "\n")
		for _, t := range ts {
			b.WriteString(p.listLine(t) + "\n")
		}
	}
	if line := p.terminalLine(); line != "" {
		b.WriteString("\n" + line)
	}
	return b.String()
}

// groupRows are the rows of one group of form C, cut to lim.
func (p *presenter) groupRows(ts []Transition, lim limits) [][]string {
	guards := p.hasGuards(ts)
	head := []string{p.l.event}
	if guards {
		head = append(head, p.l.guard)
	}
	rows := [][]string{append(head, p.l.next, p.l.scenario)}
	for _, t := range ts {
		r := []string{p.event(t.Event, lim.meaning)}
		if guards {
			r = append(r, t.Guard)
		}
		rows = append(rows, append(r, p.state(t.To, lim.meaning), p.scenario(t.From, t.Event, lim.scenario)))
	}
	return rows
}

// groupWidth is the width of a group's table cut as far as it can be.
func (p *presenter) groupWidth(ts []Transition) int {
	sch := schedule()
	return widest(table(p.groupRows(ts, sch[len(sch)-1])))
}

// listLine is one event of a group listed instead of tabled, fitted to the
// width: meanings shortened first, then the scenario dropped, and only
// when the bare ids are still too wide is the line itself cut.
func (p *presenter) listLine(t Transition) string {
	line := func(m int, withScenario bool) string {
		s := "  - " + p.event(t.Event, m)
		if t.Guard != "" {
			s += " [" + t.Guard + "]"
		}
		s += " → " + p.state(t.To, m)
		if sc := p.scenario(t.From, t.Event, maxScenario); withScenario && sc != "" {
			s += p.l.open + sc + p.l.close
		}
		return s
	}
	for _, withScenario := range []bool{true, false} {
		for m := maxMeaning; m >= minMeaning; m-- {
			if s := line(m, withScenario); width(s) <= p.width {
				return s
			}
		}
	}
	return fit(line(minMeaning, false), p.width)
}

// terminalLine names the terminal states ("" when there is none).
func (p *presenter) terminalLine() string {
	var ts []string
	for _, s := range p.mc.States {
		if p.mc.Terminal[s] {
			ts = append(ts, p.state(s, maxMeaning))
		}
	}
	if len(ts) == 0 {
		return ""
	}
	if line := p.l.terminal + strings.Join(ts, p.l.listSep); width(line) <= p.width {
		return line + "\n"
	}
	out := fit(strings.TrimSpace(p.l.terminal), p.width) + "\n"
	for _, t := range ts {
		out += fit("  - "+t, p.width) + "\n"
	}
	return out
}
