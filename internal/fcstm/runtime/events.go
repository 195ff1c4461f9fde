package runtime

import (
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// resolveEvents resolves the inputs of a cycle to event numbers, without
// duplicates, in input order.
func (r *Runtime) resolveEvents(inputs []string) ([]int, error) {
	var out []int
	for _, in := range inputs {
		i, err := r.ResolveEvent(in)
		if err != nil {
			return nil, err
		}
		if !containsInt(out, i) {
			out = append(out, i)
		}
	}
	return out, nil
}

// ResolveEvent resolves one input event against the current state:
//
//   - "/a.b" is absolute: below the root, the root's name not repeated;
//   - ".x", "..x", …: each leading dot climbs one level from the current
//     state, so ".x" is a sibling event of the current state (its parent's
//     x) and "..x" its grandparent's;
//   - anything else is a full path from the root, or else a path below the
//     current state.
//
// It returns the event's number in the runtime's index; EventPath names it.
func (r *Runtime) ResolveEvent(in string) (int, error) {
	cur := r.currentInfo()
	var path string
	switch {
	case strings.HasPrefix(in, "/"):
		path = r.ix.root.st.Path + "." + in[1:]
	case strings.HasPrefix(in, "."):
		n := len(in) - len(strings.TrimLeft(in, "."))
		anchor := cur
		for range n {
			if anchor.parent == nil {
				return 0, errorf(ClassEvent, model.Pos{}, nil, "event %q climbs above the root from %s", in, cur.st.Path)
			}
			anchor = anchor.parent
		}
		path = anchor.st.Path + "." + in[n:]
	default:
		if i, ok := r.ix.eventIdx[in]; ok {
			return i, nil
		}
		path = cur.st.Path + "." + in
	}
	if i, ok := r.ix.eventIdx[path]; ok {
		return i, nil
	}
	msg := fmt.Sprintf("unknown event %q (resolved from %s as %s)", in, cur.st.Path, path)
	if alts := r.similarEvents(in); len(alts) > 0 {
		msg += "; did you mean " + strings.Join(alts, " or ") + "?"
	}
	return 0, errorf(ClassEvent, model.Pos{}, nil, "%s", msg)
}

// similarEvents lists the events whose path ends like in (at most three).
func (r *Runtime) similarEvents(in string) []string {
	tail := "." + strings.TrimLeft(in, "./")
	var out []string
	for _, e := range r.ix.events {
		if strings.HasSuffix(e.Path, tail) && len(out) < 3 {
			out = append(out, e.Path)
		}
	}
	return out
}

// EventPath returns the path of a resolved event number.
func (r *Runtime) EventPath(i int) string { return r.ix.events[i].Path }

// EventPaths returns every event of the model, in index order.
func (r *Runtime) EventPaths() []string {
	out := make([]string, len(r.ix.events))
	for i, e := range r.ix.events {
		out[i] = e.Path
	}
	return out
}

func (r *Runtime) currentInfo() *stateInfo {
	if len(r.frames) == 0 {
		return r.ix.root
	}
	return r.frames[len(r.frames)-1].s
}
