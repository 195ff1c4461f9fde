package inspect

import (
	"fmt"
	"time"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// DefaultMaxStates is the state cap of the search (Options.Search) when
// Options.MaxStates is not set.
const DefaultMaxStates = 100_000

// searchAlgorithm names the search in the refs of the diagnostics it
// decides (pyfcstm's algorithm_name field).
const searchAlgorithm = "explicit_search"

// searched is what the explicit search of a model found. A state no
// reached configuration rests in is never entered only when the search
// explored everything and no cycle raised: a cycle ends in a stoppable
// leaf or raises, so entering a stoppable leaf either rests in it or ends
// in an error.
type searched struct {
	configurations int             // the configurations the search stored
	reached        map[string]bool // the states a reached configuration rests in, and their ancestors
	// incomplete says why the search did not explore everything ("" when
	// it did): only an exhaustive search decides that a state is never
	// entered.
	incomplete string
}

// search explores the model's reachable configurations from the cold
// start, every input set per cycle (the search `verify MODEL.fcstm` runs,
// docs/fcstm.md), storing at most maxStates within timeoutMS. It returns
// nil, and says why in Undecided, when the model cannot be searched.
func (a *analysis) search(maxStates, timeoutMS int) *searched {
	if maxStates <= 0 {
		maxStates = DefaultMaxStates
	}
	if timeoutMS <= 0 {
		timeoutMS = DefaultTimeoutMS
	}
	mc, err := explicit.New(a.m)
	if err != nil {
		a.searchUndecided("the model was not searched: the cold start fails: " + err.Error())
		return nil
	}
	done := make(chan struct{})
	timer := time.AfterFunc(time.Duration(timeoutMS)*time.Millisecond, func() { close(done) })
	g := explore.Search{Machine: mc, Cap: maxStates, Done: done}.Run()
	expired := !timer.Stop()
	res := &searched{configurations: g.Len(), reached: map[string]bool{}}
	for i := range g.Len() {
		loc := mc.Location(int64(g.StateOf(i)))
		switch {
		case loc.Kind == explicit.Running:
			if s := a.m.StateByPath[loc.State]; s != nil {
				for ; s != nil; s = s.Parent {
					res.reached[s.Path] = true
				}
			}
		case loc.Kind == explicit.Undecided && res.incomplete == "":
			res.incomplete = "the search cannot go on where " + loc.Reason
		case loc.Kind == explicit.Raised && res.incomplete == "":
			// The runtime keeps nothing of a cycle that raises: the
			// states it entered before the error are in no configuration.
			res.incomplete = fmt.Sprintf("a cycle raises (%v), and the search does not see which states a cycle that raises entered", loc.Err)
		}
	}
	switch {
	case expired:
		res.incomplete = fmt.Sprintf("the search ran out of its time budget (--timeout-ms %d) after %d configurations", timeoutMS, g.Len())
	case g.Truncated:
		res.incomplete = fmt.Sprintf("the search stopped at the state cap (--max-states %d)", maxStates)
	}
	if res.incomplete != "" {
		a.searchUndecided(res.incomplete + ", so no state or transition is claimed unreachable by search: the structural diagnostics stand")
	}
	return res
}

// searchUndecided records that the search decided nothing.
func (a *analysis) searchUndecided(reason string) {
	a.out.Undecided = append(a.out.Undecided, Undecided{Code: "W_UNREACHABLE_STATE", File: a.file, Span: point(1, 1), Reason: reason})
}

// unreachedBySearch reports a state the structure lets a run enter but
// the exhaustive search never rests in. Only stoppable leaves are
// claimed: a run can pass through a composite or a pseudo state within
// one cycle without resting in it, so the search, which sees
// configurations between cycles, cannot tell that those are never
// entered.
func (a *analysis) unreachedBySearch(s *model.State, span Span) {
	if !a.neverRests(s) {
		return
	}
	r := a.searched
	a.emit("W_UNREACHABLE_STATE", s.Pos.File, span, map[string]any{
		"state_path": s.Path, "algorithm_name": searchAlgorithm, "verification_scope": "exhaustive",
		"configurations_searched": r.configurations,
	}, "state %s is never entered: the exhaustive search from the cold start, every input set in every cycle, searched all %d reachable configurations and none rests in it", s.Path, r.configurations)
	d := &a.out.Diagnostics[len(a.out.Diagnostics)-1]
	d.Basis = BasisSearch
}
