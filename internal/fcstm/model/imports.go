package model

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/input"
)

// mapName is the name the importing file gives variable name of the
// unit im mounts (docs/fcstm.md, "Imports"): by the first def mapping
// whose selector matches it; with no def mapping at all, the alias, an
// underscore and the name, so that each instance of a unit has its own
// variables. ok is false when im has def mappings and none matches.
// byDef says whether a def mapping chose the name.
func mapName(im *ast.Import, name string) (to string, byDef, ok bool) {
	if len(im.Defs) == 0 {
		return im.Alias.Name + "_" + name, false, true
	}
	for _, d := range im.Defs {
		if caps, ok := matchSelector(d, name); ok {
			return expandTemplate(d.Target, name, caps), true, true
		}
	}
	return "", false, false
}

// matchSelector reports whether d selects name and returns the captures:
// the texts matched by the pattern's stars (none for the other selectors).
func matchSelector(d ast.DefMap, name string) ([]string, bool) {
	switch d.Kind {
	case ast.SelectAll:
		return nil, true
	case ast.SelectSet, ast.SelectExact:
		for _, n := range d.Names {
			if n == name {
				return nil, true
			}
		}
	case ast.SelectPattern:
		m := patternRegexp(d.Names[0]).FindStringSubmatch(name)
		if m != nil {
			return m[1:], true
		}
	}
	return nil, false
}

// patternRegexp compiles a selector pattern: the stars capture from left
// to right, each the shortest text that lets the rest match.
func patternRegexp(p string) *regexp.Regexp {
	parts := strings.Split(p, "*")
	for i, s := range parts {
		parts[i] = regexp.QuoteMeta(s)
	}
	return regexp.MustCompile("^" + strings.Join(parts, "(.*?)") + "$")
}

// expandTemplate fills $0 / ${0} with the name and $N / ${N} from caps;
// "*" keeps the name.
func expandTemplate(t, name string, caps []string) string {
	if t == "*" {
		return name
	}
	var out strings.Builder
	for i := 0; i < len(t); i++ {
		if t[i] != '$' {
			out.WriteByte(t[i])
			continue
		}
		var d byte
		if t[i+1] == '{' { // ${N}
			d, i = t[i+2], i+3
		} else { // $N
			d, i = t[i+1], i+1
		}
		switch n := int(d - '0'); {
		case n == 0:
			out.WriteString(name)
		case n <= len(caps):
			out.WriteString(caps[n-1])
		}
	}
	return out.String()
}

// captures is the number of captures a selector provides: one per star of
// a pattern; "*", a set and a name have none ($0 is the whole name).
func captures(d ast.DefMap) int {
	if d.Kind == ast.SelectPattern {
		return strings.Count(d.Names[0], "*")
	}
	return 0
}

// selectorText is the selector as written, for messages.
func selectorText(d ast.DefMap) string {
	switch d.Kind {
	case ast.SelectAll:
		return "*"
	case ast.SelectSet:
		return "{" + strings.Join(d.Names, ", ") + "}"
	}
	return d.Names[0]
}

// checkDefMaps refuses templates that use a capture the selector does not
// provide, and a plain target for a selector of several names.
func (b *builder) checkDefMaps(u *unit, im *ast.Import) {
	for _, d := range im.Defs {
		for i := 0; i < len(d.Target); i++ {
			if d.Target[i] != '$' {
				continue
			}
			j := i + 1
			if d.Target[j] == '{' {
				j++
			}
			n, have := int(d.Target[j]-'0'), captures(d)
			if n <= have {
				continue
			}
			what := fmt.Sprintf("has %d capture(s), $1 … $%d", have, have)
			if have == 0 {
				what = "has no capture (use $0 for the whole name)"
			}
			b.errorf(u, "E_IMPORT_MAP", d.TargPos, "placeholder $%d is out of range: selector %s %s (docs/fcstm.md#imports)", n, expr.Clip(selectorText(d)), what)
		}
		plain := d.Target != "*" && !strings.Contains(d.Target, "$")
		if plain && (d.Kind == ast.SelectAll || d.Kind == ast.SelectPattern || len(d.Names) > 1) {
			b.errorf(u, "E_IMPORT_MAP", d.TargPos, "target %q would give several variables the same name; use a template with $0, $1 … or *", expr.Clip(d.Target))
		}
	}
}

// importEventMaps resolves the event mappings of every import: the
// imported event (a path in the imported file, from its root) is renamed
// to the host event (a path in the importing file, from the importing
// state, or from that file's root with "/"). One import may map an event
// once, and onto a host event no other of its events takes.
func (b *builder) importEventMaps() {
	for _, s := range b.order {
		inf := b.info[s]
		u := inf.unit
		if u.imp == nil || u.root != s {
			continue
		}
		onto := map[string]string{} // host event -> the unit event mapped onto it
		for _, em := range u.imp.Events {
			from, ok := b.eventPath(u.importer, u.root, u.rootName, u.root, em.From)
			if !ok {
				continue
			}
			host := u.importer
			to, ok := b.eventPath(host, host.root, host.rootName, s.Parent, em.To)
			if !ok {
				continue
			}
			if _, dup := u.events[from]; dup {
				b.errorf(host, "E_IMPORT_CONFLICT", em.Pos, "event %s of the import is mapped twice; map it once", em.From)
				continue
			}
			if other, dup := onto[to]; dup {
				b.errorf(host, "E_IMPORT_CONFLICT", em.Pos, "events %s and %s of the import both map onto %s; an import maps at most one event onto a host event (docs/fcstm.md#imports)", other, em.From, to)
				continue
			}
			onto[to] = em.From.String()
			u.events[from] = to
			u.eventMaps = append(u.eventMaps, eventMap{from: from, decl: em})
			if em.Display != "" {
				ev := b.event(u.importer, to, em.To.Pos)
				ev.Display = em.Display
			}
		}
	}
}

// An eventMap is an event mapping of an import: the mounted path of the
// imported event and the mapping as written.
type eventMap struct {
	from string
	decl ast.EventMap
}

// checkEventMaps refuses, after every event is known, an event mapping
// whose imported event the imported file neither declares nor uses: a
// mapping that can never apply is a mistake in the import.
func (b *builder) checkEventMaps() {
	for _, s := range b.order {
		u := b.info[s].unit
		if u.imp == nil || u.root != s {
			continue
		}
		for _, m := range u.eventMaps {
			if !u.mapped[m.from] {
				b.errorf(u.importer, "E_IMPORT_MAP", m.decl.From.Pos, "the imported file has no event %s (it neither declares nor uses it); map an event of %s (docs/fcstm.md#imports)", m.decl.From, u.file)
			}
		}
	}
}

// maxImportPath is the longest import path accepted (Linux's PATH_MAX).
const maxImportPath = 4096

// importPath resolves the file of an import relative to the importing
// file and refuses, at the import's file name, an absolute path and one
// whose ".." leaves the import root: an import must never read a file
// outside the model's tree (through the MCP server that would disclose
// files the client never named).
func (b *builder) importPath(im *ast.Import, u *unit) (string, bool) {
	switch {
	case len(im.File) > maxImportPath:
		b.errorf(u, "E_IMPORT_PATH", im.FilePos, "import path is longer than %d bytes (docs/fcstm.md#imports)", maxImportPath)
		return "", false
	case strings.IndexFunc(im.File, unicode.IsControl) >= 0:
		b.errorf(u, "E_IMPORT_PATH", im.FilePos, "import path %q contains a control character (docs/fcstm.md#imports)", expr.Clip(im.File))
		return "", false
	}
	if filepath.IsAbs(im.File) || strings.HasPrefix(im.File, "/") || strings.HasPrefix(im.File, `\`) {
		b.errorf(u, "E_IMPORT_PATH", im.FilePos, "import path %q is absolute; an import is a path relative to the importing file, inside the import root %s (docs/fcstm.md#imports)", im.File, b.importRoot)
		return "", false
	}
	path := filepath.Clean(filepath.Join(filepath.Dir(u.file), im.File))
	if !within(b.importRoot, path) {
		b.errorf(u, "E_IMPORT_PATH", im.FilePos, "import path %q leaves the import root %s (set it with --import-root; docs/fcstm.md#imports)", im.File, b.importRoot)
		return "", false
	}
	return path, true
}

// within reports whether path lies lexically inside dir; a relative one
// of the two is made absolute when the other is.
func within(dir, path string) bool {
	if filepath.IsAbs(dir) != filepath.IsAbs(path) {
		var err error
		if dir, err = filepath.Abs(dir); err != nil {
			return false
		}
		if path, err = filepath.Abs(path); err != nil {
			return false
		}
	}
	rel, err := filepath.Rel(filepath.Clean(dir), path)
	return err == nil && filepath.IsLocal(rel)
}

// readImport reads an imported file through the options (see
// Options.ReadImport), under the per-file size limit.
func (b *builder) readImport(path string) (string, error) {
	read := b.opts.ReadImport
	switch {
	case read == nil && b.opts.ReadFile != nil:
		rf := b.opts.ReadFile
		read = func(_, p string) ([]byte, error) { return rf(p) }
	case read == nil:
		read = input.Reader{MaxBytes: MaxFileSize}.ReadFileIn
	}
	data, err := read(b.importRoot, path)
	if err != nil {
		return "", err
	}
	if len(data) > MaxFileSize {
		return "", fmt.Errorf("%s is larger than %d bytes", path, MaxFileSize)
	}
	return string(data), nil
}

// bind decides a variable d of file u whose final name is already the
// model variable prev (docs/fcstm.md, "Imports"): declared by a file that
// imports u (the host), the types must agree and the host's declaration
// and initial value win; declared by another import, the types and the
// initial expressions must agree. Both are how a unit is wired to shared
// variables. A name given twice within one file is an error. Errors are
// recorded; the result says whether d is bound to prev.
func (b *builder) bind(u *unit, d *ast.VarDef, prev *Variable) bool {
	origin := b.varUnit[prev]
	at := where(prev.Pos)
	if u.imp == nil || origin == u {
		code := "E_DUPLICATE_VAR"
		if u.imp != nil {
			code = "E_IMPORT_CONFLICT"
		}
		b.errorf(u, code, d.Name.Pos, "variable %q is defined twice (at %s); rename one, or change the def mapping of the import", prev.Name, at)
		return false
	}
	typ := Int
	if d.Float {
		typ = Float
	}
	host := false
	for x := u.importer; x != nil; x = x.importer {
		host = host || x == origin
	}
	switch {
	case host && typ != prev.Type:
		b.errorf(u, "E_IMPORT_CONFLICT", d.Name.Pos, "variable %q is %s in the imported file but the host declares it %s (at %s); a def mapping binds only variables of the same type (docs/fcstm.md#imports)", prev.Name, typ, prev.Type, at)
	case host:
		return true
	case typ != prev.Type:
		b.errorf(u, "E_IMPORT_CONFLICT", d.Name.Pos, "variable %q is %s here but %s in another import (at %s); imports mapped onto one name must agree on type and initial value (docs/fcstm.md#imports)", prev.Name, typ, prev.Type, at)
	case expr.Format(d.Init) != expr.Format(prev.InitExpr):
		b.errorf(u, "E_IMPORT_CONFLICT", d.Name.Pos, "variable %q has initial value %s here but %s in another import (at %s); imports mapped onto one name must agree on type and initial value (docs/fcstm.md#imports)", prev.Name, expr.Clip(expr.Format(d.Init)), expr.Clip(expr.Format(prev.InitExpr)), at)
	default:
		return true
	}
	return false
}

// where is p as file:line:col, for messages.
func where(p Pos) string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }
