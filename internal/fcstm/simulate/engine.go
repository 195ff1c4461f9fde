package simulate

import (
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
)

// engine is a model's runtime as a session drives it: the hierarchical
// FCSTM runtime, or a JSON model's machine (jsonEngine). Cycle leaves the
// engine unchanged when it returns an error.
type engine interface {
	Cycle(events []string) (*runtime.Cycle, error)
	State() string // the current state ("" once ended)
	Ended() bool
	Values() []expr.Value // in declaration order
	EventPaths() []string
	Root() string // the path "/" stands for in relative event names
}

type fcstmEngine struct{ *runtime.Runtime }

func (e fcstmEngine) Root() string { return e.Model().Root.Path }
