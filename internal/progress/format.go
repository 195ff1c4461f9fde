package progress

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Text is the tick as one line for a person or a CI log, without a
// newline: elapsed time, then the engine's counters.
func (t Tick) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%.1f s", t.Elapsed.Seconds())
	if t.Task != "" {
		fmt.Fprintf(&b, " %s %s:", t.Engine, t.Task)
	} else {
		fmt.Fprintf(&b, " %s:", t.Engine)
	}
	switch t.Engine {
	case Search:
		fmt.Fprintf(&b, " %d states stored", t.States)
		if t.Rate >= 0 {
			fmt.Fprintf(&b, ", %.0f states/s", t.Rate)
		}
		fmt.Fprintf(&b, ", depth %d, queue %d", t.Depth, t.Queue)
	case BMC:
		if t.Queries > 1 {
			fmt.Fprintf(&b, " query %d of %d,", t.Query, t.Queries)
		}
		fmt.Fprintf(&b, " bound %d of %d, %s", t.Bound, t.MaxBound, t.Stage)
	case Prove:
		fmt.Fprintf(&b, " layer %s, %d of %d proved", t.Layer, t.Proved, t.Properties)
		if t.Violated > 0 {
			fmt.Fprintf(&b, ", %d violated", t.Violated)
		}
	case Simulate:
		fmt.Fprintf(&b, " cycle %d of %d", t.Cycle, t.Cycles)
	}
	return b.String()
}

// JSON is the tick as one JSON object (docs/reports.md, "Progress"):
// "kind":"progress", the elapsed milliseconds, the engine and its
// counters, in a fixed order.
func (t Tick) JSON() []byte {
	o := object{}
	o.str("kind", "progress")
	o.num("elapsed_ms", t.Elapsed.Milliseconds())
	o.str("engine", t.Engine)
	if t.Task != "" {
		o.str("task", t.Task)
	}
	switch t.Engine {
	case Search:
		o.num("states", t.States)
		if t.Rate >= 0 {
			o.raw("states_per_s", strconv.FormatFloat(math.Round(t.Rate), 'f', -1, 64))
		}
		o.num("depth", int64(t.Depth))
		o.num("queue", t.Queue)
	case BMC:
		o.num("query", int64(t.Query))
		o.num("queries", int64(t.Queries))
		o.num("bound", int64(t.Bound))
		o.num("max_bound", int64(t.MaxBound))
		o.str("stage", t.Stage)
	case Prove:
		o.str("layer", t.Layer)
		o.num("proved", int64(t.Proved))
		o.num("violated", int64(t.Violated))
		o.num("properties", int64(t.Properties))
	case Simulate:
		o.num("cycle", int64(t.Cycle))
		o.num("cycles", int64(t.Cycles))
	}
	return o.close()
}

// object writes a JSON object's members in the order given.
type object struct{ b []byte }

func (o *object) key(k string) {
	if len(o.b) == 0 {
		o.b = append(o.b, '{')
	} else {
		o.b = append(o.b, ',')
	}
	o.b = strconv.AppendQuote(o.b, k) // keys are ours: plain ASCII
	o.b = append(o.b, ':')
}

func (o *object) str(k, v string) {
	o.key(k)
	data, _ := json.Marshal(v) // a string always marshals
	o.b = append(o.b, data...)
}

func (o *object) num(k string, v int64) { o.raw(k, strconv.FormatInt(v, 10)) }

func (o *object) raw(k, v string) {
	o.key(k)
	o.b = append(o.b, v...)
}

func (o *object) close() []byte { return append(o.b, '}') }
