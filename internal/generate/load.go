package generate

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// The loading that stateproof generate and the MCP tool generate share,
// so that a model loads, and fails to, the same way through both.

// FileModel generates the code of the model at path, read through rd: an
// FCSTM model when path ends in .fcstm, else a JSON model. A model that
// does not load is an error whose text locates it (file:line:col with the
// source line for FCSTM); one the target cannot run is an *Unsupported.
// opts.ModelName defaults to path.
func FileModel(rd input.Reader, path, target string, opts Options) ([]File, error) {
	if opts.ModelName == "" {
		opts.ModelName = path
	}
	if strings.EqualFold(filepath.Ext(path), ".fcstm") {
		m, err := model.LoadWith(path, model.ReaderOptions(rd))
		if err != nil {
			return nil, errors.New(ast.Details(err))
		}
		return Generate(m, target, opts)
	}
	data, err := rd.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	return jsonSource(path, data, target, opts)
}

// SourceModel is FileModel of a model given as text named name: FCSTM
// source when fcstm is set (its imports read through rd, relative to the
// import root), else a JSON model.
func SourceModel(rd input.Reader, name string, src []byte, fcstm bool, target string, opts Options) ([]File, error) {
	if opts.ModelName == "" {
		opts.ModelName = name
	}
	if !fcstm {
		return jsonSource(name, src, target, opts)
	}
	m, err := model.Parse(name, string(src), model.ReaderOptions(rd))
	if err != nil {
		return nil, errors.New(ast.Details(err))
	}
	return Generate(m, target, opts)
}

// jsonSource decodes and validates a JSON model and generates its code.
func jsonSource(name string, data []byte, target string, opts Options) ([]File, error) {
	res, err := jsonmodel.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if !res.Valid() {
		return nil, fmt.Errorf("%s is not a valid model: %s", name, strings.Join(res.Errors, "; "))
	}
	return GenerateJSON(res.Model, name, target, opts)
}
