package model

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/parser"
	"github.com/stateproof/stateproof/internal/input"
)

// Limits on what one load may read, so that hostile input (an import
// bomb, a huge file) ends in an error instead of unbounded memory.
const (
	MaxFileSize      = 8 << 20 // bytes per file
	MaxImportDepth   = 16      // nested imports
	MaxImportedFiles = 256     // imported files per load (a file imported twice counts twice)
	maxErrors        = 100     // validation errors collected before giving up
)

// Options configures construction.
type Options struct {
	// ReadFile reads the top-level file (LoadWith); nil means os.ReadFile.
	ReadFile func(path string) ([]byte, error)
	// ImportRoot is the directory every import must resolve inside
	// (docs/fcstm.md, "Imports"); "" means the directory of the top-level
	// file. Import paths are relative to the importing file.
	ImportRoot string
	// ReadImport reads an imported file that lies lexically inside root;
	// it must also refuse one that resolves outside root through a
	// symbolic link and anything but a regular file, without reading it
	// (input.Reader.ReadFileIn). nil means ReadFileIn of the working
	// directory's files, or, when only ReadFile is set (an in-memory file
	// system), ReadFile.
	ReadImport func(root, path string) ([]byte, error)
}

// ReaderOptions are the Options that read every file through rd, imports
// confined to rd.ImportRoot.
func ReaderOptions(rd input.Reader) Options {
	return Options{ReadFile: rd.ReadFile, ImportRoot: rd.ImportRoot, ReadImport: rd.ReadFileIn}
}

// Load reads, parses and constructs the FCSTM model in the file at path.
// The error is an *ast.Error (syntax, read failure) or an ast.ErrorList
// (validation), every entry located by file:line:col.
func Load(path string) (*Model, error) {
	return LoadWith(path, Options{})
}

// LoadWith is Load with options.
func LoadWith(path string, opts Options) (*Model, error) {
	src, err := readLimited(opts, path)
	if err != nil {
		return nil, &ast.Error{Code: "E_READ", Msg: err.Error(), File: path}
	}
	f, err := parser.Parse(path, src)
	if err != nil {
		return nil, err
	}
	return Build(f, opts)
}

// Parse parses and constructs a model from source text; file names the
// source in positions and anchors relative imports.
func Parse(file, src string, opts Options) (*Model, error) {
	f, err := parser.Parse(file, src)
	if err != nil {
		return nil, err
	}
	return Build(f, opts)
}

func readLimited(opts Options, path string) (string, error) {
	read := opts.ReadFile
	if read == nil {
		st, err := os.Stat(path)
		if err == nil && st.Size() > MaxFileSize {
			return "", fmt.Errorf("file is larger than %d bytes", MaxFileSize)
		}
		read = os.ReadFile
	}
	b, err := read(path)
	if err != nil {
		return "", err
	}
	if len(b) > MaxFileSize {
		return "", fmt.Errorf("file is larger than %d bytes", MaxFileSize)
	}
	return string(b), nil
}

// Build constructs the model of a parsed file (docs/fcstm.md, "Model
// construction"): it mounts imports, resolves names, expands combos,
// injects forced transitions, resolves refs and validates. All validation
// errors found are returned together, sorted by position.
func Build(f *ast.File, opts Options) (m *Model, err error) {
	b := &builder{
		opts: opts,
		m: &Model{
			File:         f.Path,
			StateByPath:  map[string]*State{},
			EventByPath:  map[string]*Event{},
			VarByName:    map[string]*Variable{},
			ActionByPath: map[string]*Action{},
		},
		info:    map[*State]*stateInfo{},
		adecl:   map[*Action]*ast.Action{},
		combos:  map[*State]int{},
		varUnit: map[*Variable]*unit{},
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(tooManyErrors); !ok {
				panic(r)
			}
			m, err = nil, b.finish()
		}
	}()
	b.importRoot = opts.ImportRoot
	if b.importRoot == "" {
		b.importRoot = filepath.Dir(f.Path)
	}
	main := &unit{file: f.Path, src: f.Src, rootName: f.Root.Name.Name, vars: map[string]string{}}
	b.addVars(main, f.Vars)
	b.m.Root = b.buildState(f.Root, nil, main, f.Root.Name.Name, "")
	b.numberStates()
	b.collectEvents()
	b.collectActions()
	b.resolveRefs()
	b.buildTransitions()
	b.injectForced()
	b.checkEventMaps()
	b.validateStructure()
	b.numberStates() // combo states were added
	if err := b.finish(); err != nil {
		return nil, err
	}
	return b.m, nil
}

type tooManyErrors struct{}

// builder holds the state of one construction.
type builder struct {
	opts   Options
	m      *Model
	errs   ast.ErrorList
	info   map[*State]*stateInfo
	adecl  map[*Action]*ast.Action // the declaration of each written action
	order  []*State                // written states in pre-order (no combo states)
	forced []forcedDecl
	combos map[*State]int // combo transitions expanded so far per owner
	files  int            // imported files read
	// importRoot is the directory imports must stay inside.
	importRoot string
	varUnit    map[*Variable]*unit // the file that declared each variable
}

// stateInfo is what construction remembers about a written state.
type stateInfo struct {
	decl *ast.StateDecl
	unit *unit
}

// unit is one source file mounted into the model: the main file or an
// import.
type unit struct {
	file     string
	src      string
	root     *State // the state this file's root became (absolute paths start here)
	rootName string // the root's name in its own file
	importer *unit
	imp      *ast.Import       // the import statement that mounted it (nil for the main file)
	vars     map[string]string // variable names as this file writes them -> final model names
	events   map[string]string // mounted event path -> event path in the importer (event mappings)
	// eventMaps are the event mappings of imp, resolved; mapped marks
	// those an event of the file used.
	eventMaps []eventMap
	mapped    map[string]bool
	depth     int
}

func (u *unit) pos(p ast.Pos) Pos { return Pos{File: u.file, Line: p.Line, Col: p.Col} }

func (b *builder) errorf(u *unit, code string, p ast.Pos, format string, args ...any) {
	b.errs = append(b.errs, &ast.Error{Code: code, Msg: fmt.Sprintf(format, args...), File: u.file, Pos: p, Src: u.src})
	if len(b.errs) >= maxErrors {
		panic(tooManyErrors{})
	}
}

func (b *builder) warnf(u *unit, code string, p ast.Pos, format string, args ...any) {
	b.m.Warnings = append(b.m.Warnings, Diagnostic{Code: code, Message: fmt.Sprintf(format, args...), Pos: u.pos(p)})
}

func (b *builder) finish() error {
	w := b.m.Warnings
	sort.SliceStable(w, func(i, j int) bool {
		a, c := w[i].Pos, w[j].Pos
		if a.File != c.File {
			return a.File < c.File
		}
		if a.Line != c.Line {
			return a.Line < c.Line
		}
		return a.Col < c.Col
	})
	if len(b.errs) == 0 {
		return nil
	}
	b.errs.Sort()
	return b.errs
}

// numberStates assigns pre-order ids and fills StateByPath.
func (b *builder) numberStates() {
	id := 0
	var walk func(s *State)
	walk = func(s *State) {
		s.ID = id
		id++
		b.m.StateByPath[s.Path] = s
		for _, c := range s.Children {
			walk(c)
		}
	}
	walk(b.m.Root)
}

// child returns the written (non-combo) child of s called name.
func child(s *State, name string) *State {
	if s.byName != nil {
		return s.byName[name]
	}
	for _, c := range s.Children {
		if c.Name == name && !c.Combo {
			return c
		}
	}
	return nil
}

func childNames(s *State) string {
	var names []string
	for _, c := range s.Children {
		if !c.Combo {
			names = append(names, c.Name)
		}
	}
	if len(names) == 0 {
		return "it has no children"
	}
	return "its children: " + strings.Join(names, ", ")
}
