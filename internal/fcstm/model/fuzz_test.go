package model

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/ast"
)

// FuzzBuild: construction never panics; its errors are located; a model
// it returns satisfies the structural invariants the runtime relies on.
func FuzzBuild(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.fcstm")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Add(`def int n = 0; state R { import "unit.fcstm" as U { def * -> u_$0; event /Tick -> Go; } [*] -> U; U -> U : Go; }`)
	f.Add("state R { state A { enter P ref Q; enter Q ref P; } [*] -> A; !A -> A :: Go; }")
	f.Add(`def int u_n = 3; state R { import "unit.fcstm" as U { def * -> u_$1; event /Tick -> Go; event /Nope -> Go; } [*] -> U; }`)
	f.Add(`state R { import "unit.fcstm" as U { def *_* -> m_$2; event /Tick -> Go; event /Tick -> Stop; } import "unit.fcstm" as V { def n -> m_$0; } [*] -> U; }`)
	f.Add(`def float n = 0.0; state R { import "unit.fcstm" as U { def {n} -> ${0}; } [*] -> U; }`)
	f.Add("def int x = 1; state R { state A { state B; [*] -> B; } [*] -> A : X + Y + [x > 0]; A -> [*] :: E + E; }")
	fs := memFS{
		"unit.fcstm": "def int n = 1;\nstate Unit { state Idle; [*] -> Idle; Idle -> Idle :: Tick effect { n = n + 1; } }",
		"self.fcstm": `state S { import "self.fcstm" as Again; [*] -> Again; }`,
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Parse("f.fcstm", src, Options{ReadFile: fs.read})
		if err != nil {
			var list ast.ErrorList
			var one *ast.Error
			switch {
			case errors.As(err, &list):
				for _, e := range list {
					if e.Code == "" || !e.Pos.IsValid() {
						t.Fatalf("badly located error %+v", e)
					}
				}
			case errors.As(err, &one):
			default:
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			return
		}
		checkInvariants(t, m)
		_ = Dump(m)
	})
}

// checkInvariants asserts what every constructed model guarantees.
func checkInvariants(t *testing.T, m *Model) {
	t.Helper()
	id := 0
	var walk func(s *State)
	walk = func(s *State) {
		if s.ID != id || m.StateByPath[s.Path] != s {
			t.Fatalf("state %s: id %d (want %d) or not registered", s.Path, s.ID, id)
		}
		id++
		if s.Pseudo && !s.IsLeaf() {
			t.Fatalf("pseudo composite %s", s.Path)
		}
		initial := false
		for _, tr := range s.Transitions {
			if tr.Owner != s || tr.From != nil && tr.From.Parent != s || tr.To != nil && tr.To.Parent != s {
				t.Fatalf("transition of %s with foreign endpoints", s.Path)
			}
			initial = initial || tr.From == nil
			if tr.Event != nil && m.EventByPath[tr.Event.Path] != tr.Event {
				t.Fatalf("unregistered event %s", tr.Event.Path)
			}
		}
		if !s.IsLeaf() && !initial {
			t.Fatalf("composite %s without initial transition", s.Path)
		}
		for _, a := range allActions(s) {
			if a.Kind == Ref && (a.Target == nil || a.Target.Kind == Ref) {
				t.Fatalf("unresolved ref %s on %s", a.RefPath, s.Path)
			}
		}
		for _, c := range s.Children {
			if c.Parent != s {
				t.Fatalf("child %s has the wrong parent", c.Path)
			}
			walk(c)
		}
	}
	walk(m.Root)
}
