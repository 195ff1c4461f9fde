package explore

import "github.com/stateproof/stateproof/internal/spill"

// Monitors ride on the spilling search as they do on the in-memory one
// (see Monitor), with the same results: each successor of a level
// carries its values, computed from its source's as it is generated (so
// the flags come in the same order); a new node's values go to the
// graph's columns, whose chunks are evicted to disk with the node chunks;
// and an edge to a node already stored — earlier in the level, in the
// visited set, or merged out of a wide level's sorted chunks — compares
// its values with that node's (read back from disk when its chunk was
// evicted). The first edge whose values differ is the conflict, at the
// key the in-memory search gives it. Without this, a spilled search's
// path invariants each ran a second spilling search of their own: half
// the CPU of `gen counter`'s spilling run.

// startMonitors gives the graph a column and a result per monitor; the
// root's values are set by rootMonitors once it is stored.
func (g *Graph) startMonitors(mons []Monitor) {
	for _, mon := range mons {
		g.mon = append(g.mon, newColumn(mon, g.bits))
		g.Monitors = append(g.Monitors, &MonitorResult{Conflict: NoKey, Overflow: NoKey, Horizon: NoKey})
	}
}

// rootMonitors sets the root's values and counts it live.
func (g *Graph) rootMonitors(mons []Monitor) {
	for k, mon := range mons {
		g.mon[k].set(0, mon.Init)
		if mon.Init != mon.Done {
			g.Monitors[k].Live = 1
		}
	}
}

// monitorsOnDisk gives every column a file for its evicted chunks.
func (g *Graph) monitorsOnDisk(d *spill.Dir) error {
	for k := range g.mon {
		if err := g.mon[k].onDisk(d); err != nil {
			return err
		}
	}
	return nil
}

// monitorsStopAt marks where the search stopped early.
func (g *Graph) monitorsStopAt(k Key) {
	for _, res := range g.Monitors {
		res.Horizon = k
	}
}

// nodeBytes is what a stored node holds in the chunks: its packed words,
// its link and its monitor values.
func (g *Graph) nodeBytes() int64 {
	b := int64(g.stride*8 + 8)
	for k := range g.mon {
		b += int64(g.mon[k].bytes())
	}
	return b
}

// evictChunk writes chunk k of the nodes, links and monitor values to
// disk and drops them from memory.
func (g *Graph) evictChunk(k int) error {
	if err := g.arena.evict(k); err != nil {
		return err
	}
	if err := g.links.evict(k); err != nil {
		return err
	}
	for m := range g.mon {
		if err := g.mon[m].evict(k); err != nil {
			return err
		}
	}
	return nil
}

// sourceValues loads the monitor values of source node i.
func (lv *level) sourceValues(i int) {
	for k := range lv.g.mon {
		lv.cur[k] = lv.g.mon[k].get(i)
	}
}

// edgeValues returns the monitor values after the edge-th edge of source
// from (transition t, into node), flagging what the monitors flag. The
// slice is reused by the next call.
func (lv *level) edgeValues(from, edge, t int, node []int64) []int64 {
	vals := lv.vals[:0]
	for k := range lv.s.Monitors {
		v, f, flagged := lv.s.Monitors[k].over(lv.g, from, edge, t, node, lv.cur[k])
		if flagged {
			lv.g.Monitors[k].flag(f)
		}
		vals = append(vals, v)
	}
	lv.vals = vals
	return vals
}

// clash notes a conflict when the edge-th edge of source from brings
// values vals to a stored node that holds others: those in held, or when
// held is nil, node idx's.
func (lv *level) clash(vals []int64, from, edge int, held []int64, idx int) {
	key := edgeKey(from, edge, true)
	for k, mon := range lv.s.Monitors {
		res := lv.g.Monitors[k]
		if v := vals[k]; v == mon.Done || key >= res.Conflict {
			continue
		} else if held != nil && v == held[k] || held == nil && v == lv.g.mon[k].get(idx) {
			continue
		}
		res.Conflict = key
	}
}

// keepValues stores new node idx's monitor values, reached by the
// edge-th edge of source from, and counts it live.
func (lv *level) keepValues(idx int, vals []int64, from, edge int) {
	g := lv.g
	for k, mon := range lv.s.Monitors {
		v := vals[k]
		g.mon[k].set(idx, v)
		if res := g.Monitors[k]; v != mon.Done && res.Overflow == NoKey {
			if res.Live++; res.Live > g.Cap {
				res.Overflow = edgeKey(from, edge, true)
			}
		}
	}
}
