package lsp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/jsonvalue"
)

// jsonAt returns the string value under a protocol position of a JSON
// model, with the walker path of its container ("transitions[2].to").
func jsonAt(t *text, raw *jsonvalue.Value, pos Position) (*jsonvalue.Value, string) {
	off := t.offset(pos)
	line := t.lineOf(off) + 1
	col := runeCol(t, off)
	before := func(a jsonvalue.Pos, l, c int) bool { return a.Line < l || a.Line == l && a.Col <= c }
	var walk func(v *jsonvalue.Value, path string) (*jsonvalue.Value, string)
	walk = func(v *jsonvalue.Value, path string) (*jsonvalue.Value, string) {
		if !before(v.Pos, line, col) || before(v.End, line, col) && v.End != (jsonvalue.Pos{Line: line, Col: col}) {
			return nil, ""
		}
		switch v.Kind {
		case jsonvalue.String:
			return v, path
		case jsonvalue.Array:
			for i, e := range v.Elems {
				if got, p := walk(e, fmt.Sprintf("%s[%d]", path, i)); got != nil {
					return got, p
				}
			}
		case jsonvalue.Object:
			for _, m := range v.Members {
				if got, p := walk(m.Value, strings.TrimPrefix(path+"."+m.Key, ".")); got != nil {
					return got, p
				}
			}
		}
		return nil, ""
	}
	return walk(raw, "")
}

// jsonModel decodes a JSON model document; nil when it is not a valid
// model.
func jsonModel(d *document) (*jsonvalue.Value, *jsonmodel.Model) {
	raw, err := jsonvalue.Parse([]byte(d.text.src))
	if err != nil || raw.Get("schemaVersion") == nil {
		return nil, nil
	}
	res := jsonmodel.Validate(raw)
	if !res.Valid() {
		return raw, nil
	}
	return raw, res.Model
}

// jsonHover describes the state, event or variable a string of a JSON
// model names, with the narrative's words for it.
func jsonHover(d *document, pos Position) *Hover {
	raw, m := jsonModel(d)
	if m == nil {
		return nil
	}
	v, _ := jsonAt(d.text, raw, pos)
	if v == nil {
		return nil
	}
	var b strings.Builder
	name := v.Str
	for _, s := range m.States {
		if s.ID == name {
			fmt.Fprintf(&b, "**state** `%s`", name)
			if name == m.Init {
				b.WriteString(" — initial")
			}
			if s.Terminal {
				b.WriteString(" — terminal")
			}
			if m.Narrative != nil && m.Narrative.States[name] != "" {
				b.WriteString("\n\n" + m.Narrative.States[name])
			}
		}
	}
	if b.Len() == 0 && slices.Contains(m.Alphabet(), name) {
		fmt.Fprintf(&b, "**event** `%s`", name)
		if m.Narrative != nil && m.Narrative.Events[name] != "" {
			b.WriteString("\n\n" + m.Narrative.Events[name])
		}
	}
	if b.Len() == 0 {
		if vr := m.VariableByName(name); vr != nil {
			init := fmt.Sprint(vr.Init)
			if vr.Kind == jsonmodel.Boolean {
				init = fmt.Sprint(vr.Init != 0)
			}
			fmt.Fprintf(&b, "**variable** `%s`: %s, initially %s", name, vr.Kind, init)
			if vr.Min != nil || vr.Max != nil {
				b.WriteString(", range " + jsonmodel.RangeText(vr.Min, vr.Max))
			}
		}
	}
	if b.Len() == 0 {
		return nil
	}
	r := Range{Start: d.text.at(v.Pos.Line, v.Pos.Col), End: d.text.at(v.End.Line, v.End.Col)}
	return &Hover{Contents: markupContent{Kind: "markdown", Value: b.String()}, Range: &r}
}

// jsonDefinition goes from a state id used in a JSON model (init, a
// transition's from or to, …) to the state's entry in states.
func jsonDefinition(d *document, pos Position) []Location {
	raw, m := jsonModel(d)
	if m == nil {
		return nil
	}
	v, _ := jsonAt(d.text, raw, pos)
	if v == nil {
		return nil
	}
	p := m.ElementPath("state", v.Str)
	if p == "" {
		p = m.ElementPath("variable", v.Str)
	}
	if p == "" {
		return nil
	}
	el, _ := jsonmodel.LocateValue(raw, p)
	return []Location{{URI: d.uri, Range: Range{Start: d.text.at(el.Pos.Line, el.Pos.Col), End: d.text.at(el.End.Line, el.End.Col)}}}
}
