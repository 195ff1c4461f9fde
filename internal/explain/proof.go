package explain

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/explain/rulecheck"
	"github.com/stateproof/stateproof/internal/smt"
)

// Proof is the published proof object.
type Proof struct {
	Scope  string
	RootID string
	Nodes  []ProofNode
}

// ProofNode is one published node.
type ProofNode struct {
	ID, Kind, Rule     string
	Premises           []string
	Conclusion         fact
	Items              []string
	HumanText          string
	Method             string
	UnitIndex, UnitCnt int // UnitIndex -1: not a unit binding
}

// prover holds what the construction shares: the core, the solver, the
// ledger rows it accumulates.
type prover struct {
	req     *bmc.ExplainRequest
	core    *Core
	members []*smt.Group
	io      *solverIO
	led     *ledger
	binding rowAcc
	caseRow rowAcc
	carry   rowAcc
}

// rowAcc accumulates one ledger row over many checks.
type rowAcc struct {
	used    bool
	status  string
	reason  string
	elapsed float64
}

func (r *rowAcc) note(c bmc.Check) {
	r.used = true
	r.elapsed += c.ElapsedMS
	st := probeStatus(c.Status, c.Ran)
	if (st == "timeout" || st == "unknown") && r.status == "" {
		r.status, r.reason = st, c.Reason
		if !c.Ran {
			r.reason = "deadline exhausted"
		}
	}
}

func (r *rowAcc) emit(l *ledger, name string) {
	if !r.used {
		return
	}
	st := r.status
	if st == "" {
		st = "complete"
	}
	l.add(name, st, r.reason, r.elapsed)
}

// buildProof runs the search: one input per member (refusing
// duplicate facts), saturation, pruning to the root's cone (refusing a
// proof that leaves a member unused), and verification of every node. It
// returns nil and the reason when no proof can be published.
func buildProof(req *bmc.ExplainRequest, core *Core, c *coreResult, io *solverIO, led *ledger, src *sources) (*Proof, string, error) {
	p := &prover{req: req, core: core, members: c.members, io: io, led: led}
	pr, reason, err := p.build(src)
	p.binding.emit(led, "core_binding")
	p.caseRow.emit(led, "case_condition")
	p.carry.emit(led, "value_carry")
	st := "complete"
	if pr == nil {
		st = "unknown"
		for _, r := range []rowAcc{p.binding, p.caseRow, p.carry} {
			if r.status == "timeout" {
				st = "timeout"
			}
		}
	}
	led.add("proof_construction", st, map[bool]string{true: "", false: reason}[pr != nil], 0)
	return pr, reason, err
}

func (p *prover) build(src *sources) (*Proof, string, error) {
	d := &deriver{seen: map[string]bool{}, rejected: map[string]bool{}, entail: p.entail}
	for k, g := range p.members {
		in, why, err := p.input(g, core0(p.core, k), src)
		if err != nil || in == nil {
			return nil, why, err
		}
		key := canon(in.conclusion)
		if d.seen[key] {
			return nil, fmt.Sprintf("two core members state the same fact (%s): one input node cannot stand for both (equation 9)", sentence(p.core.Items[k].Fact)), nil
		}
		d.seen[key] = true
		d.nodes = append(d.nodes, in)
	}
	root, err := d.saturate()
	if err != nil {
		return nil, "", err
	}
	if root < 0 {
		return nil, p.noCloseReason(), nil
	}
	return p.publish(d.nodes, root)
}

func core0(c *Core, k int) Item { return c.Items[k] }

func (p *prover) noCloseReason() string {
	steps := 0
	for _, g := range p.members {
		if g.Role == "transition_rule" {
			steps++
		}
	}
	if steps > 1 {
		return "cross-step conflict: the values that clash are accumulated over several steps, and an intermediate frame's value is stated by no core member, so no proof can start there; the formal explanation gives the minimal core and its locations"
	}
	return "no rule in the catalog closes this core"
}

// input makes the input node of one member, bound in both directions.
func (p *prover) input(g *smt.Group, it Item, src *sources) (*node, string, error) {
	if g.Role == "transition_rule" {
		return p.unitInput(g, src)
	}
	f := internalFact(it.Fact)
	if f == nil {
		if strings.Contains(g.ID, ".event.") || strings.Contains(g.ID, ".cardinality.") {
			return nil, "event-only conflict: an event assumption is published as a structural constraint that no proof rule reads, so the explanation stops at formal", nil
		}
		return nil, fmt.Sprintf("core member %s has no recognised fact (structural constraint): no input node can restate it", g.ID), nil
	}
	term, err := p.encodeFact(it.Fact)
	if err != nil || term == nil {
		return nil, fmt.Sprintf("the fact of %s cannot be re-encoded", g.ID), err
	}
	ok, err := p.bind(g.Formula, term, g.ID)
	if err != nil || !ok {
		return nil, fmt.Sprintf("core_binding of %s did not refute both directions", g.ID), err
	}
	return &node{kind: "input", rule: "source_fact", conclusion: f, items: []string{g.ID}, method: "core_binding", unitIndex: -1}, "", nil
}

// publish prunes to the root's cone, refuses a proof that leaves a member
// unread, renumbers, and verifies every derived node with the independent
// checker.
func (p *prover) publish(nodes []*node, root int) (*Proof, string, error) {
	keep := map[int]bool{}
	var mark func(i int)
	mark = func(i int) {
		if keep[i] {
			return
		}
		keep[i] = true
		for _, q := range nodes[i].premises {
			mark(q)
		}
	}
	mark(root)
	for k := range p.members {
		if !keep[k] {
			return nil, fmt.Sprintf("the contradiction does not use core member %s, so the inputs and the core would not stand in bijection (equation 9)", p.members[k].ID), nil
		}
	}
	ids := map[int]string{}
	nIn, nStep := 0, 0
	pr := &Proof{Scope: p.core.Scope}
	for i, n := range nodes {
		if !keep[i] {
			continue
		}
		if n.kind == "input" {
			ids[i] = fmt.Sprintf("proof.input.%04d", nIn)
			nIn++
		} else {
			ids[i] = fmt.Sprintf("proof.step.%04d", nStep)
			nStep++
		}
		pn := ProofNode{ID: ids[i], Kind: n.kind, Rule: n.rule, Conclusion: n.conclusion, Items: n.items, Method: n.method, UnitIndex: n.unitIndex, UnitCnt: n.unitCount, Premises: []string{}}
		for _, q := range n.premises {
			pn.Premises = append(pn.Premises, ids[q])
		}
		if n.method == "rule_checker" {
			if err := p.verify(n, nodes); err != nil {
				return nil, fmt.Sprintf("the rule checker refused %s (%s): %v", ids[i], n.rule, err), nil
			}
			pn.Items = p.itemsOf(n, nodes)
		}
		pn.HumanText = nodeSentence(n)
		pr.Nodes = append(pr.Nodes, pn)
	}
	pr.RootID = ids[root]
	return pr, "", nil
}

// itemsOf is the set of core members a derived node rests on.
func (p *prover) itemsOf(n *node, nodes []*node) []string {
	seen := map[string]bool{}
	var walk func(m *node)
	walk = func(m *node) {
		if m.kind == "input" {
			for _, it := range m.items {
				seen[it] = true
			}
		}
		for _, q := range m.premises {
			walk(nodes[q])
		}
	}
	walk(n)
	var out []string
	for _, g := range p.members {
		if seen[g.ID] {
			out = append(out, g.ID)
		}
	}
	return out
}

// verify hands the node to the independent rule checker in its published
// JSON form.
func (p *prover) verify(n *node, nodes []*node) error {
	var prem []json.RawMessage
	for _, q := range n.premises {
		prem = append(prem, json.RawMessage(canon(nodes[q].conclusion)))
	}
	return rulecheck.Check(n.rule, prem, json.RawMessage(canon(n.conclusion)))
}

func nodeSentence(n *node) string {
	f := n.conclusion
	switch f.kind() {
	case "false":
		return "These cannot hold together (" + strings.ReplaceAll(n.rule, "_", " ") + "): the scenario is infeasible"
	case "variable_equality":
		if f["state_slot"] == true {
			return fmt.Sprintf("The state at frame %v is %v", f["frame"], f["value"])
		}
		return fmt.Sprintf("%v is %v at frame %v", f["variable"], f["value"], f["frame"])
	case "variable_bound":
		return fmt.Sprintf("%v %s %v at frame %v", f["variable"], map[any]string{"lt": "is below", "le": "is at most", "gt": "is above", "ge": "is at least"}[f["operator"]], f["value"], f["frame"])
	case "state_exclusion":
		return fmt.Sprintf("The state at frame %v is not %v", f["frame"], f["state"])
	case "state_domain":
		return fmt.Sprintf("The state at frame %v is one of %s", f["frame"], joinAny(f["states"]))
	case "definedness_guard":
		return fmt.Sprintf("At frame %v, %v must be nonzero (it divides)", f["frame"], f["variable"])
	case "proposition":
		return sentence(fact{"kind": "proposition", "identity": f["identity"], "holds": f["holds"]})
	case "transition_case":
		return caseSentence(f)
	case "arithmetic_expression":
		var parts []string
		for _, o := range f["operands"].([]any) {
			om := o.(map[string]any)
			if v, ok := om["value"]; ok {
				parts = append(parts, fmt.Sprint(v))
			} else {
				parts = append(parts, fmt.Sprintf("%v (frame %v)", om["variable"], om["frame"]))
			}
		}
		return fmt.Sprintf("%v at frame %v is %s", f["variable"], f["frame"], strings.Join(parts, " "+arithSymbol(f["operation"])+" "))
	}
	return fmt.Sprint(f)
}
