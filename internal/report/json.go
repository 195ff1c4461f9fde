package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/stateproof/stateproof/internal/jsonvalue"
)

// KV is one member of an ordered JSON object.
type KV struct {
	Key   string
	Value any
}

// Obj is a JSON object that keeps its members in the order given. Values
// may be nil-free scalars (string, bool, int, int64, float64), []string,
// []int, []any, Obj, []Obj, *jsonvalue.Value, or anything implementing
// json.Marshaler.
type Obj []KV

// MarshalJSON writes the members in order.
func (o Obj) MarshalJSON() ([]byte, error) { return appendJSON(nil, o) }

// Set replaces the value of key, or appends it.
func (o Obj) Set(key string, v any) Obj {
	for i := range o {
		if o[i].Key == key {
			o[i].Value = v
			return o
		}
	}
	return append(o, KV{key, v})
}

// Get returns the value of key, or nil.
func (o Obj) Get(key string) any {
	for _, kv := range o {
		if kv.Key == key {
			return kv.Value
		}
	}
	return nil
}

func appendJSON(b []byte, v any) ([]byte, error) {
	switch t := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return jsonvalue.AppendString(b, t), nil
	case bool:
		return strconv.AppendBool(b, t), nil
	case int:
		return strconv.AppendInt(b, int64(t), 10), nil
	case int64:
		return strconv.AppendInt(b, t, 10), nil
	case float64:
		return append(b, jsonvalue.FormatNumber(t)...), nil
	case Obj:
		b = append(b, '{')
		for i, kv := range t {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonvalue.AppendString(b, kv.Key)
			b = append(b, ':')
			var err error
			if b, err = appendJSON(b, kv.Value); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []string:
		return appendList(b, len(t), func(b []byte, i int) ([]byte, error) { return jsonvalue.AppendString(b, t[i]), nil })
	case []int:
		return appendList(b, len(t), func(b []byte, i int) ([]byte, error) { return strconv.AppendInt(b, int64(t[i]), 10), nil })
	case []any:
		return appendList(b, len(t), func(b []byte, i int) ([]byte, error) { return appendJSON(b, t[i]) })
	case []Obj:
		return appendList(b, len(t), func(b []byte, i int) ([]byte, error) { return appendJSON(b, t[i]) })
	case json.Marshaler:
		raw, err := t.MarshalJSON()
		return append(b, raw...), err
	}
	return nil, fmt.Errorf("report: cannot encode %T", v)
}

func appendList(b []byte, n int, elem func([]byte, int) ([]byte, error)) ([]byte, error) {
	b = append(b, '[')
	var err error
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = elem(b, i); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// Indent renders v as JSON indented by two spaces, with a final newline.
func Indent(v any) ([]byte, error) {
	raw, err := appendJSON(nil, v)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, fmt.Errorf("report: indenting: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// O builds an Obj from alternating keys and values:
// O("event", e, "branches", bs). Keys must be strings.
func O(kv ...any) Obj {
	o := make(Obj, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		o = append(o, KV{Key: kv[i].(string), Value: kv[i+1]})
	}
	return o
}
