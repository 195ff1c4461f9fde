package model

// injectForced injects, for every forced transition with source X, the
// exit `c -> [*]` (same event, same guard) for every child c of every
// composite at or below X, so that whatever leaf is active under X exits
// level by level until X's own transition fires. In each composite the
// injected exits come first, before its written transitions, in the order
// the forced transitions were declared (outer owners first): a forced
// transition is not shadowed by a child's own handler of the same event.
// Generated combo states get no injected exits: a combo chain is one
// indivisible trigger.
func (b *builder) injectForced() {
	// pyfcstm's order: every forced transition of an owner, in declaration
	// order, before the owner's written ones (docs/fcstm.md).
	own := map[*State][]*Transition{}
	var owners []*State
	for _, fd := range b.forced {
		if _, ok := own[fd.owner]; !ok {
			owners = append(owners, fd.owner)
		}
		own[fd.owner] = append(own[fd.owner], fd.origin...)
	}
	for _, s := range owners {
		s.Transitions = append(own[s], s.Transitions...)
	}
	injected := map[*State][]*Transition{}
	var order []*State
	for _, fd := range b.forced {
		for _, origin := range fd.origin {
			var walk func(d *State)
			walk = func(d *State) {
				if d.IsLeaf() || d.Combo {
					return
				}
				if _, ok := injected[d]; !ok {
					order = append(order, d)
				}
				for _, c := range d.Children {
					if c.Combo {
						continue
					}
					injected[d] = append(injected[d], &Transition{Owner: d, From: c, Event: fd.event, Guard: fd.guard, Forced: true, Origin: origin, Pos: origin.Pos})
				}
				for _, c := range d.Children {
					walk(c)
				}
			}
			walk(origin.From)
		}
	}
	for _, d := range order {
		d.Transitions = append(injected[d], d.Transitions...)
	}
}

// validateStructure checks what needs the whole tree: every composite has
// an initial transition, and pseudo states are leaves.
func (b *builder) validateStructure() {
	for _, s := range b.order {
		inf := b.info[s]
		u := inf.unit
		if s.Pseudo && !s.IsLeaf() {
			b.errorf(u, "E_PSEUDO_NOT_LEAF", inf.decl.Name.Pos, "pseudo state %s has children; a pseudo state must be a leaf (drop \"pseudo\" or move the children out)", s.Path)
		}
		if s.IsLeaf() {
			continue
		}
		initial := false
		for _, t := range s.Transitions {
			if t.From == nil {
				initial = true
				break
			}
		}
		if !initial {
			b.errorf(u, "E_NO_INITIAL", inf.decl.Name.Pos, "composite state %s has no initial transition; add \"[*] -> %s;\" naming the child to enter first", s.Path, s.Children[0].Name)
		}
	}
}
