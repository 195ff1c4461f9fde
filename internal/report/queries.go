package report

import (
	"fmt"
	"strings"
)

// QueryAnswer is verify's answer to one FBMCQ query on an FCSTM model
// (-q/--check, docs/fcstm.md "Queries decided by search"), in the
// vocabulary of stateproof/bmc/v1 so that the two engines cross-check.
type QueryAnswer struct {
	Query     string // the query's canonical text
	Kind      string // reach, forbid, invariant
	Bound     int
	AllDepths bool // --all-depths: decided for every depth, Bound aside
	Outcome   string
	Reason    string // why an undecided answer is undecided; "" otherwise
	// Frame is the frame of the evidence (the witness's goal, the
	// counterexample's violation), Path the steps that reach it; -1 and
	// nil when the answer has none.
	Frame  int
	Path   []Step
	States int // the nodes the search stored
	// Loop is the frame a lasso counterexample (an ltl check's) loops
	// back to: its last frame is frame Loop again and the steps from
	// Loop on repeat forever; -1 for evidence that is a finite run.
	Loop int
}

// JSON renders the answer with keys in contract order.
func (a *QueryAnswer) JSON() Obj {
	o := Obj{{"query", a.Query}, {"kind", a.Kind}, {"bound", a.Bound}}
	if a.AllDepths {
		o = append(o, KV{"allDepths", true})
	}
	o = append(o, KV{"outcome", a.Outcome}, KV{"engine", "explicit"})
	if a.Reason != "" {
		o = append(o, KV{"reason", a.Reason})
	}
	if a.Frame >= 0 {
		o = append(o, KV{"frame", a.Frame}, KV{"path", pathJSON(a.Path)})
		if a.Loop >= 0 {
			o = append(o, KV{"loopStart", a.Loop})
		}
	}
	return append(o, KV{"states", a.States})
}

// writeQueries prints one line per answer, and a witness's path (a
// counterexample's is in its finding).
func writeQueries(b *strings.Builder, qs []QueryAnswer) {
	if len(qs) == 0 {
		return
	}
	b.WriteString("\nQueries (explicit search):\n")
	for _, q := range qs {
		bound := fmt.Sprintf("bound %d", q.Bound)
		if q.AllDepths {
			bound = "every depth"
		}
		fmt.Fprintf(b, "  %s\n    %s (%s, %d states)", strings.TrimSpace(q.Query), q.Outcome, bound, q.States)
		if q.Frame >= 0 {
			fmt.Fprintf(b, " at frame %d", q.Frame)
		}
		if q.Loop >= 0 && q.Frame >= 0 {
			fmt.Fprintf(b, ", which is frame %d again (a lasso)", q.Loop)
		}
		b.WriteString("\n")
		if q.Reason != "" {
			fmt.Fprintf(b, "    %s\n", q.Reason)
		}
		if q.Outcome == "witness_found" {
			fmt.Fprintf(b, "    path: %s\n", FormatPath(q.Path))
		}
	}
}
