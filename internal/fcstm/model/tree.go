package model

import (
	"path/filepath"
	"strings"

	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/parser"
)

// buildState builds s and its subtree (imports mounted), registering
// every written state in b.order.
func (b *builder) buildState(d *ast.StateDecl, parent *State, u *unit, name, display string) *State {
	s := &State{Name: name, Display: d.Display, Doc: d.Doc, Pseudo: d.Pseudo, Parent: parent, Pos: u.pos(d.Pos)}
	if display != "" {
		s.Display = display
	}
	s.Path = name
	if parent != nil {
		s.Path = parent.Path + "." + name
	}
	if strings.HasPrefix(name, "__combo_") || name == "__init__" || name == "__terminate__" {
		b.errorf(u, "E_RESERVED_NAME", d.Name.Pos, "state name %q is reserved (generated combo states and case sentinels use it); rename the state", name)
	}
	if u.root == nil {
		u.root = s
	}
	b.info[s] = &stateInfo{decl: d, unit: u}
	b.order = append(b.order, s)
	seen := map[string]ast.Pos{}
	add := func(c *State, pos ast.Pos) {
		if prev, dup := seen[c.Name]; dup {
			b.errorf(u, "E_DUPLICATE_STATE", pos, "state %q is declared twice in %s (first at %s); rename one", c.Name, s.Path, prev)
			return
		}
		seen[c.Name] = pos
		s.Children = append(s.Children, c)
		if s.byName == nil {
			s.byName = map[string]*State{}
		}
		s.byName[c.Name] = c
	}
	for _, it := range d.Items {
		switch it := it.(type) {
		case *ast.StateDecl:
			add(b.buildState(it, s, u, it.Name.Name, ""), it.Name.Pos)
		case *ast.Import:
			if c := b.mount(it, s, u); c != nil {
				add(c, it.Alias.Pos)
			}
		}
	}
	return s
}

// mount reads, parses and mounts an import as a child of s.
func (b *builder) mount(im *ast.Import, s *State, u *unit) *State {
	switch {
	case u.depth+1 > MaxImportDepth:
		b.errorf(u, "E_IMPORT_LIMIT", im.FilePos, "imports nested more than %d deep", MaxImportDepth)
		return nil
	case b.files >= MaxImportedFiles:
		b.errorf(u, "E_IMPORT_LIMIT", im.FilePos, "more than %d imported files in one model", MaxImportedFiles)
		return nil
	}
	path, ok := b.importPath(im, u)
	if !ok {
		return nil
	}
	for x := u; x != nil; x = x.importer {
		if filepath.Clean(x.file) == path {
			b.errorf(u, "E_IMPORT_CYCLE", im.FilePos, "import cycle: %s imports itself through %s", path, u.file)
			return nil
		}
	}
	b.files++
	src, err := b.readImport(path)
	if err != nil {
		b.errorf(u, "E_IMPORT", im.FilePos, "cannot read the imported file %s: %v (docs/fcstm.md#imports)", path, err)
		return nil
	}
	f, err := parser.Parse(path, src)
	if err != nil {
		if e, ok := err.(*ast.Error); ok {
			// An imported file that is not FCSTM may be any file of the
			// tree: show its position and the (clipped) token, never its
			// line.
			e.Src = ""
			b.errs = append(b.errs, e)
		}
		return nil
	}
	sub := &unit{file: path, src: src, rootName: f.Root.Name.Name, importer: u, imp: im,
		vars: map[string]string{}, events: map[string]string{}, mapped: map[string]bool{}, depth: u.depth + 1}
	b.checkDefMaps(u, im)
	b.addVars(sub, f.Vars)
	return b.buildState(f.Root, s, sub, im.Alias.Name, im.Display)
}

// A naming is how the imports on the way up name a variable of a file.
type naming struct {
	final string // the model name
	// fresh: the outermost import has no def mapping, so the name is
	// one the loader made up and must not exist already.
	fresh bool
	// miss is the unit whose import has def mappings of which none
	// matches the variable, then called missed; nil when all matched.
	miss   *unit
	missed string
}

// finalName is the model name of a variable that file u writes as local:
// the def mappings of every import on the way up applied in turn.
func (u *unit) finalName(local string) naming {
	n := naming{final: local}
	for x := u; x.imp != nil; x = x.importer {
		to, byDef, ok := mapName(x.imp, n.final)
		if !ok {
			return naming{miss: x, missed: n.final}
		}
		n.final, n.fresh = to, !byDef
	}
	return n
}

// addVars defines the variables of one file.
func (b *builder) addVars(u *unit, defs []*ast.VarDef) {
	local := map[string]bool{}
	for _, d := range defs {
		if local[d.Name.Name] {
			b.errorf(u, "E_DUPLICATE_VAR", d.Name.Pos, "variable %q is defined twice", d.Name.Name)
			continue
		}
		local[d.Name.Name] = true
		n := u.finalName(d.Name.Name)
		if x := n.miss; x != nil {
			// Known under its own name, so that its uses do not add
			// "unknown variable" errors.
			u.vars[d.Name.Name] = d.Name.Name
			b.errorf(x.importer, "E_IMPORT_MAP", x.imp.Alias.Pos, "no def mapping of import %s matches variable %q (%s); map it, e.g. with def %s -> *; or def * -> %s_$0; (docs/fcstm.md#imports)", x.imp.Alias.Name, n.missed, where(u.pos(d.Name.Pos)), n.missed, x.imp.Alias.Name)
			continue
		}
		final := n.final
		if !isName(final) {
			b.errorf(u, "E_IMPORT_MAP", d.Name.Pos, "the import mapping renames variable %q to %q, which is not a valid variable name", d.Name.Name, final)
			continue
		}
		if prev, dup := b.m.VarByName[final]; dup {
			if n.fresh {
				b.errorf(u, "E_IMPORT_CONFLICT", d.Name.Pos, "variable %q of the import is named %q by default (alias, underscore, name), but %q already exists (at %s); rename one, or map the variable with a def mapping (docs/fcstm.md#imports)", d.Name.Name, final, final, where(prev.Pos))
			} else {
				b.bind(u, d, prev)
			}
			// Named even when refused, so that its uses do not add
			// "unknown variable" errors to the conflict.
			b.nameVar(u, d.Name.Name, final)
			continue
		}
		v := &Variable{Name: final, Type: Int, Doc: d.Doc, Pos: u.pos(d.Name.Pos)}
		if d.Float {
			v.Type = Float
		}
		b.initValue(u, d, v)
		b.m.Vars = append(b.m.Vars, v)
		b.m.VarByName[final] = v
		b.varUnit[v] = u
		b.nameVar(u, d.Name.Name, final)
	}
}

// nameVar records that file u writes the model variable final as local.
// Every file that imports u, directly or through others, may read the
// variable under the name its def mappings give it, as when the unit's
// declarations were merged into it.
func (b *builder) nameVar(u *unit, local, final string) {
	u.vars[local] = final
	for x, n := u, local; x.imp != nil; x = x.importer {
		to, _, ok := mapName(x.imp, n)
		if !ok {
			return
		}
		x.importer.vars[to], n = final, to
	}
}

func isName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' || parser.IsReserved(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= '0' && c <= '9' || (c|0x20) >= 'a' && (c|0x20) <= 'z') {
			return false
		}
	}
	return true
}
