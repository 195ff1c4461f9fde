package swarm

import (
	"math/rand/v2"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
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

// frame is a node on the depth-first stack with its successors still to
// try.
type frame struct {
	node, depth int
	next        []succ
}

type succ struct {
	words []int64
	label int
}

// Run searches the target as plan says and returns the member's report
// (Model and ModelHash left for the caller).
func Run(t Target, plan Plan) *Report {
	mc := t.Machine()
	rep := &Report{Schema: MemberSchema, Member: &plan.Member, Members: &plan.Members,
		Seed: &plan.Seed, DepthLimit: &plan.DepthLimit, Cap: plan.Cap}
	g := explore.NewStore(mc, 0, plan.Cap)
	rng := rand.New(rand.NewPCG(uint64(plan.Seed), uint64(plan.Member)))
	hunts, none := t.Hunts()
	found := map[string]bool{}
	want := func(key string) bool { return !found[key] }
	visit := func(i int, r []int64) {
		for _, f := range t.Find(r, i == 0, want) {
			found[f.Key] = true
			rep.Violations = append(rep.Violations, Violation{Code: f.Code, Invariant: f.Key, Message: f.Message, Path: pathTo(t, g, i)})
		}
	}
	hunting := func() bool { return hunts < 0 || len(found) < hunts }
	var buf concrete.Buffer
	root := mc.Initial(make([]int64, mc.Width()))
	g.Intern(root, -1, -1)
	visit(0, root)
	stack := []frame{{node: 0, next: successors(mc, root, &buf, plan.Member > 0, rng)}}
	truncated := false
	for len(stack) > 0 && hunting() && !truncated {
		top := &stack[len(stack)-1]
		if len(top.next) == 0 || (plan.DepthLimit > 0 && top.depth >= plan.DepthLimit) {
			stack = stack[:len(stack)-1]
			continue
		}
		s := top.next[0]
		top.next = top.next[1:]
		i, fresh := g.Intern(s.words, top.node, s.label)
		if !fresh {
			continue
		}
		if g.Len() > plan.Cap {
			truncated = true
			break
		}
		visit(i, s.words)
		stack = append(stack, frame{node: i, depth: top.depth + 1, next: successors(mc, s.words, &buf, plan.Member > 0, rng)})
	}
	explored := min(g.Len(), plan.Cap)
	rep.Explored = &explored
	rep.Verdict, rep.VerdictReason = Undecided, undecidedReason(hunts, none, truncated)
	if len(rep.Violations) > 0 {
		rep.Verdict = Fail
		rep.VerdictReason = t.Found(len(rep.Violations)) + " (stateproof merge replays and shortens the paths)"
	}
	rep.ExitCode = ExitCode(rep.Verdict)
	return rep
}

func undecidedReason(hunts int, none string, truncated bool) string {
	switch {
	case hunts == 0:
		return none
	case truncated:
		return "no violation found before the cap; a swarm member never decides a pass (run verify for that)"
	}
	return "no violation found; a depth-first swarm member never decides a pass (run verify for that)"
}

// successors lists every step out of r (Fired: steps that reach the same
// state are kept apart, so the member's choices do not depend on which a
// merging would keep), in the machine's order or shuffled, each with its
// own copy of the words.
func successors(mc concrete.Machine, r []int64, buf *concrete.Buffer, shuffle bool, rng *rand.Rand) []succ {
	var out []succ
	for _, o := range mc.Fired(r, buf) {
		out = append(out, succ{words: append([]int64(nil), o.Next...), label: o.Label})
	}
	if shuffle {
		rng.Shuffle(len(out), func(a, b int) { out[a], out[b] = out[b], out[a] })
	}
	return out
}

// pathTo is the path from g's root to node i, each step rendered by t.
func pathTo(t Target, g *explore.Graph, i int) []Step {
	var rev []int
	for {
		p, _ := g.Parent(i)
		if p < 0 {
			break
		}
		rev = append(rev, i)
		i = p
	}
	path := make([]Step, 0, len(rev))
	for k := len(rev) - 1; k >= 0; k-- {
		p, label := g.Parent(rev[k])
		path = append(path, t.Step(g.Runtime(p, nil), g.Runtime(rev[k], nil), label))
	}
	return path
}
