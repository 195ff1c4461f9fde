package baseline

import (
	"fmt"
	"io"
	"strings"

	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/report"
)

// WriteText renders the diff for a person: the delta verdict first, then
// what was added (with paths), removed and changed.
func WriteText(w io.Writer, baselineName string, d *Diff, st report.Style) error {
	var b strings.Builder
	verdict, reason := d.Verdict()
	fmt.Fprintf(&b, "%s  changes since %s\n  %s\n", st.VerdictLabel(verdict), baselineName, reason)
	fmt.Fprintf(&b, "  baseline verdict %s, current verdict %s, %d finding(s) unchanged\n", d.Base.Verdict, d.Current.Verdict, d.Unchanged)
	if d.Base.ModelHash != d.Current.ModelHash {
		fmt.Fprintf(&b, "  model %s -> %s\n", orNone(d.Base.ModelHash), orNone(d.Current.ModelHash))
	}
	section := func(title string, fs []Finding) {
		if len(fs) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s:\n", title)
		for _, f := range fs {
			fmt.Fprintf(&b, "  %s %s %s: %s\n", f.Severity, f.Check, f.Code, f.Message)
			if p := pathText(f.Obj.Get("path")); p != "" {
				fmt.Fprintf(&b, "      path: %s\n", p)
			}
		}
	}
	section("added", d.Added)
	section("removed", d.Removed)
	if len(d.Changed) > 0 {
		b.WriteString("\nchanged:\n")
		for _, c := range d.Changed {
			bs, _ := str(c.Before, "severity")
			bm, _ := str(c.Before, "message")
			as, _ := str(c.After, "severity")
			am, _ := str(c.After, "message")
			fmt.Fprintf(&b, "  %s %s: %s -> %s\n      was: %s\n      now: %s\n", c.Check, c.Code, bs, as, bm, am)
		}
	}
	if len(d.Added)+len(d.Removed)+len(d.Changed) == 0 {
		b.WriteString("\nNo finding changed.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// pathText draws a JSON path array as FormatPath does.
func pathText(p *jsonvalue.Value) string {
	if p == nil || p.Kind != jsonvalue.Array {
		return ""
	}
	steps := make([]report.Step, 0, len(p.Elems))
	for _, s := range p.Elems {
		from, _ := str(s, "from")
		ev, _ := str(s, "event")
		to, _ := str(s, "to")
		steps = append(steps, report.Step{From: from, Event: ev, To: to})
	}
	return report.FormatPath(steps)
}
