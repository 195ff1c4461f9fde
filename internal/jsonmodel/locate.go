package jsonmodel

import (
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/jsonvalue"
)

// Locate returns the position of the element a walker path names
// (`transitions[3].guard.all[1].value`, `states[0]._note`, `sttes`), or
// the deepest element of the path that exists. ok is false when not even
// the first step resolves.
func Locate(root *jsonvalue.Value, path string) (pos jsonvalue.Pos, ok bool) {
	v, ok := LocateValue(root, path)
	return v.Pos, ok
}

// LocateValue is Locate's value: the element path names, or the nearest
// ancestor present (ok false).
func LocateValue(root *jsonvalue.Value, path string) (v *jsonvalue.Value, ok bool) {
	cur := root
	for _, step := range splitPath(path) {
		var next *jsonvalue.Value
		if step.index >= 0 {
			if cur.Kind == jsonvalue.Array && step.index < len(cur.Elems) {
				next = cur.Elems[step.index]
			}
		} else if cur.Kind == jsonvalue.Object {
			next = cur.Get(step.key)
		}
		if next == nil {
			return cur, ok
		}
		cur, ok = next, true
	}
	return cur, ok
}

type pathStep struct {
	key   string
	index int // -1 for a key
}

func splitPath(path string) []pathStep {
	var out []pathStep
	for _, part := range strings.Split(path, ".") {
		key, rest, _ := strings.Cut(part, "[")
		if key != "" {
			out = append(out, pathStep{key: key, index: -1})
		}
		for rest != "" {
			num, after, found := strings.Cut(rest, "]")
			if !found {
				break
			}
			if i, err := strconv.Atoi(num); err == nil {
				out = append(out, pathStep{index: i})
			}
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return out
}

// ElementPath returns the walker path of the model element a finding is
// about: a state, a variable, a transition or an invariant, by id or
// index; "" when none matches.
func (m *Model) ElementPath(kind, id string) string {
	switch kind {
	case "state":
		for i, s := range m.States {
			if s.ID == id {
				return "states[" + strconv.Itoa(i) + "]"
			}
		}
	case "variable":
		for i, v := range m.Variables {
			if v.Name == id {
				return "variables[" + strconv.Itoa(i) + "]"
			}
		}
	case "invariant":
		for i, inv := range m.Invariants {
			if inv.ID == id {
				return "invariants[" + strconv.Itoa(i) + "]"
			}
		}
	case "transition":
		return "transitions[" + id + "]"
	}
	return ""
}
