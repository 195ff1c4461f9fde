package main

import (
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/report"
)

// version is reported in SARIF logs.
const version = "0.1.0"

// modelLocator places findings on the lines of a model file: a validation
// error at the element its JSON path names, a check finding at the
// transition, invariant, state or variable it is about, and anything else
// at the top of the file.
func modelLocator(file string, raw *jsonvalue.Value, m *jsonmodel.Model) func(*report.Finding) report.Location {
	at := func(path string) report.Location {
		if raw == nil || path == "" {
			return report.Location{URI: file, Line: 1, Col: 1}
		}
		pos, _ := jsonmodel.Locate(raw, path)
		return report.Location{URI: file, Line: pos.Line, Col: pos.Col}
	}
	return func(f *report.Finding) report.Location {
		if strings.HasSuffix(f.Code, "MODEL_INVALID") {
			path, _, _ := strings.Cut(f.Message, ": ")
			return at(strings.TrimPrefix(path, "beforeModel."))
		}
		if m == nil {
			return at("")
		}
		if t, ok := f.Evidence.Get("transition").(int); ok {
			return at(m.ElementPath("transition", strconv.Itoa(t)))
		}
		switch inv := f.Evidence.Get("invariant").(type) {
		case string:
			return at(m.ElementPath("invariant", inv))
		case *jsonvalue.Value:
			if id := inv.Get("id"); id != nil {
				return at(m.ElementPath("invariant", id.Str))
			}
		}
		var target string
		switch t := f.Target.(type) {
		case string:
			target = t
		case []string:
			if len(t) > 0 {
				target = t[0]
			}
		}
		if p := m.ElementPath("state", target); p != "" {
			return at(p)
		}
		return at(m.ElementPath("variable", target))
	}
}
