package simulate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/lineend"
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
	// In name order, so that of several bad values the same one is named
	// on every run (and by every generated target's driver).
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		x := raw[name]
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
	head := string(data[:off])
	return 1 + lineend.Count(head), 1 + utf8.RuneCountInString(head[lineend.LineStart(head, off):])
}
