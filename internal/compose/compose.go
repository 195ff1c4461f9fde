package compose

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/progress"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/runtime"
)

// Options are the compose options.
type Options struct {
	MaxStates  int      // cap of the product search (default 10000)
	HashSpec   string   // "v0" or "v1" (default), for the machine hashes
	Rendezvous []string // events that synchronise the machines declaring them
	// MaxFindings is how many findings each check lists (0: all); the
	// rest are counted in the check's detail and the summary.
	MaxFindings int
	// Done, when closed, stops the product search as its cap would (the
	// report says truncated, so nothing built on it passes): a cancelled
	// request stops its work. Nil never stops.
	Done <-chan struct{}
	// Progress, when set, is sent the product search's snapshot (states
	// stored, depth, queue) at most every progress.SampleEvery; nil
	// costs nothing.
	Progress progress.Reporter
	// progressEvery replaces progress.SampleEvery in tests (negative:
	// at every sample point).
	progressEvery time.Duration
}

// DefaultMaxFindings is the default number of findings listed per check.
const DefaultMaxFindings = 1000

// DefaultOptions returns the defaults.
func DefaultOptions() Options {
	return Options{MaxStates: 10000, HashSpec: "v1", MaxFindings: DefaultMaxFindings}
}

// Input is one machine: its file name (for text output) and what the front
// end made of it.
type Input struct {
	Name   string
	Result *jsonmodel.Result
}

// Run checks the machines together: C1 Composition Deadlock and C2
// Rendezvous Sync. Fewer than two machines, an invalid machine, or a
// rendezvous event no machine declares gives the single check MODEL.
func Run(in []Input, opts Options) *report.ComposeReport {
	var rdv []string
	for _, e := range opts.Rendezvous {
		if !slices.Contains(rdv, e) {
			rdv = append(rdv, e)
		}
	}
	opts.Rendezvous = rdv
	r := &report.ComposeReport{HashSpec: opts.HashSpec, MaxStates: opts.MaxStates, Rendezvous: opts.Rendezvous}
	var msgs []string
	if len(in) < 2 {
		msgs = append(msgs, fmt.Sprintf("composition needs at least two machines (got %d)", len(in)))
	}
	for i, x := range in {
		m := report.ComposeMachine{Name: x.Name}
		for _, k := range x.Result.MetadataKeys {
			r.MetadataKeys = append(r.MetadataKeys, fmt.Sprintf("machines[%d].%s", i, k))
		}
		for _, e := range x.Result.Errors {
			msgs = append(msgs, fmt.Sprintf("machine %d invalid: %s", i, e))
		}
		if x.Result.Valid() {
			mod := x.Result.Model
			m.ModelHash, _ = jsonmodel.Hash(mod.Raw, opts.HashSpec)
			m.States, m.Transitions = len(mod.States), len(mod.Transitions)
			for _, v := range mod.Variables {
				m.Variables = append(m.Variables, v.Name)
			}
		}
		r.Machines = append(r.Machines, m)
	}
	jsonvalue.SortUTF16(r.MetadataKeys)
	if len(msgs) == 0 {
		msgs = undeclaredRendezvous(in, opts.Rendezvous)
	}
	if len(msgs) > 0 {
		c := report.Check{ID: "MODEL", Name: "Model Validation", Detail: fmt.Sprintf("%d validation error(s)", len(msgs))}
		for _, msg := range msgs {
			c.Findings = append(c.Findings, report.Finding{Code: "MODEL_INVALID", Severity: report.Error, Message: msg})
		}
		r.Checks = []report.Check{c}
		return r
	}
	r.Valid = true
	mcs := make([]*runtime.Machine, len(in))
	for i, x := range in {
		mcs[i] = runtime.Compile(x.Result.Model)
	}
	p := newProduct(mcs, opts.Rendezvous, opts.MaxStates)
	p.done, p.progress = opts.Done, opts.Progress
	p.sample.Every = opts.progressEvery
	p.run()
	r.CompositeStates, r.Truncated = p.len(), p.truncated
	r.Checks = []report.Check{p.c1Deadlock(), p.c2Sync(opts.Rendezvous)}
	r.MaxFindings = opts.MaxFindings
	for i := range r.Checks {
		r.Checks[i].Limit(opts.MaxFindings)
	}
	return r
}

// undeclaredRendezvous: every --rendezvous event must be in some machine's
// alphabet, or it is a reference that resolves to nothing.
func undeclaredRendezvous(in []Input, rendezvous []string) []string {
	var msgs []string
	for _, e := range rendezvous {
		found := false
		for _, x := range in {
			for _, t := range x.Result.Model.Transitions {
				found = found || t.Event == e
			}
		}
		if !found {
			msgs = append(msgs, fmt.Sprintf("rendezvous: event %q is declared by no machine", e))
		}
	}
	return msgs
}

// label renders a composite state as the tuple of its machines' state ids.
func (p *product) label(n int) string {
	t := p.tuple(n)
	parts := make([]string, p.k)
	for i, l := range p.locals {
		parts[i] = l.mc.States[l.state(t[i])]
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// runtimeLabel renders a composite runtime: each machine's state id, and
// its variables (canonical JSON) when it has any.
func (p *product) runtimeLabel(n int) string {
	t := p.tuple(n)
	parts := make([]string, p.k)
	for i, l := range p.locals {
		parts[i] = l.mc.States[l.state(t[i])]
		if len(l.mc.Vars) > 0 {
			parts[i] += " " + string(jsonvalue.Canonical(l.mc.VarsValue(l.runtime(t[i])), false))
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// trace rebuilds the shortest path to node n: the composite path by state
// tuples, and the steps of evidence (event and the machines that moved).
func (p *product) trace(n int) ([]report.Step, []report.Obj) {
	var nodes []int
	for j := n; p.parent[j] >= 0; j = int(p.parent[j]) {
		nodes = append(nodes, j)
	}
	path := make([]report.Step, 0, len(nodes))
	steps := make([]report.Obj, 0, len(nodes))
	for k := len(nodes) - 1; k >= 0; k-- {
		j := nodes[k]
		par := int(p.parent[j])
		u := int(p.viaEvent[j])
		moved := []int{int(p.viaMachine[j])}
		if p.viaMachine[j] < 0 {
			moved, _ = p.participants(u, p.tuple(par), p.terminals(par))
		}
		path = append(path, report.Step{From: p.label(par), Event: p.events[u].name, To: p.label(j)})
		steps = append(steps, report.O("event", p.events[u].name, "machines", moved))
	}
	return path, steps
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Validate refuses options no run can honour, with a *report.OptionError
// (shared by the command line and the MCP server).
func (o Options) Validate() error {
	if err := report.CheckMaxStates(o.MaxStates); err != nil {
		return err
	}
	if err := report.CheckRange("maxFindings", o.MaxFindings, 0, -1); err != nil {
		return err
	}
	return report.CheckHashSpec(o.HashSpec)
}
