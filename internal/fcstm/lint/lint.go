package lint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/inspect/codes"
	"github.com/stateproof/stateproof/internal/report"
)

// HashSpec names how ModelHash is computed for FCSTM models: the SHA-256
// of the root file's bytes (imported files are not included).
const HashSpec = "fcstm-source-sha256"

// Check ids of the FCSTM report.
const (
	CheckModel    = "MODEL"    // load: parse and construction errors
	CheckInit     = "FCSTM-I1" // initial values
	CheckReach    = "FCSTM-L1" // states unreachable by structure
	CheckParent   = "FCSTM-L2" // parent-level transitions that never fire
	CheckCombo    = "FCSTM-L3" // combo trigger lints
	CheckActions  = "FCSTM-L4" // abstract actions and aspects
	nextStepFCSTM = "Simulate the model (stateproof simulate) to watch it run cycle by cycle"
)

// Result is the outcome of checking one file.
type Result struct {
	Report *report.VerifyReport
	Model  *model.Model // nil when the file does not load
	File   string
}

// ErrUnreadable wraps a failure to read the root file itself: the tool
// cannot run, which is a refusal rather than a report.
var ErrUnreadable = errors.New("cannot read the model file")

// Check loads the FCSTM file at path and lints it.
func Check(path string, opts model.Options) (*Result, error) {
	read := opts.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	src, err := read(path)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrUnreadable, path, err)
	}
	return CheckSource(path, src, opts), nil
}

// CheckSource lints FCSTM source text; path names it in positions and
// anchors relative imports.
func CheckSource(path string, src []byte, opts model.Options) *Result {
	return checkSource(context.Background(), path, src, opts)
}

// CheckSourceContext is CheckSource that gives up when ctx ends (an
// editor's budget, or newer text to check): the error is then ctx's and
// there is no result, since a lint cut short is not known to be clean.
func CheckSourceContext(ctx context.Context, path string, src []byte, opts model.Options) (*Result, error) {
	m, err := model.Parse(path, string(src), opts)
	return CheckLoadedContext(ctx, path, src, m, err)
}

// CheckLoadedContext is CheckSourceContext on a model the caller has
// loaded from src already: m, or loadErr, the load's failure. A caller
// that also inspects the model (the language server) loads it once.
func CheckLoadedContext(ctx context.Context, path string, src []byte, m *model.Model, loadErr error) (*Result, error) {
	res := checkLoaded(ctx, path, src, m, loadErr)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return res, nil
}

func checkSource(ctx context.Context, path string, src []byte, opts model.Options) *Result {
	m, err := model.Parse(path, string(src), opts)
	return checkLoaded(ctx, path, src, m, err)
}

func checkLoaded(ctx context.Context, path string, src []byte, m *model.Model, err error) *Result {
	sum := sha256.Sum256(src)
	rep := &report.VerifyReport{Valid: true, HashSpec: HashSpec, ModelHash: hex.EncodeToString(sum[:]), FinalStep: nextStepFCSTM}
	res := &Result{Report: rep, File: path}
	if err != nil {
		rep.Valid = false
		rep.Checks = []report.Check{loadCheck(err)}
		return res
	}
	res.Model = m
	if ctx.Err() != nil {
		return res
	}
	rep.States, rep.Transitions = countStates(m)
	rep.Checks = []report.Check{
		{ID: CheckModel, Name: "Model Construction", Detail: "The model parses and constructs"},
		initCheck(m),
		reachCheck(ctx, m),
		parentCheck(ctx, m),
		warningCheck(m, CheckCombo, "Combo Triggers", "W_COMBO_", "No duplicate event or constant guard term in a combo"),
		warningCheck(m, CheckActions, "Actions", "", "Every abstract action has a name; every aspect has leaves below it"),
	}
	return res
}

// loadCheck turns load errors into MODEL findings, each located and
// carrying the offending line with a caret.
func loadCheck(err error) report.Check {
	list := ast.Errors(err, "")
	c := report.Check{ID: CheckModel, Name: "Model Construction", Detail: fmt.Sprintf("%d load error(s)", len(list))}
	for _, e := range list {
		c.Findings = append(c.Findings, report.Finding{
			Code: e.Code, Severity: report.Error, Message: e.Error(), Detail: e.Snippet(),
			Evidence: locEvidence(e.File, e.Pos.Line, e.Pos.Col),
		})
	}
	return c
}

func locEvidence(file string, line, col int) report.Obj {
	return report.Obj{{Key: "file", Value: file}, {Key: "line", Value: line}, {Key: "col", Value: col}}
}

func at(p model.Pos) report.Obj { return locEvidence(p.File, p.Line, p.Col) }

// finding is a finding of a lint code, with the severity the registry of
// codes (package codes) gives it: the registry, not the lint, says how
// severe a code is, so verify, inspect and the language server agree. A
// code missing from the registry is a bug of this package
// (TestRegistryHoldsEveryCode); it is reported as a warning, which
// neither fails the model nor hides the finding.
func finding(code string, target any, pos model.Pos, msg string) report.Finding {
	sev := report.Warning
	if c, ok := codes.Lookup(code); ok {
		sev = c.Severity
	}
	return report.Finding{Code: code, Severity: sev, Target: target, Evidence: at(pos), Message: msg}
}

// Locator places findings on the lines of the model files for SARIF.
func (r *Result) Locator() func(*report.Finding) report.Location {
	return func(f *report.Finding) report.Location {
		loc := report.Location{URI: r.File, Line: 1, Col: 1}
		if file, ok := f.Evidence.Get("file").(string); ok && file != "" {
			loc.URI = file
		}
		if l, ok := f.Evidence.Get("line").(int); ok && l > 0 {
			loc.Line = l
		}
		if c, ok := f.Evidence.Get("col").(int); ok && c > 0 {
			loc.Col = c
		}
		return loc
	}
}

// countStates counts written states (generated combo states excluded)
// and all transitions.
func countStates(m *model.Model) (states, transitions int) {
	var walk func(s *model.State)
	walk = func(s *model.State) {
		if !s.Combo {
			states++
		}
		transitions += len(s.Transitions)
		for _, c := range s.Children {
			walk(c)
		}
	}
	walk(m.Root)
	return states, transitions
}

// initCheck reports initialisers without a value of their type: a cold
// start raises on them (a hot start may override them).
func initCheck(m *model.Model) report.Check {
	c := report.Check{ID: CheckInit, Name: "Initial Values", Detail: "Every initial value has a value of its type"}
	for _, v := range m.Vars {
		if v.InitErr != nil {
			c.Findings = append(c.Findings, finding("FCSTM_INIT_INVALID", v.Name, v.InitErr.Pos,
				fmt.Sprintf("%s: a cold start raises on it (%s)", v.InitErr.Message, v.InitErr.Code)))
		}
	}
	if len(c.Findings) > 0 {
		c.Detail = fmt.Sprintf("%d initial value(s) without a value of their type", len(c.Findings))
	}
	return c
}

// warningCheck reports the construction warnings whose code starts with
// prefix (all the others when prefix is empty and it is the actions check).
func warningCheck(m *model.Model, id, name, prefix, clean string) report.Check {
	c := report.Check{ID: id, Name: name, Detail: clean}
	for _, w := range m.Warnings {
		combo := strings.HasPrefix(w.Code, "W_COMBO_")
		if prefix != "" && !combo || prefix == "" && combo {
			continue
		}
		c.Findings = append(c.Findings, finding("FCSTM_"+strings.TrimPrefix(w.Code, "W_"), nil, w.Pos, w.Message))
	}
	if len(c.Findings) > 0 {
		c.Detail = fmt.Sprintf("%d finding(s)", len(c.Findings))
	}
	return c
}
