package jsonvalue

import (
	"math"
	"math/big"
)

// MaxExact is 2^53−1: every integer of at most this magnitude is a double,
// and so an exact JSON number in every reader.
const MaxExact = 1<<53 - 1

// Int64 returns the Number x, exact at any size.
func Int64(x int64) *Value {
	if -MaxExact <= x && x <= MaxExact {
		return &Value{Kind: Number, Num: float64(x)}
	}
	return Integer(big.NewInt(x))
}

// Integer returns the Number x, exact at any size (x is not kept).
func Integer(x *big.Int) *Value {
	if x.IsInt64() && -MaxExact <= x.Int64() && x.Int64() <= MaxExact {
		return &Value{Kind: Number, Num: float64(x.Int64())}
	}
	f, _ := new(big.Float).SetInt(x).Float64()
	if math.IsInf(f, 0) {
		f = math.Copysign(math.MaxFloat64, f)
	}
	return &Value{Kind: Number, Num: f, Int: new(big.Int).Set(x)}
}

// Kind is the JSON type of a Value.
type Kind uint8

// The JSON types.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	case Object:
		return "object"
	}
	return "unknown"
}

// Pos is a 1-based line and column (in runes) in the input text.
type Pos struct {
	Line, Col int
}

// Value is one JSON value with the position where it starts.
type Value struct {
	Kind Kind
	// End is the position just after the value's last character (set by
	// Parse), so that a value can be marked as a range (SARIF regions).
	End  Pos
	Bool bool
	Num  float64
	// Int, when not nil, is the exact value of an integer Number outside
	// ±MaxExact (Num is then only its nearest double). The parser never
	// sets it; values built by the engines (runtime values of any size) do,
	// and the writers print it as exact decimal digits.
	Int     *big.Int
	Text    string // a parsed Number's source text, for messages
	Str     string
	Elems   []*Value
	Members []Member // in input order; may hold the same key twice (see Parse)
	Pos     Pos
}

// Member is one key/value pair of an object.
type Member struct {
	Key   string
	Value *Value
}

// Get returns the first member named key, or nil.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for _, m := range v.Members {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// Has reports whether the object has a member named key.
func (v *Value) Has(key string) bool { return v.Get(key) != nil }

// IsMetadataKey reports whether key is an annotation key (starts with "_"),
// which the model schema skips, the v1 hash strips and reports list.
func IsMetadataKey(key string) bool { return len(key) > 0 && key[0] == '_' }

// FromGo converts a value built from Go maps, slices and scalars (as produced
// by encoding/json.Unmarshal into any, or assembled by report code) into a
// Value tree. Map keys are emitted in sorted order; canonical writing sorts
// again anyway. Unsupported types become null.
func FromGo(x any) *Value {
	switch t := x.(type) {
	case nil:
		return &Value{Kind: Null}
	case bool:
		return &Value{Kind: Bool, Bool: t}
	case float64:
		return &Value{Kind: Number, Num: t}
	case int:
		return &Value{Kind: Number, Num: float64(t)}
	case int64:
		return Int64(t)
	case *big.Int:
		return Integer(t)
	case string:
		return &Value{Kind: String, Str: t}
	case []any:
		v := &Value{Kind: Array}
		for _, e := range t {
			v.Elems = append(v.Elems, FromGo(e))
		}
		return v
	case map[string]any:
		v := &Value{Kind: Object}
		for _, k := range sortedKeys(t) {
			v.Members = append(v.Members, Member{Key: k, Value: FromGo(t[k])})
		}
		return v
	case *Value:
		return t
	}
	return &Value{Kind: Null}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortUTF16(keys)
	return keys
}

// ToGo converts a Value tree to plain Go values (map[string]any, []any,
// float64, string, bool, nil; an exact big integer stays a *big.Int). For an object holding a key twice the first
// occurrence wins.
func (v *Value) ToGo() any {
	switch v.Kind {
	case Bool:
		return v.Bool
	case Number:
		if v.Int != nil {
			return new(big.Int).Set(v.Int)
		}
		return v.Num
	case String:
		return v.Str
	case Array:
		out := make([]any, len(v.Elems))
		for i, e := range v.Elems {
			out[i] = e.ToGo()
		}
		return out
	case Object:
		out := make(map[string]any, len(v.Members))
		for _, m := range v.Members {
			if _, dup := out[m.Key]; !dup {
				out[m.Key] = m.Value.ToGo()
			}
		}
		return out
	}
	return nil
}
