package lsp

import (
	"os"
	"strings"
	"testing"
)

const navHost = `def int n = 0;
/* How many times. */
def float level = 1.5 * 2;
state H named "Host" {
    event Go named "go now";
    enter Init { n = 0; }
    state A {
        enter ref Init;
    }
    state B;
    import "unit.fcstm" as U;
    [*] -> A;
    A -> B : Go effect { n = n + 1; }
    B -> U : U.Ping;
    U -> A :: Back;
}
`

const navUnit = `state Unit {
    event Ping;
    state P;
    [*] -> P;
    P -> [*] :: Done;
}
`

const navQuery = "check reach <= 3: active(\"H.B\") && n > 0;\n"

type navFixture struct {
	*session
	host, unit, query string // URIs
}

func startNav(t *testing.T) *navFixture {
	dir := t.TempDir()
	unit, _ := fileURI(t, dir, "unit.fcstm", navUnit)
	host, _ := fileURI(t, dir, "host.fcstm", navHost)
	query, _ := fileURI(t, dir, "host.fbmcq", navQuery)
	s := startSession(t, Options{})
	s.open(host, "fcstm", navHost)
	return &navFixture{s, host, unit, query}
}

func (f *navFixture) at(line, char int) positionParams {
	return positionParams{TextDocument: textDocumentIdentifier{f.host}, Position: Position{line, char}}
}

func TestDefinition(t *testing.T) {
	f := startNav(t)
	cases := []struct {
		name       string
		line, char int
		uri        string
		want       Range
	}{
		{"state endpoint", 12, 4, f.host, rng(6, 10, 6, 11)},
		{"declared event", 12, 13, f.host, rng(4, 10, 4, 12)},
		{"variable in an effect", 12, 30, f.host, rng(0, 8, 0, 9)},
		{"ref to a named action", 7, 19, f.host, rng(5, 10, 5, 14)},
		{"import alias", 13, 9, f.host, rng(10, 27, 10, 28)},
		{"event inside the imported unit", 13, 15, f.unit, rng(1, 10, 1, 14)},
		{"the import's file", 10, 14, f.unit, Range{}},
	}
	for _, c := range cases {
		var locs []Location
		if err := f.call("textDocument/definition", f.at(c.line, c.char), &locs); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(locs) != 1 || locs[0].URI != c.uri || locs[0].Range != c.want {
			t.Errorf("%s: %+v, want %s %v", c.name, locs, c.uri, c.want)
		}
	}
}

func TestReferencesAcrossQueries(t *testing.T) {
	f := startNav(t)
	var locs []Location
	p := referenceParams{positionParams: f.at(0, 8)}
	p.Context.IncludeDeclaration = true
	if err := f.call("textDocument/references", p, &locs); err != nil {
		t.Fatal(err)
	}
	// def, n = 0, n = n + 1 (twice) in the model; n in the query.
	var inQuery, inHost int
	for _, l := range locs {
		switch l.URI {
		case f.host:
			inHost++
		case f.query:
			inQuery++
			if l.Range != rng(0, 35, 0, 36) {
				t.Errorf("query site %v", l.Range)
			}
		}
	}
	if inHost != 4 || inQuery != 1 {
		t.Fatalf("references of n: %+v", locs)
	}
	p.Context.IncludeDeclaration = false
	if err := f.call("textDocument/references", p, &locs); err != nil || len(locs) != 4 {
		t.Fatalf("without the declaration: %v %+v", err, locs)
	}
}

func TestHover(t *testing.T) {
	f := startNav(t)
	cases := []struct {
		line, char int
		want       []string
	}{
		{12, 13, []string{"event", "`H.Go`", "`/Go`", "go now"}},
		{0, 30, nil},
		{2, 12, []string{"`level`: `float`", "`1.5 * 2`", "`3", "How many times."}},
		{3, 7, []string{"state", "`H`", "composite", "Host"}},
		{13, 15, []string{"event", "`Unit.Ping`"}},
		{5, 12, []string{"action", "`H.Init`", "enter"}},
	}
	for _, c := range cases {
		var h *Hover
		if err := f.call("textDocument/hover", f.at(c.line, c.char), &h); err != nil {
			t.Fatal(err)
		}
		if c.want == nil {
			if h != nil {
				t.Errorf("%d:%d: hover %+v over nothing", c.line, c.char, h)
			}
			continue
		}
		if h == nil {
			t.Errorf("%d:%d: no hover", c.line, c.char)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(h.Contents.Value, w) {
				t.Errorf("%d:%d: hover %q lacks %q", c.line, c.char, h.Contents.Value, w)
			}
		}
	}
}

func TestDocumentSymbols(t *testing.T) {
	f := startNav(t)
	var syms []DocumentSymbol
	if err := f.call("textDocument/documentSymbol", documentParams{textDocumentIdentifier{f.host}}, &syms); err != nil {
		t.Fatal(err)
	}
	if len(syms) != 3 || syms[0].Name != "n" || syms[1].Name != "level" || syms[2].Name != "H" {
		t.Fatalf("top level: %+v", syms)
	}
	var kids []string
	for _, c := range syms[2].Children {
		kids = append(kids, c.Name)
	}
	if got := strings.Join(kids, " "); got != "Go Init A B U" {
		t.Fatalf("H's children: %s", got)
	}
	if r := syms[2].Range; r.Start.Line != 3 || r.End.Line != 15 {
		t.Errorf("H spans %v", r)
	}
	if a := syms[2].Children[2]; a.Kind != symClass || a.Range.End.Line != 8 {
		t.Errorf("A: %+v", a)
	}
}

func labels(t *testing.T, f *navFixture, line, char int) map[string]int {
	var res struct{ Items []CompletionItem }
	if err := f.call("textDocument/completion", f.at(line, char), &res); err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, it := range res.Items {
		out[it.Label] = it.Kind
	}
	return out
}

func TestCompletion(t *testing.T) {
	f := startNav(t)
	// After ":" in H: H's events and child states.
	f.change(f.host, 2, edit(rng(15, 0, 15, 0), "    B -> A : \n"))
	got := labels(t, f, 15, 13)
	if got["Go"] != compEvent || got["A"] != compClass || got["U"] != compClass {
		t.Errorf("after ':': %v", got)
	}
	if _, ok := got["state"]; ok {
		t.Error("keywords offered for an event")
	}
	// After "::" from U: U's own events (H.U.Back, written above).
	f.change(f.host, 3, edit(rng(15, 0, 15, 13), "    U -> B :: "))
	got = labels(t, f, 15, 14)
	if got["Back"] != compEvent || got["Go"] != 0 {
		t.Errorf("after '::': %v", got)
	}
	// After ": /": the root's scope.
	f.change(f.host, 4, edit(rng(15, 0, 15, 14), "    A -> B : /"))
	got = labels(t, f, 15, 14)
	if got["Go"] != compEvent {
		t.Errorf("after '/': %v", got)
	}
	// In an effect after the trigger: expressions, not events.
	f.change(f.host, 5, edit(rng(15, 0, 15, 14), "    A -> B : Go effect { n = "))
	got = labels(t, f, 15, 30)
	if got["n"] != compVariable || got["Go"] != 0 {
		t.Errorf("in an effect: %v", got)
	}
	// After a documentation block on the line, `::` still reads the source.
	f.change(f.host, 6, edit(rng(15, 0, 15, 30), "    /* doc */ U -> B :: "))
	got = labels(t, f, 15, 24)
	if got["Back"] != compEvent {
		t.Errorf("after a doc block: %v", got)
	}
	// After `ref`: the named actions, relative where a lookup finds them.
	f.change(f.host, 7, edit(rng(15, 0, 15, 24), "    exit ref "))
	got = labels(t, f, 15, 13)
	if got["Init"] != compFunction || len(got) != 1 {
		t.Errorf("after ref: %v", got)
	}
	// Elsewhere: keywords, variables, functions, constants, children.
	f.change(f.host, 8, edit(rng(15, 0, 15, 13), "    "))
	got = labels(t, f, 15, 4)
	for name, kind := range map[string]int{"state": compKeyword, "n": compVariable, "level": compVariable, "sqrt": compFunction, "pi": compConstant, "B": compClass} {
		if got[name] != kind {
			t.Errorf("%s: kind %d, want %d", name, got[name], kind)
		}
	}
}

func TestRename(t *testing.T) {
	f := startNav(t)
	var we WorkspaceEdit
	if err := f.call("textDocument/rename", renameParams{positionParams: f.at(9, 10), NewName: "Busy"}, &we); err != nil {
		t.Fatal(err)
	}
	host, query := we.Changes[f.host], we.Changes[f.query]
	if len(host) != 3 || len(query) != 1 {
		t.Fatalf("edits: %+v", we.Changes)
	}
	if query[0].Range != rng(0, 28, 0, 29) || query[0].NewText != "Busy" {
		t.Errorf("query edit %+v", query[0])
	}
	// Refused: a name taken by a sibling, a reserved word.
	err := f.call("textDocument/rename", renameParams{positionParams: f.at(9, 10), NewName: "A"}, nil)
	if err == nil || !strings.Contains(err.Message, "would not load") || !strings.Contains(err.Message, "E_DUPLICATE_STATE") {
		t.Fatalf("duplicate: %+v", err)
	}
	if err := f.call("textDocument/rename", renameParams{positionParams: f.at(9, 10), NewName: "state"}, nil); err == nil {
		t.Fatal("renamed to a keyword")
	}
	// A variable: every use, the query too.
	if err := f.call("textDocument/rename", renameParams{positionParams: f.at(0, 8), NewName: "count"}, &we); err != nil {
		t.Fatal(err)
	}
	if len(we.Changes[f.host]) != 4 || len(we.Changes[f.query]) != 1 {
		t.Fatalf("variable edits: %+v", we.Changes)
	}
	// An event of the imported unit, renamed from the host: both files.
	if err := f.call("textDocument/rename", renameParams{positionParams: f.at(13, 15), NewName: "Knock"}, &we); err != nil {
		t.Fatal(err)
	}
	if len(we.Changes[f.host]) != 1 || len(we.Changes[f.unit]) != 1 {
		t.Fatalf("import edits: %+v", we.Changes)
	}
}

func TestJSONHoverAndDefinition(t *testing.T) {
	data, err := os.ReadFile("../../examples/order.json")
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	lines := strings.Split(src, "\n")
	s := startSession(t, Options{})
	uri := "file:///tmp/order.json"
	s.open(uri, "json", src)
	pos := func(line int, needle string) positionParams {
		return positionParams{TextDocument: textDocumentIdentifier{uri}, Position: Position{line, strings.Index(lines[line], needle) + 1}}
	}
	for _, c := range []struct {
		at   positionParams
		want string
	}{
		{pos(12, `"PAID"`), "paid, waiting for the warehouse"},
		{pos(12, `"pay"`), "the buyer pays"},
		{pos(17, `"retry"`), "integer, initially 0, range"},
		{pos(22, `"paid"`), "boolean, initially false"},
	} {
		var h *Hover
		if err := s.call("textDocument/hover", c.at, &h); err != nil || h == nil || !strings.Contains(h.Contents.Value, c.want) {
			t.Errorf("hover at %v: %v %+v, want %q", c.at.Position, err, h, c.want)
		}
	}
	var locs []Location
	if err := s.call("textDocument/definition", pos(12, `"PAID"`), &locs); err != nil || len(locs) != 1 || locs[0].Range.Start.Line != 6 {
		t.Fatalf("definition of PAID: %v %+v", err, locs)
	}
}

// In a query, definition and hover go to the model's declarations.
func TestQueryDefinitionAndHover(t *testing.T) {
	f := startNav(t)
	f.open(f.query, "fbmcq", navQuery)
	at := func(char int) positionParams {
		return positionParams{TextDocument: textDocumentIdentifier{f.query}, Position: Position{0, char}}
	}
	var locs []Location
	if err := f.call("textDocument/definition", at(28), &locs); err != nil || len(locs) != 1 || locs[0].URI != f.host || locs[0].Range != rng(9, 10, 9, 11) {
		t.Fatalf("definition of H.B: %v %+v", err, locs)
	}
	if err := f.call("textDocument/definition", at(35), &locs); err != nil || len(locs) != 1 || locs[0].Range != rng(0, 8, 0, 9) {
		t.Fatalf("definition of n: %v %+v", err, locs)
	}
	var h *Hover
	if err := f.call("textDocument/hover", at(35), &h); err != nil || h == nil || !strings.Contains(h.Contents.Value, "`n`: `int`") {
		t.Fatalf("hover of n: %v %+v", err, h)
	}
}

// References and rename from a query reach the model and every query.
func TestQueryReferencesAndRename(t *testing.T) {
	f := startNav(t)
	f.open(f.query, "fbmcq", navQuery)
	p := referenceParams{positionParams: positionParams{TextDocument: textDocumentIdentifier{f.query}, Position: Position{0, 35}}}
	p.Context.IncludeDeclaration = true
	var locs []Location
	if err := f.call("textDocument/references", p, &locs); err != nil || len(locs) != 5 {
		t.Fatalf("references of n from the query: %v %+v", err, locs)
	}
	var we WorkspaceEdit
	if err := f.call("textDocument/rename", renameParams{positionParams: positionParams{TextDocument: textDocumentIdentifier{f.query}, Position: Position{0, 28}}, NewName: "Busy"}, &we); err != nil {
		t.Fatal(err)
	}
	if len(we.Changes[f.host]) != 3 || len(we.Changes[f.query]) != 1 {
		t.Fatalf("rename from the query: %+v", we.Changes)
	}
}
