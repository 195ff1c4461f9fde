package lsp

import (
	"context"
	"regexp"
	"sort"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
)

var fcstmKeywords = []string{
	"import", "def", "event", "as", "named", "pseudo", "state", "enter", "exit", "during",
	"before", "after", "abstract", "ref", "effect", "if", "else", "int", "float",
}

var queryKeywords = []string{
	"init", "cold", "terminated", "state", "where", "havoc", "assume", "always", "at", "event",
	"events", "cardinality", "any", "at_most_one", "check", "reach", "forbid", "invariant",
	"must_reach", "exists_always", "response", "cover", "trigger", "within", "var", "cycle",
	"active", "case", "call_count", "called", "current",
}

// refPrefix is a ref's action path being typed: `enter ref Lo`.
var refPrefix = regexp.MustCompile(`\bref\s+/?[A-Za-z0-9_.]*$`)

// eventPrefix is an event path being typed: `Go`, `X.G`, `/Bus.`.
var eventPrefix = regexp.MustCompile(`^/?[A-Za-z0-9_.]*$`)

var constants = []string{"pi", "E", "tau", "true", "false"}

func (s *server) completion(_ context.Context, p positionParams) (any, error) {
	d := s.ws.get(p.TextDocument.URI)
	if d == nil {
		return nil, errorf(codeInvalidParams, "%s is not open", p.TextDocument.URI)
	}
	off := d.text.offset(p.Position)
	var items []CompletionItem
	switch d.lang {
	case langFCSTM:
		items = s.ws.fcstmCompletion(d, off)
	case langFBMCQ, langRSC:
		items = s.ws.queryCompletion(d)
	}
	if items == nil {
		items = []CompletionItem{}
	}
	return map[string]any{"isIncomplete": false, "items": items}, nil
}

// fcstmCompletion proposes what may be written at off: after `::` the
// events of the transition's source, after `:` (or `/`) the events and
// child states of the path typed so far, from the owner (or the root);
// elsewhere keywords, variables, child states, functions and constants.
func (w *workspace) fcstmCompletion(d *document, off int) []CompletionItem {
	ix := w.indexOf(d)
	start, _ := d.text.lineBounds(d.text.lineOf(off))
	line := d.text.src[start:off]
	var owner string
	if ix != nil {
		owner = ix.stateAt(ix.translate(d.text.src, off))
	}
	if ix != nil {
		if refPrefix.MatchString(line) {
			return ix.actionItems(owner)
		}
		if base, ok := ix.eventScope(line, owner); ok {
			return ix.scopeItems(base)
		}
	}
	var items []CompletionItem
	for _, k := range fcstmKeywords {
		items = append(items, CompletionItem{Label: k, Kind: compKeyword})
	}
	for f := expr.Sin; f <= expr.Sign; f++ {
		items = append(items, CompletionItem{Label: f.String(), Kind: compFunction, Detail: "math function"})
	}
	for _, c := range constants {
		items = append(items, CompletionItem{Label: c, Kind: compConstant})
	}
	if ix == nil {
		return items
	}
	for _, v := range ix.file.Vars {
		typ := "int"
		if v.Float {
			typ = "float"
		}
		items = append(items, CompletionItem{Label: v.Name.Name, Kind: compVariable, Detail: typ})
	}
	for _, c := range ix.children(owner) {
		items = append(items, CompletionItem{Label: c, Kind: compClass, Detail: "state " + join(owner, c)})
	}
	return items
}

// eventScope reads the trigger being typed at the end of line and
// returns the scope whose events complete it.
func (ix *index) eventScope(line, owner string) (string, bool) {
	arrow := strings.LastIndex(line, "->")
	if arrow < 0 {
		return "", false
	}
	rest := line[arrow+2:]
	colon := strings.Index(rest, ":")
	if colon < 0 {
		return "", false
	}
	src := ""
	if f := strings.Fields(line[:arrow]); len(f) > 0 {
		src = strings.TrimPrefix(f[len(f)-1], "!") // after a doc block or at `!X`
	}
	term := rest[colon+1:]
	local := strings.HasPrefix(term, ":")
	term = strings.TrimPrefix(term, ":")
	if i := strings.LastIndexAny(term, "+"); i >= 0 {
		term = term[i+1:]
	}
	term = strings.TrimSpace(term)
	if !eventPrefix.MatchString(term) {
		return "", false // a guard, an effect: not an event being typed
	}
	base := owner
	switch {
	case local:
		if src != "[*]" && src != "*" && src != "" {
			base = join(owner, src)
		}
		return base, true
	case strings.HasPrefix(term, "/"):
		base = ix.rootName()
		term = term[1:]
	}
	segs := strings.Split(term, ".")
	for _, s := range segs[:len(segs)-1] {
		base = join(base, s)
	}
	return base, true
}

// scopeItems are the events directly in scope base and its child states
// (a path may go on through them).
func (ix *index) scopeItems(base string) []CompletionItem {
	seen := map[string]bool{}
	var items []CompletionItem
	for _, o := range ix.occs {
		if o.kind != kEvent || !strings.HasPrefix(o.key, base+".") {
			continue
		}
		name := o.key[len(base)+1:]
		if strings.Contains(name, ".") || seen[name] {
			continue
		}
		seen[name] = true
		items = append(items, CompletionItem{Label: name, Kind: compEvent, Detail: "event " + o.key})
	}
	for _, c := range ix.children(base) {
		items = append(items, CompletionItem{Label: c, Kind: compClass, Detail: "state " + join(base, c)})
	}
	return items
}

// children returns the names of the child states of the state at path.
func (ix *index) children(path string) []string {
	var out []string
	for p, parent := range ix.parents {
		if parent == path && p != path {
			out = append(out, p[strings.LastIndexByte(p, '.')+1:])
		}
	}
	for alias := range ix.mounts {
		if i := strings.LastIndexByte(alias, '.'); i >= 0 && alias[:i] == path {
			out = append(out, alias[i+1:])
		}
	}
	sort.Strings(out)
	return out
}

// queryCompletion proposes the FBMCQ keywords and atoms, the functions,
// and the model's variables and quoted state paths.
func (w *workspace) queryCompletion(d *document) []CompletionItem {
	var items []CompletionItem
	for _, k := range queryKeywords {
		items = append(items, CompletionItem{Label: k, Kind: compKeyword})
	}
	for f := expr.Sin; f <= expr.Sign; f++ {
		items = append(items, CompletionItem{Label: f.String(), Kind: compFunction, Detail: "math function"})
	}
	path, _, ok := w.queryModel(d)
	if !ok {
		return items
	}
	m, err := w.loadModel(path)
	if err != nil {
		return items
	}
	for _, v := range m.System.Vars {
		items = append(items, CompletionItem{Label: v.Name, Kind: compVariable, Detail: "variable"})
	}
	for _, l := range m.System.Locations {
		items = append(items, CompletionItem{Label: l.Name, Kind: compClass, Detail: "state"})
	}
	return items
}

// translate maps an offset in src, a newer text than the index's, to the
// index's text: unchanged before the edited region, shifted after it, at
// its start inside it. It is how a last good index keeps locating the
// cursor while the text does not parse.
func (ix *index) translate(src string, off int) int {
	old := ix.text.src
	if old == src {
		return off
	}
	p := 0
	for p < len(old) && p < len(src) && old[p] == src[p] {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(src)-p && old[len(old)-1-s] == src[len(src)-1-s] {
		s++
	}
	switch {
	case off <= p:
		return off
	case off >= len(src)-s:
		return off - (len(src) - len(old))
	}
	return p
}

// actionItems are the named actions a ref in state owner may name: as
// construction looks them up, relative to the state and to each of its
// ancestors, and absolute from the root.
func (ix *index) actionItems(owner string) []CompletionItem {
	var items []CompletionItem
	seen := map[string]bool{}
	for key := range ix.actions {
		label := "/" + strings.TrimPrefix(strings.TrimPrefix(key, ix.rootName()), ".")
		for s := owner; s != ""; s = ix.parents[s] {
			if strings.HasPrefix(key, s+".") {
				label = key[len(s)+1:]
				break
			}
		}
		if !seen[label] {
			seen[label] = true
			items = append(items, CompletionItem{Label: label, Kind: compFunction, Detail: "action " + key})
		}
	}
	sort.Slice(items, func(i, j int) bool { return items[i].Label < items[j].Label })
	return items
}
