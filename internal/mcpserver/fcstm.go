package mcpserver

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/stateproof/stateproof/internal/fcstm/decide"
	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/report"
)

// verifyFCSTM lints and searches the model of in when it is FCSTM: a path ending in
// .fcstm, or source text given inline as a string; with a query, it
// decides the query instead of searching the whole space. ok is false
// for a JSON model, which the caller verifies as before.
func verifyFCSTM(in *VerifyInput, files input.Reader) (doc report.Obj, ok bool, err error) {
	src, inline := in.Model.(string)
	fcstm := inline || strings.EqualFold(filepath.Ext(in.Path), ".fcstm")
	if err := in.queryRefusal(fcstm); err != nil {
		return nil, true, err
	}
	if !fcstm {
		return nil, false, nil
	}
	switch {
	case inline && in.Path != "":
		return nil, true, fmt.Errorf("give the model inline or by path, not both")
	case in.BeforeModel != nil || len(in.Mapping) > 0:
		return nil, true, fmt.Errorf("beforeModel and stateMapping apply to JSON models only, not to FCSTM models")
	}
	var res *lint.Result
	if inline {
		res = lint.CheckSource("<inline model>", []byte(src), model.ReaderOptions(files))
	} else if res, err = lint.Check(in.Path, model.ReaderOptions(files)); err != nil {
		return nil, true, err
	}
	maxStates := 10000
	if in.MaxStates != nil {
		maxStates = *in.MaxStates
	}
	if err := report.CheckMaxStates(maxStates); err != nil {
		return nil, true, err
	}
	if in.Query == "" && in.QueryPath == "" {
		if _, err := explicit.Verify(res, explicit.Options{MaxStates: maxStates}); err != nil {
			return nil, true, err
		}
		return res.Report.JSON(), true, nil
	}
	if res.Model != nil {
		// As on the command line, the query's answer replaces the
		// whole-space search (docs/fcstm.md, "Queries decided by search").
		res.Report.MaxStates = maxStates
		a, err := in.decide(files, res.Model, maxStates)
		if err != nil {
			return nil, true, err
		}
		res.Report.Queries = []report.QueryAnswer{a}
		res.Report.Checks = append(res.Report.Checks, decide.Check(res.Report.Queries))
	}
	return res.Report.JSON(), true, nil
}

// queryRefusal is the error of query arguments that cannot apply: a query
// on a JSON model (bmc decides those), two queries, allDepths alone.
func (in *VerifyInput) queryRefusal(fcstm bool) error {
	q := in.Query != "" || in.QueryPath != ""
	switch {
	case in.Query != "" && in.QueryPath != "":
		return fmt.Errorf("give the query as query or as queryPath, not both")
	case !q && in.AllDepths:
		return fmt.Errorf("allDepths has no effect without query or queryPath: it sets the depth of a query")
	case q && !fcstm:
		return fmt.Errorf("query and queryPath decide FBMCQ queries on FCSTM models; for a JSON model use the bmc tool (docs/queries.md)")
	}
	return nil
}

// decide reads the query of in and decides it on m by explicit search,
// as verify -q/--check does (decide.DecideText); a query that cannot be
// read, bound or decided is an error with its location.
func (in *VerifyInput) decide(files input.Reader, m *model.Model, maxStates int) (report.QueryAnswer, error) {
	file, text := "<query>", in.Query
	if in.QueryPath != "" {
		data, err := files.ReadFile(in.QueryPath)
		if err != nil {
			return report.QueryAnswer{}, fmt.Errorf("cannot read %s: %w", in.QueryPath, err)
		}
		file, text = in.QueryPath, string(data)
	}
	return decide.DecideText(m, file, text, decide.Options{MaxStates: maxStates, AllDepths: in.AllDepths})
}
