package simulate

import (
	"bytes"
	"encoding/json"
	"math"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
)

// Schema names the JSON document's format.
const Schema = "stateproof/simulate/v1"

// Report is a simulation: the initial configuration and one entry per
// cycle. Error is set (and Initial, Cycles empty) when the model does not
// load or the runtime cannot start.
type Report struct {
	Schema  string        `json:"schema"`
	Model   string        `json:"model"`
	Initial *Snapshot     `json:"initial,omitempty"`
	Cycles  []CycleReport `json:"cycles,omitempty"`
	Error   *ErrorReport  `json:"error,omitempty"`
	Stopped *StopReport   `json:"stopped,omitempty"`
}

// MarshalJSON writes the report with "cycles" present whenever the run
// started, even a run of no cycles ([]), and absent when it did not: the
// contract tells a start from a load error by it.
func (r Report) MarshalJSON() ([]byte, error) {
	type plain Report
	out := struct {
		plain
		Cycles *[]CycleReport `json:"cycles,omitempty"`
	}{plain: plain(r)}
	if r.Initial != nil || len(r.Cycles) > 0 {
		cycles := r.Cycles
		if cycles == nil {
			cycles = []CycleReport{}
		}
		out.Cycles = &cycles
	}
	return json.Marshal(out)
}

// StopReport says that the run stopped at a cap before its input ended:
// the cycles after it were not run, and nothing is claimed about them.
type StopReport struct {
	Reason  string `json:"reason"` // "max-cycles"
	Limit   int    `json:"limit"`
	Message string `json:"message"`
}

// Snapshot is a configuration: the current state (nil once ended) and
// every persistent variable.
type Snapshot struct {
	State *string `json:"state"`
	Ended bool    `json:"ended"`
	Vars  Vars    `json:"vars"`
}

// CycleReport is one cycle. On an error, State and Vars are the unchanged
// pre-cycle values and Error says what happened.
type CycleReport struct {
	Index         int            `json:"index"`
	Events        []string       `json:"events"`
	State         *string        `json:"state"`
	Ended         bool           `json:"ended"`
	Delta         bool           `json:"delta"`
	Consumed      []string       `json:"consumed"`
	Unconsumed    []string       `json:"unconsumed"`
	Vars          Vars           `json:"vars"`
	Actions       []ActionReport `json:"actions"`
	AbstractCalls []CallReport   `json:"abstractCalls"`
	Error         *ErrorReport   `json:"error,omitempty"`

	changed []string // variables whose value differs from the previous configuration
}

// Changed returns the variables this cycle changed, in declaration order.
func (c *CycleReport) Changed() []string { return c.changed }

// ErrorReport is a failure: a cycle's runtime error class (event,
// expression, writeback, handler, limit), or "parse", "validation",
// "init" for a model that cannot run. Line and Col are 1-based, 0 when
// unknown.
type ErrorReport struct {
	Class   string `json:"class"`
	Message string `json:"message"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
}

// ActionReport is an executed action (runtime.Action) in the JSON shape:
// name is null when anonymous, ref and abstract appear for refs and
// abstract actions, leaf for aspects, from/to for effects.
type ActionReport struct{ runtime.Action }

// MarshalJSON implements json.Marshaler.
func (a ActionReport) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"role":`)
	writeJSON(&b, string(a.Role))
	b.WriteString(`,"state":`)
	writeJSON(&b, a.State)
	if a.Role == runtime.RoleEffect {
		b.WriteString(`,"from":`)
		writeJSON(&b, a.From)
		b.WriteString(`,"to":`)
		writeJSON(&b, a.To)
		b.WriteByte('}')
		return b.Bytes(), nil
	}
	b.WriteString(`,"name":`)
	writeNullable(&b, a.Name)
	if a.Leaf != "" {
		b.WriteString(`,"leaf":`)
		writeJSON(&b, a.Leaf)
	}
	if a.Ref != "" {
		b.WriteString(`,"ref":`)
		writeJSON(&b, a.Ref)
	}
	if a.Abstract {
		b.WriteString(`,"abstract":true`)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// CallReport is an abstract call with its context.
type CallReport struct {
	Action     string  `json:"action"`
	Stage      string  `json:"stage"`
	State      string  `json:"state"`
	ActiveLeaf string  `json:"activeLeaf"`
	NamedRef   *string `json:"namedRef"`
	Vars       Vars    `json:"vars"`
}

// Vars is a variable valuation in declaration order. It marshals as a
// JSON object: integers as exact JSON integers, floats in shortest
// round-trip form, non-finite floats as "inf", "-inf", "nan".
type Vars struct {
	Names  []string
	Values []expr.Value
}

// Get returns the value of a variable.
func (v Vars) Get(name string) (expr.Value, bool) {
	for i, n := range v.Names {
		if n == name {
			return v.Values[i], true
		}
	}
	return expr.Value{}, false
}

// MarshalJSON implements json.Marshaler.
func (v Vars) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, name := range v.Names {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSON(&b, name)
		b.WriteByte(':')
		b.WriteString(JSONNumber(v.Values[i]))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// JSONNumber renders a value as JSON: an exact integer, a float in
// shortest round-trip form (always with a fraction or an exponent, so it
// reads back as a float), or "inf", "-inf", "nan" as strings.
func JSONNumber(v expr.Value) string {
	if v.Type() != expr.Real {
		return v.String()
	}
	f := v.Real()
	switch {
	case math.IsNaN(f):
		return `"nan"`
	case math.IsInf(f, 1):
		return `"inf"`
	case math.IsInf(f, -1):
		return `"-inf"`
	}
	return v.String()
}

func writeJSON(b *bytes.Buffer, s string) {
	data, _ := json.Marshal(s) // a string always marshals
	b.Write(data)
}

func writeNullable(b *bytes.Buffer, s string) {
	if s == "" {
		b.WriteString("null")
		return
	}
	writeJSON(b, s)
}

// Marshal renders the report as indented JSON with a final newline.
func (r *Report) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
