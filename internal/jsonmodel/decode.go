package jsonmodel

import (
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/jsonvalue"
)

// Result is what validation found: a Model when the input is valid, and
// otherwise every error in document order. MetadataKeys and Hash fields are
// filled either way.
type Result struct {
	Model  *Model
	Errors []string
	// MetadataKeys lists the walker paths of `_` keys, sorted by UTF-16
	// code units; nil when the input has none.
	MetadataKeys []string
	// MissingDescription holds the indexes of invariants without a
	// `description`, so the report can say what to add.
	MissingDescription []int
	Raw                *jsonvalue.Value
}

// Valid reports whether the model passed validation.
func (r *Result) Valid() bool { return len(r.Errors) == 0 && r.Model != nil }

// Decode parses data as JSON and validates it as a model. The error is
// non-nil only when data is not JSON (a tool refusal); schema problems are
// reported in Result.Errors.
func Decode(data []byte) (*Result, error) {
	root, err := jsonvalue.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	return Validate(root), nil
}

// Hash returns the model hash of raw under spec "v0" or "v1".
func Hash(raw *jsonvalue.Value, spec string) (string, error) {
	switch spec {
	case "v1":
		return jsonvalue.Hash(raw, true), nil
	case "v0":
		return jsonvalue.Hash(raw, false), nil
	}
	return "", fmt.Errorf("unknown hash spec %q (published: v0, v1)", spec)
}

// HashSpecs lists the published hash specifications, oldest first.
func HashSpecs() []string { return []string{"v0", "v1"} }

// MetadataKeys returns the walker paths of every `_`-prefixed key in v,
// sorted by UTF-16 code units, or nil when there is none. A `_` key inside
// a metadata value is listed too (`_verified._by`), as the reference
// engine lists it: its walker visits every key.
func MetadataKeys(v *jsonvalue.Value) []string {
	var out []string
	var walk func(path string, v *jsonvalue.Value)
	walk = func(path string, v *jsonvalue.Value) {
		switch v.Kind {
		case jsonvalue.Object:
			for _, m := range v.Members {
				p := joinPath(path, m.Key)
				if jsonvalue.IsMetadataKey(m.Key) {
					out = append(out, p)
				}
				walk(p, m.Value)
			}
		case jsonvalue.Array:
			for i, e := range v.Elems {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		}
	}
	walk("", v)
	jsonvalue.SortUTF16(out)
	return dedupSorted(out)
}

func dedupSorted(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	out := s[:1]
	for _, x := range s[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// StripMetadata returns a copy of v without `_` keys at any depth.
func StripMetadata(v *jsonvalue.Value) *jsonvalue.Value {
	c := *v
	switch v.Kind {
	case jsonvalue.Object:
		c.Members = nil
		for _, m := range v.Members {
			if !jsonvalue.IsMetadataKey(m.Key) {
				c.Members = append(c.Members, jsonvalue.Member{Key: m.Key, Value: StripMetadata(m.Value)})
			}
		}
		if c.Members == nil {
			c.Members = []jsonvalue.Member{}
		}
	case jsonvalue.Array:
		c.Elems = make([]*jsonvalue.Value, len(v.Elems))
		for i, e := range v.Elems {
			c.Elems[i] = StripMetadata(e)
		}
	}
	return &c
}

// duplicateKeys reports every object key that appears twice, at any depth.
func duplicateKeys(v *jsonvalue.Value, path string, report func(path, msg string)) {
	switch v.Kind {
	case jsonvalue.Object:
		seen := map[string]bool{}
		for _, m := range v.Members {
			if seen[m.Key] {
				report(joinPath(path, m.Key), fmt.Sprintf("duplicate key %q (line %d, column %d)", m.Key, m.Value.Pos.Line, m.Value.Pos.Col))
			}
			seen[m.Key] = true
			duplicateKeys(m.Value, joinPath(path, m.Key), report)
		}
	case jsonvalue.Array:
		for i, e := range v.Elems {
			duplicateKeys(e, index(path, i), report)
		}
	}
}

func quoteList(xs []string) string { return strings.Join(xs, ", ") }
