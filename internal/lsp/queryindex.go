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

// queryOccurrences lists the names a query (FBMCQ) or RSC file writes,
// each segment of a dotted name an occurrence of its own.
func queryOccurrences(path, src string) []occurrence {
	var out []occurrence
	for _, n := range queryNames(path, src) {
		out = append(out, pathOccs(n.kind, n.name, n.start)...)
	}
	return out
}

// queryName is a whole name a query writes, at the byte offset of its
// first character.
type queryName struct {
	kind  kind
	name  string
	start int
}

// queryNames lists the names a query or RSC file writes: states, events,
// variables and actions.
func queryNames(path, src string) []queryName {
	var out []queryName
	if strings.EqualFold(filepath.Ext(path), ".rsc") {
		for _, m := range rscState.FindAllStringSubmatchIndex(src, -1) {
			out = append(out, queryName{kState, src[m[2]:m[3]], m[2]})
		}
		return out
	}
	q, err := query.Parse(path, src)
	if err != nil {
		return nil
	}
	var es []expr.Expr
	if q.Init != nil {
		out = appendName(out, src, kState, q.Init.State)
		for _, h := range q.Init.Havoc {
			out = appendName(out, src, kVar, h)
		}
		es = append(es, q.Init.Where)
	}
	for _, a := range q.Assumes {
		es = append(es, a.Cond)
		out = appendName(out, src, kEvent, a.Event)
		for _, n := range a.Pool {
			out = appendName(out, src, kEvent, n)
		}
	}
	es = append(es, q.Check.Body, q.Check.Trigger, q.Check.Target)
	for _, e := range es {
		out = append(out, exprNames(src, e)...)
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

// appendName appends a query name, quoted or bare; one written with
// escapes is left out (it cannot be edited in place).
func appendName(out []queryName, src string, k kind, n query.Name) []queryName {
	if n.Name == "" || !n.Span.Start.IsValid() {
		return out
	}
	off := n.Span.Start.Offset
	if off < len(src) && (src[off] == '"' || src[off] == '\'') {
		off++
	}
	if !strings.HasPrefix(src[off:], n.Name) {
		return out
	}
	return append(out, queryName{k, n.Name, off})
}

// exprNames are the variables, states, events and actions an expression
// names: bare variables (not the keywords cycle, current), var("x"),
// active("S"), event("e") and called("A").
func exprNames(src string, e expr.Expr) []queryName {
	var out []queryName
	expr.Inspect(e, func(x expr.Expr) bool {
		switch x := x.(type) {
		case *expr.Ident:
			if !query.IsKeyword(x.Name) && x.Loc.Start.IsValid() {
				out = append(out, queryName{kVar, x.Name, x.Loc.Start.Offset})
			}
		case *expr.AtomCall:
			k, ok := map[string]kind{"var": kVar, "active": kState, "event": kEvent, "called": kAction, "call_count": kAction}[x.Name]
			if !ok || len(x.Args) == 0 || x.Args[0].Kind != expr.ArgPositional {
				return true
			}
			if lit, ok := x.Args[0].Value.(*expr.StringLit); ok {
				out = appendName(out, src, k, query.Name{Name: lit.Value, Span: lit.Loc})
			}
			return false
		}
		return true
	})
	return out
}
