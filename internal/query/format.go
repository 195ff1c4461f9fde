package query

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
)

// Format renders q as canonical FBMCQ text (docs/queries.md): one clause per
// line, each ending in ";\n"; expressions in expr.Format's canonical form
// (single spaces around binary operators, double-quoted strings, lowercase
// true/false); `!=` in event assumptions normalised to `==`; havoc names
// bare when they are plain identifiers, quoted otherwise; integers in
// decimal. Parse(Format(q)) gives a query Equal to q, and Format is a
// fixed point of print → parse → print.
func Format(q *Query) string {
	var b strings.Builder
	if q.Init != nil {
		formatInit(&b, q.Init)
	}
	for _, a := range q.Assumes {
		formatAssume(&b, &a)
	}
	formatCheck(&b, &q.Check)
	return b.String()
}

func quote(s string) string { return expr.Format(&expr.StringLit{Value: s}) }

func formatExpr(e expr.Expr) string { return expr.Format(e) }

// isPlainIdent reports whether s can be written as a bare name.
func isPlainIdent(s string) bool { return !keywords[s] && expr.IsPlainName(s) }

func formatInit(b *strings.Builder, in *Init) {
	b.WriteString("init ")
	if in.Mode == State {
		b.WriteString("state(" + quote(in.State.Name) + ")")
	} else {
		b.WriteString(in.Mode.String())
	}
	switch {
	case in.HavocAll:
		b.WriteString(" havoc *")
	case len(in.Havoc) > 0:
		names := make([]string, len(in.Havoc))
		for i, h := range in.Havoc {
			names[i] = h.Name
			if !isPlainIdent(h.Name) {
				names[i] = quote(h.Name)
			}
		}
		b.WriteString(" havoc {" + strings.Join(names, ", ") + "}")
	}
	if in.Where != nil {
		b.WriteString(" where " + formatExpr(in.Where))
	}
	b.WriteString(";\n")
}

func formatAssume(b *strings.Builder, a *Assume) {
	b.WriteString("assume ")
	switch a.Kind {
	case AssumeAlways:
		b.WriteString("always: " + formatExpr(a.Cond))
	case AssumeAt:
		b.WriteString("at " + strconv.Itoa(a.Frame) + ": " + formatExpr(a.Cond))
	case AssumeEvent:
		b.WriteString("event(" + quote(a.Event.Name) + ", " + a.Steps.String() + ") == " + strconv.FormatBool(a.Value))
	case AssumeCardinality:
		b.WriteString("events cardinality ")
		if a.Any {
			b.WriteString("any")
			break
		}
		names := make([]string, len(a.Pool))
		for i, p := range a.Pool {
			names[i] = quote(p.Name)
		}
		b.WriteString("at_most_one {" + strings.Join(names, ", ") + "}")
	}
	b.WriteString(";\n")
}

// String renders the selector as written in an event assumption.
func (s StepRange) String() string {
	switch {
	case s.All:
		return "*"
	case s.Range:
		return strconv.Itoa(s.Lo) + ".." + strconv.Itoa(s.Hi)
	}
	return strconv.Itoa(s.Lo)
}

func formatCheck(b *strings.Builder, c *Check) {
	b.WriteString("check " + c.Kind.String())
	if c.Kind != LTL {
		b.WriteString(" <= " + strconv.Itoa(c.Bound))
	}
	formatEvents(b, "fair", c.Fair, c.FairAll)
	formatEvents(b, "strong", c.Strong, c.StrongAll)
	b.WriteString(": ")
	if c.Kind == LTL {
		// the formula is LTL, kept as written (the query package does
		// not parse it)
		b.WriteString(c.Formula + ";\n")
		return
	}
	if c.Trigger != nil || c.Target != nil {
		b.WriteString("trigger " + formatExpr(c.Trigger) + " -> within " + strconv.Itoa(c.Window) + " " + formatExpr(c.Target))
	} else {
		b.WriteString(formatExpr(c.Body))
	}
	b.WriteString(";\n")
}

// formatEvents writes a fairness clause: ` fair *` or ` fair { "a", … }`.
func formatEvents(b *strings.Builder, word string, names []Name, all bool) {
	if all {
		b.WriteString(" " + word + " *")
	} else if len(names) > 0 {
		q := make([]string, len(names))
		for i, n := range names {
			q[i] = quote(n.Name)
		}
		b.WriteString(" " + word + " { " + strings.Join(q, ", ") + " }")
	}
}

// Equal reports whether a and b are the same query, ignoring source spans,
// File, Text and what Bind fills in (Calls, CaseLabel).
func Equal(a, b *Query) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !equalInit(a.Init, b.Init) || len(a.Assumes) != len(b.Assumes) {
		return false
	}
	for i := range a.Assumes {
		if !equalAssume(&a.Assumes[i], &b.Assumes[i]) {
			return false
		}
	}
	x, y := &a.Check, &b.Check
	return x.Kind == y.Kind && x.Bound == y.Bound && x.Window == y.Window && equalNames(x.Fair, y.Fair) && x.FairAll == y.FairAll &&
		equalNames(x.Strong, y.Strong) && x.StrongAll == y.StrongAll && x.Formula == y.Formula &&
		expr.Equal(x.Body, y.Body) && expr.Equal(x.Trigger, y.Trigger) && expr.Equal(x.Target, y.Target)
}

func equalInit(a, b *Init) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Mode == b.Mode && a.State.Name == b.State.Name && a.HavocAll == b.HavocAll &&
		equalNames(a.Havoc, b.Havoc) && expr.Equal(a.Where, b.Where)
}

func equalAssume(a, b *Assume) bool {
	return a.Kind == b.Kind && expr.Equal(a.Cond, b.Cond) && a.Frame == b.Frame &&
		a.Event.Name == b.Event.Name && a.Steps == b.Steps && a.Value == b.Value &&
		a.Any == b.Any && equalNames(a.Pool, b.Pool) && a.Index == b.Index
}

func equalNames(a, b []Name) bool {
	return slices.EqualFunc(a, b, func(x, y Name) bool { return x.Name == y.Name })
}

// The canonical JSON form (docs/queries.md): expressions as canonical text.
type (
	jsonQuery struct {
		Init        *jsonInit    `json:"init"`
		Assumptions []jsonAssume `json:"assumptions"`
		Check       jsonCheck    `json:"check"`
	}
	jsonInit struct {
		Mode  string  `json:"mode"`
		State *string `json:"state,omitempty"`
		Havoc any     `json:"havoc,omitempty"` // "*" or a list of names
		Where *string `json:"where,omitempty"`
	}
	jsonAssume struct {
		Kind      string   `json:"kind"`
		Frame     *int     `json:"frame,omitempty"`
		Cond      *string  `json:"cond,omitempty"`
		Event     *string  `json:"event,omitempty"`
		Steps     *string  `json:"steps,omitempty"`
		Value     *bool    `json:"value,omitempty"`
		AtMostOne []string `json:"at_most_one,omitempty"`
	}
	jsonCheck struct {
		Kind      string  `json:"kind"`
		Polarity  string  `json:"polarity"`
		Bound     int     `json:"bound"`
		Body      *string `json:"body,omitempty"`
		Trigger   *string `json:"trigger,omitempty"`
		Within    *int    `json:"within,omitempty"`
		Target    *string `json:"target,omitempty"`
		CaseLabel string  `json:"case_label,omitempty"`
		// Fair is the stateproof fairness extension (docs/queries.md#fairness):
		// the event list, or "*".
		Fair any `json:"fair,omitempty"`
		// Strong and Formula belong to an ltl check (docs/queries.md#ltl).
		Strong  any    `json:"strong,omitempty"`
		Formula string `json:"formula,omitempty"`
	}
)

var assumeKindNames = [...]string{"always", "at", "event", "cardinality_any", "cardinality_at_most_one"}

func ptr[T any](v T) *T { return &v }

func exprPtr(e expr.Expr) *string {
	if e == nil {
		return nil
	}
	return ptr(formatExpr(e))
}

// FormatJSON renders q as canonical JSON: fixed key order, expressions as
// canonical text, no insignificant white space.
func FormatJSON(q *Query) ([]byte, error) {
	j := jsonQuery{Assumptions: []jsonAssume{}}
	if in := q.Init; in != nil {
		j.Init = &jsonInit{Mode: in.Mode.String(), Where: exprPtr(in.Where)}
		if in.Mode == State {
			j.Init.State = ptr(in.State.Name)
		}
		if in.HavocAll {
			j.Init.Havoc = "*"
		} else if len(in.Havoc) > 0 {
			j.Init.Havoc = nameList(in.Havoc)
		}
	}
	for _, a := range q.Assumes {
		ja := jsonAssume{Kind: assumeKindNames[a.Kind], Cond: exprPtr(a.Cond)}
		switch a.Kind {
		case AssumeAt:
			ja.Frame = ptr(a.Frame)
		case AssumeEvent:
			ja.Event, ja.Steps, ja.Value = ptr(a.Event.Name), ptr(a.Steps.String()), ptr(a.Value)
		case AssumeCardinality:
			if !a.Any {
				ja.Kind, ja.AtMostOne = assumeKindNames[AssumeCardinality+1], nameList(a.Pool)
			}
		}
		j.Assumptions = append(j.Assumptions, ja)
	}
	c := &q.Check
	j.Check = jsonCheck{Kind: c.Kind.String(), Polarity: c.Kind.Polarity().String(), Bound: c.Bound,
		Body: exprPtr(c.Body), Trigger: exprPtr(c.Trigger), Target: exprPtr(c.Target), CaseLabel: c.CaseLabel}
	if c.FairAll {
		j.Check.Fair = "*"
	} else if len(c.Fair) > 0 {
		j.Check.Fair = nameList(c.Fair)
	}
	if c.StrongAll {
		j.Check.Strong = "*"
	} else if len(c.Strong) > 0 {
		j.Check.Strong = nameList(c.Strong)
	}
	j.Check.Formula = c.Formula
	if c.Trigger != nil || c.Target != nil {
		j.Check.Within = ptr(c.Window)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(j); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func nameList(ns []Name) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.Name
	}
	return out
}
