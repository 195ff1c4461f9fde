package inspect

import (
	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/inspect/codes"
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
		code := codes.Canonical(e.Code)
		if _, shared := a.codes[code]; shared {
			refs = a.loadRefs(e, code)
			if code == "E_DUPLICATE_VAR" && file == a.file {
				span = a.declSpanAt(e.Pos.Line, e.Pos.Col)
			}
		} else {
			code = e.Code
		}
		a.out.Diagnostics = append(a.out.Diagnostics, Diagnostic{
			Code: code, Severity: SeverityError, Basis: BasisStructural, File: file, Span: span, Refs: refs, Message: e.Msg,
		})
	}
}

// loadRefs fills the refs of a load error inspect reports under
// pyfcstm's code from the syntax tree: the declaration whose name, or the
// action whose keyword or name, is at the error's position.
func (a *analysis) loadRefs(e *ast.Error, code string) map[string]any {
	refs := map[string]any{}
	if code == "E_DUPLICATE_VAR" {
		refs["var_name"] = a.src.wordText(e.Pos.Line, e.Pos.Col)
		return refs
	}
	if a.tree == nil || a.tree.Root == nil || e.File != a.file {
		return refs
	}
	at := func(p ast.Pos) bool { return p.Line == e.Pos.Line && p.Col == e.Pos.Col }
	declStates(a.tree.Root, "", func(path string, d *ast.StateDecl) {
		for _, it := range d.Items {
			switch it := it.(type) {
			case *ast.StateDecl:
				if !at(it.Name.Pos) {
					continue
				}
				switch code {
				case "E_DUPLICATE_STATE":
					refs["state_name"], refs["parent_path"] = it.Name.Name, path
				case "E_PSEUDO_NOT_LEAF":
					refs["state_path"] = path + "." + it.Name.Name
				}
			case *ast.Action:
				switch {
				case code == "E_DURING_ASPECT_INVALID" && at(it.Pos):
					refs["state_path"], refs["state_kind"], refs["aspect"] = path, "leaf", nil
					if e.Code == "E_DURING_COMPOSITE" {
						refs["state_kind"] = "composite"
					}
					if it.When != "" {
						refs["aspect"] = it.When
					}
				case code == "E_DUPLICATE_FUNCTION_NAME" && it.Name != nil && at(it.Name.Pos):
					refs["function_name"], refs["state_path"], refs["stage"] = it.Name.Name, path, stageName(it)
				}
			}
		}
	})
	return refs
}

// stageName is pyfcstm's name of the stage an action runs in.
func stageName(act *ast.Action) string {
	switch {
	case act.Aspect:
		return "during_aspect"
	case act.Stage == ast.Enter:
		return "enter"
	case act.Stage == ast.Exit:
		return "exit"
	}
	return "during"
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
