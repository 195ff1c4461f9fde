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
	fallbackA                               func(need, have int) string
	list                                    func(need, have int) string
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
	}
}

// rowsA are form A's header and rows.
func (p *presenter) rowsA() [][]string {
	guards := p.hasGuards(p.mc.Transitions)
	head := []string{p.l.state, p.l.event}
	if guards {
		head = append(head, p.l.guard)
	}
	head = append(head, p.l.next, p.l.scenario)
	rows := [][]string{head}
	for _, t := range p.mc.Transitions {
		r := []string{p.state(t.From, maxMeaning), p.event(t.Event, maxMeaning)}
		if guards {
			r = append(r, t.Guard)
		}
		r = append(r, p.state(t.To, maxMeaning), p.scenario(t.From, t.Event, maxScenario))
		rows = append(rows, r)
	}
	return rows
}

func (p *presenter) tableWidthA() int { return widest(table(p.rowsA())) }

// formA is the transition table; ok is false when a row would wrap.
func (p *presenter) formA() (string, bool) {
	lines := table(p.rowsA())
	if widest(lines) > p.width {
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
		b.WriteString(p.state(s, maxMeaning) + "\n")
		guards := p.hasGuards(ts)
		head := []string{p.l.event}
		if guards {
			head = append(head, p.l.guard)
		}
		rows := [][]string{append(head, p.l.next, p.l.scenario)}
		for _, t := range ts {
			r := []string{p.event(t.Event, maxMeaning)}
			if guards {
				r = append(r, t.Guard)
			}
			rows = append(rows, append(r, p.state(t.To, maxMeaning), p.scenario(t.From, t.Event, maxScenario)))
		}
		lines := table(rows)
		if need := widest(lines) + 2; need <= p.width {
			for _, l := range lines {
				b.WriteString("  " + l + "\n")
			}
			continue
		} else {
			b.WriteString("  " + p.l.list(need, p.width) + "\n")
		}
		for _, t := range ts {
			line := "  - " + p.event(t.Event, maxMeaning)
			if t.Guard != "" {
				line += " [" + t.Guard + "]"
			}
			line += " → " + p.state(t.To, maxMeaning)
			if sc := p.scenario(t.From, t.Event, maxScenario); sc != "" {
				line += p.l.open + sc + p.l.close
			}
			b.WriteString(line + "\n")
		}
	}
	if line := p.terminalLine(); line != "" {
		b.WriteString("\n" + line)
	}
	return b.String()
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
	return strings.TrimSpace(p.l.terminal) + "\n  - " + strings.Join(ts, "\n  - ") + "\n"
}
