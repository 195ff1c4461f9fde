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
		if c, shared := a.codes[code]; shared {
			refs = a.loadRefs(e, code)
			if code == "E_DUPLICATE_VAR" && file == a.file {
				span = a.declSpanAt(e.Pos.Line, e.Pos.Col)
			}
			if code != e.Code && !hasAll(refs, c.Refs) {
				// pyfcstm's code promises refs the tree does not give
				// here (an error in an imported file): the loader's code
				code, refs = e.Code, map[string]any{}
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
	if code == "E_UNDEFINED_VAR" {
		if site := a.readSite(e.Pos); site != "" {
			refs["var_name"], refs["referenced_in"] = a.src.wordText(e.Pos.Line, e.Pos.Col), site
		}
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

// readSite says, with pyfcstm's names, where the root-file expression at
// p is: a transition's guard or effect, or an action of a stage; "" when
// p is in none of them.
func (a *analysis) readSite(p ast.Pos) string {
	in := func(at ast.Pos) bool {
		sp := a.src.statement(model.Pos{File: a.file, Line: at.Line, Col: at.Col})
		return !before(p, Span{Line: sp.Line, Column: sp.Column}) && before(p, Span{Line: sp.EndLine, Column: sp.EndColumn})
	}
	site := "" // an initial value reads no variable at all (E_INIT_NOT_CONSTANT)
	declStates(a.tree.Root, "", func(_ string, d *ast.StateDecl) {
		for _, it := range d.Items {
			switch it := it.(type) {
			case *ast.Transition:
				if in(it.Pos) {
					site = "guard"
					if len(it.Effect) > 0 && !before(p, stmtStart(it.Effect[0])) {
						site = "effect"
					}
				}
			case *ast.Forced:
				if in(it.Pos) {
					site = "guard"
				}
			case *ast.Action:
				if in(it.Pos) {
					site = stageName(it)
				}
			}
		}
	})
	return site
}

// before reports whether p comes before the start of sp.
func before(p ast.Pos, sp Span) bool {
	return p.Line < sp.Line || p.Line == sp.Line && p.Col < sp.Column
}

// stmtStart is where an effect statement starts.
func stmtStart(s ast.Stmt) Span {
	p := ast.Pos{}
	switch s := s.(type) {
	case *ast.Assign:
		p = s.Pos
	case *ast.If:
		p = s.Pos
	}
	return Span{Line: p.Line, Column: p.Col}
}

// hasAll reports whether refs holds every field of fields.
func hasAll(refs map[string]any, fields []string) bool {
	for _, f := range fields {
		if _, ok := refs[f]; !ok {
			return false
		}
	}
	return true
}
