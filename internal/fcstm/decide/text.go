package decide

import (
	"errors"
	"fmt"

	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/fcstm/lower"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/report"
)

// QueryError is a query that cannot be bound or decided, as opposed to
// an internal error: Code is the verify report's finding code for it.
type QueryError struct {
	Code string // QUERY_INVALID or QUERY_UNSUPPORTED
	Err  error
}

func (e *QueryError) Error() string { return e.Err.Error() }
func (e *QueryError) Unwrap() error { return e.Err }

// DecideText parses the FBMCQ text (file names it in messages), binds it
// to m, decides it by explicit search and returns its report entry: the
// one sequence verify -q/--check and the MCP verify tool share, so that
// both accept the same queries (ltl included) and refuse the same ones.
// An error is a *QueryError unless it is internal.
func DecideText(m *model.Model, file, text string, opts Options) (report.QueryAnswer, error) {
	invalid := func(err error) (report.QueryAnswer, error) {
		return report.QueryAnswer{}, &QueryError{Code: "QUERY_INVALID", Err: err}
	}
	sys, err := lower.Lower(m)
	if err != nil {
		return invalid(fmt.Errorf("the query cannot be bound: %w", err))
	}
	q, err := query.Parse(file, text)
	if err == nil {
		err = query.Bind(q, sys, query.BindOptions{LTL: true})
	}
	if err != nil {
		return invalid(err)
	}
	mc, err := explicit.New(m)
	if err != nil {
		return invalid(fmt.Errorf("the query cannot be decided: the cold start fails (%w)", err))
	}
	r, err := Decide(m, sys, mc, q, opts)
	var ref *Refusal
	var bad *InvalidError
	switch {
	case errors.As(err, &ref):
		return report.QueryAnswer{}, &QueryError{Code: "QUERY_UNSUPPORTED", Err: err}
	case errors.As(err, &bad):
		return invalid(err)
	case err != nil:
		return report.QueryAnswer{}, err
	}
	return Answer(q, r, opts.AllDepths), nil
}
