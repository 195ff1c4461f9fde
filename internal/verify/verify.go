package verify

import (
	"fmt"
	goruntime "runtime"
	"slices"
	"strings"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/progress"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/runtime"
)

// Options are the verify options.
type Options struct {
	MaxStates            int    // cap of every breadth-first search (default 10000)
	MaxPermutationEvents int    // A3 sample size (default 5)
	HashSpec             string // "v0" or "v1" (default)
	// MaxFindings is how many findings each check lists (default 1000;
	// 0 lists all); the others are counted, with exact totals.
	MaxFindings int
	// Workers is how many goroutines the plain exploration uses (0: one
	// per core). The report does not depend on it.
	Workers int
	// Testing knobs: minParallel lowers the batch size at which the
	// exploration splits work over the workers; alone runs every path
	// invariant's own search instead of reading it off the exploration.
	minParallel int
	alone       bool
	// Explored, when set, is the plain exploration, built elsewhere (a
	// partitioned search over many processes) with Cap MaxStates over a
	// machine compiled from the model: breadth-first, nodes in discovery
	// order with canonical parents, exactly as Search would build it.
	Explored *explore.Graph
	// Reached, when set (and Explored is not), is what a partitioned
	// search tells of the plain exploration instead of its graph. The
	// checks that need more (see ReachedEnough) are undecided, "graph
	// partitioned": they do not search the graph here, which would take
	// the memory the partition spreads.
	Reached *Reached
	// Done, when closed, stops every search as its cap would: the report
	// is then incomplete (undecided findings), and a caller that cancels
	// discards it.
	Done <-chan struct{}
	// Progress, when set, hears from every breadth-first search of the
	// run (see progress.Reporter); nil costs nothing.
	Progress progress.Reporter
	// Spill, when set, lets the plain exploration keep what passes its
	// memory budget on disk; Run records there what the spilling did.
	Spill *Spilling
}

// Spilling is the spill settings of a run and what the run did with
// them. The report does not depend on them: a spilled exploration is the
// in-memory one, and what cannot be decided within the memory budget is
// reported undecided.
type Spilling struct {
	explore.Spill
	// Stats is what the plain exploration spilled (zero if it fit).
	Stats explore.SpillStats
	// Err is a store error (not the disk budget, which leaves checks
	// undecided): the report is incomplete and must not be presented.
	Err error
}

// DefaultMaxFindings is the default number of findings listed per check.
const DefaultMaxFindings = 1000

// DefaultOptions returns the defaults.
func DefaultOptions() Options {
	return Options{MaxStates: 10000, MaxPermutationEvents: 5, HashSpec: "v1", MaxFindings: DefaultMaxFindings}
}

// env is what every check of one run shares.
type env struct {
	m     *jsonmodel.Model
	mc    *runtime.Machine
	opts  Options
	graph *explore.Graph // the plain exploration, built on first use
	rides *riders        // the monitors that ride on it
	adj   *explore.Adjacency
	// adjTooLarge says the edges of a spilled exploration did not fit
	// in the memory budget.
	adjTooLarge bool
	spilled     []*explore.Graph // the searches that spilled
	// besideBudget is the memory budget of a search that runs beside
	// the spilled exploration (0: not set yet).
	besideBudget int64
	comps        *components // SCCs of the runtime graph (A12), built on first use
	// stops names the limits that stopped a search of the run (capKind
	// names: "maxStates", "maxDisk", "memory", …), each once, in the
	// order met; the report's header and next steps name their flags.
	stops []string
	// decided memoises decideInvariant per invariant object: every search
	// is deterministic, so a second evaluation with a fresh budget would
	// repeat the first one exactly.
	decided map[*jsonmodel.Invariant]invariantOutcome
}

func (e *env) explored() *explore.Graph {
	if e.graph == nil {
		s := explore.Search{Machine: e.mc, Cap: e.opts.MaxStates, Done: e.opts.Done, Progress: e.opts.Progress, Task: "explore",
			Monitors: e.riders().monitors, Workers: e.workers(), MinParallel: e.opts.minParallel, KeepEdges: e.needsEdges()}
		if sp := e.opts.Spill; sp != nil {
			s.Spill = &sp.Spill
		}
		e.graph = e.note(s.Run())
		if e.graph.Truncated {
			e.stopped(capKindOf(e.graph))
		}
		if sp := e.opts.Spill; sp != nil && e.graph.IsSpilled() {
			sp.Stats = e.graph.SpillStats()
		}
	}
	return e.graph
}

// workers is the number of goroutines of the plain exploration.
func (e *env) workers() int {
	if e.opts.Workers > 0 {
		return e.opts.Workers
	}
	return goruntime.NumCPU()
}

// riders returns the monitors of the plain exploration, built on first use.
func (e *env) riders() *riders {
	if e.rides == nil {
		e.rides = e.newRiders()
		if e.opts.alone {
			e.rides = &riders{byInv: map[*jsonmodel.Invariant]int{}, deadline: -1}
		}
	}
	return e.rides
}

// adjacency is the edge list of the plain exploration (A9, A12, A13), or
// nil when the exploration spilled and its edges do not fit in the
// memory budget (see tooLarge).
func (e *env) adjacency() *explore.Adjacency {
	if e.adj == nil && !e.adjTooLarge {
		e.adj = e.explored().Adjacency()
		e.adjTooLarge = e.adj == nil
	}
	return e.adj
}

// needsEdges reports whether a check of the model reads the whole
// graph's edges (see adjacency), so that the exploration keeps the edges
// it interns instead of adjacency stepping every runtime again; a model
// without such a check does not pay for them.
func (e *env) needsEdges() bool {
	for _, inv := range e.m.Invariants {
		switch inv.Kind {
		case jsonmodel.LeadsTo, jsonmodel.Budget, jsonmodel.Probability, jsonmodel.LTL:
			return true
		}
	}
	return false
}

// tooLarge is the outcome of a check that needs the whole graph's edges
// when they do not fit in the memory budget: undecided, never a pass.
func (e *env) tooLarge() (invariantOutcome, bool) {
	if e.adjacency() != nil {
		return invariantOutcome{}, false
	}
	return invariantOutcome{undecided: true, capKind: "memory", cap: int(e.opts.Spill.Memory), explored: e.explored().Len()}, true
}

// spillNow is the spill setting of the searches that run beside the plain
// exploration (a path invariant's own search): when the exploration
// spilled, they spill from the start, else they run in memory.
func (e *env) spillNow() *explore.Spill {
	if e.opts.Spill == nil || !e.explored().IsSpilled() {
		return nil
	}
	if e.besideBudget == 0 {
		// the exploration stays (for paths, scans and edges) while the
		// search runs: it keeps only its filter in memory meanwhile
		held := e.graph.Shrink()
		e.besideBudget = max(e.opts.Spill.Memory-held, e.opts.Spill.Memory/4)
	}
	sp := e.opts.Spill.Spill
	sp.Now, sp.Memory = true, e.besideBudget
	return &sp
}

// note keeps a spilled graph, whose store errors the run reports.
func (e *env) note(g *explore.Graph) *explore.Graph {
	if g.IsSpilled() {
		e.spilled = append(e.spilled, g)
	}
	return g
}

// stopped records that a search stopped at the limit kind (a capKind).
func (e *env) stopped(kind string) {
	if !slices.Contains(e.stops, kind) {
		e.stops = append(e.stops, kind)
	}
}

// capKindOf names what stopped a search: its cap, or for a spilling
// search the disk budget.
func capKindOf(g *explore.Graph) string {
	if g.DiskBudgetReached() {
		return "maxDisk"
	}
	return "maxStates"
}

// Run validates nothing (the front end did) and runs every check on a
// valid model, or renders the invalid-model report for an invalid one.
func Run(res *jsonmodel.Result, opts Options) *report.VerifyReport {
	r, _ := runEnv(res, opts)
	return limitFindings(r, opts.MaxFindings)
}

// limitFindings lists at most max findings per check (max <= 0: all).
func limitFindings(r *report.VerifyReport, max int) *report.VerifyReport {
	r.MaxFindings = max
	for i := range r.Checks {
		r.Checks[i].Limit(max)
	}
	return r
}

// runEnv is Run that also returns the env (nil for an invalid model), whose
// exploration and decided invariants a comparison reuses.
func runEnv(res *jsonmodel.Result, opts Options) (*report.VerifyReport, *env) {
	r := &report.VerifyReport{HashSpec: opts.HashSpec, MetadataKeys: res.MetadataKeys, MaxStates: opts.MaxStates}
	if !res.Valid() {
		return invalidReport(r, res), nil
	}
	m := res.Model
	r.Valid = true
	r.ModelHash, _ = jsonmodel.Hash(m.Raw, opts.HashSpec)
	r.States, r.Transitions = len(m.States), len(m.Transitions)
	e := newEnv(m, opts)
	r.Checks = []report.Check{
		e.s1Reachability(), e.s2Deadlock(), e.s3Liveness(),
	}
	s4, s6 := e.s4s6()
	r.Checks = append(r.Checks, s4, e.s5EventCompleteness(), s6, e.s7Invariants(), e.s8Variables())
	r.Checks = append(r.Checks, e.adversarial()...)
	if len(e.invariantsOf(jsonmodel.LTL)) > 0 {
		r.Checks = append(r.Checks, e.a15LTL())
	}
	r.CoverageNotes = CoverageNotes(m)
	r.Truncated, r.StoppedBy = len(e.stops) > 0, e.stops
	if sp := opts.Spill; sp != nil {
		for _, g := range e.spilled {
			if err := g.Err(); err != nil && !g.DiskBudgetReached() && sp.Err == nil {
				sp.Err = err
			}
		}
	}
	if cov, ok := m.NarrativeCoverage(); ok {
		r.NarrativeCoverage = cov.Map()
		r.Narrative = m.Narrative.Raw
		if !cov.Complete() {
			r.Findings = append(r.Findings, report.Finding{
				Code: "NARRATIVE_PARTIAL", Severity: report.Info,
				Message:  fmt.Sprintf("Narrative covers states %d/%d, events %d/%d, scenarios %d/%d", cov.States[0], cov.States[1], cov.Events[0], cov.Events[1], cov.Scenarios[0], cov.Scenarios[1]),
				Evidence: report.O("narrativeCoverage", coverageObj(cov)),
			})
		}
	}
	return r, e
}

func newEnv(m *jsonmodel.Model, opts Options) *env {
	// The exploration's words are read with the JSON machine that built
	// it (big integers are handles into its table); one built over another
	// machine is not used, and verify searches itself.
	if mc, ok := exploredMachine(opts.Explored); ok {
		e := &env{m: m, opts: opts, decided: map[*jsonmodel.Invariant]invariantOutcome{}}
		e.explorationFrom(opts.Explored, mc)
		return e
	}
	e := &env{m: m, mc: runtime.Compile(m), opts: opts, decided: map[*jsonmodel.Invariant]invariantOutcome{}}
	if r := opts.Reached; r != nil {
		if r.Machine != nil {
			e.mc = r.Machine // the hits' runtimes are its words
		}
		if r.Truncated {
			e.stopped("maxStates")
		}
		e.opts.alone = true // no riders: no exploration of its own to ride on
	}
	return e
}

// adversarial runs the probes A1–A14, in order (A15, the LTL check,
// runs only for a model with LTL invariants).
func (e *env) adversarial() []report.Check {
	return []report.Check{
		e.a1Injection(), e.a2Race(), e.a3Permutation(), e.a4PairSymmetry(),
		e.a5BoundaryBlast(), e.a6ResourceInjection(), e.a7Counterexamples(), e.a8IdempotentReplay(),
		e.a9LeadsTo(), e.a10Sequence(), e.a11Atomicity(), e.a12Budget(),
		e.a13Probability(), e.a14Deadline(),
	}
}

func coverageObj(c jsonmodel.Coverage) report.Obj {
	var o report.Obj
	for _, d := range c.Map() {
		o = append(o, report.KV{Key: d[0], Value: d[1]})
	}
	return o
}

func invalidReport(r *report.VerifyReport, res *jsonmodel.Result) *report.VerifyReport {
	r.ModelHash = ""
	r.MissingDescription = res.MissingDescription
	c := report.Check{ID: "MODEL", Name: "Model Validation", Detail: fmt.Sprintf("%d validation error(s)", len(res.Errors))}
	for _, msg := range res.Errors {
		c.Findings = append(c.Findings, report.Finding{Code: "MODEL_INVALID", Severity: report.Error, Message: msg})
	}
	r.Checks = []report.Check{c}
	return r
}

// finding builds a finding with its code, severity and message.
func finding(code, severity, msg string) report.Finding {
	return report.Finding{Code: code, Severity: severity, Message: msg}
}

// withPath attaches an explorer path as report steps; an empty path is
// still a path (the initial runtime is the witness).
func withPath(f report.Finding, p []explore.Step) report.Finding {
	f.HasPath = true
	f.Path = make([]report.Step, len(p))
	for i, s := range p {
		f.Path[i] = report.Step{From: s.From, Event: s.Event, To: s.To}
	}
	return f
}

// undecided builds the *_UNDECIDED finding. invariant is "" for
// checks that are not about one invariant.
func undecided(code, subject string, cap, explored int, capKind, invariant string) report.Finding {
	ev := report.O("cap", cap, "explored", explored, "capKind", capKind)
	if invariant != "" {
		ev = append(ev, report.KV{Key: "invariant", Value: invariant})
	}
	unit, advice := "runtime states", "raise maxStates and re-run"
	switch capKind {
	case "leadsToWalk":
		unit = "walked runtime states"
	case "ltlProduct":
		unit = "product states (runtime × formula automaton)"
	case "ltlAutomaton":
		unit, advice = "formula automaton states", "split the formula into smaller properties"
	case "ltlUnconfirmed":
		f := finding(code, report.Warning, fmt.Sprintf("Could not decide %s: the counterexample found did not replay on the runtime, so it is not reported (an internal error; please report it)", subject))
		f.Evidence = ev
		return f
	case "maxDisk":
		f := finding(code, report.Warning, fmt.Sprintf("Could not decide %s: disk budget reached — the spilling search stopped at --max-disk after %d runtime states; raise --max-disk and re-run", subject, explored))
		f.Evidence = ev
		return f
	case "memory":
		f := finding(code, report.Warning, fmt.Sprintf("Could not decide %s: graph larger than --memory — the edges of the %d explored runtime states do not fit in %d bytes; raise --memory and re-run", subject, explored, cap))
		f.Evidence = ev
		return f
	case "partitioned":
		f := finding(code, report.Warning, fmt.Sprintf("Could not decide %s: graph partitioned — it needs the whole graph's edges or paths, which no worker of a partitioned search holds; re-run with --gather (worker 0 holds the graph) or in one process (docs/scale.md)", subject))
		f.Evidence = ev
		return f
	case "pairGraph":
		unit, advice = "state-graph nodes", "the pair-symmetry graph is capped at 1000 nodes"
	case "valueIteration":
		// More states would not help: the chain is explored, the iteration
		// did not converge.
		unit, advice = "value-iteration sweeps", "the chain converges too slowly for value iteration; shrink the model or check it with a probabilistic model checker"
	case "probabilityBracket":
		// No cap stopped anything: the iteration converged, but its
		// bracket still contains the bound.
		f := finding(code, report.Warning, fmt.Sprintf("Could not decide %s: after %d value-iteration sweeps the bracket of the probability still contains the bound, so float arithmetic cannot decide it; shrink the chain so exact rationals apply, or check it with a probabilistic model checker", subject, explored))
		f.Evidence = ev
		return f
	}
	f := finding(code, report.Warning, fmt.Sprintf("Could not decide %s: the search stopped at %d %s; %s", subject, cap, unit, advice))
	f.Evidence = ev
	return f
}

func quoteIDs(ids []string) string {
	q := make([]string, len(ids))
	for i, s := range ids {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// described appends an invariant's description to a message, with no
// dangling separator when the description is empty.
func described(msg, description string) string {
	if description == "" {
		return msg
	}
	return msg + " — " + description
}
