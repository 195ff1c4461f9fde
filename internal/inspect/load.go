package inspect

import (
	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// loadErrors turns the errors of a model that does not load into
// diagnostics, each of error severity.
func (a *analysis) loadErrors(err error) {
	for _, e := range ast.Errors(err, a.file) {
		file := e.File
		if file == "" {
			file = a.file
		}
		span := point(e.Pos.Line, e.Pos.Col)
		if !e.Pos.IsValid() {
			span = point(1, 1)
		} else if file == a.file {
			span = a.src.word(e.Pos.Line, e.Pos.Col)
		}
		refs := map[string]any{}
		if _, shared := a.codes[e.Code]; shared {
			refs = a.loadRefs(e)
			if e.Code == "E_DUPLICATE_VAR" && file == a.file {
				span = a.declSpanAt(e.Pos.Line, e.Pos.Col)
			}
		}
		a.out.Diagnostics = append(a.out.Diagnostics, Diagnostic{
			Code: e.Code, Severity: SeverityError, Basis: BasisStructural, File: file, Span: span, Refs: refs, Message: e.Msg,
		})
	}
}

// loadRefs fills the refs of a shared load-error code from the syntax
// tree: the declaration whose name is at the error's position.
func (a *analysis) loadRefs(e *ast.Error) map[string]any {
	refs := map[string]any{}
	if e.Code == "E_DUPLICATE_VAR" {
		refs["var_name"] = a.src.wordText(e.Pos.Line, e.Pos.Col)
		return refs
	}
	if a.tree == nil || a.tree.Root == nil || e.File != a.file {
		return refs
	}
	declStates(a.tree.Root, "", func(path string, d *ast.StateDecl) {
		for _, it := range d.Items {
			c, ok := it.(*ast.StateDecl)
			if !ok || c.Name.Pos.Line != e.Pos.Line || c.Name.Pos.Col != e.Pos.Col {
				continue
			}
			switch e.Code {
			case "E_DUPLICATE_STATE":
				refs["state_name"], refs["parent_path"] = c.Name.Name, path
			case "E_PSEUDO_NOT_LEAF":
				refs["state_path"] = path + "." + c.Name.Name
			}
		}
	})
	return refs
}

// declSpanAt is the span of the root-file variable declaration whose
// name is at line:col (pyfcstm's variable_declaration), or the name's.
func (a *analysis) declSpanAt(line, col int) Span {
	if a.tree != nil {
		for _, d := range a.tree.Vars {
			if d.Name.Pos.Line == line && d.Name.Pos.Col == col {
				return a.src.statement(model.Pos{File: a.file, Line: d.Pos.Line, Col: d.Pos.Col})
			}
		}
	}
	return a.src.word(line, col)
}
