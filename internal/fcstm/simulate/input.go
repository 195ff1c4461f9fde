package simulate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/jsonvalue"
)

// ParseEvents reads the --events syntax: cycles separated by ";", the
// events of a cycle by ","; an empty cycle has no event. "a; ; b,c" is
// three cycles.
func ParseEvents(s string) ([][]string, error) {
	var out [][]string
	for i, cyc := range strings.Split(s, ";") {
		evs := []string{}
		if strings.TrimSpace(cyc) != "" {
			for _, e := range strings.Split(cyc, ",") {
				e = strings.TrimSpace(e)
				if e == "" {
					return nil, fmt.Errorf("cycle %d (%q) has an empty event name", i+1, strings.TrimSpace(cyc))
				}
				evs = append(evs, e)
			}
		}
		out = append(out, evs)
	}
	return out, nil
}

// ParseSteps reads a JSON array of cycles, each an array of event paths.
// Errors carry the position and the JSON path of the offending value.
func ParseSteps(data []byte) ([][]string, error) {
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return nil, err
	}
	if v.Kind != jsonvalue.Array {
		return nil, fmt.Errorf("%d:%d: $: want an array of cycles (arrays of event paths), got %s", v.Pos.Line, v.Pos.Col, v.Kind)
	}
	out := make([][]string, 0, len(v.Elems))
	for i, c := range v.Elems {
		if c.Kind != jsonvalue.Array {
			return nil, fmt.Errorf("%d:%d: $[%d]: want an array of event paths, got %s", c.Pos.Line, c.Pos.Col, i, c.Kind)
		}
		evs := make([]string, 0, len(c.Elems))
		for j, e := range c.Elems {
			if e.Kind != jsonvalue.String || e.Str == "" {
				return nil, fmt.Errorf("%d:%d: $[%d][%d]: want an event path (a non-empty string), got %s", e.Pos.Line, e.Pos.Col, i, j, e.Kind)
			}
			evs = append(evs, e.Str)
		}
		out = append(out, evs)
	}
	return out, nil
}

// ParseInitVars reads a JSON object of variable values. Integers stay
// exact; "inf", "-inf" and "nan" are read as floats (the report writes
// non-finite floats that way); anything else that is not a number is
// refused with the variable's name.
func ParseInitVars(data []byte) (map[string]expr.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(data, int(se.Offset)-1) // Offset is past the offending byte
			return nil, fmt.Errorf("%d:%d: %v", line, col, err)
		}
		return nil, fmt.Errorf("want a JSON object of variable values: %v", err)
	}
	if dec.More() {
		return nil, errors.New("want one JSON object of variable values, found more after it")
	}
	if raw == nil {
		return nil, errors.New("want a JSON object of variable values, got null")
	}
	out := make(map[string]expr.Value, len(raw))
	for name, x := range raw {
		v, err := jsonNumberValue(x)
		if err != nil {
			return nil, fmt.Errorf("$.%s: %v", name, err)
		}
		out[name] = v
	}
	return out, nil
}

func jsonNumberValue(x any) (expr.Value, error) {
	switch x := x.(type) {
	case json.Number:
		s := x.String()
		if !strings.ContainsAny(s, ".eE") {
			i, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return expr.Value{}, fmt.Errorf("the integer %s is outside the supported 64-bit range", s)
			}
			return expr.IntVal(i), nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return expr.Value{}, fmt.Errorf("the number %s is out of range", s)
		}
		return expr.RealVal(f), nil
	case string:
		switch x {
		case "inf":
			return expr.RealVal(math.Inf(1)), nil
		case "-inf":
			return expr.RealVal(math.Inf(-1)), nil
		case "nan":
			return expr.RealVal(math.NaN()), nil
		}
		return expr.Value{}, fmt.Errorf("want a number, got the string %q", x)
	case bool:
		return expr.BoolVal(x), nil // the runtime refuses it with its own message
	}
	return expr.Value{}, fmt.Errorf("want a number, got %v", x)
}

// lineCol converts a byte offset into a 1-based line and rune column.
func lineCol(data []byte, off int) (int, int) {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return line, 1 + len([]rune(string(data[start:off])))
}
