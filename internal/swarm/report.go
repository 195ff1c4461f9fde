package swarm

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Schemas of the two report kinds.
const (
	MemberSchema = "stateproof/swarm/v1"
	MergeSchema  = "stateproof/swarm-merge/v1"
)

// Verdicts. A swarm never passes.
const (
	Fail      = "fail"
	Undecided = "undecided"
)

// Step is one step of a path, from a state to the next. For a JSON model
// it is the model transition Transition (its index in the model's
// transitions) by its from, event and to; for an FCSTM model it is a
// cycle, Event its input set in braces ("{}" for the empty cycle), with
// no Transition (docs/scale.md#swarm).
type Step struct {
	From       string `json:"from"`
	Event      string `json:"event"`
	To         string `json:"to"`
	Transition *int   `json:"transition,omitempty"`
}

// Violation is an invariant a member found violated, with the path from
// the initial runtime to the violating one.
type Violation struct {
	Code      string `json:"code"`
	Invariant string `json:"invariant"`
	Message   string `json:"message"`
	Path      []Step `json:"path"`
	// Merge only: the reports that found it, the length of the shortest
	// path they found, and whether the path is a shortest one (found by a
	// breadth-first search from the initial runtime that did not stop at
	// its cap first).
	FoundBy        []string `json:"foundBy,omitempty"`
	FoundLength    *int     `json:"foundLength,omitempty"`
	ProvedShortest *bool    `json:"provedShortest,omitempty"`
	// ShortenStopped says, when set, that the merge's time budget ran out
	// before the shortening finished: the path from where it stopped on is
	// as found, not shortened.
	ShortenStopped string `json:"shortenStopped,omitempty"`
}

// Report is a member's report (MemberSchema) or a merge's (MergeSchema).
type Report struct {
	Schema    string `json:"schema"`
	Model     string `json:"model"`
	ModelHash string `json:"modelHash"`
	// A member's plan and what it explored.
	Member     *int   `json:"member,omitempty"`
	Members    *int   `json:"members,omitempty"`
	Seed       *int64 `json:"seed,omitempty"`
	DepthLimit *int   `json:"depthLimit,omitempty"`
	Cap        int    `json:"cap"`
	Explored   *int   `json:"explored,omitempty"`
	// A merge's inputs.
	Reports []string `json:"reports,omitempty"`

	Verdict       string      `json:"verdict"`
	VerdictReason string      `json:"verdictReason"`
	Violations    []Violation `json:"violations"`
	ExitCode      int         `json:"exit_code"`
}

// ExitCode is the exit status of a verdict: 1 for a violation, 3 for
// undecided (docs/reports.md#exit-codes).
func ExitCode(verdict string) int {
	if verdict == Fail {
		return 1
	}
	return 3
}

// Encode renders a report as indented JSON with a final newline.
func (r *Report) Encode() ([]byte, error) {
	if r.Violations == nil {
		r.Violations = []Violation{}
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// Decode reads a member report, refusing unknown fields and other schemas.
func Decode(name string, data []byte) (*Report, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Report
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: not a swarm report: %v", name, err)
	}
	if r.Schema != MemberSchema {
		return nil, fmt.Errorf("%s: schema %q is not %q (a report of verify --swarm --json)", name, r.Schema, MemberSchema)
	}
	for i, v := range r.Violations {
		if v.Invariant == "" {
			return nil, fmt.Errorf("%s: $.violations[%d].invariant is missing", name, i)
		}
	}
	return &r, nil
}
