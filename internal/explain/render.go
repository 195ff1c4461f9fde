package explain

import (
	"fmt"
	"sort"
	"strings"
)

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// JSON renders the explanation object.
func (ex *Explanation) JSON() map[string]any {
	out := map[string]any{
		"requested_mode": ex.RequestedMode, "achieved_mode": ex.AchievedMode, "status": ex.Status,
		"classification": nullable(ex.Classification), "core": nil, "proof": nil, "narrative": nil,
		"reason": nullable(ex.Reason), "elapsed_ms": ex.ElapsedMS,
	}
	if ex.Core != nil {
		out["core"] = ex.Core.json()
	}
	if ex.Proof != nil {
		out["proof"] = ex.Proof.json()
	}
	if ex.Narrative != nil {
		out["narrative"] = ex.Narrative.json()
	}
	return out
}

func (c *Core) json() map[string]any {
	items := make([]any, len(c.Items))
	for i := range c.Items {
		items[i] = c.Items[i].json()
	}
	return map[string]any{"scope": c.Scope, "formula_summary": c.FormulaSummary, "granularity": "source_group",
		"reduction": c.Reduction, "subset_minimality": c.SubsetMinimality, "items": items}
}

func (it *Item) json() map[string]any {
	var span any
	if it.Line > 0 {
		sp := map[string]any{"line": it.Line, "column": it.Col, "end_line": nil, "end_column": nil}
		if it.EndLine > 0 {
			sp["end_line"], sp["end_column"] = it.EndLine, it.EndCol
		}
		span = sp
	}
	refs := map[string]any{}
	if it.JSONPath != "" {
		refs["json_path"] = it.JSONPath
	}
	if len(it.Raises) > 0 {
		refs["runtime_errors"] = it.Raises
	}
	frames, steps := it.Frames, it.Steps
	if steps == nil {
		steps = []int{}
	}
	constraint := map[string]any{"stable_id": it.ID, "stage": it.Stage, "category": it.Category,
		"source":  map[string]any{"kind": it.SourceKind, "path": nullable(it.Path), "span": span},
		"summary": it.Summary, "frames": frames, "steps": steps, "refs": refs}
	var excerpt, cut any
	if it.Excerpt != nil {
		excerpt, cut = *it.Excerpt, *it.ExcerptTruncated
	}
	return map[string]any{"constraint": constraint, "semantic_role": it.Role, "source_excerpt": excerpt,
		"source_excerpt_truncated": cut, "normalized_fact": map[string]any(it.Fact), "human_text": it.HumanText, "editable": it.Editable}
}

func (pr *Proof) json() map[string]any {
	nodes := make([]any, len(pr.Nodes))
	for i, n := range pr.Nodes {
		m := map[string]any{"stable_id": n.ID, "kind": n.Kind, "rule_id": n.Rule, "premise_ids": n.Premises,
			"conclusion": map[string]any(n.Conclusion), "item_ids": n.Items, "human_text": n.HumanText, "verification_method": n.Method}
		if n.Method == "core_binding_unit" {
			m["unit_index"], m["unit_count"] = n.UnitIndex, n.UnitCnt
		}
		nodes[i] = m
	}
	return map[string]any{"scope": pr.Scope, "root_id": pr.RootID, "nodes": nodes, "input_minimality": "subset_minimal",
		"graph_minimality": "dependency_pruned", "verification_status": "verified"}
}

func (n *Narrative) json() map[string]any {
	steps := make([]any, len(n.Steps))
	for i, s := range n.Steps {
		steps[i] = map[string]any{"kind": s.Kind, "item_ids": s.ItemIDs, "proof_node_ids": s.ProofIDs, "text": s.Text}
	}
	return map[string]any{"derivation_status": n.DerivationStatus, "headline": n.Headline, "summary": n.Summary,
		"reasoning_steps": steps, "review_surfaces": n.ReviewSurfaces}
}

// Text renders the section a person reads top to bottom: the
// headline, depth, classification, what to edit, the core items with their
// excerpts, and the proof as numbered sentences.
func (ex *Explanation) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", ex.headline())
	fmt.Fprintf(&b, "  Explanation depth: requested %s, achieved %s\n", ex.RequestedMode, ex.AchievedMode)
	fmt.Fprintf(&b, "  Classification: %s\n", orNone(ex.Classification))
	if ex.Reason != "" {
		fmt.Fprintf(&b, "  Reason: %s\n", ex.Reason)
	}
	if c := ex.Core; c != nil {
		fmt.Fprintf(&b, "  Core size: %d\n  Reduction: %s\n  Subset minimality: %s\n", len(c.Items), c.Reduction, c.SubsetMinimality)
		if edit := whatToEdit(c); edit != "" {
			fmt.Fprintf(&b, "  What to edit: %s\n", edit)
		}
		b.WriteString("  Core:\n")
		for _, it := range c.Items {
			fmt.Fprintf(&b, "    - %s [%s] at %s\n", it.ID, it.Role, it.location())
			if it.Excerpt != nil {
				fmt.Fprintf(&b, "        %s\n", strings.ReplaceAll(*it.Excerpt, "\n", "\n        "))
			}
			fmt.Fprintf(&b, "        means: %s\n", it.HumanText)
		}
	}
	if ex.Proof != nil {
		b.WriteString("  Proof:\n")
		for i, n := range ex.Proof.Nodes {
			fmt.Fprintf(&b, "    %d. %s%s\n", i+1, n.HumanText, cites(n, ex.Proof))
		}
	} else if ex.Narrative != nil && ex.Narrative.DerivationStatus == "complete" {
		b.WriteString("  Why:\n")
		for i, s := range ex.Narrative.Steps {
			fmt.Fprintf(&b, "    %d. %s.\n", i+1, s.Text)
		}
	}
	return b.String()
}

func (ex *Explanation) headline() string {
	switch {
	case ex.AchievedMode == "proof" && ex.Status == "complete":
		return "COMPLETE VERIFIED DOMAIN PROOF"
	case ex.AchievedMode == "formal" && ex.Status == "complete":
		return "COMPLETE FORMAL DOMAIN EXPLANATION"
	case ex.AchievedMode == "formal" || ex.AchievedMode == "proof":
		return "PARTIAL FORMAL DOMAIN EXPLANATION"
	}
	return strings.ToUpper(ex.RequestedMode) + " EXPLANATION NOT ACHIEVED"
}

// whatToEdit lists the editable files and lines of the core.
func whatToEdit(c *Core) string {
	lines := map[string][]int{}
	for _, it := range c.Items {
		if it.Editable && it.Path != "" {
			lines[it.Path] = append(lines[it.Path], it.Line)
		}
	}
	var files []string
	for f := range lines {
		files = append(files, f)
	}
	sort.Strings(files)
	var parts []string
	for _, f := range files {
		ls := lines[f]
		sort.Ints(ls)
		var s []string
		for i, l := range ls {
			if l > 0 && (i == 0 || ls[i-1] != l) {
				s = append(s, fmt.Sprint(l))
			}
		}
		if len(s) == 0 {
			parts = append(parts, f)
			continue
		}
		parts = append(parts, fmt.Sprintf("%s lines %s", f, strings.Join(s, ", ")))
	}
	return strings.Join(parts, "; ")
}

func cites(n ProofNode, pr *Proof) string {
	if n.Kind == "input" {
		return fmt.Sprintf(" (%s).", strings.Join(n.Items, ", "))
	}
	var refs []string
	for _, p := range n.Premises {
		for i, m := range pr.Nodes {
			if m.ID == p {
				refs = append(refs, fmt.Sprint(i+1))
			}
		}
	}
	if len(refs) == 0 {
		return "."
	}
	return fmt.Sprintf(" (from %s).", strings.Join(refs, ", "))
}

func orNone(s string) string {
	if s == "" {
		return "none (a probe did not decide)"
	}
	return s
}
