package model

import (
	"github.com/stateproof/stateproof/internal/fcstm/ast"
)

// eventPath resolves an event path written in file u: relative paths
// start at scope, absolute ones at root (whose name in its own file is
// rootName, which an absolute path must not repeat). Every segment but the
// last must name an existing state; the last one is the event.
func (b *builder) eventPath(u *unit, root *State, rootName string, scope *State, p ast.Path) (string, bool) {
	at := scope
	if p.Absolute {
		at = root
	}
	segs := p.Segments
	for i, seg := range segs[:len(segs)-1] {
		c := child(at, seg.Name)
		if c == nil {
			if p.Absolute && i == 0 && seg.Name == rootName {
				b.errorf(u, "E_ROOT_REPEATED", seg.Pos, "an absolute path starts below the root %q: write /%s without the root name", rootName, trimFirst(p))
			} else {
				b.errorf(u, "E_UNKNOWN_EVENT_SCOPE", seg.Pos, "cannot find state %s.%s for event %s (%s)", at.Path, seg.Name, p.String(), childNames(at))
			}
			return "", false
		}
		at = c
	}
	return at.Path + "." + segs[len(segs)-1].Name, true
}

func trimFirst(p ast.Path) string {
	q := ast.Path{Segments: p.Segments[1:]}
	return q.String()
}

// canonical follows import event mappings from file u upwards: an
// imported event mapped onto a host event is that host event.
// Each mapping followed is marked used (checkEventMaps).
func canonical(u *unit, path string) string {
	for x := u; x != nil; x = x.importer {
		if h, ok := x.events[path]; ok {
			x.mapped[path] = true
			path = h
		}
	}
	return path
}

// event returns the event at path (as written in file u), creating it on
// first use.
func (b *builder) event(u *unit, path string, pos ast.Pos) *Event {
	path = canonical(u, path)
	if ev, ok := b.m.EventByPath[path]; ok {
		return ev
	}
	name := path
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '.' {
			name = path[i+1:]
			break
		}
	}
	ev := &Event{Name: name, Path: path, Pos: u.pos(pos)}
	b.m.EventByPath[path] = ev
	b.m.Events = append(b.m.Events, ev)
	return ev
}

// resolveEvent resolves an event reference of a trigger written in file
// u with the given scope.
func (b *builder) resolveEvent(u *unit, scope *State, p ast.Path) *Event {
	path, ok := b.eventPath(u, u.root, u.rootName, scope, p)
	if !ok {
		return nil
	}
	return b.event(u, path, p.Pos)
}

// collectEvents resolves import event mappings, then creates the declared
// events (event Go; inside S is S.Go).
func (b *builder) collectEvents() {
	b.importEventMaps()
	// An event declared twice in one file is an error; an imported unit's
	// declaration that an event mapping puts onto an event declared
	// elsewhere is how the two share it, and the first declaration keeps
	// its position and text.
	declared := map[string]*unit{}
	for _, s := range b.order {
		inf := b.info[s]
		for _, it := range inf.decl.Items {
			d, ok := it.(*ast.EventDecl)
			if !ok {
				continue
			}
			ev := b.event(inf.unit, s.Path+"."+d.Name.Name, d.Name.Pos)
			if first, seen := declared[ev.Path]; seen {
				if first == inf.unit {
					b.errorf(inf.unit, "E_DUPLICATE_EVENT", d.Name.Pos, "event %s is declared twice", ev.Path)
				}
				continue
			}
			declared[ev.Path] = inf.unit
			ev.Pos = inf.unit.pos(d.Name.Pos)
			if d.Display != "" {
				ev.Display = d.Display
			}
			ev.Doc = d.Doc
		}
	}
}
