package lsp

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/query"
)

// queryIndex is the names a query or RSC file writes, with the model's
// keys: states and events by full path, variables by name.
type queryIndex struct {
	src  *source
	occs []occurrence
}

// queriesOf returns the query and RSC files checked against the model at
// modelPath: the open ones, and those in the model's directory.
func (w *workspace) queriesOf(modelPath string) []*queryIndex {
	seen := map[string]bool{}
	var paths []string
	for _, u := range w.uris() {
		if d := w.get(u); d != nil && (d.lang == langFBMCQ || d.lang == langRSC) {
			paths = append(paths, d.path)
		}
	}
	if entries, err := os.ReadDir(filepath.Dir(modelPath)); err == nil {
		for _, e := range entries {
			if ext := filepath.Ext(e.Name()); e.Type().IsRegular() && (ext == ".fbmcq" || ext == ".rsc") {
				paths = append(paths, filepath.Join(filepath.Dir(modelPath), e.Name()))
			}
		}
	}
	var out []*queryIndex
	for _, p := range paths {
		abs, _ := filepath.Abs(p)
		if seen[abs] {
			continue
		}
		seen[abs] = true
		src, err := w.sourceOf(p)
		if err != nil {
			continue
		}
		d := &document{path: p, text: src.text}
		mp, _, ok := w.queryModel(d)
		if !ok || !samePath(mp, modelPath) {
			continue
		}
		out = append(out, &queryIndex{src: src, occs: queryOccurrences(p, src.text.src)})
	}
	return out
}

var rscState = regexp.MustCompile(`(?m)^\s*rsc\s+"([^"\\]*)"`)

// queryOccurrences lists the names a query (FBMCQ) or RSC file writes.
func queryOccurrences(path, src string) []occurrence {
	var out []occurrence
	if strings.EqualFold(filepath.Ext(path), ".rsc") {
		for _, m := range rscState.FindAllStringSubmatchIndex(src, -1) {
			out = append(out, pathOccs(kState, src[m[2]:m[3]], m[2])...)
		}
		return out
	}
	q, err := query.Parse(path, src)
	if err != nil {
		return nil
	}
	var es []expr.Expr
	if q.Init != nil {
		out = append(out, nameOccs(src, kState, q.Init.State)...)
		for _, h := range q.Init.Havoc {
			out = append(out, nameOccs(src, kVar, h)...)
		}
		es = append(es, q.Init.Where)
	}
	for _, a := range q.Assumes {
		es = append(es, a.Cond)
		out = append(out, nameOccs(src, kEvent, a.Event)...)
		for _, n := range a.Pool {
			out = append(out, nameOccs(src, kEvent, n)...)
		}
	}
	es = append(es, q.Check.Body, q.Check.Trigger, q.Check.Target)
	for _, e := range es {
		out = append(out, exprOccs(src, e)...)
	}
	return out
}

// pathOccs are the occurrences of a dotted name written at off: each
// segment but the last a state, the last of kind last.
func pathOccs(last kind, name string, off int) []occurrence {
	var out []occurrence
	segs := strings.Split(name, ".")
	key, at := "", off
	for i, seg := range segs {
		key = join(key, seg)
		k := kState
		if i == len(segs)-1 {
			k = last
		}
		if seg != "" {
			out = append(out, occurrence{kind: k, key: key, start: at, end: at + len(seg)})
		}
		at += len(seg) + 1
	}
	return out
}

// nameOccs are the occurrences of a query name, quoted or bare.
func nameOccs(src string, k kind, n query.Name) []occurrence {
	if n.Name == "" || !n.Span.Start.IsValid() {
		return nil
	}
	off := n.Span.Start.Offset
	if off < len(src) && (src[off] == '"' || src[off] == '\'') {
		off++
	}
	if !strings.HasPrefix(src[off:], n.Name) {
		return nil // written with escapes: not renamed in place
	}
	return pathOccs(k, n.Name, off)
}

// exprOccs are the variables, states, events and actions an expression
// names: bare variables, var("x"), active("S"), event("e") and called("A").
func exprOccs(src string, e expr.Expr) []occurrence {
	var out []occurrence
	expr.Inspect(e, func(x expr.Expr) bool {
		switch x := x.(type) {
		case *expr.Ident:
			if x.Name != "cycle" && x.Loc.Start.IsValid() {
				out = append(out, occurrence{kind: kVar, key: x.Name, start: x.Loc.Start.Offset, end: x.Loc.Start.Offset + len(x.Name)})
			}
		case *expr.AtomCall:
			k, ok := map[string]kind{"var": kVar, "active": kState, "event": kEvent, "called": kAction, "call_count": kAction}[x.Name]
			if !ok || len(x.Args) == 0 || x.Args[0].Kind != expr.ArgPositional {
				return true
			}
			if lit, ok := x.Args[0].Value.(*expr.StringLit); ok {
				out = append(out, nameOccs(src, k, query.Name{Name: lit.Value, Span: lit.Loc})...)
			}
			return false
		}
		return true
	})
	return out
}
