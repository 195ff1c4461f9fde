package diagram

import (
	"unicode/utf8"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// nestedMachine is a hand-built FCSTM machine with every construct the
// diagram draws: Root holds Idle and the composite Work (Prep, a pseudo
// Choice, Run), initial and exit transitions per composite, a forced
// transition, a guard and an effect, and actions.
//
//	Root: [*] -> Idle; Idle -> Work :: Start; Work -> Idle :: Stop;
//	      Work -> [*] (forced, from !Work)
//	Work: [*] -> Prep; Prep -> Choice [x > 0] effect { x = x - 1; };
//	      Choice -> Run; Run -> [*] :: Done
func nestedMachine() *model.Model {
	root := &model.State{Name: "Root", Path: "Root"}
	idle := &model.State{Name: "Idle", Path: "Root.Idle", Parent: root, Display: "waiting"}
	work := &model.State{Name: "Work", Path: "Root.Work", Parent: root}
	prep := &model.State{Name: "Prep", Path: "Root.Work.Prep", Parent: work}
	choice := &model.State{Name: "Choice", Path: "Root.Work.Choice", Parent: work, Pseudo: true}
	run := &model.State{Name: "Run", Path: "Root.Work.Run", Parent: work}
	root.Children = []*model.State{idle, work}
	work.Children = []*model.State{prep, choice, run}
	ev := func(name, path string) *model.Event { return &model.Event{Name: name, Path: path} }
	x := &expr.Ident{Name: "x"}
	idle.Enter = []*model.Action{{State: idle, Name: "Greet", Kind: model.Abstract}}
	run.During = []*model.Action{{State: run, Kind: model.Concrete, Ops: []model.Stmt{&model.Assign{Name: "x", Value: &expr.Binary{Op: expr.Add, X: x, Y: &expr.IntLit{Value: 1}}}}}}
	work.Exit = []*model.Action{{State: work, Kind: model.Ref, RefPath: "/Root.Idle.Greet"}}
	root.Transitions = []*model.Transition{
		{Owner: root, To: idle},
		{Owner: root, From: idle, To: work, Event: ev("Start", "Root.Start")},
		{Owner: root, From: work, To: idle, Event: ev("Stop", "Root.Stop")},
		{Owner: root, From: work, Event: ev("Abort", "Root.Abort"), Forced: true},
	}
	work.Transitions = []*model.Transition{
		{Owner: work, To: prep},
		{Owner: work, From: prep, To: choice, Guard: &expr.Binary{Op: expr.Gt, X: x, Y: &expr.IntLit{Value: 0}},
			Effect: []model.Stmt{&model.Assign{Name: "x", Value: &expr.Binary{Op: expr.Sub, X: x, Y: &expr.IntLit{Value: 1}}}}},
		{Owner: work, From: choice, To: run},
		{Owner: work, From: run, Event: ev("Done", "Root.Work.Done")},
	}
	return &model.Model{File: "nested.fcstm", Root: root}
}

func utf8Valid(s string) bool { return utf8.ValidString(s) }
