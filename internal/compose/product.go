package compose

import (
	"slices"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/progress"
	"github.com/stateproof/stateproof/internal/runtime"
)

// event is one event of the union alphabet with what the product needs to
// fire it.
type event struct {
	name      string
	rdv       bool  // listed with --rendezvous
	declaring []int // machines whose alphabet holds it, in index order
	local     []int // per machine: its index in that machine's alphabet, or -1
}

// product is the breadth-first search over composite states. Node n is the
// tuple tuples[n*k : (n+1)*k] of machine-local runtime ids.
type product struct {
	k      int
	locals []*local
	events []event
	cap    int
	done   <-chan struct{} // closed: stop as the cap would
	// progress hears the search's snapshots, taken when sample is due;
	// levels follows the depth.
	progress progress.Reporter
	sample   progress.Sampler
	levels   progress.Levels

	tuples     []uint32
	table      []uint64 // hash tag in the high 32 bits, node+1 in the low 32
	parent     []int32
	viaEvent   []int32 // index into events; -1 for the root
	viaMachine []int16 // the machine that moved, -1 for a rendezvous

	expanded  int
	truncated bool

	deadlocks []int       // every deadlocked node (a composite runtime), breadth-first
	sync      []syncStats // per event, for C2 (rendezvous events only)
}

// syncStats is what C2 reports about one rendezvous event.
type syncStats struct {
	fired       bool
	everEnabled []bool  // per machine
	enabledAt   [][]int // per machine, up to 8 distinct state indexes
	coEnabled   int
}

const maxEnabledAt = 8

func newProduct(mcs []*runtime.Machine, rendezvous []string, cap int) *product {
	p := &product{k: len(mcs), cap: cap}
	seen := map[string]bool{}
	var names []string
	for _, mc := range mcs {
		p.locals = append(p.locals, newLocal(mc))
		for _, e := range mc.Events {
			if !seen[e] {
				seen[e] = true
				names = append(names, e)
			}
		}
	}
	jsonvalue.SortUTF16(names)
	for _, name := range names {
		ev := event{name: name, rdv: slices.Contains(rendezvous, name)}
		for i, mc := range mcs {
			li := mc.EventIndex(name)
			ev.local = append(ev.local, li)
			if li >= 0 {
				ev.declaring = append(ev.declaring, i)
			}
		}
		p.events = append(p.events, ev)
		p.sync = append(p.sync, syncStats{everEnabled: make([]bool, p.k), enabledAt: make([][]int, p.k)})
	}
	size := 1024
	for size < 2*min(cap, 1<<22) {
		size <<= 1
	}
	p.table = make([]uint64, size)
	return p
}

func (p *product) len() int { return len(p.parent) }

func (p *product) tuple(n int) []uint32 { return p.tuples[n*p.k : (n+1)*p.k] }

// add interns a composite tuple; it reports false when the search must stop
// because the cap was exceeded.
func (p *product) add(t []uint32, parent, ev, machine int) bool {
	h := explore.HashWords(t)
	mask := len(p.table) - 1
	tag := h >> 32
	s := int(h) & mask
	for ; p.table[s] != 0; s = (s + 1) & mask {
		e := p.table[s]
		if e>>32 == tag && slices.Equal(p.tuple(int(uint32(e))-1), t) {
			return true
		}
	}
	n := p.len()
	p.tuples = append(p.tuples, t...)
	p.parent = append(p.parent, int32(parent))
	p.viaEvent = append(p.viaEvent, int32(ev))
	p.viaMachine = append(p.viaMachine, int16(machine))
	p.table[s] = tag<<32 | uint64(n+1)
	if 4*(n+1) > 3*len(p.table) {
		p.rehash()
	}
	if p.len() > p.cap {
		p.truncated = true
		return false
	}
	return true
}

func (p *product) rehash() {
	old := p.table
	p.table = make([]uint64, 2*len(old))
	mask := len(p.table) - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		s := int(explore.HashWords(p.tuple(int(uint32(e))-1))) & mask
		for p.table[s] != 0 {
			s = (s + 1) & mask
		}
		p.table[s] = e
	}
}

// run explores the product breadth-first from the tuple of initial
// runtimes. Successor order: events in sorted union-alphabet order; for a
// non-rendezvous event, machines in index order; for a rendezvous, the
// cross product of the participants' outcomes in machine order.
// cancelPoll is how many composite states the search expands between
// looks at done.
const cancelPoll = 1024

// cancelled reports whether p.done is closed.
func (p *product) cancelled() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// report sends the search's snapshot when one is due.
func (p *product) report() {
	if p.progress == nil || !p.sample.Due() {
		return
	}
	n := p.len()
	depth := p.levels.At(p.expanded, n, func(i int) int { return int(p.parent[i]) })
	p.progress.Report(progress.Snapshot{Engine: progress.Search, Task: "product",
		States: int64(n), Queue: int64(n - p.expanded), Depth: depth})
}

func (p *product) run() {
	root := make([]uint32, p.k)
	for i, l := range p.locals {
		root[i] = l.initial()
	}
	if !p.add(root, -1, -1, -1) {
		return
	}
	cur := make([]uint32, p.k)
	next := make([]uint32, p.k)
	term := make([]bool, p.k)
	for p.expanded < p.len() {
		n := p.expanded
		if n%cancelPoll == 0 {
			p.report()
			if p.done != nil && p.cancelled() {
				p.truncated = true
				return
			}
		}
		copy(cur, p.tuple(n))
		live := false
		for i, l := range p.locals {
			l.expand(cur[i])
			term[i] = l.term[cur[i]]
			live = live || !term[i]
		}
		p.observeSync(cur, term)
		moved := false
		for u := range p.events {
			ev := &p.events[u]
			var ok bool
			if ev.rdv {
				ok = p.fireRendezvous(n, u, cur, next, term, &moved)
			} else {
				ok = p.fireSingle(n, u, cur, next, term, &moved)
			}
			if !ok {
				return
			}
		}
		if !moved && live {
			// Nodes are distinct composite runtimes: each is a finding.
			p.deadlocks = append(p.deadlocks, n)
		}
		p.expanded++
	}
}

// fireSingle adds the successors of a non-rendezvous event: each
// non-terminal declaring machine moves alone.
func (p *product) fireSingle(n, u int, cur, next []uint32, term []bool, moved *bool) bool {
	ev := &p.events[u]
	for _, i := range ev.declaring {
		if term[i] {
			continue
		}
		for _, o := range p.locals[i].outcomes(cur[i], ev.local[i]) {
			*moved = true
			copy(next, cur)
			next[i] = o.next
			if !p.add(next, n, u, i) {
				return false
			}
		}
	}
	return true
}

// participants returns the non-terminal declaring machines of a rendezvous
// and whether it can fire: at least two machines declare it, at least two
// declaring machines are non-terminal, and every one of those has it
// enabled. It is the one predicate both the search and the C1 census use.
func (p *product) participants(u int, cur []uint32, term []bool) (parts []int, fires bool) {
	ev := &p.events[u]
	if len(ev.declaring) < 2 {
		return nil, false
	}
	fires = true
	for _, i := range ev.declaring {
		if term[i] {
			continue
		}
		parts = append(parts, i)
		if len(p.locals[i].outcomes(cur[i], ev.local[i])) == 0 {
			fires = false
		}
	}
	return parts, fires && len(parts) >= 2
}

// fireRendezvous adds the successors of a rendezvous: all participants
// step together, their outcomes combined as a cross product.
func (p *product) fireRendezvous(n, u int, cur, next []uint32, term []bool, moved *bool) bool {
	parts, fires := p.participants(u, cur, term)
	if !fires {
		return true
	}
	ev := &p.events[u]
	p.sync[u].fired = true
	*moved = true
	outs := make([][]edge, len(parts))
	for j, i := range parts {
		outs[j] = p.locals[i].outcomes(cur[i], ev.local[i])
	}
	pick := make([]int, len(parts))
	for {
		copy(next, cur)
		for j, i := range parts {
			next[i] = outs[j][pick[j]].next
		}
		if !p.add(next, n, u, -1) {
			return false
		}
		j := len(parts) - 1
		for ; j >= 0; j-- {
			if pick[j]++; pick[j] < len(outs[j]) {
				break
			}
			pick[j] = 0
		}
		if j < 0 {
			return true
		}
	}
}

// observeSync records, for C2, which machines have each rendezvous enabled
// in the composite state being expanded.
func (p *product) observeSync(cur []uint32, term []bool) {
	for u := range p.events {
		ev := &p.events[u]
		if !ev.rdv {
			continue
		}
		st := &p.sync[u]
		all, some := true, false
		for _, i := range ev.declaring {
			if term[i] {
				continue
			}
			some = true
			l := p.locals[i]
			if len(l.outcomes(cur[i], ev.local[i])) == 0 {
				all = false
				continue
			}
			st.everEnabled[i] = true
			if s := l.state(cur[i]); len(st.enabledAt[i]) < maxEnabledAt && !slices.Contains(st.enabledAt[i], s) {
				st.enabledAt[i] = append(st.enabledAt[i], s)
			}
		}
		if all && some {
			st.coEnabled++
		}
	}
}

// terminals returns the per-machine terminal flags of node n.
func (p *product) terminals(n int) []bool {
	t := p.tuple(n)
	out := make([]bool, p.k)
	for i, l := range p.locals {
		out[i] = l.term[t[i]]
	}
	return out
}
