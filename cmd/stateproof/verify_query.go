package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/stateproof/stateproof/internal/fcstm/decide"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/report"
)

// verifyQueryFlags ask verify to decide an FBMCQ query on an FCSTM model
// by explicit search (docs/fcstm.md, "Queries decided by search").
type verifyQueryFlags struct {
	file, check string
	allDepths   bool
}

func (qf *verifyQueryFlags) register(f *pflag.FlagSet) {
	f.StringVarP(&qf.file, "query", "q", "", "decide the FBMCQ query in `FILE` by explicit search (FCSTM models; docs/fcstm.md)")
	f.StringVar(&qf.check, "check", "", "decide the FBMCQ query `TEXT` by explicit search (FCSTM models)")
	f.BoolVar(&qf.allDepths, "all-depths", false, "decide the query for every depth, its bound aside (reach, cover, forbid, invariant; undecided when the reachable space is not finite within --max-states)")
}

func (qf *verifyQueryFlags) given() bool { return qf.file != "" || qf.check != "" }

// queryModes are the verify modes a query does not reach: each runs
// something other than the single search that answers it.
var queryModes = []string{"partition", "local-partitions", "swarm", "hash-check", "before-model", "baseline", "prove"}

// refusal is the refusal of a query flag the other flags or the model
// leave without effect, or "".
func (qf *verifyQueryFlags) refusal(cmd *cobra.Command, fcstm bool) string {
	q := setFlag(cmd, "query", "check")
	switch {
	case qf.file != "" && qf.check != "":
		return "--query and --check cannot be combined: give one query"
	case q == "" && qf.allDepths:
		return "--all-depths has no effect without --query or --check: it sets the depth of a query"
	case q == "":
		return ""
	case !fcstm:
		return q + " decides FBMCQ queries on FCSTM models: on a JSON model use stateproof bmc " + q + " (docs/queries.md)"
	}
	if f := setFlag(cmd, queryModes...); f != "" {
		return f + " cannot be combined with " + q + ": the query is decided by one in-memory search of the FCSTM model (docs/fcstm.md)"
	}
	return ""
}

// answer reads the query and decides it (decide.DecideText). A query
// that cannot be read, bound or decided is a refusal (code and message);
// err is an internal error.
func (qf *verifyQueryFlags) answer(rd input.Reader, m *model.Model, maxStates int) (answers []report.QueryAnswer, code, msg string, err error) {
	file, text := "<check>", qf.check
	if qf.file != "" {
		data, err := rd.ReadFile(qf.file)
		if err != nil {
			return nil, "INPUT_UNREADABLE", fmt.Sprintf("cannot read %s: %v", qf.file, err), nil
		}
		file, text = qf.file, string(data)
	}
	a, err := decide.DecideText(m, file, text, decide.Options{MaxStates: maxStates, AllDepths: qf.allDepths})
	var qe *decide.QueryError
	switch {
	case errors.As(err, &qe):
		return nil, qe.Code, qe.Error(), nil
	case err != nil:
		return nil, "", "", err
	}
	return []report.QueryAnswer{a}, "", "", nil
}
