package lsp

import "path/filepath"

// queryTarget resolves the name under the cursor in a query or RSC file
// to its declaration in the FCSTM model the query is checked against.
func (s *server) queryTarget(d *document, pos Position) (*target, occurrence, bool) {
	off := d.text.offset(pos)
	var hit *occurrence
	for _, o := range queryOccurrences(d.path, d.text.src) {
		if o.start <= off && off <= o.end {
			hit = &o
			break
		}
	}
	if hit == nil {
		return nil, occurrence{}, false
	}
	mp, _, ok := s.ws.queryModel(d)
	if !ok || filepath.Ext(mp) != ".fcstm" {
		return nil, *hit, true
	}
	ix, src := s.ws.indexOfPath(mp)
	if ix == nil {
		return nil, *hit, true
	}
	if decl, ok := ix.declOf(hit.kind, hit.key); ok {
		return &target{decl, ix, src}, *hit, true
	}
	return nil, *hit, true
}

// queryDefinition is definition in a query file: the model's
// declaration of the state, event, variable or action named there.
func (s *server) queryDefinition(d *document, pos Position) []Location {
	t, _, ok := s.queryTarget(d, pos)
	if !ok || t == nil {
		return nil
	}
	return []Location{{URI: t.src.uri, Range: t.src.text.rangeOf(t.occ.start, t.occ.end)}}
}

// queryHover describes the model's declaration of a name in a query.
func (s *server) queryHover(d *document, pos Position) *Hover {
	t, o, ok := s.queryTarget(d, pos)
	if !ok || t == nil {
		return nil
	}
	r := d.text.rangeOf(o.start, o.end)
	return &Hover{Contents: markupContent{Kind: "markdown", Value: t.ix.describe(t.occ)}, Range: &r}
}
