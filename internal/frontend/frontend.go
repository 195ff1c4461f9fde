package frontend

import (
	"time"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/trace"
)

// A Format loads the model files of one front end.
type Format interface {
	// Name is the format's name for --format-in ("json", "fcstm").
	Name() string
	// Extensions are the file name endings the format claims, with the
	// dot, compared case-insensitively (".json").
	Extensions() []string
	// Load reads and lowers the model at path. Every file it reads (the
	// model and anything it imports) goes through rd, so size limits and
	// the test harness apply. Errors carry their location (JSON path or
	// file:line:col).
	Load(rd input.Reader, path string) (*Model, error)
	// LoadSource is Load of a model given as text (an MCP request's
	// inline model); name labels it in errors and reports. Imports, when
	// the format has them, are read through rd.
	LoadSource(rd input.Reader, name string, src []byte) (*Model, error)
}

// A Model is a loaded model as the engines see it.
type Model struct {
	Path   string // the file it was loaded from (labels reports)
	Format string // the Name of the Format that loaded it
	System *sts.System
	// Replayer replays decoded witnesses on the format's runtime.
	Replayer Replayer
	// Depths searches the model's reachable states for bmc's every-depth
	// note (docs/queries.md, "When the bound is enough"); nil for a
	// format without such a search.
	Depths DepthSearch
	// Invariants are the state-predicate properties the model itself
	// declares (JSON invariants); empty for formats that declare none.
	Invariants []Invariant
	// Unchecked says, one line each, which declared properties are not
	// state predicates and so are not among Invariants (verify decides
	// them).
	Unchecked []string
	// Native is the front end's own model value, for callers that
	// draw or describe it (a *jsonmodel.Model, a *model.Model); engines
	// must not type-switch on it.
	Native any
}

// A Replayer drives a concrete runtime along a decoded trace and says
// where it disagrees.
type Replayer interface {
	Replay(tr *trace.Trace) *trace.Replay
}

// A DepthSearch decides a query for every depth, its bound aside, by
// explicit search of a model's reachable states.
type DepthSearch interface {
	// AllDepths answers q for every depth within lim, in bmc's outcome
	// names; a search stopped by lim answers unknown. ok is false when
	// the search cannot model q exactly (a clause it does not decide).
	AllDepths(q *query.Query, lim DepthLimits) (a DepthAnswer, ok bool)
}

// DepthLimits bound a DepthSearch: at most States states, none deeper
// than Depth (a breadth-first depth), stopping at Deadline.
type DepthLimits struct {
	States, Depth int
	Deadline      time.Time
}

// A DepthAnswer is a DepthSearch's answer: its outcome, the states it
// reached and the diameter of the space (the greatest breadth-first depth
// of a reachable state).
type DepthAnswer struct {
	Outcome          string
	States, Diameter int
}

// An Invariant is a property the model declares: each Placement's
// formula holds in every reachable state at its location, and AtStart
// (when not nil) holds in the initial state, which is in every scope of a
// scoped invariant (docs/models.md). ID and Source name it in reports
// ("invariant \"bounded\" (var-in-range)").
type Invariant struct {
	ID         string
	Source     string
	Placements []Placement
	AtStart    expr.Expr
}

// A Placement is a formula over the model's variables (a tree, never
// text) that must hold at Location, or at every location when Location
// is empty.
type Placement struct {
	Location string
	Formula  expr.Expr
}
