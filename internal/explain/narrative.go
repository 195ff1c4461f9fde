package explain

import (
	"fmt"
)

// Narrative is rendered from the published core and its facts alone, or
// from the published proof: no file read, no solver.
type Narrative struct {
	DerivationStatus string // complete, partial, structural_only, not_available
	Headline         string
	Summary          string
	Steps            []ReasoningStep
	ReviewSurfaces   []string
}

// ReasoningStep is one step of the narrative.
type ReasoningStep struct {
	Kind     string // fact, derivation, conflict
	ItemIDs  []string
	ProofIDs []string
	Text     string
}

func narrate(c *Core, pr *Proof) *Narrative {
	n := &Narrative{ReviewSurfaces: []string{}}
	for _, it := range c.Items {
		if it.Editable {
			n.ReviewSurfaces = append(n.ReviewSurfaces, it.ID)
		}
	}
	switch {
	case pr != nil:
		n.DerivationStatus = "complete"
		for _, pn := range pr.Nodes {
			kind := map[string]string{"input": "fact", "derived": "derivation", "contradiction": "conflict"}[pn.Kind]
			n.Steps = append(n.Steps, ReasoningStep{Kind: kind, ItemIDs: pn.Items, ProofIDs: []string{pn.ID}, Text: pn.HumanText})
		}
	default:
		n.DerivationStatus, n.Steps = factChain(c)
	}
	n.Headline = fmt.Sprintf("%d constraint(s) cannot hold together", len(c.Items))
	n.Summary = summaryOf(n.DerivationStatus, len(c.Items))
	return n
}

// factChain saturates the published facts with the pure rules (the solver
// rules are not available to a narrative) and keeps the chain to the
// first contradiction, if any.
func factChain(c *Core) (string, []ReasoningStep) {
	d := &deriver{seen: map[string]bool{}, rejected: map[string]bool{}}
	var steps []ReasoningStep
	structuralOnly := true
	for _, it := range c.Items {
		steps = append(steps, ReasoningStep{Kind: "fact", ItemIDs: []string{it.ID}, ProofIDs: []string{}, Text: it.HumanText})
		f := internalFact(it.Fact)
		if f == nil {
			continue
		}
		structuralOnly = false
		d.seen[canon(f)] = true
		d.nodes = append(d.nodes, &node{kind: "input", conclusion: f, items: []string{it.ID}, unitIndex: -1})
	}
	if structuralOnly {
		return "structural_only", steps
	}
	root, err := d.saturate()
	if err != nil || root < 0 {
		return "partial", steps
	}
	for i := len(c.Items); i < len(d.nodes); i++ {
		n := d.nodes[i]
		kind := "derivation"
		if n.kind == "contradiction" {
			kind = "conflict"
		}
		steps = append(steps, ReasoningStep{Kind: kind, ItemIDs: inputItems(d.nodes, i), ProofIDs: []string{}, Text: nodeSentence(n)})
	}
	return "complete", steps
}

func inputItems(nodes []*node, i int) []string {
	seen := map[string]bool{}
	var out []string
	var walk func(k int)
	walk = func(k int) {
		if nodes[k].kind == "input" {
			for _, id := range nodes[k].items {
				if !seen[id] {
					seen[id] = true
					out = append(out, id)
				}
			}
		}
		for _, q := range nodes[k].premises {
			walk(q)
		}
	}
	walk(i)
	return out
}

func summaryOf(ds string, n int) string {
	switch ds {
	case "complete":
		return fmt.Sprintf("The %d core members lead to a contradiction step by step.", n)
	case "structural_only":
		return fmt.Sprintf("The %d core members cannot hold together; their content is structural, so no step-by-step account is given.", n)
	}
	return fmt.Sprintf("The %d core members cannot hold together; the published facts do not close the chain.", n)
}
