package swarm

import (
	"fmt"
	"math/rand/v2"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/runtime"
	"github.com/stateproof/stateproof/internal/verify"
)

// Plan is what makes one member's search differ from the others'.
type Plan struct {
	Member, Members int
	// Seed drives the member's shuffles; DepthLimit is the deepest it
	// expands (0: no limit).
	Seed       int64
	DepthLimit int
	// Cap is the most runtimes it stores.
	Cap int
}

// NewPlan derives member i of n's plan from a base seed: member 0 is the
// plain depth-first search (model event order, no depth limit); the
// others shuffle each node's successors with their own stream and take a
// depth limit from 16 up to 2048 (i cycling through them), so that some
// members dig deep and others sweep the shallow part widely.
func NewPlan(i, n int, seed int64, cap int) Plan {
	p := Plan{Member: i, Members: n, Seed: seed, Cap: cap}
	if i > 0 {
		p.DepthLimit = 16 << ((i - 1) % 8)
	}
	return p
}

// check is one invariant a member tests on every runtime it stores.
type check struct {
	inv  *jsonmodel.Invariant
	test func(r []int64, initial bool) (string, bool)
}

// checks lists the invariants of m that a per-runtime test decides.
func checks(m *jsonmodel.Model, mc *runtime.Machine) []check {
	var cs []check
	for i := range m.Invariants {
		inv := &m.Invariants[i]
		if t := verify.StateViolation(m, mc, inv); t != nil {
			cs = append(cs, check{inv, t})
		}
	}
	return cs
}

// frame is a node on the depth-first stack with its successors still to
// try.
type frame struct {
	node, depth int
	next        []succ
}

type succ struct {
	words []int64
	trans int
}

// Run searches the model as plan says and returns the member's report
// (Model and ModelHash left for the caller).
func Run(m *jsonmodel.Model, plan Plan) *Report {
	mc := runtime.Compile(m)
	cs := checks(m, mc)
	rep := &Report{Schema: MemberSchema, Member: &plan.Member, Members: &plan.Members,
		Seed: &plan.Seed, DepthLimit: &plan.DepthLimit, Cap: plan.Cap}
	g := explore.NewStore(mc, 0, plan.Cap)
	rng := rand.New(rand.NewPCG(uint64(plan.Seed), uint64(plan.Member)))
	open := make([]bool, len(cs))
	left := len(cs)
	for k := range open {
		open[k] = true
	}
	visit := func(i int, r []int64) {
		for k, c := range cs {
			if !open[k] {
				continue
			}
			if what, bad := c.test(r, i == 0); bad {
				open[k] = false
				left--
				rep.Violations = append(rep.Violations, violation(g, c.inv, what, i))
			}
		}
	}
	root := mc.Initial(make([]int64, mc.Width()))
	g.Intern(root, -1, -1)
	visit(0, root)
	stack := []frame{{node: 0, next: successors(mc, root, plan.Member > 0, rng)}}
	truncated := false
	for len(stack) > 0 && left > 0 && !truncated {
		top := &stack[len(stack)-1]
		if len(top.next) == 0 || (plan.DepthLimit > 0 && top.depth >= plan.DepthLimit) {
			stack = stack[:len(stack)-1]
			continue
		}
		s := top.next[0]
		top.next = top.next[1:]
		i, fresh := g.Intern(s.words, top.node, s.trans)
		if !fresh {
			continue
		}
		if g.Len() > plan.Cap {
			truncated = true
			break
		}
		visit(i, s.words)
		stack = append(stack, frame{node: i, depth: top.depth + 1, next: successors(mc, s.words, plan.Member > 0, rng)})
	}
	explored := min(g.Len(), plan.Cap)
	rep.Explored = &explored
	rep.Verdict, rep.VerdictReason = Undecided, undecidedReason(len(cs), truncated)
	if len(rep.Violations) > 0 {
		rep.Verdict = Fail
		rep.VerdictReason = fmt.Sprintf("%d invariant(s) violated (stateproof merge replays and shortens the paths)", len(rep.Violations))
	}
	rep.ExitCode = ExitCode(rep.Verdict)
	return rep
}

func undecidedReason(checks int, truncated bool) string {
	switch {
	case checks == 0:
		return "the model has no never-states or var-in-range invariant for a swarm to look for"
	case truncated:
		return "no violation found before the cap; a swarm member never decides a pass (run verify for that)"
	}
	return "no violation found; a depth-first swarm member never decides a pass (run verify for that)"
}

// successors lists the outcomes of every event in r, in model order or
// shuffled, each with its own copy of the words.
func successors(mc *runtime.Machine, r []int64, shuffle bool, rng *rand.Rand) []succ {
	var buf runtime.StepBuffer
	var out []succ
	for e := range mc.Events {
		for _, o := range mc.Fire(r, e, &buf) {
			out = append(out, succ{words: append([]int64(nil), o.Next...), trans: o.Label})
		}
	}
	if shuffle {
		rng.Shuffle(len(out), func(a, b int) { out[a], out[b] = out[b], out[a] })
	}
	return out
}

// violation renders the violation of inv at node i of g.
func violation(g *explore.Graph, inv *jsonmodel.Invariant, what string, i int) Violation {
	return Violation{Code: "S7_INVARIANT_VIOLATION", Invariant: inv.ID,
		Message: fmt.Sprintf("Invariant %q violated: %s", inv.ID, what), Path: pathTo(g, i)}
}

// pathTo is the path from g's root to node i, with model transitions.
func pathTo(g *explore.Graph, i int) []Step {
	var rev []int
	for {
		p, t := g.Parent(i)
		if p < 0 {
			break
		}
		rev = append(rev, t)
		i = p
	}
	path := make([]Step, 0, len(rev))
	for k := len(rev) - 1; k >= 0; k-- {
		s := g.StepOf(rev[k])
		path = append(path, Step{From: s.From, Event: s.Event, To: s.To, Transition: rev[k]})
	}
	return path
}
