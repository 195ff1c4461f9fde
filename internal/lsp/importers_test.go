package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const impUnit = `state Unit {
    event Ping;
    state P;
    state Q;
    [*] -> P;
    P -> Q : Pong;
    Q -> [*] :: Done;
}
`

// The host maps the unit's Ping and Pong onto its Go and Stop, and names the unit's
// state P through the alias, in a transition, a trigger and a query.
const impHost = `state H {
    event Go;
    state A;
    import "lib/unit.fcstm" as U {
        event Ping -> Go;
        event Pong -> Stop;
    }
    [*] -> A;
    A -> U : Go;
    U -> A : U.P.Tick;
}
`

const impQuery = "check reach <= 3: active(\"H.U.P\");\n"

type impFixture struct {
	*session
	unit, host, query, other string // URIs
}

// startImporters writes a unit under lib/, a host and its query at the
// workspace root, and an unrelated model, and opens only the unit: the
// host is found by the walk of the workspace folder.
func startImporters(t *testing.T) *impFixture {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	unit, _ := fileURI(t, dir, "lib/unit.fcstm", impUnit)
	host, _ := fileURI(t, dir, "host.fcstm", impHost)
	query, _ := fileURI(t, dir, "host.fbmcq", impQuery)
	other, _ := fileURI(t, dir, "other.fcstm", "state O { state P; [*] -> P; }\n")
	s := startSessionAt(t, Options{}, pathURI(dir))
	s.open(unit, "fcstm", impUnit)
	return &impFixture{s, unit, host, query, other}
}

func (f *impFixture) rename(t *testing.T, line, char int, name string) (WorkspaceEdit, *rpcError) {
	t.Helper()
	var we WorkspaceEdit
	err := f.call("textDocument/rename", renameParams{positionParams: positionParams{TextDocument: textDocumentIdentifier{f.unit}, Position: Position{line, char}}, NewName: name}, &we)
	return we, err
}

// lines of an edit list, to compare without depending on its order.
func editLines(es []TextEdit) map[int]int {
	out := map[int]int{}
	for _, e := range es {
		out[e.Range.Start.Line]++
	}
	return out
}

func TestRenameFromUnitReachesImporters(t *testing.T) {
	f := startImporters(t)
	// The state P: in the unit (declaration, [*] -> P, P -> Q), in the
	// host's trigger U.P.Tick, and in the host's query.
	we, err := f.rename(t, 2, 10, "Idle")
	if err != nil {
		t.Fatal(err)
	}
	if got := editLines(we.Changes[f.unit]); len(got) != 3 || got[2] != 1 || got[4] != 1 || got[5] != 1 {
		t.Errorf("unit edits %+v", we.Changes[f.unit])
	}
	if h := we.Changes[f.host]; len(h) != 1 || h[0].Range != rng(9, 15, 9, 16) || h[0].NewText != "Idle" {
		t.Errorf("host edits %+v", h)
	}
	if q := we.Changes[f.query]; len(q) != 1 || q[0].Range != rng(0, 30, 0, 31) {
		t.Errorf("query edits %+v", q)
	}
	if _, ok := we.Changes[f.other]; ok {
		t.Errorf("edited a model that does not import the unit: %+v", we.Changes[f.other])
	}
	// The event Ping: its declaration in the unit and the unit side of
	// the host's mapping line.
	we, err = f.rename(t, 1, 11, "Ring")
	if err != nil {
		t.Fatal(err)
	}
	if u := we.Changes[f.unit]; len(u) != 1 || u[0].Range != rng(1, 10, 1, 14) {
		t.Errorf("unit edits %+v", u)
	}
	if h := we.Changes[f.host]; len(h) != 1 || h[0].Range != rng(4, 14, 4, 18) {
		t.Errorf("host mapping edit %+v", h)
	}
}

// Renaming the unit's Ping to Pong (an event it already uses) is fine in
// the unit alone, but the host would then map Pong twice
// (E_IMPORT_CONFLICT): refused, with the host's error.
func TestRenameFromUnitRefusedByImporter(t *testing.T) {
	f := startImporters(t)
	_, err := f.rename(t, 1, 11, "Pong")
	if err == nil {
		t.Fatal("a rename that the host cannot load was accepted")
	}
	if !strings.Contains(err.Message, "would not load") || !strings.Contains(err.Message, "host.fcstm") || !strings.Contains(err.Message, "E_IMPORT_CONFLICT") {
		t.Fatalf("refusal %q does not name the host", err.Message)
	}
}

// An importer that does not parse as it is now (open, mid-edit) hides
// its uses: the rename is refused rather than leaving them behind.
func TestRenameFromUnitRefusedWhileImporterBroken(t *testing.T) {
	f := startImporters(t)
	f.open(f.host, "fcstm", strings.Replace(impHost, "[*] -> A;", "[*] -> ;", 1))
	_, err := f.rename(t, 2, 10, "Idle")
	if err == nil || !strings.Contains(err.Message, "does not parse") || !strings.Contains(err.Message, "host.fcstm") {
		t.Fatalf("rename with a broken importer: %+v", err)
	}
}

// An open importer is read as the editor holds it: a use added but not
// saved is edited too.
func TestRenameFromUnitUsesOpenImporter(t *testing.T) {
	f := startImporters(t)
	f.open(f.host, "fcstm", strings.Replace(impHost, "[*] -> A;", "[*] -> A;\n    A -> A : U.P.Tock;", 1))
	we, err := f.rename(t, 2, 10, "Idle")
	if err != nil {
		t.Fatal(err)
	}
	if h := we.Changes[f.host]; len(h) != 2 {
		t.Fatalf("host edits %+v", h)
	}
}

const varUnit = `def int k = 0;
state Unit {
    state P;
    [*] -> P;
    P -> P effect { k = k + 1; }
}
`

// TestRenameUnitVariable: an exact def mapping is edited with the
// variable, so that the host's name for it (and its binding) stays; a
// host that derives the name by pattern refuses the rename.
func TestRenameUnitVariable(t *testing.T) {
	dir := t.TempDir()
	unit, _ := fileURI(t, dir, "unit.fcstm", varUnit)
	host, _ := fileURI(t, dir, "host.fcstm", "def int hk = 5;\nstate H {\n    import \"unit.fcstm\" as U {\n        def k -> hk;\n    }\n    [*] -> U;\n}\n")
	s := startSessionAt(t, Options{}, pathURI(dir))
	s.open(unit, "fcstm", varUnit)
	var we WorkspaceEdit
	p := renameParams{positionParams: positionParams{TextDocument: textDocumentIdentifier{unit}, Position: Position{0, 8}}, NewName: "level"}
	if err := s.call("textDocument/rename", p, &we); err != nil {
		t.Fatal(err)
	}
	if len(we.Changes[unit]) != 3 {
		t.Errorf("unit edits %+v", we.Changes[unit])
	}
	if h := we.Changes[host]; len(h) != 1 || h[0].Range != rng(3, 12, 3, 13) {
		t.Errorf("host def edit %+v", h)
	}
	// A set keeps the names it selects (its target is "*" or a
	// template): the host's k would become u_level, by the fallback
	// mapping, refused.
	fileURI(t, dir, "host.fcstm", "def int j = 1;\nstate H {\n    import \"unit.fcstm\" as U {\n        def {j, k} -> *;\n        def * -> u_$0;\n    }\n    [*] -> U;\n}\n")
	if err := s.call("textDocument/rename", p, &we); err == nil || !strings.Contains(err.Message, "lose the variables {k} and gain {u_level}") {
		t.Fatalf("a set selector: %+v", err)
	}
	// Without the fallback, no mapping would match level: the host
	// would not load.
	fileURI(t, dir, "host.fcstm", "def int j = 1;\nstate H {\n    import \"unit.fcstm\" as U {\n        def {j, k} -> *;\n    }\n    [*] -> U;\n}\n")
	if err := s.call("textDocument/rename", p, &we); err == nil || !strings.Contains(err.Message, `no def mapping of import U matches variable "level"`) {
		t.Fatalf("a set selector that would miss the variable: %+v", err)
	}
	// By pattern: the host's variable would become u_level.
	fileURI(t, dir, "host.fcstm", "state H {\n    import \"unit.fcstm\" as U {\n        def * -> u_$0;\n    }\n    [*] -> U;\n}\n")
	err := s.call("textDocument/rename", p, &we)
	if err == nil || !strings.Contains(err.Message, "lose the variables {u_k} and gain {u_level}") {
		t.Fatalf("a rename that changes the host's variable: %+v", err)
	}
}

// The unit side of an import's event mapping navigates into the unit.
func TestEventMappingDefinition(t *testing.T) {
	f := startImporters(t)
	f.open(f.host, "fcstm", impHost)
	var locs []Location
	at := positionParams{TextDocument: textDocumentIdentifier{f.host}, Position: Position{4, 15}}
	if err := f.call("textDocument/definition", at, &locs); err != nil || len(locs) != 1 || locs[0].URI != f.unit || locs[0].Range != rng(1, 10, 1, 14) {
		t.Fatalf("definition of the mapped Ping: %v %+v", err, locs)
	}
	// Pong is created by its use in the unit: its first use.
	at.Position = Position{5, 15}
	if err := f.call("textDocument/definition", at, &locs); err != nil || len(locs) != 1 || locs[0].URI != f.unit || locs[0].Range != rng(5, 13, 5, 17) {
		t.Fatalf("definition of the mapped Pong: %v %+v", err, locs)
	}
	p := referenceParams{positionParams: positionParams{TextDocument: textDocumentIdentifier{f.unit}, Position: Position{1, 11}}}
	p.Context.IncludeDeclaration = true
	if err := f.call("textDocument/references", p, &locs); err != nil || len(locs) != 2 || locs[0].URI != f.host || locs[0].Range != rng(4, 14, 4, 18) {
		t.Fatalf("references of Ping: %v %+v", err, locs)
	}
}

// The walk of the workspace folder does not follow a symbolic link out
// of it, and skips a file over --max-input-bytes.
func TestImportersWalkBounded(t *testing.T) {
	f := startImporters(t)
	root := filepath.Dir(uriPath(f.host))
	outside := t.TempDir()
	// A host outside the folder, reached only through a link inside it.
	if err := os.Symlink(root+"/lib", filepath.Join(outside, "lib")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	fileURI(t, outside, "far.fcstm", impHost)
	if err := os.Symlink(filepath.Join(outside, "far.fcstm"), filepath.Join(root, "far.fcstm")); err != nil {
		t.Fatal(err)
	}
	// A host over the limit of a server started with a small one.
	big := impHost + "// " + strings.Repeat("x", 4096) + "\n"
	fileURI(t, root, "big.fcstm", big)
	we, err := f.rename(t, 2, 10, "Idle")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := we.Changes[pathURI(filepath.Join(root, "far.fcstm"))]; ok {
		t.Error("followed a symbolic link out of the workspace folder")
	}
	if _, ok := we.Changes[pathURI(filepath.Join(root, "big.fcstm"))]; !ok {
		t.Error("a second host inside the folder was not edited")
	}
	s := startSessionAt(t, Options{MaxInputBytes: int64(len(big) - 1)}, pathURI(root))
	s.open(f.unit, "fcstm", impUnit)
	we = WorkspaceEdit{}
	if err := s.call("textDocument/rename", renameParams{positionParams: positionParams{TextDocument: textDocumentIdentifier{f.unit}, Position: Position{2, 10}}, NewName: "Idle"}, &we); err != nil {
		t.Fatal(err)
	}
	if _, ok := we.Changes[pathURI(filepath.Join(root, "big.fcstm"))]; ok {
		t.Error("read a file over --max-input-bytes")
	}
	if _, ok := we.Changes[f.host]; !ok {
		t.Error("the host within the limit was not edited")
	}
}

const impTop = `state T {
    state S;
    import "host.fcstm" as X;
    [*] -> S;
    S -> X : X.U.P.Tock;
}
`

// A file that imports the host is an importer of the unit too: its
// path through both aliases and its query are edited.
func TestRenameFromUnitReachesImportersOfImporters(t *testing.T) {
	f := startImporters(t)
	dir := filepath.Dir(uriPath(f.host))
	top, _ := fileURI(t, dir, "top.fcstm", impTop)
	topQuery, _ := fileURI(t, dir, "top.fbmcq", "check reach <= 4: active(\"T.X.U.P\");\n")
	we, err := f.rename(t, 2, 10, "Idle")
	if err != nil {
		t.Fatal(err)
	}
	if e := we.Changes[top]; len(e) != 1 || e[0].Range != rng(4, 17, 4, 18) {
		t.Errorf("top edits %+v", e)
	}
	if e := we.Changes[topQuery]; len(e) != 1 || e[0].Range != rng(0, 32, 0, 33) {
		t.Errorf("top query edits %+v", e)
	}
	if len(we.Changes[f.host]) != 1 || len(we.Changes[f.query]) != 1 {
		t.Errorf("host edits %+v", we.Changes)
	}
}

// Workspace folders added and removed after initialize are searched, and
// no longer searched, for importers.
func TestWorkspaceFoldersChange(t *testing.T) {
	dir := t.TempDir()
	unit, _ := fileURI(t, dir, "unit.fcstm", impUnit)
	other := t.TempDir()
	host, _ := fileURI(t, other, "host.fcstm", strings.Replace(impHost, "lib/unit.fcstm", "../"+filepath.Base(dir)+"/unit.fcstm", 1))
	s := startSessionAt(t, Options{ImportRoot: filepath.Dir(dir)}, pathURI(dir))
	s.open(unit, "fcstm", impUnit)
	p := renameParams{positionParams: positionParams{TextDocument: textDocumentIdentifier{unit}, Position: Position{2, 10}}, NewName: "Idle"}
	edits := func() int {
		var we WorkspaceEdit
		if err := s.call("textDocument/rename", p, &we); err != nil {
			t.Fatal(err)
		}
		return len(we.Changes[host])
	}
	if n := edits(); n != 0 {
		t.Fatalf("edited %d sites of a host outside the folders", n)
	}
	folder := func(key, path string) {
		ev := map[string]any{"added": []any{}, "removed": []any{}}
		ev[key] = []any{map[string]any{"uri": pathURI(path), "name": "x"}}
		s.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": ev})
	}
	folder("added", other)
	if n := edits(); n != 1 {
		t.Fatalf("host in an added folder: %d edits, want 1", n)
	}
	folder("removed", other)
	if n := edits(); n != 0 {
		t.Fatalf("host in a removed folder: %d edits", n)
	}
}
