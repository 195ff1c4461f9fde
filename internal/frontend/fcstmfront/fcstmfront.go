// Package fcstmfront is the front end of FCSTM models (docs/fcstm.md): it
// loads a model with its imports, lowers one runtime cycle to the cases
// of a transition system (package fcstm/lower), and replays witnesses on
// the FCSTM runtime (package fcstm/replay). FCSTM declares no invariants,
// so a Model of this format has none. Its DepthSearch is verify's
// --all-depths search (package fcstm/decide).
package fcstmfront

import (
	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/decide"
	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/fcstm/lower"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/replay"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/sts"
)

// Format is the FCSTM model format.
type Format struct{}

// Name implements frontend.Format.
func (Format) Name() string { return "fcstm" }

// Extensions implements frontend.Format.
func (Format) Extensions() []string { return []string{".fcstm"} }

// Load implements frontend.Format. The model file and every file it
// imports are read through rd. A syntax or construction error lists every
// problem at its file:line:col with the source line; a construct the
// bounded encoding does not support is refused with the expression and
// its location (unsupported_bmc_core), never approximated.
func (Format) Load(rd input.Reader, path string) (*frontend.Model, error) {
	m, err := model.LoadWith(path, model.ReaderOptions(rd))
	if err != nil {
		return nil, &LoadError{Err: err}
	}
	return FromModel(m, path)
}

// LoadSource implements frontend.Format: src is FCSTM text. Its imports
// are read through rd, relative to the directory of name.
func (Format) LoadSource(rd input.Reader, name string, src []byte) (*frontend.Model, error) {
	m, err := model.Parse(name, string(src), model.ReaderOptions(rd))
	if err != nil {
		return nil, &LoadError{Err: err}
	}
	return FromModel(m, name)
}

// FromModel lowers an already constructed model.
func FromModel(m *model.Model, path string) (*frontend.Model, error) {
	sys, err := lower.Lower(m)
	if err != nil {
		return nil, err
	}
	return &frontend.Model{Path: path, Format: "fcstm", System: sys, Replayer: replay.New(m), Depths: depths{m, sys}, Native: m}, nil
}

// depths is the search behind bmc's every-depth note: the --all-depths
// search of verify (package fcstm/decide), whose assumptions constrain
// each step as bmc's do.
type depths struct {
	m   *model.Model
	sys *sts.System
}

// AllDepths implements frontend.DepthSearch. A query the search refuses
// (an init clause, assume at K, cycle, calls, a kind it does not decide)
// is not modelled exactly, so ok is false.
func (d depths) AllDepths(q *query.Query, lim frontend.DepthLimits) (frontend.DepthAnswer, bool) {
	mc, err := explicit.New(d.m)
	if err != nil {
		return frontend.DepthAnswer{}, false
	}
	r, err := decide.Decide(d.m, d.sys, mc, q, decide.Options{MaxStates: lim.States, MaxDepth: lim.Depth, AllDepths: true, Deadline: lim.Deadline})
	if err != nil {
		return frontend.DepthAnswer{}, false
	}
	return frontend.DepthAnswer{Outcome: r.Outcome, States: r.States, Diameter: r.Diameter}, true
}

// A LoadError is a model that does not parse or construct. Its text is
// every error with its location, source line and caret.
type LoadError struct {
	Err error // an *ast.Error or an ast.ErrorList
}

func (e *LoadError) Unwrap() error { return e.Err }

func (e *LoadError) Error() string { return ast.Details(e.Err) }
