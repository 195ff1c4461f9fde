package lsp

import (
	"context"

	"github.com/stateproof/stateproof/internal/fcstm/ast"
)

func (s *server) documentSymbol(_ context.Context, p documentParams) (any, error) {
	d, ix, err := s.fcstmDoc(p.TextDocument.URI)
	if err != nil || ix == nil {
		return []DocumentSymbol{}, err
	}
	t := d.text
	var out []DocumentSymbol
	for _, v := range ix.file.Vars {
		typ := "int"
		if v.Float {
			typ = "float"
		}
		r := t.rangeOf(v.Name.Pos.Offset, v.Name.Pos.Offset+len(v.Name.Name))
		out = append(out, DocumentSymbol{Name: v.Name.Name, Detail: typ, Kind: symVariable, Range: r, SelectionRange: r})
	}
	return append(out, ix.stateSymbol(ix.file.Root)), nil
}

// stateSymbol is a state's outline entry: its child states nested, its
// events and its named actions.
func (ix *index) stateSymbol(st *ast.StateDecl) DocumentSymbol {
	t := ix.text
	sp := ix.spans[st]
	sel := t.rangeOf(st.Name.Pos.Offset, st.Name.Pos.Offset+len(st.Name.Name))
	full := t.rangeOf(sp[0], sp[1])
	if sp[1] <= sp[0] {
		full = sel
	}
	sym := DocumentSymbol{Name: st.Name.Name, Detail: st.Display, Kind: symClass, Range: full, SelectionRange: sel}
	for _, it := range st.Items {
		switch it := it.(type) {
		case *ast.StateDecl:
			sym.Children = append(sym.Children, ix.stateSymbol(it))
		case *ast.EventDecl:
			r := t.rangeOf(it.Name.Pos.Offset, it.Name.Pos.Offset+len(it.Name.Name))
			sym.Children = append(sym.Children, DocumentSymbol{Name: it.Name.Name, Detail: it.Display, Kind: symEvent, Range: r, SelectionRange: r})
		case *ast.Action:
			if it.Name != nil {
				r := t.rangeOf(it.Name.Pos.Offset, it.Name.Pos.Offset+len(it.Name.Name))
				sym.Children = append(sym.Children, DocumentSymbol{Name: it.Name.Name, Detail: actionKind(it), Kind: symMethod, Range: r, SelectionRange: r})
			}
		case *ast.Import:
			r := t.rangeOf(it.Alias.Pos.Offset, it.Alias.Pos.Offset+len(it.Alias.Name))
			sym.Children = append(sym.Children, DocumentSymbol{Name: it.Alias.Name, Detail: "import " + it.File, Kind: symModule, Range: r, SelectionRange: r})
		}
	}
	return sym
}
