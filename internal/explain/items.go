package explain

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/stateproof/stateproof/internal/smt"
)

// Core is the published core object.
type Core struct {
	Scope, FormulaSummary       string
	Reduction, SubsetMinimality string
	Items                       []Item
}

// Item is one core member with its location, exact excerpt and fact.
type Item struct {
	Group               *smt.Group
	ID, Stage, Category string
	Role                string
	SourceKind, Path    string // path "" is null (generated)
	Line, Col           int    // 0: unknown
	EndLine, EndCol     int
	Summary             string
	Excerpt             *string // nil when the span cannot be sliced
	ExcerptTruncated    *bool
	Fact                fact
	HumanText           string
	Editable            bool
	Frames, Steps       []int
	JSONPath            string // the model element, for JSON sources
	// Raises lists where the runtime raises in the cycles a step relation
	// excludes (error cases), as file:line:col with what fails.
	Raises []string
}

// maxRaises bounds the raise sites one item lists.
const maxRaises = 8

// raiseSites renders the error cases a step relation excludes, in case
// order, each site once.
func raiseSites(g *smt.Group) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range g.Excluded {
		site := c.Src.String()
		if site == "" {
			site = c.Label
		}
		if seen[site] {
			continue
		}
		seen[site] = true
		if len(out) == maxRaises {
			out = append(out, "and further sites")
			break
		}
		out = append(out, site)
	}
	return out
}

const maxExcerpt = 4096

func publishCore(c *coreResult, src *sources) *Core {
	out := &Core{Scope: c.scope, Reduction: c.reduction, SubsetMinimality: "not_proven"}
	if c.reduction == "subset_minimal" {
		out.SubsetMinimality = "proven"
	}
	var ids []string
	for _, g := range c.members {
		out.Items = append(out.Items, src.item(g))
		ids = append(ids, g.ID)
	}
	out.FormulaSummary = fmt.Sprintf("UNSAT(%s)", strings.Join(ids, " ∧ "))
	return out
}

var digits = regexp.MustCompile(`\.\d{4}`)

// category is the stable id without its numbers and names (Decision), with
// definedness groups as definedness.<parent category>.
func category(id string) string {
	c := digits.ReplaceAllString(id, "")
	if strings.HasPrefix(c, "initial.variable.") {
		rest := strings.TrimPrefix(c, "initial.variable.")
		c = "initial.variable"
		if strings.HasSuffix(rest, ".definedness") {
			c += ".definedness"
		}
	}
	if strings.HasSuffix(c, ".definedness") {
		c = "definedness." + strings.TrimSuffix(c, ".definedness")
	}
	return c
}

func (s *sources) item(g *smt.Group) Item {
	it := Item{Group: g, ID: g.ID, Stage: g.Stage.String(), Category: category(g.ID), Role: g.Role, Fact: s.factOf(g)}
	it.HumanText = sentence(it.Fact)
	if g.Role == "transition_rule" && it.Fact.kind() == "structural_constraint" {
		// A whole step relation: no single fact, but the reader should know
		// what it constrains.
		it.HumanText = fmt.Sprintf("At step %d the machine takes one of the moves the model allows from its state", g.Frame)
		if len(g.Excluded) > 0 {
			it.Raises = raiseSites(g)
			it.HumanText += fmt.Sprintf("; the cycles in which the runtime raises are not moves (%s)", strings.Join(it.Raises, "; "))
		}
	}
	switch {
	case g.Role == "domain_rule" || g.Role == "transition_rule":
		// Domain groups and whole step relations are generated.
		it.SourceKind = "generated"
	case strings.HasPrefix(g.ID, "assumption.") || strings.HasPrefix(g.ID, "initial.where") || (g.ID == "initial.target" && s.q.Init != nil):
		it.SourceKind, it.Path = "fbmcq", g.Src.File
	case s.sys.Format == "" || s.sys.Format == "json":
		it.SourceKind, it.Path, it.JSONPath = "json", g.Src.File, g.Src.Path
	default:
		// Another front end's declaration (an FCSTM `def` line): its
		// file:line:col is the location.
		it.SourceKind, it.Path = s.sys.Format, g.Src.File
	}
	if it.SourceKind != "generated" {
		it.Editable = true
		it.Line, it.Col, it.EndLine, it.EndCol = g.Src.Line, g.Src.Col, g.Src.EndLine, g.Src.EndCol
		if g.Src.Excerpt != "" {
			ex, cut := truncate(g.Src.Excerpt)
			it.Excerpt, it.ExcerptTruncated = &ex, &cut
		}
	}
	it.Summary = s.summary(g)
	if strings.HasPrefix(g.ID, "transition.") || strings.Contains(g.ID, ".event.") || strings.Contains(g.ID, ".cardinality.") {
		it.Steps = []int{g.Frame}
		it.Frames = []int{g.Frame, g.Frame + 1}
	} else {
		it.Frames = []int{g.Frame}
	}
	return it
}

func truncate(s string) (string, bool) {
	if utf8.RuneCountInString(s) <= maxExcerpt {
		return s, false
	}
	return string([]rune(s)[:maxExcerpt]), true
}

func (s *sources) summary(g *smt.Group) string {
	switch {
	case g.Role == "domain_rule":
		return fmt.Sprintf("the state at frame %d is a declared state", g.Frame)
	case g.Role == "transition_rule":
		return fmt.Sprintf("step %d follows exactly one case of the transition relation", g.Frame)
	case strings.Contains(g.ID, ".definedness."):
		return fmt.Sprintf("the condition of %s is defined at frame %d", strings.Split(g.ID, ".definedness.")[0], g.Frame)
	case strings.Contains(g.ID, ".event."):
		return fmt.Sprintf("an event requirement at step %d", g.Frame)
	case strings.Contains(g.ID, ".cardinality."):
		return fmt.Sprintf("at most one event of a pool at step %d", g.Frame)
	case g.ID == "initial.target":
		return "the initial state"
	case strings.HasPrefix(g.ID, "initial.variable."):
		return "the initial value of " + strings.TrimPrefix(g.ID, "initial.variable.")
	case strings.HasPrefix(g.ID, "initial.where"):
		return "the init clause's where condition"
	}
	return fmt.Sprintf("an assumption at frame %d", g.Frame)
}

// location renders file:line:col (or file path for JSON elements).
func (it *Item) location() string {
	switch {
	case it.SourceKind == "generated":
		return "generated"
	case it.Line > 0 && it.JSONPath != "":
		return fmt.Sprintf("%s:%d:%d (%s)", it.Path, it.Line, it.Col, it.JSONPath)
	case it.Line > 0:
		return fmt.Sprintf("%s:%d:%d", it.Path, it.Line, it.Col)
	case it.JSONPath != "":
		return fmt.Sprintf("%s (%s)", it.Path, it.JSONPath)
	}
	return it.Path
}
