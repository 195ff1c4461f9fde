package inspect

import (
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/parser"
	"github.com/stateproof/stateproof/internal/inspect/codes"
)

// Schema names the JSON document Result marshals to.
const Schema = "stateproof/inspect/v1"

// Span is a source range: 1-based line and column (columns in runes) of
// the first character, and of the position just after the last one.
type Span struct {
	Line      int `json:"line"`
	Column    int `json:"column"`
	EndLine   int `json:"end_line"`
	EndColumn int `json:"end_column"`
}

// Diagnostic is one finding.
type Diagnostic struct {
	Code     string         `json:"code"`
	Severity string         `json:"severity"`
	Message  string         `json:"message"`
	File     string         `json:"file"`
	Span     Span           `json:"span"`
	Basis    string         `json:"basis"`
	Refs     map[string]any `json:"refs"`
}

// Result is the outcome of inspecting one model.
type Result struct {
	Schema      string       `json:"schema"`
	File        string       `json:"file"`
	Loaded      bool         `json:"loaded"` // false: the model did not load; Diagnostics are its load errors
	Diagnostics []Diagnostic `json:"diagnostics"`
	Suppressed  int          `json:"suppressed"` // diagnostics dropped by Options.Ignore or a stateproof:ignore comment

	// Undecided are the questions of the SMT-backed codes (Options.SMT)
	// that got no answer, and a search (Options.Search) that stopped
	// early; absent without --smt and --search.
	Undecided []Undecided `json:"undecided,omitempty"`

	// Dropped are the suppressed diagnostics themselves, for a presenter
	// that also shows the same problem under another code: the language
	// server hides verify's lint of a problem inspect decided, reported or
	// suppressed, so that a suppression does not bring the lint back.
	Dropped []Diagnostic `json:"-"`
}

// HasError reports whether some diagnostic has error severity.
func (r *Result) HasError() bool {
	for _, d := range r.Diagnostics {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Options tune an inspection.
type Options struct {
	Model  model.Options // how the model and its imports are read
	Ignore []string      // codes never reported (counted as suppressed)

	// SMT adds the SMT-backed codes (W_DEAD_GUARD, ...), decided by Z3
	// within TimeoutMS per question (DefaultTimeoutMS when 0).
	SMT       bool
	TimeoutMS int

	// Search decides W_UNREACHABLE_STATE for the leaves the structure
	// lets a run enter by an explicit search of the reachable
	// configurations, storing at most MaxStates (DefaultMaxStates when 0)
	// within TimeoutMS (DefaultTimeoutMS when 0). A search that stops
	// early claims nothing; its reason is listed in Result.Undecided.
	Search    bool
	MaxStates int

	// Thresholds are the limits of W_DEEP_HIERARCHY, W_LARGE_COMPOSITE
	// and W_HIGH_VAR_TO_LEAF_RATIO; nil means DefaultThresholds.
	Thresholds *Thresholds
}

// ErrUnreadable wraps a failure to read the model file itself.
var ErrUnreadable = errors.New("cannot read the model file")

// File inspects the FCSTM model at path.
func File(path string, opts Options) (*Result, error) {
	read := opts.Model.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	src, err := read(path)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrUnreadable, path, err)
	}
	return Source(path, src, opts), nil
}

// Source inspects FCSTM source text; path names it in diagnostics and
// anchors relative imports.
func Source(path string, src []byte, opts Options) *Result {
	// One parse: the tree gives the analyzers the root file's declarations
	// as written, and construction builds the model from it.
	f, err := parser.Parse(path, string(src))
	var m *model.Model
	if err != nil {
		f = nil
	} else {
		m, err = model.Build(f, opts.Model)
	}
	return Loaded(path, src, f, m, err, opts)
}

// Loaded inspects a model the caller has loaded from src already: f, the
// tree parser.Parse made of src (nil when it does not parse), and m, the
// model model.Build made of f with opts.Model, or loadErr, the failure of
// either. The language server, which lints the same text, loads it once
// for both. Inspect only reads f and m.
func Loaded(path string, src []byte, f *ast.File, m *model.Model, loadErr error, opts Options) *Result {
	res := &Result{Schema: Schema, File: path, Diagnostics: []Diagnostic{}}
	a := &analysis{file: path, src: newSource(string(src)), out: res, codes: map[string]Code{}}
	for _, c := range Codes() {
		if c.Inspected() {
			a.codes[c.Name] = c
		}
	}
	a.tree = f
	if loadErr != nil {
		a.loadErrors(loadErr)
	} else {
		res.Loaded = true
		a.m = m
		if opts.Search {
			a.searched = a.search(opts.MaxStates, opts.TimeoutMS)
		}
		a.run()
		th := DefaultThresholds()
		if opts.Thresholds != nil {
			th = *opts.Thresholds
		}
		a.thresholds(th)
		if opts.SMT {
			a.smtCodes(opts.TimeoutMS)
		}
	}
	a.suppress(opts.Ignore)
	sortDiagnostics(res.Diagnostics)
	return res
}

// analysis is the state of one inspection.
type analysis struct {
	file string
	src  *source
	tree *ast.File // the root file's syntax tree; nil when it does not parse
	m    *model.Model
	out  *Result

	searched         *searched                                 // the explicit search's findings; nil without Options.Search
	live             map[*model.State]bool                     // the states a run can enter by structure (structure)
	redundant        map[*model.Transition]bool                // transitions that repeat an earlier one (redundancy)
	shadowed         map[*model.Transition]*model.Transition   // transition -> an earlier one always taken instead (shadowedBy)
	deadConsumer     map[*model.Transition]bool                // transitions of an event no reachable state consumes (deadConsumers)
	shadowCandidates map[*model.Transition][]*model.Transition // transition -> earlier ones that shadow it if their guards cover its guard (shadowedBy)
	unreachable      map[*model.Transition]int                 // transition -> its W_UNREACHABLE_TRANSITION in out.Diagnostics, until they are sorted

	codes    map[string]Code       // the registry, by name
	extents  map[int]int           // declaration line of a root-file state -> its last line (suppression only)
	triggers map[[2]int][]ast.Term // root-file transition position -> its trigger terms (combos only)
}

// run runs every analyzer over the loaded model.
func (a *analysis) run() {
	a.structure()
	a.events()
	a.dataFlow()
	a.guards()
	a.numeric()
	a.literals()
	a.combos()
	a.lifecycle()
	a.redundancy()
	a.overrides()
	a.unreachableTransitions()
}

// emit adds a diagnostic of a registry code.
func (a *analysis) emit(code, file string, span Span, refs map[string]any, format string, args ...any) {
	c, ok := a.codes[code]
	if !ok {
		panic("inspect: code " + code + " is not in the registry") // a bug in this package, caught by the tests
	}
	if file == "" {
		file = a.file
	}
	a.out.Diagnostics = append(a.out.Diagnostics, Diagnostic{
		Code: code, Severity: c.Severity, Basis: c.Basis, File: file, Span: span, Refs: refs,
		Message: fmt.Sprintf(format, args...),
	})
}

// suppress drops the diagnostics whose code is ignored, or that a
// stateproof:ignore comment covers, and counts them.
func (a *analysis) suppress(ignore []string) {
	skip := map[string]bool{}
	for _, c := range ignore {
		skip[codes.Canonical(c)] = true
	}
	comments := a.src.ignoreComments()
	if len(comments) > 0 {
		a.extents = a.stateExtents()
	}
	kept := a.out.Diagnostics[:0]
	for _, d := range a.out.Diagnostics {
		if skip[d.Code] || d.File == a.file && a.commentCovers(comments, d) {
			a.out.Suppressed++
			a.out.Dropped = append(a.out.Dropped, d)
			continue
		}
		kept = append(kept, d)
	}
	a.out.Diagnostics = kept
	undecided := a.out.Undecided[:0]
	for _, u := range a.out.Undecided {
		if !skip[u.Code] {
			undecided = append(undecided, u)
		}
	}
	a.out.Undecided = undecided
}

func sortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		x, y := ds[i], ds[j]
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Span.Line != y.Span.Line {
			return x.Span.Line < y.Span.Line
		}
		if x.Span.Column != y.Span.Column {
			return x.Span.Column < y.Span.Column
		}
		return x.Code < y.Code
	})
}
