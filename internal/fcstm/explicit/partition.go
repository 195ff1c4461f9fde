package explicit

import (
	"cmp"
	"slices"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/report"
)

// Reached is what a partitioned search (internal/cluster) tells of the
// exploration when worker 0 does not hold its graph: what Marks named,
// per key the least node that showed it. Check reads it instead of a
// graph, and reports what it would report from the graph, byte for byte
// (docs/scale.md, "partitions").
type Reached struct {
	// Len is the number of states explored, Expanded how many of them
	// (the first) were expanded, Cap the cap and Truncated whether it
	// stopped the search.
	Len, Expanded, Cap int
	Truncated          bool
	// Machine is the machine Marks' words are over.
	Machine *Machine
	Marks   map[string]Hit
}

// Hit is the least node that showed a mark: its index, and for a mark
// that asks for it its words and path.
type Hit struct {
	Index int
	Words []int64
	Path  []explore.Step
}

// The kinds of mark, the first byte of a key.
const (
	markReached   = 'r' // + a leaf: some node rests in it (no path)
	markDead      = 'd' // + a leaf: a dead end in it
	markRaised    = 'x' // + the location's portable encoding
	markUndecided = 'u'
)

// Marks returns what an owner of a partitioned search reports of each of
// its states (cluster.Config.Marks), called in node order: the leaf it
// rests in, a dead end (the first per leaf: only the least matters, so
// no later node of a leaf with one is stepped again), a raised location
// and an undecided one. Keys are names and encodings, not this process's
// location numbers. Not safe for concurrent use.
func (mc *Machine) Marks() func(words []int64, root bool, mark func(key string, path bool)) {
	dead := map[string]bool{}
	keys := map[int64]string{}
	var buf concrete.Buffer
	return func(words []int64, _ bool, mark func(string, bool)) {
		loc := mc.Location(words[0])
		switch loc.Kind {
		case Running:
			key, ok := keys[words[0]]
			if !ok {
				key = string(markReached) + loc.State
				keys[words[0]] = key
			}
			mark(key, false)
			if !dead[loc.State] && !changes(mc, words, &buf) {
				dead[loc.State] = true
				mark(string(markDead)+loc.State, true)
			}
		case Raised:
			mark(string(markRaised)+string(mc.appendLoc(nil, loc)), true)
		case Undecided:
			mark(string(markUndecided), true)
		}
	}
}

// searched is what Check reports from: the graph's or a Reached's.
type searched struct {
	n                     int
	truncated, diskBudget bool
	reached               map[string]bool
	raised, dead          []node // in node order
	undecided             *node  // the first: its path is the shortest
}

// node is one node a finding names.
type node struct {
	index int
	loc   *Location
	from  string // the location of its parent ("" for the root)
	path  []report.Step
}

// fromReached reads what a partitioned search's owners marked.
func fromReached(r *Reached) searched {
	mc := r.Machine
	s := searched{n: r.Len, truncated: r.Truncated, reached: map[string]bool{}}
	for key, h := range r.Marks {
		if key == "" {
			continue
		}
		if key[0] == markReached {
			s.reached[key[1:]] = true
			continue
		}
		if h.Words == nil {
			continue // no path asked: not a mark of these
		}
		n := node{index: h.Index, loc: mc.Location(h.Words[0])}
		for _, st := range h.Path {
			n.path = append(n.path, report.Step{From: st.From, Event: st.Event, To: st.To})
		}
		if len(h.Path) > 0 {
			n.from = h.Path[len(h.Path)-1].From
		}
		switch {
		case key[0] == markRaised:
			s.raised = append(s.raised, n)
		case key[0] == markDead && h.Index < r.Expanded:
			s.dead = append(s.dead, n)
		case key[0] == markUndecided:
			s.undecided = &n
		}
	}
	byIndex := func(a, b node) int { return cmp.Compare(a.index, b.index) }
	slices.SortFunc(s.raised, byIndex)
	slices.SortFunc(s.dead, byIndex)
	return s
}
