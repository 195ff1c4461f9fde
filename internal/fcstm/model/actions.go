package model

import (
	"github.com/stateproof/stateproof/internal/fcstm/ast"
)

// collectActions builds every enter/during/exit action and aspect, and
// registers the named ones by path.
func (b *builder) collectActions() {
	for _, s := range b.order {
		inf := b.info[s]
		u := inf.unit
		for _, it := range inf.decl.Items {
			d, ok := it.(*ast.Action)
			if !ok {
				continue
			}
			a := &Action{State: s, Doc: d.Doc, Pos: u.pos(d.Pos)}
			b.adecl[a] = d
			if !b.placeAction(u, s, d, a) {
				continue
			}
			switch d.Kind {
			case ast.Concrete:
				a.Kind = Concrete
				a.Ops = b.stmts(&scope{u: u, temps: map[string]bool{}}, d.Ops)
				if a.Ops == nil {
					a.Ops = []Stmt{}
				}
			case ast.Abstract:
				a.Kind = Abstract
				if d.Name == nil {
					b.warnf(u, "W_ANONYMOUS_ABSTRACT", d.Pos, "anonymous abstract %s action on %s: no handler can be registered for it, so it never calls the host; give it a name", a.Role, s.Path)
				}
			case ast.Ref:
				a.Kind = Ref
				a.RefPath = d.Ref.String()
			}
			if d.Name != nil {
				a.Name = d.Name.Name
				a.Path = s.Path + "." + a.Name
				if prev, dup := b.m.ActionByPath[a.Path]; dup {
					b.errorf(u, "E_DUPLICATE_ACTION", d.Name.Pos, "action %s is declared twice (first at line %d); action names are unique within a state", a.Path, prev.Pos.Line)
					continue
				}
				b.m.ActionByPath[a.Path] = a
			}
		}
	}
}

// placeAction gives a its role and stage and appends it to the slot of s
// it belongs to; it reports false (with an error) for a during action
// that does not fit the state.
func (b *builder) placeAction(u *unit, s *State, d *ast.Action, a *Action) bool {
	leaf := s.IsLeaf()
	switch {
	case d.Stage == ast.Enter:
		a.Role, a.Stage = RoleEnter, StageEnter
		s.Enter = append(s.Enter, a)
	case d.Stage == ast.Exit:
		a.Role, a.Stage = RoleExit, StageExit
		s.Exit = append(s.Exit, a)
	case d.Aspect:
		a.Stage = StageDuring
		if leaf {
			b.warnf(u, "W_ASPECT_ON_LEAF", d.Pos, "a >> during aspect on the leaf %s never runs: aspects apply to the leaves below a composite", s.Path)
		}
		if d.When == "before" {
			a.Role = RoleAspectBefore
			s.AspectBefore = append(s.AspectBefore, a)
		} else {
			a.Role = RoleAspectAfter
			s.AspectAfter = append(s.AspectAfter, a)
		}
	case d.When == "":
		if !leaf {
			b.errorf(u, "E_DURING_COMPOSITE", d.Pos, "the composite %s needs \"during before\" or \"during after\" (a plain during runs on leaves only)", s.Path)
			return false
		}
		a.Role, a.Stage = RoleDuring, StageDuring
		s.During = append(s.During, a)
	default:
		if leaf {
			b.errorf(u, "E_DURING_LEAF", d.Pos, "\"during %s\" is for composite states; the leaf %s takes a plain during", d.When, s.Path)
			return false
		}
		a.Stage = StageDuring
		if d.When == "before" {
			a.Role = RoleDuringBefore
			s.DuringBefore = append(s.DuringBefore, a)
		} else {
			a.Role = RoleDuringAfter
			s.DuringAfter = append(s.DuringAfter, a)
		}
	}
	return true
}

// resolveRefs resolves every ref to its final (non-ref) action. A relative
// ref path starts at the declaring state's parent (the root for the root
// itself); an absolute one at the root of its file.
func (b *builder) resolveRefs() {
	direct := map[*Action]*Action{}
	var refs []*Action
	for _, s := range b.order {
		for _, a := range allActions(s) {
			if a.Kind != Ref {
				continue
			}
			refs = append(refs, a)
			if t := b.refTarget(s, a); t != nil {
				direct[a] = t
			}
		}
	}
	ends := refEnds(refs, direct)
	for _, a := range refs {
		if _, ok := direct[a]; !ok {
			continue
		}
		e := ends[a]
		if e.cycle != nil {
			inf := b.info[a.State]
			b.errorf(inf.unit, "E_REF_CYCLE", b.adecl[a].Ref.Pos, "ref %s leads back to itself (through %s); a ref must end at a concrete or abstract action", a.RefPath, e.cycle.Path)
			continue
		}
		a.Target = e.target
	}
}

// refEnd is where a chain of refs ends: at target (a concrete or abstract
// action), in a cycle (entered at cycle, which is the ref itself for a
// member of the cycle), or, with both nil, at a ref whose own error is
// reported.
type refEnd struct {
	target, cycle *Action
	member        bool // on the cycle, not merely leading into it
}

// refEnds follows every ref's chain once: each ref's end is computed from
// the end of the next ref on its chain, so a chain of n refs costs O(n),
// not O(n^2) as following it anew from every ref did (a chain of 20,000
// refs loaded in half a minute).
func refEnds(refs []*Action, direct map[*Action]*Action) map[*Action]refEnd {
	ends := make(map[*Action]refEnd, len(refs))
	pos := map[*Action]int{} // the refs on the chain being followed
	var chain []*Action
	for _, a := range refs {
		chain = chain[:0]
		clear(pos)
		// Follow a's chain to an action whose end is known: after is
		// that action, end its end.
		after := a
		var end refEnd
		for {
			if e, done := ends[after]; done {
				end = e
				break
			}
			if after.Kind != Ref {
				end = refEnd{target: after}
				break
			}
			if at, on := pos[after]; on {
				for _, m := range chain[at:] {
					ends[m] = refEnd{cycle: m, member: true}
				}
				chain = chain[:at]
				end = ends[after]
				break
			}
			next, ok := direct[after]
			if !ok {
				ends[after] = refEnd{}
				break
			}
			pos[after] = len(chain)
			chain = append(chain, after)
			after = next
		}
		// Unwind: each ref ends where the next one does, or enters the
		// cycle at the next one when that one is on the cycle.
		for i := len(chain) - 1; i >= 0; i-- {
			if end.member {
				end = refEnd{cycle: after}
			}
			ends[chain[i]] = end
			after = chain[i]
		}
	}
	return ends
}

// refTarget looks up the action a ref names. A relative path is looked
// up from the declaring state first (so sibling actions are plain names,
// as in "enter A ref B;"), then from its parent; an absolute one from the
// root of its file.
func (b *builder) refTarget(s *State, a *Action) *Action {
	u := b.info[s].unit
	d := b.adecl[a].Ref
	if d.Absolute {
		return b.lookupAction(u, u.root, a, d, true)
	}
	if t := b.lookupAction(u, s, a, d, false); t != nil || s == u.root {
		if t == nil {
			return b.lookupAction(u, s, a, d, true)
		}
		return t
	}
	return b.lookupAction(u, s.Parent, a, d, true)
}

// lookupAction resolves ref path d from state at; report says whether a
// failure is an error (the last attempt) or silent.
func (b *builder) lookupAction(u *unit, at *State, a *Action, d *ast.Path, report bool) *Action {
	for i, seg := range d.Segments[:len(d.Segments)-1] {
		c := child(at, seg.Name)
		if c == nil {
			switch {
			case !report:
			case d.Absolute && i == 0 && seg.Name == u.rootName:
				b.errorf(u, "E_ROOT_REPEATED", seg.Pos, "an absolute path starts below the root %q: write /%s without the root name", u.rootName, trimFirst(*d))
			default:
				b.errorf(u, "E_UNKNOWN_REF", seg.Pos, "ref %s: cannot find state %s.%s (%s)", d.String(), at.Path, seg.Name, childNames(at))
			}
			return nil
		}
		at = c
	}
	last := d.Segments[len(d.Segments)-1]
	t, ok := b.m.ActionByPath[at.Path+"."+last.Name]
	if !ok {
		if report {
			b.errorf(u, "E_UNKNOWN_REF", last.Pos, "ref %s: %s has no named action %q (a ref names an action such as \"enter Init { … }\", not a state)", d.String(), at.Path, last.Name)
		}
		return nil
	}
	if t == a {
		if report {
			b.errorf(u, "E_REF_CYCLE", d.Pos, "ref %s names the action itself", d.String())
		}
		return nil
	}
	return t
}

// allActions lists the actions of s in slot order.
func allActions(s *State) []*Action {
	var out []*Action
	for _, l := range [][]*Action{s.Enter, s.During, s.Exit, s.DuringBefore, s.DuringAfter, s.AspectBefore, s.AspectAfter} {
		out = append(out, l...)
	}
	return out
}
