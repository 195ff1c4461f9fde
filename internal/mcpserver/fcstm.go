package mcpserver

import (
	"fmt"
	"github.com/stateproof/stateproof/internal/input"
	"path/filepath"
	"strings"

	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/report"
)

// verifyFCSTM lints and searches the model of in when it is FCSTM: a path ending in
// .fcstm, or source text given inline as a string. ok is false for a JSON
// model, which the caller verifies as before.
func verifyFCSTM(in *VerifyInput, files input.Reader) (doc report.Obj, ok bool, err error) {
	src, inline := in.Model.(string)
	if !inline && !strings.EqualFold(filepath.Ext(in.Path), ".fcstm") {
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
	if _, err := explicit.Verify(res, explicit.Options{MaxStates: maxStates}); err != nil {
		return nil, true, err
	}
	return res.Report.JSON(), true, nil
}
